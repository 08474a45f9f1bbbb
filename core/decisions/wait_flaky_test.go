package decisions_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/store"
	"gatehouse/store/storetest"
)

// flakyChanges is a ledger handle whose next reads of the changes fail, as
// a server ledger's do for a moment after its connection dropped.
type flakyChanges struct {
	store.Ledger
	failures atomic.Int32
}

func (f *flakyChanges) ChangesSince(ctx context.Context, rev int64) ([]store.Change, error) {
	if f.failures.Add(-1) >= 0 {
		return nil, errors.New("connection lost")
	}
	return f.Ledger.ChangesSince(ctx, rev)
}

// G-10.3, G-10.7: when reading the changes fails just as an answer from
// another process arrives, the watcher reads them again after a pause
// instead of waiting for a next change that may never come: the waiting
// line is released all the same.
func TestWaitSurvivesAFailedReadOfTheChanges(t *testing.T) {
	t.Parallel()
	first := storetest.MustOpen(t)
	flaky := &flakyChanges{Ledger: first}
	waiting := decisions.New(flaky)
	answering := decisions.New(storetest.MustOpenFile(t, first.Path()))
	ctx := context.Background()
	asked, err := waiting.Raise(ctx, decisions.Record{SessionID: "s1", Line: "rm a", Place: "0",
		Rules: []decisions.AskRule{{Key: "k"}}})
	if err != nil {
		t.Fatal(err)
	}
	ch := startWait(t, ctx, waiting, asked.ID)
	// Let the watcher settle into its wait, then make its next reads fail.
	time.Sleep(100 * time.Millisecond)
	flaky.failures.Store(3)
	if _, err := answering.Answer(ctx, asked.ID, decisions.Answer{Outcome: decisions.Allow}); err != nil {
		t.Fatal(err)
	}
	select {
	case w := <-ch:
		if w.err != nil || w.rec.Outcome != decisions.Allow {
			t.Fatalf("Wait = %+v, %v; want the allow", w.rec, w.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting line was not released after reading the changes failed")
	}
}
