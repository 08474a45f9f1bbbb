package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

func runChanges(t *testing.T, open Opener) {
	t.Run("changes in commit order across handles", func(t *testing.T) { t.Parallel(); changesInOrder(t, open) })
	t.Run("a wait wakes on another handle's commit", func(t *testing.T) { t.Parallel(); waitWakes(t, open) })
	t.Run("a wait ends with its context", func(t *testing.T) { t.Parallel(); waitEnds(t, open) })
}

// Every write to an ask, on any handle, is a change with a larger Rev; a
// retry that writes nothing is none.
func changesInOrder(t *testing.T, open Opener) {
	l, another := open(t)
	other := another(t)
	start, err := l.Revision(bg)
	if err != nil {
		t.Fatal(err)
	}
	a := mustRaise(t, l, Question("s1", "rm a", "0"))
	mustRaise(t, l, Question("s1", "rm a", "0")) // a retry: no change
	b := mustRaise(t, other, Question("s2", "rm b", "0"))
	mustAnswer(t, other, a.ID, allowOnce)
	if err := l.CloseAsk(bg, b.ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	changes, err := l.ChangesSince(bg, start)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	last := start
	for _, c := range changes {
		if c.Rev <= last {
			t.Errorf("revs not increasing: %d after %d", c.Rev, last)
		}
		last = c.Rev
		state := "pending"
		switch {
		case !c.Record.Pending():
			state = c.Record.Outcome
		case c.Record.Closed != "":
			state = "closed"
		}
		got = append(got, c.Record.ID+" "+state)
	}
	// Each ask appears once, as it stands, at its last change.
	if want := []string{a.ID + " allow", b.ID + " closed"}; !slices.Equal(got, want) {
		t.Errorf("changes = %v, want %v", got, want)
	}
	if rev, _ := other.Revision(bg); rev != last {
		t.Errorf("Revision = %d, want the last change %d", rev, last)
	}
	if more, _ := l.ChangesSince(bg, last); len(more) != 0 {
		t.Errorf("changes since the last = %d, want none", len(more))
	}
}

// G-10.3: a commit on another handle wakes a wait within 100 ms (250 ms
// allowed for a loaded machine).
func waitWakes(t *testing.T, open Opener) {
	l, another := open(t)
	other := another(t)
	mark, err := l.WaitForChange(bg, 0)
	if err != nil || mark == 0 {
		t.Fatalf("WaitForChange(0) = %d, %v; want the current mark at once", mark, err)
	}
	for round := range 4 {
		woke := make(chan time.Time, 1)
		ctx, cancel := context.WithTimeout(bg, 3*time.Second)
		go func() {
			next, err := l.WaitForChange(ctx, mark)
			if err == nil {
				mark = next
			}
			woke <- time.Now()
		}()
		select {
		case <-woke:
			t.Fatalf("round %d: the wait returned before anything changed", round)
		case <-time.After(60 * time.Millisecond):
		}
		mustRaise(t, other, Question("s1", "rm a", fmt.Sprint(round)))
		committed := time.Now()
		at := <-woke
		cancel()
		if lag := at.Sub(committed); lag > 250*time.Millisecond {
			t.Errorf("round %d: woke %v after the other handle's commit, want < 100 ms", round, lag)
		}
	}
}

func waitEnds(t *testing.T, open Opener) {
	l, _ := open(t)
	mark, _ := l.WaitForChange(bg, 0)
	ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := l.WaitForChange(ctx, mark); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitForChange with nothing changing = %v, want the context's error", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the wait outlived its context by %v", took)
	}
}
