package core_test

import (
	"context"
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

// BenchmarkDurableLine measures what keeping memory mounts in the ledger
// (G-5.6) adds to a line: "read" runs a line that changes no file (one
// read of the ledger's mount state before it), "write" one that writes a
// file (that read and a save after it), each against the same line with
// the mounts not kept. docs/PERFORMANCE.md quotes the ratios.
func BenchmarkDurableLine(b *testing.B) {
	for _, durable := range []bool{false, true} {
		for _, line := range []struct{ name, text string }{{"read", "echo hi"}, {"write", "echo hi > notes.md"}} {
			name := line.name + "/ephemeral"
			if durable {
				name = line.name + "/durable"
			}
			b.Run(name, func(b *testing.B) {
				opts := []core.Option{core.WithLedger(b.TempDir() + "/ledger.db"),
					core.WithProfiles(gate.ProfileSpec{Name: "worker", Cwd: "/work"})}
				if durable {
					opts = append(opts, core.WithDurableMounts("bench"))
				}
				ws, err := core.NewWorkspace([]vfs.MountSpec{{Prefix: "/work", Files: map[string]string{"notes.md": "TODO\n"}}}, opts...)
				if err != nil {
					b.Fatal(err)
				}
				defer ws.Close()
				s, err := ws.CreateSession("agent", core.Profile("worker"))
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if res := s.Execute(ctx, line.text); res.ExitCode != 0 {
						b.Fatalf("%+v", res)
					}
				}
			})
		}
	}
}
