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
