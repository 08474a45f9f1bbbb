package gate

import "testing"

// TestGitInternal: the index and the object store of any repository, at
// any depth, are git's; the rest of .git and look-alike names are not
// (G-4.5).
func TestGitInternal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path string
		want bool
	}{
		{"/w/.git/index", true},
		{"/w/.git/index.lock", true},
		{"/w/.git/objects", true},
		{"/w/.git/objects/ab/cdef", true},
		{"/w/.git/objects/info/alternates", true},
		{"/w/sub/.git/index", true},
		{"/w/.git/.git/index", true},
		{"/w/.git/x/.git/objects/pack/p.pack", true},
		{"/w/.git", false},
		{"/w/.git/config", false},
		{"/w/.git/info/exclude", false},
		{"/w/.git/refs/heads/main", false},
		{"/w/.gitx/index", false},
		{"/w/x.git/index", false},
		{"/w/.git/indexes", false},
		{"/w/index", false},
	}
	for _, tt := range tests {
		if got := gitInternal(tt.path); got != tt.want {
			t.Errorf("gitInternal(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
