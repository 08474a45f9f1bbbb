package core

import (
	"context"
	"sync"
	"time"
)

// Event kinds a workspace watcher sees.
const (
	EventSession   = "session"    // a session was created or resumed
	EventLineStart = "line-start" // a session began a line
	EventLineEnd   = "line-end"   // a line ended; Result holds what it produced
	EventWaiting   = "waiting"    // a line waits for an answer (inline handler)
)

// Event is one thing that happened in a workspace, for hosts that show it
// live (console, REST events). Decisions have their own stream:
// Decisions().Subscribe.
type Event struct {
	Kind      string    `json:"kind"`
	SessionID string    `json:"session_id"`
	AgentID   string    `json:"agent_id"`
	Profile   string    `json:"profile"`
	Line      string    `json:"line,omitempty"`
	Result    *Result   `json:"result,omitempty"`
	AskID     string    `json:"ask_id,omitempty"`
	At        time.Time `json:"at"`
}

// bus fans events out to watchers without ever blocking the sender: a
// watcher that falls behind loses its oldest events.
type bus struct {
	mu   sync.Mutex
	subs map[chan Event]struct{}
}

func (b *bus) publish(ev Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs {
		select {
		case ch <- ev:
		default:
			select {
			case <-ch:
			default:
			}
			select {
			case ch <- ev:
			default:
			}
		}
	}
}

// Watch streams the workspace's events until ctx ends.
func (ws *Workspace) Watch(ctx context.Context) <-chan Event {
	ch := make(chan Event, 256)
	ws.events.mu.Lock()
	if ws.events.subs == nil {
		ws.events.subs = map[chan Event]struct{}{}
	}
	ws.events.subs[ch] = struct{}{}
	ws.events.mu.Unlock()
	go func() {
		<-ctx.Done()
		ws.events.mu.Lock()
		delete(ws.events.subs, ch)
		ws.events.mu.Unlock()
		close(ch)
	}()
	return ch
}

func (ws *Workspace) emit(kind string, s *Session, line string, res *Result, askID string) {
	ws.events.publish(Event{Kind: kind, SessionID: s.row.ID, AgentID: s.row.AgentID, Profile: s.row.Profile, Line: line, Result: res, AskID: askID, At: time.Now()})
}

// State is what a session is doing: "running", "waiting" (a line waits for
// an answer) or "idle".
func (s *Session) State() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.waiting > 0:
		return "waiting"
	case s.running > 0:
		return "running"
	}
	return "idle"
}
