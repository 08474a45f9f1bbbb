package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
)

// lineState is what one line carries through its run, in the context: the
// answers it claimed, the refusals it met, and the paths its answers
// opened.
type lineState struct {
	sh     *Shell
	text   string
	cancel context.CancelCauseFunc
	// mem is what the line holds now, the session's variables included
	// (memory.go).
	mem atomic.Int64

	mu sync.Mutex
	// claims are the standing answers the line holds, by place (G-9.7).
	claims map[string][]*placeClaim
	// sessionKeys are the rules' grant keys this line asked the host
	// about, each with whether a session grant settles it: asked once per
	// line.
	sessionKeys map[string]bool
	// granted are the paths an answered question showed, with the rules
	// it opened there: a redirection or a sourced file of the line may
	// open exactly such a path through exactly such a rule.
	granted map[string][]gate.PathGrant
	// waivedOpens are the redirections an ask rule's exception lets the
	// line open (Verdict.Waived): each once, at exactly its path, for a
	// write or a read as the excepted command's redirection was written.
	waivedOpens []waivedOpen
	refusals    []gate.Refusal
	// notes are the humans' notes on the allows the line was given.
	notes []ReviewerNote
	// parked are the refusals the call handler handed on to the exec
	// handler, by number (refuseCall).
	parked    map[int64]*Refused
	parkedSeq int64
	// halted is the pending ask that ended the line (G-9.4).
	halted *gate.Refusal
	// waiting: the line stopped on an unanswered question, so it hands
	// back the claims nothing used (G-9.7).
	waiting bool
	// reader reads the rest of the line again as the run's aliases
	// change (reread.go).
	reader *textReader
	// deferred are the keys of the >(…) sites an exec pointed the
	// shell's descriptors at: their bodies run as the line ends, with the
	// line's own output (runDeferred).
	deferred       []string
	stdout, stderr io.Writer
	// started: preflight passed and the interpreter began running the
	// line, so commands may have run on the claims it holds.
	started bool

	commands atomic.Int64
	jobs     atomic.Int64
	done     chan struct{} // closed when the line and its jobs have ended
	endOnce  sync.Once
}

// placeClaim is a standing answer the line holds at one place. Preflight
// takes it for the command it read there (a reservation: command empty);
// the execution gate uses it only for a command whose facts are the ones
// preflight saw, and from then on for the same command at that place
// (later loop iterations, xargs batches, G-9.6), never another.
type placeClaim struct {
	claim Claim
	rules string // keys of the rules it settles
	asked string // the facts of the question it answered
	facts string // the facts its first use at the execution gate must have
	// command is argv[0] of the command the execution gate ran on it;
	// "" until then.
	command string
}

// reserved reports whether the line already holds an answer to the
// question with these facts at place.
func (ls *lineState) reserved(place, asked string) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, pc := range ls.claims[place] {
		if pc.asked == asked {
			return true
		}
	}
	return false
}

// settledForSession records that an answer of this line settled rules for
// the session (see Shell.narrow).
func (ls *lineState) settledForSession(rules []AskRule) {
	ls.mu.Lock()
	if ls.sessionKeys == nil {
		ls.sessionKeys = map[string]bool{}
	}
	for _, r := range rules {
		ls.sessionKeys[r.Key] = true
	}
	ls.mu.Unlock()
}

// hold records a standing answer the line took at place.
func (ls *lineState) hold(place string, pc *placeClaim) {
	ls.mu.Lock()
	ls.claims[place] = append(ls.claims[place], pc)
	ls.mu.Unlock()
}

// standing finds the answer the line holds at q's place for the command
// argv0 meeting q's rules with q's facts: one already used there by the
// same command, or a reservation made for exactly these facts, which this
// use takes.
func (ls *lineState) standing(q Question, facts string) (Claim, bool) {
	rules, command := q.ruleKeys(), q.Argv[0]
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, pc := range ls.claims[q.Place] {
		if pc.rules == rules && pc.command == command {
			return pc.claim, true
		}
	}
	for _, pc := range ls.claims[q.Place] {
		if pc.rules == rules && pc.command == "" && pc.facts == facts {
			pc.command = command
			return pc.claim, true
		}
	}
	return Claim{}, false
}

type lineKey struct{}

func lineOf(ctx context.Context) *lineState {
	ls, _ := ctx.Value(lineKey{}).(*lineState)
	return ls
}

// errHalt stops the runner: an ask at the execution gate with nobody to wait
// on, or a limit.
type errHalt struct {
	code int
	msg  string
}

func (e *errHalt) Error() string { return e.msg }

func (ls *lineState) addRefusal(r gate.Refusal) {
	ls.mu.Lock()
	ls.refusals = append(ls.refusals, r)
	ls.mu.Unlock()
}

// grantPaths records the paths and rules an answered question opened, for
// the line's operations outside any command (redirections, sourced files).
func (ls *lineState) grantPaths(grants []gate.PathGrant) {
	ls.mu.Lock()
	if ls.granted == nil {
		ls.granted = map[string][]gate.PathGrant{}
	}
	for _, g := range grants {
		ls.granted[g.Path] = append(ls.granted[g.Path], g)
	}
	ls.mu.Unlock()
}

// waivedOpen is one redirection of an excepted command the line may open.
type waivedOpen struct {
	grant gate.PathGrant
	write bool
}

// waiveOpens records the redirections of an excepted command (its literal
// targets, extra) that the exception's paths (waived) cover.
func (ls *lineState) waiveOpens(waived []gate.PathGrant, extra []gate.Operand) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, e := range extra {
		for _, g := range waived {
			if g.Path == e.Path {
				ls.waivedOpens = append(ls.waivedOpens, waivedOpen{grant: g, write: e.Write})
				break
			}
		}
	}
}

// useWaivedOpen spends one waived redirection at path through the rule r,
// reporting whether there was one: an exception covers its own command's
// redirection, not another command's open of the same path later on.
func (ls *lineState) useWaivedOpen(p string, write bool, r *gate.Refusal) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for i, w := range ls.waivedOpens {
		if w.grant.Path == p && w.write == write && w.grant.Rule == r.Rule && w.grant.Policy == r.Policy {
			ls.waivedOpens = slices.Delete(ls.waivedOpens, i, i+1)
			return true
		}
	}
	return false
}

// pathGranted reports whether an answered question of the line showed
// exactly path and opened the rule r there; for a write (writing, creating,
// moving, removing), whether it showed the path written: allowing `cat f`
// never lets a later `echo x > $F` or `mv $DIR elsewhere` of the same line
// change f (G-9.5).
func (ls *lineState) pathGranted(p string, r *gate.Refusal, write bool) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, g := range ls.granted[p] {
		if g.Rule == r.Rule && g.Policy == r.Policy && (g.Write || !write) {
			return true
		}
	}
	return false
}

// finish spends what the line claimed once the line and every job it
// launched have ended (G-9.7, G-9.9).
func (ls *lineState) finish() {
	ls.endOnce.Do(func() {
		ls.mu.Lock()
		var claims []Claim
		for _, held := range ls.claims {
			for _, pc := range held {
				claims = append(claims, pc.claim)
			}
		}
		waiting, started := ls.waiting, ls.started
		ls.mu.Unlock()
		if h := ls.sh.cfg.Host; h != nil && len(claims) > 0 {
			if !waiting {
				h.Spend(claims)
			} else if !started {
				h.Release(claims)
			} else {
				used, unused := ls.splitUsed()
				h.Spend(used)
				h.Release(unused)
			}
		}
		close(ls.done)
	})
}

// splitUsed parts the line's claims, once it stopped on a question after it
// had begun to run, into those a command may have run on and those nothing
// reached. An allow once is one run: a claim the execution gate used, or a
// reservation covering redirections (which the interpreter opens without
// asking the gate about the claim), is spent, so the retry asks again
// rather than running the answered command a second time (G-9.5, G-9.7).
// Only a reservation for a command the run never reached goes back.
func (ls *lineState) splitUsed() (used, unused []Claim) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, held := range ls.claims {
		for _, pc := range held {
			if pc.command == "" && pc.rules != "" {
				unused = append(unused, pc.claim)
			} else {
				used = append(used, pc.claim)
			}
		}
	}
	return used, unused
}

// jobStarted and jobEnded count background jobs; the line's claims are spent
// when the count falls back to zero after the foreground has ended.
func (ls *lineState) jobStarted() { ls.jobs.Add(1) }
func (ls *lineState) jobEnded() {
	if ls.jobs.Add(-1) == 0 {
		ls.finish()
	}
}

type lineEndKey struct{}

// OnLineEnd returns a context under which Run calls fn once the line it
// runs and every background job that line launched have ended (or were
// stopped with it). fn is called exactly once, possibly after Run returned.
func OnLineEnd(ctx context.Context, fn func()) context.Context {
	return context.WithValue(ctx, lineEndKey{}, fn)
}

// Run runs one line and returns its result (G-7.6). The line's grants stay
// claimed until its background jobs end.
func (s *Shell) Run(ctx context.Context, line string) (res Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The caller learns when the line and its jobs have ended: at once for
	// a line that never ran, else when the last job is done.
	onEnd, _ := ctx.Value(lineEndKey{}).(func())
	handedOff := false
	defer func() {
		if !handedOff && onEnd != nil {
			onEnd()
		}
	}()
	// Nothing a line says may take the process down (G-12.3).
	defer func() {
		if p := recover(); p != nil {
			s.panicked(context.Background(), "", p, debug.Stack())
			res = Result{Stderr: internalErrorText("") + "\n", ExitCode: 125, Refusals: []gate.Refusal{}}
		}
	}()
	file, reader, err := s.readText(line, s.sessionAliases())
	if err != nil {
		return syntaxError(err)
	}
	s.noteFuncs(file)

	ctx, cancelTime := context.WithTimeoutCause(ctx, s.limits.WallTime, &errHalt{124, fmt.Sprintf("gatehouse: line exceeded the wall-time limit (%s)", s.limits.WallTime)})
	ctx, cancel := context.WithCancelCause(ctx)
	ls := &lineState{sh: s, text: line, cancel: cancel, claims: map[string][]*placeClaim{}, done: make(chan struct{}), reader: reader}
	ls.jobs.Store(1) // the foreground
	// The session's variables are held before the line holds anything.
	ls.mem.Store(s.runner.MemoryHeld())
	handedOff = true
	defer func() {
		s.fds.reset()
		ls.jobEnded()
		go func() {
			select {
			case <-ls.done:
			case <-ctx.Done():
				ls.finish() // the jobs were stopped with the line
			}
			cancelTime()
			cancel(nil)
			if onEnd != nil {
				onEnd()
			}
		}()
	}()
	ctx = context.WithValue(ctx, lineKey{}, ls)

	// Preflight: judge every literal command before anything runs.
	if res, stop := s.preflight(ctx, ls, file); stop {
		return res
	}

	ls.mu.Lock()
	ls.started = true
	ls.mu.Unlock()

	// Once the line is stopped, what its commands still print is noise
	// beside the message that says why (G-12.3).
	stdout := &cappedBuffer{limit: s.limits.OutputBytes, done: ctx.Done()}
	stderr := &cappedBuffer{limit: s.limits.OutputBytes, done: ctx.Done(), quiet: true}
	overflow := func() {
		cancel(&errHalt{125, fmt.Sprintf("gatehouse: output exceeded the limit of %d bytes", s.limits.OutputBytes)})
	}
	stdout.overflow, stderr.overflow = overflow, overflow
	interp.StdIO(nil, stdout, stderr)(s.runner)
	ls.stdout, ls.stderr = stdout, stderr

	runErr, stuck := s.runWithin(ctx, file)
	if stuck {
		return s.abandon(ctx, ls, line, stdout, stderr)
	}
	s.cwd.Store(s.runner.Dir)
	s.noteAliases()
	res = Result{Stdout: stdout.String(), Stderr: stderr.String()}
	res.ExitCode = exitCodeOf(runErr)

	ls.mu.Lock()
	halted := ls.halted
	res.Refusals = append([]gate.Refusal{}, ls.refusals...)
	res.Notes = append([]ReviewerNote(nil), ls.notes...)
	ls.mu.Unlock()
	if cause := context.Cause(ctx); cause != nil && halted == nil {
		var h *errHalt
		if errors.As(cause, &h) {
			res.ExitCode = h.code
			if h.msg != "" {
				res.Stderr += h.msg + "\n"
			}
			ls.cancel(cause) // stop background jobs too
		}
	}
	if halted != nil {
		res.ExitCode = 126
	}
	if len(res.Refusals) > 0 {
		r := res.Refusals[0]
		res.Refusal = &r
	}
	// The interpreter keeps the cwd even after a halted line; nothing else
	// to restore.
	return res
}

// noteAliases keeps the aliases the session's next line will expand.
func (s *Shell) noteAliases() {
	als := s.runner.Aliases()
	s.aliases.Store(&als)
}

// sessionAliases are the aliases the session's next line is read with; a
// session's shell expands them from the start, as an interactive bash does.
func (s *Shell) sessionAliases() aliasTable {
	if als := s.aliases.Load(); als != nil {
		return tableOf(*als)
	}
	return aliasTable{on: true}
}

// readLine parses a session's line as bash reads it: its aliases expanded
// (G-2.3).
func (s *Shell) readLine(line string) (*syntax.File, error) {
	text, err := expandAliasText(line, s.sessionAliases())
	if err != nil {
		return nil, err
	}
	return parse(text)
}

// runGuarded runs the file, turning a panic into exit 125 so the session
// survives (G-12.3).
func (s *Shell) runGuarded(ctx context.Context, r *interp.Runner, file *syntax.File) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = s.panicked(ctx, "", p, debug.Stack())
		}
	}()
	// Statement by statement: running a whole *syntax.File would count as
	// the shell exiting and fire an EXIT trap after every line.
	var reader *textReader
	if ls := lineOf(ctx); ls != nil {
		reader = ls.reader
	}
	skipLine := uint(0)
	stmts := file.Stmts
	for i := 0; i < len(stmts); i++ {
		if reader != nil && i > 0 {
			// An alias the line's run defined applies from the next
			// line read (G-2.3).
			if rest, ok := reader.reread(stmts[i], r); ok {
				if stmts, i = rest, 0; len(stmts) == 0 {
					break
				}
			}
		}
		st := stmts[i]
		if skipLine != 0 && st.Pos().Line() == skipLine {
			continue // the rest of a line an expansion error aborted
		}
		skipLine = 0
		err = r.Run(ctx, st)
		if r.Exited() || ctx.Err() != nil {
			break
		}
		if r.Discarded() {
			skipLine = st.End().Line()
		}
		if _, ok := exitStatus(err); err != nil && !ok {
			break
		}
	}
	// The line is a whole bash -c program: its end runs the EXIT trap and
	// closes the files exec left open on descriptors.
	if ctx.Err() == nil {
		if exited, trapErr := r.RunExitTrap(ctx); exited {
			err = trapErr
		}
	}
	r.CloseFds()
	s.runDeferred(ctx, r)
	return err
}

// runDeferred runs the bodies of the >(…) the line's exec commands pointed
// its descriptors at, now that nothing writes to them any more, as bash's
// run once the shell's descriptors close: each reads what the line wrote
// there and writes to the line's own output.
func (s *Shell) runDeferred(ctx context.Context, r *interp.Runner) {
	if ls := lineOf(ctx); ls != nil {
		s.runDeferredFrom(ctx, r, 0, ls.stdout, ls.stderr)
	}
}

// runDeferredFrom runs the deferred bodies registered since the line held
// mark of them (a nested shell's own, as it ends), with r writing to
// stdout and stderr.
func (s *Shell) runDeferredFrom(ctx context.Context, r *interp.Runner, mark int, stdout, stderr io.Writer) {
	ls := lineOf(ctx)
	if ls == nil {
		return
	}
	ls.mu.Lock()
	var keys []string
	if mark < len(ls.deferred) {
		keys = slices.Clone(ls.deferred[mark:])
		ls.deferred = ls.deferred[:mark]
	}
	ls.mu.Unlock()
	if len(keys) == 0 || ctx.Err() != nil {
		return
	}
	interp.StdIO(nil, stdout, stderr)(r)
	for _, k := range keys {
		if b, ok := s.wbodies.Load(k); ok {
			r.Run(ctx, b.(*syntax.Stmt))
		}
	}
	r.CloseFds()
}

// deferredMark is how many deferred bodies the line holds (runDeferredFrom).
func (ls *lineState) deferredMark() int {
	if ls == nil {
		return 0
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return len(ls.deferred)
}

// exitStatus reports the exit status err is, or wraps: a status sets $? and
// the line goes on, any other error stops the runner.
func exitStatus(err error) (uint8, bool) {
	var status interp.ExitStatus
	if errors.As(err, &status) {
		return uint8(status), true
	}
	return 0, false
}

func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	if code, ok := exitStatus(err); ok {
		return int(code)
	}
	var h *errHalt
	if errors.As(err, &h) {
		return h.code
	}
	var le *expand.LimitError
	if errors.As(err, &le) || errors.Is(err, interp.ErrNesting) {
		return 2 // past a bound of the expander or the interpreter, like a syntax error
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return 124
	}
	return 125
}
