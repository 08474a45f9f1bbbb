package core

import (
	"context"
	"sync"

	"gatehouse/core/gate"
	"gatehouse/core/shell"
)

// runningLines is what Shutdown needs of the lines in flight: a way to
// cancel each, and to wait until all have returned.
type runningLines struct {
	mu      sync.Mutex
	closed  bool
	next    uint64
	cancels map[uint64]context.CancelCauseFunc
	wg      sync.WaitGroup
}

// errShuttingDown ends a line the workspace's shutdown cancelled.
var errShuttingDown = shell.StopCause(125, "gatehouse: the line was cancelled: gatehouse is shutting down")

// start registers a line about to run; ok is false once the workspace is
// shutting down. The line is tracked, and cancellable by Shutdown, until
// ends.close has been called and every run of it (Session.run may run a
// line more than once) and every background job those runs launched have
// ended: each run's context comes from ends.run.
func (l *runningLines) start(ctx context.Context) (lctx context.Context, ends *lineEnds, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ctx, nil, false
	}
	if l.cancels == nil {
		l.cancels = map[uint64]context.CancelCauseFunc{}
	}
	lctx, cancel := context.WithCancelCause(ctx)
	id := l.next
	l.next++
	l.cancels[id] = cancel
	l.wg.Add(1)
	return lctx, &lineEnds{end: func() {
		l.mu.Lock()
		delete(l.cancels, id)
		l.mu.Unlock()
		l.wg.Done()
	}}, true
}

// lineEnds calls end once, when the line will run no more (close) and each
// of its runs, with the jobs it launched, has ended (the shell calls back,
// shell.OnLineEnd).
type lineEnds struct {
	mu     sync.Mutex
	open   int
	closed bool
	end    func()
}

// run returns the context of one run of the line.
func (e *lineEnds) run(ctx context.Context) context.Context {
	e.mu.Lock()
	e.open++
	e.mu.Unlock()
	return shell.OnLineEnd(ctx, func() { e.settle(-1, false) })
}

// close says no run follows.
func (e *lineEnds) close() { e.settle(0, true) }

func (e *lineEnds) settle(delta int, closing bool) {
	e.mu.Lock()
	e.open += delta
	e.closed = e.closed || closing
	fire := e.closed && e.open == 0 && e.end != nil
	end := e.end
	if fire {
		e.end = nil
	}
	e.mu.Unlock()
	if fire {
		end()
	}
}

// Shutdown stops the workspace's lines: lines started afterwards are
// refused, and every running line and background job is cancelled as if
// its time had run out, then Shutdown waits for them to end until ctx
// ends. A cancelled line that was waiting for an answer closes its ask
// as "cancelled" before it returns, so the ledger shows no question nobody
// waits for (G-12.3, G-13.5). Shutdown does not close the ledger: Close
// does, after it. serve, mcp and the console call it on SIGTERM and SIGINT.
func (ws *Workspace) Shutdown(ctx context.Context) error {
	l := &ws.lines
	l.mu.Lock()
	l.closed = true
	for _, cancel := range l.cancels {
		cancel(errShuttingDown)
	}
	l.mu.Unlock()
	all := make(chan struct{})
	go func() { l.wg.Wait(); close(all) }()
	select {
	case <-all:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// refusedForShutdown is the result of a line started after Shutdown.
func refusedForShutdown() Result {
	return Result{Stderr: "gatehouse: gatehouse is shutting down; the line did not run\n", ExitCode: 125, Refusals: []gate.Refusal{}}
}
