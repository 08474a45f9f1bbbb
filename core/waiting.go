package core

import (
	"context"

	"gatehouse/core/decisions"
)

// noWaitKey marks a context whose lines must not wait for answers.
type noWaitKey struct{}

// NoWait returns a context under which a line does not wait for an answer
// even when the workspace has an inline handler: an ask is raised in the
// ledger and the line is refused at once with the pending record, exactly as
// in a workspace without a handler. Hosts use it for callers that would
// rather poll than hold a request open (REST `?wait=false`, G-10.6).
func NoWait(ctx context.Context) context.Context {
	return context.WithValue(ctx, noWaitKey{}, true)
}

// waitsForAnswers reports whether a line running under ctx may wait for an
// inline answer; only NoWait says no.
func waitsForAnswers(ctx context.Context) bool {
	noWait, _ := ctx.Value(noWaitKey{}).(bool)
	return !noWait
}

// waitingKey carries the OnWaiting callback of a caller.
type waitingKey struct{}

// OnWaiting returns a context under which a line or file operation calls
// notify with the ask's record and true each time it starts waiting for a
// host's answer, and with false when that wait ends (answered or not). A
// caller serving several lines of one session at once (an MCP client's
// concurrent tool calls) learns which ask its own call waits for. notify
// runs on the waiting goroutine and must return quickly.
func OnWaiting(ctx context.Context, notify func(rec decisions.Record, waiting bool)) context.Context {
	return context.WithValue(ctx, waitingKey{}, notify)
}

// deferredKey carries a *deferredAsk: the session waits for the line's
// preflight question outside the line (see Session.run).
type deferredKey struct{}

// deferredAsk is the question a line's preflight handed over instead of
// waiting for it in place (see shell.InPreflight).
type deferredAsk struct {
	rec decisions.Record
	ok  bool
}
