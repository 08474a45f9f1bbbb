package storetest

import (
	"fmt"
	"sync"
	"testing"

	"gatehouse/store"
)

func runGrants(t *testing.T, open Opener) {
	t.Run("one claim across handles", func(t *testing.T) { t.Parallel(); claimOnce(t, open) })
	t.Run("claim, release and spend", func(t *testing.T) { t.Parallel(); claimLifecycle(t, open) })
	t.Run("a deny comes before a once grant", func(t *testing.T) { t.Parallel(); denyFirst(t, open) })
}

// G-9.7, G-10.1: lines on several handles (processes) claiming the grant of
// one question at once: exactly one gets it, every round.
func claimOnce(t *testing.T, open Opener) {
	first, another := open(t)
	ledgers := []store.Ledger{first, another(t), another(t), another(t)}
	for round := range 8 {
		asked := mustRaise(t, first, Question("s1", "rm a", fmt.Sprint(round)))
		mustAnswer(t, first, asked.ID, allowOnce)
		const lines = 16
		got := make([]bool, lines)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range lines {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				_, ok, err := ledgers[i%len(ledgers)].ClaimGrant(bg, questionOf(asked), fmt.Sprintf("line-%d-%d", round, i))
				if err != nil {
					t.Error(err)
				}
				got[i] = ok
			}()
		}
		start.Done()
		done.Wait()
		wins := 0
		for _, ok := range got {
			if ok {
				wins++
			}
		}
		if wins != 1 {
			t.Errorf("round %d: %d of %d lines claimed one once grant, want exactly 1", round, wins, lines)
		}
	}
}

// A claimed grant is neither found nor claimed again; a release by its own
// claimant hands it back (a release by another does nothing); a spend uses
// it up. A claim never released stays: once means once.
func claimLifecycle(t *testing.T, open Opener) {
	l, another := open(t)
	other := another(t)
	asked := mustRaise(t, l, Question("s1", "rm a", "0"))
	mustAnswer(t, l, asked.ID, allowOnce)
	q := questionOf(asked)

	if _, _, err := l.ClaimGrant(bg, q, ""); err == nil {
		t.Error("a claim without a claimant succeeded")
	}
	g, ok, err := l.ClaimGrant(bg, q, "line-1")
	if err != nil || !ok || g.ClaimedBy != "line-1" || g.ClaimedAt.IsZero() || g.AskID != asked.ID {
		t.Fatalf("ClaimGrant = %+v, %v, %v; want the grant claimed by line-1", g, ok, err)
	}
	if _, ok, _ := other.FindGrant(bg, q); ok {
		t.Error("a claimed grant is still found")
	}
	if _, ok, _ := other.ClaimGrant(bg, q, "line-2"); ok {
		t.Error("a claimed grant was claimed again")
	}
	if err := other.ReleaseGrants(bg, "line-2", g.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := l.FindGrant(bg, q); ok {
		t.Error("a release by another line handed the grant back")
	}
	if err := other.ReleaseGrants(bg, "line-1", g.ID); err != nil {
		t.Fatal(err)
	}
	g2, ok, err := other.ClaimGrant(bg, q, "line-3")
	if err != nil || !ok || g2.ID != g.ID {
		t.Fatalf("after its claimant released it, ClaimGrant = %+v, %v, %v; want the same grant", g2, ok, err)
	}
	if err := l.SpendGrants(bg, g.ID); err != nil {
		t.Fatal(err)
	}
	if err := other.ReleaseGrants(bg, "line-3", g.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := l.ClaimGrant(bg, q, "line-4"); ok {
		t.Error("a spent grant was claimed")
	}
	grants, _ := l.ListGrants(bg, "s1")
	if len(grants) != 1 || !grants[0].Spent || grants[0].SpentAt.IsZero() {
		t.Errorf("grants = %+v, want the one grant spent", grants)
	}

	// A holder that dies keeps its claim: nobody else gets the grant.
	again := mustRaise(t, l, Question("s1", "rm a", "0"))
	mustAnswer(t, l, again.ID, allowOnce)
	if _, ok, _ := l.ClaimGrant(bg, q, "dead-line"); !ok {
		t.Fatal("claim of the second grant failed")
	}
	if _, ok, _ := other.ClaimGrant(bg, q, "line-5"); ok {
		t.Error("a grant held by a line that never ended was claimed again")
	}
}

// G-9.5: the host's deny on a question comes before an allow left for it
// earlier; unused, both stay until claimed.
func denyFirst(t *testing.T, open Opener) {
	l, _ := open(t)
	first := mustRaise(t, l, Question("s1", "rm a", "0"))
	mustAnswer(t, l, first.ID, allowOnce)
	second := mustRaise(t, l, Question("s1", "rm a", "0"))
	mustAnswer(t, l, second.ID, denyOnce)
	q := questionOf(first)
	g, ok, err := l.ClaimGrant(bg, q, "line-1")
	if err != nil || !ok || g.Kind != store.GrantDeny || g.AskID != second.ID {
		t.Fatalf("first claim = %+v, %v, %v; want the deny", g, ok, err)
	}
	g, ok, err = l.ClaimGrant(bg, q, "line-2")
	if err != nil || !ok || g.Kind != store.GrantOnce || g.AskID != first.ID {
		t.Fatalf("second claim = %+v, %v, %v; want the once grant", g, ok, err)
	}
}
