package core

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"

	"golang.org/x/sys/unix"
)

var hostRaceFor = flag.Duration("hostrace", 300*time.Millisecond,
	"how long TestHostRaceThroughTheShell swaps directories and links under the lines (CI runs it longer)")

// Gate-integrity class 9 through the shell (G-5.6): while a host process
// exchanges public directories with links into a hidden subtree and out of
// the mount (renameat2 RENAME_EXCHANGE), moves a directory out of the root
// and back, and flips a link, sessions run cat, grep -r, find -exec and
// ls -lR over the tree again and again. No line ever prints a byte of a
// hidden or outside file, nor its size.
func TestHostRaceThroughTheShell_G5_6(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	const secret, outside = "HIDDEN-SECRET", "OUTSIDE-SECRET"
	write := func(p, body string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"pub/sw", "pub/sw2", "pub/mv"} {
		write(filepath.Join(root, d, "f.txt"), "public\n")
		write(filepath.Join(root, d, "sub/g.txt"), "public too\n")
	}
	// Protected files are 4321 bytes long, a size no public file has.
	pad := func(mark string) string { return mark + strings.Repeat(".", 4321-len(mark)) }
	write(filepath.Join(root, "hidden/f.txt"), pad(secret))
	write(filepath.Join(root, "hidden/sub/g.txt"), pad(secret))
	write(filepath.Join(base, "outside/f.txt"), pad(outside))
	write(filepath.Join(base, "outside/sub/g.txt"), pad(outside))
	os.MkdirAll(filepath.Join(base, "parking"), 0o755)
	for link, target := range map[string]string{"pub/swl": "../hidden", "pub/swa": filepath.Join(base, "outside"), "pub/flip": "sw/f.txt"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}

	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/m", HostDir: root}},
		WithProfiles(gate.ProfileSpec{Name: "agent", Hide: []gate.PathGroup{{Paths: []string{"/m/hidden"}}}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	swaps := 0
	wg.Go(func() {
		p := func(rel string) string { return filepath.Join(root, rel) }
		exchange := func(a, b string) { unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE) }
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			exchange(p("pub/sw"), p("pub/swl"))
			exchange(p("pub/sw2"), p("pub/swa"))
			os.Rename(p("pub/mv"), filepath.Join(base, "parking/mv"))
			tmp := p("pub/.flip")
			os.Remove(tmp)
			os.Symlink([]string{"../hidden/f.txt", "sw/f.txt"}[i%2], tmp)
			os.Rename(tmp, p("pub/flip"))
			exchange(p("pub/sw"), p("pub/swl"))
			os.Rename(filepath.Join(base, "parking/mv"), p("pub/mv"))
			exchange(p("pub/sw2"), p("pub/swa"))
			swaps++
		}
	})
	lines := []string{
		"cat /m/pub/sw/f.txt /m/pub/sw/sub/g.txt /m/pub/sw2/f.txt /m/pub/flip /m/pub/swl/f.txt /m/pub/swa/f.txt",
		"grep -r . /m/pub",
		"grep -R . /m/pub",
		"find /m/pub -type f -exec cat {} +",
		"find -L /m/pub -name '*.txt' -exec wc -c {} +",
		"ls -lR /m/pub; ls -lRL /m/pub",
		"cd /m/pub/sw && cat f.txt sub/g.txt; cd /m/pub/mv/sub && cat g.txt ../f.txt",
		"cp -r /m/pub /tmp/c 2>/dev/null; cat /tmp/c/*/* /tmp/c/*/*/*; rm -rf /tmp/c",
		"du -ab /m/pub; stat -c '%n %s' /m/pub/sw/f.txt /m/pub/flip",
	}
	deadline := time.Now().Add(*hostRaceFor)
	var runs atomic.Int64
	for _, profile := range []string{"", "agent"} {
		var opts []SessionOption
		if profile != "" {
			opts = append(opts, Profile(profile))
		}
		s, err := ws.CreateSession("racer", opts...)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for time.Now().Before(deadline) && !t.Failed() {
				for _, line := range lines {
					// /tmp is one memory mount for the whole workspace: each
					// session copies into its own directory, or the agent would
					// read what the unprofiled session may copy.
					line = strings.ReplaceAll(line, "/tmp/c", "/tmp/c-"+profile)
					res := s.Execute(context.Background(), line)
					out := []byte(res.Stdout + res.Stderr)
					if profile != "" && (bytes.Contains(out, []byte(secret)) || bytes.Contains(out, []byte("4321"))) {
						t.Errorf("%q printed hidden content:\n%.300s", line, out)
					}
					if bytes.Contains(out, []byte("internal error")) {
						t.Errorf("%q failed inside gatehouse:\n%.300s", line, out)
					}
					if bytes.Contains(out, []byte(outside)) {
						t.Errorf("%q printed content from outside the mount:\n%.300s", line, out)
					}
					runs.Add(1)
				}
			}
		})
	}
	time.Sleep(time.Until(deadline))
	close(stop)
	wg.Wait()
	t.Logf("%d swap rounds against %d lines", swaps, runs.Load())
}
