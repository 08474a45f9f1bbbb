package decisions

import (
	"context"
	"testing"
	"time"

	"gatehouse/store/storetest"
)

// G-10.3 says no busy loop: the poller runs only while someone waits or
// watches, and stops by itself afterwards.
func TestPollerRunsOnlyWhileSomeoneListens(t *testing.T) {
	t.Parallel()
	l := New(storetest.MustOpen(t))
	polling := func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.stopPoll != nil
	}
	eventually := func(want bool) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Second)
		for polling() != want {
			if time.Now().After(deadline) {
				t.Fatalf("poller running = %v, want %v", !want, want)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	ctx := context.Background()
	asked, err := l.Raise(ctx, Record{SessionID: "s1", Line: "rm a", Place: "0", Rules: []AskRule{{Key: "k"}}})
	if err != nil {
		t.Fatal(err)
	}
	if polling() {
		t.Fatal("poller running before anyone waits")
	}

	waitCtx, stopWaiting := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.Wait(waitCtx, asked.ID)
	}()
	eventually(true)
	stopWaiting()
	<-done
	eventually(false)

	watchCtx, stopWatching := context.WithCancel(ctx)
	l.Subscribe(watchCtx)
	eventually(true)
	stopWatching()
	eventually(false)
}
