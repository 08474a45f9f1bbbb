package shell

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/interp"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// A refusal is an error the interpreter reads as an exit status: the line
// goes on with $? set (G-7.1).
func TestRefusedIsAnExitStatus(t *testing.T) {
	t.Parallel()
	var err error = &Refused{Code: 126, Stderr: "cat: /w/k: keys are never read\n"}
	var status interp.ExitStatus
	if !errors.As(err, &status) || status != 126 {
		t.Errorf("errors.As(Refused) = %d, want 126", status)
	}
	if err.Error() != "cat: /w/k: keys are never read" {
		t.Errorf("Error() = %q", err.Error())
	}
}

// The call handler hands a refusal on by number: neither its text nor its
// status is in the argv the interpreter sees, and each parked refusal is
// taken once.
func TestRefusedCallCarriesOnlyANumber(t *testing.T) {
	t.Parallel()
	sh := refusalShell(t)
	ls := &lineState{sh: sh}
	r := &Refused{Code: 2, Stderr: "source: filename argument required\n"}
	argv, err := sh.refuseCall(ls, r)
	if err != nil || len(argv) != 2 || argv[0] != sh.refuseName() || !strings.HasPrefix(argv[0], sh.capture) {
		t.Fatalf("refuseCall = %q, %v; want [%s N]", argv, err, sh.refuseName())
	}
	if strings.Contains(strings.Join(argv, " "), "filename") || len(ls.parked) != 1 {
		t.Errorf("argv %q carries the refusal", argv)
	}
	if got := ls.takeRefused(argv[1]); got != r {
		t.Errorf("takeRefused = %v, want the parked refusal", got)
	}
	if got := ls.takeRefused(argv[1]); got != nil || len(ls.parked) != 0 {
		t.Errorf("a refusal was taken twice or stayed parked: %v, %d left", got, len(ls.parked))
	}
}

// Every refusal a call handler makes reads as bash's, exit status
// included, and a loop of them leaves nothing parked on the shell.
func TestRefusedCallsReadAsBash(t *testing.T) {
	t.Parallel()
	sh := refusalShell(t)
	tests := []struct{ line, stderr, stdout string }{
		{"builtin nosuch; echo $?", "bash: builtin: nosuch: not a shell builtin\n", "1\n"},
		{"source; echo $?", "source: filename argument required\nsource: usage: source filename [arguments]\n", "2\n"},
		{"r=read; $r x </w/a; echo $?", "read: Permission denied\n", "126\n"},
		{"__gh_refuse 0 hi; echo $?", "__gh_refuse: command not found\n", "127\n"},
		{"for i in 1 2 3; do builtin nosuch 2>/dev/null; done; echo $?", "", "1\n"},
	}
	for _, tt := range tests {
		res := sh.Run(context.Background(), tt.line)
		if res.Stderr != tt.stderr || res.Stdout != tt.stdout {
			t.Errorf("%s: stdout %q stderr %q, want %q and %q", tt.line, res.Stdout, res.Stderr, tt.stdout, tt.stderr)
		}
	}
}

func refusalShell(t *testing.T) *Shell {
	t.Helper()
	fsys, err := vfs.New([]vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"a": "1\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	prof, err := gate.Compile(gate.ProfileSpec{Name: "p", Deny: []gate.Rule{{Reason: "no reading", Commands: []string{"read"}, Source: "test"}}}, []gate.Mount{{Prefix: "/w"}})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := New(Config{VFS: fsys, Profile: prof, SessionID: "s-refusal", AgentID: "a", Limits: Limits{WallTime: 20 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	return sh
}
