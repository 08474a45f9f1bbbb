package decisions

import (
	"context"
	"time"
)

// How often the poller looks at PRAGMA data_version. A waiting line must
// hear of another process's answer within 100 ms (G-10.3); a host that only
// watches events can afford to hear later.
const (
	waitPollInterval  = 25 * time.Millisecond
	watchPollInterval = 100 * time.Millisecond
)

// subscriberBuffer is how many events a subscriber may fall behind before
// its oldest undelivered events are dropped.
const subscriberBuffer = 256

type waiter struct{ ch chan Record } // buffered 1: the settled record

type subscriber struct{ ch chan Event }

// Wait blocks until the ask is answered and returns the settled record. An
// answer given through this Ledger releases it at once; an answer another
// process (or another Ledger on the same file) writes releases it within
// about 25 ms, when the poller sees the file change. An answered ask
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

	rec, err := l.Get(ctx, id)
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
	start := !l.polling
	l.polling = true
	l.mu.Unlock()

	if wasIdle {
		// On failure the position stays behind: listeners may hear old
		// changes again, never miss new ones.
		var rev int64
		if err := l.db.QueryRowContext(ctx, `SELECT coalesce(max(rev), 0) FROM asks`).Scan(&rev); err == nil {
			l.lastRev = rev
		}
	}
	if start {
		go l.poll()
	}
}

// unlisten removes a listener (remove runs under mu). The poller notices
// the ledger went idle and stops by itself.
func (l *Ledger) unlisten(remove func()) {
	l.mu.Lock()
	remove()
	l.mu.Unlock()
}

// changed runs after this Ledger commits a change to an ask, so its own
// listeners hear of it before the writer returns rather than at the next
// poll. Nobody listening means nothing to do.
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

// poll watches the file for commits from other connections while anyone
// listens: one cheap PRAGMA per interval, a scan only when it moved. It
// exits when the ledger goes idle.
func (l *Ledger) poll() {
	ctx := context.Background()
	var last int64
	seen := false
	timer := time.NewTimer(waitPollInterval)
	defer timer.Stop()
	for {
		<-timer.C
		l.mu.Lock()
		if l.idle() {
			l.polling = false
			l.mu.Unlock()
			return
		}
		interval := watchPollInterval
		if len(l.waiters) > 0 {
			interval = waitPollInterval
		}
		l.mu.Unlock()

		if v, err := l.db.DataVersion(ctx); err == nil {
			// The first reading has nothing to compare with: scan once
			// to cover changes made before the poller started.
			if !seen || v != last {
				l.scan(ctx)
			}
			last, seen = v, true
		}
		timer.Reset(interval)
	}
}

// scan turns every ask row changed since the last scan into an event and
// releases the lines waiting on asks now answered. rev orders the changes
// the way they were committed, whichever process wrote them.
func (l *Ledger) scan(ctx context.Context) {
	l.scanMu.Lock()
	defer l.scanMu.Unlock()

	rows, err := l.db.QueryContext(ctx, `SELECT rev, `+askColumns+` FROM asks
		WHERE rev > ? ORDER BY rev`, l.lastRev)
	if err != nil {
		return // the next poll tries again from the same position
	}
	var changes []Record
	last := l.lastRev
	for rows.Next() {
		var rev int64
		rec, err := readRecord(rows, &rev)
		if err != nil {
			break // keep what was read; the rest waits for the next scan
		}
		changes = append(changes, rec)
		last = rev
	}
	rows.Close()
	l.lastRev = last

	l.mu.Lock()
	defer l.mu.Unlock()
	for _, rec := range changes {
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
