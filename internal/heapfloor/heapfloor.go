// Package heapfloor keeps the Go collector from running while the heap is
// small. By default the collector aims at twice the live heap but never
// under 4 MiB, so a short process that walks a large tree with a live heap
// of 1–2 MiB collects every 2–3 MiB it allocates: dozens of cycles, each
// waking the idle processors' mark workers, whose CPU a whole-process
// measure counts. Keep raises that floor while leaving the collector's
// behaviour for larger heaps as it was: the goal is the larger of the floor
// and what GOGC=100 would give, and the soft memory limit still bounds it.
//
// The percentage is set after each cycle, once its garbage is swept, so a
// heap that outgrows the floor within one cycle would be given its next
// goal at the raised percentage (five times the heap for a 16 MiB floor).
// While the percentage is raised, Keep therefore also holds the soft
// memory limit at capFactor times the floor (or lower, if it was lower):
// a heap growing fast past the floor is collected there, and the limit
// goes back to what it was as soon as the percentage is back at 100.
package heapfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// defaultMinimum is the runtime's own floor at GOGC=100 (4 MiB, scaled by
// GOGC/100: the runtime's heapMinimum).
const defaultMinimum = 4 << 20

// maxPercent bounds the percentage Keep sets, whatever the floor.
const maxPercent = 10_000

// capFactor times the floor is the soft memory limit while the percentage
// is raised: room for the floor's goal, its stacks and the runtime's own
// memory, and far under the five times a fast-growing heap would get.
const capFactor = 4

var (
	once    sync.Once
	floor   uint64
	current int   // the percentage last set
	limit   int64 // the soft memory limit Keep found, restored at 100 %
	samples = []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/scan/stack:bytes"},
		{Name: "/gc/scan/globals:bytes"},
	}
)

// Keep holds the collector's heap goal at floor bytes or more for the rest
// of the process, unless the operator chose a policy through GOGC or
// GOMEMLIMIT. It is meant for a process that runs one line and exits
// (gatehouse exec), called after any soft memory limit it sets, which
// Keep lowers only for a while (see the package comment); the first call
// wins.
func Keep(bytes uint64) {
	_, gogc := os.LookupEnv("GOGC")
	_, memlimit := os.LookupEnv("GOMEMLIMIT")
	if gogc || memlimit || bytes <= defaultMinimum {
		return
	}
	once.Do(func() {
		floor = bytes
		limit = debug.SetMemoryLimit(-1)
		// Until the first cycle the runtime's goal is its minimum, which
		// scales with the percentage.
		set(clampPercent(floor * 100 / defaultMinimum))
		arm()
	})
}

// set applies a percentage, and the memory limit that goes with it.
func set(pct int) {
	current = pct
	if pct > 100 {
		debug.SetMemoryLimit(min(limit, int64(capFactor*floor)))
	}
	debug.SetGCPercent(pct)
	if pct <= 100 {
		debug.SetMemoryLimit(limit)
	}
}

// arm registers a cleanup on a fresh object: it runs once a collection has
// found the object unreachable, that is after each cycle, and re-arms.
func arm() {
	sentinel := new([32]byte) // not a tiny object: those may never be collected alone
	runtime.AddCleanup(sentinel, func(struct{}) { adjust(); arm() }, struct{}{})
}

// adjust sets the percentage for the live heap the last cycle found.
func adjust() {
	metrics.Read(samples)
	var live, roots uint64
	for i, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return
		}
		if i == 0 {
			live = s.Value.Uint64()
		}
		roots += s.Value.Uint64()
	}
	if pct := PercentFor(floor, live, roots); pct != current {
		set(pct)
	}
}

// PercentFor is the GOGC percentage that makes the collector's goal about
// floor for a heap of live bytes whose scannable roots (live heap, stacks,
// globals) total roots: never under 100 (the default, so large heaps are
// collected as usual), and never so high that the runtime's minimum,
// which grows with the percentage, overshoots the floor.
func PercentFor(floor, live, roots uint64) int {
	if roots == 0 || live >= floor {
		return 100
	}
	// The runtime's goal is live + roots*GOGC/100, and at least its minimum.
	pct := (floor - live) * 100 / roots
	pct = min(pct, floor*100/defaultMinimum)
	return clampPercent(pct)
}

func clampPercent(p uint64) int {
	return int(max(100, min(p, maxPercent)))
}
