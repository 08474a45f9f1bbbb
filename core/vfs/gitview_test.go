package vfs

import "testing"

// The path tests behind GitView's two limits: a .git component anywhere
// (never a name that merely contains .git), and a link inside .git that
// changes which of the repository's files an op reaches.
func TestGitViewPaths(t *testing.T) {
	t.Parallel()
	components := map[string]bool{
		"/w/.git": true, "/w/.git/index": true, "/.git": true, "/w/d/.git/objects/ab": true,
		"/w": false, "/w/.gitignore": false, "/w/x.git": false, "/w/.github/x": false, "/w/git/.gitx/y": false,
	}
	for p, want := range components {
		if got := hasGitComponent(p); got != want {
			t.Errorf("hasGitComponent(%q) = %v, want %v", p, got, want)
		}
	}
	links := []struct {
		clean, resolved string
		want            bool
	}{
		{"/w/.git/COMMIT_EDITMSG", "/w/.git/index", true},
		{"/w/.git/config.lock", "/w/.git/index", true},
		{"/w/.git/logs/refs/x", "/w/.git/objects/zz/x", true},
		{"/w/d/index", "/w/.git/index", true},
		{"/w/.git/objects/ab/cd", "/w/.git/objects/ab/cd", false},
		{"/w/ln/.git/objects/ab/cd", "/w/repo/.git/objects/ab/cd", false},
		{"/w/ln/.git/index.lock", "/w/repo/.git/index.lock", false},
		{"/w/.git/objects/ab/cd", "/store/.git/objects/ab/cd", false},
		{"/w/.git/COMMIT_EDITMSG", "/w/.git/logs/HEAD", false},
		{"/w/.git/HEAD", "/w/other/HEAD", false},
	}
	for _, c := range links {
		if got := linkedIntoGitStore(c.clean, c.resolved); got != c.want {
			t.Errorf("linkedIntoGitStore(%q, %q) = %v, want %v", c.clean, c.resolved, got, c.want)
		}
	}
}
