package core

import (
	"context"
	"testing"
)

// TestExplainReadsLinesThroughSessionAliases: explain and preflight read a
// line's commands through the aliases the session's earlier lines left, as
// the run expands them (G-2.3, G-11.1): an alias the same line defines does
// not count yet, a nested bash has none, a function body called later sees
// them, an unalias takes one away.
func TestExplainReadsLinesThroughSessionAliases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		before []string
		line   string
		// wantExit, when not zero, is the run's own exit status: explain
		// and preflight read a line with the same walker, so agreeing is
		// not enough where the alias must not apply.
		wantExit int
	}{
		{name: "an alias of a denied command", before: []string{"alias x=rm"}, line: "x /repo/x"},
		{name: "an alias carrying the operand", before: []string{"alias gone='rm /repo/x'"}, line: "gone"},
		{name: "a blank-ended alias", before: []string{"alias t='time ' x=rm"}, line: "t x /repo/x"},
		{name: "defined on the same line: not yet", line: "alias x=rm; x /repo/x", wantExit: 127},
		{name: "a nested bash has no aliases", before: []string{"alias x=rm"}, line: "bash -c 'x /repo/x'", wantExit: 127},
		{name: "eval sees them", before: []string{"alias x=rm"}, line: "eval 'x /repo/x'"},
		{name: "a function body called later", before: []string{"alias x=rm", "f() { x /repo/x; }"}, line: "f"},
		{name: "unalias takes it away", before: []string{"alias x=rm", "unalias x"}, line: "x /repo/x", wantExit: 127},
		{name: "an allowed command", before: []string{"alias show=cat"}, line: "show /data/plain.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := pathsTestWorkspace(t)
			for _, l := range tc.before {
				if res := s.Execute(ctx, l); res.ExitCode != 0 {
					t.Fatalf("%s: %+v", l, res)
				}
			}
			exps, err := s.ExplainForAgent(tc.line)
			if err != nil || len(exps) == 0 {
				t.Fatalf("explain %q: %v %+v", tc.line, err, exps)
			}
			res := s.Execute(ctx, tc.line)
			if tc.wantExit != 0 && res.ExitCode != tc.wantExit {
				t.Errorf("%q ran with exit %d, want %d: %+v", tc.line, res.ExitCode, tc.wantExit, res)
			}
			last := exps[len(exps)-1]
			if last.ExitCode != res.ExitCode || last.Stderr != res.Stderr {
				t.Errorf("explain %q says exit %d %q; the run gave exit %d %q (explanations %+v)",
					tc.line, last.ExitCode, last.Stderr, res.ExitCode, res.Stderr, exps)
			}
		})
	}
}

// TestPreflightSeesSessionAliases: a line calling a denied command through
// an alias is refused before anything of it runs, as the same line spelling
// the command is (G-9.3).
func TestPreflightSeesSessionAliases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := pathsTestWorkspace(t)
	direct := s.Execute(ctx, "echo before; rm /repo/x")
	if res := s.Execute(ctx, "alias x=rm"); res.ExitCode != 0 {
		t.Fatalf("alias: %+v", res)
	}
	aliased := s.Execute(ctx, "echo before; x /repo/x")
	if direct.Stdout != "" || aliased.Stdout != direct.Stdout || aliased.Stderr != direct.Stderr || aliased.ExitCode != direct.ExitCode {
		t.Errorf("through the alias %+v; spelled out %+v", aliased, direct)
	}
}
