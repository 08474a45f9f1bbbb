package core

import (
	"context"
	"testing"
)

// TestPreflightSeesDeclarationPrefixBindings: a declaration written after
// bindings (`x=$(cmd) declare y`, `x=1 export y=$(cmd)`) is read as a
// declaration, and a denied command in its words or bindings is refused
// before anything of the line runs, as the same command spelled alone is
// (G-9.3).
func TestPreflightSeesDeclarationPrefixBindings(t *testing.T) {
	t.Parallel()
	lines := []string{
		"echo before; x=$(rm /repo/x) declare y",
		"echo before; x=1 export y=$(rm /repo/x)",
		"echo before; f() { x=1 local y=`rm /repo/x`; }; f",
		"echo before; a[1]=$(rm /repo/x) readonly z",
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := pathsTestWorkspace(t)
			res := s.Execute(ctx, line)
			if res.Stdout != "" || res.ExitCode == 0 || res.Refusal == nil {
				t.Errorf("%q ran: %+v", line, res)
			}
			if still := s.Execute(ctx, "cat /repo/x"); still.Stdout != "repo x\n" {
				t.Errorf("after %q: /repo/x is %+v", line, still)
			}
		})
	}
}

// TestDeclarationPrefixBindings: bindings before a declaration builtin hold
// while it runs and go away after, unless it assigns, exports or makes
// read-only their name, as in bash; they are never seen by its own words.
func TestDeclarationPrefixBindings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := pathsTestWorkspace(t)
	res := s.Execute(ctx, `x=1; x=2 declare y=$x; FOO=bar export FOO; T=t declare -p T; echo "$y $x $FOO ${T-unset}"`)
	want := "declare -x T=\"t\"\n1 1 bar unset\n"
	if res.Stdout != want || res.ExitCode != 0 {
		t.Errorf("got %+v, want stdout %q", res, want)
	}
}
