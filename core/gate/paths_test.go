package gate

import (
	"testing"
)

// G-4.3: anchor depth is the number of literal components before the first
// wildcard.
func TestAnchorDepth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		depth   int
	}{
		{"/runbook/frozen/*", 2},
		{"/runbook/*", 1},
		{"/vault", 1},
		{"/", 0},
		{"/*/x", 0},
		{"/a/**/b", 1},
		{"/a/b?/c", 1},
		{`/a/\*/c`, 3}, // an escaped star is literal
		{"//vault/./x/", 2},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			t.Parallel()
			pp, err := compilePathPattern(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(pp.anchor); got != tt.depth {
				t.Errorf("anchor depth of %q = %d, want %d", tt.pattern, got, tt.depth)
			}
		})
	}
}

// G-4.1, G-4.2: glob syntax per component, and reach: an entry covers the
// paths it matches and everything below them.
func TestReach(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		path    string
		want    bool
	}{
		{"/runbook/*", "/runbook/frozen/restore.md", true},
		{"/runbook/*", "/runbook", false},
		{"/runbook/*", "/runbookx/a", false},
		{"/vault", "/vault", true},
		{"/vault", "/vault/a/b/c", true},
		{"/vault", "/vaults", false},
		{"/", "/anything/at/all", true},
		{"/*/x", "/repo/x/y", true},
		{"/*/x", "/repo/y/x", false},
		{"/runbook/*.bak", "/runbook/notes.bak", true},
		{"/runbook/*.bak", "/runbook/notes.bak.txt", false},
		{"/runbook/*.bak", "/runbook/sub/notes.bak", false},
		{"/r/file?.md", "/r/file1.md", true},
		{"/r/file?.md", "/r/file12.md", false},
		{"/r/[ab]*", "/r/apple", true},
		{"/r/[!ab]*", "/r/apple", false},
		{"/r/[a-c]x", "/r/bx", true},
		{"/r/[]]", "/r/]", true},
		{"/r/**/secret", "/r/secret", true},
		{"/r/**/secret", "/r/a/b/secret/x", true},
		{"/r/**/secret", "/r/a/b/public", false},
		{"/r/**", "/r", true},
		{"/r/**", "/rx", false},
		{"/r/*/*/z", "/r/a/b/z", true},
		{"/r/*a*b*", "/r/xaybz", true},
		{"/r/*a*b*", "/r/xbya", false},
		{"/r/é?", "/r/éü", true},
		{"/r/draft*", "/r/draft-2.md", true},
		{"/r/draft*", "/r/old-draft", false},
		{"/r/*tmp*", "/r/a.tmp.b", true},
		{"/r/*tmp*", "/r/a.tm.p", false},
		{`/r/a\*`, "/r/a*", true},
		{`/r/a\*`, "/r/ab", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"~"+tt.path, func(t *testing.T) {
			t.Parallel()
			p := mustCompile(t, ProfileSpec{Name: "t", Hide: []PathGroup{{Paths: []string{tt.pattern}}}}, nil)
			got := p.PathInfo(tt.path).Verb == VerbHide
			if got != tt.want {
				t.Errorf("%q reaches %q = %v, want %v", tt.pattern, tt.path, got, tt.want)
			}
		})
	}
}

// G-4.4: the deepest anchor wins whatever its verb, in the demo profile:
// hide /vault/internal (2) beats deny /vault/* (1); show /vault/public (2)
// re-opens the public certificate; nothing reaches /runbook/README.md.
func TestDeepestAnchorWins(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	tests := []struct {
		path     string
		verb     Verb
		vis      Visibility
		readOnly bool
		rule     string
		policy   string
	}{
		{"/vault/internal/keys.txt", VerbHide, PathHidden, false, srcHideInt, "profile:responder"},
		{"/vault/aws.token", VerbDeny, PathVisible, false, srcDenyVault, "profile:responder"},
		{"/vault/public/ca.pem", VerbShow, PathVisible, true, srcShowPub, "profile:responder"},
		{"/vault", VerbNone, PathVisible, false, "", ""},
		{"/runbook/README.md", VerbNone, PathVisible, false, "", ""},
		{"/runbook/old.bak", VerbHide, PathHidden, false, srcHideBak, "profile:responder"},
		{"/repo/id.key", VerbHide, PathHidden, true, srcRepoKey, "mount:/repo"},
		{"/repo/src/main.go", VerbNone, PathVisible, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			got := p.PathInfo(tt.path)
			if got.Verb != tt.verb || got.Visibility != tt.vis || got.ReadOnly != tt.readOnly ||
				got.Rule != tt.rule || got.Policy != tt.policy {
				t.Errorf("PathInfo(%s) = %+v, want verb %q %s ro=%v rule %s policy %s",
					tt.path, got, tt.verb, tt.vis, tt.readOnly, tt.rule, tt.policy)
			}
		})
	}
	if got := p.PathInfo("/runbook/x.bak"); got.Reason != reasonBak {
		t.Errorf("hide reason = %q, want %q for hosts (G-4.5)", got.Reason, reasonBak)
	}
}

// G-4.4: at the same anchor depth, ties break hide > deny > ask > show,
// whatever order the rules were written in.
func TestTieBreakAtEqualDepth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		verbs []Verb // written in this order, all on /d/x
		want  Verb
	}{
		{"G-4.4 hide beats deny", []Verb{VerbDeny, VerbHide}, VerbHide},
		{"G-4.4 deny beats ask", []Verb{VerbAsk, VerbDeny}, VerbDeny},
		{"G-4.4 ask beats show", []Verb{VerbShow, VerbAsk}, VerbAsk},
		{"G-4.4 hide beats show", []Verb{VerbShow, VerbHide}, VerbHide},
		{"G-4.4 all four", []Verb{VerbShow, VerbAsk, VerbDeny, VerbHide}, VerbHide},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec := ProfileSpec{Name: "t"}
			for _, v := range tt.verbs {
				switch v {
				case VerbHide:
					spec.Hide = append(spec.Hide, PathGroup{Paths: []string{"/d/x"}})
				case VerbShow:
					spec.Show = append(spec.Show, ShowEntry{Path: "/d/x"})
				case VerbDeny:
					spec.Deny = append(spec.Deny, Rule{Paths: []string{"/d/x"}})
				case VerbAsk:
					spec.Ask = append(spec.Ask, Rule{Paths: []string{"/d/x"}})
				}
			}
			p := mustCompile(t, spec, []Mount{{Prefix: "/d"}})
			if got := p.PathInfo("/d/x/file").Verb; got != tt.want {
				t.Errorf("winner = %q, want %q", got, tt.want)
			}
		})
	}
}

// G-4.5, G-4.6: the same path can be denied for one profile (visible, listed)
// and hidden for another.
func TestHideVersusDeny(t *testing.T) {
	t.Parallel()
	mounts := []Mount{{Prefix: "/vault"}}
	denier := mustCompile(t, ProfileSpec{Name: "auditor", Deny: []Rule{{Reason: "no", Paths: []string{"/vault/aws.token"}}}}, mounts)
	hider := mustCompile(t, ProfileSpec{Name: "intern", Hide: []PathGroup{{Paths: []string{"/vault/aws.token"}}}}, mounts)
	if got := denier.PathInfo("/vault/aws.token"); got.Visibility != PathVisible || got.Verb != VerbDeny {
		t.Errorf("auditor sees %+v, want visible and denied", got)
	}
	if got := hider.PathInfo("/vault/aws.token"); got.Visibility != PathHidden {
		t.Errorf("intern sees %+v, want hidden", got)
	}
}

// G-4.7: show states the mode below its anchor, never above the mount's.
func TestShowModes(t *testing.T) {
	t.Parallel()
	mounts := []Mount{{Prefix: "/data"}, {Prefix: "/archive", ReadOnly: true}}
	spec := ProfileSpec{Name: "t",
		Hide: []PathGroup{{Paths: []string{"/data", "/archive"}}},
		Show: []ShowEntry{
			{Path: "/data/ro", Mode: "ro"},
			{Path: "/data/rw", Mode: "rw"},
			{Path: "/data/plain"},
			{Path: "/data/ro/inner", Mode: "rw"},
			{Path: "/archive/rw", Mode: "rw"},
		},
		Deny: []Rule{{Reason: "asked deeper", Paths: []string{"/data/ro/x/*"}}},
	}
	p := mustCompile(t, spec, mounts)
	tests := []struct {
		path     string
		readOnly bool
	}{
		{"/data/ro/f", true},
		{"/data/ro/x/y", true}, // a deeper deny keeps the show's mode in force
		{"/data/ro/inner/f", false},
		{"/data/rw/f", false},
		{"/data/plain/f", false},
		{"/archive/rw/f", true}, // rw never raises an ro mount
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			got := p.PathInfo(tt.path)
			if got.Visibility != PathVisible || got.ReadOnly != tt.readOnly {
				t.Errorf("PathInfo(%s) = %+v, want visible ro=%v", tt.path, got, tt.readOnly)
			}
		})
	}
}

// G-4.7: the ancestors of a shown path inside a hidden region are
// traversable; their other children stay hidden.
func TestTraversableAncestors(t *testing.T) {
	t.Parallel()
	spec := ProfileSpec{Name: "t",
		Hide: []PathGroup{{Paths: []string{"/a", "/a/b/deeper"}}, {Paths: []string{"/w/secret"}}},
		Show: []ShowEntry{{Path: "/a/b/c/pub"}, {Path: "/a/b/deeper/x"}, {Path: "/w/*/open"}, {Path: "/g/*/z"}},
	}
	p := mustCompile(t, spec, []Mount{{Prefix: "/a"}, {Prefix: "/w"}, {Prefix: "/g"}})
	tests := []struct {
		path string
		want Visibility
	}{
		{"/a", PathTraversable},
		{"/a/b", PathTraversable},
		{"/a/b/c", PathTraversable},
		{"/a/b/c/pub", PathVisible},
		{"/a/b/c/pub/deep/file", PathVisible},
		{"/a/b/c/other", PathHidden},
		{"/a/x", PathHidden},
		{"/a/b/deeper", PathTraversable},
		{"/a/b/deeper/y", PathHidden},
		// A show anchored above the hide cannot re-open it (G-4.7: deeper only).
		{"/w/secret", PathHidden},
		{"/w/secret/open", PathHidden},
		{"/w/other/open", PathVisible},
		{"/g/q", PathVisible},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			if got := p.PathInfo(tt.path).Visibility; got != tt.want {
				t.Errorf("PathInfo(%s).Visibility = %s, want %s", tt.path, got, tt.want)
			}
		})
	}
}

// G-4.1: mount-level name patterns anchor to the mount, so `*.key` under
// /repo is /repo/*.key, which reaches top-level keys only (G-4.2).
func TestMountPatternsAnchorToTheMount(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	if got := p.PathInfo("/repo/deploy.key"); got.Visibility != PathHidden || got.Pattern != "/repo/*.key" {
		t.Errorf("PathInfo(/repo/deploy.key) = %+v, want hidden by /repo/*.key", got)
	}
	if got := p.PathInfo("/repo/sub/deploy.key"); got.Visibility != PathVisible {
		t.Errorf("PathInfo(/repo/sub/deploy.key) = %+v, want visible", got)
	}
	if got := p.PathInfo("/runbook/deploy.key"); got.Visibility != PathVisible {
		t.Errorf("a /repo pattern reached /runbook: %+v", got)
	}
}

// PathInfo takes any spelling of a path: relative paths are from the root
// and dot segments are cleaned.
func TestPathInfoCleansPaths(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	for _, spelling := range []string{"/vault/./internal/x", "vault/internal", "/vault//internal/", "/runbook/../vault/internal"} {
		if got := p.PathInfo(spelling); got.Visibility != PathHidden || got.Path != cleanAbs(spelling) {
			t.Errorf("PathInfo(%q) = %+v, want hidden", spelling, got)
		}
	}
}
