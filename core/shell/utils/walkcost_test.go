package utils

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"gatehouse/core/vfs"
)

// costFS counts what a recursive utility asks of the filesystem beyond
// its listings: each entry's Info and Lstat/Stat, and how files are opened.
// On a host mount each of those is a syscall or three per file (issue 18).
type costFS struct {
	vfs.FS
	infos, stats, listedOpens, plainOpens atomic.Int64
}

// costEntry counts Info calls on entries of a plain ReadDir: on a host
// mount each is a lookup of its own, where ReadDirInfo's are free.
type costEntry struct {
	fs.DirEntry
	c *costFS
}

func (e costEntry) Info() (fs.FileInfo, error) {
	e.c.infos.Add(1)
	return e.DirEntry.Info()
}

func (c *costFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := c.FS.ReadDir(name)
	for i, e := range entries {
		entries[i] = costEntry{e, c}
	}
	return entries, err
}

func (c *costFS) Stat(name string) (fs.FileInfo, error) {
	c.stats.Add(1)
	return c.FS.Stat(name)
}

func (c *costFS) Lstat(name string) (fs.FileInfo, error) {
	c.stats.Add(1)
	return c.FS.Lstat(name)
}

func (c *costFS) Open(name string) (vfs.File, error) { return c.OpenFile(name, os.O_RDONLY, 0) }

func (c *costFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if flag&vfs.OListedRegular != 0 {
		c.listedOpens.Add(1)
	} else {
		c.plainOpens.Add(1)
	}
	return c.FS.OpenFile(name, flag, perm)
}

// find -type answers from the type the listing recorded, as GNU find does
// from d_type, and grep -r opens each regular file it listed with the
// listing's word (vfs.OListedRegular), so a host mount skips its lstat:
// no per-file metadata call in either walk. ls, du and tree, which read
// every entry's metadata, list with ReadDirInfo and look nothing up.
func TestRecursiveWalksAskNoMetadataPerFile(t *testing.T) {
	t.Parallel()
	c := utilCase{files: map[string]string{
		"/w/a/1.txt": "TODO\n", "/w/a/2.txt": "x\n", "/w/a/b/3.txt": "TODO\n", "/w/c.txt": "y\n",
	}}
	for _, tt := range []struct {
		args       []string
		want       string
		wantListed int64
	}{
		{[]string{"find", ".", "-type", "f"}, "./a/1.txt\n./a/2.txt\n./a/b/3.txt\n./c.txt\n", 0},
		{[]string{"find", ".", "-type", "d"}, ".\n./a\n./a/b\n", 0},
		{[]string{"grep", "-rl", "TODO"}, "a/1.txt\na/b/3.txt\n", 4},
		// ls -l, du and tree read every entry's metadata: with the listing.
		{[]string{"ls", "-R", "a"}, "a:\n1.txt\n2.txt\nb\n\na/b:\n3.txt\n", 0},
		{[]string{"du", "-a", "--apparent-size", "-b", "a/b"}, "5\ta/b/3.txt\n4101\ta/b\n", 0},
		{[]string{"tree", "--noreport", "a"}, "a\n├── 1.txt\n├── 2.txt\n└── b\n    └── 3.txt\n", 0},
	} {
		cost := &costFS{FS: newTestFS(t, c)}
		var out, errb bytes.Buffer
		e := testEnv(t, utilCase{args: tt.args}, cost, &out, &errb, nil)
		if _, err := Lookup(tt.args[0]).Run(e); err != nil || out.String() != tt.want || errb.Len() > 0 {
			t.Fatalf("%v = %q, %q, %v; want %q", tt.args, out.String(), errb.String(), err, tt.want)
		}
		if n := cost.infos.Load() + cost.stats.Load(); n > 1 {
			t.Errorf("%v took %d Info/Stat calls; the entries' types answer (the start point's lstat aside)", tt.args, n)
		}
		if cost.listedOpens.Load() != tt.wantListed || cost.plainOpens.Load() != 0 {
			t.Errorf("%v opened %d files with the listing's word and %d without; want %d and 0",
				tt.args, cost.listedOpens.Load(), cost.plainOpens.Load(), tt.wantListed)
		}
	}
}

// find -type f allocates per directory, not per file: the absolute path
// and the printed path are made only when something asks for them, the
// print writes the parts, and one findFile serves a directory's entries
// (it made four allocations per file before).
func TestFindAllocatesPerDirectory(t *testing.T) {
	files := map[string]string{}
	for d := range 4 {
		for f := range 250 {
			files[fmt.Sprintf("/w/d%d/f%03d.txt", d, f)] = "x\n"
		}
	}
	v, err := vfs.New([]vfs.MountSpec{{Prefix: "/w", Files: files}})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	// A door that can say at once that nothing in a directory is hidden,
	// as the gate's can, so only find's own allocations count.
	fsys := v.View(hidesNothing{})
	var out bytes.Buffer
	e := testEnv(t, utilCase{args: []string{"find", ".", "-type", "f"}}, fsys, &out, io.Discard, nil)
	find := Lookup("find")
	allocs := testing.AllocsPerRun(5, func() {
		out.Reset()
		find.Run(e)
	})
	if lines := strings.Count(out.String(), "\n"); lines != 1000 {
		t.Fatalf("find printed %d lines", lines)
	}
	if perFile := allocs / 1000; perFile > 0.5 {
		t.Fatalf("find -type f made %.0f allocations for 1000 files (%.2f per file)", allocs, perFile)
	}
}

// ls -l lays each line out in one buffer and remembers the text of each
// mode and date minute: a long listing of many files makes a few
// allocations per file (it made eight).
func TestLongListingAllocations(t *testing.T) {
	files := map[string]string{}
	for d := range 4 {
		for f := range 250 {
			files[fmt.Sprintf("/w/d%d/f%03d.txt", d, f)] = strings.Repeat("x", f)
		}
	}
	v, err := vfs.New([]vfs.MountSpec{{Prefix: "/w", Files: files}})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	var out bytes.Buffer
	e := testEnv(t, utilCase{args: []string{"ls", "-lR"}}, v.View(hidesNothing{}), &out, io.Discard, nil)
	ls := Lookup("ls")
	allocs := testing.AllocsPerRun(5, func() {
		out.Reset()
		ls.Run(e)
	})
	if !strings.Contains(out.String(), "f249.txt") {
		t.Fatalf("ls -lR printed %q", out.String()[:min(200, out.Len())])
	}
	if perFile := allocs / 1000; perFile > 4 { // about 2.5 now
		t.Fatalf("ls -lR made %.0f allocations for 1000 files (%.2f per file)", allocs, perFile)
	}
}

type hidesNothing struct{}

func (hidesNothing) CheckOp(vfs.Op) error                { return nil }
func (hidesNothing) Hider(string) func(name string) bool { return nil }
