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

// A read that stops short at the size the file had when it was opened
// reached the end: the next read says io.EOF without asking the kernel
// (one read(2) per small file, not two). Data appended afterwards is read
// by the read after that one, and a file that grew before its first read
// is read whole. A write of this process's own (a loop appending to the
// file it reads) is always seen by the next read.
func TestHostFileEndOfFileWithoutASecondRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	host := filepath.Join(dir, "f")
	os.WriteFile(host, []byte("hello"), 0o644)
	other := filepath.Join(dir, "other")
	os.WriteFile(other, []byte("X"), 0o644)
	fsys := hostVFS(t, false, MountSpec{Prefix: "/m", HostDir: dir}).View(OpenDoor)
	read := func(f interface{ Read([]byte) (int, error) }) (string, error) {
		buf := make([]byte, 64)
		n, err := f.Read(buf)
		return string(buf[:n]), err
	}

	f, err := fsys.Open("/m/f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, err := read(f); got != "hello" || err != nil {
		t.Fatalf("first read = %q, %v", got, err)
	}
	// The descriptor now reads another file: a read(2) would say "X".
	hf := f.(*hostFile)
	saved, err := unix.Dup(hf.fd)
	if err != nil {
		t.Fatal(err)
	}
	o, err := os.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	unix.Dup3(int(o.Fd()), hf.fd, unix.O_CLOEXEC)
	o.Close()
	if got, err := read(f); got != "" || err != io.EOF {
		t.Fatalf("read at the end = %q, %v; want io.EOF without a read(2)", got, err)
	}
	unix.Dup3(saved, hf.fd, unix.O_CLOEXEC)
	unix.Close(saved)

	appendHost := func(s string) {
		a, err := os.OpenFile(host, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		a.WriteString(s)
		a.Close()
	}
	appendHost(" world")
	if got, err := read(f); got != " world" || err != nil {
		t.Fatalf("read after an append = %q, %v", got, err)
	}
	if got, err := read(f); got != "" || err != io.EOF {
		t.Fatalf("read at the new end = %q, %v", got, err)
	}

	// A write of this process's own, through another handle, comes
	// before the next read: that read asks the kernel and sees it.
	h, err := fsys.Open("/m/f")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got, err := read(h); got != "hello world" || err != nil {
		t.Fatalf("read of a new handle = %q, %v", got, err)
	}
	w, err := fsys.OpenFile("/m/f", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("?"))
	w.Close()
	if got, err := read(h); got != "?" || err != nil {
		t.Fatalf("read after this process appended = %q, %v", got, err)
	}

	g, err := fsys.Open("/m/f")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	appendHost("!")
	if b, err := io.ReadAll(g); string(b) != "hello world?!" || err != nil {
		t.Fatalf("a file that grew after open read %q, %v", b, err)
	}
}
