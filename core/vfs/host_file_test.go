package vfs

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A host file a caller never closes does not keep its descriptor for the
// life of the process: once the garbage collector finds it (and the other
// files allocated with it) unreachable, the descriptor is closed, as
// os.File's would be. Not parallel: other tests' open files share slabs.
func TestHostFileLeakedDescriptorIsClosed(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	fsys := hostVFS(t, false, MountSpec{Prefix: "/m", HostDir: dir}).View(OpenDoor)
	type opened struct {
		fd       int
		identity devIno
	}
	var leaked []opened
	for range 3 * slabFiles {
		f, err := fsys.Open("/m/f")
		if err != nil {
			t.Fatal(err)
		}
		hf := f.(*hostFile)
		var st unix.Stat_t
		if err := unix.Fstat(hf.fd, &st); err != nil {
			t.Fatal(err)
		}
		leaked = append(leaked, opened{hf.fd, identity(&st)})
	}
	// The first two slabs are unreachable now; the third is still being
	// filled. A descriptor counts as closed when its number is free or
	// now names another file.
	stillOpen := func() int {
		n := 0
		for _, o := range leaked[:2*slabFiles] {
			var st unix.Stat_t
			if unix.Fstat(o.fd, &st) == nil && identity(&st) == o.identity {
				n++
			}
		}
		return n
	}
	for deadline := time.Now().Add(10 * time.Second); stillOpen() > 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d leaked descriptors still open", stillOpen(), 2*slabFiles)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// A path too long for the stack buffer of the per-file lookups takes the
// library's way and still opens, stats and lists.
func TestHostLongPaths(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		dir := t.TempDir()
		long := strings.Repeat("d", 200)
		rel := filepath.Join(long, long, "file")
		if err := os.MkdirAll(filepath.Join(dir, long, long), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, rel), []byte("deep\n"), 0o644)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/m", HostDir: dir}).View(OpenDoor)
		for _, flag := range []int{os.O_RDONLY, os.O_RDONLY | OListedRegular} {
			f, err := fsys.OpenFile("/m/"+rel, flag, 0)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(f)
			f.Close()
			if string(b) != "deep\n" {
				t.Fatalf("read %q", b)
			}
		}
		if entries, err := fsys.ReadDirInfo("/m/" + filepath.Join(long, long)); err != nil || len(entries) != 1 {
			t.Fatalf("ReadDirInfo = %v, %v", entries, err)
		}
	})
}
