package gate

import "testing"

// G-11.6: a file operation of the Session API is no command: the tool set
// and allow refinement do not speak for it, while command rules that name
// it, path entries and operand rules do.
func TestJudgeFileOperation(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	fileOp := func(c Command) Command { c.FileOp = true; return c }
	tests := []struct {
		name    string
		cmd     Command
		outcome Outcome
		reason  string
	}{
		{"not in the tool set, still judged", fileOp(cmd("/runbook", words("read_file", "README.md"), "/runbook/README.md")), Run, ""},
		{"the same word as a command is not found", cmd("/runbook", words("read_file", "README.md"), "/runbook/README.md"), NotFound, ""},
		{"operand deny", fileOp(cmd("/runbook", words("read_file", "/vault/aws.token"), "/vault/aws.token")), Deny, reasonVault},
		{"hidden operand", fileOp(cmd("/runbook", words("list_dir", "/vault/internal"), "/vault/internal")), Hidden, ""},
		{"shown operand", fileOp(cmd("/runbook", words("read_file", "/vault/public/ca.pem"), "/vault/public/ca.pem")), Run, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := p.Judge(tt.cmd)
			if v.Outcome != tt.outcome {
				t.Fatalf("outcome %s, want %s (%+v)", v.Outcome, tt.outcome, v.Refusal)
			}
			if tt.reason != "" && (v.Refusal == nil || v.Refusal.Reason != tt.reason) {
				t.Errorf("refusal %+v, want reason %q", v.Refusal, tt.reason)
			}
		})
	}
}
