// Package shell runs command lines for one session: it parses a line with
// mvdan.cc/sh (bash dialect), judges every literal command before anything
// runs (preflight, G-9.3), then runs the line on an interp.Runner whose every
// hook is gatehouse's: the call handler judges every builtin, the exec handler
// judges and runs every utility in Go over the VFS, and the open, stat,
// readdir and access handlers reach files only through the op door. No
// handler ever reaches the host (G-12.1).
package shell

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// Limits bound one line (G-12.3); zero fields mean the defaults.
type Limits struct {
	WallTime       time.Duration // default 30s
	OutputBytes    int64         // per stream; default 16 MiB
	Commands       int           // default 10,000
	BackgroundJobs int           // default 64
	Depth          int           // nesting depth; default 100
	// Memory is what one line may hold at once, in bytes: the session's
	// variables, command substitutions, here-documents, pipes, what
	// utilities keep, and what the line adds to memory mounts. Default
	// 512 MiB.
	Memory int64
	// ToolOutput bounds the characters of one tool result an agent door
	// returns (the MCP server's, docs/agents.md), keeping head and tail;
	// default DefaultToolOutput. The shell itself does not use it.
	ToolOutput int
}

// DefaultToolOutput is the default of Limits.ToolOutput: about what an
// agent's own shell tool returns before it cuts.
const DefaultToolOutput = 30000

// WithDefaults fills zero fields with the G-12.3 defaults.
func (l Limits) WithDefaults() Limits {
	if l.WallTime <= 0 {
		l.WallTime = 30 * time.Second
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = 16 << 20
	}
	if l.Commands <= 0 {
		l.Commands = 10000
	}
	if l.BackgroundJobs <= 0 {
		l.BackgroundJobs = 64
	}
	if l.Depth <= 0 {
		l.Depth = 100
	}
	if l.Memory <= 0 {
		l.Memory = 512 << 20
	}
	if l.ToolOutput <= 0 {
		l.ToolOutput = DefaultToolOutput
	}
	return l
}

// Config describes one session's shell.
type Config struct {
	VFS       *vfs.VFS
	Profile   *gate.Profile
	SessionID string
	AgentID   string
	Cwd       string            // "" = the profile's cwd
	Env       map[string]string // exported at creation, after the profile's env
	Limits    Limits
	Host      Host // nil: asks stay pending with no ledger
	// Logger is where the operator reads about internal errors (a panic
	// stopped a line, with its stack); nil means log.Default().
	Logger *log.Logger
}

// Result is what a line produced (G-7.6).
type Result struct {
	Stdout   string         `json:"stdout"`
	Stderr   string         `json:"stderr"`
	ExitCode int            `json:"exit_code"`
	Refusal  *gate.Refusal  `json:"refusal"`
	Refusals []gate.Refusal `json:"refusals"`
	// Notes are what the humans who allowed the line's asks wrote to the
	// agent (G-9.5); absent when no allow came with a note.
	Notes []ReviewerNote `json:"notes,omitempty"`
}

// ReviewerNote is a human's note on an allow: the agent reads it in the
// result, as it reads a deny's note on the deny record (G-9.5).
type ReviewerNote struct {
	AskID string `json:"ask_id"`
	Note  string `json:"note"`
}

// Shell is one session's persistent shell: variables, functions, aliases and
// cwd survive between lines (G-2.3). Lines run one at a time.
type Shell struct {
	cfg    Config
	limits Limits
	mu     sync.Mutex // one line at a time
	runner *interp.Runner
	// capture is the secret name of the internal command that stores a
	// process substitution's output (see procsubst.go).
	capture string
	// funcs are the names of functions the session's lines declared; calls
	// to them are framed so their bodies get places of their own.
	funcsMu sync.Mutex
	funcs   map[string]*syntax.Stmt
	// fds holds process-substitution outputs served as /dev/fd/N.
	fds *fdTable
	// wbodies are the bodies of the >(…) an exec's redirections hold, by
	// site key, run when the line ends (rewrite.go).
	wbodies                sync.Map
	wbodyCount, wbodyBytes atomic.Int64
	// cwd is the directory the last line left, readable while a line runs.
	cwd atomic.Value
	// aliases are the aliases the next line expands, as the last line left
	// them, readable while a line runs: explain and preflight read a line's
	// command words through them as the run will (G-2.3, G-11.1).
	aliases atomic.Pointer[interp.Aliases]
	// resolver lets the gate follow a command's cwd and operands through
	// symlinks and look them up, as the op door will (G-6.1a, G-4.5).
	resolver gate.Resolver
	// pid and ppid are the session's $$ and $PPID; pids hands out the ids
	// of its subshells, jobs and nested shells (hostfacts.go).
	pid, ppid int
	pids      pidCounter
}

// New builds a session's shell.
func New(cfg Config) (*Shell, error) {
	if cfg.VFS == nil || cfg.Profile == nil {
		return nil, errors.New("shell: Config needs VFS and Profile")
	}
	s := &Shell{
		cfg:    cfg,
		limits: cfg.Limits.WithDefaults(),
		funcs:  map[string]*syntax.Stmt{},
		fds:    newFDTable(),
	}
	s.resolver = cfg.Profile.Resolver(cfg.VFS)
	s.pid, s.ppid = sessionPIDs(cfg.SessionID)
	s.pids.last.Store(int64(s.pid))
	var nonce [6]byte
	rand.Read(nonce[:])
	s.capture = "__gh_capture_" + hex.EncodeToString(nonce[:])

	cwd := cfg.Cwd
	if cwd == "" {
		cwd = cfg.Profile.Cwd()
	}
	env := s.initialEnv(cwd)
	r, err := s.newRunner(env, cwd, true, s.pid, s.ppid)
	if err != nil {
		return nil, err
	}
	s.runner = r
	s.cwd.Store(cwd)
	r.Reset()
	s.internal(context.Background(), shellVariables)
	return s, nil
}

// initialEnv is the session's starting environment: a small fixed base, the
// profile's env, then the config's; hidden variables never enter (G-5.5).
func (s *Shell) initialEnv(cwd string) []string {
	vars := map[string]string{
		"PATH":    "/usr/local/bin:/usr/bin:/bin",
		"HOME":    "/tmp",
		"SHELL":   "/bin/bash",
		"USER":    "agent",
		"LOGNAME": "agent",
		"LANG":    "C",
		"LC_ALL":  "C",
		"PWD":     cwd,
	}
	for k, v := range s.cfg.Profile.Env() {
		vars[k] = v
	}
	for k, v := range s.cfg.Env {
		vars[k] = v
	}
	list := make([]string, 0, len(vars))
	for k, v := range vars {
		if s.cfg.Profile.VarHidden(k) {
			continue
		}
		list = append(list, k+"="+v)
	}
	sort.Strings(list)
	return list
}

// newRunner makes an interpreter wired to gatehouse's handlers only, whose
// $$ and $PPID are pid and ppid.
func (s *Shell) newRunner(env []string, dir string, interactive bool, pid, ppid int) (*interp.Runner, error) {
	setDir := func(r *interp.Runner) error { r.Dir = dir; return nil }
	// The interpreter would read these from the host process when unset.
	for _, id := range []string{"UID", "EUID", "GID"} {
		if !hasVar(env, id) {
			env = append(env, id+"=1000")
		}
	}
	opts := []interp.RunnerOption{
		interp.Env(expand.ListEnviron(env...)),
		setDir,
		interp.Interactive(interactive),
		interp.StdIO(nil, io.Discard, io.Discard),
		interp.CallHandler(s.callHandler),
		interp.PanicHandler(s.onInterpPanic),
		interp.ExecHandlers(s.execMiddleware),
		interp.OpenHandler(s.openHandler),
		interp.ReadDirHandler2(s.readDirHandler),
		interp.StatHandler(s.statHandler),
		interp.AccessHandler(s.accessHandler),
		// Never the host's process ids, never a FIFO in the host's
		// temporary directory (process substitution is rewritten, G-12.1).
		interp.ProcessIDs(pid, ppid, s.pids.next),
		interp.MemoryHandler(s.memoryHandler),
		interp.NoHostFIFOs(),
		interp.JobText(s.jobText),
		interp.FuncView(s.writtenFunc),    // declare -f and type print what the line wrote
		interp.CommandView(s.commandView), // $BASH_COMMAND shows what the line wrote
	}
	if s.cfg.Profile.JudgesEnvWrites() {
		// Every variable write passes pre_session (G-8.1).
		opts = append(opts, interp.VarHandler(s.varWrite))
	}
	return interp.New(opts...)
}

type internalKey struct{}

// internal runs trusted setup text, bypassing the gate.
func (s *Shell) internal(ctx context.Context, text string) {
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		panic(err)
	}
	s.runner.Run(context.WithValue(ctx, internalKey{}, true), f)
	s.runner.ClearPipeStatus() // setup is not a pipeline the user ran
}

func isInternal(ctx context.Context) bool { return ctx.Value(internalKey{}) != nil }

// Profile returns the session's compiled profile.
func (s *Shell) Profile() *gate.Profile { return s.cfg.Profile }

// Cwd returns the directory the session's last line left it in.
func (s *Shell) Cwd() string { return s.cwd.Load().(string) }

// parse reads a line in the bash dialect.
func parse(line string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
}

// syntaxError renders a parse error the way bash words it, exit 2.
func syntaxError(err error) Result {
	return Result{Stderr: "bash: " + parseErrorText(err) + "\n", ExitCode: 2, Refusals: []gate.Refusal{}}
}

// parseErrorText words a parse error as bash does after "bash: ": a line
// nested past the parser's bound reads "line 1: nesting too deep (limit
// 1000)" (G-12.3).
func parseErrorText(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d: syntax error: %s", lineOf1(pe.Pos), pe.Text)
	}
	var ne syntax.NestingError
	if errors.As(err, &ne) {
		return fmt.Sprintf("line %d: nesting too deep (limit %d)", lineOf1(ne.Pos), ne.Limit)
	}
	return err.Error()
}

// lineOf1 is a position's line, or 1 when the position does not know it (a
// line too long for the parser's column count).
func lineOf1(pos syntax.Pos) uint {
	if l := pos.Line(); l > 0 {
		return l
	}
	return 1
}

// cappedBuffer keeps at most limit bytes, then notes the truncation once and
// reports overflow so the line can be stopped (G-12.3).
type cappedBuffer struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	limit     int64
	overflow  func()
	truncated bool
	// done is closed when the line is stopped: writes then fail, or with
	// quiet (stderr) are dropped without a word.
	done  <-chan struct{}
	quiet bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if stopped(b.done) {
		if b.quiet {
			return len(p), nil
		}
		return 0, errStopped
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.truncated {
		return 0, errOutputLimit
	}
	room := b.limit - int64(b.buf.Len())
	if int64(len(p)) <= room {
		return b.buf.Write(p)
	}
	if room > 0 {
		b.buf.Write(p[:room])
	}
	b.truncated = true
	b.buf.WriteString("\n[gatehouse: output truncated]\n")
	if b.overflow != nil {
		b.overflow()
	}
	return int(max(room, 0)), errOutputLimit
}

func (b *cappedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var errOutputLimit = errors.New("output limit exceeded")
