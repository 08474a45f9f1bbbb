// Package policyrun bounds the calls of policy programs, whatever their
// language (G-8.4): the time a call may run, the goroutine or watch that
// stops it, and what one builtin may build. The gate and its engines
// (core/gate/starlark, core/gate/javascript) share it; nothing else may.
package policyrun

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// A policy program's call is bounded by its time-out (G-8.4), counted as
// the running time of the call itself, not the wall clock: on a loaded
// machine a goroutine can wait for a CPU far longer than a hook takes, and a
// wall-clock limit would deny commands that did nothing wrong. A call runs
// locked to its OS thread, whose CPU clock a watchdog reads (threadClock);
// the wall clock is only a backstop (BackstopSlack past the time-out) for a
// call that cannot get a CPU at all.
//
// A JavaScript call runs on a goroutine of its own (Slot), so that its
// caller can go at the deadline when the program is stuck where no
// interrupt reaches: inside a backtracking regular expression, which only
// regexp2's own clock stops (RegexpMatchCap). The caller refuses at once;
// the goroutine is left to finish on its own. A Starlark call runs on its
// caller's goroutine (Watch): every Starlark builtin is bounded (see
// bounds.go), and its steps let short calls skip the clock.

const (
	// MaxTimeout is the longest time-out a policy block may ask for:
	// a hook runs for every command and op, so seconds are already absurd.
	MaxTimeout = 2 * time.Second

	// BackstopSlack is how much wall time a call gets past its time-out
	// before it is stopped whatever its CPU clock says.
	BackstopSlack = 2 * time.Second

	// RegexpMatchCap bounds one match of a backtracking regular expression
	// (JavaScript lookaround and backreferences), which no interrupt stops.
	// It is longer than every call's wall backstop, so a match stopped by
	// the cap (which the engine reports as "no match") always belongs to a
	// call that is refused as timed out. The extra two seconds cover the lag
	// of regexp2's own clock, which a goroutine updates every 100 ms (see
	// the JavaScript engine's keepRegexpClock).
	RegexpMatchCap = MaxTimeout + BackstopSlack + 2*time.Second
)

// Budget is what one call may use: cpu of its own thread's running
// time, and wall of elapsed time.
type Budget struct {
	cpu, wall time.Duration
}

// NewBudget is the budget of a call with this time-out: as much of its own
// thread's time, and the wall backstop past it.
func NewBudget(timeout time.Duration) Budget {
	return Budget{cpu: timeout, wall: timeout + BackstopSlack}
}

// Call states: a call is running until its goroutine finishes it or its
// caller gives up on it, whichever comes first.
const (
	callRunning int32 = iota
	callFinished
	callAbandoned
)

// Slot hands calls of one pooled interpreter to a goroutine and back.
// An interpreter serves one call at a time, so its slot's channels and
// timer are reused; an abandoned call's goroutine returns the interpreter
// to its pool only once it is done with them.
type Slot struct {
	state   atomic.Int32
	done    chan struct{} // the goroutine finished the call
	stopped chan struct{} // the caller interrupted an abandoned call
	timer   *time.Timer
	clock   threadClock
	panic   any
}

// NewSlot makes the slot of one interpreter.
func NewSlot() *Slot {
	s := &Slot{done: make(chan struct{}, 1), stopped: make(chan struct{}, 1), timer: time.NewTimer(time.Hour)}
	s.timer.Stop()
	return s
}

// Run runs call within b on a goroutine of its own. It returns when the
// call finished within its budget (timedOut false; panicked holds what the
// call panicked with, if it did), or as soon as the call has used its
// budget (timedOut true): then stop has interrupted the program, and the
// goroutine, once the call returns, runs afterAbandon instead of the caller
// touching the interpreter again.
func (s *Slot) Run(b Budget, call, stop, afterAbandon func()) (timedOut bool, panicked any) {
	s.state.Store(callRunning)
	s.panic = nil
	s.clock.reset()
	go s.work(call, afterAbandon)
	start := time.Now()
	// Until the first reading of the call's clock (see threadClock), the
	// call has used at most the wall time since it started; after it, its
	// clock counts. So a call is stopped having run between b.cpu and
	// b.cpu plus an eighth of it.
	s.timer.Reset(b.cpu / 8)
	for {
		select {
		case <-s.done:
			s.timer.Stop()
			return s.finished(time.Since(start), b, afterAbandon)
		case <-s.timer.C:
			elapsed := time.Since(start)
			used := s.clock.used(elapsed)
			if used < b.cpu && elapsed < b.wall {
				s.timer.Reset(min(b.cpu-used, b.wall-elapsed))
				continue
			}
			if !s.state.CompareAndSwap(callRunning, callAbandoned) {
				<-s.done // it finished meanwhile
				return s.finished(time.Since(start), b, afterAbandon)
			}
			stop()
			s.stopped <- struct{}{}
			return true, nil
		}
	}
}

// finished reports a call its goroutine finished. One that ran past its
// wall backstop is refused even so: it may have returned only because a
// bounded builtin (a regular expression at RegexpMatchCap) gave up. Its
// interpreter is whole; afterAbandon hands it back as for an abandoned
// call.
func (s *Slot) finished(elapsed time.Duration, b Budget, afterAbandon func()) (timedOut bool, panicked any) {
	if elapsed >= b.wall && s.panic == nil {
		afterAbandon()
		return true, nil
	}
	return false, s.panic
}

// work is the call's goroutine. A panic never leaves it: it is handed to
// the caller, or dropped with an abandoned call.
func (s *Slot) work(call, afterAbandon func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s.clock.begin()
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.panic = p
			}
		}()
		call()
	}()
	if s.state.CompareAndSwap(callRunning, callFinished) {
		s.done <- struct{}{}
		return
	}
	<-s.stopped
	afterAbandon()
}

// ErrStopped is what an interrupted program is stopped with; the caller
// has already refused the call as timed out by then.
var ErrStopped = errors.New("stopped at the time-out")

// Watch bounds calls that run on their caller's goroutine: Starlark
// calls, whose builtins are all bounded (bounds.go), so a stuck
// call cannot outlast them by much, and whose interpreter counts steps, so
// the thread clock needs reading only for calls that run a while (see
// the Starlark engine's onSteps). A timer checks the call's clock and cancels it
// once it has used its budget.
type Watch struct {
	mu     sync.Mutex
	timer  *time.Timer
	stop   func()
	armed  bool
	fired  bool
	start  time.Time
	budget Budget
	clock  threadClock
}

// NewWatch makes a watch that calls stop when an armed call has used its
// budget.
func NewWatch(stop func()) *Watch {
	w := &Watch{stop: stop}
	w.timer = time.AfterFunc(time.Hour, w.tick)
	w.timer.Stop()
	return w
}

// Arm starts watching a call within b.
func (w *Watch) Arm(b Budget) {
	w.mu.Lock()
	w.armed, w.fired, w.start, w.budget = true, false, time.Now(), b
	w.clock.reset()
	w.timer.Reset(b.cpu / 8)
	w.mu.Unlock()
}

func (w *Watch) tick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.armed {
		return // the call ended while this tick waited for the lock
	}
	elapsed := time.Since(w.start)
	if used := w.clock.used(elapsed); used < w.budget.cpu && elapsed < w.budget.wall {
		w.timer.Reset(min(w.budget.cpu-used, w.budget.wall-elapsed))
		return
	}
	w.armed, w.fired = false, true
	w.stop()
}

// Disarm stops watching and reports whether the call used its budget.
// Once it returns, stop will not be called for this call.
func (w *Watch) Disarm() (timedOut bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.armed = false
	w.timer.Stop()
	return w.fired || time.Since(w.start) >= w.budget.wall
}

// BeginClock is called on the watched call's goroutine, once it is locked
// to its OS thread for the rest of the call: from then on the watch reads
// that thread's clock.
func (w *Watch) BeginClock() { w.clock.begin() }
