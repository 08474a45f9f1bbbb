package decisions_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/store"
	"gatehouse/store/storetest"
)

var bg = context.Background()

// tickingClock advances one second per reading, so every row has its own
// time and "oldest first" is observable.
func tickingClock() func() time.Time {
	var ticks atomic.Int64
	base := time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time { return base.Add(time.Duration(ticks.Add(1)) * time.Second) }
}

func newLedger(t *testing.T, opts ...store.Option) *decisions.Ledger {
	t.Helper()
	return decisions.New(storetest.MustOpen(t, opts...))
}

// question is the record the gate would raise for `rm <target>` at place.
func question(session, line, place string) decisions.Record {
	return decisions.Record{
		SessionID: session,
		AgentID:   "agent_" + session,
		Command:   "rm notes.txt",
		Argv:      []string{"rm", "notes.txt"},
		Cwd:       "/runbook",
		Paths:     []string{"/runbook/notes.txt"},
		Reason:    "removal needs sign-off",
		Rule:      "workspace.yaml:12:11",
		Policy:    "profile:responder",
		Line:      line,
		Place:     place,
	}
}

const rmKey = "workspace.yaml:12:11|rm"

func mustRaise(t *testing.T, l *decisions.Ledger, rec decisions.Record, key string) decisions.Record {
	t.Helper()
	raised, err := l.Raise(bg, rec, key)
	if err != nil {
		t.Fatalf("Raise: %v", err)
	}
	return raised
}

func mustAnswer(t *testing.T, l *decisions.Ledger, id string, a decisions.Answer) decisions.Record {
	t.Helper()
	settled, err := l.Answer(bg, id, a)
	if err != nil {
		t.Fatalf("Answer(%s, %+v): %v", id, a, err)
	}
	return settled
}

func ids(recs []decisions.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

// G-9.1, G-10.2: a raised ask lands pending with what the gate said; the
// queue is oldest first, per session or for all.
func TestRaiseThenPendingOldestFirst(t *testing.T) {
	t.Parallel()
	l := newLedger(t, store.WithClock(tickingClock()))
	a := mustRaise(t, l, question("s1", "rm a", "0"), rmKey)
	b := mustRaise(t, l, question("s2", "rm b", "0"), rmKey)
	c := mustRaise(t, l, question("s1", "rm c", "0"), rmKey)
	answered := mustRaise(t, l, question("s1", "rm d", "0"), rmKey)
	mustAnswer(t, l, answered.ID, decisions.Answer{Outcome: decisions.Allow})

	if !a.Pending() || a.CreatedAt.IsZero() || !a.AnsweredAt.IsZero() {
		t.Errorf("raised record = %+v, want pending with created_at and no answered_at", a)
	}
	got, err := l.Get(bg, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := question("s1", "rm a", "0")
	want.ID, want.CreatedAt = a.ID, a.CreatedAt
	if gotJSON, wantJSON := mustJSON(t, got), mustJSON(t, want); gotJSON != wantJSON {
		t.Errorf("Get = %s\nwant   %s", gotJSON, wantJSON)
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
		t.Run("session="+tt.session, func(t *testing.T) {
			t.Parallel()
			pending, err := l.Pending(bg, tt.session)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(pending); !slices.Equal(got, tt.want) {
				t.Errorf("Pending(%q) = %v, want %v", tt.session, got, tt.want)
			}
		})
	}

	all, err := l.List(bg, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(all), []string{a.ID, c.ID, answered.ID}; !slices.Equal(got, want) {
		t.Errorf("List(s1) = %v, want every decision oldest first %v", got, want)
	}
}

// G-9.8: a retry raises no duplicate for a question already pending; a
// different question (place, line, session or grant key) is a new ask;
// once answered, the same line asks anew (G-9.5).
func TestRaiseRetryRaisesNoDuplicate(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	first := mustRaise(t, l, question("s1", "rm a; rm a", "0"), rmKey)

	tests := []struct {
		name     string
		rec      decisions.Record
		key      string
		sameAsk  bool
		answered bool
	}{
		{name: "retry of the same line", rec: question("s1", "rm a; rm a", "0"), key: rmKey, sameAsk: true},
		{name: "same command at another place", rec: question("s1", "rm a; rm a", "6"), key: rmKey},
		{name: "same command on another line", rec: question("s1", "rm a", "0"), key: rmKey},
		{name: "same line in another session", rec: question("s2", "rm a; rm a", "0"), key: rmKey},
		{name: "another rule at the same place", rec: question("s1", "rm a; rm a", "0"), key: "other|rm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := mustRaise(t, l, tt.rec, tt.key)
			if (got.ID == first.ID) != tt.sameAsk {
				t.Errorf("Raise gave %s, first ask %s; want same=%v", got.ID, first.ID, tt.sameAsk)
			}
		})
	}

	t.Run("after the answer", func(t *testing.T) {
		l := newLedger(t)
		asked := mustRaise(t, l, question("s1", "rm a", "0"), rmKey)
		mustAnswer(t, l, asked.ID, decisions.Answer{Outcome: decisions.Allow})
		again := mustRaise(t, l, question("s1", "rm a", "0"), rmKey)
		if again.ID == asked.ID || !again.Pending() {
			t.Errorf("raise after answer = %s (pending %v), want a new pending ask", again.ID, again.Pending())
		}
	})
}

// G-7.5: ask ids are 12 lowercase hex characters, unique in the ledger.
func TestAskIDsAreTwelveHexAndUnique(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	shape := regexp.MustCompile(`^[0-9a-f]{12}$`)
	n := 10000
	if testing.Short() {
		n = 1000 // the race detector makes each raise ~20x slower
	}
	seen := make(map[string]bool, n)
	for i := range n {
		rec := mustRaise(t, l, question("s1", "rm x", string(rune('a'+i%26))+time.Duration(i).String()), rmKey)
		if !shape.MatchString(rec.ID) {
			t.Fatalf("ask id %q is not 12 lowercase hex characters", rec.ID)
		}
		if seen[rec.ID] {
			t.Fatalf("ask id %q issued twice", rec.ID)
		}
		seen[rec.ID] = true
	}
}

func TestRaiseRejectsIncompleteQuestions(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	tests := []struct {
		name string
		rec  decisions.Record
		key  string
	}{
		{"no session", question("", "rm a", "0"), rmKey},
		{"no grant key", question("s1", "rm a", "0"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := l.Raise(bg, tt.rec, tt.key); !errors.Is(err, decisions.ErrInvalid) {
				t.Errorf("Raise = %v, want ErrInvalid", err)
			}
		})
	}
}

// G-10.1: a pending record's JSON says null for outcome and answered_at,
// and carries exactly the ledger's fields; a settled one fills them in.
func TestRecordJSON(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	pending := mustRaise(t, l, decisions.Record{SessionID: "s1", Line: "rm a", Place: "0"}, rmKey)

	var fields map[string]any
	if err := json.Unmarshal([]byte(mustJSON(t, pending)), &fields); err != nil {
		t.Fatal(err)
	}
	wantKeys := []string{"agent_id", "answered_at", "answered_by", "argv", "command", "created_at",
		"cwd", "id", "line", "note", "outcome", "paths", "place", "policy", "reason", "rule",
		"scope", "session_id"}
	var keys []string
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("pending record keys = %v, want %v", keys, wantKeys)
	}
	for _, k := range []string{"outcome", "answered_at"} {
		if v, ok := fields[k]; !ok || v != nil {
			t.Errorf("pending %s = %#v, want null", k, v)
		}
	}
	for _, k := range []string{"argv", "paths"} {
		if _, ok := fields[k].([]any); !ok {
			t.Errorf("pending %s = %#v, want an array even when empty", k, fields[k])
		}
	}

	settled := mustAnswer(t, l, pending.ID, decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Session, Note: "ok", By: "cli"})
	var back decisions.Record
	if err := json.Unmarshal([]byte(mustJSON(t, settled)), &back); err != nil {
		t.Fatal(err)
	}
	if back.Outcome != "allow" || back.Scope != "session" || back.Note != "ok" || back.AnsweredBy != "cli" ||
		!back.AnsweredAt.Equal(settled.AnsweredAt) || back.AnsweredAt.IsZero() {
		t.Errorf("settled record round trip = %+v, want allow/session/ok/cli with answered_at", back)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func storeClock() store.Option { return store.WithClock(tickingClock()) }
