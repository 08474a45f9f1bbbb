package vfs_test

// FuzzResolve: any path, however spelled (.., //, ., links,
// loops, links into a hidden region, links out of a host directory), either
// resolves to a clean path inside the mount table, outside every hidden
// region, or fails with ENOENT, ELOOP, ENOTDIR or EINVAL; no operation
// panics, and no error ever carries a host path or a host error's text
// (G-5.6, G-6.1a, G-12.1).

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"gatehouse/core/vfs"
)

// fuzzHidden is the region the fuzz door hides, as a profile's hide would.
const fuzzHidden = "/mem/hidden"

func fuzzWithin(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// fuzzTable builds the mount table: a memory mount full of links, a host
// directory with links that lead out of it, a read-only mount, and a mount
// below a synthetic directory. It returns the table and the host directory
// that holds the host mount's directory and its outside neighbour.
func fuzzTable(tb testing.TB) (*vfs.VFS, string) {
	tb.Helper()
	hostRoot := tb.TempDir()
	mountDir := filepath.Join(hostRoot, "mount")
	for _, err := range []error{
		os.MkdirAll(filepath.Join(hostRoot, "outside"), 0o755),
		os.MkdirAll(filepath.Join(mountDir, "sub"), 0o755),
		os.WriteFile(filepath.Join(hostRoot, "outside", "secret.txt"), []byte("outside\n"), 0o644),
		os.WriteFile(filepath.Join(mountDir, "plain.txt"), []byte("plain\n"), 0o644),
		os.Symlink("../outside/secret.txt", filepath.Join(mountDir, "escape-rel")),
		os.Symlink(filepath.Join(hostRoot, "outside", "secret.txt"), filepath.Join(mountDir, "escape-abs")),
		os.Symlink("../outside", filepath.Join(mountDir, "escape-dir")),
		os.Symlink("..", filepath.Join(mountDir, "up")),
		os.Symlink(filepath.Join(mountDir, "plain.txt"), filepath.Join(mountDir, "inside-abs")),
		os.Symlink("/mem/a", filepath.Join(mountDir, "to-mem")),
		os.Symlink("../sub/../plain.txt", filepath.Join(mountDir, "sub", "back")),
		os.Symlink("loop-b", filepath.Join(mountDir, "loop-a")),
		os.Symlink("loop-a", filepath.Join(mountDir, "loop-b")),
	} {
		if err != nil {
			tb.Fatal(err)
		}
	}
	v, err := vfs.New([]vfs.MountSpec{
		{Prefix: "/mem", Files: map[string]string{
			"a/b/file.txt": "file\n", "hidden/secret": "secret\n", "plain": "plain\n", "empty/": "",
		}},
		{Prefix: "/host", HostDir: mountDir},
		{Prefix: "/ro", ReadOnly: true, Files: map[string]string{"f": "f\n"}},
		{Prefix: "/deep/nest", Files: map[string]string{"n": "n\n"}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { v.Close() })
	open := v.View(nil)
	for _, link := range [][2]string{
		{"/mem/loop2", "/mem/loop"}, {"/mem/loop", "/mem/loop2"}, {"self", "/mem/self"},
		{"chain2", "/mem/chain1"}, {"/mem/chain3", "/mem/chain2"}, {"a/b", "/mem/chain3"},
		{"/mem/hidden", "/mem/to-hidden"}, {"hidden/secret", "/mem/to-secret"}, {"/", "/mem/to-root"},
		{"../..", "/mem/up"}, {"/nowhere/x", "/mem/dangling"}, {"/host/sub", "/mem/to-host"},
		{"../../plain", "/mem/a/b/rel-up"}, {"../../../../../../..", "/mem/a/b/far-up"},
		{"/mem/a/b/file.txt/x", "/mem/through-file"}, {"/deep", "/mem/to-synthetic"},
		{"/mem", "/mem/hidden/back-out"}, {"../../hidden/secret", "/mem/a/b/to-hidden-rel"},
	} {
		if err := open.Symlink(link[0], link[1]); err != nil {
			tb.Fatalf("symlink %s -> %s: %v", link[1], link[0], err)
		}
	}
	return v, hostRoot
}

// fuzzDoor hides fuzzHidden the way the gate does: ErrHidden, which the
// view turns into ENOENT.
var fuzzDoor = vfs.DoorFunc(func(op vfs.Op) error {
	if fuzzWithin(op.Path, fuzzHidden) {
		return vfs.ErrHidden
	}
	return nil
})

// fuzzAllowedErrno is every errno a lookup may end in. ENAMETOOLONG is the
// host's word for a component longer than 255 bytes: an errno, not host
// text (memory mounts, which have no such limit, say ENOENT).
func fuzzAllowedErrno(err error, extra ...syscall.Errno) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return false
	}
	for _, e := range append([]syscall.Errno{vfs.ENOENT, vfs.ELOOP, vfs.ENOTDIR, vfs.EINVAL, syscall.ENAMETOOLONG}, extra...) {
		if errno == e {
			return true
		}
	}
	return false
}

// fuzzInTable: p is a mount root or lies in a mount, or is a synthetic
// directory leading to one ("/", "/deep").
func fuzzInTable(v *vfs.VFS, p string) bool {
	if _, ok := v.MountOf(p); ok {
		return true
	}
	for _, m := range v.Mounts() {
		if p == "/" || strings.HasPrefix(m.Prefix, p+"/") {
			return true
		}
	}
	return false
}

func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"/mem/../host/plain.txt", "//mem//a/./b", "/mem/loop/x", "/mem/self", "/mem/chain1/file.txt",
		"/mem/to-hidden/secret", "/host/escape-rel", "/host/up/mount/plain.txt", "/mem/a/b/file.txt/x",
		"mem/a", "", "/../..", "/mem/to-root/mem/to-secret",
	} {
		f.Add(seed)
	}
	v, hostRoot := fuzzTable(f)
	view := v.View(fuzzDoor)

	f.Fuzz(func(t *testing.T, name string) {
		// A path error names the caller's spelling; everything else in an
		// error must come from the VFS, never from the host.
		checkErr := func(op string, err error, extra ...syscall.Errno) {
			t.Helper()
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("%s(%q): error %T %v is not a *fs.PathError", op, name, err, err)
			}
			if pe.Path != name {
				t.Fatalf("%s(%q): error names %q, not the path as given", op, name, pe.Path)
			}
			if strings.Contains(pe.Err.Error(), hostRoot) || strings.Contains(pe.Op, hostRoot) {
				t.Fatalf("%s(%q): error shows the host directory: %v", op, name, err)
			}
			if !fuzzAllowedErrno(err, extra...) {
				t.Fatalf("%s(%q): error %v is not a lookup errno", op, name, err)
			}
		}

		resolved, err := view.Resolve(name)
		if err != nil {
			checkErr("Resolve", err)
		} else {
			switch {
			case !strings.HasPrefix(resolved, "/") || path.Clean(resolved) != resolved:
				t.Fatalf("Resolve(%q) = %q: not a clean absolute path", name, resolved)
			case strings.Contains(resolved, hostRoot):
				t.Fatalf("Resolve(%q) = %q: a host path", name, resolved)
			case !fuzzInTable(v, resolved):
				t.Fatalf("Resolve(%q) = %q: outside every mount", name, resolved)
			case fuzzWithin(resolved, fuzzHidden):
				t.Fatalf("Resolve(%q) = %q: inside the hidden region", name, resolved)
			}
			if _, err := view.Stat(resolved); err != nil {
				t.Fatalf("Resolve(%q) = %q, which does not stat: %v", name, resolved, err)
			}
		}

		info, statErr := view.Stat(name)
		if (statErr == nil) != (err == nil) {
			t.Fatalf("Stat(%q) = %v and Resolve = %v: one door sees what the other does not", name, statErr, err)
		}
		if statErr != nil {
			checkErr("Stat", statErr)
		}
		if _, err := view.Lstat(name); err != nil {
			checkErr("Lstat", err)
		}
		if entries, err := view.ReadDir(name); err != nil {
			checkErr("ReadDir", err)
		} else {
			for _, e := range entries {
				if fuzzWithin(path.Join(resolved, e.Name()), fuzzHidden) {
					t.Fatalf("ReadDir(%q) lists the hidden %q", name, e.Name())
				}
			}
		}
		if file, err := view.Open(name); err != nil {
			checkErr("Open", err)
		} else {
			if info != nil && !info.IsDir() {
				data, _ := io.ReadAll(io.LimitReader(file, 1<<16))
				if strings.Contains(string(data), "secret") || strings.Contains(string(data), "outside") {
					t.Fatalf("Open(%q) read %q: a hidden or outside file", name, data)
				}
			}
			file.Close()
		}
		if _, err := view.Readlink(name); err != nil {
			checkErr("Readlink", err) // EINVAL: not a link
		}
	})
}
