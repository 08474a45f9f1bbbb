// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

// Package interp implements an interpreter to execute shell programs
// parsed by the [syntax] package as either [syntax.LangBash]
// or [syntax.LangPOSIX], behaving like Bash as a result.
//
// The interpreter currently aims to behave like a non-interactive shell,
// which is how most shells run scripts, and is more useful to machines.
// In the future, it may gain an option to behave like an interactive shell.
package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A Runner interprets shell programs. It can be reused, but it is not safe for
// concurrent use. Use [New] to build a new Runner.
//
// Note that writes to Stdout and Stderr may be concurrent if background
// commands are used. If you plan on using an [io.Writer] implementation that
// isn't safe for concurrent use, consider a workaround like hiding writes
// behind a mutex.
//
// Runner's exported fields are meant to be configured via [RunnerOption];
// once a Runner has been created, the fields should be treated as read-only.
type Runner struct {
	// Env specifies the initial environment for the interpreter, which must
	// not be nil. It can only be set via [Env].
	//
	// If it includes a TMPDIR variable describing an absolute directory,
	// it is used as the directory in which to create temporary files needed
	// for the interpreter's use, such as named pipes for process substitutions.
	// Otherwise, [os.TempDir] is used.
	Env expand.Environ

	// writeEnv overlays [Runner.Env] so that we can write environment variables
	// as an overlay.
	writeEnv expand.WriteEnviron

	// Dir specifies the working directory of the command, which must be an
	// absolute path. It can only be set via [Dir].
	Dir string

	// tempDir is either $TMPDIR from [Runner.Env], or [os.TempDir].
	tempDir string

	// Params are the current shell parameters, e.g. from running a shell
	// file or calling a function. Accessible via the $@/$* family of vars.
	// It can only be set via [Params].
	Params []string

	// Separate maps - note that bash allows a name to be both a var and a
	// func simultaneously.
	// Vars is mostly superseded by Env at this point.
	// TODO(v4): remove these

	Vars  map[string]expand.Variable
	Funcs map[string]*syntax.Stmt

	// alias maps a name to its text, expanded where the text of a line
	// is read (gatehouse patch 130).
	alias map[string]string

	// frames are the functions and sourced files running, outermost
	// first: FUNCNAME, BASH_SOURCE and BASH_LINENO list them the other
	// way round (gatehouse patches 127, 131).
	frames []callFrame
	// funcSrc is the file each function was defined in; script is the
	// file a runner runs as `bash FILE` does (the frame "main" at the
	// bottom), curSource the file whose text runs now ("" for a line or
	// a bash -c script).
	funcSrc   map[string]string
	script    string
	curSource string
	// curLine is the line of the statement running, in its own text.
	curLine uint
	// funcView gives a printed function the body its host's program
	// wrote (patch 151).
	funcView func(*syntax.Stmt) *syntax.Stmt
	// traceDepth is how many evals, sourced files and substitutions the
	// command running is in: set -x repeats its + as often again;
	// traceSkip leaves out the trace of a stand-in eval's call (patch 133).
	traceDepth int
	traceSkip  bool

	// callHandler is a function allowing to replace a simple command's
	// arguments. It may be nil.
	callHandler CallHandlerFunc

	// panicHandler is told of a panic in a goroutine the runner started.
	// It may be nil, in which case the panic is not recovered.
	panicHandler PanicHandlerFunc

	// memHandler is told how much memory the program holds; it may be
	// nil. memHeld is what this runner's variables were charged.
	memHandler MemoryHandlerFunc
	memHeld    int64

	// execHandler is responsible for executing programs. It must not be nil.
	execHandler ExecHandlerFunc

	// execMiddlewares grows with calls to [ExecHandlers],
	// and is used to construct execHandler when Reset is first called.
	// The slice is needed to preserve the relative order of middlewares.
	execMiddlewares []func(ExecHandlerFunc) ExecHandlerFunc

	// openHandler is a function responsible for opening files. It must not be nil.
	openHandler OpenHandlerFunc

	// readDirHandler is a function responsible for reading directories during
	// glob expansion. It must be non-nil.
	readDirHandler ReadDirHandlerFunc2

	// statHandler is a function responsible for getting file stat. It must be non-nil.
	statHandler StatHandlerFunc

	// accessHandler is a function responsible for checking file access. It must be non-nil.
	accessHandler AccessHandlerFunc

	// varHandler is called before each variable write. It may be nil.
	varHandler VarHandlerFunc

	// varWriter names the builtin writing variables, for [VarWrite.By];
	// varRefusals counts the writes varHandler refused, so that statements
	// can tell a refused write happened; varBookkeeping turns varHandler off
	// for the interpreter's own writes.
	varWriter      string
	varRefusals    int
	varBookkeeping bool

	stdin  stdinFile // e.g. the read end of a pipe
	stdout io.Writer
	stderr io.Writer

	// The descriptor table (patch 71): the files on descriptors 3 and up,
	// the files behind the standard streams when a redirection put them
	// there (stdSet is the stream each installed, to tell when it was
	// replaced by other means), and what the running statement's
	// redirections replaced.
	fds    map[int]*fdFile
	stdFds [3]*fdFile
	stdSet [3]any
	fdUndo *[]fdUndo
	// callRedirs are the running statement's redirections, left for its
	// simple command to apply after expanding its words.
	callRedirs *pendingRedirs
	// traceErr is where set -x traces the running simple command: standard
	// error as it was before the command's own redirections.
	traceErr io.Writer

	ecfg *expand.Config
	ectx context.Context // just so that Runner.Subshell can use it again

	// didReset remembers whether the runner has ever been reset. This is
	// used so that Reset is automatically called when running any program
	// or node for the first time on a Runner.
	didReset bool
	// discarded is what [Runner.Discarded] reports.
	discarded bool
	// testName is "test" or "[" while the classic test builtin runs.
	testName string
	// inSubshell says the runner is a subshell of another.
	inSubshell bool

	usedNew bool

	// procIDs, when set, makes $$, $PPID, $BASHPID and $! virtual; see
	// [ProcessIDs]. bashPID is this shell's own id, 0 until first needed.
	procIDs *processIDs
	bashPID int

	// noHostFIFOs refuses process substitution rather than make a FIFO
	// on the host; see [NoHostFIFOs].
	noHostFIFOs bool

	// nesting is how many statements enclose the one running, counted
	// across subshells, function calls, eval and nested runners started
	// from a handler; see [MaxNesting].
	nesting int

	filename string // only if Node was a File

	// rand is the pseudo-random number generator behind the RANDOM variable,
	// only set once RANDOM has been assigned to in order to seed it.
	rand *mathrand.Rand

	// >0 to break or continue out of N enclosing loops
	breakEnclosing, contnEnclosing int

	inLoop       bool
	inFunc       bool
	inSource     bool
	handlingTrap bool // whether we're currently in a trap callback

	// track if a sourced script set positional parameters
	sourceSetParams bool

	// noErrExit prevents failing commands from triggering [optErrExit],
	// such as the condition in a [syntax.IfClause].
	noErrExit bool

	// The current and last exit statuses. They can only be different if
	// the interpreter is in the middle of running a statement. In that
	// scenario, 'exit' is the status for the current statement being run,
	// and 'lastExit' corresponds to the previous statement that was run.
	exit     exitStatus
	lastExit exitStatus

	lastExpandExit exitStatus // used to surface exit statuses while expanding fields

	// bgProcs holds all background shells spawned by this runner.
	// Their PIDs are 1-indexed, from 1 to len(bgProcs), with a "g" prefix
	// to distinguish them from real PIDs on the host operating system.
	//
	// Note that each shell only tracks its direct children;
	// subshells do not share nor inherit the background PIDs they can wait for.
	bgProcs []bgProc

	// shownJobs are the parent's jobs, which the jobs builtin of a
	// pipeline's or command substitution's shell lists (as bash's do).
	shownJobs []bgProc

	// umask is the file mode creation mask: the umask builtin sets it,
	// handlers read it (HandlerContext.Umask), subshells inherit it.
	umask     fs.FileMode
	origUmask fs.FileMode // what Reset restores: 022, or the [Umask] option's

	// jobText names background statements; see [JobText].
	jobText func(*syntax.Stmt) string
	// bashCmd is the command $BASH_COMMAND prints; cmdView says what a
	// host's rewritten statements are to it, and bashFreeze counts the
	// statements standing whole for the ones within (patch 157).
	bashCmd    *syntax.Stmt
	cmdView    func(*syntax.Stmt) CmdView
	bashFreeze int
	bashWhole  *syntax.Stmt // the statement standing whole

	opts runnerOpts

	origDir    string
	origParams []string
	origOpts   runnerOpts
	// setOnly marks the options of setOnlyOpts set away from their
	// defaults (patch 159).
	setOnly    uint32
	origStdin  stdinFile
	origStdout io.Writer
	origStderr io.Writer

	// Most scripts don't use pushd/popd, so make space for the initial PWD
	// without requiring an extra allocation.
	dirStack     []string
	dirBootstrap [1]string

	optState getopts

	// keepRedirs is set by "exec" so that its statement's redirections
	// apply to the current shell, and not just the command.
	// It is consumed by the enclosing statement once it finishes.
	keepRedirs bool

	// traps are the actions set with trap, by condition number (see
	// trapName); an empty action ignores its condition.
	traps map[int]string
	// parentTraps are the traps of the shell a subshell came from, which
	// trap prints until the subshell sets its own.
	parentTraps map[int]string
	// inPipe is set while the commands of a pipeline run: the ERR trap runs
	// for the whole pipeline only.
	inPipe bool
	// ownSignals are signals a subshell sent to its own $BASHPID, taken
	// after the command that sent them (patch 94).
	ownSignals []int
	// pipeStatus holds the exit statuses of the stages of the pipeline run
	// last, as $PIPESTATUS shows them (patch 91).
	pipeStatus []uint8
	// standIn are the statements of an eval a handler runs in place of a
	// command (see StandIn).
	standIn []*syntax.Stmt
}

// exitStatus holds the state of the shell after running one command.
// Beyond the exit status code, it also holds whether the shell should return or exit,
// as well as any Go error values that should be given back to the user.
//
// TODO(v4): consider replacing ExitStatus with a struct like this,
// so that an [ExecHandlerFunc] can e.g. mimic `exit 0` or fatal errors
// with specific exit codes.
type exitStatus struct {
	// code is the exit status code.
	// When code is zero, err must be nil.
	code uint8

	// TODO: consider an enum, as only one of these should be set at a time
	returning bool // whether the current function `return`ed
	exiting   bool // whether the current shell is exiting
	fatalExit bool // whether the current shell is exiting due to a fatal error; err below must not be nil
	// discard says an expansion error aborted the command the shell read
	// last (a line and all it runs), with exiting set: the shell then goes
	// on with its next line, as bash does (see [Runner.Discarded]).
	discard bool

	// err holds the error information for a non-zero exit status code or fatal error.
	// Used so that running a single statement with a custom handler
	// which returns a non-fatal Go error, such as a Go error wrapping [NewExitStatus],
	// can be returned by [Runner.Run] without being lost entirely.
	err error
}

// clear sets the exit status code and error to zero, as long as the exit status
// was not set by `return`, `exit`, or a fatal error.
func (e *exitStatus) clear() {
	if e.returning || e.exiting || e.fatalExit {
		return
	}
	e.code = 0
	e.err = nil
}

func (e *exitStatus) ok() bool { return e.code == 0 }

// leaveSubshell ends a subshell's exit: its parent goes on.
func (e *exitStatus) leaveSubshell() {
	e.exiting = false
	e.discard = false
}

// oneIf sets the exit status code to 1 if b is true.
// Note that it assumes the exit status hasn't been set yet,
// meaning that [exitStatus.code] and [exitStatus.err] are zero values.
func (e *exitStatus) oneIf(b bool) {
	if b {
		e.code = 1
	}
}

func (e *exitStatus) fatal(err error) {
	if e.fatalExit || err == nil {
		return
	}
	e.exiting = true
	e.fatalExit = true
	e.err = err
	if e.code == 0 {
		e.code = 1
	}
}

func (e *exitStatus) fromHandlerError(err error) {
	if err == nil {
		return
	}
	if exit, ok := errors.AsType[errBuiltinExitStatus](err); ok {
		*e = exitStatus(exit)
	} else if es, ok := errors.AsType[ExitStatus](err); ok {
		e.err = err
		e.code = uint8(es)
	} else {
		e.fatal(err) // handler's custom fatal error
	}
}

type bgProc struct {
	// closed when the background process finishes,
	// after which point the result fields below are set.
	done chan struct{}

	// pid is the job's virtual process id, with [ProcessIDs]; else 0.
	pid int

	// job is set for a background statement, nil for a process
	// substitution (which is not a job).
	job *job

	exit *exitStatus

	// endSeq orders the jobs as they end (patch 93): set before done
	// is closed, from a counter of the whole process.
	endSeq *atomic.Int64
}

// New creates a new Runner, applying a number of options. If applying any of
// the options results in an error, it is returned.
//
// Any unset options fall back to their defaults. For example, not supplying the
// environment falls back to the process's environment, and not supplying the
// standard output writer means that the output will be discarded.
func New(opts ...RunnerOption) (*Runner, error) {
	r := &Runner{
		usedNew:        true,
		origUmask:      0o022,
		openHandler:    DefaultOpenHandler(),
		readDirHandler: DefaultReadDirHandler2(),
		statHandler:    DefaultStatHandler(),
		accessHandler:  DefaultAccessHandler(),
	}
	r.dirStack = r.dirBootstrap[:0]
	// turn "on" the default Bash options
	for i, opt := range bashOptsTable {
		r.opts[len(posixOptsTable)+i] = opt.defaultState
	}

	for _, opt := range opts {
		if err := opt(r); err != nil {
			return nil, err
		}
	}

	// Set the default fallbacks, if necessary.
	if r.Env == nil {
		Env(nil)(r)
	}
	if r.Dir == "" {
		if err := Dir("")(r); err != nil {
			return nil, err
		}
	}
	if r.stdout == nil || r.stderr == nil {
		StdIO(r.stdin, r.stdout, r.stderr)(r)
	}
	return r, nil
}

// RunnerOption can be passed to [New] to alter a [Runner]'s behaviour.
// It can also be applied directly on an existing Runner,
// such as interp.Params("-e")(runner) or interp.StdIO(nil, w, w)(runner).
//
// Note that [Env] and [Dir] only take effect the next time that the runner is
// reset, as [Runner.Reset] derives state from them, such as the variables and
// the value of PWD. Since running a node only resets a runner the first time
// around, applying either option after a run requires an explicit reset.
type RunnerOption func(*Runner) error

// TODO(v4): consider making [Env] and [Dir] fail when applied after a reset,
// rather than being silently held back until the next one.

// Env sets the interpreter's environment. If nil, a copy of the current
// process's environment is used.
func Env(env expand.Environ) RunnerOption {
	return func(r *Runner) error {
		if env == nil {
			env = expand.ListEnviron(os.Environ()...)
		}
		r.Env = env
		return nil
	}
}

// Dir sets the interpreter's working directory. If empty, the process's current
// directory is used.
func Dir(path string) RunnerOption {
	return func(r *Runner) error {
		if path == "" {
			path, err := os.Getwd()
			if err != nil {
				if runtime.GOOS == "js" {
					// js/wasm has no working directory; virtual
					// filesystems set Runner.Dir themselves
					r.Dir = "/"
					return nil
				}
				return fmt.Errorf("could not get current dir: %w", err)
			}
			r.Dir = path
			return nil
		}
		path, err := filepath.Abs(path)
		if err != nil {
			return fmt.Errorf("could not get absolute dir: %w", err)
		}
		info, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("could not stat: %w", err)
		}
		if !info.IsDir() {
			return fmt.Errorf("%s is not a directory", path)
		}
		r.Dir = path
		return nil
	}
}

// Interactive configures the interpreter to behave like an interactive shell,
// akin to Bash. Currently, this only enables the expansion of aliases,
// but later on it should also change other behavior.
func Interactive(enabled bool) RunnerOption {
	return func(r *Runner) error {
		r.opts[optExpandAliases] = enabled
		return nil
	}
}

// TODO(v4): split the "set" options into [PosixOpts], mirroring [BashOpts],
// leaving Params for the positional parameters alone. Accepting both means that
// Params with user-supplied arguments can set options by accident.

// Params populates the shell options and parameters. For example, Params("-e",
// "--", "foo") will set the "-e" option and the parameters ["foo"], and
// Params("+e") will unset the "-e" option and leave the parameters untouched.
//
// This is similar to what the interpreter's "set" builtin does.
// See [BashOpts] for the Bash options which "set" cannot change.
func Params(args ...string) RunnerOption {
	return func(r *Runner) error {
		fp := flagParser{remaining: args}
		for fp.more() {
			flag := fp.flag()
			if flag == "-" || flag == "+" {
				if flag == "-" {
					// Bash turns off the -x and -v options; note that
					// we don't support the -v option at all.
					r.opts[optXTrace] = false
				}
				if args := fp.args(); len(args) > 0 {
					r.Params = args
				}
				return nil
			}
			enable := flag[0] == '-'
			if flag[1] != 'o' {
				opt := r.posixOptByFlag(flag[1])
				if opt == nil {
					if r.acceptedSetFlag(flag[1], enable) {
						continue
					}
					return setUsageError{fmt.Sprintf("%s: invalid option", flag)}
				}
				*opt = enable
				continue
			}
			value := fp.value()
			if value == "" {
				r.listSetOpts(enable)
				continue
			}
			opt := r.posixOptByName(value)
			if opt == nil {
				if r.acceptedSetOpt(value, enable) {
					continue
				}
				return fmt.Errorf("%s: invalid option name", value)
			}
			*opt = enable
		}
		if args := fp.args(); args != nil {
			// If "--" wasn't given and there were zero arguments,
			// we don't want to override the current parameters.
			r.Params = args

			// Record whether a sourced script sets the parameters.
			if r.inSource {
				r.sourceSetParams = true
			}
		}
		return nil
	}
}

// BashOpts sets or unsets Bash shell options. For example,
// BashOpts("-s", "extglob", "globstar") sets both the "extglob" and "globstar"
// options, and BashOpts("-u", "extglob") unsets "extglob" alone.
//
// Just like the builtin, "-o" restricts the names to the POSIX options,
// which [Params] can set as well.
//
// This is similar to what the interpreter's "shopt" builtin does, except that
// no arguments is a no-op rather than printing all options.
func BashOpts(args ...string) RunnerOption {
	return func(r *Runner) error {
		mode := ""
		posixOpts := false
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-s", "-u":
				mode = flag
			case "-o":
				posixOpts = true
			default:
				return fmt.Errorf("invalid option: %q", flag)
			}
		}
		names := fp.args()
		if len(names) > 0 && mode == "" {
			return fmt.Errorf("either -s or -u must be given to set or unset options")
		}
		for _, name := range names {
			opt, supported := (*bool)(nil), true
			if posixOpts {
				opt = r.posixOptByName(name)
			} else {
				opt, supported = r.bashOptByName(name)
			}
			if opt == nil {
				return fmt.Errorf("invalid option name: %q", name)
			}
			if !supported {
				return fmt.Errorf("unsupported option: %q", name)
			}
			*opt = mode == "-s"
		}
		if r.didReset {
			// Some options affect expansion; before the first reset,
			// the reset itself takes care of this.
			r.updateExpandOpts()
		}
		return nil
	}
}

// NoHostFIFOs makes the runner refuse process substitution, which needs a
// named pipe in the host's temporary directory, and never open such a pipe
// by path. A caller that offers process substitution its own way rewrites
// programs before they run; this is what is left for text it did not see.
func NoHostFIFOs() RunnerOption {
	return func(r *Runner) error {
		r.noHostFIFOs = true
		return nil
	}
}

// ProcessIDs makes the runner report virtual process ids and never the
// host's: $$ expands to pid and $PPID to ppid in the runner and all its
// subshells; $BASHPID is pid in the runner itself and, in a subshell or
// background statement, a number taken from next; $! is the id taken for the
// last background statement, which wait accepts. next must be safe for
// concurrent use. Without this option the runner reports its own process's
// ids, as upstream, and has no $BASHPID.
func ProcessIDs(pid, ppid int, next func() int) RunnerOption {
	return func(r *Runner) error {
		r.procIDs = &processIDs{pid: pid, ppid: ppid, next: next}
		r.bashPID = pid
		return nil
	}
}

type processIDs struct {
	pid, ppid int
	next      func() int

	// signals are those sent to $$ (by its subshells, jobs, or a nested
	// shell through [Runner.Signal]) that the shell has not taken yet.
	mu      sync.Mutex
	signals []int
	pending atomic.Int32
	// parent sends a signal to $PPID, when it is a shell too.
	parent func(sig int)
}

// Signal sends sig to the shell (its $$) as another process would: the
// shell takes it after the command it is running, running its trap for
// the signal, ignoring it, or ending with 128 plus it as bash would. It
// may be called from any goroutine; without [ProcessIDs] it does nothing
// (patch 94).
func (r *Runner) Signal(sig int) {
	if r.procIDs == nil {
		return
	}
	p := r.procIDs
	p.mu.Lock()
	// Like a process's, one signal of a kind is pending at most.
	if !slices.Contains(p.signals, sig) {
		p.signals = append(p.signals, sig)
	}
	p.pending.Store(int32(len(p.signals)))
	p.mu.Unlock()
}

// SignalParent sends the signals a program gives to $PPID to fn: a nested
// shell's parent shell, say (see [Runner.Signal]) (patch 94).
func SignalParent(fn func(sig int)) RunnerOption {
	return func(r *Runner) error {
		if r.procIDs != nil {
			r.procIDs.parent = fn
		}
		return nil
	}
}

// ownPID is $BASHPID: this shell's virtual id, taken on first use.
func (r *Runner) ownPID() int {
	if r.bashPID == 0 {
		r.bashPID = r.procIDs.next()
	}
	return r.bashPID
}

// PanicHandler sets the panic handler. See [PanicHandlerFunc] for more info.
func PanicHandler(f PanicHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.panicHandler = f
		return nil
	}
}

// CallHandler sets the call handler. See [CallHandlerFunc] for more info.
func CallHandler(f CallHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.callHandler = f
		return nil
	}
}

// ExecHandler sets one command execution handler,
// which replaces [DefaultExecHandler](2 * time.Second).
//
// Deprecated: use [ExecHandlers] instead, which allows chaining handlers more easily
// like middleware functions.
func ExecHandler(f ExecHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.execHandler = f
		return nil
	}
}

// ExecHandlers appends middlewares to handle command execution.
// The middlewares are chained from first to last, and the first is called by the runner.
// Each middleware is expected to call the "next" middleware at most once.
//
// For example, a middleware may implement only some commands.
// For those commands, it can run its logic and avoid calling "next".
// For any other commands, it can call "next" with the original parameters.
//
// Another common example is a middleware which always calls "next",
// but runs custom logic either before or after that call.
// For instance, a middleware could change the arguments to the "next" call,
// or it could print log lines before or after the call to "next".
//
// The last exec handler is always [DefaultExecHandler](2 * time.Second).
func ExecHandlers(middlewares ...func(next ExecHandlerFunc) ExecHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.execMiddlewares = append(r.execMiddlewares, middlewares...)
		return nil
	}
}

// TODO: consider porting the middleware API in [ExecHandlers] to [OpenHandler],
// [ReadDirHandler2], and [StatHandler].

// TODO(v4): now that [ExecHandlers] allows calling a next handler with changed
// arguments, one of the two advantages of [CallHandler] is gone. The other is the
// ability to work with builtins; if we make [ExecHandlers] work with builtins, we
// could join both APIs.

// OpenHandler sets file open handler. See [OpenHandlerFunc] for more info.
func OpenHandler(f OpenHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.openHandler = f
		return nil
	}
}

// ReadDirHandler sets the read directory handler. See [ReadDirHandlerFunc] for more info.
//
// Deprecated: use [ReadDirHandler2].
func ReadDirHandler(f ReadDirHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.readDirHandler = func(ctx context.Context, path string) ([]fs.DirEntry, error) {
			infos, err := f(ctx, path)
			if err != nil {
				return nil, err
			}
			entries := make([]fs.DirEntry, len(infos))
			for i, info := range infos {
				entries[i] = fs.FileInfoToDirEntry(info)
			}
			return entries, nil
		}
		return nil
	}
}

// ReadDirHandler2 sets the read directory handler. See [ReadDirHandlerFunc2] for more info.
func ReadDirHandler2(f ReadDirHandlerFunc2) RunnerOption {
	return func(r *Runner) error {
		r.readDirHandler = f
		return nil
	}
}

// StatHandler sets the stat handler. See [StatHandlerFunc] for more info.
func StatHandler(f StatHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.statHandler = f
		return nil
	}
}

// AccessHandler sets the file access handler. See [AccessHandlerFunc] for more info.
func AccessHandler(f AccessHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.accessHandler = f
		return nil
	}
}

// StdIO configures an interpreter's standard input, standard output, and
// standard error. If out or err are nil, they default to a writer that discards
// the output.
//
// Note that providing a non-nil standard input other than [*os.File] will require
// an [os.Pipe] and spawning a goroutine to copy into it,
// as an [os.File] is the only way to share a reader with subprocesses.
// This may cause the interpreter to consume the entire reader.
// See [os/exec.Cmd.Stdin].
//
// When providing an [*os.File] as standard input, consider using an [os.Pipe]
// as it has the best chance to support cancellable reads via [os.File.SetReadDeadline],
// so that cancelling the runner's context can stop a blocked standard input read.
//
// On js/wasm, where there are no subprocesses nor OS pipes, any reader is used
// directly, and read deadlines are not supported: cancelling the runner's
// context cannot stop a blocked standard input read.
func StdIO(in io.Reader, out, err io.Writer) RunnerOption {
	return func(r *Runner) error {
		stdin, _err := newStdinFile(in)
		if _err != nil {
			return _err
		}
		r.releaseFds()
		r.stdin = stdin
		if out == nil {
			out = io.Discard
		}
		r.stdout = out
		if err == nil {
			err = io.Discard
		}
		r.stderr = err
		return nil
	}
}

func (r *Runner) posixOptByName(name string) *bool {
	for i, opt := range &posixOptsTable {
		if opt.name == name {
			return &r.opts[i]
		}
	}
	return nil
}

// posixOptFlags returns the one-character flags of the enabled POSIX options,
// as held by the "$-" special parameter.
func (r *Runner) posixOptFlags() string {
	// $- lists the flags in bash's order, those of setOnlyOpts among them,
	// and c for a shell running a -c string (patch 159).
	flags := make([]byte, 0, 12)
	for _, f := range []byte("abefhkmnptuvxBCEHPT") {
		if opt := r.posixOptByFlag(f); opt != nil && *opt || r.setOnlyFlag(f) {
			flags = append(flags, f)
		}
	}
	if r.script == "" {
		flags = append(flags, 'c')
	}
	return string(flags)
}

func (r *Runner) posixOptByFlag(flag byte) *bool {
	for i, opt := range &posixOptsTable {
		if opt.flag == flag {
			return &r.opts[i]
		}
	}
	return nil
}

func (r *Runner) bashOptByName(name string) (status *bool, supported bool) {
	for i, opt := range bashOptsTable {
		if opt.name == name {
			index := len(posixOptsTable) + i
			return &r.opts[index], opt.supported
		}
	}
	return nil, false
}

// runnerOpts contains all POSIX Shell and Bash options as one contiguous table.
type runnerOpts [len(posixOptsTable) + len(bashOptsTable)]bool

type posixOpt struct {
	flag byte   // one-character flag form for this option; a space if none exists
	name string // full name of the option
}

type bashOpt struct {
	name         string
	defaultState bool // Bash's default value for this option
	supported    bool // whether we support the option's non-default state
}

var posixOptsTable = [...]posixOpt{
	// sorted alphabetically by name
	{'a', "allexport"},
	{'e', "errexit"},
	{'n', "noexec"},
	{'f', "noglob"},
	{'u', "nounset"},
	{'x', "xtrace"},
	{' ', "pipefail"},
	{'E', "errtrace"},
	{'T', "functrace"},
	{'C', "noclobber"},
}

var bashOptsTable = [...]bashOpt{
	// supported options, sorted alphabetically by name
	{
		name:         "dotglob",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "expand_aliases",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "extglob",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "failglob",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "globstar",
		defaultState: false,
		supported:    true,
	},
	{
		name:      "inherit_errexit",
		supported: true,
	},
	{
		name:         "lastpipe",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "nocaseglob",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "nullglob",
		defaultState: false,
		supported:    true,
	},
	// unsupported options, sorted alphabetically by name
	{name: "assoc_expand_once"},
	{name: "autocd"},
	{name: "cdable_vars"},
	{name: "cdspell"},
	{name: "checkhash"},
	{name: "checkjobs"},
	{
		name:         "checkwinsize",
		defaultState: true,
	},
	{
		name:         "cmdhist",
		defaultState: true,
	},
	{name: "compat31"},
	{name: "compat32"},
	{name: "compat40"},
	{name: "compat41"},
	{name: "compat42"},
	{name: "compat43"},
	{name: "compat44"},
	{
		name:         "complete_fullquote",
		defaultState: true,
	},
	{name: "direxpand"},
	{name: "dirspell"},
	{name: "execfail"},
	{name: "extdebug"},
	{
		name:         "extquote",
		defaultState: true,
	},
	{
		name:         "force_fignore",
		defaultState: true,
	},
	{
		name:         "globasciiranges",
		defaultState: true,
	},
	{name: "gnu_errfmt"},
	{name: "histappend"},
	{name: "histreedit"},
	{name: "histverify"},
	{
		name:         "hostcomplete",
		defaultState: true,
	},
	{name: "huponexit"},
	{
		name:         "interactive_comments",
		defaultState: true,
	},
	{name: "lithist"},
	{name: "localvar_inherit"},
	{name: "localvar_unset"},
	{name: "login_shell"},
	{name: "mailwarn"},
	{name: "no_empty_cmd_completion"},
	{name: "nocasematch"},
	{
		name:         "progcomp",
		defaultState: true,
	},
	{name: "progcomp_alias"},
	{
		name:         "promptvars",
		defaultState: true,
	},
	{name: "restricted_shell"},
	{name: "shift_verbose"},
	{
		name:         "sourcepath",
		defaultState: true,
	},
	{name: "xpg_echo"},
	// bash 5.2's, also unsupported (patch 159)
	{
		name:         "globskipdots",
		defaultState: true,
	},
	{name: "noexpand_translation"},
	{
		name:         "patsub_replacement",
		defaultState: true,
	},
	{name: "varredir_close"},
}

// To access the shell options arrays without a linear search when we
// know which option we're after at compile time. First come the shell options,
// then the bash options.
const (
	// These correspond to indexes in [shellOptsTable]
	optAllExport = iota
	optErrExit
	optNoExec
	optNoGlob
	optNoUnset
	optXTrace
	optPipeFail
	optErrTrace
	optFuncTrace
	optNoClobber

	// These correspond to indexes (offset by the above seven items) of
	// supported options in [bashOptsTable]
	optDotGlob
	optExpandAliases
	optExtGlob
	optFailGlob
	optGlobStar
	optInheritErrexit
	optLastPipe
	optNoCaseGlob
	optNullGlob
)

// ClearPipeStatus empties $PIPESTATUS, as it is when a shell starts: a
// caller that ran setup statements of its own calls it before the first
// statement it runs for a user (patch 91).
func (r *Runner) ClearPipeStatus() { r.pipeStatus = nil }

// Reset returns a runner to its initial state, right before the first call to
// Run or Reset.
//
// Typically, this function only needs to be called if a runner is reused to run
// multiple programs non-incrementally. Not calling Reset between each run will
// mean that the shell state will be kept, including variables, options, and the
// current directory.
func (r *Runner) Reset() {
	if !r.usedNew {
		panic("use interp.New to construct a Runner")
	}
	if !r.didReset {
		r.origDir = r.Dir
		r.origParams = r.Params
		r.origOpts = r.opts
		r.origStdin = r.stdin
		r.origStdout = r.stdout
		r.origStderr = r.stderr

		if r.execHandler != nil && len(r.execMiddlewares) > 0 {
			panic("interp.ExecHandler should be replaced with interp.ExecHandlers, not mixed")
		}
		if r.execHandler == nil {
			r.execHandler = DefaultExecHandler(2 * time.Second)
		}
		// Middlewares are chained from first to last, and each can call the
		// next in the chain, so we need to construct the chain backwards.
		for _, mw := range slices.Backward(r.execMiddlewares) {
			r.execHandler = mw(r.execHandler)
		}
		// Fill tempDir; only need to do this once given that Env will not change.
		if dir := r.Env.Get("TMPDIR").String(); filepath.IsAbs(dir) {
			r.tempDir = dir
		} else {
			r.tempDir = os.TempDir()
		}
		// Clean it as we will later do a string prefix match.
		r.tempDir = filepath.Clean(r.tempDir)
	}
	// reset the internal state
	*r = Runner{
		Env:            r.Env,
		tempDir:        r.tempDir,
		callHandler:    r.callHandler,
		funcView:       r.funcView,
		panicHandler:   r.panicHandler,
		memHandler:     r.memHandler,
		procIDs:        r.procIDs,
		noHostFIFOs:    r.noHostFIFOs,
		bashPID:        r.bashPID,
		umask:          r.origUmask,
		origUmask:      r.origUmask,
		jobText:        r.jobText,
		cmdView:        r.cmdView,
		execHandler:    r.execHandler,
		openHandler:    r.openHandler,
		readDirHandler: r.readDirHandler,
		statHandler:    r.statHandler,
		accessHandler:  r.accessHandler,
		varHandler:     r.varHandler,

		// These can be set by functions like [Dir] or [Params], but
		// builtins can overwrite them; reset the fields to whatever the
		// constructor set up.
		Dir:    r.origDir,
		Params: r.origParams,
		opts:   r.origOpts,
		stdin:  r.origStdin,
		stdout: r.origStdout,
		stderr: r.origStderr,

		origDir:    r.origDir,
		origParams: r.origParams,
		origOpts:   r.origOpts,
		origStdin:  r.origStdin,
		origStdout: r.origStdout,
		origStderr: r.origStderr,

		// emptied below, to reuse the space
		Vars: r.Vars,

		dirStack: r.dirStack[:0],
		usedNew:  r.usedNew,
	}
	// Ensure we stop referencing any pointers before we reuse bgProcs.
	clear(r.bgProcs)
	r.bgProcs = r.bgProcs[:0]

	if r.Vars == nil {
		r.Vars = make(map[string]expand.Variable)
	} else {
		clear(r.Vars)
	}
	// TODO(v4): Use the supplied Env directly if it implements enough methods.
	r.writeEnv = &overlayEnviron{parent: r.Env}
	r.varBookkeeping = true
	if !r.writeEnv.Get("HOME").IsSet() {
		home, _ := os.UserHomeDir()
		r.setVarString("HOME", home)
	}
	if !r.writeEnv.Get("UID").IsSet() {
		r.setVar("UID", expand.Variable{
			Set:      true,
			Kind:     expand.String,
			ReadOnly: true,
			Str:      strconv.Itoa(os.Getuid()),
		})
	}
	if !r.writeEnv.Get("EUID").IsSet() {
		r.setVar("EUID", expand.Variable{
			Set:      true,
			Kind:     expand.String,
			ReadOnly: true,
			Str:      strconv.Itoa(os.Geteuid()),
		})
	}
	if !r.writeEnv.Get("GID").IsSet() {
		r.setVar("GID", expand.Variable{
			Set:      true,
			Kind:     expand.String,
			ReadOnly: true,
			Str:      strconv.Itoa(os.Getgid()),
		})
	}
	r.setVarString("PWD", r.Dir)
	r.setVarString("IFS", " \t\n")
	r.setVarString("OPTIND", "1")
	r.varBookkeeping = false

	r.dirStack = append(r.dirStack, r.Dir)

	r.didReset = true
}

// ExitStatus is a non-zero status code resulting from running a shell node.
type ExitStatus uint8

func (s ExitStatus) Error() string { return fmt.Sprintf("exit status %d", s) }

// NewExitStatus creates an error which contains the specified exit status code.
//
// Deprecated: use [ExitStatus] directly.
//
//go:fix inline
func NewExitStatus(status uint8) error {
	return ExitStatus(status)
}

// IsExitStatus checks whether error contains an exit status and returns it.
//
// Deprecated: use [errors.As] with [ExitStatus] directly.
//
//go:fix inline
func IsExitStatus(err error) (status uint8, ok bool) {
	if es, ok := errors.AsType[ExitStatus](err); ok {
		return uint8(es), true
	}
	return 0, false
}

// Run interprets a node, which can be a [*File], [*Stmt], or [Command]. If a non-nil
// error is returned, it will typically contain a command's exit status, which
// can be retrieved with [IsExitStatus].
//
// Run can be called multiple times synchronously to interpret programs
// incrementally. To reuse a [Runner] without keeping the internal shell state,
// call Reset.
//
// Calling Run on an entire [*File] implies an exit, meaning that an exit trap may
// run.
func (r *Runner) Run(ctx context.Context, node syntax.Node) error {
	if !r.didReset {
		r.Reset()
	}
	r.fillExpandConfig(ctx)
	r.exit = exitStatus{}
	r.filename = ""
	// A runner started by a handler (a nested shell) nests in the
	// statement that called the handler.
	r.nesting = 0
	if hc, ok := ctx.Value(handlerCtxKey{}).(HandlerContext); ok {
		r.nesting = hc.nesting
	}
	r.discarded = false
	if len(r.frames) == 0 {
		r.curSource = r.script
	}
	switch node := node.(type) {
	case *syntax.File:
		r.filename = node.Name
		r.topLevel(ctx, node.Stmts, nil)
	case *syntax.Stmt:
		r.stmt(ctx, node)
	case syntax.Command:
		r.cmd(ctx, node)
	default:
		return fmt.Errorf("node can only be File, Stmt, or Command: %T", node)
	}
	if r.exit.discard {
		r.exit.exiting, r.exit.discard = false, false
		r.discarded = true
	}
	// A bare Command bypasses stmt, which normally updates lastExit.
	r.lastExit = r.exit
	// Running an entire file implies an exit; a statement or command
	// only exits the shell via the exit builtin, errexit, and so on.
	if _, ok := node.(*syntax.File); ok || r.exit.exiting {
		r.exitTrap(ctx)
	}
	maps.Insert(r.Vars, r.writeEnv.Each)
	// Return the first of: a fatal error, a non-fatal handler error, or the exit code.
	if err := r.exit.err; err != nil {
		if r.exit.code == 0 {
			// This should never happen; too much code relies on checking [exitStatus.code]
			// to see if the last command succeeded or failed. [exitStatus.err] should only be
			// additional information, so fail loudly if the invariant is broken.
			panic("ended up with a non-nil exitStatus.err but a zero exitStatus.code")
		}
		return err
	}
	if code := r.exit.code; code != 0 {
		return ExitStatus(code)
	}
	return nil
}

// topLevel runs a program's statements as bash runs the lines it reads: an
// expansion error that aborts a line skips the rest of that line's
// statements, and the program goes on with the next line.
func (r *Runner) topLevel(ctx context.Context, stmts []*syntax.Stmt, reread Reread) {
	skipLine := uint(0)
	for i := 0; i < len(stmts); i++ {
		if reread != nil && i > 0 {
			if rest, ok := reread(stmts[i], r); ok {
				if stmts, i = rest, 0; len(stmts) == 0 {
					break
				}
			}
		}
		st := stmts[i]
		if skipLine != 0 && st.Pos().Line() == skipLine {
			continue
		}
		skipLine = 0
		r.stmt(ctx, st)
		if r.exit.discard && !r.exit.fatalExit {
			r.exit.exiting, r.exit.discard = false, false
			skipLine = st.End().Line()
		}
	}
}

// Discarded reports whether an expansion error aborted the last Run call's
// line (an error in arithmetic, for example): bash then skips the rest of
// the line it was running and goes on with the next one, with status 1.
func (r *Runner) Discarded() bool {
	return r.discarded
}

// Exited reports whether the last Run call should exit an entire shell. This
// can be triggered by the "exit" built-in command, for example.
//
// Note that this state is overwritten at every Run call, so it should be
// checked immediately after each Run call.
func (r *Runner) Exited() bool {
	return r.exit.exiting
}

// Subshell makes a copy of the given [Runner], suitable for use concurrently
// with the original. The copy will have the same environment, including
// variables and functions, but they can all be modified without affecting the
// original.
//
// Subshell is not safe to use concurrently with [Run]. Orchestrating this is
// left up to the caller; no locking is performed.
//
// To replace e.g. stdin/out/err, do [StdIO](r.stdin, r.stdout, r.stderr)(r) on
// the copy.
func (r *Runner) Subshell() *Runner {
	return r.subshell(true)
}

// subshell is like [Runner.subshell], but allows skipping some allocations and copies
// when creating subshells which will not be used concurrently with the parent shell.
// TODO(v4): we should expose this, e.g. SubshellForeground and SubshellBackground.
func (r *Runner) subshell(background bool) *Runner {
	if !r.didReset {
		r.Reset()
	}
	// Keep in sync with the Runner type. Manually copy fields, to not copy
	// sensitive ones like [errgroup.Group], and to do deep copies of slices.
	r2 := &Runner{
		Dir:            r.Dir,
		tempDir:        r.tempDir,
		Params:         r.Params,
		callHandler:    r.callHandler,
		panicHandler:   r.panicHandler,
		memHandler:     r.memHandler,
		execHandler:    r.execHandler,
		openHandler:    r.openHandler,
		readDirHandler: r.readDirHandler,
		statHandler:    r.statHandler,
		accessHandler:  r.accessHandler,
		varHandler:     r.varHandler,
		stdin:          r.stdin,
		stdout:         r.stdout,
		stderr:         r.stderr,
		filename:       r.filename,
		opts:           r.opts,
		setOnly:        r.setOnly,
		usedNew:        r.usedNew,
		exit:           r.exit,
		lastExit:       r.lastExit,
		nesting:        r.nesting,
		procIDs:        r.procIDs,
		noHostFIFOs:    r.noHostFIFOs,
		umask:          r.umask,
		jobText:        r.jobText,
		cmdView:        r.cmdView,
		shownJobs:      r.liveJobs(),

		origStdout: r.origStdout, // used for process substitutions
	}
	r2.inheritFds(r)
	r2.inSubshell = true
	// return in a subshell of a function ends the subshell.
	r2.inFunc, r2.inSource = r.inFunc, r.inSource
	r2.pipeStatus = slices.Clone(r.pipeStatus)
	r2.parentTraps = r.shownTraps()
	if action, ok := r.traps[trapErr]; ok && r.opts[optErrTrace] {
		r2.traps = map[int]string{trapErr: action}
	}
	r2.writeEnv = newOverlayEnviron(r.writeEnv, background)
	// Funcs are copied, since they might be modified.
	r2.Funcs = maps.Clone(r.Funcs)
	r2.Vars = make(map[string]expand.Variable)
	r2.alias = maps.Clone(r.alias)
	r2.frames = slices.Clone(r.frames)
	r2.funcSrc = maps.Clone(r.funcSrc)
	r2.script, r2.curSource, r2.curLine = r.script, r.curSource, r.curLine
	r2.bashCmd = r.bashCmd
	r2.traceDepth = r.traceDepth

	r2.dirStack = append(r2.dirBootstrap[:0], r.dirStack...)
	r2.fillExpandConfig(r.ectx)
	r2.didReset = true
	return r2
}

// Aliases is a copy of the aliases a line started now would expand, and
// whether they are expanded (shopt expand_aliases). bash expands an alias
// as it reads a line, so the interpreter never expands one: whoever reads
// the text of a line, a sourced file or an eval string expands them first
// (gatehouse patches 128, 130).
type Aliases struct {
	m  map[string]string
	on bool
}

// Aliases copies the aliases defined so far. Call it between lines, not
// while one runs.
func (r *Runner) Aliases() Aliases {
	return Aliases{m: maps.Clone(r.alias), on: r.opts[optExpandAliases]}
}

// Len is how many aliases a holds.
func (a Aliases) Len() int { return len(a.m) }

// Expanded reports whether aliases are expanded (shopt expand_aliases).
func (a Aliases) Expanded() bool { return a.on }

// Table returns a copy of the aliases, name to text.
func (a Aliases) Table() map[string]string { return maps.Clone(a.m) }
