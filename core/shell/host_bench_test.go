package shell_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/core"
	"gatehouse/core/vfs"
)

// hostBenchTree is the directory BenchmarkHostMountLines mounts: the
// GATEHOUSE_BENCH_TREE environment variable (a tree written by `ghbench
// tree`, for the figures of docs/PERFORMANCE.md) or, without it, 2,000 small
// files written under the benchmark's temporary directory.
func hostBenchTree(b *testing.B) string {
	if dir := os.Getenv("GATEHOUSE_BENCH_TREE"); dir != "" {
		return dir
	}
	dir := b.TempDir()
	for i := range 2000 {
		name := filepath.Join(dir, "tree", fmt.Sprintf("d%02d", i/200), fmt.Sprintf("s%d", i/100%2), fmt.Sprintf("f%05d.txt", i))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		body := fmt.Sprintf("package p%d\n\nimport \"fmt\"\nfunc f() { fmt.Println(%d) }\n", i, i)
		if i%10 == 0 {
			body += "// TODO: check\n"
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkHostMountLines runs the host-mount lines of bench/compare.sh in
// one process over a host mount, so that the Go side of the walk (the
// backend, the door, the utilities, the collector) can be profiled with
// -cpuprofile and -memprofile without process start-up (issue 18's
// whole-process figures come from `ghbench hostmount`).
func BenchmarkHostMountLines(b *testing.B) {
	tree := hostBenchTree(b)
	ws, err := core.NewWorkspace([]vfs.MountSpec{{Prefix: "/w", HostDir: tree}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ws.Close() })
	for _, line := range []string{
		"find -type f | wc -l",
		"find -type f | xargs grep -l TODO | wc -l",
		"grep -rl TODO | wc -l",
		"ls -lR | wc -l",
	} {
		b.Run(line, func(b *testing.B) {
			s, err := ws.CreateSession("bench")
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if res := s.Execute(ctx, "cd /w && "+line); res.ExitCode != 0 || res.Stderr != "" {
					b.Fatalf("%s: %+v", line, res)
				}
			}
		})
	}
}
