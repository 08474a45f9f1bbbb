// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"math"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/internal"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// MaxNesting bounds how many statements may run within one another, across
// function calls, eval, source, subshells, substitutions and nested runners
// started from a handler. Past it the program stops with [ErrNesting].
const MaxNesting = 10000

// ErrNesting is the fatal error of a program that ran statements nested
// deeper than [MaxNesting].
var ErrNesting = errors.New("nesting too deep")

const (
	// shellReplyPS3Var, or PS3, is a special variable in Bash used by the select command,
	// while the shell is awaiting for input. the default value is [shellDefaultPS3]
	shellReplyPS3Var = "PS3"
	// shellDefaultPS3, or #?, is PS3's default value
	shellDefaultPS3 = "#? "
	// shellReplyVar, or REPLY, is a special variable in Bash that is used to store the result of
	// the select command or of the read command, when no variable name is specified
	shellReplyVar = "REPLY"

	fifoNamePrefix = "sh-interp-"
)

func (r *Runner) fillExpandConfig(ctx context.Context) {
	r.ectx = ctx
	r.ecfg = &expand.Config{
		Env:  expandEnv{r},
		Warn: func(msg string) { r.errf("bash: %s\n", msg) },
		CmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
			// The statement being expanded, not the whole program, gives
			// the context: handlers see what their caller set in it.
			ctx := r.ectx
			if r.memHandler != nil {
				// The output is kept until the word is built.
				mw := &memWriter{r: r, ctx: ctx, w: w}
				defer mw.release()
				w = mw
			}
			switch len(cs.Stmts) {
			case 0: // nothing to do
				return nil
			case 1: // $(<file)
				word := catShortcutArg(cs.Stmts[0])
				if word == nil {
					break
				}
				path := r.literal(expand.Unescaped(word))
				f, err := r.open(ctx, path, os.O_RDONLY, 0, true)
				if err != nil {
					return err
				}
				_, err = io.Copy(w, f)
				f.Close()
				return err
			}
			r2 := r.subshell(false)
			r2.stdout = w
			if !r.opts[optInheritErrexit] && !r.hostSubst(cs) {
				// bash runs a command substitution without errexit
				// unless inherit_errexit is on (patch 159).
				r2.opts[optErrExit] = false
			}
			r2.traceDepth++ // set -x marks a substitution's commands ++ (patch 133)
			r2.stmts(ctx, cs.Stmts)
			r2.exitTrap(ctx)
			r2.releaseMem()
			r2.releaseFds()
			r2.exit.leaveSubshell() // subshells don't exit the parent shell
			r.lastExpandExit = r2.exit
			if r2.exit.fatalExit {
				// surface fatal errors immediately, reported once
				return fatalSubstError{r2.exit.err}
			}
			return nil
		},
		ProcSubst: func(ps *syntax.ProcSubst) (string, error) {
			ctx := r.ectx
			if ps.Op == syntax.CmdInTemp { // zsh's =(...)
				return "", fmt.Errorf("unsupported")
			}
			if runtime.GOOS == "windows" {
				return "", fmt.Errorf("TODO: support process substitution on Windows")
			}
			if len(ps.Stmts) == 0 { // nothing to do
				return os.DevNull, nil
			}
			if r.noHostFIFOs {
				return "", fmt.Errorf("process substitution is not supported here")
			}

			// We can't atomically create a random unused temporary FIFO.
			// Similar to [os.CreateTemp],
			// keep trying new random paths until one does not exist.
			// We use a uint64 because a uint32 easily runs into retries.
			var path string
			try := 0
			for {
				path = filepath.Join(r.tempDir, fifoNamePrefix+strconv.FormatUint(mathrand.Uint64(), 16))
				err := mkfifo(path, 0o666)
				if err == nil {
					break
				}
				if !os.IsExist(err) {
					return "", fmt.Errorf("cannot create fifo: %v", err)
				}
				if try++; try > 100 {
					return "", fmt.Errorf("giving up at creating fifo: %v", err)
				}
			}

			r2 := r.subshell(true)
			stdout := r.origStdout
			// TODO: note that `man bash` mentions that `wait` only waits for the last
			// process substitution as long as it is $!; the logic here would mean we wait for all of them.
			bg := bgProc{
				done: make(chan struct{}),
				exit: new(exitStatus),
			}
			r.bgProcs = append(r.bgProcs, bg)
			go func() {
				defer func() {
					r2.recoverGo(ctx, recover())
					r2.releaseMem()
					r2.releaseFds()
					*bg.exit = r2.exit
					close(bg.done)
				}()
				switch ps.Op {
				case syntax.CmdIn:
					f, err := os.OpenFile(path, os.O_WRONLY, 0)
					if err != nil {
						r.errf("cannot open fifo for stdout: %v\n", err)
						return
					}
					r2.stdout = f
					defer func() {
						if err := f.Close(); err != nil {
							r.errf("closing stdout fifo: %v\n", err)
						}
						os.Remove(path)
					}()
				case syntax.CmdOut:
					f, err := os.OpenFile(path, os.O_RDONLY, 0)
					if err != nil {
						r.errf("cannot open fifo for stdin: %v\n", err)
						return
					}
					r2.stdin = f
					r2.stdout = stdout

					defer func() {
						f.Close()
						os.Remove(path)
					}()
				default:
					// Should only happen if we forgot a case above.
					panic(fmt.Sprintf("unexpected process substitution operator: %q", ps.Op))
				}
				r2.stmts(ctx, ps.Stmts)
				r2.exit.leaveSubshell() // subshells don't exit the parent shell
			}()
			return path, nil
		},
	}
	r.ecfg.Stop = r.stopAsked
	if r.memHandler != nil {
		r.ecfg.Alloc = func(n int64) error {
			if err := r.probeMem(r.ectx, n); err != nil {
				return memoryError(err)
			}
			return nil
		}
	}
	r.updateExpandOpts()
}

// catShortcutArg checks if a statement is of the form "$(<file)". The redirect
// word is returned if there's a match, and nil otherwise.
func catShortcutArg(stmt *syntax.Stmt) *syntax.Word {
	if stmt.Cmd != nil || stmt.Negated || stmt.Background || stmt.Coprocess || stmt.Disown {
		return nil
	}
	if len(stmt.Redirs) != 1 {
		return nil
	}
	redir := stmt.Redirs[0]
	if redir.Op != syntax.RdrIn {
		return nil
	}
	return redir.Word
}

func (r *Runner) updateExpandOpts() {
	if r.opts[optNoGlob] {
		r.ecfg.ReadDir2 = nil
	} else {
		r.ecfg.ReadDir2 = func(s string) ([]fs.DirEntry, error) {
			return r.readDirHandler(r.handlerCtx(r.ectx, handlerKindReadDir, todoPos), s)
		}
	}
	r.ecfg.GlobStar = r.opts[optGlobStar]
	r.ecfg.DotGlob = r.opts[optDotGlob]
	r.ecfg.NoCaseGlob = r.opts[optNoCaseGlob]
	r.ecfg.NullGlob = r.opts[optNullGlob]
	r.ecfg.FailGlob = r.opts[optFailGlob]
	r.ecfg.NoUnset = r.opts[optNoUnset]
	r.ecfg.ExtGlob = r.opts[optExtGlob]
}

func (r *Runner) expandErr(err error) {
	if err == nil {
		return
	}
	if fe, ok := errors.AsType[fatalSubstError](err); ok {
		// Reported where it happened; stop here too.
		r.exit.code = fe.code()
		r.exit.fatal(fe.err)
		return
	}
	errMsg := err.Error()
	if _, ok := errors.AsType[*expand.LimitError](err); ok {
		// Past a bound of the expander the program stops, as a syntax
		// error would have stopped it. A statement that was told to stop
		// (a kill of its job, the line's end) stops without a word: the
		// refusal was the stop itself (patch 24).
		if !r.exit.fatalExit && !r.stopAsked() {
			r.errf("bash: %s\n", errMsg)
		}
		r.exit.code = 2
		r.exit.fatal(err)
		return
	}
	_, arithErr := errors.AsType[*expand.ArithmError](err)
	_, badSubst := errors.AsType[expand.BadSubstitutionError](err)
	_, badParam := errors.AsType[expand.ParamError](err)
	_, noMatch := errors.AsType[expand.NoMatchError](err)
	if arithErr || badSubst || badParam || noMatch {
		// An error in an arithmetic expansion, or a bad substitution,
		// aborts the line being run, as in bash.
		r.errf("bash: %s\n", errMsg)
		r.exit.code = 1
		r.exit.exiting = true
		// Under errexit, a glob that failed ends the shell.
		r.exit.discard = !(noMatch && r.opts[optErrExit] && !r.noErrExit)
		return
	}
	if _, ok := errors.AsType[expand.UnsetParameterError](err); ok {
		// An unset parameter under set -u, or ${x?}, ends the shell:
		// bash -c with status 127, bash FILE and a subshell with 1.
		r.errf("bash: %s\n", errMsg)
		r.exit.code = 127
		if r.inSubshell || r.script != "" {
			r.exit.code = 1
		}
		r.exit.exiting = true
		return
	}
	if errors.Is(err, errReadOnly) {
		errMsg = "bash: " + errMsg
	}
	fmt.Fprintln(r.stderr, errMsg)
	switch {
	case errMsg == "invalid indirect expansion":
		// TODO: These errors are treated as fatal by bash.
		// Make the error type reflect that.
		r.exit.code = 1
		r.exit.exiting = true
	case errors.Is(err, errReadOnly), isVarRefused(err):
		// Like in bash, assigning to a read-only variable fails
		// the command at hand without exiting the shell.
		// A write the var handler refused fails the same way.
		r.exit.code = 1
	}
}

// recoverGo handles the value recovered at the end of a goroutine the runner
// started: nil, or a panic to give to the panic handler; see
// [PanicHandlerFunc].
func (r *Runner) recoverGo(ctx context.Context, p any) {
	if p == nil {
		return
	}
	if r.panicHandler == nil {
		panic(p)
	}
	r.panicHandler(ctx, p, debug.Stack())
	r.exit.code = 1
	r.exit.fatal(&PanicError{Value: p})
}

// fatalSubstError carries the fatal error that ended a command substitution
// out of the expander, which would otherwise print it a second time.
type fatalSubstError struct{ err error }

func (e fatalSubstError) Error() string { return e.err.Error() }
func (e fatalSubstError) Unwrap() error { return e.err }

// code is the exit status the substitution's fatal error carries.
func (e fatalSubstError) code() uint8 {
	if es, ok := errors.AsType[ExitStatus](e.err); ok && es != 0 {
		return uint8(es)
	}
	if errors.Is(e.err, ErrNesting) {
		return 2
	}
	if _, ok := errors.AsType[*expand.LimitError](e.err); ok {
		return 2
	}
	return 1
}

func (r *Runner) arithm(expr syntax.ArithmExpr) int {
	n, err := expand.Arithm(r.ecfg, expr)
	r.expandErr(err)
	return n
}

// arithmCmd evaluates arithmetic for a command that reports its own
// errors, as (( )), let and for (( )) do: see [Runner.arithmCmdErr].
func (r *Runner) arithmCmd(name string, expr syntax.ArithmExpr) (int, bool) {
	n, err := expand.Arithm(r.ecfg, expr)
	if err != nil {
		return 0, r.arithmCmdErr(name, err)
	}
	return n, true
}

// arithmCmdErr reports an error of a command's arithmetic: an error in the
// expression is printed after "bash: NAME: " and fails the command with
// status 1, and the program goes on; any other error is an expansion's.
// It returns false, for the caller's convenience.
func (r *Runner) arithmCmdErr(name string, err error) bool {
	if _, ok := errors.AsType[*expand.ArithmError](err); ok {
		r.errf("bash: %s: %v\n", name, err)
		r.exit.code = 1
		return false
	}
	r.expandErr(err)
	if r.exit.ok() {
		r.exit.code = 1
	}
	return false
}

func (r *Runner) fields(words ...*syntax.Word) []string {
	strs, err := expand.Fields(r.ecfg, words...)
	r.expandErr(err)
	return strs
}

func (r *Runner) literal(word *syntax.Word) string {
	str, err := expand.Literal(r.ecfg, word)
	r.expandErr(err)
	return str
}

// assignLiteral expands the value of an assignment (see
// [expand.AssignValue]).
func (r *Runner) assignLiteral(word *syntax.Word) string {
	str, err := expand.AssignValue(r.ecfg, word)
	r.expandErr(err)
	return str
}

func (r *Runner) document(word *syntax.Word) string {
	str, err := expand.Document(r.ecfg, word)
	r.expandErr(err)
	return str
}

func (r *Runner) pattern(word *syntax.Word) string {
	str, err := expand.Pattern(r.ecfg, word)
	r.expandErr(err)
	return str
}

// expandEnviron exposes [Runner]'s variables to the expand package.
type expandEnv struct {
	r *Runner
}

var _ expand.WriteEnviron = expandEnv{}

func (e expandEnv) Get(name string) expand.Variable {
	return e.r.lookupVar(name)
}

func (e expandEnv) Set(name string, vr expand.Variable) error {
	return e.r.setVarErr(name, vr)
}

func (e expandEnv) Each(fn func(name string, vr expand.Variable) bool) {
	e.r.writeEnv.Each(fn)
}

var todoPos syntax.Pos // for handlerCtx callers where we don't yet have a position

func (r *Runner) handlerCtx(ctx context.Context, kind handlerKind, pos syntax.Pos) context.Context {
	hc := HandlerContext{
		runner:         r,
		kind:           kind,
		nesting:        r.nesting,
		Env:            &overlayEnviron{parent: r.writeEnv},
		Dir:            r.Dir,
		Pos:            pos,
		Stdout:         r.stdout,
		Stderr:         r.stderr,
		LastExitStatus: int(r.lastExit.code),
		Umask:          r.umask,
	}
	if r.stdin != nil { // do not leave hc.Stdin as a typed nil
		hc.Stdin = r.stdin
		if in, ok := r.stdinReader(); ok {
			hc.Stdin = in // a regular file, read at its offset (patch 126)
		}
	}
	return context.WithValue(ctx, handlerCtxKey{}, hc)
}

func (r *Runner) out(s string) {
	io.WriteString(r.stdout, s)
}

func (r *Runner) outf(format string, a ...any) {
	fmt.Fprintf(r.stdout, format, a...)
}

func (r *Runner) errf(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	// Also a message formatted whole ("%v\n" of a redirection's error)
	// speaks in the file's voice (patch 150).
	if rest, ok := strings.CutPrefix(msg, "bash: "); ok {
		msg = r.voice() + rest
	}
	io.WriteString(r.stderr, msg)
}

func (r *Runner) stop(ctx context.Context) bool {
	// Some traps trigger on exit, so we do want those to run.
	if !r.handlingTrap && (r.exit.returning || r.exit.exiting) {
		return true
	}
	if r.breakEnclosing > 0 || r.contnEnclosing > 0 {
		return true // the rest of the loop's body is skipped
	}
	if err := ctx.Err(); err != nil {
		r.exit.fatal(err)
		return true
	}
	if r.opts[optNoExec] {
		return true
	}
	return false
}

func (r *Runner) stmt(ctx context.Context, st *syntax.Stmt) {
	if r.stop(ctx) {
		return
	}
	// The line an error names in a file's voice (patch 132).
	oldLine := r.curLine
	r.curLine = st.Pos().Line()
	defer func() { r.curLine = oldLine }()
	// Every way a program recurses at run time (functions, eval, source,
	// subshells, substitutions, traps) runs statements within statements,
	// and an exhausted goroutine stack cannot be recovered from.
	if r.nesting >= MaxNesting {
		r.errf("bash: nesting too deep (limit %d)\n", MaxNesting)
		r.exit.code = 2
		r.exit.fatal(ErrNesting)
		return
	}
	r.nesting++
	if r.noteCommand(st) {
		r.bashFreeze++
		defer func() { r.bashFreeze-- }()
	}
	// Expansions within the statement run substitutions with its context.
	oldCtx := r.ectx
	r.ectx = ctx
	defer func() { r.nesting--; r.ectx = oldCtx }()
	r.exit = exitStatus{}
	if st.Background || st.Disown {
		r2 := r.subshell(true)
		st2 := *st
		st2.Background = false
		st2.Disown = false
		bg := bgProc{
			done:   make(chan struct{}),
			exit:   new(exitStatus),
			endSeq: new(atomic.Int64),
		}
		if r.procIDs != nil {
			bg.pid = r2.ownPID()
		}
		r2.shownJobs = nil
		var jobCtx context.Context
		bg.job, jobCtx = r.newJob(ctx, st)
		r.bgProcs = append(r.bgProcs, bg)
		go func() {
			defer func() {
				r2.recoverGo(ctx, recover())
				r2.releaseMem()
				r2.releaseFds()
				r2.exit.leaveSubshell() // subshells don't exit the parent shell
				*bg.exit = r2.exit
				if sig := bg.job.signal.Load(); sig != 0 {
					*bg.exit = exitStatus{code: uint8(128 + sig)}
				}
				bg.job.cancel()
				bg.endSeq.Store(jobsFinished.Add(1))
				close(bg.done)
			}()
			r2.Run(jobCtx, &st2)
		}()
	} else {
		r.stmtSync(ctx, st)
	}
	if r.procIDs != nil && !r.inSubshell && r.procIDs.pending.Load() > 0 && !r.handlingTrap {
		r.takeSignals(ctx)
	}
	for len(r.ownSignals) > 0 && !r.handlingTrap {
		sig := r.ownSignals[0]
		r.ownSignals = r.ownSignals[1:]
		r.takeSignal(ctx, sig, &r.exit)
	}
	r.lastExit = r.exit
}

func (r *Runner) stmtSync(ctx context.Context, st *syntax.Stmt) {
	var undo []fdUndo
	oldUndo, oldTraceErr := r.fdUndo, r.traceErr
	r.traceErr = nil
	if len(st.Redirs) > 0 {
		r.fdUndo = &undo
		if _, ok := st.Cmd.(*syntax.CallExpr); ok {
			r.traceErr = r.stderr // bash traces a command before its redirections
		}
	}
	r.fdUndo = oldUndo
	if _, ok := st.Cmd.(*syntax.CallExpr); ok && len(st.Redirs) > 0 {
		// bash expands a simple command's words before its redirections
		// (and its assignments' values before them when there is no
		// command): the call applies them (patch 71).
		r.callRedirs = &pendingRedirs{redirs: st.Redirs, undo: &undo}
	} else {
		r.applyRedirs(ctx, st.Redirs, &undo)
	}
	if r.exit.ok() && st.Cmd != nil {
		r.cmd(ctx, st.Cmd)
	}
	r.callRedirs = nil
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.Subshell, *syntax.ArithmCmd, *syntax.TestClause,
		*syntax.DeclClause, *syntax.LetClause:
		// A command that is not a pipeline is a pipeline of one; a
		// statement without a position is a caller's bookkeeping.
		if st.Position.IsValid() {
			r.pipeStatus = append(r.pipeStatus[:0], r.exit.code)
		}
	}
	// The ERR trap runs once the statement's redirections are undone,
	// as bash's does (patch 158).
	if r.keepRedirs {
		// The exec builtin made this statement's redirections apply to the
		// shell itself, so don't undo them and keep their files open.
		r.keepRedirs = false
		keepFds(undo)
	} else if len(st.Redirs) > 0 {
		r.undoFds(undo)
	}
	if st.Negated {
		if r.exit.ok() {
			r.exit.code = 1
		} else {
			r.exit.clear()
		}
	} else if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
	} else if !r.exit.ok() && !r.noErrExit {
		if r.errTrapApplies(st) && r.runTrap(ctx, trapErr, st.Pos().Line()) {
			r.exit.exiting = true
		}
		// If the "errexit" option is set and a command failed, exit the shell. Exceptions:
		//
		//   conditions (if <cond>, while <cond>, etc)
		//   part of && or || lists; excluded via "else" above
		//   preceded by !; excluded via "else" above
		if r.opts[optErrExit] {
			r.exit.exiting = true
		}
	}
	r.traceErr = oldTraceErr
}

func (r *Runner) cmd(ctx context.Context, cm syntax.Command) {
	if r.stop(ctx) {
		return
	}

	switch cm.(type) {
	case *syntax.CallExpr, *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause,
		*syntax.DeclClause, *syntax.CaseClause:
		if r.debugTrap(ctx, cm.Pos().Line()) {
			return
		}
	}

	tracingEnabled := r.opts[optXTrace]
	trace := r.tracer()

	switch cm := cm.(type) {
	case *syntax.Block:
		r.stmts(ctx, cm.Stmts)
	case *syntax.Subshell:
		r2 := r.subshell(false)
		r2.shownJobs = nil // bash's ( ) lists no jobs
		r2.stmts(ctx, cm.Stmts)
		r2.exitTrap(ctx)
		r2.releaseMem()
		r2.releaseFds()
		r2.exit.leaveSubshell() // subshells don't exit the parent shell
		r.exit = r2.exit
	case *syntax.CallExpr:
		// Aliases were expanded where the text was read (patch 130).
		args := cm.Args
		pending := r.callRedirs
		r.callRedirs = nil
		r.lastExpandExit = exitStatus{}
		fields := r.fields(args...)
		if len(fields) > 0 && !r.applyPending(ctx, pending) {
			break
		}
		if len(fields) == 0 {
			for _, as := range cm.Assigns {
				name := as.Name.Value

				prev := r.lookupVar(name)
				// Here we have a naked "foo=bar", so if we inherited a local var from a parent
				// function we want to signal that we are modifying the parent var rather than
				// creating a new local var via "local foo=bar".
				// TODO: there is likely a better way to do this.
				prev.Local = false

				if n, v := prev.Resolve(r.writeEnv); n != "" {
					name, prev = n, v
				}
				if prev.ReadOnly {
					// Assigning a read-only variable aborts the line,
					// as in bash.
					r.errf("bash: %s: readonly variable\n", name)
					r.exit.code = 1
					r.exit.exiting = true
					r.exit.discard = true
					return
				}
				refusals := r.varRefusals
				// An element write or an append changes the
				// variable's own storage when it can (patch 120).
				vr, done := r.assignInPlace(name, prev, as)
				if !done {
					vr = r.assignNew(name, prev, as)
				}
				if r.exit.exiting {
					return
				}
				if !done && r.varRefusals == refusals {
					r.setVar(name, vr)
				}
				if r.varRefusals != refusals {
					// A refused write ends the statement, as a
					// read-only one does in bash.
					r.exit.code = 1
					return
				}

				if !tracingEnabled {
					continue
				}

				// Strangely enough, it seems like Bash prints original
				// source for arrays, but the expanded value otherwise.
				// Note that, unlike bash, we print neither the subscript
				// in `x[i]=y` nor just the appended value in `x+=y`.
				if as.Array != nil {
					trace.expr(as)
				} else if as.Value != nil {
					trace.stringf("%s=%s", name, quoteBash(vr.String()))
				}
				trace.newLineFlush()
			}
			// If interpreting the last expansion like $(foo) failed,
			// and the expansion and assignments otherwise succeeded,
			// we need to surface that last exit code.
			if r.exit.ok() {
				r.exit = r.lastExpandExit
			}
			r.applyPending(ctx, pending)
			break
		}

		type restoreVar struct {
			name string
			vr   expand.Variable
		}
		var restores []restoreVar

		refusals := r.varRefusals
		for _, as := range cm.Assigns {
			name, ok := r.prefixBindable(as)
			if !ok {
				continue
			}
			prev := r.lookupVar(name)
			// Resolve any nameref so we can restore the original final value later on.
			if n, v := prev.Resolve(r.writeEnv); n != "" {
				name, prev = n, v
			}
			if prev.ReadOnly {
				// bash says so and runs the command all the same.
				r.errf("bash: %s: readonly variable\n", name)
				continue
			}

			vr := r.assignNew(name, prev, as)
			// Inline command vars are always exported.
			vr.Exported = true

			if r.varRefusals == refusals {
				r.setVar(name, vr)
			}
			if r.varRefusals != refusals {
				break
			}
			restores = append(restores, restoreVar{name, prev})
		}

		if r.varRefusals == refusals {
			if r.traceSkip {
				// A stand-in eval's call was traced as its caller wrote it.
				r.traceSkip = false
			} else {
				trace.call(fields[0], fields[1:]...)
				trace.newLineFlush()
			}

			r.call(ctx, cm.Args[0].Pos(), fields)
		} else {
			// A refused write keeps the command from running.
			r.exit.code = 1
		}
		// Restoring is bookkeeping, not a write the handler judges.
		r.varBookkeeping = true
		for _, restore := range restores {
			r.setVar(restore.name, restore.vr)
		}
		r.varBookkeeping = false
	case *syntax.BinaryCmd:
		switch cm.Op {
		case syntax.AndStmt, syntax.OrStmt:
			oldNoErrExit := r.noErrExit
			r.noErrExit = true
			r.stmt(ctx, cm.X)
			r.noErrExit = oldNoErrExit
			if r.exit.ok() == (cm.Op == syntax.AndStmt) {
				r.stmt(ctx, cm.Y)
			}
		case syntax.Pipe, syntax.PipeAll:
			r.pipeline(ctx, cm)
		}
	case *syntax.IfClause:
		oldNoErrExit := r.noErrExit
		r.noErrExit = true
		r.stmts(ctx, cm.Cond)
		r.noErrExit = oldNoErrExit

		if r.exit.ok() {
			r.stmts(ctx, cm.Then)
			break
		}
		r.exit.clear()
		if cm.Else != nil {
			r.cmd(ctx, cm.Else)
		}
	case *syntax.WhileClause:
		// The loop's status is its body's last one, 0 if it never ran.
		var bodyCode uint8
		for !r.stop(ctx) {
			oldNoErrExit, oldInLoop := r.noErrExit, r.inLoop
			r.noErrExit, r.inLoop = true, true
			r.stmts(ctx, cm.Cond)
			r.noErrExit, r.inLoop = oldNoErrExit, oldInLoop
			// break and continue work in the condition too.
			if broken, pending := r.loopControl(!oldInLoop); pending {
				if broken {
					break
				}
				continue
			}

			stop := r.exit.ok() == cm.Until
			r.exit.clear()
			if stop {
				if r.exit.code == 0 {
					r.exit.code = bodyCode
				}
				break
			}
			broken := r.loopStmtsBroken(ctx, cm.Do)
			bodyCode = r.exit.code
			if broken {
				break
			}
		}
	case *syntax.ForClause:
		switch y := cm.Loop.(type) {
		case *syntax.WordIter:
			name := y.Name.Value
			if !syntax.ValidName(name) {
				r.errf("bash: `%s': not a valid identifier\n", name)
				r.exit.code = 1
				break
			}
			items := r.Params // for i; do ...

			inToken := y.InPos.IsValid()
			if inToken {
				items = r.fields(y.Items...) // for i in ...; do ...
			}

			if cm.Select {
				ps3 := cmp.Or(r.envGet(shellReplyPS3Var), shellDefaultPS3)

				for menu := true; ; {
					if menu {
						// display menu
						for i, word := range items {
							r.errf("%d) %v\n", i+1, word)
						}
						menu = false
					}
					r.errf("%s", ps3)

					r.rawStdin()
					line, err := r.readLine(ctx, true)
					if err != nil {
						r.errf("\n")
						r.exit.code = 1
						break
					}
					if len(line) == 0 {
						menu = true // no reply; show the menu again
						continue
					}

					reply := string(line)
					refusals := r.varRefusals
					r.setVarString(shellReplyVar, reply)

					if c, _ := strconv.Atoi(reply); c > 0 && c <= len(items) {
						r.setVarString(name, items[c-1])
					} else {
						r.setVarString(name, "")
					}
					if r.varRefusals != refusals {
						r.exit.code = 1 // a refused write ends the loop
						break
					}

					// execute commands until break or return is encountered
					if r.loopStmtsBroken(ctx, cm.Do) {
						break
					}
				}
				break
			}

			for _, field := range items {
				if r.debugTrap(ctx, cm.Pos().Line()) {
					return
				}
				refusals := r.varRefusals
				r.setVarString(name, field)
				if r.varRefusals != refusals {
					r.exit.code = 1 // a refused write ends the loop
					break
				}
				trace.stringf("for %s in", y.Name.Value)
				if inToken {
					for _, item := range y.Items {
						trace.string(" ")
						trace.expr(item)
					}
				} else {
					trace.string(` "$@"`)
				}
				trace.newLineFlush()
				if r.loopStmtsBroken(ctx, cm.Do) {
					break
				}
			}
		case *syntax.CStyleLoop:
			if y.Init != nil {
				if _, ok := r.arithmCmd("((", y.Init); !ok {
					break
				}
			}
			for !r.stop(ctx) {
				if y.Cond != nil {
					n, ok := r.arithmCmd("((", y.Cond)
					if !ok || n == 0 {
						break
					}
				}
				if r.loopStmtsBroken(ctx, cm.Do) {
					break
				}
				if y.Post != nil {
					if _, ok := r.arithmCmd("((", y.Post); !ok {
						break
					}
				}
			}
		}
	case *syntax.FuncDecl:
		if cm.Name == nil { // e.g. zsh's anonymous or multi-name functions
			r.errf("unsupported\n")
			r.exit.code = 1
			break
		}
		r.setFunc(cm.Name.Value, cm.Body)
		r.noteFuncSource(cm.Name.Value)
	case *syntax.ArithmCmd:
		if n, ok := r.arithmCmd("((", cm.X); ok {
			r.exit.oneIf(n == 0)
		}
	case *syntax.LetClause:
		if tracingEnabled {
			trace.string("let")
			for _, expr := range cm.Exprs {
				trace.stringf(" %s", r.letArgString(trace.printer, expr))
			}
			trace.newLineFlush()
		}
		val, ok := 0, true
		oldWriter, refusals := r.varWriter, r.varRefusals
		r.varWriter = "let"
		if len(cm.Exprs) == 0 {
			r.errf("bash: let: expression expected\n")
			ok = false
			r.exit.code = 1
		}
	letLoop:
		for _, expr := range cm.Exprs {
			w, isWord := expr.(*syntax.Word)
			if !isWord {
				if val, ok = r.arithmCmd("let", expr); !ok {
					break
				}
				continue
			}
			// let's arguments are words, each arithmetic text.
			for _, field := range r.fields(w) {
				n, err := expand.ArithmString(r.ecfg, field)
				if err != nil {
					ok = r.arithmCmdErr("let", err)
					break letLoop
				}
				val = n
			}
		}
		r.varWriter = oldWriter
		if r.varRefusals != refusals {
			r.exit.code = 1
		} else if ok {
			r.exit.oneIf(val == 0)
		}
	case *syntax.CaseClause:
		trace.string("case ")
		trace.expr(cm.Word)
		trace.string(" in")
		trace.newLineFlush()
		str := r.literal(cm.Word)
		runNext := false // whether the previous item ended with ";&"
		for _, ci := range cm.Items {
			if !runNext && !slices.ContainsFunc(ci.Patterns, func(word *syntax.Word) bool {
				return r.match(r.pattern(word), str)
			}) {
				continue
			}
			r.stmts(ctx, ci.Stmts)
			switch ci.Op {
			case syntax.Fallthrough: // ";&" runs the next item unconditionally
				runNext = true
			case syntax.Resume, syntax.ResumeKorn: // ";;&" and ";|" resume matching
				runNext = false
			default: // ";;" or the last item stop
				return
			}
		}
	case *syntax.TestClause:
		if r.bashTest(ctx, cm.X, false) == "" && r.exit.ok() {
			// to preserve exit status code 2 for regex errors, etc
			r.exit.code = 1
		}
	case *syntax.DeclClause:
		r.exit = r.checkOutput(cm.Variant.Value, func() exitStatus {
			r.declClause(ctx, cm)
			return r.exit
		})
	case *syntax.TimeClause:
		start := time.Now()
		if cm.Stmt != nil {
			r.stmt(ctx, cm.Stmt)
		}
		format := "%s\t%s\n"
		if cm.PosixFormat {
			format = "%s %s\n"
		} else {
			r.outf("\n")
		}
		real := time.Since(start)
		r.outf(format, "real", elapsedString(real, cm.PosixFormat))
		// TODO: can we do these?
		r.outf(format, "user", elapsedString(0, cm.PosixFormat))
		r.outf(format, "sys", elapsedString(0, cm.PosixFormat))
	default:
		// Should only happen if we forgot a case above.
		r.errf("unhandled command node: %T\n", cm)
		r.exit.code = 1
	}
}

func (r *Runner) flattenAssigns(args []*syntax.Assign) iter.Seq[*syntax.Assign] {
	return func(yield func(*syntax.Assign) bool) {
		for _, as := range args {
			// Convert "declare $x" into "declare value".
			// Don't use syntax.Parser here, as we only want the basic
			// splitting by '='.
			if as.Name != nil {
				if !yield(as) {
					return
				}
				continue
			}
			for _, field := range r.fields(as.Value) {
				as := &syntax.Assign{}
				name, index, val, ok := splitAssignField(field)
				as.Name = &syntax.Lit{Value: name}
				if index != nil {
					// declare 'a[i+1]=x': the subscript is the
					// text between its brackets (patch 129).
					as.Index = &syntax.Word{Parts: []syntax.WordPart{
						&syntax.SglQuoted{Value: *index},
					}}
				}
				if len(name) > 1 && name[len(name)-1] == '+' && syntax.ValidName(name[:len(name)-1]) {
					as.Name.Value, as.Append = name[:len(name)-1], true
				}
				if !ok {
					as.Naked = true
				} else {
					// The value is expanded text already: quoted,
					// so that it is not expanded again.
					as.Value = &syntax.Word{Parts: []syntax.WordPart{
						&syntax.SglQuoted{Value: val},
					}}
				}
				if !yield(as) {
					return
				}
			}
		}
	}
}

// letArgString reproduces one expression of a let clause as bash would print it
// when tracing, that is, as the single quoted word that bash's let receives.
func (r *Runner) letArgString(printer *syntax.Printer, expr syntax.ArithmExpr) string {
	if word, ok := expr.(*syntax.Word); ok {
		return quoteBash(r.literal(word))
	}
	// The printer only prints an arithmetic expression as part of a parent node,
	// so print a let clause holding just this expression and drop the keyword.
	// The keyword borrows the expression's position to stay on the same line.
	// TODO: drop this workaround if [syntax.Printer.Print] learns to print
	// an arithmetic expression on its own.
	var sb strings.Builder
	if err := printer.Print(&sb, &syntax.LetClause{
		Let:   expr.Pos(),
		Exprs: []syntax.ArithmExpr{expr},
	}); err != nil { // should never happen
		panic(err)
	}
	return strings.TrimPrefix(sb.String(), "let ")
}

func (r *Runner) match(pat, name string) bool {
	matcher, err := internal.StoppablePatternMatcher(pat, pattern.EntireString|pattern.ExtendedOperators, r.stopAsked)
	if err != nil {
		// A malformed pattern simply does not match, like in bash.
		// Any other error, such as an unsupported extended pattern, is reported.
		if _, ok := errors.AsType[*pattern.SyntaxError](err); !ok {
			r.expandErr(err)
		}
		return false
	}
	matched, stopped := matcher(name)
	if stopped {
		r.exit.fatal(r.ectx.Err())
		return false
	}
	return matched
}

// stopAsked reports whether the running statement is being stopped: long
// work on a large value (a pattern match) then ends early, and the program
// stops instead of using its arbitrary answer.
func (r *Runner) stopAsked() bool { return r.ectx != nil && r.ectx.Err() != nil }

func elapsedString(d time.Duration, posix bool) string {
	if posix {
		return fmt.Sprintf("%.2f", d.Seconds())
	}
	mins := int(d.Minutes())
	sec := math.Mod(d.Seconds(), 60.0)
	return fmt.Sprintf("%dm%.3fs", mins, sec)
}

func (r *Runner) stmts(ctx context.Context, stmts []*syntax.Stmt) {
	for _, stmt := range stmts {
		r.stmt(ctx, stmt)
	}
}

func (r *Runner) hdocReader(rd *syntax.Redirect) (stdinFile, error) {
	pr, pw, err := newPipe()
	if err != nil {
		return nil, err
	}
	hdoc := r.hdocString(rd)
	// We write to the pipe in a new goroutine,
	// as pipe writes may block once the buffer gets full.
	// We still construct and buffer the entire heredoc first,
	// as doing it concurrently would lead to different semantics and be racy.
	go func() {
		io.WriteString(pw, hdoc)
		pw.Close()
	}()
	return pr, nil
}

// hdocQuotedDelim reports whether a here-document delimiter word is quoted,
// as in "<<'EOF'" or "<<\EOF", which makes its body literal.
func hdocQuotedDelim(word *syntax.Word) bool {
	for _, wp := range word.Parts {
		switch wp := wp.(type) {
		case *syntax.Lit:
			if strings.Contains(wp.Value, "\\") {
				return true
			}
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// hdocWord returns a here-document body, or one of its lines, as a string.
// A quoted delimiter, as in "<<'EOF'", makes the body literal,
// in which case the parser only gives us literal parts.
// Note that a partly quoted delimiter, such as "<<'A'B",
// is not spotted by the parser either, so we still expand its body.
func (r *Runner) hdocWord(word *syntax.Word, quoted bool) string {
	if quoted {
		if lit := word.Lit(); lit != "" {
			return lit
		}
	}
	return r.document(word)
}

// hdocString returns the body of a here-document as a string.
func (r *Runner) hdocString(rd *syntax.Redirect) string {
	if rd.Hdoc == nil {
		return "" // an empty here-document
	}
	quoted := hdocQuotedDelim(rd.Word)
	if rd.Op != syntax.DashHdoc {
		return r.hdocWord(rd.Hdoc, quoted)
	}
	// Strip the leading tabs from each line.
	var buf strings.Builder
	var cur []syntax.WordPart
	flushLine := func() {
		if buf.Len() > 0 {
			buf.WriteByte('\n')
		}
		buf.WriteString(r.hdocWord(&syntax.Word{Parts: cur}, quoted))
		cur = cur[:0]
	}
	for _, wp := range rd.Hdoc.Parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok {
			cur = append(cur, wp)
			continue
		}
		first := true
		for part := range strings.SplitSeq(lit.Value, "\n") {
			if !first {
				flushLine()
			}
			first = false
			part = strings.TrimLeft(part, "\t")
			cur = append(cur, &syntax.Lit{Value: part})
		}
	}
	flushLine()
	return buf.String()
}

// redir applies one redirection to the descriptor table (patch 71): the
// descriptor it names (the operator's default, a number, or a {name}
// the shell picks a free one for), and the file it opens, duplicates or
// closes there.
func (r *Runner) redir(ctx context.Context, rd *syntax.Redirect) error {
	fd := 1
	switch rd.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn,
		syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		fd = 0
	}
	varName := ""
	if rd.N != nil {
		if v := rd.N.Value; v[0] == '{' {
			varName = v[1 : len(v)-1]
		} else {
			n, err := strconv.Atoi(v)
			if err != nil || n >= maxFds {
				return fmt.Errorf("bash: %s: Bad file descriptor", v)
			}
			fd = n
		}
	}
	closing := (rd.Op == syntax.DplIn || rd.Op == syntax.DplOut) && rd.Word != nil && rd.Word.Lit() == "-"
	if varName != "" {
		if closing {
			// {name}>&- closes the descriptor the variable holds; an
			// empty or unset name is ambiguous, while a value that is no
			// descriptor closes nothing, as bash 5.2 (patch 154).
			val := r.envGet(varName)
			if val == "" {
				return fmt.Errorf("bash: %s: ambiguous redirect", varName)
			}
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n >= maxFds {
				return nil
			}
			return r.setFd(ctx, n, nil)
		}
		n, ok := r.freeFd()
		if !ok {
			return fmt.Errorf("bash: {%s}: Too many open files", varName)
		}
		fd = n
	}
	f, err := r.redirFile(ctx, rd, &fd)
	if err != nil || f == nil {
		return err
	}
	if varName != "" {
		// bash leaves a {name} descriptor open after its command: the
		// statement does not put it back.
		saved := r.fdUndo
		r.fdUndo = nil
		defer func() { r.fdUndo = saved }()
		if r.writeEnv.Get(varName).ReadOnly {
			f.acquire().release()
			r.errf("bash: %s: readonly variable\n", varName)
			return fmt.Errorf("bash: %s: cannot assign fd to variable", varName)
		}
		if err := r.setVarErr(varName, expand.Variable{Set: true, Kind: expand.String, Str: strconv.Itoa(fd)}); err != nil {
			f.acquire().release()
			return err
		}
	}
	f.acquire()
	defer f.release()
	if rd.Op == syntax.RdrAll || rd.Op == syntax.AppAll || fd < 0 {
		if err := r.setFd(ctx, 1, f); err != nil {
			return err
		}
		return r.setFd(ctx, 2, f)
	}
	return r.setFd(ctx, fd, f)
}

// redirFile is the file a redirection puts on its descriptor; nil when the
// redirection was done already (a close or a move). A >&word whose word
// is not a descriptor sends both stdout and stderr to the file: *fd
// becomes -1.
func (r *Runner) redirFile(ctx context.Context, rd *syntax.Redirect, fd *int) (*fdFile, error) {
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		// Note that Hdoc is nil for an empty here-document.
		pr, err := r.hdocReader(rd)
		if err != nil {
			return nil, err
		}
		return newFdFile(pr, nil, pr), nil
	case syntax.WordHdoc:
		arg := r.literal(expand.Unescaped(rd.Word))
		pr, pw, err := newPipe()
		if err != nil {
			return nil, err
		}
		// We write to the pipe in a new goroutine,
		// as pipe writes may block once the buffer gets full.
		go func() {
			io.WriteString(pw, arg)
			io.WriteString(pw, "\n")
			pw.Close()
		}()
		return newFdFile(pr, nil, pr), nil
	case syntax.DplIn, syntax.DplOut:
		arg, err := r.redirTarget(rd)
		if err != nil {
			return nil, err
		}
		if arg == "-" {
			return nil, r.setFd(ctx, *fd, nil)
		}
		src, move := strings.CutSuffix(arg, "-")
		n, err := strconv.Atoi(src)
		if err != nil || src == "" || src[0] < '0' || src[0] > '9' {
			if rd.Op == syntax.DplOut && (rd.N == nil || *fd == 1) {
				*fd = -1 // >&file is &>file
				return r.openRedir(ctx, arg, syntax.RdrAll)
			}
			return nil, fmt.Errorf("bash: %s: ambiguous redirect", arg)
		}
		f, ok := r.getFd(n)
		if !ok || n >= maxFds {
			return nil, fmt.Errorf("bash: %s: Bad file descriptor", src)
		}
		if move && n != *fd {
			f.acquire()
			defer f.release()
			if err := r.setFd(ctx, *fd, f); err != nil {
				return nil, err
			}
			return nil, r.setFd(ctx, n, nil)
		}
		return f, nil
	case syntax.RdrIn, syntax.RdrOut, syntax.AppOut, syntax.RdrInOut,
		syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		path, err := r.redirTarget(rd)
		if err != nil {
			return nil, err
		}
		return r.openRedir(ctx, path, rd.Op)
	}
	return nil, fmt.Errorf("unhandled redirect op: %v", rd.Op)
}

// redirTarget expands a redirection's word as an argument would (globs,
// splitting, braces); it must give one field.
func (r *Runner) redirTarget(rd *syntax.Redirect) (string, error) {
	fields, err := expand.Fields(r.ecfg, rd.Word)
	if err != nil {
		r.expandErr(err)
		return "", err
	}
	if len(fields) != 1 {
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, rd.Word)
		return "", fmt.Errorf("bash: %s: ambiguous redirect", sb.String())
	}
	return fields[0], nil
}

// openRedir opens a redirection's file through the open handler.
func (r *Runner) openRedir(ctx context.Context, path string, op syntax.RedirOperator) (*fdFile, error) {
	mode := os.O_RDONLY
	switch op {
	case syntax.AppOut, syntax.AppAll:
		mode = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrOut, syntax.RdrAll, syntax.RdrClob:
		mode = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if op != syntax.RdrClob && r.opts[optNoClobber] {
			// noclobber refuses an existing regular file only.
			if info, err := r.stat(ctx, path); err == nil && info.Mode().IsRegular() {
				return nil, fmt.Errorf("bash: %s: cannot overwrite existing file", path)
			}
		}
	case syntax.RdrInOut:
		mode = os.O_RDWR | os.O_CREATE
	}
	f, err := r.open(ctx, path, mode, 0o644, false)
	if err != nil {
		return nil, err
	}
	switch op {
	case syntax.RdrIn:
		return newFdFile(f, nil, f), nil
	case syntax.RdrInOut:
		return newFdFile(f, f, f), nil
	}
	return newFdFile(nil, f, f), nil
}

// multiCloser closes each of its closers, in order.
type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var first error
	for _, c := range m {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (r *Runner) loopStmtsBroken(ctx context.Context, stmts []*syntax.Stmt) bool {
	oldInLoop := r.inLoop
	r.inLoop = true
	defer func() { r.inLoop = oldInLoop }()
	for _, stmt := range stmts {
		r.stmt(ctx, stmt)
		if broken, pending := r.loopControl(!oldInLoop); pending {
			return broken
		}
	}
	return false
}

// loopControl takes this loop's share of a pending break or continue: it
// reports whether one was pending and whether this loop ends. The
// outermost loop takes what is left, as bash does with `break 5` in two
// loops.
func (r *Runner) loopControl(outermost bool) (broken, pending bool) {
	if r.contnEnclosing > 0 {
		r.contnEnclosing--
		if r.contnEnclosing > 0 && !outermost {
			return true, true // continue an enclosing loop
		}
		r.contnEnclosing = 0
		return false, true
	}
	if r.breakEnclosing > 0 {
		r.breakEnclosing--
		if outermost {
			r.breakEnclosing = 0
		}
		return true, true
	}
	return false, false
}

func (r *Runner) call(ctx context.Context, pos syntax.Pos, args []string) {
	if r.stop(ctx) {
		return
	}
	if r.callHandler != nil {
		var err error
		args, err = r.callHandler(r.handlerCtx(ctx, handlerKindCall, pos), args)
		if err != nil {
			// handler's custom fatal error
			r.exit.fatal(err)
			return
		}
	}
	name := args[0]
	if body := r.Funcs[name]; body != nil {
		// FUNCNAME, BASH_SOURCE and BASH_LINENO list the functions
		// running, innermost first (patches 127, 131).
		ctx = r.pushFrame(ctx, name, r.funcSource(name), pos.Line(), true)
		defer r.popFrame()
		// stack them to support nested func calls
		oldParams := r.Params
		r.Params = args[1:]
		oldInFunc, oldInLoop := r.inFunc, r.inLoop
		r.inFunc, r.inLoop = true, false // a function's break is not its caller's

		// Functions run in a nested scope.
		// Note that [Runner.exec] below does something similar.
		origEnv := r.writeEnv
		r.writeEnv = &overlayEnviron{parent: r.writeEnv, funcScope: true}

		r.stmt(ctx, body)

		if scope, ok := r.writeEnv.(*overlayEnviron); ok {
			r.releaseLocals(scope)
		}
		r.writeEnv = origEnv

		r.Params = oldParams
		r.exit.returning = false
		if r.opts[optFuncTrace] {
			r.returnTrap(ctx)
		}
		r.inFunc, r.inLoop = oldInFunc, oldInLoop
		return
	}
	if IsBuiltin(name) {
		r.exit = r.checkedBuiltin(ctx, pos, name, args[1:])
		return
	}
	r.exec(ctx, pos, args)
	r.reapJobs()
}

func (r *Runner) exec(ctx context.Context, pos syntax.Pos, args []string) {
	r.exit.fromHandlerError(r.execHandler(r.handlerCtx(ctx, handlerKindExec, pos), args))
}

func (r *Runner) open(ctx context.Context, path string, flags int, mode os.FileMode, print bool) (io.ReadWriteCloser, error) {
	// If we are opening a FIFO temporary file created by the interpreter itself,
	// don't pass this along to the open handler as it will not work at all
	// unless [os.OpenFile] is used directly with it.
	// Matching by directory and basename prefix isn't perfect, but works.
	//
	// If we want FIFOs to use a handler in the future, they probably
	// need their own separate handler API matching Unix-like semantics.
	dir, name := filepath.Split(path)
	dir = strings.TrimSuffix(dir, "/")
	if !r.noHostFIFOs && dir == r.tempDir && strings.HasPrefix(name, fifoNamePrefix) {
		return os.OpenFile(path, flags, mode)
	}

	f, err := r.openHandler(r.handlerCtx(ctx, handlerKindOpen, todoPos), path, flags, mode)
	// TODO: support wrapped PathError returned from openHandler.
	switch err.(type) {
	case nil:
		return f, nil
	case *os.PathError:
		if print {
			r.errf("%v\n", err)
		}
	default: // handler's custom fatal error
		r.exit.fatal(err)
	}
	return nil, err
}

func (r *Runner) stat(ctx context.Context, name string) (fs.FileInfo, error) {
	path := absPath(r.Dir, name)
	return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), path, true)
}

func (r *Runner) lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	path := absPath(r.Dir, name)
	return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), path, false)
}

func (r *Runner) access(ctx context.Context, name string, mode AccessMode) error {
	path := absPath(r.Dir, name)
	return r.accessHandler(r.handlerCtx(ctx, handlerKindAccess, todoPos), path, mode)
}
