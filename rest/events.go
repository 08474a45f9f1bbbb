package rest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// Event types on GET /v1/events. "closed" is an ask leaving the queue
// unanswered (its line was cancelled or timed out); a client that listens
// only for the four G-10.6 types simply never sees it.
const (
	eventAsk     = "ask"     // data: the pending record
	eventAnswer  = "answer"  // data: the settled record
	eventClosed  = "closed"  // data: the record, with "closed" saying why
	eventLine    = "line"    // data: {"kind": "line-start"|"waiting"|"line-end", ...}
	eventSession = "session" // data: the session, as GET /v1/sessions shows it
)

// historyBytes bounds the memory the event history may hold: a line's
// result can carry megabytes of output, and a count alone would not stop a
// few chatty lines from pinning a great deal of it.
const historyBytes = 16 << 20

// streamEvent is one event as it goes on the wire.
type streamEvent struct {
	id   int64
	kind string
	data []byte // one line of JSON
}

// eventHub turns ledger and workspace changes into numbered events, keeps
// the most recent ones for clients that reconnect with Last-Event-ID, and
// wakes the streams. Publishing never waits for a stream: each stream
// catches up from the history at its own pace, and one that falls out of it
// is told so.
type eventHub struct {
	ctx context.Context
	max int

	mu      sync.Mutex
	history []streamEvent // contiguous ids, oldest first
	bytes   int
	nextID  int64
	streams map[chan struct{}]struct{} // each buffered 1: "there is news"

	pumps sync.WaitGroup
}

// startEventHub subscribes to ws's ledger and events until ctx ends.
func startEventHub(ctx context.Context, ws *core.Workspace, max int) *eventHub {
	h := &eventHub{
		ctx: ctx,
		max: max,
		// Numbering from the start time in microseconds makes every id of
		// this run larger than any id an earlier run handed out, so a client
		// reconnecting across a restart is seen to have missed events.
		nextID:  time.Now().UnixMicro(),
		streams: map[chan struct{}]struct{}{},
	}
	// Both subscriptions are in place before New returns: nothing that
	// happens after it is missed.
	decided := ws.Decisions().Subscribe(ctx)
	happened := ws.Watch(ctx)
	h.pumps.Add(2)
	go func() {
		defer h.pumps.Done()
		for ev := range decided {
			h.publish(ledgerEventKind(ev.Kind), ev.Record)
		}
	}()
	go func() {
		defer h.pumps.Done()
		for ev := range happened {
			if ev.Kind == core.EventSession {
				if sess, ok := ws.Session(ev.SessionID); ok {
					h.publish(eventSession, sessionOf(sess.Row()))
				}
				continue
			}
			h.publish(eventLine, ev)
		}
	}()
	return h
}

func ledgerEventKind(kind string) string {
	switch kind {
	case decisions.EventAnswer:
		return eventAnswer
	case decisions.EventClosed:
		return eventClosed
	}
	return eventAsk
}

// wait returns when the hub has stopped publishing (after its ctx ended).
func (h *eventHub) wait() { h.pumps.Wait() }

func (h *eventHub) publish(kind string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return // every payload here is plain data; nothing fails to marshal
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.history = append(h.history, streamEvent{id: h.nextID, kind: kind, data: data})
	h.nextID++
	h.bytes += len(data)
	for len(h.history) > h.max || (h.bytes > historyBytes && len(h.history) > 1) {
		h.bytes -= len(h.history[0].data)
		h.history[0] = streamEvent{} // let the payload go
		h.history = h.history[1:]
	}
	for wake := range h.streams {
		select {
		case wake <- struct{}{}:
		default: // already woken; it will read everything new
		}
	}
}

// follow registers a stream and returns its wake channel and the id to
// resume after: lastID when the client sent one the history can continue,
// else (resumed false) the position before everything kept, or, for a
// client that sent none, the newest event (it hears only what follows).
func (h *eventHub) follow(lastID string) (wake chan struct{}, cursor int64, resumed bool) {
	wake = make(chan struct{}, 1)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streams[wake] = struct{}{}
	newest := h.nextID - 1
	if lastID == "" {
		return wake, newest, true
	}
	oldest := h.nextID - int64(len(h.history))
	if id, err := strconv.ParseInt(lastID, 10, 64); err == nil && id >= oldest-1 && id <= newest {
		return wake, id, true
	}
	return wake, oldest - 1, false
}

func (h *eventHub) unfollow(wake chan struct{}) {
	h.mu.Lock()
	delete(h.streams, wake)
	h.mu.Unlock()
}

// since returns the kept events after cursor, and how many events after
// cursor are no longer kept (a stream that fell behind).
func (h *eventHub) since(cursor int64) (events []streamEvent, missed int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	oldest := h.nextID - int64(len(h.history))
	if cursor < oldest-1 {
		missed = oldest - 1 - cursor
		cursor = oldest - 1
	}
	from := int(cursor - oldest + 1)
	return append([]streamEvent(nil), h.history[from:]...), missed
}

// streamEvents is GET /v1/events: server-sent events from now on, or from
// after the client's Last-Event-ID, with a comment line as heartbeat.
func (s *Server) streamEvents(w http.ResponseWriter, r *http.Request) {
	wake, cursor, resumed := s.events.follow(strings.TrimSpace(r.Header.Get("Last-Event-ID")))
	defer s.events.unfollow(wake)

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // reverse proxies: do not hold events back
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	out := bufio.NewWriter(w)
	send := func() bool { return out.Flush() == nil && rc.Flush() == nil }

	fmt.Fprint(out, ": gatehouse events\n\n")
	if !resumed {
		fmt.Fprint(out, ": the events after Last-Event-ID are no longer kept; re-read GET /v1/asks\n\n")
	}
	heartbeat := time.NewTicker(s.heartbeat)
	defer heartbeat.Stop()
	for {
		events, missed := s.events.since(cursor)
		if missed > 0 {
			fmt.Fprintf(out, ": %d events were dropped while this stream fell behind; re-read GET /v1/asks\n\n", missed)
		}
		for _, ev := range events {
			fmt.Fprintf(out, "id: %d\nevent: %s\ndata: %s\n\n", ev.id, ev.kind, ev.data)
			cursor = ev.id
		}
		if !send() {
			return
		}
		select {
		case <-wake:
		case <-heartbeat.C:
			fmt.Fprint(out, ": heartbeat\n\n")
		case <-r.Context().Done():
			return
		case <-s.events.ctx.Done():
			return
		}
	}
}
