package decisions_test

import (
	"errors"
	"sync"
	"testing"

	"gatehouse/core/decisions"
	"gatehouse/store/storetest"
)

// lookup is one FindGrant question after an answer.
type lookup struct {
	line, place, key string
	want             string // grant kind found, "" = none
}

// G-9.5, G-9.7: what each answer leaves for the retry, and what spending
// the grants the line used leaves after it.
func TestAnswerLeavesGrants(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		answer      decisions.Answer
		beforeSpend []lookup
		afterSpend  []lookup
	}{
		{
			name:   "allow once answers exactly that line and is spent by the retry",
			answer: decisions.Answer{Outcome: decisions.Allow},
			beforeSpend: []lookup{
				{"rm a", "0", rmKey, decisions.GrantOnce},
				{"rm a", "9", rmKey, ""},     // same command elsewhere on the line
				{"rm a; ls", "0", rmKey, ""}, // a different line
			},
			afterSpend: []lookup{{"rm a", "0", rmKey, ""}},
		},
		{
			name:   "allow session covers the grant key anywhere in the session and stays",
			answer: decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Session},
			beforeSpend: []lookup{
				{"rm a", "0", rmKey, decisions.GrantSession},
				{"rm b && rm c", "8", rmKey, decisions.GrantSession},
				{"rm a", "0", "other|rm", ""},
			},
			afterSpend: []lookup{{"rm a", "0", rmKey, decisions.GrantSession}},
		},
		{
			name:        "deny answers once: the retry is refused and spends it",
			answer:      decisions.Answer{Outcome: decisions.Deny, Note: "not today"},
			beforeSpend: []lookup{{"rm a", "0", rmKey, decisions.GrantDeny}, {"rm a", "1", rmKey, ""}},
			afterSpend:  []lookup{{"rm a", "0", rmKey, ""}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := newLedger(t)
			asked := mustRaise(t, l, question("s1", "rm a", "0"), rmKey)
			settled := mustAnswer(t, l, asked.ID, tt.answer)
			if settled.Outcome != tt.answer.Outcome || settled.Pending() || settled.AnsweredAt.IsZero() {
				t.Fatalf("settled = %+v, want outcome %s with answered_at", settled, tt.answer.Outcome)
			}

			var used []int64
			for _, q := range tt.beforeSpend {
				g := checkGrant(t, l, "s1", q)
				if g.ID != 0 {
					if g.AskID != asked.ID {
						t.Errorf("grant ask_id = %q, want %q", g.AskID, asked.ID)
					}
					used = append(used, g.ID)
				}
			}
			// Another session never sees this session's grants.
			checkGrant(t, l, "s2", lookup{"rm a", "0", rmKey, ""})

			if err := l.Spend(bg, used...); err != nil {
				t.Fatal(err)
			}
			for _, q := range tt.afterSpend {
				checkGrant(t, l, "s1", q)
			}
		})
	}
}

func checkGrant(t *testing.T, l *decisions.Ledger, session string, q lookup) decisions.Grant {
	t.Helper()
	g, ok, err := l.FindGrant(bg, session, q.line, q.place, q.key)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case q.want == "" && ok:
		t.Errorf("FindGrant(%s, %q, %s, %s) found a %s grant, want none", session, q.line, q.place, q.key, g.Kind)
	case q.want != "" && !ok:
		t.Errorf("FindGrant(%s, %q, %s, %s) found nothing, want a %s grant", session, q.line, q.place, q.key, q.want)
	case ok && g.Kind != q.want:
		t.Errorf("FindGrant(%s, %q, %s, %s) = %s grant, want %s", session, q.line, q.place, q.key, g.Kind, q.want)
	}
	return g
}

// G-9.5: invalid answers are refused and leave the ask pending; unknown
// ids are "not found"; answered ids are "already answered".
func TestAnswerErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		answer  decisions.Answer
		unknown bool // answer an id nobody raised
		twice   bool // answer once first
		want    error
	}{
		{name: "deny with scope session", answer: decisions.Answer{Outcome: decisions.Deny, Scope: decisions.Session}, want: decisions.ErrInvalid},
		{name: "unknown outcome", answer: decisions.Answer{Outcome: "maybe"}, want: decisions.ErrInvalid},
		{name: "unknown scope", answer: decisions.Answer{Outcome: decisions.Allow, Scope: "forever"}, want: decisions.ErrInvalid},
		{name: "unknown id", answer: decisions.Answer{Outcome: decisions.Allow}, unknown: true, want: decisions.ErrNotFound},
		{name: "answered twice", answer: decisions.Answer{Outcome: decisions.Deny}, twice: true, want: decisions.ErrAlreadyAnswered},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := newLedger(t)
			asked := mustRaise(t, l, question("s1", "rm a", "0"), rmKey)
			id := asked.ID
			if tt.unknown {
				id = "0123456789ab"
			}
			if tt.twice {
				mustAnswer(t, l, id, decisions.Answer{Outcome: decisions.Allow})
			}
			_, err := l.Answer(bg, id, tt.answer)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Answer = %v, want %v", err, tt.want)
			}
			now, _ := l.Get(bg, asked.ID)
			if !tt.twice && !now.Pending() {
				t.Errorf("after a refused answer the ask is %+v, want still pending", now)
			}
			if tt.twice && now.Outcome != decisions.Allow {
				t.Errorf("a second answer changed the first: outcome %q", now.Outcome)
			}
		})
	}
}

// G-10.1: two hosts answering one ask at once get exactly one success and
// one "already answered", whether they share a handle (goroutines of one
// process) or not (two handles on one file stand in for two processes).
func TestConcurrentAnswersOneWins(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handles int
	}{
		{"goroutines sharing one handle", 1},
		{"separate handles on one file", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			first := storetest.MustOpen(t)
			ledgers := []*decisions.Ledger{decisions.New(first)}
			for len(ledgers) < tt.handles {
				ledgers = append(ledgers, decisions.New(storetest.MustOpenFile(t, first.Path())))
			}
			for round := range 10 {
				asked := mustRaise(t, ledgers[0], question("s1", "rm a", string(rune('0'+round))), rmKey)
				const hosts = 8
				errs := make([]error, hosts)
				var start, done sync.WaitGroup
				start.Add(1)
				for i := range hosts {
					done.Add(1)
					go func() {
						defer done.Done()
						start.Wait()
						outcome := decisions.Allow
						if i%2 == 1 {
							outcome = decisions.Deny
						}
						_, errs[i] = ledgers[i%len(ledgers)].Answer(bg, asked.ID, decisions.Answer{Outcome: outcome})
					}()
				}
				start.Done()
				done.Wait()

				wins := 0
				for _, err := range errs {
					switch {
					case err == nil:
						wins++
					case !errors.Is(err, decisions.ErrAlreadyAnswered):
						t.Errorf("losing answer error = %v, want ErrAlreadyAnswered", err)
					}
				}
				if wins != 1 {
					t.Errorf("round %d: %d answers succeeded, want exactly 1", round, wins)
				}
				var grants int
				first.QueryRowContext(bg, `SELECT count(*) FROM grants WHERE ask_id = ?`, asked.ID).Scan(&grants)
				if grants != 1 {
					t.Errorf("round %d: %d grants recorded, want the winner's 1", round, grants)
				}
			}
		})
	}
}

// A cancelled line takes its ask out of the queue with a word why; the ask
// stays unanswered, can still be answered, and comes back when the same
// question is raised again (G-13.5, G-9.8).
func TestCloseTakesAskOutOfQueue(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	asked := mustRaise(t, l, question("s1", "rm a", "0"), rmKey)
	if err := l.Close(bg, asked.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	if pending, _ := l.Pending(bg, ""); len(pending) != 0 {
		t.Errorf("Pending after Close = %v, want empty", ids(pending))
	}
	closed, _ := l.Get(bg, asked.ID)
	if closed.Closed != "cancelled" || !closed.Pending() {
		t.Errorf("closed ask = %+v, want unanswered with closed=cancelled", closed)
	}

	again := mustRaise(t, l, question("s1", "rm a", "0"), rmKey)
	if again.ID != asked.ID || again.Closed != "" {
		t.Errorf("raising the question again = %s (closed %q), want %s back in the queue", again.ID, again.Closed, asked.ID)
	}
	if pending, _ := l.Pending(bg, ""); len(pending) != 1 {
		t.Errorf("Pending after raising again = %v, want the one ask", ids(pending))
	}

	tests := []struct {
		name   string
		id     string
		reason string
		want   error
	}{
		{"no reason", asked.ID, "", decisions.ErrInvalid},
		{"unknown id", "ffffffffffff", "cancelled", decisions.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := l.Close(bg, tt.id, tt.reason); !errors.Is(err, tt.want) {
				t.Errorf("Close = %v, want %v", err, tt.want)
			}
		})
	}

	if err := l.Close(bg, asked.ID, "timed out"); err != nil {
		t.Fatal(err)
	}
	mustAnswer(t, l, asked.ID, decisions.Answer{Outcome: decisions.Allow})
	if err := l.Close(bg, asked.ID, "cancelled"); !errors.Is(err, decisions.ErrAlreadyAnswered) {
		t.Errorf("Close of an answered ask = %v, want ErrAlreadyAnswered", err)
	}
}

func TestSessionsPersist(t *testing.T) {
	t.Parallel()
	first := storetest.MustOpen(t, storeClock())
	l := decisions.New(first)
	made, err := l.CreateSession(bg, decisions.SessionRow{ID: "s1", AgentID: "agent_a", Profile: "responder", Cwd: "/runbook"})
	if err != nil {
		t.Fatal(err)
	}
	generated, err := l.CreateSession(bg, decisions.SessionRow{AgentID: "agent_b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(generated.ID) != 12 || generated.Cwd != "/" || generated.CreatedAt.IsZero() {
		t.Errorf("session with defaults = %+v, want a 12-char id, cwd / and created_at", generated)
	}
	if _, err := l.CreateSession(bg, decisions.SessionRow{ID: "s1"}); !errors.Is(err, decisions.ErrExists) {
		t.Errorf("creating s1 twice = %v, want ErrExists", err)
	}

	// Another process sees them.
	other := decisions.New(storetest.MustOpenFile(t, first.Path()))
	got, err := other.GetSession(bg, "s1")
	if err != nil || got != made {
		t.Errorf("GetSession(s1) = %+v, %v; want %+v", got, err, made)
	}
	if _, err := other.GetSession(bg, "nope"); !errors.Is(err, decisions.ErrNotFound) {
		t.Errorf("GetSession(nope) = %v, want ErrNotFound", err)
	}
	all, err := other.ListSessions(bg)
	if err != nil || len(all) != 2 || all[0].ID != "s1" || all[1].ID != generated.ID {
		t.Errorf("ListSessions = %+v, %v; want s1 then %s", all, err, generated.ID)
	}
}
