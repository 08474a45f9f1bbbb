package storetest

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"gatehouse/store"
)

func runEdges(t *testing.T, open Opener) {
	t.Run("every byte of a record comes back", func(t *testing.T) { t.Parallel(); bytesKept(t, open) })
	t.Run("a long line is one question", func(t *testing.T) { t.Parallel(); longLine(t, open) })
	t.Run("a reader following changes misses none", func(t *testing.T) { t.Parallel(); changesNeverSkipped(t, open) })
	t.Run("two grants go to two of many claimants", func(t *testing.T) { t.Parallel(); claimsShareGrants(t, open) })
}

// oddText holds what some databases refuse in text: NUL, bytes that are
// not UTF-8, and a control character leading the value.
const oddText = "\x01b64:\x00caf\xe9 \xff\xfe end"

// G-10.1, G-9.5: a line is whatever bytes the agent sent, and the ledger
// keeps each field of its record exactly: through another handle, in the
// queue, in the settled record, in the grant it leaves, and as the
// question a retry must meet. (The lists argv, paths and rules are JSON,
// where bytes that are not UTF-8 become U+FFFD.)
func bytesKept(t *testing.T, open Opener) {
	l, another := open(t)
	other := another(t)
	rec := Question("s\x00"+oddText, "cat "+oddText, "0\xff")
	rec.AgentID, rec.Command, rec.Cwd = oddText, "cat "+oddText, "/"+oddText
	rec.Reason, rec.Rule, rec.Policy, rec.Facts = oddText, oddText, oddText, "f\x00"+oddText
	// The rules travel as JSON, which keeps NUL but not bytes that are not
	// UTF-8 (they come back as U+FFFD on every backend): a key with NUL.
	rec.Rules[0].Key = "key \x00 \x01"
	raised := mustRaise(t, l, rec)
	want := rec
	want.ID, want.CreatedAt = raised.ID, raised.CreatedAt
	got, err := other.GetAsk(bg, raised.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(raised, want) || !reflect.DeepEqual(got, want) {
		t.Fatalf("record with odd bytes:\nraised %+v\ngot    %+v\nwant   %+v", raised, got, want)
	}
	if again, raisedAgain, _ := other.RaiseAsk(bg, rec); again.ID != raised.ID || raisedAgain {
		t.Errorf("a retry of the same bytes raised %s (new: %v), want %s", again.ID, raisedAgain, raised.ID)
	}
	if pending, _ := other.ListAsks(bg, rec.SessionID, true); len(pending) != 1 || pending[0].Line != rec.Line {
		t.Errorf("queue of the session = %+v, want the one ask", pending)
	}
	settled := mustAnswer(t, other, raised.ID, store.Settlement{Outcome: store.Allow, Scope: store.Once,
		Note: "ok " + oddText, By: "cli " + oddText, Grant: store.GrantOnce})
	if settled.Note != "ok "+oddText || settled.AnsweredBy != "cli "+oddText {
		t.Errorf("settled note %q by %q", settled.Note, settled.AnsweredBy)
	}
	// A line that differs only where a database might have bent the
	// bytes is another line: the grant does not answer it.
	for _, near := range []string{"cat " + strings.ToValidUTF8(oddText, "\uFFFD"), "cat " + strings.ReplaceAll(oddText, "\x00", "")} {
		q := questionOf(rec)
		q.Line = near
		if _, ok, _ := l.FindGrant(bg, q); ok {
			t.Errorf("a grant of the line %q answers the line %q", rec.Line, near)
		}
	}
	g, ok, err := l.ClaimGrant(bg, questionOf(rec), "line "+oddText)
	if err != nil || !ok || g.Line != rec.Line || g.SessionID != rec.SessionID || g.Facts != rec.Facts ||
		g.ClaimedBy != "line "+oddText || g.GrantKey != rec.Rules[0].Key {
		t.Fatalf("ClaimGrant = %+v, %v, %v; want the grant of the odd question", g, ok, err)
	}
	if err := l.SetSessionCwd(bg, rec.SessionID, "/x"); err == nil {
		t.Error("SetSessionCwd of a session never created succeeded")
	}
	s, err := l.CreateSession(bg, store.SessionRow{ID: "s\x00" + oddText, AgentID: oddText, Profile: oddText,
		Cwd: "/" + oddText, Workspace: oddText})
	if err != nil {
		t.Fatal(err)
	}
	if back, err := other.GetSession(bg, s.ID); err != nil || back != s {
		t.Errorf("GetSession = %+v, %v; want %+v", back, err, s)
	}
}

// G-9.8 for lines of any length: a line of a megabyte is one question,
// raised once however often it is retried, and its grant answers it.
func longLine(t *testing.T, open Opener) {
	l, another := open(t)
	line := strings.Repeat("echo "+strings.Repeat("x", 1000)+"; ", 1000)
	first := mustRaise(t, l, Question("s1", line, "0"))
	again, raised, err := another(t).RaiseAsk(bg, Question("s1", line, "0"))
	if err != nil || raised || again.ID != first.ID || again.Line != line {
		t.Fatalf("retry of a long line = %s (raised %v, %d bytes), %v; want %s", again.ID, raised, len(again.Line), err, first.ID)
	}
	mustAnswer(t, l, first.ID, allowOnce)
	if g, ok, err := l.ClaimGrant(bg, questionOf(first), "line-1"); err != nil || !ok || g.Line != line {
		t.Fatalf("ClaimGrant of the long line = %v, %v", ok, err)
	}
}

// G-10.3: a reader that follows the changes from rev to rev, while several
// handles raise and answer at once, ends up having seen every ask in its
// final state: no change commits with a rev below one a reader has
// already passed.
func changesNeverSkipped(t *testing.T, open Opener) {
	first, another := open(t)
	writers := []store.Ledger{first, another(t), another(t), another(t)}
	reader := another(t)
	perWriter := 40
	if testing.Short() {
		perWriter = 15
	}
	seen := map[string]store.Record{}
	var last int64
	follow := func() {
		changes, err := reader.ChangesSince(bg, last)
		if err != nil {
			t.Error(err)
			return
		}
		for _, c := range changes {
			if c.Rev <= last {
				t.Errorf("rev %d after %d", c.Rev, last)
			}
			last = c.Rev
			seen[c.Record.ID] = c.Record
		}
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	for w, l := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				rec, _, err := l.RaiseAsk(bg, Question(fmt.Sprint("s", w), "rm a", fmt.Sprint(i)))
				if err == nil && i%2 == 0 {
					_, err = l.AnswerAsk(bg, rec.ID, allowOnce)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		follow()
	}
	follow()
	all, err := first.ListAsks(bg, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(writers)*perWriter {
		t.Fatalf("%d asks, want %d", len(all), len(writers)*perWriter)
	}
	for _, rec := range all {
		if s, ok := seen[rec.ID]; !ok || s.Outcome != rec.Outcome {
			t.Errorf("the reader saw ask %s as %q, it stands %q", rec.ID, s.Outcome, rec.Outcome)
		}
	}
}

// G-9.7: with two once grants waiting for one question, many lines
// claiming at once on several handles get exactly two between them; a
// claim that lost its grant to another line takes the other one rather
// than report none.
func claimsShareGrants(t *testing.T, open Opener) {
	first, another := open(t)
	ledgers := []store.Ledger{first, another(t), another(t)}
	for round := range 6 {
		place := fmt.Sprint(round)
		for range 2 {
			asked := mustRaise(t, first, Question("s1", "rm a", place))
			mustAnswer(t, first, asked.ID, allowOnce)
		}
		const lines = 12
		got := make([]int64, lines)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range lines {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				g, ok, err := ledgers[i%len(ledgers)].ClaimGrant(bg, questionOf(Question("s1", "rm a", place)),
					fmt.Sprintf("line-%d-%d", round, i))
				if err != nil {
					t.Error(err)
				}
				if ok {
					got[i] = g.ID
				}
			}()
		}
		start.Done()
		done.Wait()
		won := map[int64]int{}
		for _, id := range got {
			if id != 0 {
				won[id]++
			}
		}
		if len(won) != 2 {
			t.Errorf("round %d: grants claimed %v, want each of the 2 grants claimed by exactly one line", round, won)
		}
		for id, n := range won {
			if n != 1 {
				t.Errorf("round %d: grant %d claimed by %d lines", round, id, n)
			}
		}
	}
}
