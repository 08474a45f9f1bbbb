package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

const credentialsReason = "credentials are never read by hand"

// gatedWorkspace builds the incident layout of the spec with links laid
// through an open view, and returns a view behind a door that hides
// /vault/internal and /runbook/hidden-link and refuses /vault/aws.token.
func gatedWorkspace(t *testing.T) (FS, *ruleDoor) {
	t.Helper()
	v := mustVFS(t,
		MountSpec{Prefix: "/runbook", Files: map[string]string{"README.md": "Incident runbook\n", "frozen/restore.md": "1.\n"}},
		MountSpec{Prefix: "/vault", Files: map[string]string{
			"aws.token": "AKIA\n", "public/ca.pem": "CERT\n", "internal/secret.txt": "s3cret\n",
		}},
		MountSpec{Prefix: "/hiddenmount"},
	)
	open := v.View(OpenDoor)
	links := [][2]string{ // link -> target
		{"/runbook/abs", "/runbook/README.md"},
		{"/runbook/rel", "README.md"},
		{"/runbook/chain1", "chain2"},
		{"/runbook/chain2", "/runbook/abs"},
		{"/runbook/loop1", "loop2"},
		{"/runbook/loop2", "/runbook/loop1"},
		{"/runbook/dangling", "nothing"},
		{"/runbook/to-secret", "/vault/internal/secret.txt"},
		{"/runbook/to-internal", "../vault/internal"},
		{"/runbook/to-token", "/vault/aws.token"},
		{"/runbook/to-public", "/vault/public"},
		{"/runbook/hidden-link", "README.md"},
		{"/vault/internal/link", "/runbook/README.md"},
	}
	for _, l := range links {
		if err := open.Symlink(l[1], l[0]); err != nil {
			t.Fatalf("ln -s %s %s: %v", l[1], l[0], err)
		}
	}
	door := &ruleDoor{
		hidden:  []string{"/vault/internal", "/runbook/hidden-link", "/hiddenmount"},
		refused: map[string]string{"/vault/aws.token": credentialsReason},
	}
	return v.View(door), door
}

// G-4.5: a hidden path answers ENOENT through every door, with the text a
// missing path gives.
func TestHiddenPathsAreMissing_G4_5(t *testing.T) {
	t.Parallel()
	fsys, _ := gatedWorkspace(t)
	ops := []struct {
		name string
		do   func(p string) error
	}{
		{"stat", func(p string) error { _, err := fsys.Stat(p); return err }},
		{"lstat", func(p string) error { _, err := fsys.Lstat(p); return err }},
		{"open", func(p string) error { _, err := fsys.Open(p); return err }},
		{"readdir", func(p string) error { _, err := fsys.ReadDir(p); return err }},
		{"readlink", func(p string) error { _, err := fsys.Readlink(p); return err }},
		{"remove", func(p string) error { return fsys.Remove(p) }},
		{"rename from", func(p string) error { return fsys.Rename(p, "/vault/moved") }},
		{"chmod", func(p string) error { return fsys.Chmod(p, 0o600) }},
		{"realpath", func(p string) error { _, err := fsys.Resolve(p); return err }},
	}
	hidden := []string{"/vault/internal", "/vault/internal/secret.txt", "/vault/internal/link", "/runbook/hidden-link", "/hiddenmount"}
	for _, op := range ops {
		for _, p := range hidden {
			t.Run(op.name+" "+p, func(t *testing.T) {
				t.Parallel()
				err := op.do(p)
				missing := op.do(p + "-missing")
				if errnoOf(err) != syscall.ENOENT {
					t.Fatalf("%s %s = %v, want ENOENT", op.name, p, err)
				}
				if want := strings.ReplaceAll(missing.Error(), p+"-missing", p); err.Error() != want {
					t.Fatalf("hidden error %q differs from a missing path's %q", err, want)
				}
			})
		}
	}
}

// G-4.5: hidden entries are absent from listings; denied ones stay (G-4.6).
func TestHiddenEntriesAreNotListed_G4_5(t *testing.T) {
	t.Parallel()
	fsys, _ := gatedWorkspace(t)
	tests := []struct{ dir, want string }{
		{"/vault", "aws.token public"},
		{"/", "dev runbook tmp vault"},
		{"/runbook/to-public", "ca.pem"},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			t.Parallel()
			if got := names(fsys, tt.dir); got != tt.want {
				t.Fatalf("ls %s = %q, want %q", tt.dir, got, tt.want)
			}
		})
	}
	if got := names(fsys, "/runbook"); strings.Contains(got, "hidden-link") || !strings.Contains(got, "to-token") {
		t.Fatalf("ls /runbook = %q: want hidden-link absent, to-token present", got)
	}
}

// G-6.2: a refusal carries the rule's reason as its whole text and is a
// permission error; G-6.1b: stat and lstat still answer.
func TestRefusalCarriesTheReason_G6_2(t *testing.T) {
	t.Parallel()
	fsys, _ := gatedWorkspace(t)
	refused := []struct {
		name string
		do   func() error
	}{
		{"cat", func() error { _, err := readAll(fsys, "/vault/aws.token"); return err }},
		{"write", func() error { return writeAll(fsys, "/vault/aws.token", "x") }},
		{"rm", func() error { return fsys.Remove("/vault/aws.token") }},
		{"mv from", func() error { return fsys.Rename("/vault/aws.token", "/vault/t") }},
		{"mv onto", func() error { return fsys.Rename("/vault/public/ca.pem", "/vault/aws.token") }},
		{"cat through a link", func() error { _, err := readAll(fsys, "/runbook/to-token"); return err }},
		{"spelled with dots", func() error { _, err := readAll(fsys, "/vault/public/../aws.token"); return err }},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.do()
			var pe *fs.PathError
			var refusal *RefusedError
			if !errors.As(err, &pe) || !errors.As(err, &refusal) {
				t.Fatalf("got %#v, want a PathError carrying a RefusedError", err)
			}
			if pe.Err.Error() != credentialsReason || !errors.Is(err, fs.ErrPermission) {
				t.Fatalf("refusal text %q (ErrPermission %v), want exactly %q", pe.Err, errors.Is(err, fs.ErrPermission), credentialsReason)
			}
		})
	}
	if fi, err := fsys.Stat("/vault/aws.token"); err != nil || fi.Size() != 5 {
		t.Fatalf("stat of a denied file = %v, %v; want its metadata (G-6.1b)", fi, err)
	}
}

// G-6.1a: links are resolved by the View, and every link traversed is
// judged on its own path as well as the path it leads to.
func TestSymlinks_G6_1a(t *testing.T) {
	t.Parallel()
	fsys, _ := gatedWorkspace(t)
	tests := []struct {
		path    string
		want    string // content when readable
		errno   syscall.Errno
		refused bool
	}{
		{path: "/runbook/abs", want: "Incident runbook\n"},
		{path: "/runbook/rel", want: "Incident runbook\n"},
		{path: "/runbook/chain1", want: "Incident runbook\n"},
		{path: "/runbook/to-public/ca.pem", want: "CERT\n"},
		{path: "/runbook/loop1", errno: syscall.ELOOP},
		{path: "/runbook/dangling", errno: syscall.ENOENT},
		{path: "/runbook/to-secret", errno: syscall.ENOENT},
		{path: "/runbook/to-internal/secret.txt", errno: syscall.ENOENT},
		{path: "/runbook/hidden-link", errno: syscall.ENOENT},
		{path: "/vault/internal/link", errno: syscall.ENOENT},
		{path: "/runbook/to-token", refused: true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			got, err := readAll(fsys, tt.path)
			switch {
			case tt.refused:
				if !errors.Is(err, fs.ErrPermission) {
					t.Fatalf("cat %s = %v, want a refusal", tt.path, err)
				}
			case errnoOf(err) != tt.errno || got != tt.want:
				t.Fatalf("cat %s = %q, %v; want %q, %v", tt.path, got, err, tt.want, tt.errno)
			}
		})
	}
}

func TestSymlinkMetadata_G6_1a(t *testing.T) {
	t.Parallel()
	fsys, _ := gatedWorkspace(t)
	if target, err := fsys.Readlink("/runbook/to-secret"); err != nil || target != "/vault/internal/secret.txt" {
		t.Fatalf("readlink of a visible link = %q, %v", target, err)
	}
	if fi, err := fsys.Lstat("/runbook/to-secret"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("lstat of a visible link = %v, %v", fi, err)
	}
	if _, err := fsys.Readlink("/runbook/README.md"); errnoOf(err) != syscall.EINVAL {
		t.Fatalf("readlink of a file = %v, want EINVAL", err)
	}
	if real, err := fsys.Resolve("/runbook/chain1"); err != nil || real != "/runbook/README.md" {
		t.Fatalf("realpath chain1 = %q, %v", real, err)
	}
	if real, err := fsys.Resolve("/runbook/to-public/../frozen"); err != nil || real != "/runbook/frozen" {
		t.Fatalf("realpath with .. after a link = %q, %v; want the lexical /runbook/frozen", real, err)
	}
	// Writing through a link creates the file it points at, as open(2) does.
	if err := writeAll(fsys, "/runbook/dangling", "now"); err != nil {
		t.Fatal(err)
	}
	if got, _ := readAll(fsys, "/runbook/nothing"); got != "now" {
		t.Fatalf("write through a dangling link made %q", got)
	}
}

// Linux allows 40 links in one lookup; the 41st is ELOOP.
func TestLinkLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		links int
		want  syscall.Errno
	}{{40, 0}, {41, syscall.ELOOP}}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.links), func(t *testing.T) {
			t.Parallel()
			fsys := mustVFS(t).View(OpenDoor)
			writeAll(fsys, "/tmp/end", "x")
			prev := "end"
			for i := range tt.links {
				name := fmt.Sprintf("l%d", i)
				fsys.Symlink(prev, "/tmp/"+name)
				prev = name
			}
			if _, err := fsys.Stat("/tmp/" + prev); errnoOf(err) != tt.want {
				t.Fatalf("stat through %d links = %v, want %v", tt.links, err, tt.want)
			}
		})
	}
}

// G-6.1a: no spelling routes around the door.
func TestSpellingsCannotRouteAroundTheDoor_G6_1a(t *testing.T) {
	t.Parallel()
	fsys, _ := gatedWorkspace(t)
	hidden := []string{
		"/vault/public/../internal/secret.txt",
		"//vault//internal/secret.txt",
		"/vault/./internal/",
		"/runbook/../vault/internal",
		"/../../vault/internal/secret.txt",
		"/runbook/to-public/../internal/secret.txt",
		"/runbook/frozen/../to-internal/./secret.txt",
	}
	for _, p := range hidden {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			if _, err := fsys.Stat(p); errnoOf(err) != syscall.ENOENT {
				t.Fatalf("stat %s = %v, want ENOENT", p, err)
			}
		})
	}
}

// The door sees resolved paths, link paths with the op's name, the mount
// prefix, and the write/create flags of the op.
func TestDoorSeesResolvedOps_G6_1(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		do   func(FS) error
		want []Op
	}{
		{"cat through a chain", func(f FS) error { _, err := readAll(f, "/runbook/chain1"); return err }, []Op{
			{Name: OpOpen, Path: "/runbook/chain1", Prefix: "/runbook"},
			{Name: OpOpen, Path: "/runbook/chain2", Prefix: "/runbook"},
			{Name: OpOpen, Path: "/runbook/abs", Prefix: "/runbook"},
			{Name: OpOpen, Path: "/runbook/README.md", Prefix: "/runbook"},
		}},
		{"touch", func(f FS) error { return writeAll(f, "/tmp//new", "") }, []Op{
			{Name: OpOpen, Path: "/tmp/new", Write: true, Create: true, Prefix: "/tmp"},
		}},
		{"lstat does not follow", func(f FS) error { _, err := f.Lstat("/runbook/abs"); return err }, []Op{
			{Name: OpLstat, Path: "/runbook/abs", Prefix: "/runbook"},
		}},
		{"mv judges both ends, then what it carries (a door of ops alone is asked to read and write it)", func(f FS) error { return f.Rename("/runbook/abs", "/runbook/abs2") }, []Op{
			{Name: OpRename, Path: "/runbook/abs", Write: true, Prefix: "/runbook"},
			{Name: OpRename, Path: "/runbook/abs2", Write: true, Create: true, Prefix: "/runbook"},
			{Name: OpOpen, Path: "/runbook/abs", Prefix: "/runbook"},
			{Name: OpOpen, Path: "/runbook/abs", Write: true, Prefix: "/runbook"},
		}},
		{"ln -s judges the link only", func(f FS) error { return f.Symlink("/vault/aws.token", "/tmp/l") }, []Op{
			{Name: OpSymlink, Path: "/tmp/l", Write: true, Create: true, Prefix: "/tmp"},
		}},
		{"stat of the root", func(f FS) error { _, err := f.Stat("/"); return err }, []Op{
			{Name: OpStat, Path: "/"},
		}},
		{"ls a synthetic dir judges each child as a stat", func(f FS) error { _, err := f.ReadDir("/srv"); return err }, []Op{
			{Name: OpReadDir, Path: "/srv"},
			{Name: OpStat, Path: "/srv/data", Prefix: "/srv/data", Listing: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := mustVFS(t, MountSpec{Prefix: "/runbook", Files: map[string]string{"README.md": "r"}}, MountSpec{Prefix: "/srv/data"})
			open := v.View(OpenDoor)
			open.Symlink("/runbook/README.md", "/runbook/abs")
			open.Symlink("/runbook/abs", "/runbook/chain2")
			open.Symlink("chain2", "/runbook/chain1")
			door := &ruleDoor{}
			if err := tt.do(v.View(door)); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(door.ops, tt.want) {
				t.Fatalf("door saw\n%+v\nwant\n%+v", door.ops, tt.want)
			}
		})
	}
}

// G-4.11: creating a hidden name is ENOENT unless the gate itself answers
// EACCES; the View passes its answer on.
func TestCreatingHiddenNames_G4_11(t *testing.T) {
	t.Parallel()
	for _, gateSaysEACCES := range []bool{false, true} {
		t.Run(fmt.Sprint("gate EACCES ", gateSaysEACCES), func(t *testing.T) {
			t.Parallel()
			v := mustVFS(t, MountSpec{Prefix: "/vault"})
			fsys := v.View(&ruleDoor{hidden: []string{"/vault/internal"}, createHidden: gateSaysEACCES})
			want := syscall.ENOENT
			if gateSaysEACCES {
				want = syscall.EACCES
			}
			creates := map[string]error{
				"touch": writeAll(fsys, "/vault/internal", ""),
				"mkdir": fsys.Mkdir("/vault/internal", 0o777),
				"ln":    fsys.Symlink("x", "/vault/internal"),
			}
			for op, err := range creates {
				if errnoOf(err) != want {
					t.Errorf("%s of a hidden name = %v, want %v", op, err, want)
				}
			}
			if names(v.View(OpenDoor), "/vault") != "" {
				t.Fatal("a hidden name was created")
			}
		})
	}
}

func TestRefusedChildStaysListed_G6_1b(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/vault", Files: map[string]string{"aws.token": "k", "other": "o"}})
	door := DoorFunc(func(op Op) error {
		if op.Path == "/vault/aws.token" {
			return &RefusedError{Reason: credentialsReason}
		}
		return nil
	})
	if got := names(v.View(door), "/vault"); got != "aws.token other" {
		t.Fatalf("ls /vault = %q; a refused entry must stay listed", got)
	}
	if _, err := v.View(door).OpenFile("/vault/aws.token", os.O_RDONLY, 0); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("open of a refused file = %v", err)
	}
}

// The door's own answers reach the caller unchanged, inside a PathError
// naming the caller's spelling (G-6.1: the door applies mount modes too).
func TestDoorAnswersPassThrough_G6_1(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		answer error
		want   error
	}{
		{"read-only by profile", EROFS, EROFS},
		{"permission", EACCES, EACCES},
		{"hidden", ErrHidden, ENOENT},
		{"refused", &RefusedError{Reason: "pushes go through CI"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := mustVFS(t, MountSpec{Prefix: "/repo", Files: map[string]string{"f": ""}})
			door := DoorFunc(func(op Op) error {
				if op.Write {
					return tt.answer
				}
				return nil
			})
			err := writeAll(v.View(door), "/repo//f", "x")
			pe, ok := err.(*fs.PathError)
			if !ok || pe.Path != "/repo//f" {
				t.Fatalf("got %#v, want a PathError naming /repo//f", err)
			}
			if tt.want == nil {
				if pe.Err != tt.answer {
					t.Fatalf("got %v, want the door's own error", pe.Err)
				}
			} else if pe.Err != tt.want {
				t.Fatalf("got %v, want %v", pe.Err, tt.want)
			}
			if got, _ := readAll(v.View(OpenDoor), "/repo/f"); got != "" {
				t.Fatalf("the refused write happened: %q", got)
			}
		})
	}
}

// hiderDoor is a ListingDoor that hides names starting with "." in /vault
// and counts how often its per-entry check is asked.
type hiderDoor struct {
	none   bool // Hider answers nil: nothing in any directory is hidden
	checks *int
}

func (d hiderDoor) CheckOp(op Op) error {
	if op.Listing {
		*d.checks++
	}
	if strings.HasPrefix(op.Path, "/vault/.") {
		return ErrHidden
	}
	return nil
}

func (d hiderDoor) Hider(dir string) func(string) bool {
	if d.none {
		return nil
	}
	return func(name string) bool { return dir == "/vault" && strings.HasPrefix(name, ".") }
}

// G-4.5 with G-14: a door that judges listings whole hides the same entries
// the per-entry check would, and a nil hider keeps every entry with no check.
func TestListingDoorHider(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/vault", Files: map[string]string{".git/x": "g", ".env": "e", "a": "a", "b": "b"}})
	checks := 0
	if got := names(v.View(hiderDoor{checks: &checks}), "/vault"); got != "a b" {
		t.Errorf("ls /vault through a hider = %q, want %q", got, "a b")
	}
	if got := names(v.View(hiderDoor{none: true, checks: &checks}), "/vault"); got != ".env .git a b" {
		t.Errorf("ls /vault with a nil hider = %q, want every entry", got)
	}
	if checks != 0 {
		t.Errorf("a ListingDoor was asked %d per-entry listing checks, want 0", checks)
	}
	// A plain door is still asked per entry.
	if got := names(v.View(DoorFunc(hiderDoor{checks: &checks}.CheckOp)), "/vault"); got != "a b" || checks != 4 {
		t.Errorf("plain door: ls = %q after %d checks, want %q after 4", got, checks, "a b")
	}
}

// CheckCreate gives the answer a write creating the name would meet, with
// nothing created: a refusal even below a missing directory, EROFS on a
// read-only mount, ENOENT for a hidden name, nil where the write would
// pass (G-6.1).
func TestCheckCreateCreatesNothing_G6_1(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/w", Files: map[string]string{"a.txt": "a", "d/x": "x"}},
		MountSpec{Prefix: "/ro", ReadOnly: true, Files: map[string]string{"f": "f"}})
	door := DoorFunc(func(op Op) error {
		switch {
		case strings.HasPrefix(op.Path, "/w/secrets"):
			if !op.Write {
				return nil
			}
			return &RefusedError{Reason: credentialsReason}
		case op.Path == "/w/hidden":
			return ErrHidden
		}
		return nil
	})
	fsys := v.View(door)
	tests := []struct {
		name string
		want error
	}{
		{"/w/a.txt", nil},
		{"/w/new.txt", nil},
		{"/w/new/dir/file", nil},
		{"/w/secrets/new.env", fs.ErrPermission},
		{"/w/secrets", fs.ErrPermission},
		{"/w/hidden", fs.ErrNotExist},
		{"/w/d", EISDIR},
		{"/ro/f", EROFS},
		{"/ro/new", EROFS},
	}
	for _, tt := range tests {
		err := fsys.CheckCreate(tt.name)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("CheckCreate(%s) = %v, want %v", tt.name, err, tt.want)
		}
	}
	if got := names(fsys, "/w"); got != "a.txt d" {
		t.Errorf("ls /w = %q: CheckCreate made something", got)
	}
}
