package utils

import (
	"strings"
	"testing"
)

// TestVoiceIsTheRealFailureLine runs each utility of the second set on an
// operand the door refuses (or hides) and checks that the line it prints
// is exactly its Voice for that operand, so explain and the gate's own
// refusals read the same as a run (G-7.3).
func TestVoiceIsTheRealFailureLine(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/secret/k": "k", "/w/hidden/k": "k", "/w/f": "x\n"}
	cases := []struct {
		argv     []string
		operand  string
		msg      string
		onStdout bool // file and tree report on stdout
		write    bool // the operand is written (WriteVoice)
	}{
		{argv: []string{"sed", "p", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"cut", "-c1", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"jq", ".", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"tee", "secret/new"}, operand: "secret/new", msg: secretReason, write: true},
		{argv: []string{"rmdir", "secret"}, operand: "secret", msg: secretReason, write: true},
		{argv: []string{"ln", "-s", "f", "secret/l"}, operand: "secret/l", msg: secretReason, write: true},
		{argv: []string{"readlink", "-v", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"realpath", "-e", "hidden/k"}, operand: "hidden/k", msg: "No such file or directory"},
		{argv: []string{"stat", "hidden/k"}, operand: "hidden/k", msg: "No such file or directory"},
		{argv: []string{"du", "hidden"}, operand: "hidden", msg: "No such file or directory"},
		{argv: []string{"diff", "secret/k", "f"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"date", "-r", "hidden/k"}, operand: "hidden/k", msg: "No such file or directory"},
		{argv: []string{"base64", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"sha256sum", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"md5sum", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"tac", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"rev", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"nl", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"paste", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"comm", "f", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"split", "secret/k"}, operand: "secret/k", msg: secretReason},
		{argv: []string{"tree", "secret"}, operand: "secret", msg: secretReason, onStdout: true},
		{argv: []string{"file", "secret/k"}, operand: "secret/k", msg: secretReason, onStdout: true},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.argv, " "), func(t *testing.T) {
			t.Parallel()
			u := Lookup(c.argv[0])
			_, out, errs, exit := runUtil(t, utilCase{args: c.argv, files: files})
			kind := Read
			if c.write {
				kind = Write
			}
			want := u.RenderOperandVoice(kind, c.operand, c.msg)
			got := errs
			if c.onStdout {
				got = out
			}
			if !strings.Contains(got, want) {
				t.Errorf("printed %q, voice is %q", got, want)
			}
			if exit != u.OperandExit && !(u.OperandExit == 0 && exit == 0) {
				t.Errorf("exit = %d, OperandExit = %d", exit, u.OperandExit)
			}
			found := false
			for _, ref := range u.Operands(c.argv) {
				if ref.Operand(c.argv) == c.operand {
					found = true
				}
			}
			if !found {
				t.Errorf("%q is not among the declared operands %+v", c.operand, u.Operands(c.argv))
			}
		})
	}
}
