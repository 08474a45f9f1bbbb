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

// opaqueRun is one running utility whose memory the shell cannot count.
type opaqueRun struct {
	ls         *lineState
	heap0      int64 // live heap when it started
	accounted0 int64 // accounted when it started
}

var watchdog struct {
	mu   sync.Mutex
	runs map[*opaqueRun]struct{}
	on   bool
}

// watchOpaque registers a run for the watchdog; the returned func ends it.
func watchOpaque(ls *lineState) func() {
	if ls == nil {
		return func() {}
	}
	run := &opaqueRun{ls: ls, heap0: liveHeap(false), accounted0: accounted.Load()}
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
	return func() {
		watchdog.mu.Lock()
		delete(watchdog.runs, run)
		watchdog.mu.Unlock()
	}
}

// watch samples the heap while opaque runs exist, then stops.
func watch() {
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	var lastGC time.Time
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

		heap := liveHeap(false)
		over := runs[:0]
		for _, r := range runs {
			if r.over(heap) {
				over = append(over, r)
			}
		}
		if len(over) == 0 {
			continue
		}
		// The heap counts garbage too: collect, then judge on what lives.
		if time.Since(lastGC) > 250*time.Millisecond {
			lastGC = time.Now()
			heap = liveHeap(true)
		}
		for _, r := range over {
			if r.over(heap) {
				r.ls.overMemory()
			}
		}
	}
}

// over reports whether the line, counting what the heap grew by beyond the
// accounts, holds more than its budget.
func (r *opaqueRun) over(heap int64) bool {
	return r.unexplained(heap)+r.ls.mem.Load() > r.ls.sh.limits.Memory
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
