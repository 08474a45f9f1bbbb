package gate

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// G-1.2, G-4.1, G-5.1: invalid profiles fail to compile, and the error
// names where the offending rule was written.
func TestCompileRejectsInvalidProfiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(*ProfileSpec)
		source string // must appear in the error
		detail string // must appear in the error
	}{
		{"G-1.2 rule covering nothing", func(s *ProfileSpec) {
			s.Deny = append(s.Deny, Rule{Reason: "x", Source: "w.yaml:40:5"})
		}, "w.yaml:40:5", "covers nothing"},
		{"G-1.2 mount rule covering nothing", func(s *ProfileSpec) {
			m := s.Mounts["/repo"]
			m.Ask = []Rule{{Reason: "x", Source: "w.yaml:41:9"}}
			s.Mounts["/repo"] = m
		}, "w.yaml:41:9", "covers nothing"},
		{"G-4.1 unterminated class", func(s *ProfileSpec) {
			s.Deny = append(s.Deny, Rule{Paths: []string{"/vault/[ab"}, Source: "w.yaml:42:5"})
		}, "w.yaml:42:5", `"/vault/[ab"`},
		{"G-4.1 relative profile pattern", func(s *ProfileSpec) {
			s.Hide = append(s.Hide, PathGroup{Paths: []string{"vault/x"}, Source: "w.yaml:43:5"})
		}, "w.yaml:43:5", "absolute"},
		{"G-4.1 double star inside a component", func(s *ProfileSpec) {
			s.Hide = append(s.Hide, PathGroup{Paths: []string{"/vault/a**"}, Source: "w.yaml:44:5"})
		}, "w.yaml:44:5", "whole path component"},
		{"G-4.1 dot-dot in a pattern", func(s *ProfileSpec) {
			s.Hide = append(s.Hide, PathGroup{Paths: []string{"/vault/../repo"}, Source: "w.yaml:45:5"})
		}, "w.yaml:45:5", ".."},
		{"G-4.1 mount pattern outside its mount", func(s *ProfileSpec) {
			m := s.Mounts["/repo"]
			m.Hide = []PathGroup{{Paths: []string{"/vault/x"}, Source: "w.yaml:46:9"}}
			s.Mounts["/repo"] = m
		}, "w.yaml:46:9", "outside mount /repo"},
		{"G-4.7 show mode other than ro or rw", func(s *ProfileSpec) {
			s.Show = append(s.Show, ShowEntry{Path: "/vault/x", Mode: "rx", Source: "w.yaml:47:5"})
		}, "w.yaml:47:5", `"rx"`},
		{"G-5.1 mount rules for something not mounted", func(s *ProfileSpec) {
			s.Mounts["/data"] = MountRules{ReadOnly: true, Source: "w.yaml:48:7"}
		}, "w.yaml:48:7", "/data"},
		{"G-3.4 blank command pattern", func(s *ProfileSpec) {
			s.Ask = append(s.Ask, Rule{Commands: []string{"  "}, Source: "w.yaml:49:5"})
		}, "w.yaml:49:5", "empty command pattern"},
		{"G-3.4 blank allow pattern", func(s *ProfileSpec) {
			s.Allow = append(s.Allow, "")
		}, srcAllow, "allow pattern"},
		{"G-5.4 relative cwd", func(s *ProfileSpec) { s.Cwd = "runbook" }, srcProfile, "cwd"},
		{"G-5.5 bad variable glob", func(s *ProfileSpec) { s.VarsHide = []string{"AWS_["} }, srcProfile, "AWS_["},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec := demoSpec()
			tt.edit(&spec)
			_, err := Compile(spec, demoMounts())
			if err == nil {
				t.Fatal("Compile succeeded, want an error")
			}
			for _, want := range []string{tt.source, tt.detail, `"responder"`} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

// G-5.4: cwd defaults to "/", env is seeded from the profile and a caller
// cannot change the profile's copy.
func TestProfileAccessors(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	if p.Name() != "responder" || p.Cwd() != "/runbook" {
		t.Errorf("Name, Cwd = %q, %q", p.Name(), p.Cwd())
	}
	env := p.Env()
	env["TEAM"] = "changed"
	if p.Env()["TEAM"] != "sre" {
		t.Errorf("Env was modified through its result: %v", p.Env())
	}
	if got := mustCompile(t, ProfileSpec{Name: "bare"}, nil).Cwd(); got != "/" {
		t.Errorf("default Cwd = %q, want /", got)
	}
	if got := p.Spec().Name; got != "responder" {
		t.Errorf("Spec().Name = %q", got)
	}
}

// G-5.1: a profile's mounts section only narrows: rw may become ro, and a
// workspace ro mount stays ro whatever the profile writes.
func TestMountNarrowingOnlyWeakens(t *testing.T) {
	t.Parallel()
	mounts := []Mount{{Prefix: "/runbook"}, {Prefix: "/archive", ReadOnly: true}, {Prefix: "/repo"}}
	spec := ProfileSpec{Name: "n", Mounts: map[string]MountRules{
		"/repo":    {ReadOnly: true},
		"/archive": {ReadOnly: false},
	}}
	p := mustCompile(t, spec, mounts)
	got := map[string]bool{}
	for _, m := range p.Mounts() {
		got[m.Prefix] = m.ReadOnly
	}
	want := map[string]bool{"/runbook": false, "/archive": true, "/repo": true}
	if !maps.Equal(got, want) {
		t.Errorf("Mounts() read-only = %v, want %v", got, want)
	}
	prefixes := []string{}
	for _, m := range p.Mounts() {
		prefixes = append(prefixes, m.Prefix)
	}
	if !slices.IsSorted(prefixes) {
		t.Errorf("Mounts() not sorted by prefix: %v", prefixes)
	}
}

// G-5.5: vars.hide takes names and globs over names.
func TestVarHidden(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	tests := []struct {
		name string
		want bool
	}{
		{"AWS_SECRET_ACCESS_KEY", true},
		{"AWS_", true},
		{"GITHUB_TOKEN", true},
		{"GITHUB_TOKENS", false},
		{"GITHUB", false},
		{"TEAM", false},
		{"XAWS_KEY", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := p.VarHidden(tt.name); got != tt.want {
				t.Errorf("VarHidden(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
	if Unrestricted(nil).VarHidden("AWS_KEY") {
		t.Error("an unrestricted session hides variables")
	}
}

// G-2.2: without a profile every command is installed and runs, nothing is
// hidden or refused, and the mounts' modes still apply.
func TestUnrestricted(t *testing.T) {
	t.Parallel()
	p := Unrestricted([]Mount{{Prefix: "/data"}, {Prefix: "/archive", ReadOnly: true}})
	if !p.Installed("anything") {
		t.Error("Unrestricted does not install every command")
	}
	if v := p.Judge(cmd("/", words("rm", "-rf", "/data"), "/data")); v.Outcome != Run || v.Refusal != nil {
		t.Errorf("Judge = %+v, want run", v)
	}
	if got := p.PathInfo("/archive/x"); !got.ReadOnly || got.Visibility != PathVisible {
		t.Errorf("PathInfo(/archive/x) = %+v, want visible read-only", got)
	}
	if got := p.PathInfo("/data/x"); got.ReadOnly {
		t.Errorf("PathInfo(/data/x) = %+v, want writable", got)
	}
}
