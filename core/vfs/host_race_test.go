package vfs

import (
	"bytes"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

var hostRaceFor = flag.Duration("hostrace", 300*time.Millisecond,
	"how long TestHostRaceNeverLeaks swaps directories and links under the readers (CI runs it longer)")

// Markers in content no read may ever return, and sizes no stat may ever
// report: the hidden directory's files and the files outside the mount.
const (
	secretMark  = "HIDDEN-SECRET"
	outsideMark = "OUTSIDE-SECRET"
	secretSize  = 4321
	outsideSize = 4322
)

func padded(mark string, size int) []byte {
	return append([]byte(mark), bytes.Repeat([]byte{'.'}, size-len(mark))...)
}

// raceTree lays out the mount root with a public tree, a hidden tree whose
// files have the same names, and an outside tree beside the root:
//
//	root/pub/sw/f.txt, sw/sub/g.txt   public; swapped with swl -> ../hidden
//	root/pub/sw2/f.txt                public; swapped with swa -> base/outside
//	root/pub/mv/f.txt                 public; moved out of the root and back
//	root/pub/flip                     a link flipped between ../hidden/f.txt and sw/f.txt
//	root/hidden/f.txt, sub/g.txt      hidden by the door
//	base/outside/f.txt, sub/g.txt     outside the mount
func raceTree(t *testing.T) (base, root string) {
	t.Helper()
	base = t.TempDir()
	root = filepath.Join(base, "root")
	write := func(p string, body []byte) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"pub/sw", "pub/sw2", "pub/mv"} {
		write(filepath.Join(root, d, "f.txt"), []byte("public\n"))
		write(filepath.Join(root, d, "sub/g.txt"), []byte("public too\n"))
	}
	for _, d := range []string{filepath.Join(root, "hidden"), filepath.Join(base, "outside")} {
		mark, size := secretMark, secretSize
		if strings.HasSuffix(d, "outside") {
			mark, size = outsideMark, outsideSize
		}
		write(filepath.Join(d, "f.txt"), padded(mark, size))
		write(filepath.Join(d, "sub/g.txt"), padded(mark, size))
	}
	os.MkdirAll(filepath.Join(base, "parking"), 0o755)
	for link, target := range map[string]string{
		"pub/swl":  "../hidden",
		"pub/swa":  filepath.Join(base, "outside"),
		"pub/flip": "sw/f.txt",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return base, root
}

// swapper changes the tree as a host process would, as fast as it can,
// until stop is closed: directories exchanged with links into the hidden
// tree and out of the mount (renameat2 RENAME_EXCHANGE), a directory moved
// out of the root and back, and a link flipped between two targets.
func swapper(t *testing.T, base, root string, stop <-chan struct{}, rounds *atomic.Int64) {
	p := func(rel string) string { return filepath.Join(root, rel) }
	exchange := func(a, b string) {
		if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
			t.Errorf("exchange %s %s: %v", a, b, err)
		}
	}
	flipTargets := []string{"../hidden/f.txt", "sw/f.txt"}
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		exchange(p("pub/sw"), p("pub/swl"))
		exchange(p("pub/sw2"), p("pub/swa"))
		os.Rename(p("pub/mv"), filepath.Join(base, "parking/mv"))
		tmp := p("pub/.flip-tmp")
		os.Remove(tmp)
		os.Symlink(flipTargets[i%2], tmp)
		os.Rename(tmp, p("pub/flip"))
		exchange(p("pub/sw"), p("pub/swl"))
		os.Rename(filepath.Join(base, "parking/mv"), p("pub/mv"))
		exchange(p("pub/sw2"), p("pub/swa"))
		rounds.Add(1)
	}
}

// G-5.6, gate-integrity class 9: a host process that swaps directories
// with links into hidden and outside places, moves directories out of the
// root and flips links while readers cat, walk (grep -r, find -exec), list
// with metadata (ls -lR) and read links, never makes a reader see a byte
// or a size of a hidden or outside file.
func TestHostRaceNeverLeaks_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		base, root := raceTree(t)
		door := &ruleDoor{hidden: []string{"/m/hidden"}}
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/m", HostDir: root}).View(DoorFunc(func(op Op) error {
			return door.CheckOp(op)
		}))
		stop := make(chan struct{})
		var rounds, reads atomic.Int64
		var wg sync.WaitGroup
		wg.Go(func() { swapper(t, base, root, stop, &rounds) })
		leak := func(what string, b []byte) {
			if bytes.Contains(b, []byte(secretMark)) || bytes.Contains(b, []byte(outsideMark)) {
				t.Errorf("%s returned protected content %.20q", what, b)
			}
		}
		checkInfo := func(what string, fi fs.FileInfo) {
			if fi != nil && (fi.Size() == secretSize || fi.Size() == outsideSize) {
				t.Errorf("%s reported the size of a protected file", what)
			}
		}
		readers := []func(){
			func() { // cat
				for _, name := range []string{"/m/pub/sw/f.txt", "/m/pub/sw/sub/g.txt", "/m/pub/sw2/f.txt", "/m/pub/mv/sub/g.txt", "/m/pub/flip"} {
					got, _ := readAll(fsys, name)
					leak("cat "+name, []byte(got))
					fi, _ := fsys.Stat(name)
					checkInfo("stat "+name, fi)
					reads.Add(1)
				}
			},
			func() { raceWalk(fsys, "/m/pub", leak, checkInfo, &reads) }, // grep -r, find -exec, ls -lR
		}
		deadline := time.Now().Add(*hostRaceFor)
		for _, read := range readers {
			wg.Go(func() {
				for time.Now().Before(deadline) && !t.Failed() {
					read()
				}
			})
		}
		time.Sleep(time.Until(deadline))
		close(stop)
		wg.Wait()
		if rounds.Load() == 0 || reads.Load() == 0 {
			t.Fatalf("no race: %d swaps, %d reads", rounds.Load(), reads.Load())
		}
		t.Logf("%d swap rounds against %d reads", rounds.Load(), reads.Load())
	})
}

// raceWalk lists dir recursively as grep -r and ls -lR do: every regular
// entry opened with the listing's word (OListedRegular) and read, every
// entry's metadata taken, every link read and followed.
func raceWalk(fsys FS, dir string, leak func(string, []byte), checkInfo func(string, fs.FileInfo), reads *atomic.Int64) {
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := dir + "/" + e.Name()
		fi, _ := e.Info()
		checkInfo("info "+p, fi)
		switch {
		case e.Type().IsDir():
			raceWalk(fsys, p, leak, checkInfo, reads)
		case e.Type().IsRegular():
			if f, err := fsys.OpenFile(p, os.O_RDONLY|OListedRegular, 0); err == nil {
				b, _ := io.ReadAll(f)
				fi, _ := f.Stat()
				f.Close()
				leak("read "+p, b)
				checkInfo("fstat "+p, fi)
			}
		case e.Type()&fs.ModeSymlink != 0:
			fsys.Readlink(p)
			fi, _ := fsys.Stat(p)
			checkInfo("stat "+p, fi)
			if got, err := readAll(fsys, p); err == nil {
				leak("cat "+p, []byte(got))
			}
		}
		reads.Add(1)
	}
}
