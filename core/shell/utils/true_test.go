package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestTrueFalseAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "true args", args: []string{"true", "--nope", "x"}, wantOut: ""},
		{name: "false", args: []string{"false"}, wantOut: "", wantExit: 1},
		{name: "false help ignored with args", args: []string{"false", "--help", "x"}, wantOut: "", wantExit: 1},
		{name: "true double", args: []string{"true", "a"}, wantOut: ""},
	})
}

func TestTrueFalsePwd(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "true help", args: []string{"true", "--help"}, wantOut: trueHelp},
		{name: "true version alone", args: []string{"true", "--version"}, wantOut: "true (GNU coreutils) 9.4\n"},
		{name: "true help among others is ignored", args: []string{"true", "x", "--help"}},
		{name: "true no args", args: []string{"true"}},
		{name: "false version alone", args: []string{"false", "--version"}, wantOut: "false (GNU coreutils) 9.4\n", wantExit: 1},
		{name: "false bad option is ignored", args: []string{"false", "-x"}, wantExit: 1},
		{name: "false many args", args: []string{"false", "a", "b", "c"}, wantExit: 1},
		{name: "false help", args: []string{"false", "--help"}, wantOut: falseHelp, wantExit: 1},
		{name: "pwd prints cwd", args: []string{"pwd"}, dir: "/w/sub", files: map[string]string{"/w/sub/f": ""}, wantOut: "/w/sub\n"},
		{name: "pwd logical", args: []string{"pwd", "-L"}, wantOut: "/w\n"},
		{name: "pwd physical resolves links", args: []string{"pwd", "-P"}, dir: "/w/link",
			files: map[string]string{"/w/real/f": ""}, links: map[string]string{"/w/link": "real"}, wantOut: "/w/real\n"},
		{name: "pwd physical keeps logical otherwise", args: []string{"pwd"}, dir: "/w/link",
			files: map[string]string{"/w/real/f": ""}, links: map[string]string{"/w/link": "real"}, wantOut: "/w/link\n"},
		{name: "pwd bad option", args: []string{"pwd", "-x"}, wantErr: "pwd: invalid option -- 'x'\nTry 'pwd --help' for more information.\n", wantExit: 1},
		{name: "pwd help", args: []string{"pwd", "--help"}, wantOut: pwdHelp},
	})
}
