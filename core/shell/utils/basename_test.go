package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestBasenameDirnameAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "basename path", args: []string{"basename", "/usr/bin/sort"}, wantOut: "sort\n"},
		{name: "basename suffix", args: []string{"basename", "include/stdio.h", ".h"}, wantOut: "stdio\n"},
		{name: "basename -s", args: []string{"basename", "-s", ".c", "a.c", "dir/b.c"}, wantOut: "a\nb\n"},
		{name: "basename -a", args: []string{"basename", "-a", "x/one", "y/two/"}, wantOut: "one\ntwo\n"},
		{name: "basename slash", args: []string{"basename", "/"}, wantOut: "/\n"},
		{name: "basename empty", args: []string{"basename", ""}, wantOut: "\n"},
		{name: "basename suffix equal", args: []string{"basename", ".h", ".h"}, wantOut: ".h\n"},
		{name: "basename missing", args: []string{"basename"}, wantOut: "", wantErr: "basename: missing operand\nTry 'basename --help' for more information.\n", wantExit: 1},
		{name: "basename extra", args: []string{"basename", "a", "b", "c"}, wantOut: "", wantErr: "basename: extra operand 'c'\nTry 'basename --help' for more information.\n", wantExit: 1},
		{name: "basename zero", args: []string{"basename", "-z", "a/b"}, wantOut: "b\x00"},
		{name: "dirname several", args: []string{"dirname", "a/b", "/c", "/", "a", "", "//x", "a/b//"}, wantOut: "a\n/\n/\n.\n.\n/\na\n"},
		{name: "dirname missing", args: []string{"dirname"}, wantOut: "", wantErr: "dirname: missing operand\nTry 'dirname --help' for more information.\n", wantExit: 1},
		{name: "dirname usr bin", args: []string{"dirname", "/usr/bin/"}, wantOut: "/usr\n"},
		{name: "dirname zero", args: []string{"dirname", "-z", "a/b", "c"}, wantOut: "a\x00.\x00"},
		{name: "dirname dot", args: []string{"dirname", "./x"}, wantOut: ".\n"},
	})
}

func TestBasenameDirnameTouchNoFiles(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "basename help", args: []string{"basename", "--help"}, wantOut: basenameHelp},
		{name: "dirname help", args: []string{"dirname", "--help"}, wantOut: dirnameHelp},
		// A hidden path is only text to them.
		{name: "hidden name is text", args: []string{"basename", "/w/hidden/x.txt", ".txt"}, wantOut: "x\n"},
	})
	for _, name := range []string{"basename", "dirname"} {
		if Lookup(name).Operands != nil {
			t.Errorf("%s declares path operands; it reads no file", name)
		}
	}
}
