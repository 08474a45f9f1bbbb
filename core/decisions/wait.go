package decisions

import (
	"context"
	"time"
)

// retryPause is how long the watcher rests after the store failed to look
// for changes, before it looks again.
const retryPause = 100 * time.Millisecond

// subscriberBuffer is how many events a subscriber may fall behind before
// its oldest undelivered events are dropped.
const subscriberBuffer = 256

type waiter struct{ ch chan Record } // buffered 1: the settled record

type subscriber struct{ ch chan Event }

// Wait blocks until the ask is answered and returns the settled record. An
// answer given through this Ledger releases it at once; an answer another
// process (or another handle on the same ledger) writes releases it as
// soon as the store's WaitForChange sees it (within 100 ms, G-10.3). An answered ask
// returns at once. When ctx ends first, Wait returns the ask as it stands
// (pending) with ctx's error; the ask stays pending (G-10.4).
//
// Closing an ask does not release its waiters: it is still unanswered.
func (l *Ledger) Wait(ctx context.Context, id string) (Record, error) {
	w := &waiter{ch: make(chan Record, 1)}
	// Listen before reading, so an answer landing between the read and the
	// select below is still delivered.
	l.listen(ctx, func() {
		if l.waiters[id] == nil {
			l.waiters[id] = map[*waiter]struct{}{}
		}
		l.waiters[id][w] = struct{}{}
	})
	defer l.unlisten(func() {
		delete(l.waiters[id], w)
		if len(l.waiters[id]) == 0 {
			delete(l.waiters, id)
		}
	})

	// Read the ask even when ctx has already ended: the caller gets it as
	// it stands either way.
	rec, err := l.Get(context.WithoutCancel(ctx), id)
	if err != nil || !rec.Pending() {
		return rec, err
	}
	select {
	case settled := <-w.ch:
		return settled, nil
	case <-ctx.Done():
		return rec, ctx.Err()
	}
}

// Subscribe delivers every change to the ledger from now on (asks raised,
// answered or closed, by this process or another) until ctx ends, then
// closes the channel. Changes made elsewhere arrive within about 100 ms,
// and each carries the ask as it stands when seen: an ask raised and
// answered elsewhere between two looks arrives as its answer alone.
//
// Delivery never blocks the writer: each subscriber has a buffer of 256
// events, and a subscriber that falls further behind loses its oldest
// undelivered events. A host that must not miss a change re-reads Pending
// or List when it catches up.
func (l *Ledger) Subscribe(ctx context.Context) <-chan Event {
	s := &subscriber{ch: make(chan Event, subscriberBuffer)}
	l.listen(ctx, func() { l.subs[s] = struct{}{} })
	go func() {
		<-ctx.Done()
		l.unlisten(func() { delete(l.subs, s) })
		// Closing under mu: no publisher can be sending meanwhile.
		l.mu.Lock()
		close(s.ch)
		l.mu.Unlock()
	}()
	return s.ch
}

// idle reports that nobody waits or watches. Callers hold mu.
func (l *Ledger) idle() bool { return len(l.waiters) == 0 && len(l.subs) == 0 }

// listen registers a listener (add runs under mu) and makes sure changes
// are being watched. When the ledger was idle, the scan position jumps to
// the newest change, so the new listener hears only what happens after it
// registered; holding scanMu meanwhile keeps a concurrent listener from
// reading the ledger before that jump.
func (l *Ledger) listen(ctx context.Context, add func()) {
	l.scanMu.Lock()
	defer l.scanMu.Unlock()

	l.mu.Lock()
	wasIdle := l.idle()
	add()
	var watch context.Context
	if l.stopPoll == nil && !l.stopped {
		watch, l.stopPoll = context.WithCancel(context.Background())
		l.watcher.Add(1)
	}
	l.mu.Unlock()

	if wasIdle {
		// On failure the position stays behind: listeners may hear old
		// changes again, never miss new ones.
		if rev, err := l.store.Revision(ctx); err == nil {
			l.lastRev = rev
		}
	}
	if watch != nil {
		go func() {
			defer l.watcher.Done()
			l.watch(watch)
		}()
	}
}

// Stop ends the change watcher and returns once it no longer touches the
// store, so the owner may close the store handle: a scan still running
// when the handle closes could otherwise reopen the ledger file after its
// owner removed it. Listeners stay registered; they hear only what this
// Ledger itself writes from now on.
func (l *Ledger) Stop() {
	l.mu.Lock()
	l.stopped = true
	if l.stopPoll != nil {
		l.stopPoll()
		l.stopPoll = nil
	}
	l.mu.Unlock()
	l.watcher.Wait()
}

// unlisten removes a listener (remove runs under mu); the last one out
// stops the watcher.
func (l *Ledger) unlisten(remove func()) {
	l.mu.Lock()
	remove()
	if l.idle() && l.stopPoll != nil {
		l.stopPoll()
		l.stopPoll = nil
	}
	l.mu.Unlock()
}

// changed runs after this Ledger commits a change to an ask, so its own
// listeners hear of it before the writer returns rather than at the next
// look. Nobody listening means nothing to do.
func (l *Ledger) changed(ctx context.Context) {
	l.mu.Lock()
	idle := l.idle()
	l.mu.Unlock()
	if !idle {
		// The change is committed; deliver it even if the writer's
		// context ends now.
		l.scan(context.WithoutCancel(ctx))
	}
}

// watch follows commits from other handles and processes while anyone
// listens: the store's WaitForChange sleeps between its cheap looks, and a
// scan runs only when something moved. The first wait returns at once, so
// changes made before the watcher started are scanned too. A scan that
// failed (a dropped connection to a server ledger) is tried again after a
// pause rather than left for the next change, which may never come. It
// ends when the last listener leaves (ctx).
func (l *Ledger) watch(ctx context.Context) {
	var mark uint64
	for {
		next, err := l.store.WaitForChange(ctx, mark)
		if ctx.Err() != nil {
			return
		}
		if err == nil && l.scan(ctx) == nil {
			mark = next
			continue
		}
		// The store failed to look or to read: try again after a pause
		// rather than spin on a broken handle. The mark stays, so the
		// next wait returns at once and the scan runs again.
		select {
		case <-time.After(retryPause):
		case <-ctx.Done():
			return
		}
	}
}

// scan turns every ask changed since the last scan into an event and
// releases the lines waiting on asks now answered. Revs order the changes
// the way they were committed, whichever process wrote them. On an error
// it keeps what was read and reports the error; the rest comes with the
// next scan.
func (l *Ledger) scan(ctx context.Context) error {
	l.scanMu.Lock()
	defer l.scanMu.Unlock()

	changes, err := l.store.ChangesSince(ctx, l.lastRev)
	if len(changes) == 0 {
		return err
	}
	l.lastRev = changes[len(changes)-1].Rev

	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range changes {
		rec := c.Record
		ev := Event{Kind: EventAsk, Record: rec}
		switch {
		case !rec.Pending():
			ev.Kind = EventAnswer
			for w := range l.waiters[rec.ID] {
				w.ch <- rec // buffered 1 and removed at once: never blocks
			}
			delete(l.waiters, rec.ID)
		case rec.Closed != "":
			ev.Kind = EventClosed
		}
		for s := range l.subs {
			publish(s.ch, ev)
		}
	}
	return err
}

// publish hands ev to one subscriber without blocking, dropping the
// subscriber's oldest undelivered event when its buffer is full. Callers
// hold mu, so no other publisher races for the freed slot.
func publish(ch chan Event, ev Event) {
	select {
	case ch <- ev:
		return
	default:
	}
	select {
	case <-ch:
	default:
	}
	select {
	case ch <- ev:
	default:
	}
}
