package shell

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Some utilities run a language (jq) whose values live in the
// interpreter's own structures: `jq -n '[range(1e9)]'` builds its array
// where no reader or Env.Grow sees it. While such a utility runs, a
// watchdog compares the process's heap with what every line has accounted
// for; when the heap grew past the line's budget beyond what the accounts
// explain, the line ends as over its memory limit (G-12.3). It is a
// backstop for what cannot be counted, not the budget's main mechanism.

// accounted is what all lines of the process hold by their accounts.
var accounted atomic.Int64

// The heap is the process's: while two opaque runs overlap (one session's
// big jq, another's git), the growth of one shows in the other's window
// too. A run that can say what it holds (jq: gojq.Measurer) is asked when
// the heap says some run is over; the growth since the earliest run
// started that no answer explains (and no account) is charged to every
// run, and each run also carries what it said it holds. So a line that
// did not grow is not ended for another's values, and growth nobody owns
// up to still ends the lines that were running while it happened, as the
// backstop always did. A run alone is judged by the heap alone.

// opaqueRun is one running utility whose memory the shell cannot count.
type opaqueRun struct {
	ls         *lineState
	heap0      int64 // live heap when it started
	accounted0 int64 // accounted when it started

	want     atomic.Bool  // the watchdog asks what it holds
	answered atomic.Bool  // it answered since it was last asked
	ever     atomic.Bool  // it answered once at least
	held     atomic.Int64 // its last answer
	// The watchdog's: when it was last asked, and how much the heap had
	// grown beyond the accounts since it started, at the collection before.
	asked  time.Time
	growth int64
	// suspended measures the run between two of its steps (false while it
	// steps); nil when it cannot.
	suspended atomic.Pointer[func() (int64, bool)]
}

// Suspended gives the watchdog a way to measure the run while it waits.
func (r *opaqueRun) Suspended(measure func() (int64, bool)) { r.suspended.Store(&measure) }

// measureWait is how long a run may take to answer; one that does not
// (git, or jq inside one long builtin) is judged on its last answer, if
// any, and on the growth nobody explains.
const measureWait = 500 * time.Millisecond

var watchdog struct {
	mu   sync.Mutex
	runs map[*opaqueRun]struct{}
	on   bool
}

// watchOpaque registers a run for the watchdog; stop ends it.
func watchOpaque(ls *lineState) (run *opaqueRun, stop func()) {
	if ls == nil {
		return nil, func() {}
	}
	run = &opaqueRun{ls: ls, heap0: liveHeap(false), accounted0: accounted.Load()}
	watchdog.mu.Lock()
	if watchdog.runs == nil {
		watchdog.runs = map[*opaqueRun]struct{}{}
	}
	watchdog.runs[run] = struct{}{}
	if !watchdog.on {
		watchdog.on = true
		go watch()
	}
	watchdog.mu.Unlock()
	return run, func() {
		watchdog.mu.Lock()
		delete(watchdog.runs, run)
		watchdog.mu.Unlock()
	}
}

// MeasureWanted, Measured, Limit and Reserve make a run a gojq.Measurer.
func (r *opaqueRun) MeasureWanted() bool { return r.want.Load() }

func (r *opaqueRun) Measured(n int64) {
	r.held.Store(n)
	r.want.Store(false)
	r.ever.Store(true)
	r.answered.Store(true)
}

func (r *opaqueRun) Limit() int64 { return r.ls.sh.limits.Memory }

// Reserve refuses, and ends the line, when one value of n bytes would not
// fit in what the line may still hold: `"a" * 999999999` is refused before
// its gigabyte exists.
func (r *opaqueRun) Reserve(n int64) bool {
	if r.ls.mem.Load()+n > r.ls.sh.limits.Memory {
		r.ls.overMemory()
		return false
	}
	return true
}

// watch samples the heap while opaque runs exist, then stops.
func watch() {
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	var lastGC time.Time
	var round []*opaqueRun // runs asked what they hold, waiting to be judged
	for range tick.C {
		watchdog.mu.Lock()
		if len(watchdog.runs) == 0 {
			watchdog.on = false
			watchdog.mu.Unlock()
			return
		}
		runs := make([]*opaqueRun, 0, len(watchdog.runs))
		for r := range watchdog.runs {
			runs = append(runs, r)
		}
		watchdog.mu.Unlock()

		if round != nil {
			if judgeShared(round) {
				round = nil
			}
			continue
		}
		// The heap counts garbage too: judge only on what lives, after a
		// collection.
		if !anyOver(runs, liveHeap(false)) || time.Since(lastGC) < 250*time.Millisecond {
			continue
		}
		lastGC = time.Now()
		heap := liveHeap(true)
		for _, r := range runs {
			r.growth = r.unexplained(heap)
		}
		if len(runs) == 1 {
			if r := runs[0]; r.over(r.growth) {
				r.ls.overMemory()
			}
			continue
		}
		if anyOver(runs, heap) {
			// Several runs share the heap: ask them what they hold, of
			// a heap collected twice (what died while the first marked
			// is gone after the second: a jq's outgrown arrays).
			heap = liveHeap(true)
			for _, r := range runs {
				r.growth = r.unexplained(heap)
			}
			for _, r := range runs {
				r.ask(lastGC)
			}
			round = runs
		}
	}
}

// ask asks the run what it holds: it answers now if it waits, else
// between two of its steps.
func (r *opaqueRun) ask(now time.Time) {
	r.asked = now
	r.answered.Store(false)
	if m := r.suspended.Load(); m != nil {
		if n, ok := (*m)(); ok {
			r.Measured(n)
			return
		}
	}
	r.want.Store(true)
}

// anyOver reports whether some run, charged all the growth of its window,
// is over its budget.
func anyOver(runs []*opaqueRun, heap int64) bool {
	for _, r := range runs {
		if r.over(r.unexplained(heap)) {
			return true
		}
	}
	return false
}

// lastRound is the watchdog's memory of its last judgement of shared runs.
var lastRound struct {
	at     time.Time
	orphan int64
}

// judgeShared, once the runs asked answered or had the time to, ends those
// whose share of the heap's growth is over their budget; false while it
// waits for answers.
func judgeShared(runs []*opaqueRun) bool {
	for _, r := range runs {
		if !r.answered.Load() && time.Since(r.asked) < measureWait {
			return false
		}
	}
	// growth is the widest window's (the earliest run's), explained what
	// the runs said they hold of it. The rest is charged to the runs that
	// did not answer now (they may hold it), or to all when all answered.
	var growth, explained int64
	silent := 0
	for _, r := range runs {
		growth = max(growth, r.growth)
		if r.ever.Load() {
			explained += min(r.held.Load(), max(r.growth, 0))
		}
		if !r.answered.Load() {
			silent++
		}
	}
	// A collection keeps what died while it marked: the arrays a jq
	// outgrew a moment before. What nobody explains is charged when it
	// was there at the round before too.
	orphan := max(growth-explained, 0)
	if time.Since(lastRound.at) < 2*time.Second {
		orphan, lastRound.orphan = min(orphan, lastRound.orphan), orphan
	} else {
		orphan, lastRound.orphan = 0, orphan
	}
	lastRound.at = time.Now()
	for _, r := range runs {
		var share int64
		if r.ever.Load() {
			share = r.held.Load()
		}
		if silent == 0 || !r.answered.Load() {
			share += orphan
		}
		if r.over(min(share, r.growth)) {
			r.ls.overMemory()
		}
	}
	return true
}

// over reports whether the line, charged share of the heap's growth on top
// of its accounts, holds more than its budget.
func (r *opaqueRun) over(share int64) bool {
	return share+r.ls.mem.Load() > r.ls.sh.limits.Memory
}

// unexplained is how much the heap grew since the run started beyond what
// the lines' accounts grew.
func (r *opaqueRun) unexplained(heap int64) int64 {
	return (heap - r.heap0) - (accounted.Load() - r.accounted0)
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// liveHeap is the heap's objects, after a collection when collect is set.
func liveHeap(collect bool) int64 {
	if collect {
		runtime.GC()
	}
	s := make([]metrics.Sample, 1)
	copy(s, heapSample)
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
