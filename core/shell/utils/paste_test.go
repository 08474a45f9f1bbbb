package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestPasteCommAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "paste parallel", args: []string{"paste", "a", "b"}, files: map[string]string{"/w/a": "1\n2\n3\n", "/w/b": "x\ny\n"}, wantOut: "1\tx\n2\ty\n3\t\n"},
		{name: "paste delims", args: []string{"paste", "-d", ",;", "a", "b", "a"}, files: map[string]string{"/w/a": "1\n2\n", "/w/b": "x\ny\n"}, wantOut: "1,x;1\n2,y;2\n"},
		{name: "paste serial", args: []string{"paste", "-s", "a", "b"}, files: map[string]string{"/w/a": "1\n2\n3\n", "/w/b": "x\ny\n"}, wantOut: "1\t2\t3\nx\ty\n"},
		{name: "paste serial delims", args: []string{"paste", "-s", "-d", ":\\n"}, stdin: "a\nb\nc\nd\n", wantOut: "a:b\nc:d\n"},
		{name: "paste stdin twice", args: []string{"paste", "-", "-"}, stdin: "1\n2\n3\n", wantOut: "1\t2\n3\t\n"},
		{name: "paste empty delim", args: []string{"paste", "-d", "\\0", "a", "b"}, files: map[string]string{"/w/a": "1\n", "/w/b": "2\n"}, wantOut: "12\n"},
		{name: "paste missing", args: []string{"paste", "a", "nope"}, files: map[string]string{"/w/a": "1\n"}, wantOut: "", wantErr: "paste: nope: No such file or directory\n", wantExit: 1},
		{name: "paste no final newline", args: []string{"paste", "a", "b"}, files: map[string]string{"/w/a": "1", "/w/b": "2"}, wantOut: "1\t2\n"},
		{name: "paste trailing backslash", args: []string{"paste", "-d", "\\", "a"}, files: map[string]string{"/w/a": "1\n"}, wantOut: "", wantErr: "paste: delimiter list ends with an unescaped backslash: \\\n", wantExit: 1},
		{name: "comm default", args: []string{"comm", "a", "b"}, files: map[string]string{"/w/a": "apple\nbanana\ncherry\n", "/w/b": "banana\ncherry\ndate\n"}, wantOut: "apple\n\t\tbanana\n\t\tcherry\n\tdate\n"},
		{name: "comm 12", args: []string{"comm", "-12", "a", "b"}, files: map[string]string{"/w/a": "apple\nbanana\ncherry\n", "/w/b": "banana\ncherry\ndate\n"}, wantOut: "banana\ncherry\n"},
		{name: "comm 3", args: []string{"comm", "-3", "a", "b"}, files: map[string]string{"/w/a": "apple\nbanana\ncherry\n", "/w/b": "banana\ncherry\ndate\n"}, wantOut: "apple\n\tdate\n"},
		{name: "comm delim", args: []string{"comm", "--output-delimiter=|", "a", "b"}, files: map[string]string{"/w/a": "a\nc\n", "/w/b": "b\nc\n"}, wantOut: "a\n|b\n||c\n"},
		{name: "comm total", args: []string{"comm", "--total", "a", "b"}, files: map[string]string{"/w/a": "a\nc\n", "/w/b": "b\nc\n"}, wantOut: "a\n\tb\n\t\tc\n1\t1\t1\ttotal\n"},
		{name: "comm stdin", args: []string{"comm", "-", "b"}, files: map[string]string{"/w/b": "b\nc\n"}, stdin: "a\nc\n", wantOut: "a\n\tb\n\t\tc\n"},
		{name: "comm missing operand", args: []string{"comm", "a"}, files: map[string]string{"/w/a": ""}, wantOut: "", wantErr: "comm: missing operand after 'a'\nTry 'comm --help' for more information.\n", wantExit: 1},
		{name: "comm no operand", args: []string{"comm"}, wantOut: "", wantErr: "comm: missing operand\nTry 'comm --help' for more information.\n", wantExit: 1},
		{name: "comm missing file", args: []string{"comm", "a", "nope"}, files: map[string]string{"/w/a": "x\n"}, wantOut: "", wantErr: "comm: nope: No such file or directory\n", wantExit: 1},
		{name: "comm check order", args: []string{"comm", "--check-order", "a", "b"}, files: map[string]string{"/w/a": "b\na\n", "/w/b": "a\n"}, wantOut: "\ta\nb\n", wantErr: "comm: file 1 is not in sorted order\n", wantExit: 1},
		{name: "comm byte order", args: []string{"comm", "a", "b"}, files: map[string]string{"/w/a": "B\na\n", "/w/b": "a\nb\n"}, wantOut: "B\n\t\ta\n\tb\n"},
	})
}

func TestPasteCommGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "paste refused", args: []string{"paste", "secret"}, files: map[string]string{"/w/secret": "k"},
			wantErr: "paste: secret: " + secretReason + "\n", wantExit: 1},
		{name: "comm refused", args: []string{"comm", "a", "secret"}, files: map[string]string{"/w/a": "", "/w/secret": "k"},
			wantErr: "comm: secret: " + secretReason + "\n", wantExit: 1},
		// GNU's default: once a line is unpairable, disorder warns once per
		// file, the output goes on, and the run fails at the end.
		{name: "comm unsorted warns and fails at the end", args: []string{"comm", "a", "b"}, files: map[string]string{"/w/a": "b\na\n", "/w/b": "a\n"},
			wantOut: "\ta\nb\na\n", wantErr: "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n", wantExit: 1},
		{name: "comm unsorted unchecked", args: []string{"comm", "--nocheck-order", "a", "b"}, files: map[string]string{"/w/a": "b\na\n", "/w/b": "a\n"},
			wantOut: "\ta\nb\na\n"},
		{name: "comm disorder before any unpairable line passes", args: []string{"comm", "a", "b"}, files: map[string]string{"/w/a": "b\na\n", "/w/b": "b\na\n"},
			wantOut: "\t\tb\n\t\ta\n"},
		{name: "paste help", args: []string{"paste", "--help"}, wantOut: pasteHelp},
		{name: "comm help", args: []string{"comm", "--help"}, wantOut: commHelp},
	})
	runVoiceCases(t, []voiceCase{
		{utility: "paste", arg: "secret", msg: secretReason, want: "paste: secret: " + secretReason + "\n"},
		{utility: "comm", arg: "secret", msg: secretReason, want: "comm: secret: " + secretReason + "\n"},
	})
}
