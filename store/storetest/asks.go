package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"gatehouse/store"
)

func runAsks(t *testing.T, open Opener) {
	t.Run("raise then pending oldest first", func(t *testing.T) { t.Parallel(); raiseThenPending(t, open) })
	t.Run("a retry raises no duplicate", func(t *testing.T) { t.Parallel(); raiseNoDuplicate(t, open) })
	t.Run("ids are 12 hex and unique", func(t *testing.T) { t.Parallel(); askIDs(t, open) })
	t.Run("incomplete questions are invalid", func(t *testing.T) { t.Parallel(); raiseInvalid(t, open) })
	t.Run("a record keeps every field", func(t *testing.T) { t.Parallel(); recordRoundTrip(t, open) })
	t.Run("close takes an ask out of the queue", func(t *testing.T) { t.Parallel(); closeAsk(t, open) })
}

// G-9.1, G-10.2: a raised ask lands pending with what the gate said; the
// queue is oldest first, per session or for all; a closed ask leaves it.
func raiseThenPending(t *testing.T, open Opener) {
	l, _ := open(t)
	a := mustRaise(t, l, Question("s1", "rm a", "0"))
	b := mustRaise(t, l, Question("s2", "rm b", "0"))
	c := mustRaise(t, l, Question("s1", "rm c", "0"))
	answered := mustRaise(t, l, Question("s1", "rm d", "0"))
	mustAnswer(t, l, answered.ID, allowOnce)
	closed := mustRaise(t, l, Question("s1", "rm e", "0"))
	if err := l.CloseAsk(bg, closed.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}

	if !a.Pending() || a.CreatedAt.IsZero() || !a.AnsweredAt.IsZero() {
		t.Errorf("raised record = %+v, want pending with created_at and no answered_at", a)
	}
	tests := []struct {
		session string
		want    []string
	}{
		{"", []string{a.ID, b.ID, c.ID}},
		{"s1", []string{a.ID, c.ID}},
		{"s2", []string{b.ID}},
		{"nobody", nil},
	}
	for _, tt := range tests {
		pending, err := l.ListAsks(bg, tt.session, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(pending); !slices.Equal(got, tt.want) {
			t.Errorf("pending of %q = %v, want %v", tt.session, got, tt.want)
		}
	}
	all, err := l.ListAsks(bg, "s1", false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(all), []string{a.ID, c.ID, answered.ID, closed.ID}; !slices.Equal(got, want) {
		t.Errorf("every ask of s1 = %v, want oldest first %v", got, want)
	}
}

// G-9.8: a retry raises no duplicate for a question already pending; a
// different question (place, line, session, rules or facts) is a new ask;
// once answered, the same question asks anew (G-9.5).
func raiseNoDuplicate(t *testing.T, open Opener) {
	l, _ := open(t)
	first, raised, err := l.RaiseAsk(bg, Question("s1", "rm a; rm a", "0"))
	if err != nil || !raised {
		t.Fatalf("first raise = %v, raised %v", err, raised)
	}
	otherRule := Question("s1", "rm a; rm a", "0")
	otherRule.Rules = append(otherRule.Rules, store.AskRule{Reason: "vault", Rule: "w.yaml:3:5", Key: "vault"})
	otherFacts := Question("s1", "rm a; rm a", "0")
	otherFacts.Facts = "f2"
	tests := []struct {
		name    string
		rec     store.Record
		sameAsk bool
	}{
		{"retry of the same line", Question("s1", "rm a; rm a", "0"), true},
		{"same command at another place", Question("s1", "rm a; rm a", "6"), false},
		{"same command on another line", Question("s1", "rm a", "0"), false},
		{"same line in another session", Question("s2", "rm a; rm a", "0"), false},
		{"another rule named at the same place", otherRule, false},
		{"other facts at the same place", otherFacts, false},
	}
	for _, tt := range tests {
		got, raised, err := l.RaiseAsk(bg, tt.rec)
		if err != nil {
			t.Fatal(err)
		}
		if (got.ID == first.ID) != tt.sameAsk || raised == tt.sameAsk {
			t.Errorf("%s: RaiseAsk gave %s (raised %v), first ask %s; want same=%v", tt.name, got.ID, raised, first.ID, tt.sameAsk)
		}
	}
	mustAnswer(t, l, first.ID, allowOnce)
	again := mustRaise(t, l, Question("s1", "rm a; rm a", "0"))
	if again.ID == first.ID || !again.Pending() {
		t.Errorf("raise after the answer = %s (pending %v), want a new pending ask", again.ID, again.Pending())
	}
}

// G-7.5: ask ids are 12 lowercase hex characters, unique in the ledger.
func askIDs(t *testing.T, open Opener) {
	l, _ := open(t)
	n := 2000
	if testing.Short() {
		n = 500 // the race detector makes each raise ~20x slower
	}
	seen := make(map[string]bool, n)
	for i := range n {
		rec := mustRaise(t, l, Question("s1", "rm x", fmt.Sprint(i)))
		if !store.ValidAskID(rec.ID) {
			t.Fatalf("ask id %q is not 12 lowercase hex characters", rec.ID)
		}
		if seen[rec.ID] {
			t.Fatalf("ask id %q issued twice", rec.ID)
		}
		seen[rec.ID] = true
	}
}

func raiseInvalid(t *testing.T, open Opener) {
	l, _ := open(t)
	noRules := Question("s1", "rm a", "0")
	noRules.Rules = nil
	emptyKey := Question("s1", "rm a", "0")
	emptyKey.Rules[0].Key = ""
	for name, rec := range map[string]store.Record{
		"no session": Question("", "rm a", "0"),
		"no rule":    noRules,
		"no key":     emptyKey,
	} {
		if _, _, err := l.RaiseAsk(bg, rec); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: RaiseAsk = %v, want ErrInvalid", name, err)
		}
	}
	if all, _ := l.ListAsks(bg, "", false); len(all) != 0 {
		t.Errorf("invalid raises left %d asks", len(all))
	}
}

// G-10.1, G-4.10: a record comes back with every field it was raised with,
// through another handle too; its JSON has exactly the record's keys, with
// null outcome and answered_at while pending and arrays always.
func recordRoundTrip(t *testing.T, open Opener) {
	l, another := open(t)
	rec := Question("s1", "cat a b", "4")
	rec.Rules = append(rec.Rules, store.AskRule{Reason: "vault", Rule: "w.yaml:3:5", Policy: "mount:/vault",
		Paths: []string{"/vault/a", "/vault/b"}, Key: "vault-key"})
	raised := mustRaise(t, l, rec)
	got, err := another(t).GetAsk(bg, raised.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := rec
	want.ID, want.CreatedAt = raised.ID, raised.CreatedAt
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(raised, want) {
		t.Errorf("GetAsk = %+v\nraised  %+v\nwant    %+v", got, raised, want)
	}
	if _, err := l.GetAsk(bg, "0123456789ab"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetAsk of an unknown id = %v, want ErrNotFound", err)
	}

	var fields map[string]any
	b, _ := json.Marshal(got)
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	wantKeys := []string{"agent_id", "answered_at", "answered_by", "argv", "command", "created_at",
		"cwd", "id", "line", "note", "outcome", "paths", "place", "policy", "reason", "rule",
		"rules", "scope", "session_id"}
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("pending record keys = %v, want %v", keys, wantKeys)
	}
	for _, k := range []string{"outcome", "answered_at"} {
		if v, ok := fields[k]; !ok || v != nil {
			t.Errorf("pending %s = %#v, want null", k, v)
		}
	}

	settled := mustAnswer(t, l, raised.ID, store.Settlement{Outcome: store.Allow, Scope: store.Session,
		Note: "ok", By: "cli", Grant: store.GrantSession})
	var back store.Record
	b, _ = json.Marshal(settled)
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Outcome != store.Allow || back.Scope != store.Session || back.Note != "ok" || back.AnsweredBy != "cli" ||
		!back.AnsweredAt.Equal(settled.AnsweredAt) || back.AnsweredAt.IsZero() || len(back.Rules) != 2 ||
		!slices.Equal(back.Rules[1].Paths, []string{"/vault/a", "/vault/b"}) {
		t.Errorf("settled record round trip = %+v, want allow/session/ok/cli with answered_at and both rules", back)
	}
}

// A line that stops waiting takes its ask out of the queue with a word why;
// the ask stays unanswered, can still be answered, and comes back when the
// same question is raised again (G-13.5, G-9.8).
func closeAsk(t *testing.T, open Opener) {
	l, _ := open(t)
	asked := mustRaise(t, l, Question("s1", "rm a", "0"))
	if err := l.CloseAsk(bg, asked.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	if pending, _ := l.ListAsks(bg, "", true); len(pending) != 0 {
		t.Errorf("queue after close = %v, want empty", ids(pending))
	}
	closed, _ := l.GetAsk(bg, asked.ID)
	if closed.Closed != "cancelled" || !closed.Pending() {
		t.Errorf("closed ask = %+v, want unanswered with closed=cancelled", closed)
	}
	again, raised, err := l.RaiseAsk(bg, Question("s1", "rm a", "0"))
	if err != nil || again.ID != asked.ID || again.Closed != "" || !raised {
		t.Errorf("raising the question again = %s (closed %q, raised %v, %v), want %s back in the queue",
			again.ID, again.Closed, raised, err, asked.ID)
	}
	for name, tt := range map[string]struct {
		id, reason string
		want       error
	}{
		"no reason":  {asked.ID, "", store.ErrInvalid},
		"unknown id": {"ffffffffffff", "cancelled", store.ErrNotFound},
	} {
		if err := l.CloseAsk(bg, tt.id, tt.reason); !errors.Is(err, tt.want) {
			t.Errorf("%s: CloseAsk = %v, want %v", name, err, tt.want)
		}
	}
	if err := l.CloseAsk(bg, asked.ID, "timed out"); err != nil {
		t.Fatal(err)
	}
	mustAnswer(t, l, asked.ID, allowOnce)
	if err := l.CloseAsk(bg, asked.ID, "cancelled"); !errors.Is(err, store.ErrAlreadyAnswered) {
		t.Errorf("CloseAsk of an answered ask = %v, want ErrAlreadyAnswered", err)
	}
}
