package gate

import (
	"strings"
	"testing"

	"gatehouse/core/vfs"
)

// guardP is a coded pre_ops hook that refuses every op under /d/p, and
// renames alone under /d/r.
type guardP struct{}

func (guardP) PreOps(ctx OpContext) Decision {
	if strings.HasPrefix(ctx.Op.Path, "/d/p/") {
		return Refuse("p is guarded")
	}
	if ctx.Op.Name == vfs.OpRename && strings.HasPrefix(ctx.Op.Path, "/d/r/") {
		return Refuse("r stays put")
	}
	return NoOpinion()
}

func carryProfile(t testing.TB, opts ...CompileOption) *Profile {
	t.Helper()
	p, err := Compile(ProfileSpec{Name: "t",
		Hide: []PathGroup{{Paths: []string{"/d/a/secret", "/d/**/*.key", "/d/h"}}},
		Show: []ShowEntry{{Path: "/d/h/pub", Mode: "ro"}},
		Deny: []Rule{
			{Reason: "denied", Paths: []string{"/d/a/den"}},
			{Reason: "no cat here", Commands: []string{"cat"}, Paths: []string{"/d/a/cat-only"}},
		},
		Ask: []Rule{
			{Reason: "asks", Paths: []string{"/d/a/ask", "/d/c/ask"}, Source: "rule-1"},
			{Reason: "asks too", Paths: []string{"/d/b/ask"}, Source: "rule-2"},
		},
	}, []Mount{{Prefix: "/d"}}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// G-6.1a: a rename carries an entry to a new path; the door refuses when
// the rules there would hold it less tightly, for any command.
func TestCheckCarry(t *testing.T) {
	t.Parallel()
	p := carryProfile(t, WithPolicies(guardP{}))
	mv := &OpScope{Command: &Command{Argv: words("mv", "a", "b"), Cwd: "/d"}}
	grantedMv := &OpScope{Command: mv.Command, Granted: true}
	tests := []struct {
		name     string
		scope    *OpScope
		from, to string
		want     string
	}{
		{"a plain entry", mv, "/d/b/x", "/d/b/y", "pass"},
		{"a hidden entry to where nothing hides it", mv, "/d/a/secret", "/d/b/secret", "ENOENT"},
		{"a hidden entry to where a glob still hides it", mv, "/d/a/x.key", "/d/b/x.key", "pass"},
		{"a hidden entry into a denied place", mv, "/d/a/secret", "/d/a/den/secret", "ENOENT"},
		{"a denied entry to a plain place", mv, "/d/a/den/f", "/d/b/f", "refused: denied"},
		{"a denied entry to a hidden place", mv, "/d/a/den/f", "/d/b/f.key", "pass"},
		{"a denied entry to an asked place", mv, "/d/a/den/f", "/d/b/ask/f", "refused: denied"},
		{"an asked entry under the same rule", mv, "/d/a/ask/f", "/d/c/ask/f", "pass"},
		{"an asked entry under another rule", mv, "/d/a/ask/f", "/d/b/ask/f", "refused: asks"},
		{"an asked entry to a denied place", mv, "/d/a/ask/f", "/d/a/den/f", "pass"},
		{"an asked entry to a plain place", mv, "/d/a/ask/f", "/d/b/f", "refused: asks"},
		{"an asked entry once the command was answered", grantedMv, "/d/a/ask/f", "/d/b/f", "pass"},
		{"a read-only shown entry to a writable place", mv, "/d/h/pub/f", "/d/b/f", "EROFS"},
		{"a plain entry to a hidden place", mv, "/d/b/f", "/d/b/f.key", "pass"},
		{"what a rule keeps from cat, for mv", mv, "/d/a/cat-only/f", "/d/b/f", "refused: no cat here"},
		{"what a rule keeps from cat, without a command", nil, "/d/a/cat-only/f", "/d/b/f", "refused: no cat here"},
		{"what a hook refuses to where it does not", mv, "/d/p/f", "/d/b/f", "refused: p is guarded"},
		{"what a hook refuses to where it still does", mv, "/d/p/f", "/d/p/g", "refused: p is guarded"},
		{"what a hook will not let be renamed", mv, "/d/r/f", "/d/b/f", "refused: r stays put"},
		{"to where a hook will not let it be renamed", mv, "/d/b/f", "/d/r/f", "refused: r stays put"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			door := p.Door(tt.scope).(vfs.CarryDoor)
			from := vfs.Op{Name: vfs.OpRename, Path: tt.from, Write: true, Prefix: "/d"}
			to := vfs.Op{Name: vfs.OpRename, Path: tt.to, Write: true, Create: true, Prefix: "/d"}
			if got := errKind(door.CheckCarry(from, to)); got != tt.want {
				t.Errorf("CheckCarry(%s → %s) = %s, want %s", tt.from, tt.to, got, tt.want)
			}
		})
	}
}

// CarryClear lets a rename skip its walk only where no entry reaches into
// either directory.
func TestCarryClear(t *testing.T) {
	t.Parallel()
	plain, err := Compile(ProfileSpec{Name: "t", Hide: []PathGroup{{Paths: []string{"/d/a/secret"}}},
		Deny: []Rule{{Reason: "r", Commands: []string{"ls"}, Paths: []string{"/d/team/*"}}}}, []Mount{{Prefix: "/d"}})
	if err != nil {
		t.Fatal(err)
	}
	globbed := carryProfile(t)
	guarded := carryProfile(t, WithPolicies(guardP{}))
	tests := []struct {
		name     string
		p        *Profile
		from, to string
		want     bool
	}{
		{"nothing reaches either", plain, "/d/b", "/d/c", true},
		{"an anchor below the source", plain, "/d/a", "/d/c", false},
		{"an anchor below the target", plain, "/d/c", "/d/a", false},
		{"a command-scoped pattern reaches below", plain, "/d/team", "/d/c", false},
		{"a sibling of the anchor", plain, "/d/a2", "/d/c", true},
		{"a ** pattern reaches everywhere", globbed, "/d/x", "/d/y", false},
		{"a pre_ops hook sees every path", guarded, "/d/x", "/d/y", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.p.Door(nil).(vfs.CarryDoor).CarryClear(tt.from, tt.to); got != tt.want {
				t.Errorf("CarryClear(%s, %s) = %v, want %v", tt.from, tt.to, got, tt.want)
			}
		})
	}
}
