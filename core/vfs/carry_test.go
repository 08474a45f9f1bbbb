package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// carryMounts runs a test on a memory mount and on a host mount, both at
// /m, laid out by the same files through an open view.
func carryMounts(t *testing.T, files map[string]string, run func(t *testing.T, v *VFS)) {
	t.Helper()
	layout := func(t *testing.T, v *VFS) {
		open := v.View(OpenDoor)
		keys := make([]string, 0, len(files))
		for k := range files {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := "/m/" + k
			mkdirAll(t, open, dirName(p))
			if strings.HasSuffix(k, "/") {
				mkdirAll(t, open, strings.TrimSuffix(p, "/"))
				continue
			}
			if err := writeAll(open, p, files[k]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		v := mustVFS(t, MountSpec{Prefix: "/m"})
		layout(t, v)
		run(t, v)
	})
	t.Run("host", func(t *testing.T) {
		t.Parallel()
		v := mustVFS(t, MountSpec{Prefix: "/m", HostDir: t.TempDir()})
		layout(t, v)
		run(t, v)
	})
}

func mkdirAll(t *testing.T, fsys FS, dir string) {
	t.Helper()
	if dir == "/m" {
		return
	}
	mkdirAll(t, fsys, dirName(dir))
	if err := fsys.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		t.Fatal(err)
	}
}

// G-6.1a: renaming a directory carries every entry below it; the rename is
// refused (EACCES, nothing moved) when an entry would leave the rules that
// protected it, on memory and host mounts alike.
func TestRenameCarriesProtection(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"team/secret.txt": "SECRET\n", "team/pub/readme": "pub\n", "plain/a": "a\n",
		"den/d/f": "d\n", "box/keep": "k\n",
	}
	carryMounts(t, files, func(t *testing.T, v *VFS) {
		door := &ruleDoor{
			hidden:       []string{"/m/team/secret.txt", "/m/box2"},
			refused:      map[string]string{"/m/den/d": "denied"},
			createHidden: true,
		}
		fsys := v.View(door)
		tests := []struct {
			name     string
			from, to string
			want     syscall.Errno
		}{
			{"a directory holding a hidden entry", "/m/team", "/m/t2", syscall.EACCES},
			{"a directory holding a denied one", "/m/den", "/m/den2", syscall.EACCES},
			{"a directory with nothing protected", "/m/plain", "/m/plain2", 0},
			{"a file with nothing protected", "/m/team/pub/readme", "/m/readme", 0},
			{"a plain directory to where it would be hidden", "/m/box", "/m/box2", syscall.EACCES}, // G-4.11: creating a hidden name
		}
		for _, tt := range tests {
			err := fsys.Rename(tt.from, tt.to)
			if got := errnoOf(err); got != tt.want || (tt.want == 0) != (err == nil) {
				t.Errorf("%s: rename %s %s = %v, want %v", tt.name, tt.from, tt.to, err, tt.want)
			}
		}
		open := v.View(OpenDoor)
		if got, err := readAll(open, "/m/team/secret.txt"); err != nil || got != "SECRET\n" {
			t.Errorf("the hidden file moved: %q %v", got, err)
		}
		if _, err := open.Stat("/m/t2"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("/m/t2 exists after a refused rename: %v", err)
		}
	})
}

// A door that answers rename ops only (CarryByOps): hidden stays hidden, a
// refusal keeps its reason.
func TestCarryByOps(t *testing.T) {
	t.Parallel()
	door := &ruleDoor{hidden: []string{"/m/a/h", "/m/b/h"}, refused: map[string]string{"/m/a/d": "r1", "/m/b/d": "r1", "/m/c/d": "r2"}}
	op := func(p string) Op { return Op{Name: OpRename, Path: p, Write: true} }
	tests := []struct {
		from, to string
		refused  bool
	}{
		{"/m/a/h", "/m/b/h", false},
		{"/m/a/h", "/m/x/h", true},
		{"/m/a/h", "/m/a/d/h", true}, // hidden into denied: listed there
		{"/m/a/d", "/m/b/d", false},
		{"/m/a/d", "/m/c/d", true}, // another reason
		{"/m/a/d", "/m/b/h", false},
		{"/m/x", "/m/y", false},
	}
	for _, tt := range tests {
		if err := CarryByOps(door, op(tt.from), op(tt.to)); (err != nil) != tt.refused {
			t.Errorf("CarryByOps(%s → %s) = %v, want refused %v", tt.from, tt.to, err, tt.refused)
		}
	}
}

// A precise door (CarryDoor) is asked about the entry itself and each
// entry below it, each at its new path, and CarryClear spares the walk.
func TestRenameAsksCarryDoor(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/m", Files: map[string]string{"d/a": "", "d/s/b": "", "f": ""}})
	door := &carryDoor{}
	fsys := v.View(door)
	if err := fsys.Rename("/m/d", "/m/e"); err != nil {
		t.Fatal(err)
	}
	want := "/m/d→/m/e /m/d/a→/m/e/a /m/d/s→/m/e/s /m/d/s/b→/m/e/s/b"
	if got := strings.Join(door.carried, " "); got != want {
		t.Errorf("carried %s, want %s", got, want)
	}
	door.carried, door.clear = nil, true
	if err := fsys.Rename("/m/e", "/m/d"); err != nil || len(door.carried) != 0 {
		t.Errorf("a clear rename walked: %v %v", door.carried, err)
	}
	door.clear, door.refuse = false, "/m/d/s/b"
	if err := fsys.Rename("/m/d", "/m/e"); errnoOf(err) != syscall.EACCES {
		t.Errorf("rename = %v, want EACCES", err)
	}
}

type carryDoor struct {
	carried []string
	clear   bool
	refuse  string
}

func (d *carryDoor) CheckOp(Op) error { return nil }
func (d *carryDoor) CheckCarry(from, to Op) error {
	d.carried = append(d.carried, from.Path+"→"+to.Path)
	if from.Path == d.refuse {
		return ErrHidden
	}
	return nil
}
func (d *carryDoor) CarryClear(string, string) bool { return d.clear }

// A memory rename re-judges when an entry appears below the directory
// between the walk and the rename: here the door itself adds a hidden one
// while it is asked about an entry the walk listed, as a second session
// could at that moment.
func TestRenameRejudgesAChangedTree(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/m", Files: map[string]string{"d/a": "a\n"}})
	open := v.View(OpenDoor)
	door := &racingDoor{hide: "/m/d/late", add: func() { writeAll(open, "/m/d/late", "LATE\n") }}
	if err := v.View(door).Rename("/m/d", "/m/e"); errnoOf(err) != syscall.EACCES {
		t.Fatalf("rename = %v, want EACCES", err)
	}
	if got, err := readAll(open, "/m/d/late"); err != nil || got != "LATE\n" {
		t.Errorf("the late hidden file moved: %q %v", got, err)
	}
}

type racingDoor struct {
	hide  string
	add   func()
	added bool
}

func (d *racingDoor) CheckOp(op Op) error {
	if within(op.Path, d.hide) {
		return ErrHidden
	}
	if op.Name == OpOpen && op.Path == "/m/d/a" && !d.added { // the walk has listed /m/d
		d.added = true
		d.add()
	}
	return nil
}

// G-4.5: a directory whose remaining entries are all hidden is neither
// removed nor said to be "not empty": EACCES, on both kinds of mount; a
// rename onto it likewise.
func TestOnlyHiddenEntriesAreNotNotEmpty(t *testing.T) {
	t.Parallel()
	files := map[string]string{"d/h": "H\n", "full/h": "H\n", "full/v": "v\n", "src/": ""}
	carryMounts(t, files, func(t *testing.T, v *VFS) {
		fsys := v.View(&ruleDoor{hidden: []string{"/m/d/h", "/m/full/h"}})
		if err := fsys.Remove("/m/d"); errnoOf(err) != syscall.EACCES {
			t.Errorf("rmdir of a dir with only hidden entries = %v, want EACCES", err)
		}
		if err := fsys.Remove("/m/full"); errnoOf(err) != syscall.ENOTEMPTY {
			t.Errorf("rmdir of a dir with a visible entry = %v, want ENOTEMPTY", err)
		}
		if err := fsys.Rename("/m/src", "/m/d"); errnoOf(err) != syscall.EACCES {
			t.Errorf("rename onto a dir with only hidden entries = %v, want EACCES", err)
		}
		if err := fsys.Rename("/m/src", "/m/full"); errnoOf(err) != syscall.ENOTEMPTY && errnoOf(err) != syscall.EEXIST {
			t.Errorf("rename onto a dir with a visible entry = %v, want ENOTEMPTY (or EEXIST, as rename(2) may say)", err)
		}
		if got, err := readAll(v.View(OpenDoor), "/m/d/h"); err != nil || got != "H\n" {
			t.Errorf("the hidden entry is gone: %q %v", got, err)
		}
	})
}

// G-4.5: a refusal never speaks for a path that is not there, unless the op
// would create it in a directory that is there.
func TestRefusalOfAMissingPath(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/m", Files: map[string]string{"den/f": "F\n"}})
	fsys := v.View(&ruleDoor{refused: map[string]string{"/m/den": "denied here"}})
	reason := func(err error) string {
		var re *RefusedError
		if errors.As(err, &re) {
			return re.Reason
		}
		if errno := errnoOf(err); errno != 0 {
			return errno.Error()
		}
		return "nil"
	}
	enoent := syscall.ENOENT.Error()
	tests := []struct {
		name string
		do   func() error
		want string
	}{
		{"opening a present file", func() error { _, err := fsys.Open("/m/den/f"); return err }, "denied here"},
		{"opening a missing one", func() error { _, err := fsys.Open("/m/den/nothere"); return err }, enoent},
		{"listing a missing one", func() error { _, err := fsys.ReadDir("/m/den/nothere"); return err }, enoent},
		{"removing a missing one", func() error { return fsys.Remove("/m/den/nothere") }, enoent},
		{"chmod of a missing one", func() error { return fsys.Chmod("/m/den/nothere", 0o600) }, enoent},
		{"renaming a missing one", func() error { return fsys.Rename("/m/den/nothere", "/m/x") }, enoent},
		{"creating a new name", func() error { return writeAll(fsys, "/m/den/new", "x") }, "denied here"},
		{"mkdir of a new name", func() error { return fsys.Mkdir("/m/den/new", 0o755) }, "denied here"},
		{"creating below a missing directory", func() error { return writeAll(fsys, "/m/den/nodir/new", "x") }, enoent},
		{"mkdir below a missing directory", func() error { return fsys.Mkdir("/m/den/nodir/new", 0o755) }, enoent},
	}
	for _, tt := range tests {
		if got := reason(tt.do()); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// Locate resolves without needing the path to exist; LinkFree answers
// without a walk for memory mounts that hold no link.
func TestLocateAndLinkFree(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	if err := os.WriteFile(filepath.Join(host, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	v := mustVFS(t, MountSpec{Prefix: "/m", Files: map[string]string{"d/f": ""}}, MountSpec{Prefix: "/h", HostDir: host})
	open := v.View(OpenDoor)
	for _, p := range []string{"/m/d/f", "/m/nothere", "/", "/dev/null", "/tmp/x"} {
		if !v.LinkFree(p) {
			t.Errorf("LinkFree(%s) = false before any link", p)
		}
	}
	if v.LinkFree("/h/f") || v.LinkFree("/m/../h/f") {
		t.Error("LinkFree says yes for a host path or an unclean one")
	}
	if err := open.Symlink("/m/d", "/m/l"); err != nil {
		t.Fatal(err)
	}
	if v.LinkFree("/m/d/f") {
		t.Error("LinkFree(/m/d/f) = true with a link in the mount")
	}
	loc := open.(Locator)
	tests := []struct {
		name         string
		follow       bool
		want         Location
		wantErr      bool
		hiddenByDoor bool
	}{
		{"/m/l/f", true, Location{Path: "/m/d/f", Exists: true, ParentExists: true}, false, false},
		{"/m/l/new", true, Location{Path: "/m/d/new", ParentExists: true}, false, false},
		{"/m/l", false, Location{Path: "/m/l", Exists: true, ParentExists: true}, false, false},
		{"/m/l", true, Location{Path: "/m/d", Exists: true, ParentExists: true}, false, false},
		{"/m/nodir/x", true, Location{Path: "/m/nodir/x"}, false, false},
		{"/m/l/f", true, Location{}, true, true},
	}
	for _, tt := range tests {
		l := loc
		if tt.hiddenByDoor {
			l = v.View(&ruleDoor{hidden: []string{"/m/d"}}).(Locator)
		}
		got, err := l.Locate(tt.name, tt.follow)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("Locate(%s, %v) = %+v %v, want %+v (error %v)", tt.name, tt.follow, got, err, tt.want, tt.wantErr)
		}
	}
}

// G-4.5: a host directory reports the same fixed size as a memory one,
// whatever it holds, so its size does not count hidden entries.
func TestHostDirectorySizeIsFixed(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	for i := range 200 {
		if err := os.WriteFile(filepath.Join(host, strings.Repeat("n", 50)+string(rune('a'+i%26))+string(rune('a'+i/26))), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := mustVFS(t, MountSpec{Prefix: "/h", HostDir: host})
	fsys := v.View(OpenDoor)
	info, err := fsys.Stat("/h")
	if err != nil || info.Size() != dirSize {
		t.Errorf("stat /h: size %v %v, want %d", info, err, dirSize)
	}
}
