package vfs

import (
	"testing"
	"time"
)

// pace yields once an interval has passed since the last yield, and
// never twice within one interval, however many host operations a walk
// makes. Not parallel: it swaps the yield for a recorder.
func TestHostPaceYieldsOncePerInterval(t *testing.T) {
	var yields []time.Duration
	saved := paceYield
	paceYield = func() { yields = append(yields, time.Duration(paceLast.Load())) }
	defer func() { paceYield = saved }()

	// The last yield is (for the clock) still to come: no yield.
	paceLast.Store(int64(time.Since(paceEpoch) + time.Hour))
	for range 100 * paceEvery {
		pace()
	}
	if len(yields) != 0 {
		t.Fatalf("%d yields before the interval passed", len(yields))
	}
	// The last yield was long ago: one within paceEvery operations, then
	// one per interval at most.
	paceLast.Store(int64(time.Since(paceEpoch) - 2*paceInterval))
	for range paceEvery {
		pace()
	}
	if len(yields) != 1 {
		t.Fatalf("%d yields in the first %d operations after the interval", len(yields), paceEvery)
	}
	deadline := time.Now().Add(time.Second)
	for len(yields) < 4 && time.Now().Before(deadline) {
		pace()
	}
	if len(yields) < 2 {
		t.Fatalf("no yield in a second of operations")
	}
	for i := 1; i < len(yields); i++ {
		if gap := yields[i] - yields[i-1]; gap < paceInterval {
			t.Fatalf("yields %v apart, under the %v interval", gap, paceInterval)
		}
	}
}
