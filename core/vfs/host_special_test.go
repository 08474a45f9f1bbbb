package vfs

import (
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// G-5.6: a host mount never opens a FIFO, a socket or a device node. Each
// fails like an unreadable file (EACCES) for every kind of open, through a
// link too, and stays listed with its type and stat'able.
func TestHostSpecialFilesAreNeverOpened_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo")
		if err := unix.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("unix", filepath.Join(dir, "sock"))
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		specials := []string{"/m/fifo", "/m/sock"}
		// Device nodes need privileges; test them where they can be made.
		if unix.Mknod(filepath.Join(dir, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))) == nil {
			specials = append(specials, "/m/null")
		}
		os.Symlink("fifo", filepath.Join(dir, "to-fifo"))
		specials = append(specials, "/m/to-fifo")

		fsys := hostVFS(t, walk, MountSpec{Prefix: "/m", HostDir: dir}).View(OpenDoor)
		for _, p := range specials {
			for _, flag := range []int{os.O_RDONLY, os.O_RDONLY | OListedRegular, os.O_WRONLY, os.O_RDWR,
				os.O_WRONLY | os.O_CREATE | os.O_TRUNC, os.O_WRONLY | os.O_APPEND} {
				f, err := fsys.OpenFile(p, flag, 0o666)
				if err == nil {
					f.Close()
				}
				if flag&OListedRegular != 0 && p == "/m/fifo" {
					// The listing-said-regular shortcut may open what a
					// host process swapped in; it must still refuse it.
					if err == nil {
						t.Fatalf("open %s with OListedRegular succeeded", p)
					}
					continue
				}
				if errnoOf(err) != syscall.EACCES {
					t.Fatalf("open %s flag %#x = %v, want EACCES", p, flag, err)
				}
			}
			if _, err := fsys.Stat(p); err != nil {
				t.Fatalf("stat %s = %v; special files keep their metadata", p, err)
			}
		}
		entries, err := fsys.ReadDir("/m")
		if err != nil {
			t.Fatal(err)
		}
		types := map[string]fs.FileMode{}
		for _, e := range entries {
			types[e.Name()] = e.Type()
		}
		if types["fifo"] != fs.ModeNamedPipe || types["sock"] != fs.ModeSocket {
			t.Fatalf("listing types = %v; want the FIFO and the socket listed as such", types)
		}
	})
}

// The plain opens above must leave a blocked FIFO writer asleep: this test
// does only those, then checks the writer is still waiting.
func TestHostFIFOWriterIsNeverWoken_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo")
		if err := unix.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		woken := make(chan struct{})
		go func() {
			if fd, err := unix.Open(fifo, unix.O_WRONLY|unix.O_CLOEXEC, 0); err == nil {
				unix.Close(fd)
			}
			close(woken)
		}()
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/m", HostDir: dir}).View(OpenDoor)
		for range 100 {
			for _, flag := range []int{os.O_RDONLY, os.O_RDWR, os.O_WRONLY | os.O_TRUNC} {
				if f, err := fsys.OpenFile("/m/fifo", flag, 0); err == nil {
					f.Close()
					t.Fatalf("opened the FIFO with flag %#x", flag)
				}
			}
			fsys.ReadDir("/m")
			fsys.Stat("/m/fifo")
		}
		select {
		case <-woken:
			t.Fatal("a writer blocked on the FIFO was woken: something opened it for reading")
		case <-time.After(50 * time.Millisecond):
		}
		// Let the writer go.
		if fd, err := unix.Open(fifo, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0); err == nil {
			<-woken
			unix.Close(fd)
		}
	})
}
