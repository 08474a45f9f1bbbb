package core

import (
	"context"
	"strings"
	"testing"

	"gatehouse/core/gate"
)

// awkProfile allows awk beside the responder's tools and asks before
// anything is written under /runbook/frozen.
var awkProfile = func() gate.ProfileSpec {
	p := responder
	p.Name = "awker"
	p.Allow = append(append([]string{}, responder.Allow...), "awk", "sort")
	p.Ask = append(append([]gate.Rule{}, responder.Ask...), gate.Rule{Reason: "the frozen runbook is edited in review", Paths: []string{"/runbook/frozen/*"}})
	return p
}()

// TestAwkThroughTheGate: awk's files and the commands it runs meet the
// same gate as everything else (G-4.9, G-6.2, G-7.3, G-4.5).
func TestAwkThroughTheGate(t *testing.T) {
	t.Parallel()
	cases := []lineCase{
		{name: "denied input operand", line: "awk '{print}' /vault/aws.token",
			wantErr: "awk: fatal: cannot open file `/vault/aws.token' for reading: credentials are never read by hand\n", wantExit: 2, wantScope: "operand", wantKind: "deny"},
		{name: "hidden input reads as missing", line: "awk '{print}' /vault/internal/k",
			wantErr: "awk: fatal: cannot open file `/vault/internal/k' for reading: " + enoent + "\n", wantExit: 2},
		{name: "hidden getline reads as missing", line: `awk 'BEGIN{print (getline l < "/runbook/old.bak")}'`, wantOut: "-1\n"},
		{name: "literal output under an ask rule asks first", line: `awk 'BEGIN{print "x" > "/runbook/frozen/new.md"}'`,
			wantErr: "awk: cmd. line:1: fatal: cannot redirect to `/runbook/frozen/new.md': the frozen runbook is edited in review\n", wantExit: 126, wantScope: "operand", wantKind: "ask", errContain: true},
		{name: "computed output under an ask rule is refused by the door", line: `awk 'BEGIN{f = "/runbook/frozen/" "new.md"; print "x" > f}'`,
			wantErr: "awk: cmd. line:1: fatal: cannot redirect to `/runbook/frozen/new.md': the frozen runbook is edited in review\n", wantExit: 2, errContain: true},
		{name: "system runs a nested line through the gate", line: `awk 'BEGIN{r = system("cat /vault/aws.token"); print "r=" r}'`,
			wantOut: "r=1\n", wantErr: "cat: /vault/aws.token: credentials are never read by hand\n", wantScope: "operand", wantKind: "deny"},
		{name: "a command outside the tool set is not found", line: `awk 'BEGIN{print system("tac /runbook/README.md")}'`,
			wantOut: "127\n", wantErr: "tac: command not found\n"},
		{name: "an ask inside system stops the line", line: `awk 'BEGIN{system("rm /runbook/README.md"); print "after"}'; echo next`,
			wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask", errContain: true},
		{name: "an ask inside a command pipe stops the line", line: `awk 'BEGIN{"rm /runbook/README.md" | getline x; print "after"}'`,
			wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask", errContain: true},
		{name: "pipe to an allowed command", line: `awk 'BEGIN{print "b\na" | "sort"; close("sort"); print "done"}'`, wantOut: "a\nb\ndone\n"},
		{name: "command getline", line: `awk 'BEGIN{"cat /runbook/README.md" | getline l; print l}'`, wantOut: "Incident runbook\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := newTestWorkspace(t, WithProfiles(awkProfile), WithDefaultProfile("awker"))
			res := ws.Execute(context.Background(), tc.line)
			if res.Stdout != tc.wantOut {
				t.Errorf("%s\nstdout = %q, want %q", tc.line, res.Stdout, tc.wantOut)
			}
			if tc.errContain && !strings.Contains(res.Stderr, tc.wantErr) || !tc.errContain && res.Stderr != tc.wantErr {
				t.Errorf("%s\nstderr = %q, want %q", tc.line, res.Stderr, tc.wantErr)
			}
			if res.ExitCode != tc.wantExit {
				t.Errorf("%s\nexit = %d, want %d", tc.line, res.ExitCode, tc.wantExit)
			}
			switch {
			case tc.wantScope == "" && res.Refusal != nil:
				t.Errorf("%s\nunexpected refusal %+v", tc.line, *res.Refusal)
			case tc.wantScope != "" && res.Refusal == nil:
				t.Errorf("%s\nno refusal, want %s/%s", tc.line, tc.wantKind, tc.wantScope)
			case tc.wantScope != "" && (res.Refusal.Scope != tc.wantScope || res.Refusal.Kind != tc.wantKind):
				t.Errorf("%s\nrefusal %+v, want %s/%s", tc.line, *res.Refusal, tc.wantKind, tc.wantScope)
			}
		})
	}
}
