package git_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// benchFiles is the size of the benchmark repository (G-14): 100
// directories of 100 small files, 10 of them then changed in the worktree.
const benchFiles = 10000

// BenchTree returns the benchmark repository's files: path -> content.
func benchTree(n int) map[string]string {
	files := make(map[string]string, n+1)
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("d%03d/f%05d.txt", i/100, i)] = fmt.Sprintf("line one of %d\nline two\nline three\n", i)
	}
	for k, v := range seedConfig {
		files[k] = v
	}
	return files
}

// benchSession makes a workspace whose /w holds the benchmark repository,
// committed, with ten files changed, on a memory or a host mount.
func benchSession(b *testing.B, host bool) *core.Session {
	b.Helper()
	files := benchTree(benchFiles)
	spec := vfs.MountSpec{Prefix: "/w", Files: files}
	if host {
		dir := b.TempDir()
		if shm, err := os.MkdirTemp("/dev/shm", "gitbench-"); err == nil {
			dir = shm
			b.Cleanup(func() { os.RemoveAll(shm) })
		}
		for p, c := range files {
			full := filepath.Join(dir, p)
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		spec = vfs.MountSpec{Prefix: "/w", HostDir: dir}
	}
	p := gate.ProfileSpec{Name: "b", Cwd: "/w", Env: map[string]string{"HOME": "/w", "TZ": "UTC"}}
	ws, err := core.NewWorkspace([]vfs.MountSpec{spec}, core.WithProfiles(p))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("b", core.Profile("b"))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res := s.Execute(ctx, gitEnv+"git init -q && git add -A && git commit -q -m one && for i in 0 1000 2000 3000 4000 5000 6000 7000 8000 9000; do d=$((i/100)); printf -v f 'd%03d/f%05d.txt' $d $i; echo more >> $f; done")
	if res.ExitCode != 0 {
		b.Fatalf("setting up: %d %s", res.ExitCode, res.Stderr)
	}
	return s
}

// realRepo writes the benchmark repository on tmpfs with the host's git,
// which must be installed; "" when it is not.
func realRepo(b *testing.B) string {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		return ""
	}
	dir, err := os.MkdirTemp("/dev/shm", "realgit-")
	if err != nil {
		dir = b.TempDir()
	} else {
		b.Cleanup(func() { os.RemoveAll(dir) })
	}
	for p, c := range benchTree(benchFiles) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	setup := "git init -q && git add -A && git commit -q -m one && for i in 0 1000 2000 3000 4000 5000 6000 7000 8000 9000; do f=$(printf 'd%03d/f%05d.txt' $((i/100)) $i); echo more >> $f; done && git status >/dev/null"
	cmd := exec.Command("bash", "-c", setup)
	cmd.Dir, cmd.Env = dir, realEnv(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("real git setup: %v\n%s", err, out)
	}
	return dir
}

func realEnv(dir string) []string {
	return []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "LC_ALL=C", "GIT_CONFIG_NOSYSTEM=1"}
}

// BenchmarkGit10k times git status and git diff --stat on a 10,000-file
// repository with ten changed files, on a memory and a host mount (on
// tmpfs), each iteration also running the host's real git on the same
// tree on tmpfs, so both meet the same load: gatehouse-ms and git-ms are
// the two mean wall times, ratio their quotient (target ≤ 3, G-14). Real
// git pays for its process start, gatehouse does not (a line of a running
// session).
func BenchmarkGit10k(b *testing.B) {
	for _, mount := range []string{"memory", "host"} {
		for _, line := range []string{"git status", "git diff --stat"} {
			b.Run(mount+"/"+line, func(b *testing.B) {
				s := benchSession(b, mount == "host")
				real := realRepo(b)
				ctx := context.Background()
				var ours, theirs time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					start := time.Now()
					res := s.Execute(ctx, line+" >/dev/null")
					ours += time.Since(start)
					if res.ExitCode != 0 {
						b.Fatalf("%s: %d %s", line, res.ExitCode, res.Stderr)
					}
					if real == "" {
						continue
					}
					cmd := exec.Command("git", strings.Fields(line)[1:]...)
					cmd.Dir, cmd.Env = real, realEnv(real)
					start = time.Now()
					if err := cmd.Run(); err != nil {
						b.Fatalf("real %s: %v", line, err)
					}
					theirs += time.Since(start)
				}
				b.ReportMetric(float64(ours.Microseconds())/1000/float64(b.N), "gatehouse-ms")
				if real != "" {
					b.ReportMetric(float64(theirs.Microseconds())/1000/float64(b.N), "git-ms")
					b.ReportMetric(float64(ours)/float64(theirs), "ratio")
				}
			})
		}
	}
}
