package core_test

import (
	"runtime"
	"testing"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// BenchmarkCreateSession measures starting an agent's session: the ledger
// row and the shell. It also reports the heap each created session keeps
// (G-14: an idle session must stay under 100 KiB).
func BenchmarkCreateSession(b *testing.B) {
	ws, err := core.NewWorkspace([]vfs.MountSpec{
		{Prefix: "/work", Files: map[string]string{"notes.md": "TODO\n"}},
	}, core.WithProfiles(gate.ProfileSpec{
		Name:  "worker",
		Cwd:   "/work",
		Allow: []string{"echo", "cat", "ls", "grep", "rm"},
		Ask:   []gate.Rule{{Reason: "removal needs sign-off", Commands: []string{"rm"}}},
	}))
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	before := heapInUse()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if _, err := ws.CreateSession("agent", core.Profile("worker")); err != nil {
			b.Fatal(err)
		}
		n++
	}
	// The workspace keeps every session it created, so what the heap grew
	// by is what the sessions hold while idle.
	b.ReportMetric(float64(heapInUse()-before)/float64(n), "heap-B/session")
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}
