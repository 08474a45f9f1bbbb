// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"

	"mvdan.cc/sh/v3/syntax"
)

// pipeline runs a | b | … as bash does: every stage in a subshell of its
// own, the last one too unless the lastpipe option is set, all at once,
// each reading what the one before it writes. The status is the last
// stage's (with pipefail, the right-most failing one's), and $PIPESTATUS
// lists every stage's (patch 91).
func (r *Runner) pipeline(ctx context.Context, cm *syntax.BinaryCmd) {
	stages, ops := pipelineStages(cm)
	n := len(stages)
	if r.memHandler != nil {
		if err := r.memHandler(ctx, int64(n-1)*pipeBytes); err != nil {
			r.exit.fatal(memoryError(err))
			return
		}
		defer r.memHandler(ctx, -int64(n-1)*pipeBytes)
	}
	subs := make([]*Runner, n)
	outs := make([]*pipeWriter, n-1)
	var wg sync.WaitGroup
	in := r.stdin
	var inPipe interface{ Close() error } // the reader the next stage reads
	for i := range n - 1 {
		pr, pw, err := newPipe()
		if err != nil {
			if inPipe != nil {
				inPipe.Close()
			}
			wg.Wait()
			r.exit.fatal(err) // not being able to create a pipe is rare but critical
			return
		}
		r.stageDebugTrap(ctx, stages[i])
		r2 := r.subshell(true)
		out := &pipeWriter{w: pw}
		outs[i] = out
		r2.stdin, r2.stdout, r2.stderr = in, out, r.stderr
		if ops[i] == syntax.PipeAll {
			r2.stderr = out
		}
		r2.inPipe = true
		subs[i] = r2
		readEnd := inPipe
		wg.Go(func() {
			defer func() {
				r2.recoverGo(ctx, recover())
				r2.releaseMem()
				r2.releaseFds()
				r2.exit.leaveSubshell() // subshells don't exit the parent shell
				pw.Close()
				if readEnd != nil {
					readEnd.Close()
				}
			}()
			r2.stmt(ctx, stages[i])
		})
		in, inPipe = pr, pr
	}
	last := stages[n-1]
	if r.opts[optLastPipe] {
		oldIn, oldInPipe := r.stdin, r.inPipe
		r.stdin, r.inPipe = in, true
		r.stmt(ctx, last)
		r.stdin, r.inPipe = oldIn, oldInPipe
	} else {
		r.stageDebugTrap(ctx, last)
		r2 := r.subshell(true)
		r2.stdin, r2.inPipe = in, true
		subs[n-1] = r2
		r2.stmt(ctx, last)
		r2.releaseMem()
		r2.releaseFds()
		r2.exit.leaveSubshell()
		r.exit = r2.exit
	}
	if inPipe != nil {
		inPipe.Close()
	}
	wg.Wait()
	status := r.exit
	r.pipeStatus = r.pipeStatus[:0]
	for i, r2 := range subs {
		code := status.code
		if r2 != nil && i < n-1 {
			code = r2.exit.code
			if code == 1 && outs[i].broken.Load() {
				// It failed (as a command does on a write error) after
				// writing to a stage that had ended: bash's stage would
				// have died of SIGPIPE. A stage that went on to exit with
				// a status of its own keeps it.
				code = 128 + 13
				r2.exit.code = code
			}
		}
		r.pipeStatus = append(r.pipeStatus, code)
	}
	if r.opts[optPipeFail] && r.exit.ok() {
		for _, r2 := range slices.Backward(subs[:n-1]) {
			if !r2.exit.ok() {
				r.exit = r2.exit
				break
			}
		}
	}
	for _, r2 := range subs[:n-1] {
		if r2.exit.fatalExit {
			r.exit.fatal(r2.exit.err) // surface fatal errors immediately
			break
		}
	}
}

// pipelineStages flattens a pipeline, which the parser nests to the left,
// into its stages and the operators between them.
func pipelineStages(cm *syntax.BinaryCmd) ([]*syntax.Stmt, []syntax.BinCmdOperator) {
	var stages []*syntax.Stmt
	var ops []syntax.BinCmdOperator
	for {
		stages = append(stages, cm.Y)
		ops = append(ops, cm.Op)
		inner, ok := cm.X.Cmd.(*syntax.BinaryCmd)
		if !ok || inner.Op != syntax.Pipe && inner.Op != syntax.PipeAll ||
			cm.X.Negated || cm.X.Background || cm.X.Coprocess || len(cm.X.Redirs) > 0 {
			stages = append(stages, cm.X)
			break
		}
		cm = inner
	}
	slices.Reverse(stages)
	slices.Reverse(ops)
	return stages, ops
}

// stageDebugTrap runs the DEBUG trap for a stage that is a simple command
// (or another command the trap runs before), as bash does in the shell
// that starts the stage: a compound stage's subshell has no DEBUG trap.
func (r *Runner) stageDebugTrap(ctx context.Context, st *syntax.Stmt) {
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause,
		*syntax.DeclClause, *syntax.CaseClause:
		r.debugTrap(ctx, st.Cmd.Pos().Line())
	}
}

// pipeWriter is a stage's end of a pipe; it notes a write that failed
// because the reading stage had gone.
type pipeWriter struct {
	w      io.Writer
	broken atomic.Bool
}

func (p *pipeWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe)) {
		p.broken.Store(true)
	}
	return n, err
}
