package vfs

import (
	"io"
	"os"
	"strings"
	"testing"
)

func durableVFS(t *testing.T, specs ...MountSpec) *VFS {
	t.Helper()
	v, err := New(specs, WithClock(fixedClock), WithJournal())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// summary renders entries as PATH=KIND[:content] lines.
func summary(entries []Entry) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.Path + "=" + string(e.Kind))
		switch e.Kind {
		case EntryFile:
			b.WriteString(":" + string(e.Data))
		case EntryLink:
			b.WriteString("->" + e.Target)
		}
		b.WriteString(" ")
	}
	return strings.TrimSuffix(b.String(), " ")
}

// The journal hands over every path a change touched, as it stands, once;
// ephemeral mounts and the built-in /tmp journal nothing.
func TestJournalChanges(t *testing.T) {
	t.Parallel()
	v := durableVFS(t,
		MountSpec{Prefix: "/w", Files: map[string]string{"seed.txt": "s\n", "d/a": "a\n", "d/b": "b\n", "old": "o\n"}},
		MountSpec{Prefix: "/scratch", Ephemeral: true})
	if got := strings.Join(v.DurableMounts(), " "); got != "/w" {
		t.Fatalf("DurableMounts = %q, want /w", got)
	}
	fsys := v.View(nil)
	steps := []struct {
		do   func() error
		want string
	}{
		{func() error { return writeAll(fsys, "/w/new.txt", "n\n") }, "new.txt=file:n\n"},
		{func() error { return fsys.Remove("/w/old") }, "old=gone"},
		{func() error { return fsys.Rename("/w/d", "/w/e") }, "d=gone d/a=gone d/b=gone e=dir e/a=file:a\n e/b=file:b\n"},
		{func() error { return fsys.Mkdir("/w/m", 0o700) }, "m=dir"},
		{func() error { return fsys.Symlink("seed.txt", "/w/l") }, "l=link->seed.txt"},
		{func() error { return fsys.Chmod("/w/seed.txt", 0o600) }, "seed.txt=file:s\n"},
		{func() error { return writeAll(fsys, "/scratch/x", "x") }, ""},
		{func() error { return writeAll(fsys, "/tmp/x", "x") }, ""},
	}
	for i, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got, err := v.Changes("/w")
		if err != nil {
			t.Fatal(err)
		}
		if summary(got) != s.want {
			t.Errorf("step %d: changes %q, want %q", i, summary(got), s.want)
		}
	}
	// A file held open across a take marks its path again when written.
	f, err := fsys.OpenFile("/w/log", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "1\n")
	if got, _ := v.Changes("/w"); summary(got) != "log=file:1\n" {
		t.Errorf("open file: %q", summary(got))
	}
	io.WriteString(f, "2\n")
	f.Close()
	if got, _ := v.Changes("/w"); summary(got) != "log=file:1\n2\n" {
		t.Errorf("open file written after the take: %q", summary(got))
	}
	if _, err := v.Changes("/scratch"); err == nil {
		t.Error("Changes of an ephemeral mount is not an error")
	}
	// Given back, they are handed over again.
	writeAll(fsys, "/w/again", "1")
	got, _ := v.Changes("/w")
	v.Rejournal("/w", []string{got[0].Path})
	if again, _ := v.Changes("/w"); summary(again) != "again=file:1" {
		t.Errorf("rejournaled: %q", summary(again))
	}
}

// Apply lays saved entries over the seed, passes over paths with changes
// not yet handed over, keeps the mount's space and link counts, and Reseed
// goes back to the seed.
func TestApplyAndReseed(t *testing.T) {
	t.Parallel()
	spec := MountSpec{Prefix: "/w", Size: 10_000, Files: map[string]string{"seed.txt": "s\n", "d/a": "a\n", "keep": "k\n"}}
	v := durableVFS(t, spec)
	fsys := v.View(nil)
	writeAll(fsys, "/w/keep", "mine\n") // not yet handed over
	err := v.Apply("/w", []Entry{
		{Path: "d/a", Kind: EntryGone},
		{Path: "d", Kind: EntryGone},
		{Path: "seed.txt", Kind: EntryFile, Mode: 0o600, Data: []byte("changed\n")},
		{Path: "x/y/z", Kind: EntryFile, Mode: 0o644, Data: []byte("deep\n")},
		{Path: "l", Kind: EntryLink, Target: "seed.txt"},
		{Path: "keep", Kind: EntryFile, Mode: 0o644, Data: []byte("theirs\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"/w/seed.txt": "changed\n", "/w/x/y/z": "deep\n", "/w/l": "changed\n", "/w/keep": "mine\n"} {
		if got, err := readAll(fsys, name); got != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if got := names(fsys, "/w"); got != "keep l seed.txt x" {
		t.Errorf("/w lists %q", got)
	}
	mem, _ := v.durable("/w")
	if used, want := mem.space.used.Load(), treeCost(mem.root); used != want {
		t.Errorf("space used %d, the tree takes %d", used, want)
	}
	if mem.links.Load() != 1 || v.links.Load() != 1 {
		t.Errorf("link counts %d/%d, want 1", mem.links.Load(), v.links.Load())
	}
	if err := v.Apply("/w", []Entry{{Path: "../escape", Kind: EntryFile}}); err == nil {
		t.Error("an entry outside the mount was applied")
	}
	if err := v.Reseed("/w"); err != nil {
		t.Fatal(err)
	}
	if got := names(fsys, "/w"); got != "d keep seed.txt" {
		t.Errorf("after Reseed /w lists %q", got)
	}
	if got, _ := readAll(fsys, "/w/keep"); got != "k\n" {
		t.Errorf("after Reseed keep = %q", got)
	}
	if used, want := mem.space.used.Load(), treeCost(mem.root); used != want || mem.links.Load() != 0 || v.links.Load() != 0 {
		t.Errorf("after Reseed: space %d (tree %d), links %d/%d", used, want, mem.links.Load(), v.links.Load())
	}
	if got, _ := v.Changes("/w"); len(got) != 0 {
		t.Errorf("Reseed left a journal: %q", summary(got))
	}
}

// Without WithJournal nothing is durable.
func TestNoJournalWithoutOption(t *testing.T) {
	t.Parallel()
	v := mustVFS(t, MountSpec{Prefix: "/w"})
	if got := v.DurableMounts(); len(got) != 0 {
		t.Errorf("DurableMounts = %v", got)
	}
}
