package vfs

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// The semantics tables of this file run on every kind of mount (STYLE
// §2): a memory mount, and a host mount resolved with openat2 and with the
// component walk that stands in for it. A mounter builds a VFS with one
// mount at prefix, seeded with files (a key ending in "/" is an empty
// directory), and returns its view through the open door.
type mounter func(t testing.TB, prefix string, files map[string]string, readOnly bool) FS

var mountKinds = []struct {
	name  string
	mount mounter
}{
	{"memory", func(t testing.TB, prefix string, files map[string]string, readOnly bool) FS {
		return mustVFS(t, MountSpec{Prefix: prefix, Files: files, ReadOnly: readOnly}).View(OpenDoor)
	}},
	{"host", func(t testing.TB, prefix string, files map[string]string, readOnly bool) FS {
		return hostVFS(t, false, MountSpec{Prefix: prefix, HostDir: seedHostDir(t, files), ReadOnly: readOnly}).View(OpenDoor)
	}},
	{"host-component-walk", func(t testing.TB, prefix string, files map[string]string, readOnly bool) FS {
		return hostVFS(t, true, MountSpec{Prefix: prefix, HostDir: seedHostDir(t, files), ReadOnly: readOnly}).View(OpenDoor)
	}},
}

// forEachMount runs a test once per kind of mount, in parallel.
func forEachMount(t *testing.T, test func(t *testing.T, mk mounter)) {
	t.Parallel()
	for _, kind := range mountKinds {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			test(t, kind.mount)
		})
	}
}

// seedHostDir writes seed files into a new host directory with the modes
// a memory mount gives them (0644 files, 0755 directories).
func seedHostDir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for key, body := range files {
		p := filepath.Join(dir, key)
		if strings.HasSuffix(key, "/") {
			mkdirHost(t, p)
			continue
		}
		mkdirHost(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o644)
	}
	return dir
}

func mkdirHost(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
}

// viewFS is a View seen as an fs.FS rooted at a mount, for fstest.
type viewFS struct {
	fsys   FS
	prefix string
}

func (v viewFS) abs(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", fs.ErrInvalid
	}
	if name == "." {
		return v.prefix, nil
	}
	return v.prefix + "/" + name, nil
}

func (v viewFS) Open(name string) (fs.File, error) {
	p, err := v.abs(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	f, err := v.fsys.Open(p)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return &viewDir{File: f, fsys: v.fsys, path: p}, nil
	}
	return f, nil
}

func (v viewFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := v.abs(name)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	return v.fsys.ReadDir(p)
}

// viewDir is an open directory whose entries come from the View.
type viewDir struct {
	File
	fsys    FS
	path    string
	entries []fs.DirEntry
	read    bool
}

func (d *viewDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		entries, err := d.fsys.ReadDir(d.path)
		if err != nil {
			return nil, err
		}
		d.entries, d.read = entries, true
	}
	if n <= 0 {
		out := d.entries
		d.entries = nil
		return out, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	out := d.entries[:n]
	d.entries = d.entries[n:]
	return out, nil
}

// Every kind of mount passes Go's own file-system conformance test.
func TestMountsAreFileSystems(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/m", runbookSeed, false)
		if err := fstest.TestFS(viewFS{fsys, "/m"}, "README.md", "frozen/restore.md", "frozen/deep/x.txt", "logs"); err != nil {
			t.Fatal(err)
		}
	})
}

var runbookSeed = map[string]string{
	"README.md":         "Incident runbook\n",
	"frozen/restore.md": "1. page the on-call\n",
	"frozen/deep/x.txt": "x\n",
	"logs/":             "",
}

func TestSeedAndListing(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/runbook", runbookSeed, false)
		tests := []struct {
			dir  string
			want string
		}{
			{"/runbook", "README.md frozen logs"},
			{"/runbook/frozen", "deep restore.md"},
			{"/runbook/logs", ""},
			{"/runbook/frozen/deep", "x.txt"},
			{"/runbook/README.md", "error: readdirent /runbook/README.md: not a directory"},
			{"/runbook/nope", "error: open /runbook/nope: no such file or directory"},
		}
		for _, tt := range tests {
			t.Run(tt.dir, func(t *testing.T) {
				t.Parallel()
				if got := names(fsys, tt.dir); got != tt.want {
					t.Fatalf("ls %s = %q, want %q", tt.dir, got, tt.want)
				}
			})
		}
		if got, err := readAll(fsys, "/runbook/frozen/restore.md"); got != "1. page the on-call\n" || err != nil {
			t.Fatalf("cat = %q, %v", got, err)
		}
		entries, _ := fsys.ReadDir("/runbook")
		info, err := entries[1].Info()
		if err != nil || !info.IsDir() || info.Mode().Perm() != 0o755 || entries[0].Type() != 0 {
			t.Fatalf("entry info = %v, %v; want dirs 0755 and README a regular file", info, err)
		}
	})
}

func TestListingSeesChanges(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/m", nil, false)
		steps := []struct {
			do   func() error
			want string
		}{
			{func() error { return writeAll(fsys, "/m/b", "") }, "b"},
			{func() error { return fsys.Mkdir("/m/a", 0o777) }, "a b"},
			{func() error { return fsys.Symlink("b", "/m/c") }, "a b c"},
			{func() error { return fsys.Rename("/m/b", "/m/a/b") }, "a c"},
			{func() error { return fsys.Remove("/m/c") }, "a"},
		}
		for i, s := range steps {
			if err := s.do(); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if got := names(fsys, "/m"); got != s.want {
				t.Fatalf("step %d: ls /m = %q, want %q", i, got, s.want)
			}
		}
	})
}

// open(2) semantics of the flags, on a file holding "hello".
func TestOpenFlags(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		tests := []struct {
			name    string
			flag    int
			write   string // written after opening, if not ""
			want    string // content afterwards
			wantErr syscall.Errno
		}{
			{"read only", os.O_RDONLY, "", "hello", 0},
			{"write overwrites from the start", os.O_WRONLY, "HE", "HEllo", 0},
			{"truncate", os.O_WRONLY | os.O_TRUNC, "bye", "bye", 0},
			{"append", os.O_WRONLY | os.O_APPEND, " world", "hello world", 0},
			{"read-write", os.O_RDWR, "J", "Jello", 0},
			{"create existing keeps content", os.O_WRONLY | os.O_CREATE, "", "hello", 0},
			{"exclusive create of existing", os.O_WRONLY | os.O_CREATE | os.O_EXCL, "", "hello", syscall.EEXIST},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				fsys := mk(t, "/m", map[string]string{"f": "hello"}, false)
				f, err := fsys.OpenFile("/m/f", tt.flag, 0o666)
				if errnoOf(err) != tt.wantErr {
					t.Fatalf("open = %v, want %v", err, tt.wantErr)
				}
				if err == nil {
					if tt.write != "" {
						if _, err := io.WriteString(f, tt.write); err != nil {
							t.Fatalf("write: %v", err)
						}
					}
					f.Close()
				}
				if got, _ := readAll(fsys, "/m/f"); got != tt.want {
					t.Fatalf("content = %q, want %q", got, tt.want)
				}
			})
		}
	})
}

func TestOpenErrors(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/m", map[string]string{"f": "hello", "d/": ""}, false)
		tests := []struct {
			name string
			path string
			flag int
			want syscall.Errno
		}{
			{"missing without create", "/m/nope", os.O_RDONLY, syscall.ENOENT},
			{"create under a missing dir", "/m/nodir/f", os.O_WRONLY | os.O_CREATE, syscall.ENOENT},
			{"create under a file", "/m/f/x", os.O_WRONLY | os.O_CREATE, syscall.ENOTDIR},
			{"write a directory", "/m/d", os.O_WRONLY, syscall.EISDIR},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				_, err := fsys.OpenFile(tt.path, tt.flag, 0o666)
				if errnoOf(err) != tt.want {
					t.Fatalf("open %s = %v, want %v", tt.path, err, tt.want)
				}
				pe, ok := err.(*fs.PathError)
				if !ok || pe.Path != tt.path {
					t.Fatalf("error %#v does not name the caller's path", err)
				}
			})
		}
	})
}

func TestOpenFileAccessModes(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/m", map[string]string{"f": "hello", "d/": ""}, false)
		r, _ := fsys.Open("/m/f")
		if _, err := r.Write([]byte("x")); errnoOf(err) != syscall.EBADF {
			t.Fatalf("write to a read-only open = %v, want EBADF", err)
		}
		w, _ := fsys.OpenFile("/m/f", os.O_WRONLY, 0)
		if _, err := w.Read(make([]byte, 1)); errnoOf(err) != syscall.EBADF {
			t.Fatalf("read from a write-only open = %v, want EBADF", err)
		}
		d, err := fsys.Open("/m/d")
		if err != nil {
			t.Fatalf("open a directory for reading: %v", err)
		}
		if _, err := d.Read(make([]byte, 1)); errnoOf(err) != syscall.EISDIR {
			t.Fatalf("read a directory = %v, want EISDIR", err)
		}
		r.Close()
		if _, err := r.Read(make([]byte, 1)); err == nil {
			t.Fatal("read after close succeeded")
		}
	})
}

func TestSeekAndCreatedFileMode(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/m", nil, false)
		f, err := fsys.OpenFile("/m/f", os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, "0123456789")
		if pos, _ := f.Seek(-3, io.SeekEnd); pos != 7 {
			t.Fatalf("seek end-3 = %d", pos)
		}
		buf := make([]byte, 10)
		n, _ := f.Read(buf)
		if string(buf[:n]) != "789" {
			t.Fatalf("read after seek = %q", buf[:n])
		}
		f.Seek(12, io.SeekStart)
		io.WriteString(f, "!")
		f.Close()
		if got, _ := readAll(fsys, "/m/f"); got != "0123456789\x00\x00!" {
			t.Fatalf("write past the end = %q, want a zero-filled hole", got)
		}
		if fi, _ := fsys.Stat("/m/f"); fi.Mode() != 0o644 {
			t.Fatalf("created with 0666 under umask 022: mode %v", fi.Mode())
		}
		fsys.Mkdir("/m/d", 0o777)
		if fi, _ := fsys.Stat("/m/d"); fi.Mode() != fs.ModeDir|0o755 {
			t.Fatalf("mkdir 0777 under umask 022: mode %v", fi.Mode())
		}
	})
}

func TestOpenFileSurvivesRemoval(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/m", nil, false)
		writeAll(fsys, "/m/f", "still here")
		f, _ := fsys.Open("/m/f")
		defer f.Close()
		if err := fsys.Remove("/m/f"); err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(f); string(b) != "still here" || err != nil {
			t.Fatalf("read of an unlinked open file = %q, %v", b, err)
		}
	})
}

func TestRemoveAndRenameSemantics(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		seed := map[string]string{"f": "f", "g": "g", "d/x": "x", "e/": "", "full/y": "y"}
		tests := []struct {
			name string
			do   func(FS) error
			want syscall.Errno
		}{
			{"remove non-empty dir", func(f FS) error { return f.Remove("/m/d") }, syscall.ENOTEMPTY},
			{"remove empty dir", func(f FS) error { return f.Remove("/m/e") }, 0},
			{"remove missing", func(f FS) error { return f.Remove("/m/nope") }, syscall.ENOENT},
			{"rename file over file", func(f FS) error { return f.Rename("/m/f", "/m/g") }, 0},
			{"rename file over dir", func(f FS) error { return f.Rename("/m/f", "/m/e") }, syscall.EISDIR},
			{"rename dir over file", func(f FS) error { return f.Rename("/m/d", "/m/f") }, syscall.ENOTDIR},
			{"rename dir over empty dir", func(f FS) error { return f.Rename("/m/d", "/m/e") }, 0},
			{"rename dir over full dir", func(f FS) error { return f.Rename("/m/d", "/m/full") }, syscall.ENOTEMPTY},
			{"rename dir into itself", func(f FS) error { return f.Rename("/m/d", "/m/d/sub") }, syscall.EINVAL},
			{"rename onto itself", func(f FS) error { return f.Rename("/m/f", "/m/./f") }, 0},
			{"rename across mounts", func(f FS) error { return f.Rename("/m/f", "/tmp/f") }, syscall.EXDEV},
			{"rename missing", func(f FS) error { return f.Rename("/m/nope", "/m/x") }, syscall.ENOENT},
			{"rename into missing dir", func(f FS) error { return f.Rename("/m/f", "/m/nodir/f") }, syscall.ENOENT},
			{"mkdir existing", func(f FS) error { return f.Mkdir("/m/d", 0o777) }, syscall.EEXIST},
			{"mkdir missing parent", func(f FS) error { return f.Mkdir("/m/a/b", 0o777) }, syscall.ENOENT},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				fsys := mk(t, "/m", seed, false)
				if err := tt.do(fsys); errnoOf(err) != tt.want {
					t.Fatalf("got %v, want %v", err, tt.want)
				}
			})
		}
		t.Run("rename moves content", func(t *testing.T) {
			t.Parallel()
			fsys := mk(t, "/m", seed, false)
			if err := fsys.Rename("/m/d", "/m/e"); err != nil {
				t.Fatal(err)
			}
			if got, _ := readAll(fsys, "/m/e/x"); got != "x" || names(fsys, "/m") != "e f full g" {
				t.Fatalf("after mv d e: cat e/x = %q, ls = %q", got, names(fsys, "/m"))
			}
		})
	})
}

func TestChmodChtimes(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/m", map[string]string{"f": ""}, false)
		when := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
		if err := fsys.Chmod("/m/f", 0o700); err != nil {
			t.Fatal(err)
		}
		if err := fsys.Chtimes("/m/f", when, when); err != nil {
			t.Fatal(err)
		}
		fi, _ := fsys.Stat("/m/f")
		if fi.Mode() != 0o700 || !fi.ModTime().Equal(when) {
			t.Fatalf("after chmod 700 and touch -d: %v %v", fi.Mode(), fi.ModTime())
		}
		if err := fsys.Chmod("/m/nope", 0o700); errnoOf(err) != syscall.ENOENT {
			t.Fatalf("chmod missing = %v", err)
		}
	})
}

// G-5.2: every write under a read-only mount is EROFS; names that do not
// exist stay ENOENT and existing directories EEXIST, as on a read-only
// Linux filesystem (so `mkdir -p` still succeeds).
func TestReadOnlyMount_G5_2(t *testing.T) {
	forEachMount(t, func(t *testing.T, mk mounter) {
		fsys := mk(t, "/runbook", runbookSeed, true)
		tests := []struct {
			name string
			do   func() error
			want syscall.Errno
		}{
			{"touch new", func() error { return writeAll(fsys, "/runbook/x", "") }, syscall.EROFS},
			{"overwrite", func() error { return writeAll(fsys, "/runbook/README.md", "") }, syscall.EROFS},
			{"append", func() error {
				_, err := fsys.OpenFile("/runbook/README.md", os.O_WRONLY|os.O_APPEND, 0)
				return err
			}, syscall.EROFS},
			{"mkdir new", func() error { return fsys.Mkdir("/runbook/new", 0o777) }, syscall.EROFS},
			{"mkdir existing", func() error { return fsys.Mkdir("/runbook/frozen", 0o777) }, syscall.EEXIST},
			{"rm", func() error { return fsys.Remove("/runbook/README.md") }, syscall.EROFS},
			{"rm missing", func() error { return fsys.Remove("/runbook/nope") }, syscall.ENOENT},
			{"mv", func() error { return fsys.Rename("/runbook/README.md", "/runbook/r") }, syscall.EROFS},
			{"ln -s", func() error { return fsys.Symlink("README.md", "/runbook/l") }, syscall.EROFS},
			{"chmod", func() error { return fsys.Chmod("/runbook/README.md", 0o600) }, syscall.EROFS},
			{"touch existing", func() error { return fsys.Chtimes("/runbook/README.md", testEpoch, testEpoch) }, syscall.EROFS},
			{"read still works", func() error { _, err := readAll(fsys, "/runbook/README.md"); return err }, 0},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				if err := tt.do(); errnoOf(err) != tt.want {
					t.Fatalf("got %v, want %v", err, tt.want)
				}
			})
		}
		if got := names(fsys, "/runbook"); got != "README.md frozen logs" {
			t.Fatalf("read-only mount changed: %q", got)
		}
	})
}
