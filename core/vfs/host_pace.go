package vfs

import (
	"runtime"
	"sync/atomic"
	"time"
)

// paceEvery is how often (in host operations) pace looks at the clock,
// and paceInterval how long a walk may keep its processor between yields:
// well under the runtime's 10 ms, even for a walk that lists large
// directories, and rare enough that the idle processor each yield wakes
// costs less than what it saves.
const (
	paceEvery    = 16
	paceInterval = 4 * time.Millisecond
)

var (
	paceOps   atomic.Uint32
	paceLast  atomic.Int64 // nanoseconds since paceEpoch of the last yield
	paceEpoch = time.Now()
	// paceYield gives up the processor; tests count the calls.
	paceYield = runtime.Gosched
)

// pace makes a long walk over a host mount yield its processor every few
// milliseconds, at a moment of its choosing. The runtime preempts a
// goroutine that has run for 10 ms, and when it finds it in a syscall, as
// a walk mostly is, it takes its processor away; having done so, its
// monitor thread goes back to waking every 20 µs for the next millisecond.
// A grep -r of 20,000 files paid ~360 such wake-ups (timers, interrupts
// and context switches, most on its own CPU; ~3,000 for 100,000 files)
// against ~100 when it yields first. Listing a directory and opening a
// file to read are the operations that pace.
func pace() {
	if paceOps.Add(1)%paceEvery != 0 {
		return
	}
	now := int64(time.Since(paceEpoch))
	if now-paceLast.Load() < int64(paceInterval) {
		return
	}
	paceLast.Store(now)
	paceYield()
}
