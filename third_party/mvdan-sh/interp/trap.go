// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Trap conditions are numbered as bash orders them when it prints them:
// EXIT, the signals by number, then DEBUG, ERR and RETURN.
const (
	trapExit   = 0
	trapDebug  = 65
	trapErr    = 66
	trapReturn = 67
	trapCount  = 68
)

// trapName is the name bash prints for a trap condition.
func trapName(n int) string {
	switch n {
	case trapExit:
		return "EXIT"
	case trapDebug:
		return "DEBUG"
	case trapErr:
		return "ERR"
	case trapReturn:
		return "RETURN"
	}
	return "SIG" + signalNames[n]
}

// parseTrapSpec reads a condition as bash does: DEBUG, ERR, RETURN, or a
// signal by number or name (EXIT is 0).
func parseTrapSpec(spec string) (int, bool) {
	switch strings.ToUpper(spec) {
	case "DEBUG":
		return trapDebug, true
	case "ERR":
		return trapErr, true
	case "RETURN":
		return trapReturn, true
	}
	return signalNumber(spec)
}

// bashQuote quotes s in single quotes as bash's trap -p and declare -p do.
func bashQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// trapBuiltin is bash's trap: it sets, resets, ignores, prints and lists
// the actions of trap conditions.
func (r *Runner) trapBuiltin(args []string) exitStatus {
	var exit exitStatus
	fp := flagParser{remaining: args}
	print, list := false, false
	dash := len(args) > 0 && args[0] == "-" // "trap - SPEC…" resets
	for !dash && fp.more() {
		switch flag := fp.flag(); flag {
		case "-l":
			list = true
		case "-p":
			print = true
		default:
			r.errf("bash: trap: %s: invalid option\n", flag)
			r.errf("trap: usage: trap [-lp] [[arg] signal_spec ...]\n")
			exit.code = 2
			return exit
		}
	}
	if !dash {
		args = fp.args()
	}
	if list {
		r.listSignals()
		return exit
	}
	if print || len(args) == 0 {
		traps := r.shownTraps()
		if len(args) == 0 {
			for n := range trapCount {
				if action, ok := traps[n]; ok {
					r.outf("trap -- %s %s\n", bashQuote(action), trapName(n))
				}
			}
			return exit
		}
		for _, spec := range args {
			n, ok := parseTrapSpec(spec)
			if !ok {
				r.errf("bash: trap: %s: invalid signal specification\n", spec)
				exit.code = 1
				continue
			}
			if action, ok := traps[n]; ok {
				r.outf("trap -- %s %s\n", bashQuote(action), trapName(n))
			}
		}
		return exit
	}
	action, reset := args[0], false
	specs := args[1:]
	if _, err := strconv.ParseUint(action, 10, 32); err == nil || len(args) == 1 {
		// "trap N …" and "trap SPEC" reset every condition named.
		specs, reset = args, true
	} else if action == "-" {
		reset = true
	}
	for _, spec := range specs {
		n, ok := parseTrapSpec(spec)
		if !ok {
			r.errf("bash: trap: %s: invalid signal specification\n", spec)
			exit.code = 1
			continue
		}
		if reset {
			delete(r.traps, n)
			continue
		}
		if r.traps == nil {
			r.traps = make(map[int]string)
		}
		r.traps[n] = action
	}
	r.parentTraps = nil
	return exit
}

// shownTraps are the actions trap prints: a subshell that set none prints
// its parent's, as bash does.
func (r *Runner) shownTraps() map[int]string {
	if len(r.traps) == 0 && r.parentTraps != nil {
		return r.parentTraps
	}
	return r.traps
}

// listSignals prints trap -l's table: five signals a line.
func (r *Runner) listSignals() {
	var sb strings.Builder
	col := 0
	for n, name := range signalNames {
		if n == 0 || name == "" {
			continue
		}
		if n < 10 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(n) + ") SIG" + name)
		col++
		if col%5 == 0 {
			sb.WriteByte('\n')
		} else {
			sb.WriteByte('\t')
		}
	}
	if col%5 != 0 {
		sb.WriteByte('\n')
	}
	r.outf("%s", sb.String())
}

// runTrap runs the action of trap condition n, if one is set, with $? and
// the status of the shell kept as they were; LINENO in the action is line.
// It reports whether the action exited the shell.
func (r *Runner) runTrap(ctx context.Context, n int, line uint) bool {
	action := r.traps[n]
	if action == "" || r.handlingTrap {
		return false // unset, ignored, or already running a trap
	}
	file, err := syntax.NewParser().Parse(strings.NewReader(action), "")
	if err != nil {
		r.errf("bash: %s trap: %v\n", strings.ToLower(trapName(n)), err)
		return false
	}
	r.handlingTrap = true
	oldLine := r.ecfg.LineNo
	r.ecfg.LineNo = line
	// A DEBUG trap runs before its command applies its redirections: the
	// action's own commands must leave them pending (patch 158).
	oldRedirs := r.callRedirs
	r.callRedirs = nil
	defer func() {
		r.handlingTrap = false
		r.ecfg.LineNo = oldLine
		r.callRedirs = oldRedirs
	}()
	oldExit, oldLastExit := r.exit, r.lastExit
	r.lastExit = r.exit
	r.exit = exitStatus{}
	r.stmts(ctx, file.Stmts)
	if r.exit.exiting && n != trapErr || r.exit.fatalExit {
		return true // the action's exit status is the shell's
	}
	r.exit, r.lastExit = oldExit, oldLastExit
	return false
}

// exitTrap runs the EXIT trap, if one is set, as a shell or subshell ends.
func (r *Runner) exitTrap(ctx context.Context) {
	if r.traps[trapExit] == "" {
		return
	}
	if r.runTrap(ctx, trapExit, 0) {
		r.exit.exiting = true
	}
	delete(r.traps, trapExit)
}

// RunExitTrap runs the EXIT trap, if one is set, as the shell does when
// its program ends, and unsets it. It reports whether the action ran exit
// and with which status.
func (r *Runner) RunExitTrap(ctx context.Context) (exited bool, err error) {
	if r.traps[trapExit] == "" || r.exit.exiting {
		return false, nil
	}
	r.fillExpandConfig(ctx)
	saved := r.exit
	exited = r.runTrap(ctx, trapExit, 0)
	delete(r.traps, trapExit)
	if !exited {
		r.exit = saved
		return false, nil
	}
	r.exit.exiting = false
	r.lastExit = r.exit
	if r.exit.err != nil {
		return true, r.exit.err
	}
	if r.exit.code != 0 {
		return true, ExitStatus(r.exit.code)
	}
	return true, nil
}

// errTrapApplies reports whether the failure of cm runs the ERR trap: bash
// runs it for a simple command, an arithmetic or test command, a subshell
// or a pipeline, but not again for the compound command around it, nor in
// a function unless errtrace is set.
func (r *Runner) errTrapApplies(st *syntax.Stmt) bool {
	if r.traps[trapErr] == "" || r.inPipe || r.exit.returning || (r.inFunc && !r.opts[optErrTrace]) {
		return false
	}
	if slices.Contains(r.standIn, st) {
		return false
	}
	if r.bashFreeze > 0 {
		// A host's rewrite of one command: the trap comes on it once,
		// not on the statements within (patch 157).
		return st == r.bashWhole
	}
	switch cm := st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause,
		*syntax.DeclClause, *syntax.Subshell:
		return true
	case *syntax.BinaryCmd:
		return cm.Op == syntax.Pipe || cm.Op == syntax.PipeAll
	}
	return false
}

// debugTrap runs the DEBUG trap before a command on line, as bash does
// before each simple, arithmetic, test and case command and each turn of a
// for loop; not in a function unless functrace is set. It reports whether
// the action exited the shell.
func (r *Runner) debugTrap(ctx context.Context, line uint) bool {
	if line == 0 || r.traps[trapDebug] == "" || r.handlingTrap || (r.inFunc && !r.opts[optFuncTrace]) {
		return false
	}
	if r.runTrap(ctx, trapDebug, line) {
		r.exit.exiting = true
		return true
	}
	return false
}

type standInKey struct{}

// StandIn marks ctx for an eval that a handler runs in place of the command
// it handles (a function call it frames, say): the statements of that eval
// are the command itself, so the ERR trap runs for the command only, not
// for them too.
func StandIn(ctx context.Context) context.Context {
	return context.WithValue(ctx, standInKey{}, true)
}

// standInStmts notes the statements of a stand-in eval (see StandIn) and
// returns the context its statements run with, no longer marked.
func (r *Runner) standInStmts(ctx context.Context, stmts []*syntax.Stmt) context.Context {
	if on, _ := ctx.Value(standInKey{}).(bool); !on {
		return ctx
	}
	r.standIn = stmts
	return context.WithValue(ctx, standInKey{}, false)
}

type sourcedKey struct{}

type parsedKey struct{}

type parsedFile struct {
	file   *syntax.File
	reread Reread
}

// A Reread is asked, before each statement of a text that starts one of its
// lines (past the first), whether the rest of the text must be read again,
// with the aliases defined by then: bash expands an alias where it reads a
// line, so one a function or a sourced file defined applies from the next
// line read, which a host that expanded the whole text before running it
// did not foresee (patch 155); r gives the aliases it has. It returns the
// statements to run in place of next and those after it, or false to go
// on.
type Reread func(next *syntax.Stmt, r *Runner) ([]*syntax.Stmt, bool)

// Parsed hands the eval builtin run with ctx the file its text parses to,
// as the host parsed and perhaps rewrote it: the eval runs file rather than
// parsing its arguments again, so positions (the lines errors name, LINENO)
// are those of the host's text (patch 152). Evals nested in it parse their
// own text. reread, when not nil, is asked as the file's lines start.
func Parsed(ctx context.Context, file *syntax.File, reread Reread) context.Context {
	return context.WithValue(ctx, parsedKey{}, &parsedFile{file: file, reread: reread})
}

type sourcedFile struct {
	name   string
	params []string
}

// Sourced marks ctx for an eval that a handler runs as the body of a
// sourced file (source or ., read through the handler's own files): in
// it, return ends the file rather than the function around it, params
// (when there are any) are the positional parameters while it runs, and
// the RETURN trap runs when it ends, as bash does (patch 92).
// name is the file as the source command named it, for BASH_SOURCE.
func Sourced(ctx context.Context, name string, params []string) context.Context {
	return context.WithValue(ctx, sourcedKey{}, &sourcedFile{name: name, params: params})
}

// runSourced runs the statements of a sourced file.
func (r *Runner) runSourced(ctx context.Context, stmts []*syntax.Stmt, reread Reread, name string, params []string) exitStatus {
	ctx = r.pushFrame(ctx, "source", name, 0, false)
	r.traceDepth++
	defer func() {
		r.popFrame()
		r.traceDepth--
	}()
	oldParams, oldSetParams, oldInSource := r.Params, r.sourceSetParams, r.inSource
	if len(params) > 0 {
		r.Params = params
	}
	r.sourceSetParams, r.inSource = false, true
	r.topLevel(ctx, stmts, reread) // read as lines, as bash reads a file (patch 153)
	if len(params) > 0 && !r.sourceSetParams {
		r.Params = oldParams
	}
	r.sourceSetParams, r.inSource = oldSetParams, oldInSource
	r.exit.returning = false
	r.returnTrap(ctx)
	return r.exit
}

// returnTrap runs the RETURN trap as a sourced file or (with functrace) a
// function ends; its status is not the command's.
func (r *Runner) returnTrap(ctx context.Context) {
	if r.traps[trapReturn] == "" || r.inFunc && !r.opts[optFuncTrace] {
		return
	}
	if r.runTrap(ctx, trapReturn, r.ecfg.LineNo) {
		r.exit.exiting = true
	}
}

// takeSignals takes the signals sent to $$ that the shell has not taken,
// once the command that was running when they came is done (patch 94).
func (r *Runner) takeSignals(ctx context.Context) {
	p := r.procIDs
	p.mu.Lock()
	sigs := p.signals
	p.signals = nil
	p.pending.Store(0)
	p.mu.Unlock()
	for _, sig := range sigs {
		r.takeSignal(ctx, sig, &r.exit)
	}
}

// takeSignal runs the trap for sig, ignores it, or ends the shell as the
// signal's default action would; the trap does not change the status.
func (r *Runner) takeSignal(ctx context.Context, sig int, exit *exitStatus) {
	if action, set := r.traps[sig]; set {
		if action != "" && r.runTrap(ctx, sig, r.ecfg.LineNo) {
			exit.code = r.exit.code
			exit.exiting = true
		}
		return
	}
	if signalIgnored(sig) || signalStops(sig) {
		return
	}
	exit.code = uint8(128 + sig)
	exit.exiting = true
}
