package demo

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

//go:embed ask/workspace.yaml
var askDoc []byte

func loadAsk(opts ...core.Option) (*core.Workspace, error) {
	cfg, err := core.ParseDocument("demo/ask/workspace.yaml", askDoc)
	if err != nil {
		return nil, err
	}
	return core.FromConfig(cfg, opts...)
}

// Ask: an inline reviewer allows one guarded rm once, so the same line asks
// again — and this time the reviewer refuses (G-15.3, G-10.4).
func Ask(ctx context.Context, w io.Writer) error {
	var mu sync.Mutex
	answers := []decisions.Answer{
		{Outcome: decisions.Allow, Scope: decisions.Once, Note: "ok, once"},
		{Outcome: decisions.Deny, Note: "not twice"},
	}
	var seen []string
	reviewer := func(ctx context.Context, rec decisions.Record) (decisions.Answer, error) {
		mu.Lock()
		defer mu.Unlock()
		a := answers[0]
		if len(answers) > 1 {
			answers = answers[1:]
		}
		seen = append(seen, fmt.Sprintf("%s (%s) -> %s %s", rec.Command, rec.Reason, a.Outcome, a.Scope))
		return a, nil
	}
	ws, err := loadAsk(core.OnAsk(reviewer))
	if err != nil {
		return err
	}
	defer ws.Close()
	s, err := ws.CreateSession("agent", core.Profile("guarded"))
	if err != nil {
		return err
	}
	t := &table{header: []string{"STEP", "LINE", "REVIEWER", "EXIT", "STDOUT", "STDERR", "REFUSAL"}}
	for i, line := range []string{"rm notes.txt", "ls", "touch notes.txt", "rm notes.txt", "rm notes.txt", "ls"} {
		mu.Lock()
		before := len(seen)
		mu.Unlock()
		res := s.Execute(ctx, line)
		mu.Lock()
		reviewed := "-"
		if len(seen) > before {
			reviewed = strings.Join(seen[before:], "; ")
		}
		mu.Unlock()
		t.add(strconv.Itoa(i+1), line, reviewed, strconv.Itoa(res.ExitCode), oneLine(res.Stdout), oneLine(res.Stderr), refusalCell(res))
	}
	return t.write(w)
}

func refusalCell(res core.Result) string {
	if res.Refusal == nil {
		return "-"
	}
	r := res.Refusal
	cell := r.Kind + "/" + r.Scope
	if r.Status != "" {
		cell += " " + r.Status
	}
	return cell
}

// AskPending: with no reviewer two asked lines wait in the ledger; the host
// reads the queue, answers the cat once and the rm for the session; the
// retries run and only the cat asks again (G-15.3, G-9.8).
func AskPending(ctx context.Context, w io.Writer) error {
	ws, err := loadAsk()
	if err != nil {
		return err
	}
	defer ws.Close()
	s, err := ws.CreateSession("agent", core.Profile("guarded"))
	if err != nil {
		return err
	}
	l := ws.Decisions()
	t := &table{header: []string{"STEP", "WHO", "ACTION", "EXIT", "STDOUT", "STDERR", "REFUSAL"}}
	step := 0
	row := func(who, action string, res *core.Result) {
		step++
		if res == nil {
			t.add(strconv.Itoa(step), who, action, "-", "-", "-", "-")
			return
		}
		t.add(strconv.Itoa(step), who, action, strconv.Itoa(res.ExitCode), oneLine(res.Stdout), oneLine(res.Stderr), refusalCell(*res))
	}
	lines := []string{"cat secret.txt", "rm old.log"}
	for _, line := range lines {
		res := s.Execute(ctx, line)
		row("agent", line, &res)
	}
	pending, err := l.Pending(ctx, s.ID())
	if err != nil {
		return err
	}
	for i, rec := range pending {
		row("host", fmt.Sprintf("queue #%d: %s — %s", i+1, rec.Command, rec.Reason), nil)
	}
	for _, rec := range pending {
		a := decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Once, By: "host"}
		if strings.HasPrefix(rec.Command, "rm") {
			a.Scope = decisions.Session
		}
		if _, err := l.Answer(ctx, rec.ID, a); err != nil {
			return err
		}
		row("host", fmt.Sprintf("allow %s: %s", a.Scope, rec.Command), nil)
	}
	for _, line := range []string{"cat secret.txt", "rm old.log", "touch old.log", "cat secret.txt", "rm old.log"} {
		res := s.Execute(ctx, line)
		row("agent", line, &res)
	}
	return t.write(w)
}
