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

// TestPreflightSeesSessionAliases: a line reaching a denied or hidden thing
// through an alias gets exactly what the same line spelling the alias's
// text gets: refused before anything of it runs where that line is (G-9.3,
// G-2.3): an alias's text
// may hold lists, pipes, redirections and comments, and an alias a line
// defines counts from its next line on.
func TestPreflightSeesSessionAliases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, define, line, spelled string
	}{
		{name: "a denied command", define: "alias x=rm", line: "echo before; x /repo/x", spelled: "echo before; rm /repo/x"},
		{name: "a list", define: "alias x='echo hi; rm -rf /repo/x'", line: "echo before; x", spelled: "echo before; echo hi; rm -rf /repo/x"},
		{name: "a hidden path", define: "alias x='cat /data/hid/key'", line: "echo before; x", spelled: "echo before; cat /data/hid/key"},
		{name: "a pipe", define: "alias x='cat /data/den/f |'", line: "echo before; x wc -l", spelled: "echo before; cat /data/den/f | wc -l"},
		{name: "a redirection", define: "alias x='echo hi >/data/den/new'", line: "echo before; x", spelled: "echo before; echo hi >/data/den/new"},
		{name: "a comment", define: "alias x='rm /repo/x #'", line: "echo before; x /data/plain.txt", spelled: "echo before; rm /repo/x"},
		{name: "a chain", define: "alias x='y /repo/x' y='rm -f'", line: "echo before; x", spelled: "echo before; rm -f /repo/x"},
		{name: "defined on the line before", line: "echo before; alias x='rm /repo/x'\nx", spelled: "echo before; alias x='rm /repo/x'\nrm /repo/x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			direct := pathsTestWorkspace(t).Execute(ctx, tc.spelled)
			s := pathsTestWorkspace(t)
			if tc.define != "" {
				if res := s.Execute(ctx, tc.define); res.ExitCode != 0 {
					t.Fatalf("%s: %+v", tc.define, res)
				}
			}
			aliased := s.Execute(ctx, tc.line)
			if direct.Stderr == "" || aliased.Stdout != direct.Stdout || aliased.Stderr != direct.Stderr || aliased.ExitCode != direct.ExitCode {
				t.Errorf("through the alias %+v; spelled out %+v", aliased, direct)
			}
		})
	}
}
