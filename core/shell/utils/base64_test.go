package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestBase64AgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "base64 encode", args: []string{"base64"}, stdin: "hello\n", wantOut: "aGVsbG8K\n"},
		{name: "base64 wrap default", args: []string{"base64"}, stdin: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", wantOut: "eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4\neHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eA==\n"},
		{name: "base64 wrap 8", args: []string{"base64", "-w", "8"}, stdin: "abcdefghij", wantOut: "YWJjZGVm\nZ2hpag==\n"},
		{name: "base64 wrap 0", args: []string{"base64", "-w0"}, stdin: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", wantOut: "eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eA=="},
		{name: "base64 empty", args: []string{"base64"}, wantOut: ""},
		{name: "base64 decode", args: []string{"base64", "-d"}, stdin: "aGVsbG8K\n", wantOut: "hello\n"},
		{name: "base64 decode wrapped", args: []string{"base64", "--decode"}, stdin: "eHh4eHh4\neHh4\n", wantOut: "xxxxxxxxx"},
		{name: "base64 decode invalid", args: []string{"base64", "-d"}, stdin: "aGkK!!\n", wantOut: "hi\n", wantErr: "base64: invalid input\n", wantExit: 1},
		{name: "base64 ignore garbage", args: []string{"base64", "-di"}, stdin: "aG!kK\n", wantOut: "hi\n"},
		{name: "base64 unpadded", args: []string{"base64", "-d"}, stdin: "aGk", wantOut: "hi", wantErr: "base64: invalid input\n", wantExit: 1},
		{name: "base64 file", args: []string{"base64", "f"}, files: map[string]string{"/w/f": "data"}, wantOut: "ZGF0YQ==\n"},
		{name: "base64 missing", args: []string{"base64", "nope"}, wantOut: "", wantErr: "base64: nope: No such file or directory\n", wantExit: 1},
		{name: "base64 extra", args: []string{"base64", "a", "b"}, wantOut: "", wantErr: "base64: extra operand 'b'\nTry 'base64 --help' for more information.\n", wantExit: 1},
		{name: "base64 bad wrap", args: []string{"base64", "-w", "x"}, wantOut: "", wantErr: "base64: invalid wrap size: 'x'\n", wantExit: 1},
	})
}

func TestBase64Gatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "round trip binary", args: []string{"base64", "-w0", "f"}, files: map[string]string{"/w/f": "\x00\xff\x10"}, wantOut: "AP8Q"},
		{name: "refused", args: []string{"base64", "secret"}, files: map[string]string{"/w/secret": "k"},
			wantErr: "base64: secret: " + secretReason + "\n", wantExit: 1},
		{name: "help", args: []string{"base64", "--help"}, wantOut: baseHelp("base64", "Base64")},
	})
	runVoiceCases(t, []voiceCase{{utility: "base64", arg: "secret", msg: secretReason, want: "base64: secret: " + secretReason + "\n"}})
}
