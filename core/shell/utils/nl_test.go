package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestNlAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "nl default", args: []string{"nl"}, stdin: "a\n\nb\n", wantOut: "     1\ta\n       \n     2\tb\n"},
		{name: "nl all", args: []string{"nl", "-ba"}, stdin: "a\n\nb\n", wantOut: "     1\ta\n     2\t\n     3\tb\n"},
		{name: "nl width sep", args: []string{"nl", "-ba", "-w3", "-s|"}, stdin: "a\n\nb\n", wantOut: "  1|a\n  2|\n  3|b\n"},
		{name: "nl ln", args: []string{"nl", "-n", "ln"}, stdin: "a\nb\n", wantOut: "1     \ta\n2     \tb\n"},
		{name: "nl rz start incr", args: []string{"nl", "-n", "rz", "-v5", "-i2"}, stdin: "a\n\nb\n", wantOut: "000005\ta\n       \n000007\tb\n"},
		{name: "nl none", args: []string{"nl", "-bn"}, stdin: "a\nb\n", wantOut: "       a\n       b\n"},
		{name: "nl pattern", args: []string{"nl", "-bp^b"}, stdin: "a\nb\nab\n", wantOut: "       a\n     1\tb\n       ab\n"},
		{name: "nl sections", args: []string{"nl", "-ha", "-fa"}, stdin: "\\:\\:\\:\nh\n\\:\\:\nb\n\\:\nf\n", wantOut: "\n     1\th\n\n     1\tb\n\n     1\tf\n"},
		{name: "nl no renumber", args: []string{"nl", "-p"}, stdin: "a\n\\:\\:\nb\n", wantOut: "     1\ta\n\n     2\tb\n"},
		{name: "nl join blank", args: []string{"nl", "-ba", "-l2"}, stdin: "a\n\n\n\n\nb\n", wantOut: "     1\ta\n       \n     2\t\n       \n     3\t\n     4\tb\n"},
		{name: "nl no newline", args: []string{"nl"}, stdin: "a\nb", wantOut: "     1\ta\n     2\tb\n"},
		{name: "nl missing", args: []string{"nl", "nope"}, wantOut: "", wantErr: "nl: nope: No such file or directory\n", wantExit: 1},
		{name: "nl bad style", args: []string{"nl", "-bx"}, wantOut: "", wantErr: "nl: invalid body numbering style: 'x'\nTry 'nl --help' for more information.\n", wantExit: 1},
		{name: "nl files continue numbering", args: []string{"nl", "f", "f"}, files: map[string]string{"/w/f": "x\n"}, wantOut: "     1\tx\n     2\tx\n"},
	})
}

func TestNlGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "refused", args: []string{"nl", "secret"}, files: map[string]string{"/w/secret": "k"},
			wantErr: "nl: secret: " + secretReason + "\n", wantExit: 1},
		{name: "help", args: []string{"nl", "--help"}, wantOut: nlHelp},
	})
	runVoiceCases(t, []voiceCase{{utility: "nl", arg: "secret", msg: secretReason, want: "nl: secret: " + secretReason + "\n"}})
}
