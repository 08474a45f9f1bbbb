// Package utils holds gatehouse's utilities: GNU-compatible commands written
// in Go over the VFS (G-12.2). Each utility reads and writes only through the
// vfs.FS it is given, whose op door judges every operation, and never touches
// the host.
//
// A utility declares its path operands (G-4.9) so the gate can judge them
// before it runs, its operand exit code (G-7.3), and its GNU voice for an
// operand that fails, so a refusal the gate predicts (explain) reads exactly
// like the one the run prints.
//
// A utility is added as a function that makes it (cutUtility) and a row of
// the builtins table, which is sorted by name; nothing is registered from
// init, because every start of the program would pay for every utility.
// Another package adds one with Provide and a package-level Provider.
package utils

import (
	"context"
	"io"
	"io/fs"
	"runtime/debug"
	"sort"
	"sync/atomic"

	"gatehouse/core/vfs"
	"gatehouse/internal/lazy"
)

// Env is everything a utility may use. It never holds a host handle.
type Env struct {
	Ctx  context.Context
	Args []string // argv; Args[0] is the name the utility was called by
	// Builtin says the shell's builtin of this name runs, not the program:
	// bash's printf rather than coreutils' (the line's own printf; xargs
	// and find -exec run the program).
	Builtin bool
	Stdin   io.Reader
	// NoStdin says Stdin is the empty stream a command gets when nothing
	// feeds it (no pipe, no redirection): rg then searches the cwd rather
	// than its input, as ripgrep does at a terminal.
	NoStdin bool
	Stdout  io.Writer
	Stderr  io.Writer
	Dir     string // the shell's cwd, absolute
	FS      vfs.FS // door-checked; take every path through Abs first
	// Environ is the exported environment as NAME=VALUE, hidden vars absent.
	Environ []string
	// Exec runs argv as a command of the same line, through the gate
	// (wrappers like xargs, find -exec, env, timeout, nice, nohup). It returns
	// the exit status; a non-nil error means the line must stop (an ask at
	// the execution gate, a cancelled context): return it from Run.
	Exec func(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error)
	// ExecEnv is Exec with environ (NAME=VALUE) as the command's complete
	// exported environment instead of the session's: `env -i`, `env -u X`,
	// `env X=1 cmd`. nil means the shell offers no such run; env then refuses
	// to run a command under a changed environment (exit 125).
	ExecEnv func(ctx context.Context, argv []string, environ []string, stdin io.Reader, stdout, stderr io.Writer) (int, error)
	// LookPath reports whether a command name is installed for the session
	// (which, type, command -v, xargs/find -exec existence checks).
	LookPath func(name string) bool
	// OnPanic is told of a panic recovered on a goroutine the utility
	// started with Go: it logs it and stops the line. nil means the panic
	// is not recovered.
	OnPanic func(value any, stack []byte)
	// Memory takes n bytes from the line's memory budget (n < 0 gives them
	// back); see Grow. nil means no budget.
	Memory func(n int64) error
	// Watch is, for an opaque utility, the heap watchdog's handle on this
	// run (G-12.3): one that can say what it holds answers it (jq, as a
	// gojq.Measurer), so growth of the shared heap is charged to the run
	// that made it. nil when nothing watches.
	Watch any
	// Procs lists the session's own processes (its shell, the line's
	// background jobs, the calling command) for ps, with virtual process
	// ids; nil means only the caller is known. Never the host's (G-12.1).
	Procs func() []Proc
	// Umask is the shell's file mode creation mask (the umask builtin's),
	// which symbolic modes without a "who" honour (chmod +x, mkdir -m);
	// nil means 022. The VFS view already takes it from what is created.
	Umask func() fs.FileMode
}

// umask is the caller's file mode creation mask as mode bits.
func (e *Env) umask() uint32 {
	if e.Umask == nil {
		return 0o022
	}
	return uint32(e.Umask().Perm())
}

// Proc is one of the session's processes as ps shows it.
type Proc struct {
	PID, PPID int
	Comm      string // the command name (ps -o comm)
	Args      string // the command line (ps -o args)
}

// Grow tells the line's memory budget (G-12.3) that the utility is about
// to hold n more bytes it builds itself — a table, a padded field, values
// it computes — beyond what its input readers already charge (see Keeps);
// n < 0 gives bytes back. An error means the budget is spent: the line is
// ending, and the utility should stop and return. What a utility still
// holds when it returns is given back for it.
func (e *Env) Grow(n int64) error {
	if e.Memory == nil {
		return nil
	}
	return e.Memory(n)
}

// Keeps says what a utility holds of its input at once, so that reading it
// is charged to the line's memory budget (G-12.3): the shell wraps the
// utility's stdin and the files it opens for reading accordingly.
type Keeps int

const (
	// KeepsLine, the default, is a utility that holds one line at a time
	// (grep, cut, uniq): the longest line being read is charged.
	KeepsLine Keeps = iota
	// KeepsAll is a utility that holds its whole input and splits it into
	// lines (jq, sed): every byte read is charged, with a line's
	// bookkeeping each. (Input read whole with readAllCtx is charged there
	// already: sort, tac, tail, diff.)
	KeepsAll
	// KeepsNothing is a utility that streams (cat, wc, tr, checksums):
	// nothing read is charged.
	KeepsNothing
	// KeepsLines is a utility that holds a line of each of several inputs
	// at once (paste, comm, join): each input's line being read is
	// charged, a memory mount's file too (its size bounds one file, not
	// how many a line opens: paste named one 5 MB line 40 times held
	// 470 MB under a 64 MiB budget).
	KeepsLines
)

// Go runs fn on a new goroutine with the line's recover boundary: a panic
// there ends the line (exit 125), never the process (G-12.3). Utilities
// start every goroutine of their own through it.
func (e *Env) Go(fn func()) {
	go func() {
		defer func() {
			if p := recover(); p != nil {
				if e.OnPanic == nil {
					panic(p)
				}
				e.OnPanic(p, debug.Stack())
			}
		}()
		fn()
	}()
}

// Abs joins a possibly relative path to the cwd and cleans it.
func (e *Env) Abs(p string) string { return Join(e.Dir, p) }

// Getenv returns an exported variable's value.
func (e *Env) Getenv(key string) string {
	for i := len(e.Environ) - 1; i >= 0; i-- {
		kv := e.Environ[i]
		if len(kv) > len(key) && kv[len(key)] == '=' && kv[:len(key)] == key {
			return kv[len(key)+1:]
		}
	}
	return ""
}

// OperandKind says how a utility uses a path argument.
type OperandKind int

const (
	Read   OperandKind = iota // read, listed, stat'ed or searched
	Write                     // created, written, removed or renamed
	Target                    // cp/mv/ln destination: written, may be a directory
)

// OperandRef is one argv index that names a path.
type OperandRef struct {
	Index int
	Kind  OperandKind
	// Path, when non-empty, is the operand itself because it shares
	// argv[Index] with its option (`grep -fFILE`, `sort --output=FILE`,
	// `cp -tDIR`); when empty the operand is argv[Index].
	Path string
}

// Operand returns the path text of ref within argv.
func (ref OperandRef) Operand(argv []string) string {
	if ref.Path != "" {
		return ref.Path
	}
	if ref.Index < 0 || ref.Index >= len(argv) {
		return ""
	}
	return argv[ref.Index]
}

// Utility is one command of the shell.
type Utility struct {
	Name string
	// Run executes the utility and returns its exit status. It returns a
	// non-nil error only to stop the whole line (from Env.Exec).
	Run func(env *Env) (int, error)
	// Operands lists which arguments of argv are path operands (G-4.9),
	// parsing options as the utility does. nil means none.
	Operands func(argv []string) []OperandRef
	// OperandExit is the exit status when an operand fails (G-7.3).
	OperandExit int
	// Keeps says what the utility holds of its input (memory budget).
	Keeps Keeps
	// Opaque marks a utility that runs a language (jq) whose values
	// the shell cannot count: while it runs, a watchdog ends the line
	// when the process's heap grows past the line's budget beyond what
	// the lines' accounts explain.
	Opaque bool
	// Voice renders the stderr line (with "\n") the utility prints when the
	// operand arg fails with msg (a strerror text or a refusal reason).
	// nil means "NAME: ARG: MSG\n".
	Voice func(arg, msg string) string
	// WriteVoice, when set, is the voice for a Write or Target operand of a
	// utility whose read and write failures read differently (cp, mv:
	// "cannot create regular file" against "cannot stat"). nil means Voice.
	WriteVoice func(arg, msg string) string
	// Help is the --help text.
	Help string
}

// A Provider names a utility and makes it the first time it is looked up,
// so that starting the program builds no utility it does not run. Make is
// given the name, so that one maker serves several names (grep, egrep,
// fgrep). A Provider is static data: the package's own are the builtins
// table, another package declares one as a variable and passes it to
// Provide from its init, which allocates nothing.
type Provider struct {
	Name string
	Make func(name string) *Utility
	made atomic.Pointer[Utility]
	next *Provider // the list of provided utilities (Provide)
}

// utility returns p's utility, making it on first use. Two lookups racing
// may both make it; one is kept and both return the kept one.
func (p *Provider) utility() *Utility {
	if u := p.made.Load(); u != nil {
		return u
	}
	u := p.Make(p.Name)
	if !p.made.CompareAndSwap(nil, u) {
		u = p.made.Load()
	}
	return u
}

// provided lists the utilities other packages (and tests) add, newest
// first; it is short (awk, gawk, git), so a walk finds a name.
var provided atomic.Pointer[Provider]

// Provide adds a utility that another package makes; call it from init
// with a package-level Provider. It panics when the name is taken.
func Provide(p *Provider) {
	if nameTaken(p.Name) {
		panic("utils: duplicate utility " + p.Name)
	}
	for {
		head := provided.Load()
		p.next = head
		if provided.CompareAndSwap(head, p) {
			return
		}
	}
}

// Register adds a utility already made (tests use it). It panics when the
// name is taken.
func Register(u *Utility) {
	p := &Provider{Name: u.Name, Make: func(string) *Utility { return u }}
	p.made.Store(u)
	Provide(p)
}

// builtinIndex finds a row of builtins by name. Every command looks its
// name up several times, and a map answers in a quarter of the time a
// binary search over the table takes; it is made on the first lookup (a
// hundred entries, microseconds), not at start-up.
var builtinIndex = lazy.Value[map[string]*Provider]{New: func() map[string]*Provider {
	m := make(map[string]*Provider, len(builtinTable))
	for i := range builtinTable {
		m[builtinTable[i].Name] = &builtinTable[i]
	}
	return m
}}

// nameTaken says whether a utility of that name exists. It reads the
// tables without making builtinIndex, because Provide runs from other
// packages' init.
func nameTaken(name string) bool {
	for i := range builtinTable {
		if builtinTable[i].Name == name {
			return true
		}
	}
	return findProvided(name) != nil
}

// findProvider returns the provider of name, or nil.
func findProvider(name string) *Provider {
	if p := builtinIndex.Get()[name]; p != nil {
		return p
	}
	return findProvided(name)
}

// findProvided returns the utility of that name that another package
// provided, or nil.
func findProvided(name string) *Provider {
	for p := provided.Load(); p != nil; p = p.next {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Lookup returns the utility of that name, or nil.
func Lookup(name string) *Utility {
	if p := findProvider(name); p != nil {
		return p.utility()
	}
	return nil
}

// Names lists every utility, sorted.
func Names() []string {
	names := make([]string, 0, len(builtins)+4)
	for i := range builtins {
		names = append(names, builtins[i].Name)
	}
	for p := provided.Load(); p != nil; p = p.next {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names
}

// RenderVoice gives the stderr line for a failing operand, the same text
// for a real run and for explain.
func (u *Utility) RenderVoice(arg, msg string) string {
	if u.Voice != nil {
		return u.Voice(arg, msg)
	}
	return u.Name + ": " + arg + ": " + msg + "\n"
}

// RenderOperandVoice is RenderVoice for an operand of a known kind: a Write
// or Target operand speaks with WriteVoice when the utility has one.
func (u *Utility) RenderOperandVoice(kind OperandKind, arg, msg string) string {
	if kind != Read && u.WriteVoice != nil {
		return u.WriteVoice(arg, msg)
	}
	return u.RenderVoice(arg, msg)
}
