package decisions_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/store"
	"gatehouse/store/storetest"
)

// slowLook is a ledger handle whose change watch is held inside the store
// until the test lets it go, as a look stalled under load is.
type slowLook struct {
	store.Ledger
	inside  chan struct{} // a look has begun
	release chan struct{} // lets the look end
	busy    atomic.Bool   // a look is running
}

func (s *slowLook) WaitForChange(ctx context.Context, mark uint64) (uint64, error) {
	s.busy.Store(true)
	defer s.busy.Store(false)
	select {
	case s.inside <- struct{}{}:
	default:
	}
	<-s.release
	return s.Ledger.WaitForChange(ctx, mark)
}

// Stop returns only once the watcher no longer touches the store, so the
// owner may close the handle and remove the ledger file: a look still
// running after the close could reopen (recreate) the file.
func TestStopWaitsForTheWatcher(t *testing.T) {
	t.Parallel()
	slow := &slowLook{Ledger: storetest.MustOpen(t), inside: make(chan struct{}, 1), release: make(chan struct{})}
	l := decisions.New(slow)
	ctx, cancel := context.WithCancel(context.Background())
	events := l.Subscribe(ctx)
	<-slow.inside
	cancel()
	for range events {
	}
	stopped := make(chan struct{})
	go func() { l.Stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("Stop returned while the watcher was inside the store")
	case <-time.After(50 * time.Millisecond):
	}
	close(slow.release)
	<-stopped
	if slow.busy.Load() {
		t.Fatal("the watcher still looks at the store after Stop")
	}
	// A listener after Stop starts no watcher.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	l.Subscribe(ctx2)
	select {
	case <-slow.inside:
		t.Fatal("a watcher started after Stop")
	case <-time.After(50 * time.Millisecond):
	}
}
