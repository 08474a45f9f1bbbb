package policyrun

import (
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// threadClock reads the CPU time of the OS thread a call runs on, so a
// call is charged only for the time it actually ran (Linux: the thread's
// CPUCLOCK_SCHED clock, which any thread of the process may read). Reading
// a thread's clock is a system call that costs about a microsecond, too
// much for calls that take a few, so a call's clock is first read only
// once the call has run for an eighth of its time-out (mark): until then
// it cannot have used more than that.
type threadClock struct {
	clock  atomic.Int32  // the thread's clock id; 0 until the call started
	mark   time.Duration // the clock's first reading, once marked
	marked bool
}

// reset forgets the last call's thread.
func (c *threadClock) reset() { c.clock.Store(0); c.marked = false }

// begin is called on the call's goroutine, locked to its thread.
func (c *threadClock) begin() {
	// The per-thread CPU clock of tid, as pthread_getcpuclockid makes it:
	// ~tid << 3 | CPUCLOCK_PERTHREAD_MASK | CPUCLOCK_SCHED.
	c.clock.Store(int32(^uint32(syscall.Gettid())<<3 | 6))
}

// used is the CPU time the call has run for since it was marked, the first
// time used was asked; zero before the call started running, and elapsed
// (the wall time) where the clock cannot be read. Only the caller calls it.
func (c *threadClock) used(elapsed time.Duration) time.Duration {
	id := c.clock.Load()
	if id == 0 {
		return 0
	}
	now, ok := readClock(id)
	if !ok {
		return elapsed
	}
	if !c.marked {
		c.mark, c.marked = now, true
	}
	return now - c.mark
}

func readClock(id int32) (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(id), uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
