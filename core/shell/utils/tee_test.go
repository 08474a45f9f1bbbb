package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestTeeAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "tee stdout and file", args: []string{"tee", "out"}, stdin: "hello\n", wantOut: "hello\n", wantFiles: map[string]string{"/w/out": "hello\n"}},
		{name: "tee two files", args: []string{"tee", "a", "b"}, stdin: "x\n", wantOut: "x\n", wantFiles: map[string]string{"/w/a": "x\n", "/w/b": "x\n"}},
		{name: "tee append", args: []string{"tee", "-a", "f"}, files: map[string]string{"/w/f": "old\n"}, stdin: "new\n", wantOut: "new\n", wantFiles: map[string]string{"/w/f": "old\nnew\n"}},
		{name: "tee missing dir", args: []string{"tee", "nodir/x"}, stdin: "x\n", wantOut: "x\n", wantErr: "tee: nodir/x: No such file or directory\n", wantExit: 1},
		{name: "tee dash is a file", args: []string{"tee", "-"}, stdin: "x\n", wantOut: "x\n", wantFiles: map[string]string{"/w/-": "x\n"}},
		{name: "tee no args", args: []string{"tee"}, stdin: "just stdout\n", wantOut: "just stdout\n"},
		{name: "tee bad option", args: []string{"tee", "-z"}, wantOut: "", wantErr: "tee: invalid option -- 'z'\nTry 'tee --help' for more information.\n", wantExit: 1},
	})
}

func TestTeeWritesThroughTheVFS(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "files receive input", args: []string{"tee", "a", "sub/b"}, files: map[string]string{"/w/sub/": ""}, stdin: "x\n", wantOut: "x\n",
			wantFiles: map[string]string{"/w/a": "x\n", "/w/sub/b": "x\n"}},
		{name: "append keeps content", args: []string{"tee", "-a", "f"}, files: map[string]string{"/w/f": "old\n"}, stdin: "new\n", wantOut: "new\n",
			wantFiles: map[string]string{"/w/f": "old\nnew\n"}},
		{name: "truncates by default", args: []string{"tee", "f"}, files: map[string]string{"/w/f": "old old old\n"}, stdin: "n\n", wantOut: "n\n",
			wantFiles: map[string]string{"/w/f": "n\n"}},
		{name: "read-only mount", args: []string{"tee", "/ro/x", "ok"}, stdin: "d\n", wantOut: "d\n",
			wantErr: "tee: /ro/x: Read-only file system\n", wantExit: 1, wantFiles: map[string]string{"/w/ok": "d\n"}},
		{name: "refused file", args: []string{"tee", "secret"}, stdin: "d\n", wantOut: "d\n",
			wantErr: "tee: secret: " + secretReason + "\n", wantExit: 1},
		{name: "dev stderr", args: []string{"tee", "/dev/stderr"}, stdin: "e\n", wantOut: "e\n", wantErr: "e\n"},
		{name: "help", args: []string{"tee", "--help"}, wantOut: teeHelp},
	})
	runVoiceCases(t, []voiceCase{{utility: "tee", arg: "secret", msg: secretReason, want: "tee: secret: " + secretReason + "\n"}})
	if refs := Lookup("tee").Operands([]string{"tee", "-a", "x"}); len(refs) != 1 || refs[0].Kind != Write {
		t.Errorf("tee operands = %+v, want x as Write", refs)
	}
}
