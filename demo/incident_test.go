package demo

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// G-15.4: the headless replay of the incident scenario is pinned, one
// golden per way of answering.
func TestIncidentHeadlessGolden(t *testing.T) {
	for _, answer := range []string{"allow", "deny", "session"} {
		t.Run(answer, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var b bytes.Buffer
			if err := Run(ctx, "incident", []string{"--headless", "--answer", answer}, &b, Options{}); err != nil {
				t.Fatal(err)
			}
			golden(t, "incident-"+answer, b.Bytes())
		})
	}
}

// The transcript is the same from run to run although agents race.
func TestIncidentHeadlessIsDeterministic(t *testing.T) {
	var first string
	for i := range 3 {
		var b bytes.Buffer
		if err := Run(context.Background(), "incident", []string{"--headless", "--answer", "deny"}, &b, Options{}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b.String()
		} else if b.String() != first {
			t.Fatalf("run %d differs:\n%s\n--- first\n%s", i, b.String(), first)
		}
	}
}

// Every agent of the embedded scenario asks something or is refused
// something, and every profile it names exists.
func TestIncidentScenarioLoads(t *testing.T) {
	ws, err := LoadIncident()
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	sc, err := IncidentScenario()
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Agents) < 3 {
		t.Fatalf("want several agents, got %d", len(sc.Agents))
	}
	for _, a := range sc.Agents {
		if _, ok := ws.Profile(a.Profile); !ok {
			t.Errorf("agent %s names unknown profile %q", a.Name, a.Profile)
		}
	}
	if got := ws.Config().Limits.WallTime; got < 5*time.Minute {
		t.Errorf("lines must be able to wait for a human: wall_time %s", got)
	}
}

func TestParseScenarioErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"unknown key", "agents: [{name: a, stepz: []}]", "stepz"},
		{"no name", "agents: [{profile: p}]", "has no name"},
		{"twice", "agents: [{name: a}, {name: a}]", "appears twice"},
		{"both", "agents: [{name: a, steps: [{line: ls, pause: 1s}]}]", "exactly one"},
		{"neither", "agents: [{name: a, steps: [{}]}]", "exactly one"},
		{"bad pause", "agents: [{name: a, steps: [{pause: soon}]}]", "soon"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScenario("s.yaml", []byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	sc, err := ParseScenario("s.yaml", []byte("agents: [{name: a, profile: p, steps: [{line: ls}, {pause: 1500ms}]}]"))
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Agents[0].Steps[1].Pause; got != 1500*time.Millisecond {
		t.Fatalf("pause = %s", got)
	}
}

// Replay runs agents at once: one agent waiting on an ask does not hold
// another, and the waiting one goes on when the ask is answered.
func TestReplayAgentsRunIndependently(t *testing.T) {
	ws, err := LoadIncident(core.OnAsk(func(ctx context.Context, _ decisions.Record) (decisions.Answer, error) {
		<-ctx.Done()
		return decisions.Answer{}, ctx.Err()
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	sc := &Scenario{Agents: []ScenarioAgent{
		{Name: "waiter", Profile: "responder", Steps: []Step{{Line: "cat /vault/break-glass/failover.md"}}},
		{Name: "reader", Profile: "auditor", Steps: []Step{{Line: "cat /deploy/releases/current"}}},
	}}
	done := make(chan []StepResult, 1)
	readerDone := make(chan StepResult, 2)
	go func() {
		res, _ := Replay(context.Background(), ws, sc, ReplayOptions{OnStep: func(r StepResult) { readerDone <- r }})
		done <- res
	}()
	first := <-readerDone
	if first.Agent != "reader" || first.Result.ExitCode != 0 {
		t.Fatalf("first finished: %+v", first)
	}
	var pending []decisions.Record
	for deadline := time.Now().Add(5 * time.Second); len(pending) == 0 && time.Now().Before(deadline); {
		pending, _ = ws.Decisions().Pending(context.Background(), "")
		time.Sleep(10 * time.Millisecond)
	}
	if len(pending) != 1 {
		t.Fatalf("pending = %d", len(pending))
	}
	if _, err := ws.Decisions().Answer(context.Background(), pending[0].ID, decisions.Answer{Outcome: decisions.Allow, By: "test"}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if len(res) != 2 || res[0].Agent != "waiter" || res[0].Result.ExitCode != 0 {
		t.Fatalf("results: %+v", res)
	}
}

// G-15.4: `demo incident` without --headless opens the console its caller
// wires in (package main passes the real one), handing on its arguments.
func TestIncidentOpensTheConsoleItIsGiven(t *testing.T) {
	t.Parallel()
	var got []string
	console := func(_ context.Context, args []string, _ io.Writer) error { got = args; return nil }
	if err := Run(context.Background(), "incident", []string{"--quiet"}, io.Discard, Options{Console: console}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "--quiet" {
		t.Errorf("console got %q, want the demo's arguments", got)
	}
	err := Run(context.Background(), "incident", nil, io.Discard, Options{})
	if err == nil || !strings.Contains(err.Error(), "console is not available") {
		t.Errorf("without a console: %v", err)
	}
}
