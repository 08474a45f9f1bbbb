// Package core is gatehouse's composition root: a Workspace holds the mounts,
// the compiled profiles, the decision ledger and the sessions; a Session is
// one agent's shell bound to one profile for life (G-2, G-11.5).
package core

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/core/gate"
	"gatehouse/core/shell"
	"gatehouse/core/vfs"
	"gatehouse/store"
	"gatehouse/store/ledgers"
	"gatehouse/store/sqlite"
)

// Result is what a line produced (G-7.6).
type Result = shell.Result

// ReviewerNote is a human's note on an allow the line was given (G-9.5).
type ReviewerNote = shell.ReviewerNote

// Refusal is a refusal record (G-7.2 to G-7.4): why a command did not run.
type Refusal = gate.Refusal

// Explanation is the dry-run word on one command (G-11.1).
type Explanation = shell.Explanation

// Outcome is what an Explanation says of its command (G-11.1).
type Outcome = gate.Outcome

// The outcomes of an explanation (G-11.1), so that doors read them without
// the gate: the command would run, be refused, ask, not be found, meet a
// hidden operand, run on a standing grant, or is spelled at run time.
const (
	OutcomeRun      = gate.Run
	OutcomeDeny     = gate.Deny
	OutcomeAsk      = gate.Ask
	OutcomeNotFound = gate.NotFound
	OutcomeHidden   = gate.Hidden
	OutcomeGranted  = gate.Granted
	OutcomeDynamic  = gate.Dynamic
)

// AskHandler answers an ask while the line waits (G-10.4).
type AskHandler func(ctx context.Context, rec decisions.Record) (decisions.Answer, error)

type options struct {
	profiles   []gate.ProfileSpec
	defaultPro string
	dbPath     string
	store      store.Ledger
	onAsk      AskHandler
	limits     Limits
	askTimeout time.Duration
	path       string
	clock      func() time.Time
	policies   []any // coded policies, see policy_options.go
	logger     *log.Logger
	durable    string // WithDurableMounts
}

// Option configures a Workspace.
type Option func(*options)

// WithProfiles adds profiles built in Go (G-11.5). Rules that do not say
// where they were written cite the line that called WithProfiles (G-1.3).
func WithProfiles(specs ...gate.ProfileSpec) Option {
	site := callSite() // here, not in the closure: that runs inside NewWorkspace
	return func(o *options) {
		for _, sp := range specs {
			o.profiles = append(o.profiles, sourced(sp, site))
		}
	}
}

// callSite names the caller of the function that calls it, as FILE:LINE,
// for the records of rules built in Go (G-1.3).
func callSite() string {
	_, file, line, ok := runtime.Caller(2)
	if !ok {
		return "go"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(file), line)
}

// sourced gives every rule built in Go the call site that built it (G-1.3).
func sourced(sp gate.ProfileSpec, site string) gate.ProfileSpec {
	if sp.Source == "" {
		sp.Source = site
	}
	if sp.AllowSource == "" {
		sp.AllowSource = site
	}
	// Each rule gets its own name, so records tell rules apart and an
	// allow-for-session covers exactly one rule.
	fill := func(rules []gate.Rule, where string) []gate.Rule {
		out := append([]gate.Rule(nil), rules...)
		for i := range out {
			if out[i].Source == "" {
				out[i].Source = fmt.Sprintf("%s (%s[%d])", site, where, i)
			}
		}
		return out
	}
	sp.Ask, sp.Deny = fill(sp.Ask, "ask"), fill(sp.Deny, "deny")
	hide := append([]gate.PathGroup(nil), sp.Hide...)
	for i := range hide {
		if hide[i].Source == "" {
			hide[i].Source = fmt.Sprintf("%s (hide[%d])", site, i)
		}
	}
	sp.Hide = hide
	if len(sp.Mounts) > 0 {
		mounts := make(map[string]gate.MountRules, len(sp.Mounts))
		for k, m := range sp.Mounts {
			m.Ask, m.Deny = fill(m.Ask, k+" ask"), fill(m.Deny, k+" deny")
			if m.Source == "" {
				m.Source = site
			}
			mounts[k] = m
		}
		sp.Mounts = mounts
	}
	return sp
}

// WithDefaultProfile names the profile of sessions that name none (G-2.2).
func WithDefaultProfile(name string) Option { return func(o *options) { o.defaultPro = name } }

// WithLedger keeps decisions and sessions in the ledger name names: the
// SQLite file at a path, or a PostgreSQL database at a postgres:// URL
// (G-10.7). Without it a workspace keeps them in a private temporary file.
func WithLedger(path string) Option { return func(o *options) { o.dbPath = path } }

// WithStore keeps decisions and sessions in an open ledger handle, which
// the workspace uses but does not close.
func WithStore(l store.Ledger) Option { return func(o *options) { o.store = l } }

// OnAsk installs an inline handler (G-10.4).
func OnAsk(h AskHandler) Option { return func(o *options) { o.onAsk = h } }

// WithLimits sets the per-line limits (G-12.3).
func WithLimits(l Limits) Option { return func(o *options) { o.limits = l } }

// WithAskTimeout bounds how long an inline handler may take (G-10.4).
func WithAskTimeout(d time.Duration) Option { return func(o *options) { o.askTimeout = d } }

// WithLogger sets where the operator reads about internal errors: a panic
// in a utility, the gate, a policy engine or an inline ask handler stops
// only the line it happened in, and is logged here with its stack (G-12.3).
// The default is the standard logger (standard error).
func WithLogger(l *log.Logger) Option { return func(o *options) { o.logger = l } }

// WithClock sets the ledger's clock (tests).
func WithClock(now func() time.Time) Option { return func(o *options) { o.clock = now } }

// Workspace is mounts, profiles, sessions and a decision ledger.
type Workspace struct {
	cfg      Config
	opts     options
	fs       *vfs.VFS
	profiles map[string]*gate.Profile
	open     *gate.Profile // no profile at all (G-2.2)
	store    store.Ledger
	ownStore bool
	tmpDir   string
	ledger   *decisions.Ledger
	// durable keeps the memory mounts in the ledger; nil when they are
	// not kept (a workspace built in Go without WithDurableMounts).
	durable *durableMounts
	// document is the absolute path of the document the workspace was
	// loaded from ("" when built in Go).
	document string
	// loaded is the document's text the running rules were built from
	// (Config.Source), replaced by an applied amendment under docMu.
	loaded []byte
	docMu  sync.Mutex

	mu       sync.Mutex
	sessions map[string]*Session
	deflt    *Session
	events   bus
	// lines are the lines running now, for Shutdown.
	lines runningLines

	// attachMu serialises making a live Session from a ledger row, so
	// that concurrent resumes (and the default session) of one id give
	// one Session, never two shells for one session.
	attachMu sync.Mutex
	// defaultMu makes the first callers of DefaultSession wait for the
	// one that creates it.
	defaultMu sync.Mutex
}

// NewWorkspace builds a workspace in Go (G-1.4, G-11.5).
func NewWorkspace(mounts []vfs.MountSpec, opts ...Option) (*Workspace, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	cfg := Config{Mounts: mounts, Profiles: o.profiles, Default: o.defaultPro, Limits: o.limits, AskTimeout: o.askTimeout}
	return build(cfg, o)
}

// LoadWorkspace reads a workspace document (G-1) and builds it; options
// add to what the document says.
func LoadWorkspace(path string, opts ...Option) (*Workspace, error) {
	cfg, err := LoadConfig(path)
	if err != nil {
		return nil, err
	}
	return FromConfig(cfg, opts...)
}

// FromConfig builds a workspace from a parsed document.
func FromConfig(cfg *Config, opts ...Option) (*Workspace, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	c := *cfg
	c.Profiles = append(append([]gate.ProfileSpec{}, cfg.Profiles...), o.profiles...)
	if o.defaultPro != "" {
		c.Default = o.defaultPro
	}
	if o.limits != (Limits{}) {
		c.Limits = o.limits
	}
	if o.askTimeout != 0 {
		c.AskTimeout = o.askTimeout
	}
	return build(c, o)
}

func build(cfg Config, o options) (*Workspace, error) {
	o.path = cfg.Path
	key := durableKey(cfg, o)
	var vopts []vfs.Option
	if key != "" {
		vopts = append(vopts, vfs.WithJournal())
	}
	fsys, err := vfs.New(cfg.Mounts, vopts...)
	if err != nil {
		return nil, err
	}
	var gm []gate.Mount
	for _, m := range fsys.Mounts() {
		gm = append(gm, gate.Mount{Prefix: m.Prefix, ReadOnly: m.ReadOnly})
	}
	ws := &Workspace{cfg: cfg, opts: o, fs: fsys, profiles: map[string]*gate.Profile{}, sessions: map[string]*Session{}}
	if cfg.Path != "" {
		ws.document = documentPath(cfg.Path)
		ws.loaded = cfg.Source()
	}
	for _, sp := range cfg.Profiles {
		if _, dup := ws.profiles[sp.Name]; dup {
			return nil, fmt.Errorf("profile %q defined twice", sp.Name)
		}
		p, err := gate.Compile(sp, gm, o.compileOptions(fsys)...)
		if err != nil {
			return nil, err
		}
		ws.profiles[sp.Name] = p
	}
	if cfg.Default != "" {
		if _, ok := ws.profiles[cfg.Default]; !ok {
			return nil, fmt.Errorf("default profile %q is not defined (known: %s)", cfg.Default, ws.profileNames())
		}
	}
	ws.open = gate.Unrestricted(gm)
	switch {
	case o.store != nil:
		ws.store = o.store
	default:
		path := o.dbPath
		if path == "" {
			dir, err := os.MkdirTemp("", "gatehouse-ledger-")
			if err != nil {
				return nil, err
			}
			ws.tmpDir = dir
			path = filepath.Join(dir, "ledger.db")
		}
		var sopts []sqlite.Option
		if o.clock != nil {
			sopts = append(sopts, sqlite.WithClock(o.clock))
		}
		l, err := ledgers.Open(context.Background(), path, sopts...)
		if err != nil {
			return nil, err
		}
		ws.store, ws.ownStore = l, true
	}
	ws.ledger = decisions.New(ws.store)
	if ws.durable, err = openDurable(context.Background(), fsys, ws.store, key); err != nil {
		ws.Close()
		return nil, err
	}
	// The ledger, its token and the document are never reachable through
	// a host mount, even one that contains them (G-5.6).
	if err := fsys.Conceal(ownHostFiles(ws.ledger.Path(), cfg.Path)...); err != nil {
		ws.Close()
		return nil, err
	}
	return ws, nil
}

// Close saves what the lines left unsaved (a background job's last
// writes) and releases the ledger (and the temporary one, if the
// workspace made it).
func (ws *Workspace) Close() error {
	var err error
	if ws.ledger != nil {
		// Nothing may read the store once its handle is closed.
		ws.ledger.Stop()
	}
	if ws.durable != nil {
		ctx, cancel := context.WithTimeout(context.Background(), syncTimeout)
		err = ws.durable.save(ctx)
		cancel()
	}
	if ferr := ws.fs.Close(); err == nil {
		err = ferr
	}
	if ws.ownStore {
		if cerr := ws.store.Close(); err == nil {
			err = cerr
		}
	}
	if ws.tmpDir != "" {
		os.RemoveAll(ws.tmpDir)
	}
	return err
}

func (ws *Workspace) profileNames() string {
	names := make([]string, 0, len(ws.profiles))
	for n := range ws.profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Decisions is the ledger (G-10.2).
func (ws *Workspace) Decisions() *decisions.Ledger { return ws.ledger }

// VFS is the workspace's mount table, for Go embedders and tests that seed
// or inspect files beside the gate (a View with no door passes everything).
// Doors never use it: an agent's files are reached through a Session,
// whose file operations are judged (G-11.6).
func (ws *Workspace) VFS() *vfs.VFS { return ws.fs }

// Document is the absolute path of the document the workspace was loaded
// from, symbolic links resolved ("" for a workspace built in Go). Sessions
// record it, so a session is known by the document it belongs to whatever
// directory a process names the document from.
func (ws *Workspace) Document() string { return ws.document }

// Config is the workspace as data.
func (ws *Workspace) Config() Config { return ws.cfg }

// ProfileNames lists the defined profiles.
func (ws *Workspace) ProfileNames() []string {
	names := make([]string, 0, len(ws.profiles))
	for n := range ws.profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// HasProfile reports whether the workspace defines a profile of that name.
func (ws *Workspace) HasProfile(name string) bool {
	_, ok := ws.profiles[name]
	return ok
}

// Profile returns the compiled profile of that name, for Go embedders and
// demos that judge with the gate directly (demo policy). Doors do not: they
// reach the gate only through a Session.
func (ws *Workspace) Profile(name string) (*gate.Profile, bool) {
	p, ok := ws.profiles[name]
	return p, ok
}

// SessionOption configures a session.
type SessionOption func(*sessionOptions)

type sessionOptions struct {
	profile string
	id      string
}

// Profile binds the session to a profile by name (G-2.1).
func Profile(name string) SessionOption { return func(o *sessionOptions) { o.profile = name } }

// SessionID fixes the session's id (the CLI's -s).
func SessionID(id string) SessionOption { return func(o *sessionOptions) { o.id = id } }

// CreateSession starts an agent's session (G-2). A session id the ledger
// already holds is decisions.ErrExists.
func (ws *Workspace) CreateSession(agentID string, opts ...SessionOption) (*Session, error) {
	var so sessionOptions
	for _, o := range opts {
		o(&so)
	}
	if so.id == "" {
		so.id = newSessionID()
	}
	prof, name, err := ws.resolveProfile(so.profile)
	if err != nil {
		return nil, err
	}
	row, err := ws.ledger.CreateSession(context.Background(), decisions.SessionRow{
		ID: so.id, AgentID: agentID, Profile: name, Cwd: prof.Cwd(), Workspace: ws.document,
	})
	if err != nil {
		return nil, err
	}
	ws.attachMu.Lock()
	defer ws.attachMu.Unlock()
	return ws.attach(row, prof)
}

// OpenSession returns the session with id: live in this workspace, kept in
// the ledger (resumed with its profile and last cwd), or else created for
// agentID with opts' profile. Looking up and creating are one step in the
// ledger, so processes racing to open one id (`gatehouse exec -s ID` run
// twice at once) share one session (G-11.4). The caller checks the
// session's profile when it asked for one: a resumed session keeps its own.
// A session the ledger keeps for another workspace document is
// decisions.ErrExists.
func (ws *Workspace) OpenSession(id, agentID string, opts ...SessionOption) (*Session, error) {
	if id == "" {
		return nil, fmt.Errorf("open session: %w: an id is required", decisions.ErrInvalid)
	}
	ws.attachMu.Lock()
	defer ws.attachMu.Unlock()
	if s, ok := ws.Session(id); ok {
		return s, nil
	}
	var so sessionOptions
	for _, o := range opts {
		o(&so)
	}
	prof, name, err := ws.resolveProfile(so.profile)
	if err != nil {
		return nil, err
	}
	row, created, err := ws.ledger.EnsureSession(context.Background(), decisions.SessionRow{
		ID: id, AgentID: agentID, Profile: name, Cwd: prof.Cwd(), Workspace: ws.document,
	})
	if err != nil {
		return nil, err
	}
	if !created && ws.document != "" && filepath.IsAbs(row.Workspace) && row.Workspace != ws.document {
		// Another document's session: its profile and cwd mean nothing
		// here (G-2.1). Rows of older gatehouses kept the path as given,
		// which cannot be compared, and pass.
		return nil, fmt.Errorf("session %s belongs to the workspace %s, not %s: %w", id, row.Workspace, ws.document, decisions.ErrExists)
	}
	if !created {
		if prof, _, err = ws.resolveProfile(row.Profile); err != nil {
			return nil, err
		}
	}
	return ws.attach(row, prof)
}

// ResumeSession reattaches a session the ledger knows (another process may
// have created it), with its profile and last cwd (G-11.4). Concurrent
// resumes of one id return the same Session. Errors:
// decisions.ErrNotFound for an id the ledger does not hold.
func (ws *Workspace) ResumeSession(id string) (*Session, error) {
	if s, ok := ws.Session(id); ok {
		return s, nil
	}
	ws.attachMu.Lock()
	defer ws.attachMu.Unlock()
	if s, ok := ws.Session(id); ok {
		return s, nil
	}
	row, err := ws.ledger.GetSession(context.Background(), id)
	if err != nil {
		return nil, err
	}
	prof, _, err := ws.resolveProfile(row.Profile)
	if err != nil {
		return nil, err
	}
	return ws.attach(row, prof)
}

func (ws *Workspace) resolveProfile(name string) (*gate.Profile, string, error) {
	if name == "" {
		name = ws.cfg.Default
	}
	if name == "" {
		return ws.open, "", nil
	}
	p, ok := ws.profiles[name]
	if !ok {
		return nil, "", fmt.Errorf("unknown profile %q (known profiles: %s)", name, ws.profileNames())
	}
	return p, name, nil
}

// attach makes the live Session of a ledger row. Callers hold attachMu.
func (ws *Workspace) attach(row decisions.SessionRow, prof *gate.Profile) (*Session, error) {
	if s, ok := ws.Session(row.ID); ok {
		return s, nil
	}
	s := &Session{ws: ws, row: row, profile: prof}
	sh, err := shell.New(shell.Config{
		VFS: ws.fs, Profile: prof, SessionID: row.ID, AgentID: row.AgentID, Cwd: row.Cwd,
		Limits: ws.cfg.Limits, Host: &ledgerHost{ws: ws, session: s}, Logger: ws.opts.logger,
	})
	if err != nil {
		return nil, err
	}
	s.sh = sh
	ws.mu.Lock()
	ws.sessions[row.ID] = s
	ws.mu.Unlock()
	ws.emit(EventSession, s, "", nil, "")
	return s, nil
}

// Session returns a live session by id.
func (ws *Workspace) Session(id string) (*Session, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	s, ok := ws.sessions[id]
	return s, ok
}

// Sessions lists the live sessions, oldest first.
func (ws *Workspace) Sessions() []*Session {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	out := make([]*Session, 0, len(ws.sessions))
	for _, s := range ws.sessions {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].row.CreatedAt.Equal(out[j].row.CreatedAt) {
			return out[i].row.CreatedAt.Before(out[j].row.CreatedAt)
		}
		return out[i].row.ID < out[j].row.ID
	})
	return out
}

// DefaultSession is the session a bare Execute uses (G-2.2): created on
// first use, then the same one for every caller, however many ask at once.
func (ws *Workspace) DefaultSession() (*Session, error) {
	ws.mu.Lock()
	d := ws.deflt
	ws.mu.Unlock()
	if d != nil {
		return d, nil
	}
	ws.defaultMu.Lock()
	defer ws.defaultMu.Unlock()
	ws.mu.Lock()
	d = ws.deflt
	ws.mu.Unlock()
	if d != nil {
		return d, nil
	}
	s, err := ws.CreateSession("default")
	if err != nil {
		return nil, err
	}
	ws.mu.Lock()
	ws.deflt = s
	ws.mu.Unlock()
	return s, nil
}

// Execute runs a line in the workspace's default session.
func (ws *Workspace) Execute(ctx context.Context, line string) Result {
	s, err := ws.DefaultSession()
	if err != nil {
		return Result{Stderr: "gatehouse: " + err.Error() + "\n", ExitCode: 125, Refusals: []gate.Refusal{}}
	}
	return s.Execute(ctx, line)
}

// Explain judges a line for a session without running it (G-11). An empty
// sessionID explains for the default session.
func (ws *Workspace) Explain(line, sessionID string) ([]Explanation, error) {
	var s *Session
	var err error
	if sessionID == "" {
		s, err = ws.DefaultSession()
	} else if ls, ok := ws.Session(sessionID); ok {
		s = ls
	} else {
		s, err = ws.ResumeSession(sessionID)
	}
	if err != nil {
		return nil, err
	}
	return s.Explain(line)
}

func newSessionID() string {
	var b [6]byte
	rand.Read(b[:])
	return "s-" + hex.EncodeToString(b[:])
}

// Session is one agent's shell, bound to one profile for life (G-2.1).
type Session struct {
	ws      *Workspace
	profile *gate.Profile
	sh      *shell.Shell

	mu      sync.Mutex
	row     decisions.SessionRow
	running int
	waiting int
}

// ID is the session's id.
func (s *Session) ID() string { return s.row.ID }

// AgentID is the agent's name.
func (s *Session) AgentID() string { return s.row.AgentID }

// ProfileName is the bound profile's name ("" = unrestricted).
func (s *Session) ProfileName() string { return s.row.Profile }

// Row is the session as the ledger keeps it.
func (s *Session) Row() decisions.SessionRow {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.row
}

// Cwd is the shell's current directory.
func (s *Session) Cwd() string { return s.sh.Cwd() }

// Execute runs one line (G-7.6).
func (s *Session) Execute(ctx context.Context, line string) Result {
	ctx, ends, ok := s.ws.lines.start(ctx)
	if !ok {
		return refusedForShutdown()
	}
	// The line counts as running for Shutdown until Execute returns: what
	// follows the run (saving its files, its cwd in the ledger) must be
	// done before Shutdown lets its caller close the ledger (G-12.3).
	defer ends.close()
	s.mu.Lock()
	s.running++
	s.mu.Unlock()
	s.ws.emit(EventLineStart, s, line, nil, "")
	pullErr := s.ws.durable.pull(ctx)
	res := s.run(ctx, ends, line)
	if res.Refusals == nil {
		res.Refusals = []gate.Refusal{}
	}
	if pullErr != nil {
		res.Stderr += "gatehouse: the files other processes saved could not be read from the ledger: " + pullErr.Error() + "\n"
	}
	res.Stderr += s.ws.saveAfter(ctx)
	s.mu.Lock()
	s.running--
	cwd := s.sh.Cwd()
	moved := cwd != s.row.Cwd
	s.row.Cwd = cwd
	s.mu.Unlock()
	if moved {
		// The line ran; only a later process resuming the session would
		// start in the wrong place. Say so rather than lose it silently.
		if err := s.ws.ledger.SetSessionCwd(context.WithoutCancel(ctx), s.row.ID, cwd); err != nil {
			res.Stderr += "gatehouse: the session's directory was not saved: " + err.Error() + "\n"
		}
	}
	s.ws.emit(EventLineEnd, s, line, &res, "")
	return res
}

// run runs a line. With an inline handler, a question the line's preflight
// raises is waited for outside the line, so that the session's other lines
// (an MCP client's concurrent calls) run meanwhile: the line is refused
// pending having run nothing, the session waits for the answer, and the
// line runs again, finding the answer as the agent's retry would (G-9.8:
// one question at a time, in line order). A deny answer refuses the line
// as a wait in place would have; no answer (ask_timeout, the line's end)
// leaves the pending refusal. Questions of the execution gate are waited
// for in place, since part of the line has run. The whole wait is bounded
// by the line's wall time.
func (s *Session) run(ctx context.Context, ends *lineEnds, line string) Result {
	if s.ws.opts.onAsk == nil || !waitsForAnswers(ctx) {
		return s.sh.Run(ends.run(ctx), line)
	}
	wait, cancel := context.WithTimeout(ctx, s.ws.cfg.Limits.WithDefaults().WallTime)
	defer cancel()
	for {
		d := &deferredAsk{}
		res := s.sh.Run(ends.run(context.WithValue(ctx, deferredKey{}, d)), line)
		if !d.ok || res.Refusal == nil {
			return res
		}
		settled, answered := s.await(wait, d.rec, line)
		if !answered {
			return res
		}
		if settled.Outcome == decisions.Deny {
			return shell.HostDenied(*res.Refusal, d.rec.Argv[0], settled.Note)
		}
	}
}

// Explain judges a line without running it (G-11.3). It is for hosts: hide
// reasons appear (G-4.5). Agents get ExplainForAgent.
func (s *Session) Explain(line string) ([]Explanation, error) {
	return s.sh.Explain(context.Background(), line)
}

// ExplainForAgent is Explain as an agent may see it: a hidden operand reads
// exactly as a missing one would (outcome "run", no stderr, exit 0: a dry
// run does not look for files), and no hide reason or rule is given away
// (G-4.5).
func (s *Session) ExplainForAgent(line string) ([]Explanation, error) {
	exps, err := s.Explain(line)
	for i := range exps {
		if exps[i].Outcome == gate.Hidden {
			exps[i].Outcome = gate.Run
			exps[i].Reason, exps[i].Rule, exps[i].Policy, exps[i].Operand = "", "", "", ""
			exps[i].ExitCode, exps[i].Stderr, exps[i].Refusal = 0, "", nil
		}
	}
	return exps, err
}

// logger is where the operator reads about internal errors.
func (ws *Workspace) logger() *log.Logger {
	if ws.opts.logger != nil {
		return ws.opts.logger
	}
	return log.Default()
}
