package main

import (
	"context"
	"strings"
	"testing"

	"gatehouse/store"
	"gatehouse/store/sqlite"
	"gatehouse/store/storetest"
)

// list-asks --all shows each ask's true state (G-10.5): pending, allowed,
// denied, withdrawn (its line was cancelled) and timed out; list-asks
// alone shows only the queue.
func TestListAsksStates(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	ctx := context.Background()
	l, err := sqlite.Open(c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.CreateSession(ctx, store.SessionRow{ID: "s1", AgentID: "a", Profile: "responder"}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, name := range []string{"pending", "allowed", "denied", "withdrawn", "timedout"} {
		rec, _, err := l.RaiseAsk(ctx, storetest.Question("s1", "rm "+name, "0"))
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = rec.ID
	}
	steps := []error{
		func() error {
			_, err := l.AnswerAsk(ctx, ids["allowed"], store.Settlement{Outcome: store.Allow, Scope: store.Once, Grant: store.GrantOnce})
			return err
		}(),
		func() error {
			_, err := l.AnswerAsk(ctx, ids["denied"], store.Settlement{Outcome: store.Deny, Scope: store.Once, Grant: store.GrantDeny})
			return err
		}(),
		l.CloseAsk(ctx, ids["withdrawn"], "cancelled"),
		l.CloseAsk(ctx, ids["timedout"], "timed out"),
	}
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
	out, _, code := c.gatehouse("list-asks", "--all")
	if code != 0 {
		t.Fatalf("list-asks --all: %d", code)
	}
	want := map[string]string{"pending": "pending", "allowed": "allowed once", "denied": "denied", "withdrawn": "withdrawn", "timedout": "timed out"}
	for name, id := range ids {
		row := lineWith(out, id)
		if !strings.Contains(row, " "+want[name]+" ") {
			t.Errorf("%s: row %q does not say %q", name, row, want[name])
		}
	}
	out, _, _ = c.gatehouse("list-asks")
	for name, id := range ids {
		if got := lineWith(out, id) != ""; got != (name == "pending") {
			t.Errorf("list-asks shows %s: %v\n%s", name, got, out)
		}
	}
}

func lineWith(out, s string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}
