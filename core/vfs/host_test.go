package vfs

import (
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// hostTree lays out a host directory "repo" beside an "outside" directory
// holding a secret, with links that stay inside and links that escape.
func hostTree(t *testing.T) (repo, outside string) {
	t.Helper()
	base := t.TempDir()
	repo = filepath.Join(base, "repo")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{repo + "/src/pkg", outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		repo + "/README.md":      "host readme\n",
		repo + "/src/main.go":    "package main\n",
		outside + "/secret.txt":  "outside secret\n",
		repo + "/src/pkg/doc.go": "package pkg\n",
	}
	for name, content := range files {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{ // link -> host target
		"abs-in":         repo + "/README.md",
		"abs-in-dir":     repo + "/src",
		"rel-in":         "src/main.go",
		"src/pkg/up":     "../../README.md",
		"abs-out":        outside + "/secret.txt",
		"abs-out-dir":    outside,
		"rel-out":        "../outside/secret.txt",
		"src/rel-out":    "../../outside",
		"abs-etc":        "/etc/passwd",
		"src/pkg/to-top": "../..",
		"src/sneaky":     "../../repo/README.md", // leaves the host dir, even if it comes back by name
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(repo, link)); err != nil {
			t.Fatal(err)
		}
	}
	return repo, outside
}

func TestHostMountReadsAndWrites_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		repo, _ := hostTree(t)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/repo", HostDir: repo}).View(OpenDoor)

		if got, err := readAll(fsys, "/repo/src/main.go"); got != "package main\n" || err != nil {
			t.Fatalf("cat = %q, %v", got, err)
		}
		// Links that would lead outside the directory are not listed (G-5.6).
		if got := names(fsys, "/repo"); got != "README.md abs-in abs-in-dir rel-in src" {
			t.Fatalf("ls /repo = %q", got)
		}
		if err := writeAll(fsys, "/repo/notes.txt", "written\n"); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(repo, "notes.txt")); string(b) != "written\n" {
			t.Fatalf("host file holds %q", b)
		}
		steps := []func() error{
			func() error { return fsys.Mkdir("/repo/build", 0o755) },
			func() error { return fsys.Rename("/repo/notes.txt", "/repo/build/notes.txt") },
			func() error { return fsys.Chmod("/repo/build/notes.txt", 0o600) },
		}
		for i, step := range steps {
			if err := step(); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		if fi, err := os.Stat(filepath.Join(repo, "build/notes.txt")); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("host after mkdir, mv, chmod: %v, %v", fi, err)
		}
		if err := fsys.Remove("/repo/build"); errnoOf(err) != syscall.ENOTEMPTY {
			t.Fatalf("rmdir of a full host dir = %v", err)
		}
		entries, _ := fsys.ReadDir("/repo/build")
		if fi, err := entries[0].Info(); err != nil || fi.Name() != "notes.txt" || fi.Size() != 8 {
			t.Fatalf("entry info = %v, %v", fi, err)
		}
	})
}

func TestHostMountReadOnly_G5_2(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		repo, _ := hostTree(t)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/repo", HostDir: repo, ReadOnly: true}).View(OpenDoor)
		if err := writeAll(fsys, "/repo/x", ""); errnoOf(err) != syscall.EROFS {
			t.Fatalf("touch on a ro host mount = %v", err)
		}
		if err := fsys.Remove("/repo/README.md"); errnoOf(err) != syscall.EROFS {
			t.Fatalf("rm on a ro host mount = %v", err)
		}
		if _, err := os.Stat(filepath.Join(repo, "README.md")); err != nil {
			t.Fatal("the host file was removed")
		}
	})
}

// G-5.6: links never lead outside the mount's root.
func TestHostLinksStayInside_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		repo, _ := hostTree(t)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/repo", HostDir: repo}).View(OpenDoor)
		tests := []struct {
			path  string
			want  string
			errno syscall.Errno
		}{
			{path: "/repo/abs-in", want: "host readme\n"},
			{path: "/repo/abs-in-dir/main.go", want: "package main\n"},
			{path: "/repo/rel-in", want: "package main\n"},
			{path: "/repo/src/pkg/up", want: "host readme\n"},
			{path: "/repo/src/pkg/to-top/README.md", want: "host readme\n"},
			{path: "/repo/abs-out", errno: syscall.ENOENT},
			{path: "/repo/abs-out-dir/secret.txt", errno: syscall.ENOENT},
			{path: "/repo/rel-out", errno: syscall.ENOENT},
			{path: "/repo/src/rel-out/secret.txt", errno: syscall.ENOENT},
			{path: "/repo/abs-etc", errno: syscall.ENOENT},
			{path: "/repo/../repo/src/../rel-out", errno: syscall.ENOENT},
			{path: "/repo/src/sneaky", errno: syscall.ENOENT},
		}
		for _, tt := range tests {
			t.Run(tt.path, func(t *testing.T) {
				t.Parallel()
				got, err := readAll(fsys, tt.path)
				if got != tt.want || errnoOf(err) != tt.errno {
					t.Fatalf("cat %s = %q, %v; want %q, %v", tt.path, got, err, tt.want, tt.errno)
				}
				if err != nil && strings.Contains(err.Error(), filepath.Dir(repo)) {
					t.Fatalf("error %q shows a host path", err)
				}
			})
		}
		if real, err := fsys.Resolve("/repo/abs-in-dir"); err != nil || real != "/repo/src" {
			t.Fatalf("realpath of an absolute host link = %q, %v; want the VFS path", real, err)
		}
		if target, _ := fsys.Readlink("/repo/abs-in"); target != "/repo/README.md" {
			t.Fatalf("readlink of an absolute host link = %q; want the VFS path", target)
		}
		// A link that would leave the mount does not exist for the agent at
		// all: not followed, not read, not even lstat'ed (G-5.6).
		for _, p := range []string{"/repo/abs-out", "/repo/rel-out", "/repo/src/sneaky", "/repo/abs-etc"} {
			if _, err := fsys.Lstat(p); errnoOf(err) != syscall.ENOENT {
				t.Fatalf("lstat %s = %v, want ENOENT", p, err)
			}
		}
	})
}

// Links made through the VFS on a host mount work on the host too.
func TestHostSymlinkCreation_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		repo, _ := hostTree(t)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/repo", HostDir: repo}).View(OpenDoor)
		tests := []struct {
			target, link string
			hostTarget   string
			errno        syscall.Errno
		}{
			{target: "/repo/README.md", link: "/repo/src/pkg/readme", hostTarget: "../../README.md"},
			{target: "/repo/src", link: "/repo/srclink", hostTarget: "src"},
			{target: "main.go", link: "/repo/src/m", hostTarget: "main.go"},
			{target: "/tmp/elsewhere", link: "/repo/tmp", errno: syscall.EXDEV},
		}
		for _, tt := range tests {
			t.Run(tt.link, func(t *testing.T) {
				t.Parallel()
				err := fsys.Symlink(tt.target, tt.link)
				if errnoOf(err) != tt.errno {
					t.Fatalf("ln -s %s %s = %v, want %v", tt.target, tt.link, err, tt.errno)
				}
				if err != nil {
					return
				}
				onHost, err := os.Readlink(filepath.Join(repo, strings.TrimPrefix(tt.link, "/repo/")))
				if err != nil || onHost != tt.hostTarget {
					t.Fatalf("host link holds %q, %v; want %q", onHost, err, tt.hostTarget)
				}
				if _, err := fsys.Stat(tt.link); err != nil {
					t.Fatalf("the new link does not resolve: %v", err)
				}
			})
		}
	})
}

func TestHostErrorsNameVFSPaths(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		repo, _ := hostTree(t)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/repo", HostDir: repo}).View(OpenDoor)
		f, err := fsys.Open("/repo/src")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		_, err = io.ReadAll(f)
		var pe *fs.PathError
		if errnoOf(err) != syscall.EISDIR || !asPathError(err, &pe) || pe.Path != "/repo/src" {
			t.Fatalf("read of a host directory = %v; want EISDIR naming /repo/src", err)
		}
		if fi, err := f.Stat(); err != nil || fi.Name() != "src" {
			t.Fatalf("stat of the open dir = %v, %v", fi, err)
		}
	})
}

// bothResolvers runs a host-mount test with openat2 and with the component
// walk that stands in for it on kernels without openat2 (G-5.6).
func bothResolvers(t *testing.T, test func(t *testing.T, walk bool)) {
	t.Parallel()
	for _, walk := range []bool{false, true} {
		name := "openat2"
		if walk {
			name = "component-walk"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, walk)
		})
	}
}

// hostVFS builds a VFS whose host mounts resolve with the component walk
// alone when walk is set.
func hostVFS(t testing.TB, walk bool, specs ...MountSpec) *VFS {
	t.Helper()
	v := mustVFS(t, specs...)
	if walk {
		for _, m := range v.mounts {
			if h, ok := m.b.(*hostFS); ok {
				h.useComponentWalk()
			}
		}
	}
	return v
}

func asPathError(err error, target **fs.PathError) bool {
	pe, ok := err.(*fs.PathError)
	*target = pe
	return ok
}

// G-5.6, gate-integrity class 15: a host link that would lead outside the
// directory does not exist for the agent: not listed, ENOENT for every
// lookup, and a name that cannot be created over (EACCES, as a hidden name
// is, G-4.11), so the agent neither reaches nor removes nor learns of it.
// A link the agent makes that would climb out is refused (EXDEV).
func TestHostEscapingLinksAreConcealed_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		repo, _ := hostTree(t)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/repo", HostDir: repo}).View(OpenDoor)
		tests := []struct {
			name string
			do   func() error
			want syscall.Errno
		}{
			{"ln -s over it", func() error { return fsys.Symlink("README.md", "/repo/abs-out") }, syscall.EACCES},
			{"mkdir over it", func() error { return fsys.Mkdir("/repo/rel-out", 0o755) }, syscall.EACCES},
			{"write through it", func() error { return writeAll(fsys, "/repo/abs-out", "x") }, syscall.EACCES},
			{"append through it", func() error {
				_, err := fsys.OpenFile("/repo/rel-out", os.O_WRONLY|os.O_APPEND, 0)
				return err
			}, syscall.ENOENT},
			{"create it", func() error {
				_, err := fsys.OpenFile("/repo/abs-etc", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
				return err
			}, syscall.EACCES},
			{"mv onto it", func() error { return fsys.Rename("/repo/README.md", "/repo/abs-out-dir") }, syscall.EACCES},
			{"mv it", func() error { return fsys.Rename("/repo/src/sneaky", "/repo/sneaky2") }, syscall.ENOENT},
			{"rm it", func() error { return fsys.Remove("/repo/abs-out") }, syscall.ENOENT},
			{"readlink it", func() error { _, err := fsys.Readlink("/repo/rel-out"); return err }, syscall.ENOENT},
			{"chmod through it", func() error { return fsys.Chmod("/repo/abs-out", 0o600) }, syscall.ENOENT},
			{"make a climbing link", func() error { return fsys.Symlink("../../x", "/repo/src/climb") }, syscall.EXDEV},
			{"make a link that climbs and comes back", func() error { return fsys.Symlink("../repo/README.md", "/repo/back") }, syscall.EXDEV},
		}
		for _, tt := range tests {
			if err := tt.do(); errnoOf(err) != tt.want {
				t.Fatalf("%s = %v, want %v", tt.name, err, tt.want)
			}
		}
		for link, target := range map[string]string{"abs-out": filepath.Dir(repo) + "/outside/secret.txt", "rel-out": "../outside/secret.txt"} {
			if got, err := os.Readlink(filepath.Join(repo, link)); err != nil || got != target {
				t.Fatalf("host link %s = %q, %v; the agent changed it", link, got, err)
			}
		}
		if got := names(fsys, "/repo/src"); got != "main.go pkg" {
			t.Fatalf("ls src = %q; escaping links must not be listed", got)
		}
		if got := names(fsys, "/repo/src/pkg"); got != "doc.go to-top up" {
			t.Fatalf("ls src/pkg = %q; links that stay inside are listed", got)
		}
	})
}

// ReadDirInfo lists what ReadDir lists, each entry's Info already the
// entry's lstat (taken against the open directory on a host mount).
func TestHostReadDirInfo(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		repo, _ := hostTree(t)
		door := &ruleDoor{hidden: []string{"/repo/src/main.go"}}
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/repo", HostDir: repo}).View(door)
		for _, dir := range []string{"/repo", "/repo/src", "/repo/src/pkg"} {
			plain, err := fsys.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			withInfo, err := fsys.ReadDirInfo(dir)
			if err != nil || len(withInfo) != len(plain) {
				t.Fatalf("ReadDirInfo %s = %d entries, %v; ReadDir has %d", dir, len(withInfo), err, len(plain))
			}
			for i, e := range withInfo {
				info, err := e.Info()
				want, werr := fsys.Lstat(dir + "/" + e.Name())
				if e.Name() != plain[i].Name() || e.Type() != plain[i].Type() || err != nil || werr != nil ||
					info.Name() != want.Name() || info.Mode() != want.Mode() || info.Size() != want.Size() || !info.ModTime().Equal(want.ModTime()) {
					t.Fatalf("%s entry %d: %v %v (%v) vs lstat %v (%v)", dir, i, e, info, err, want, werr)
				}
			}
		}
		if _, err := fsys.ReadDirInfo("/repo/README.md"); errnoOf(err) != syscall.ENOTDIR {
			t.Fatalf("ReadDirInfo of a file = %v", err)
		}
	})
}

// An entry whose directory a host process replaced by a link after the
// listing is gone: Info says ENOENT (it used to return an error without an
// errno, which a utility's error text could not read).
func TestHostEntryInfoAfterItsDirectoryBecameALink(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "a"), 0o755)
		os.WriteFile(filepath.Join(dir, "a/f"), []byte("x"), 0o644)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/m", HostDir: dir}).View(OpenDoor)
		entries, err := fsys.ReadDir("/m/a")
		if err != nil || len(entries) != 1 {
			t.Fatal(entries, err)
		}
		os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "b"))
		os.Symlink("b", filepath.Join(dir, "a"))
		if _, err := entries[0].Info(); errnoOf(err) != syscall.ENOENT {
			t.Fatalf("Info after the swap = %v, want ENOENT", err)
		}
	})
}

// A host listing comes back in name order whatever order the directory
// holds its entries in (tmpfs: creation order).
func TestHostListingIsSorted(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		dir := t.TempDir()
		var want []string
		for i := 300; i > 0; i-- {
			name := fmt.Sprintf("n%03d", i*7%301)
			os.WriteFile(filepath.Join(dir, name), nil, 0o644)
			want = append(want, name)
		}
		// Names that share their first eight bytes, or are shorter, or
		// hold bytes above 0x7f: the sort's numeric key must not reorder
		// them.
		for _, name := range []string{"n", "n0", "prefix12345678b", "prefix12345678", "prefix1234567",
			"prefix12345678a", "prefix1234568", "\u00e9t\u00e9", "\xff", "\x01", "n 1", "N"} {
			os.WriteFile(filepath.Join(dir, name), nil, 0o644)
			want = append(want, name)
		}
		slices.Sort(want)
		want = slices.Compact(want)
		fsys := hostVFS(t, walk, MountSpec{Prefix: "/m", HostDir: dir}).View(OpenDoor)
		for _, list := range []func(string) ([]fs.DirEntry, error){fsys.ReadDir, fsys.ReadDirInfo} {
			if got := names(fsys, "/m"); got != strings.Join(want, " ") {
				t.Fatalf("ls = %q", got)
			}
			entries, err := list("/m")
			if err != nil || len(entries) != len(want) {
				t.Fatal(len(entries), err)
			}
			for i, e := range entries {
				if e.Name() != want[i] {
					t.Fatalf("entry %d = %s, want %s", i, e.Name(), want[i])
				}
			}
		}
	})
}

// sortedEntries orders names as strings.Compare does, for directories
// whose names share long prefixes, differ only past the six bytes it
// compares as numbers, are prefixes of one another, hold bytes above
// 0x7f, or are too many for its 16-bit index.
func TestHostSortedEntriesOrder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := "ab.\x01\xff"
	for _, n := range []int{0, 1, 2, 3, 17, 100, 1000, 1<<16 + 5} {
		for _, shared := range []string{"", "x", "prefix-shared-by-all/"[:20]} {
			seen := map[string]bool{}
			var entries []hostDirEntry
			for len(entries) < n {
				b := []byte(shared)
				for range rng.IntN(12) {
					b = append(b, alphabet[rng.IntN(len(alphabet))])
				}
				if name := string(b); name != "" && !seen[name] {
					seen[name] = true
					entries = append(entries, hostDirEntry{name: name})
				}
			}
			want := make([]string, len(entries))
			for i, e := range entries {
				want[i] = e.name
			}
			slices.Sort(want)
			got := sortedEntries(entries, &listScratch{})
			for i, e := range got {
				if e.Name() != want[i] {
					t.Fatalf("n=%d shared=%q: entry %d = %q, want %q", n, shared, i, e.Name(), want[i])
				}
			}
		}
	}
	// A tree's names, which differ in a byte or two of the window (the
	// radix sort's passes over the others are skipped), listed in a
	// shuffled order and sorted twice with one scratch, whose buffers the
	// radix sort swaps.
	scratch := &listScratch{}
	for _, n := range []int{radixMin, 100, 257, 5000} {
		entries, want := treeNames(n, rng)
		for range 2 {
			for i, e := range sortedEntries(slices.Clone(entries), scratch) {
				if e.Name() != want[i] {
					t.Fatalf("tree n=%d: entry %d = %q, want %q", n, i, e.Name(), want[i])
				}
			}
		}
	}
}

// treeNames are n names as `ghbench tree` writes them (f0050000.txt …) in
// a shuffled order, and the same names sorted.
func treeNames(n int, rng *rand.Rand) ([]hostDirEntry, []string) {
	want := make([]string, n)
	for i := range want {
		want[i] = fmt.Sprintf("f%07d.txt", 50000+i)
	}
	entries := make([]hostDirEntry, n)
	for i, j := range rng.Perm(n) {
		entries[i] = hostDirEntry{name: want[j]}
	}
	return entries, want
}

// BenchmarkHostSortedEntries sorts a directory of a hundred files listed
// in a shuffled order, as a walk of a `ghbench tree` sorts each of its
// listings.
func BenchmarkHostSortedEntries(b *testing.B) {
	entries, _ := treeNames(100, rand.New(rand.NewPCG(7, 8)))
	scratch := &listScratch{}
	work := make([]hostDirEntry, len(entries))
	b.ReportAllocs()
	for b.Loop() {
		copy(work, entries)
		sortedEntries(work, scratch)
	}
}
