package shell

import (
	"context"
	"errors"
	"fmt"
	"log"
	"runtime/debug"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
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

// stopGrace is how long a stopped line's statements have to return once
// the line was stopped (time, a limit, an ask, a shutdown). Every stream,
// file and loop of the shell looks at the line's context, so this is a
// backstop for a command that does neither I/O nor checks (a bug).
const stopGrace = 3 * time.Second

// runWithin runs the line's statements and returns their error; stuck
// reports that they did not return within stopGrace of the line's stop, in
// which case they are left running on their own goroutine.
func (s *Shell) runWithin(ctx context.Context, file *syntax.File) (err error, stuck bool) {
	r := s.runner
	done := make(chan error, 1)
	go func() { done <- s.runGuarded(ctx, r, file) }()
	select {
	case err := <-done:
		return err, false
	case <-ctx.Done():
	}
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select {
	case err := <-done:
		return err, false
	case <-grace.C:
		return nil, true
	}
}

// abandon ends a line whose statements would not stop: the caller gets the
// line's result at once, the operator's log says which line, and the
// session gets a fresh shell (the old one is still busy), so it lives on
// without its variables and functions; its cwd stays.
func (s *Shell) abandon(ctx context.Context, ls *lineState, line string, stdout, stderr *cappedBuffer) Result {
	s.logger().Printf("a line of session %s (agent %s) did not stop within %s of its end; its goroutine is left running and the session gets a fresh shell\nline: %s",
		s.cfg.SessionID, s.cfg.AgentID, stopGrace, quoteForLog(line))
	res := Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: 124, Refusals: []gate.Refusal{}}
	var h *errHalt
	if errors.As(context.Cause(ctx), &h) {
		res.ExitCode = h.code
		if h.msg != "" {
			res.Stderr += h.msg + "\n"
		}
	}
	res.Stderr += "gatehouse: a command of the line did not stop; the session's shell was restarted (its variables and functions are gone)\n"
	cwd := s.Cwd()
	if r, err := s.newRunner(s.initialEnv(cwd), cwd, true, s.pid, s.ppid); err == nil {
		s.runner = r
		r.Reset()
		s.internal(context.Background(), shellVariables)
	}
	ls.mu.Lock()
	res.Refusals = append(res.Refusals, ls.refusals...)
	res.Notes = append([]ReviewerNote(nil), ls.notes...)
	ls.mu.Unlock()
	return res
}
