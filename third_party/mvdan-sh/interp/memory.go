// Added to this copy by gatehouse (see PATCHES.md); under the same licence.

package interp

import (
	"context"
	"io"

	"mvdan.cc/sh/v3/expand"
)

// MemoryHandlerFunc is told how much memory a program holds. It is called
// with n > 0 before the runner keeps n more bytes — a variable's larger
// value, the output of a command substitution, a line read by read, the
// lines of mapfile, a pipe's buffer — and with n < 0 when it lets n bytes
// go. An expansion about to build a large value (a word, a command's
// arguments, a replacement) asks for its size and gives it back at once.
//
// A non-nil error for n > 0 refuses: the runner does not keep the bytes.
// A refused variable write fails like a read-only one; a refused expansion
// or pipe stops the program with the error as a fatal one, which Run
// returns. The handler is called from every goroutine the program runs on,
// with the context of the statement; it must be safe for concurrent use.
type MemoryHandlerFunc func(ctx context.Context, n int64) error

// MemoryHandler sets the memory handler. See [MemoryHandlerFunc].
func MemoryHandler(f MemoryHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.memHandler = f
		return nil
	}
}

// MemoryHeld reports the bytes of variable values this runner charged to
// its memory handler and did not give back: with a [MemoryHandler], the
// size of the shell's variables, which persist from one Run to the next.
func (r *Runner) MemoryHeld() int64 { return r.memHeld }

// varBytes is what a variable's value costs, roughly: its strings, and a
// word of bookkeeping per element.
func varBytes(vr expand.Variable) int64 {
	n := int64(len(vr.Str))
	for _, s := range vr.List {
		n += int64(len(s)) + 16
	}
	n += int64(len(vr.Indexes)) * 8
	for k, v := range vr.Map {
		n += int64(len(k)+len(v)) + 48
	}
	return n
}

// chargeVar asks the handler for a variable write that replaces prev with
// vr; it returns the change to keep in [Runner.memHeld] once the write is
// made, and releases nothing yet.
func (r *Runner) chargeVar(prev, vr expand.Variable) (int64, error) {
	if r.memHandler == nil || vr.Kind == expand.KeepValue {
		return 0, nil
	}
	delta := varBytes(vr) - varBytes(prev)
	if delta > 0 {
		if err := r.memHandler(r.memCtx(), delta); err != nil {
			return 0, err
		}
	}
	return delta, nil
}

// settleVar records a write charged by chargeVar: made (keep the change,
// give back what shrank) or not (give back what was charged).
func (r *Runner) settleVar(delta int64, made bool) {
	switch {
	case delta == 0:
	case !made:
		if delta > 0 {
			r.memHandler(r.memCtx(), -delta)
		}
	default:
		r.memHeld += delta
		if delta < 0 {
			r.memHandler(r.memCtx(), delta)
		}
	}
}

// releaseMem gives back everything this runner still holds: a subshell's
// variables go away with it.
func (r *Runner) releaseMem() {
	if r.memHandler != nil && r.memHeld != 0 {
		r.memHandler(r.memCtx(), -r.memHeld)
		r.memHeld = 0
	}
}

// releaseLocals gives back the local variables of a function call's scope.
func (r *Runner) releaseLocals(scope *overlayEnviron) {
	if r.memHandler == nil {
		return
	}
	var n int64
	for _, vr := range scope.values {
		if vr.Local {
			n += varBytes(vr.Variable)
		}
	}
	if n = min(n, r.memHeld); n > 0 {
		r.memHeld -= n
		r.memHandler(r.memCtx(), -n)
	}
}

// memCtx is the context memory is charged under: the running statement's,
// or none yet (Reset's own variables).
func (r *Runner) memCtx() context.Context {
	if r.ectx == nil {
		return context.Background()
	}
	return r.ectx
}

// probeMem asks for n bytes and gives them back: a check that they fit.
func (r *Runner) probeMem(ctx context.Context, n int64) error {
	if r.memHandler == nil || n <= 0 {
		return nil
	}
	if err := r.memHandler(ctx, n); err != nil {
		return err
	}
	r.memHandler(ctx, -n)
	return nil
}

// pipeBytes is what a pipe is charged: the kernel's default buffer.
const pipeBytes = 64 << 10

// memWriter charges what is written through it, for output the runner
// keeps (a command substitution's).
type memWriter struct {
	r    *Runner
	ctx  context.Context
	w    io.Writer
	held int64
}

func (m *memWriter) Write(p []byte) (int, error) {
	// The output grows a buffer, which holds up to three times what was
	// written while it grows (the old buffer, the new one, its slack).
	n := 3 * int64(len(p))
	if err := m.r.memHandler(m.ctx, n); err != nil {
		return 0, err
	}
	m.held += n
	return m.w.Write(p)
}

func (m *memWriter) release() {
	if m.held > 0 {
		m.r.memHandler(m.ctx, -m.held)
		m.held = 0
	}
}

// memoryError is an expansion refused by the memory handler; it stops the
// program like any bound of the expander.
func memoryError(err error) error {
	return &expand.LimitError{Msg: err.Error()}
}
