package postgres

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// heartbeat is how long the listening connection may stay silent before it
// is pinged: a server or network that vanished without closing the
// connection is noticed within about twice this, and the connection
// replaced.
const heartbeat = 5 * time.Second

// Reconnection backs off from reconnectMin to reconnectMax between
// failures, so a server that is down costs a look every second at most.
const (
	reconnectMin = 25 * time.Millisecond
	reconnectMax = time.Second
)

// errClosed is what a wait returns when its ledger handle is closed.
var errClosed = errors.New("ledger closed")

// watcher keeps one connection listening on the ledger's channel and
// counts what it hears. The count is the mark WaitForChange hands out:
// it moves at every notification for this ledger's schema, and at every
// reconnection (what was committed while nobody listened is unknown, so a
// reconnection reads as a change: a spurious wake-up, never a missed one).
type watcher struct {
	l *Ledger

	mu      sync.Mutex
	count   uint64
	moved   chan struct{} // closed when count moves; then replaced
	ready   chan struct{} // closed once the first LISTEN is in force
	isReady bool

	cancel context.CancelFunc
	done   chan struct{}
}

// watcher returns the handle's watcher, starting it on first use.
func (l *Ledger) watcher() *watcher {
	l.watchOnce.Do(func() { l.watch = l.newWatcher() })
	return l.watch
}

// newWatcher starts listening, unless the handle is closed already: then
// the watcher it returns is stopped from the start.
func (l *Ledger) newWatcher() *watcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{l: l, count: 1, moved: make(chan struct{}), ready: make(chan struct{}),
		cancel: cancel, done: make(chan struct{})}
	select {
	case <-l.closed:
		cancel()
		close(w.done)
	default:
		go w.run(ctx)
	}
	return w
}

// stop ends the listening connection and waits for it to close.
func (w *watcher) stop() {
	w.cancel()
	<-w.done
}

// now returns the count and the channel closed when it next moves.
func (w *watcher) now() (uint64, <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.count, w.moved
}

func (w *watcher) bump() {
	w.mu.Lock()
	w.count++
	close(w.moved)
	w.moved = make(chan struct{})
	w.mu.Unlock()
}

// listening records that a LISTEN is in force: the first time it makes
// the watcher ready, later (after a reconnection) it counts as a change.
func (w *watcher) listening() {
	w.mu.Lock()
	first := !w.isReady
	if first {
		w.isReady = true
		close(w.ready)
	}
	w.mu.Unlock()
	if !first {
		w.bump()
	}
}

// run connects, listens, and counts notifications until ctx ends,
// reconnecting whenever the connection fails.
func (w *watcher) run(ctx context.Context) {
	defer close(w.done)
	pause := reconnectMin
	for ctx.Err() == nil {
		conn, err := pgx.ConnectConfig(ctx, w.l.config.ConnConfig.Copy())
		if err == nil {
			if _, err = conn.Exec(ctx, `LISTEN `+channel); err == nil {
				w.listening()
				pause = reconnectMin
				w.hear(ctx, conn)
			}
			conn.Close(context.Background())
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
		pause = min(2*pause, reconnectMax)
	}
}

// hear counts the notifications for this ledger's schema until the
// connection fails or ctx ends. A silent connection is pinged every
// heartbeat, so one that died without a word is found out.
func (w *watcher) hear(ctx context.Context, conn *pgx.Conn) {
	for {
		waitCtx, cancel := context.WithTimeout(ctx, heartbeat)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil:
			if n.Payload == w.l.schema {
				w.bump()
			}
			continue
		case !errors.Is(err, context.DeadlineExceeded) || conn.IsClosed():
			return
		}
		pingCtx, cancel := context.WithTimeout(ctx, heartbeat)
		err = conn.Ping(pingCtx)
		cancel()
		if err != nil {
			return
		}
	}
}

// WaitForChange implements store.Ledger with LISTEN/NOTIFY: the handle's
// listening connection wakes the wait as soon as the server delivers a
// notification of a commit to this ledger, from any host; the wait itself
// sleeps on a channel. A zero mark starts the listening connection, waits
// until its LISTEN is in force, and returns the current mark. A dropped
// connection is replaced in the background (backing off to one attempt a
// second), and its replacement wakes every wait once, so a change
// committed while nobody listened is read rather than missed.
func (l *Ledger) WaitForChange(ctx context.Context, mark uint64) (uint64, error) {
	w := l.watcher()
	if mark == 0 {
		select {
		case <-w.ready:
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-w.done:
			return 0, errClosed
		}
	}
	for {
		count, moved := w.now()
		if mark == 0 || count != mark {
			return count, nil
		}
		select {
		case <-moved:
		case <-ctx.Done():
			return mark, ctx.Err()
		case <-w.done:
			return mark, errClosed
		}
	}
}
