package utils

import (
	"path"
	"testing"
)

// Join answers as path.Clean(dir + "/" + p) did, with its shortcuts for
// find's "./NAME" and for the root.
func TestJoinMatchesClean(t *testing.T) {
	t.Parallel()
	dirs := []string{"/", "/w", "/w/sub", "/w/./x/..", "/w/"}
	names := []string{"", ".", "..", "./", ".//", "./a", "././a", ".//a", "./a/", "./../a", "a", "a/b", "a//b",
		"a/./b", "a/../b", "../a", "/abs", "/abs/../x", "./.", "./..", ".a", "..a", "./.a", "a/."}
	for _, dir := range dirs {
		for _, name := range names {
			want := path.Clean(dir + "/" + name)
			switch {
			case name == "":
				want = path.Clean(dir)
			case name[0] == '/':
				want = path.Clean(name)
			}
			if got := Join(dir, name); got != want {
				t.Errorf("Join(%q, %q) = %q, want %q", dir, name, got, want)
			}
		}
	}
}

// joinEntry gives the path Join would and the printed name joinShown
// would, for every directory a walk starts from and every shown form of
// it.
func TestJoinEntryMatchesJoin(t *testing.T) {
	t.Parallel()
	cases := []struct{ dir, shown string }{
		{"/", ""}, {"/", "/"}, {"/w", ""}, {"/w", "w"}, {"/w", "/w"}, {"/w", "."}, {"/w", "./w"},
		{"/w/sub", "sub"}, {"/w/sub", "w/sub"}, {"/w/sub", "ub"}, {"/w/sub", "sub/"}, {"/w/sub", "../w/sub"},
		{"/w/sub", "/w/sub"}, {"/w/sub", "x/../sub"}, {"/w/sub", "sub//"},
	}
	for _, c := range cases {
		for _, name := range []string{"a", "file.txt", ".hidden", "..a"} {
			child, shown := joinEntry(c.dir, c.shown, name)
			wantShown := name
			if c.shown != "" {
				wantShown = joinShown(c.shown, name)
			}
			if want := Join(c.dir, name); child != want || shown != wantShown {
				t.Errorf("joinEntry(%q, %q, %q) = %q, %q; want %q, %q", c.dir, c.shown, name, child, shown, want, wantShown)
			}
		}
	}
}
