package shell

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
)

// lineState is what one line carries through its run, in the context: the
// answers it claimed, the refusals it met, the paths its answered asks
// opened, and the count of its commands and background jobs.
type lineState struct {
	sh     *Shell
	text   string
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	claims   map[string]Claim // place + "\x00" + grant key
	spent    []Claim
	granted  map[string]bool // resolved paths an answered ask opened for this line
	refusals []gate.Refusal
	// halted is the pending ask that ended the line (G-9.4).
	halted *gate.Refusal
	// waiting: the line stopped on an unanswered question, so it spends
	// nothing and hands its claims back (G-9.7).
	waiting bool

	commands atomic.Int64
	jobs     atomic.Int64
	done     chan struct{} // closed when the line and its jobs have ended
	endOnce  sync.Once
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

func (ls *lineState) grantPaths(paths []string) {
	ls.mu.Lock()
	if ls.granted == nil {
		ls.granted = map[string]bool{}
	}
	for _, p := range paths {
		ls.granted[p] = true
	}
	ls.mu.Unlock()
}

func (ls *lineState) pathGranted(p string) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for q := p; ; {
		if ls.granted[q] {
			return true
		}
		i := strings.LastIndexByte(q, '/')
		if i <= 0 {
			return ls.granted["/"]
		}
		q = q[:i]
	}
}

// finish spends what the line claimed once the line and every job it
// launched have ended (G-9.7, G-9.9).
func (ls *lineState) finish() {
	ls.endOnce.Do(func() {
		ls.mu.Lock()
		claims := make([]Claim, 0, len(ls.claims)+len(ls.spent))
		for _, c := range ls.claims {
			claims = append(claims, c)
		}
		claims = append(claims, ls.spent...)
		waiting := ls.waiting
		ls.mu.Unlock()
		if h := ls.sh.cfg.Host; h != nil && len(claims) > 0 {
			if waiting {
				h.Release(claims)
			} else {
				h.Spend(claims)
			}
		}
		close(ls.done)
	})
}

// jobStarted and jobEnded count background jobs; the line's claims are spent
// when the count falls back to zero after the foreground has ended.
func (ls *lineState) jobStarted() { ls.jobs.Add(1) }
func (ls *lineState) jobEnded() {
	if ls.jobs.Add(-1) == 0 {
		ls.finish()
	}
}

// Run runs one line and returns its result (G-7.6). The line's grants stay
// claimed until its background jobs end.
func (s *Shell) Run(ctx context.Context, line string) (res Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Nothing a line says may take the process down (G-12.3).
	defer func() {
		if p := recover(); p != nil {
			res = Result{Stderr: fmt.Sprintf("gatehouse: internal error: %v\n", p), ExitCode: 125, Refusals: []gate.Refusal{}}
		}
	}()
	file, err := parse(line)
	if err != nil {
		return syntaxError(err)
	}
	s.rewriteProcSubst(file)
	s.rewriteEnvWrites(file)
	s.noteFuncs(file)

	ctx, cancelTime := context.WithTimeoutCause(ctx, s.limits.WallTime, &errHalt{124, fmt.Sprintf("gatehouse: line exceeded the wall-time limit (%s)", s.limits.WallTime)})
	ctx, cancel := context.WithCancelCause(ctx)
	ls := &lineState{sh: s, text: line, cancel: cancel, claims: map[string]Claim{}, done: make(chan struct{})}
	ls.jobs.Store(1) // the foreground
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
		}()
	}()
	ctx = context.WithValue(ctx, lineKey{}, ls)

	// Preflight: judge every literal command before anything runs.
	if res, stop := s.preflight(ctx, ls, file); stop {
		return res
	}

	stdout := &cappedBuffer{limit: s.limits.OutputBytes}
	stderr := &cappedBuffer{limit: s.limits.OutputBytes}
	overflow := func() {
		cancel(&errHalt{125, fmt.Sprintf("gatehouse: output exceeded the limit of %d bytes", s.limits.OutputBytes)})
	}
	stdout.overflow, stderr.overflow = overflow, overflow
	interp.StdIO(nil, stdout, stderr)(s.runner)

	runErr := s.runGuarded(ctx, file)
	s.cwd.Store(s.runner.Dir)
	res = Result{Stdout: stdout.String(), Stderr: stderr.String()}
	res.ExitCode = exitCodeOf(runErr)

	ls.mu.Lock()
	halted := ls.halted
	res.Refusals = append([]gate.Refusal{}, ls.refusals...)
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

// runGuarded runs the file, turning a panic into exit 125 so the session
// survives (G-12.3).
func (s *Shell) runGuarded(ctx context.Context, file *syntax.File) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &errHalt{125, fmt.Sprintf("gatehouse: internal error: %v", p)}
		}
	}()
	// Statement by statement: running a whole *syntax.File would count as
	// the shell exiting and fire an EXIT trap after every line.
	for _, st := range file.Stmts {
		err = s.runner.Run(ctx, st)
		if s.runner.Exited() || ctx.Err() != nil {
			break
		}
		if _, ok := exitStatus(err); err != nil && !ok {
			break
		}
	}
	return err
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
	if errors.Is(err, context.DeadlineExceeded) {
		return 124
	}
	return 125
}
