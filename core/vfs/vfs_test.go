package vfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestNewRejectsBadMountTables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		specs []MountSpec
		want  string // substring of the error
	}{
		{"relative prefix", []MountSpec{{Prefix: "runbook"}}, "not absolute"},
		{"root prefix", []MountSpec{{Prefix: "/"}}, `"/" cannot be a mount prefix`},
		{"duplicate", []MountSpec{{Prefix: "/a"}, {Prefix: "/a/"}}, "/a is mounted twice"},
		{"nested below", []MountSpec{{Prefix: "/a"}, {Prefix: "/a/b"}}, "/a/b is nested inside mount /a"},
		{"nested listed first", []MountSpec{{Prefix: "/a/b/c"}, {Prefix: "/a"}}, "nested inside mount /a"},
		{"inside built-in tmp", []MountSpec{{Prefix: "/tmp/cache"}}, "mount /tmp itself"},
		{"dev is reserved", []MountSpec{{Prefix: "/dev"}}, "reserved"},
		{"seed files on host", []MountSpec{{Prefix: "/h", HostDir: os.TempDir(), Files: map[string]string{"a": ""}}}, "memory mounts"},
		{"relative host dir", []MountSpec{{Prefix: "/h", HostDir: "repo"}}, "not absolute"},
		{"missing host dir", []MountSpec{{Prefix: "/h", HostDir: "/no/such/dir/anywhere"}}, "no such file"},
		{"seed conflict", []MountSpec{{Prefix: "/m", Files: map[string]string{"a": "x", "a/b": "y"}}}, "conflicts"},
		{"seed escaping", []MountSpec{{Prefix: "/m", Files: map[string]string{"../x": "y"}}}, "not a path inside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := New(tt.specs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New error = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestNewAcceptsSiblingsAndSharedSyntheticParents(t *testing.T) {
	t.Parallel()
	// "/a-b" sorts between "/a" and "/a/..." and must not count as nested.
	v := mustVFS(t, MountSpec{Prefix: "/a"}, MountSpec{Prefix: "/a-b"}, MountSpec{Prefix: "/x/y"}, MountSpec{Prefix: "/x/z/w"})
	got := v.Mounts()
	want := []MountSpec{{Prefix: "/a"}, {Prefix: "/a-b"}, {Prefix: "/dev"}, {Prefix: "/tmp"}, {Prefix: "/x/y"}, {Prefix: "/x/z/w"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Mounts() = %+v, want %+v", got, want)
	}
}

// G-5.7: ls / lists the mount points' first components, dev and tmp.
func TestRootListing_G5_7(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		specs []MountSpec
		dir   string
		want  string
	}{
		{"no mounts", nil, "/", "dev tmp"},
		{"flat mounts", []MountSpec{{Prefix: "/runbook"}, {Prefix: "/vault"}}, "/", "dev runbook tmp vault"},
		{"nested prefix shows its first component", []MountSpec{{Prefix: "/srv/data/logs"}}, "/", "dev srv tmp"},
		{"synthetic intermediate", []MountSpec{{Prefix: "/srv/data/logs"}, {Prefix: "/srv/web"}}, "/srv", "data web"},
		{"synthetic leaf parent", []MountSpec{{Prefix: "/srv/data/logs"}}, "/srv/data", "logs"},
		{"user tmp replaces the built-in", []MountSpec{{Prefix: "/tmp", Files: map[string]string{"mine": ""}}}, "/tmp", "mine"},
		{"dev devices", nil, "/dev", "null stderr stdin stdout zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := mustVFS(t, tt.specs...).View(OpenDoor)
			if got := names(fsys, tt.dir); got != tt.want {
				t.Fatalf("ls %s = %q, want %q", tt.dir, got, tt.want)
			}
		})
	}
}

func TestSyntheticDirsAreReadOnlyDirectories_G5_7(t *testing.T) {
	t.Parallel()
	fsys := mustVFS(t, MountSpec{Prefix: "/srv/data"}).View(OpenDoor)
	for _, dir := range []string{"/", "/srv"} {
		fi, err := fsys.Stat(dir)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o555 {
			t.Fatalf("stat %s = %v, %v; want a r-xr-xr-x directory", dir, fi, err)
		}
	}
	writes := []struct {
		name string
		do   func() error
		want error
	}{
		{"mkdir in root", func() error { return fsys.Mkdir("/newtop", 0o777) }, EROFS},
		{"mkdir of synthetic", func() error { return fsys.Mkdir("/srv", 0o777) }, EEXIST},
		{"create in synthetic", func() error { return writeAll(fsys, "/srv/file", "x") }, EROFS},
		{"remove synthetic", func() error { return fsys.Remove("/srv") }, EROFS},
		{"remove mount point", func() error { return fsys.Remove("/srv/data") }, EBUSY},
		{"symlink in root", func() error { return fsys.Symlink("/tmp", "/t") }, EROFS},
		{"rename mount point", func() error { return fsys.Rename("/srv/data", "/srv/d2") }, EBUSY},
		{"chmod root", func() error { return fsys.Chmod("/", 0o777) }, EROFS},
		{"missing under synthetic", func() error { _, err := fsys.Stat("/srv/nothing/x"); return err }, ENOENT},
	}
	for _, tt := range writes {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := tt.do(); errnoOf(err) != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestMountOf(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/srv/data"}, MountSpec{Prefix: "/runbook"})
	tests := []struct {
		path   string
		prefix string
		ok     bool
	}{
		{"/runbook", "/runbook", true},
		{"/runbook/a/b", "/runbook", true},
		{"/runbook/../tmp/x", "/tmp", true},
		{"/runbookx", "", false},
		{"/srv", "", false},
		{"/srv/data//x", "/srv/data", true},
		{"/dev/null", "/dev", true},
		{"/", "", false},
		{"relative", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			prefix, ok := v.MountOf(tt.path)
			if prefix != tt.prefix || ok != tt.ok {
				t.Fatalf("MountOf(%q) = %q, %v; want %q, %v", tt.path, prefix, ok, tt.prefix, tt.ok)
			}
		})
	}
}

// G-5.7: /dev/null reads EOF and swallows writes; /dev/zero reads zeros.
func TestDevices_G5_7(t *testing.T) {
	t.Parallel()
	fsys := mustVFS(t).View(OpenDoor)

	t.Run("null", func(t *testing.T) {
		t.Parallel()
		if got, err := readAll(fsys, "/dev/null"); got != "" || err != nil {
			t.Fatalf("read /dev/null = %q, %v", got, err)
		}
		if err := writeAll(fsys, "/dev/null", "discarded"); err != nil {
			t.Fatalf("echo x > /dev/null: %v", err)
		}
		f, err := fsys.OpenFile("/dev/null", os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatalf(">> /dev/null: %v", err)
		}
		f.Close()
	})
	t.Run("zero", func(t *testing.T) {
		t.Parallel()
		f, err := fsys.Open("/dev/zero")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		buf := []byte("xxxxxxxx")
		if _, err := io.ReadFull(f, buf); err != nil || string(buf) != "\x00\x00\x00\x00\x00\x00\x00\x00" {
			t.Fatalf("read /dev/zero = %q, %v", buf, err)
		}
	})
	t.Run("stdio is served by the shell", func(t *testing.T) {
		t.Parallel()
		for _, name := range []string{"/dev/stdin", "/dev/stdout", "/dev/stderr"} {
			fi, err := fsys.Stat(name)
			if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
				t.Fatalf("stat %s = %v, %v; want a char device", name, fi, err)
			}
			if _, err := fsys.OpenFile(name, os.O_WRONLY, 0); !errors.Is(err, ErrStdio) {
				t.Fatalf("open %s = %v, want ErrStdio", name, err)
			}
		}
	})
	t.Run("no new names", func(t *testing.T) {
		t.Parallel()
		if err := writeAll(fsys, "/dev/mine", "x"); errnoOf(err) != EROFS {
			t.Fatalf("create /dev/mine = %v, want EROFS", err)
		}
		if err := fsys.Remove("/dev/null"); errnoOf(err) != EROFS {
			t.Fatalf("rm /dev/null = %v, want EROFS", err)
		}
		if _, err := fsys.Stat("/dev/null/x"); errnoOf(err) != ENOTDIR {
			t.Fatalf("stat /dev/null/x = %v, want ENOTDIR", err)
		}
	})
}

// G-5.7: a memory /tmp exists (rw) unless a spec mounts /tmp itself.
func TestTmp_G5_7(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		specs    []MountSpec
		readOnly bool
	}{
		{"built-in", nil, false},
		{"mounted read-only by the document", []MountSpec{{Prefix: "/tmp", ReadOnly: true}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := mustVFS(t, tt.specs...).View(OpenDoor)
			err := writeAll(fsys, "/tmp/scratch", "x")
			if tt.readOnly != (errnoOf(err) == EROFS) {
				t.Fatalf("write /tmp/scratch = %v, read-only %v", err, tt.readOnly)
			}
		})
	}
}

func TestPathsMustBeAbsolute(t *testing.T) {
	t.Parallel()
	fsys := mustVFS(t).View(OpenDoor)
	if _, err := fsys.Stat("tmp"); errnoOf(err) != EINVAL {
		t.Fatalf("stat of a relative path = %v, want EINVAL", err)
	}
	if _, err := fsys.Stat(""); errnoOf(err) != ENOENT {
		t.Fatalf("stat of an empty path = %v, want ENOENT", err)
	}
}

func TestStatNamesAndClock(t *testing.T) {
	t.Parallel()
	fsys := mustVFS(t, MountSpec{Prefix: "/m", Files: map[string]string{"d/f.txt": "hello"}}).View(OpenDoor)
	fi, err := fsys.Stat("/m/d/../d/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Name() != "f.txt" || fi.Size() != 5 || fi.Mode() != 0o644 || !fi.ModTime().Equal(testEpoch) {
		t.Fatalf("stat = %s %d %v %v", fi.Name(), fi.Size(), fi.Mode(), fi.ModTime())
	}
	if fi, err := fsys.Stat("/"); err != nil || fi.Name() != "/" {
		t.Fatalf("stat / = %v, %v", fi, err)
	}
	if fi, err := fsys.Stat("/m"); err != nil || fi.Name() != "m" || fi.Mode() != fs.ModeDir|0o755 {
		t.Fatalf("stat /m = %v, %v", fi, err)
	}
}
