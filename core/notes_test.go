package core

import (
	"context"
	"strings"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/core/gate"
)

// The human's word reaches the agent (G-9.5): a deny's note rides on the
// deny record, whether the line waited for the answer or the agent
// retried after it, for a line and for a file operation; RefusalLines
// words it, and a rule's own deny reason, for the text doors.
func TestDenyNoteReachesTheAgent(t *testing.T) {
	t.Parallel()
	const note = "use the staging copy"
	deny := decisions.Answer{Outcome: decisions.Deny, Note: note, By: "test"}

	t.Run("retry after the answer", func(t *testing.T) {
		t.Parallel()
		f := newAskFixture(t)
		ids := f.pendingIDs(f.run("rm x"), 1)
		if _, err := f.ws.Decisions().Answer(context.Background(), ids[0], deny); err != nil {
			t.Fatal(err)
		}
		res := f.run("rm x")
		checkDenyNote(t, res, ids[0], note)
	})
	t.Run("answered while the line waits", func(t *testing.T) {
		t.Parallel()
		f := newAskFixture(t, OnAsk(func(context.Context, decisions.Record) (decisions.Answer, error) { return deny, nil }))
		res := f.run("rm x")
		if res.Refusal == nil {
			t.Fatalf("no refusal: %+v", res)
		}
		checkDenyNote(t, res, res.Refusal.AskID, note)
	})
	t.Run("file operation", func(t *testing.T) {
		t.Parallel()
		f := newAskFixture(t, OnAsk(func(context.Context, decisions.Record) (decisions.Answer, error) { return deny, nil }))
		_, err := f.s.WriteFile(context.Background(), "secret.txt", "new\n")
		fe, ok := err.(*FileError)
		if !ok || fe.Refusal == nil || fe.Refusal.Note != note {
			t.Fatalf("write_file denied with a note: %#v", err)
		}
	})
}

func checkDenyNote(t *testing.T, res Result, askID, note string) {
	t.Helper()
	if res.ExitCode != 126 || res.Stderr != "rm: Permission denied\n" {
		t.Errorf("voice: exit %d stderr %q", res.ExitCode, res.Stderr)
	}
	if res.Refusal == nil || res.Refusal.Kind != "deny" || res.Refusal.Note != note {
		t.Fatalf("deny record with the note: %+v", res.Refusal)
	}
	want := "denied by a reviewer (ask " + askID + ")\nnote from reviewer: " + note + "\n"
	if got := RefusalLines(res); got != want {
		t.Errorf("RefusalLines = %q, want %q", got, want)
	}
}

func TestRefusalLines(t *testing.T) {
	t.Parallel()
	f := newAskFixture(t)
	cases := []struct{ line, want string }{
		{"rm -rf x", "denied: never recursive\n"},                            // a rule's reason on a command deny
		{"cat secret.txt", "requires approval: secrets need sign-off (ask "}, // pending, with its id
		{"echo hi", ""},
	}
	for _, c := range cases {
		got := RefusalLines(f.run(c.line))
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: RefusalLines = %q, want prefix %q", c.line, got, c.want)
		}
	}
	// A multi-line note stays on one line: it cannot pass for output.
	res := Result{Refusals: []gate.Refusal{{Kind: "deny", AskID: "a1", Note: "no.\nexit code: 0"}}}
	if got := RefusalLines(res); got != "denied by a reviewer (ask a1)\nnote from reviewer: no. exit code: 0\n" {
		t.Errorf("multi-line note: %q", got)
	}
}

// A line that runs out of time while it waits for an answer leaves its ask
// recorded as timed out, not pending (G-13.5); one whose caller gives up
// leaves it withdrawn.
func TestWaitEndsRecordTheirState(t *testing.T) {
	t.Parallel()
	wait := func(ctx context.Context, _ decisions.Record) (decisions.Answer, error) {
		<-ctx.Done()
		return decisions.Answer{}, ctx.Err()
	}
	f := newAskFixture(t, OnAsk(wait), WithLimits(Limits{WallTime: 300 * time.Millisecond}))
	res := f.run("rm x")
	if res.ExitCode != 126 || res.Refusal == nil || res.Refusal.Status != "pending" {
		t.Fatalf("timed-out wait: %+v", res)
	}
	rec, err := f.ws.Decisions().Get(context.Background(), res.Refusal.AskID)
	if err != nil || rec.State() != decisions.StateTimedOut {
		t.Fatalf("state %q (%v), want timed out", rec.State(), err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	res = f.s.Execute(ctx, "rm plain.txt")
	rec, err = f.ws.Decisions().Get(context.Background(), res.Refusal.AskID)
	if err != nil || rec.State() != decisions.StateWithdrawn {
		t.Fatalf("state %q (%v), want withdrawn", rec.State(), err)
	}
}
