package core

import "context"

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
