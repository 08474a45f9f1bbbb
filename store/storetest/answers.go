package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"gatehouse/store"
)

func runAnswers(t *testing.T, open Opener) {
	t.Run("what each answer leaves", func(t *testing.T) { t.Parallel(); answersLeaveGrants(t, open) })
	t.Run("session answers cover every rule named", func(t *testing.T) { t.Parallel(); sessionAnswerPerRule(t, open) })
	t.Run("errors", func(t *testing.T) { t.Parallel(); answerErrors(t, open) })
	t.Run("one of many racing answers wins", func(t *testing.T) { t.Parallel(); concurrentAnswers(t, open) })
}

// G-9.5: allow once leaves a once grant bound to the question; allow for
// session a session grant of the rule; deny a one-shot refusal bound to the
// question. Other sessions never see them.
func answersLeaveGrants(t *testing.T, open Opener) {
	tests := []struct {
		name     string
		answer   store.Settlement
		kind     string // of the grant FindGrant returns for the question
		sessions []string
	}{
		{"allow once", allowOnce, store.GrantOnce, nil},
		{"allow for session", allowSession, "", []string{RmKey}},
		{"deny once", denyOnce, store.GrantDeny, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l, _ := open(t)
			asked := mustRaise(t, l, Question("s1", "rm a", "0"))
			settled := mustAnswer(t, l, asked.ID, tt.answer)
			if settled.Outcome != tt.answer.Outcome || settled.Scope != tt.answer.Scope || settled.AnsweredAt.IsZero() {
				t.Fatalf("settled = %+v, want %s/%s with answered_at", settled, tt.answer.Outcome, tt.answer.Scope)
			}
			q := questionOf(asked)
			g, ok, err := l.FindGrant(bg, q)
			switch {
			case err != nil:
				t.Fatal(err)
			case ok != (tt.kind != ""):
				t.Fatalf("FindGrant = %+v, %v; want a %q grant", g, ok, tt.kind)
			case ok && (g.Kind != tt.kind || g.AskID != asked.ID || g.Facts != "f1" || g.Spent || g.ClaimedBy != ""):
				t.Errorf("grant = %+v, want an unclaimed %s grant of ask %s with its facts", g, tt.kind, asked.ID)
			}
			for _, other := range []store.Question{
				{SessionID: "s1", Line: "rm a", Place: "9", Facts: "f1"},  // same command elsewhere on the line
				{SessionID: "s1", Line: "rm a;", Place: "0", Facts: "f1"}, // another line
				{SessionID: "s1", Line: "rm a", Place: "0", Facts: "f2"},  // other facts at the place
				{SessionID: "s2", Line: "rm a", Place: "0", Facts: "f1"},  // another session
			} {
				if g, ok, _ := l.FindGrant(bg, other); ok {
					t.Errorf("FindGrant(%+v) = %+v, want none", other, g)
				}
			}
			held, err := l.SessionGrants(bg, "s1", []string{"other", RmKey})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(held) != fmt.Sprint(tt.sessions) {
				t.Errorf("SessionGrants = %v, want %v", held, tt.sessions)
			}
			if held, _ := l.SessionGrants(bg, "s2", []string{RmKey}); len(held) != 0 {
				t.Errorf("another session holds %v", held)
			}
		})
	}
}

// G-4.10: an allow for session settles each rule its record named, and no
// other; it is never spent.
func sessionAnswerPerRule(t *testing.T, open Opener) {
	l, _ := open(t)
	rec := Question("s1", "cat a b", "0")
	rec.Rules = append(rec.Rules, store.AskRule{Reason: "vault", Rule: "w.yaml:3:5", Key: "vault"})
	asked := mustRaise(t, l, rec)
	mustAnswer(t, l, asked.ID, allowSession)
	held, err := l.SessionGrants(bg, "s1", []string{"vault", "third", RmKey})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(held) != fmt.Sprint([]string{"vault", RmKey}) {
		t.Errorf("SessionGrants = %v, want both rules named and nothing else", held)
	}
	grants, err := l.ListGrants(bg, "s1")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, g := range grants {
		ids = append(ids, g.ID)
	}
	if len(grants) != 2 {
		t.Fatalf("grants = %+v, want one per rule", grants)
	}
	if err := l.SpendGrants(bg, ids...); err != nil {
		t.Fatal(err)
	}
	if held, _ := l.SessionGrants(bg, "s1", []string{"vault", RmKey}); len(held) != 2 {
		t.Errorf("after a spend, session grants held = %v, want both still", held)
	}
}

// G-9.5: invalid answers are refused and leave the ask pending; unknown
// ids are "not found"; answered ids are "already answered".
func answerErrors(t *testing.T, open Opener) {
	tests := []struct {
		name    string
		answer  store.Settlement
		unknown bool
		twice   bool
		want    error
	}{
		{"unknown outcome", store.Settlement{Outcome: "maybe", Scope: store.Once, Grant: store.GrantOnce}, false, false, store.ErrInvalid},
		{"unknown scope", store.Settlement{Outcome: store.Allow, Scope: "forever", Grant: store.GrantOnce}, false, false, store.ErrInvalid},
		{"unknown grant", store.Settlement{Outcome: store.Allow, Scope: store.Once, Grant: "lots"}, false, false, store.ErrInvalid},
		{"unknown id", allowOnce, true, false, store.ErrNotFound},
		{"answered twice", denyOnce, false, true, store.ErrAlreadyAnswered},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l, _ := open(t)
			asked := mustRaise(t, l, Question("s1", "rm a", "0"))
			id := asked.ID
			if tt.unknown {
				id = "0123456789ab"
			}
			if tt.twice {
				mustAnswer(t, l, id, allowOnce)
			}
			if _, err := l.AnswerAsk(bg, id, tt.answer); !errors.Is(err, tt.want) {
				t.Fatalf("AnswerAsk = %v, want %v", err, tt.want)
			}
			now, _ := l.GetAsk(bg, asked.ID)
			if !tt.twice && !now.Pending() {
				t.Errorf("after a refused answer the ask is %+v, want still pending", now)
			}
			if tt.twice && now.Outcome != store.Allow {
				t.Errorf("a second answer changed the first: outcome %q", now.Outcome)
			}
			if grants, _ := l.ListGrants(bg, "s1"); len(grants) != map[bool]int{true: 1, false: 0}[tt.twice] {
				t.Errorf("grants after a refused answer: %+v", grants)
			}
		})
	}
}

// G-10.1: hosts answering one ask at once get exactly one success and
// "already answered" for the rest, whether they share a handle or not, and
// exactly one grant is left.
func concurrentAnswers(t *testing.T, open Opener) {
	for _, handles := range []int{1, 4} {
		t.Run(fmt.Sprintf("%d handles", handles), func(t *testing.T) {
			t.Parallel()
			first, another := open(t)
			ledgers := []store.Ledger{first}
			for len(ledgers) < handles {
				ledgers = append(ledgers, another(t))
			}
			for round := range 8 {
				asked := mustRaise(t, first, Question("s1", "rm a", fmt.Sprint(round)))
				const hosts = 8
				errs := make([]error, hosts)
				var start, done sync.WaitGroup
				start.Add(1)
				for i := range hosts {
					done.Add(1)
					go func() {
						defer done.Done()
						start.Wait()
						s := allowOnce
						if i%2 == 1 {
							s = denyOnce
						}
						_, errs[i] = ledgers[i%len(ledgers)].AnswerAsk(bg, asked.ID, s)
					}()
				}
				start.Done()
				done.Wait()
				wins := 0
				for _, err := range errs {
					switch {
					case err == nil:
						wins++
					case !errors.Is(err, store.ErrAlreadyAnswered):
						t.Errorf("losing answer error = %v, want ErrAlreadyAnswered", err)
					}
				}
				if wins != 1 {
					t.Errorf("round %d: %d answers succeeded, want exactly 1", round, wins)
				}
			}
			grants, err := first.ListGrants(bg, "s1")
			if err != nil {
				t.Fatal(err)
			}
			if len(grants) != 8 {
				t.Errorf("%d grants for 8 answered asks, want one each", len(grants))
			}
		})
	}
}
