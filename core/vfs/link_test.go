package vfs

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// nlinkOf is the hard link count a Stat reports for name.
func nlinkOf(t *testing.T, fsys FS, name string) uint64 {
	t.Helper()
	info, err := fsys.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	return info.(interface{ Nlink() uint64 }).Nlink()
}

// A hard link on a memory mount is a second name of one file: writes go
// through either name, both count two links, removing one keeps the other,
// and the content is taken once from the mount's size.
func TestLinkSharesOneFile(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/w", Files: map[string]string{"a": "alpha\n", "d/x": "x"}})
	fsys := v.View(nil)
	before, _ := fsys.Statfs("/w")
	if err := fsys.Link("/w/a", "/w/d/b"); err != nil {
		t.Fatal(err)
	}
	after, _ := fsys.Statfs("/w")
	if grew := after.Used - before.Used; grew != entryCost {
		t.Errorf("a link took %d bytes, want one entry (%d)", grew, entryCost)
	}
	if err := writeAll(fsys, "/w/d/b", "beta\n"); err != nil {
		t.Fatal(err)
	}
	if got, _ := readAll(fsys, "/w/a"); got != "beta\n" {
		t.Errorf("read through the old name = %q", got)
	}
	if nlinkOf(t, fsys, "/w/a") != 2 || nlinkOf(t, fsys, "/w/d/b") != 2 {
		t.Errorf("link counts %d %d, want 2 2", nlinkOf(t, fsys, "/w/a"), nlinkOf(t, fsys, "/w/d/b"))
	}
	if err := fsys.Remove("/w/a"); err != nil {
		t.Fatal(err)
	}
	if got, _ := readAll(fsys, "/w/d/b"); got != "beta\n" || nlinkOf(t, fsys, "/w/d/b") != 1 {
		t.Errorf("after removing one name: %q, %d links", got, nlinkOf(t, fsys, "/w/d/b"))
	}
	if err := fsys.Remove("/w/d/b"); err != nil {
		t.Fatal(err)
	}
	end, _ := fsys.Statfs("/w")
	if end.Used != before.Used-nodeCost(&memNode{data: []byte("alpha\n")}) {
		t.Errorf("space after removing both names = %d, want %d less than %d", end.Used, nodeCost(&memNode{data: []byte("alpha\n")}), before.Used)
	}
}

// link(2)'s errors, and the host mount that makes no hard links.
func TestLinkErrors(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	if err := os.WriteFile(host+"/h", []byte("h"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := mustVFS(t,
		MountSpec{Prefix: "/w", Files: map[string]string{"a": "a", "d/x": "x"}},
		MountSpec{Prefix: "/ro", ReadOnly: true, Files: map[string]string{"f": "f"}},
		MountSpec{Prefix: "/host", HostDir: host})
	fsys := v.View(nil)
	tests := []struct {
		old, nu string
		want    syscall.Errno
	}{
		{"/w/d", "/w/e", syscall.EPERM},
		{"/w/a", "/w/d/x", syscall.EEXIST},
		{"/w/nope", "/w/n", syscall.ENOENT},
		{"/w/a", "/w/none/n", syscall.ENOENT},
		{"/w/a", "/ro/n", syscall.EXDEV},
		{"/ro/f", "/ro/g", syscall.EROFS},
		{"/host/h", "/host/i", syscall.ENOTSUP},
	}
	for _, tt := range tests {
		if err := fsys.Link(tt.old, tt.nu); errnoOf(err) != tt.want {
			t.Errorf("Link(%s, %s) = %v, want %v", tt.old, tt.nu, err, tt.want)
		}
	}
	if _, err := os.Lstat(host + "/i"); err == nil {
		t.Error("a host link was made")
	}
}

// The door is asked about both names, and about the entry carried from the
// old name to the new: a hidden old name is ENOENT, a refused one keeps its
// reason, and a new name where a rule would no longer reach the content is
// EACCES (judged as a rename that keeps the old name).
func TestLinkJudgesBothNames(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/w", Files: map[string]string{"hid/k": "k", "den/f": "f", "open/a": "a"}})
	door := &ruleDoor{hidden: []string{"/w/hid"}, refused: map[string]string{"/w/den": "denied here"}}
	fsys := v.View(door)
	if err := fsys.Link("/w/hid/k", "/w/open/k"); errnoOf(err) != syscall.ENOENT {
		t.Errorf("hidden old name: %v", err)
	}
	if err := fsys.Link("/w/den/f", "/w/open/f"); err == nil || !strings.Contains(err.Error(), "denied here") {
		t.Errorf("refused old name: %v", err)
	}
	if err := fsys.Link("/w/open/a", "/w/den/a"); err == nil || !strings.Contains(err.Error(), "denied here") {
		t.Errorf("refused new name: %v", err)
	}
	// A door that refuses the old name only for writes lets it be read,
	// yet carrying it to an open name would drop that: refused.
	roDoor := DoorFunc(func(op Op) error {
		if strings.HasPrefix(op.Path, "/w/den/") && op.Write {
			return EROFS
		}
		return nil
	})
	if err := v.View(roDoor).Link("/w/den/f", "/w/open/f"); errnoOf(err) != syscall.EACCES {
		t.Errorf("read-only old name carried to a writable one: %v", err)
	}
	if names(fsys, "/w/open") != "a" {
		t.Errorf("/w/open holds %q", names(fsys, "/w/open"))
	}
	if err := fsys.Link("/w/open/a", "/w/open/b"); err != nil {
		t.Errorf("open link: %v", err)
	}
}

// A durable mount keeps content by path, so its second name is a copy.
func TestLinkOnDurableMountCopies(t *testing.T) {
	t.Parallel()
	v := durableVFS(t, MountSpec{Prefix: "/w", Files: map[string]string{"a": "a\n"}})
	fsys := v.View(nil)
	if err := fsys.Link("/w/a", "/w/b"); err != nil {
		t.Fatal(err)
	}
	got, err := v.Changes("/w")
	if err != nil || summary(got) != "b=file:a\n" {
		t.Fatalf("changes %q, %v", summary(got), err)
	}
	if err := writeAll(fsys, "/w/b", "b\n"); err != nil {
		t.Fatal(err)
	}
	if a, _ := readAll(fsys, "/w/a"); a != "a\n" || nlinkOf(t, fsys, "/w/a") != 1 {
		t.Errorf("the old name after writing the copy: %q, %d links", a, nlinkOf(t, fsys, "/w/a"))
	}
}
