package decisions_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"gatehouse/core/decisions"
	"gatehouse/store/sqlite"
	"gatehouse/store/storetest"
)

// The rows' behaviour (one ask per question, exactly one answer, claims,
// sessions, changes) is the store's, checked by storetest's conformance
// suite; these tests check what decisions adds: which answers are valid,
// which grant each leaves, waiting and events.

var bg = context.Background()

func newLedger(t *testing.T, opts ...sqlite.Option) *decisions.Ledger {
	t.Helper()
	return decisions.New(storetest.MustOpen(t, opts...))
}

// question is the record the gate would raise for `rm notes.txt` at place.
func question(session, line, place string) decisions.Record {
	return storetest.Question(session, line, place)
}

const rmKey = storetest.RmKey

func mustRaise(t testing.TB, l *decisions.Ledger, rec decisions.Record) decisions.Record {
	t.Helper()
	raised, err := l.Raise(bg, rec)
	if err != nil {
		t.Fatalf("Raise: %v", err)
	}
	return raised
}

func mustAnswer(t testing.TB, l *decisions.Ledger, id string, a decisions.Answer) decisions.Record {
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

func questionOf(rec decisions.Record) decisions.Question {
	return decisions.Question{SessionID: rec.SessionID, Line: rec.Line, Place: rec.Place, Facts: rec.Facts}
}

// G-9.5: what each answer leaves for the retry. Allow once: one grant of
// that question, taken by one claim, spent when the line ends; allow for
// session: the rule is settled in the session for good; deny: a one-shot
// refusal of that question.
func TestAnswerLeavesGrants(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		answer  decisions.Answer
		claimed string // kind of the grant a claim takes; "" = none
		session bool   // the rule is settled for the session
	}{
		{"allow once (scope defaults to once)", decisions.Answer{Outcome: decisions.Allow}, decisions.GrantOnce, false},
		{"allow for session", decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Session}, "", true},
		{"deny once", decisions.Answer{Outcome: decisions.Deny, Note: "not today"}, decisions.GrantDeny, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := newLedger(t)
			asked := mustRaise(t, l, question("s1", "rm a", "0"))
			settled := mustAnswer(t, l, asked.ID, tt.answer)
			if settled.Outcome != tt.answer.Outcome || settled.Scope == "" || settled.Pending() {
				t.Fatalf("settled = %+v", settled)
			}
			g, ok, err := l.Claim(bg, questionOf(asked), "line-1")
			if err != nil {
				t.Fatal(err)
			}
			if ok != (tt.claimed != "") || (ok && g.Kind != tt.claimed) {
				t.Fatalf("Claim = %+v, %v; want a %q grant", g, ok, tt.claimed)
			}
			if ok {
				if _, again, _ := l.Claim(bg, questionOf(asked), "line-2"); again {
					t.Error("a second line claimed the same grant")
				}
				if err := l.Spend(bg, g.ID); err != nil {
					t.Fatal(err)
				}
			}
			held, err := l.SessionGrants(bg, "s1", []string{rmKey})
			if err != nil {
				t.Fatal(err)
			}
			if (len(held) == 1) != tt.session {
				t.Errorf("session grants = %v, want settled=%v", held, tt.session)
			}
		})
	}
}

// G-9.5: invalid answers are refused and leave the ask pending; unknown
// ids are "not found"; answered ids are "already answered".
func TestAnswerErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		answer decisions.Answer
		want   error
	}{
		{"deny with scope session", decisions.Answer{Outcome: decisions.Deny, Scope: decisions.Session}, decisions.ErrInvalid},
		{"unknown outcome", decisions.Answer{Outcome: "maybe"}, decisions.ErrInvalid},
		{"unknown scope", decisions.Answer{Outcome: decisions.Allow, Scope: "forever"}, decisions.ErrInvalid},
	}
	l := newLedger(t)
	asked := mustRaise(t, l, question("s1", "rm a", "0"))
	for _, tt := range tests {
		if _, err := l.Answer(bg, asked.ID, tt.answer); !errors.Is(err, tt.want) {
			t.Errorf("%s: Answer = %v, want %v", tt.name, err, tt.want)
		}
	}
	if now, _ := l.Get(bg, asked.ID); !now.Pending() {
		t.Errorf("after refused answers the ask is %+v, want still pending", now)
	}
	if _, err := l.Answer(bg, "0123456789ab", decisions.Answer{Outcome: decisions.Allow}); !errors.Is(err, decisions.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
	mustAnswer(t, l, asked.ID, decisions.Answer{Outcome: decisions.Allow})
	if _, err := l.Answer(bg, asked.ID, decisions.Answer{Outcome: decisions.Deny}); !errors.Is(err, decisions.ErrAlreadyAnswered) {
		t.Errorf("second answer: %v", err)
	}
	if _, err := l.Raise(bg, question("", "rm a", "0")); !errors.Is(err, decisions.ErrInvalid) {
		t.Errorf("an ask without a session: %v", err)
	}
}

// A line that stopped on a question still waiting releases what it
// claimed: the retry claims it again (G-9.7).
func TestReleaseHandsBackAClaim(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	asked := mustRaise(t, l, question("s1", "rm a", "0"))
	mustAnswer(t, l, asked.ID, decisions.Answer{Outcome: decisions.Allow})
	g, ok, _ := l.Claim(bg, questionOf(asked), "line-1")
	if !ok {
		t.Fatal("claim failed")
	}
	if _, ok, _ := l.FindGrant(bg, questionOf(asked)); ok {
		t.Error("a claimed grant is still on offer")
	}
	if err := l.Release(bg, "line-1", g.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := l.Claim(bg, questionOf(asked), "line-2"); !ok {
		t.Error("the released grant was not claimed by the retry")
	}
}

// The queue and the history read through decisions as the store keeps
// them.
func TestPendingAndList(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	a := mustRaise(t, l, question("s1", "rm a", "0"))
	b := mustRaise(t, l, question("s1", "rm b", "0"))
	mustAnswer(t, l, b.ID, decisions.Answer{Outcome: decisions.Allow})
	pending, _ := l.Pending(bg, "s1")
	all, _ := l.List(bg, "")
	if !slices.Equal(ids(pending), []string{a.ID}) || !slices.Equal(ids(all), []string{a.ID, b.ID}) {
		t.Errorf("pending %v, all %v", ids(pending), ids(all))
	}
}
