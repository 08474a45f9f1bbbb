package mcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// waiting reports, to a client that sent a progress token, what its own
// call waits for: a notification as soon as the call starts waiting for a
// human's answer, then one every ProgressInterval while it waits, each
// naming the ask (`waiting 15s for a human to answer ask ID: CMD
// (REASON)`). Calls of one client waiting at once each name their own ask.
// It returns the context the call's line runs under and a func that stops
// the reports.
func (s *Server) waiting(ctx context.Context, req *sdk.CallToolRequest) (context.Context, func()) {
	token := req.Params.GetProgressToken()
	if token == nil {
		return ctx, func() {}
	}
	w := &waitReport{changed: make(chan struct{}, 1)}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(s.opts.ProgressInterval)
		defer ticker.Stop()
		var sent float64
		for {
			select {
			case <-rctx.Done():
				return
			case <-w.changed:
			case <-ticker.C:
			}
			message := w.message()
			if message == "" {
				continue
			}
			sent++
			_ = req.Session.NotifyProgress(rctx, &sdk.ProgressNotificationParams{
				ProgressToken: token, Progress: sent, Message: message,
			})
		}
	}()
	return core.OnWaiting(ctx, w.set), func() { cancel(); <-done }
}

// waitReport is the ask a call waits for now, if any.
type waitReport struct {
	mu      sync.Mutex
	rec     *decisions.Record
	since   time.Time
	changed chan struct{}
}

// set is the call's core.OnWaiting callback.
func (w *waitReport) set(rec decisions.Record, waiting bool) {
	w.mu.Lock()
	if waiting {
		w.rec, w.since = &rec, time.Now()
	} else if w.rec != nil && w.rec.ID == rec.ID {
		w.rec = nil
	}
	w.mu.Unlock()
	if waiting {
		select {
		case w.changed <- struct{}{}:
		default:
		}
	}
}

// message says what the call waits for, or "" when it is not waiting.
func (w *waitReport) message() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.rec == nil {
		return ""
	}
	r := w.rec
	return fmt.Sprintf("waiting %s for a human to answer ask %s: %s (%s)",
		time.Since(w.since).Round(time.Second), r.ID, r.Command, r.Reason)
}
