package shell

import (
	"context"
	"fmt"
	"log"
	"runtime/debug"
	"strings"
)

// A panic anywhere in a line — a utility, the gate, a policy engine, the
// interpreter, in the line's own goroutine or in one it started (pipeline
// members, background jobs, xargs workers) — ends that line, never the
// process: every goroutine a line runs on has a recover boundary that logs
// the panic with its stack for the operator and stops the line with exit 125
// (G-12.3). Other sessions never notice.

// internalErrorText is what the agent reads: no panic value, no stack, since
// either may name host paths; the operator's log has both.
func internalErrorText(where string) string {
	if where == "" {
		return "gatehouse: internal error; the line was stopped"
	}
	return "gatehouse: internal error in " + where + "; the line was stopped"
}

// logger is where the operator reads about panics.
func (s *Shell) logger() *log.Logger {
	if s.cfg.Logger != nil {
		return s.cfg.Logger
	}
	return log.Default()
}

// panicked records a recovered panic: it logs the value and stack, and ends
// the line (its pipelines and background jobs with it). The returned error
// stops whoever recovered it; its message has already been arranged to
// reach the agent once, when the line ends.
func (s *Shell) panicked(ctx context.Context, where string, p any, stack []byte) error {
	if stack == nil {
		stack = debug.Stack()
	}
	line := ""
	ls := lineOf(ctx)
	if ls != nil {
		line = ls.text
	}
	s.logger().Printf("internal error (panic) in session %s (agent %s), %s: %v\nline: %s\n%s",
		s.cfg.SessionID, s.cfg.AgentID, orWord(where, "the shell"), p, quoteForLog(line), stack)
	h := &errHalt{code: 125, msg: internalErrorText(where)}
	if ls != nil {
		ls.cancel(h)
		// The line ends with the cause's message; whoever returns h up
		// the stack must not print it again.
		return &errHalt{code: 125}
	}
	return h
}

// StopCause is a cause to cancel a line's context with: the line ends with
// exit code and msg on its stderr, as when it runs out of time (G-12.3).
func StopCause(code int, msg string) error { return &errHalt{code: code, msg: msg} }

// onInterpPanic is the interpreter's panic handler, for the goroutines it
// starts itself (pipeline members, background statements).
func (s *Shell) onInterpPanic(ctx context.Context, p any, stack []byte) {
	s.panicked(ctx, "", p, stack)
}

func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}

// quoteForLog keeps a line on one log line, bounded.
func quoteForLog(line string) string {
	const max = 2000
	if len(line) > max {
		line = line[:max] + "…"
	}
	return fmt.Sprintf("%q", strings.TrimSpace(line))
}
