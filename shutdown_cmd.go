package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"gatehouse/core"
)

// lineStopBudget is how long a daemon waits, after SIGINT or SIGTERM, for
// its cancelled lines to return, so that it exits within two seconds of the
// signal with the ledger consistent (G-12.3).
const lineStopBudget = 1500 * time.Millisecond

// untilSignal returns a context that ends at the first SIGINT or SIGTERM.
// At that signal every running line of ws is cancelled (a line waiting for
// an answer closes its ask as "cancelled"), so requests and tool calls in
// flight end at once, and the signals get their default action back: a
// second one ends the process without waiting. stop releases the signals.
func untilSignal(ws *core.Workspace) (ctx context.Context, stop func()) {
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	released := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-released:
			return
		}
		stopSignals()
		stopLines(ws)
	}()
	var once bool
	return ctx, func() {
		if !once {
			once = true
			close(released)
		}
		stopSignals()
	}
}

// stopLines cancels every running line of ws and waits for them, at most
// lineStopBudget.
func stopLines(ws *core.Workspace) {
	sctx, cancel := context.WithTimeout(context.Background(), lineStopBudget)
	defer cancel()
	ws.Shutdown(sctx)
}
