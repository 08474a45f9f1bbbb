package heapfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercentFor(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	for _, tc := range []struct {
		name              string
		floor, live, root uint64
		want              int
	}{
		{"small heap: the runtime's minimum reaches the floor", 16 * mib, 1 * mib, 1 * mib, 400},
		{"a heap a quarter of the floor", 16 * mib, 4 * mib, 4 * mib, 300},
		{"half the floor: the default already reaches it", 16 * mib, 8 * mib, 8 * mib, 100},
		{"over the floor: the default", 16 * mib, 40 * mib, 41 * mib, 100},
		{"stacks and globals count in the goal", 16 * mib, 4 * mib, 8 * mib, 150},
		{"no sample yet", 16 * mib, 0, 0, 100},
		{"an enormous floor is bounded", 1 << 40, 1 * mib, 1 * mib, maxPercent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := PercentFor(tc.floor, tc.live, tc.root); got != tc.want {
				t.Errorf("PercentFor(%d, %d, %d) = %d, want %d", tc.floor, tc.live, tc.root, got, tc.want)
			}
		})
	}
}

// sink keeps allocations from being optimised away.
var sink []byte

func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestKeep checks the mechanism in this process: with a 32 MiB floor the
// soft memory limit is capped at four times the floor while it holds, a
// small live heap churning 256 MiB of garbage is collected 6–11 times (at
// GOGC=100's 4 MiB goal, ~40), and once the live heap is large the goal is
// again about twice of it, not the floor's percentage times it, and the
// memory limit is what it was. (The goal
// of a small heap is not checked: what a cycle counts as live includes what
// was allocated while it marked, which a loop doing nothing but allocate
// makes large.)
func TestKeep(t *testing.T) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := os.LookupEnv(v); set {
			t.Skip(v + " is set: Keep leaves the operator's choice alone")
		}
	}
	const mib = 1 << 20
	debug.SetMemoryLimit(1 << 30)
	Keep(32 * mib)
	if got := debug.SetMemoryLimit(-1); got != capFactor*32*mib {
		t.Errorf("memory limit %d MiB while the floor holds, want %d MiB", got/mib, capFactor*32)
	}
	runtime.GC()
	before := gcCycles()
	for range 256 * 2048 {
		sink = make([]byte, 512)
	}
	if n := gcCycles() - before; n > 16 {
		t.Errorf("%d collections for 256 MiB of garbage over a small heap, want at most 16", n)
	}

	big := make([][]byte, 0, 128)
	for range 128 {
		big = append(big, make([]byte, 1*mib)) // 128 MiB live
	}
	for range 3 {
		runtime.GC()
		for range 16 * 2048 {
			sink = make([]byte, 512)
		}
		runtime.Gosched()
	}
	runtime.GC()
	runtime.Gosched()
	if g := heapGoal(); g > 320*mib {
		t.Errorf("heap goal %d MiB with 128 MiB live, want about twice the live heap", g/mib)
	}
	// The cleanup that lowered the percentage gives the limit back.
	for deadline := time.Now().Add(10 * time.Second); debug.SetMemoryLimit(-1) != 1<<30; runtime.GC() {
		if time.Now().After(deadline) {
			t.Fatalf("memory limit %d MiB with 128 MiB live, want the 1024 MiB it was", debug.SetMemoryLimit(-1)/mib)
		}
	}
	runtime.KeepAlive(big)
}
