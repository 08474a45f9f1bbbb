package shell_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"gatehouse/core"
	"gatehouse/core/vfs"
)

// fillLines are loops that grow one variable a step at a time, the way
// scripts collect results: %d is the number of steps.
var fillLines = []struct{ name, line string }{
	{"assoc element", `declare -A m; for i in $(seq %d); do m[k$i]=$i; done; echo ${#m[@]}`},
	{"indexed element", `a=(); for i in $(seq %d); do a[i]=$i; done; echo ${#a[@]}`},
	{"sparse element", `a=(); for i in $(seq %d); do a[i*2]=$i; done; echo ${#a[@]}`},
	{"indexed append", `a=(); for i in $(seq %d); do a+=($i); done; echo ${#a[@]}`},
	{"arithmetic element", `declare -A c; for i in $(seq %d); do ((c[k$i]++)); done; echo ${#c[@]}`},
	{"string append", `s=; for i in $(seq %d); do s+=x$i; done; echo ${#s}`},
}

func fillSession(tb testing.TB) *core.Session {
	tb.Helper()
	ws, err := core.NewWorkspace([]vfs.MountSpec{{Prefix: "/w"}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("fill")
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// allocated runs line in s and returns the bytes the process allocated
// meanwhile.
func allocated(t *testing.T, s *core.Session, line string) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := s.Execute(context.Background(), line)
	runtime.ReadMemStats(&after)
	if res.ExitCode != 0 {
		t.Fatalf("%s: exit %d, stderr %q", line, res.ExitCode, res.Stderr)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// An element write, an append to an array and an append to a string
// change the variable where it is, in time and memory that do not grow
// with the variable (G-12.3): twice the steps allocate about twice as
// much, where copying the value at every step allocates four times as
// much. The test measures bytes, not time, and runs alone (not in
// parallel) so that other tests' allocations do not count.
func TestFillingAVariableDoesNotCopyIt(t *testing.T) {
	for _, tc := range fillLines {
		t.Run(tc.name, func(t *testing.T) {
			s := fillSession(t)
			const n = 4000
			allocated(t, s, fmt.Sprintf(tc.line, 10)) // warm up the session
			small := allocated(t, s, fmt.Sprintf(tc.line, n))
			large := allocated(t, s, fmt.Sprintf(tc.line, 2*n))
			ratio := float64(large) / float64(small)
			t.Logf("%d steps: %d bytes; %d steps: %d bytes (%.2f)", n, small, 2*n, large, ratio)
			if ratio > 3 {
				t.Errorf("%d steps allocated %d bytes, %d steps %d: %.1f times as much", n, small, 2*n, large, ratio)
			}
		})
	}
}

// BenchmarkFillVariable fills a variable 20,000 steps at a time, one line
// per iteration (bash takes about 50 ms for the associative array).
func BenchmarkFillVariable(b *testing.B) {
	for _, tc := range fillLines {
		b.Run(strings.ReplaceAll(tc.name, " ", "-"), func(b *testing.B) {
			s := fillSession(b)
			line := fmt.Sprintf(tc.line, 20000)
			b.ReportAllocs()
			for b.Loop() {
				if res := s.Execute(context.Background(), line); res.ExitCode != 0 {
					b.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
				}
			}
		})
	}
}
