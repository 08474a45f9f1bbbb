package utils

import (
	"testing"
	"time"
)

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestTestAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "test a b", args: []string{"test", "a", "b"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: missing argument after 'b'\n", wantExit: 2},
		{name: "test a b c d e", args: []string{"test", "a", "b", "c", "d", "e"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: extra argument 'b'\n", wantExit: 2},
		{name: "test 1 -eq a", args: []string{"test", "1", "-eq", "a"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: invalid integer 'a'\n", wantExit: 2},
		{name: "test ( a", args: []string{"test", "(", "a"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: missing argument after 'a'\n", wantExit: 2},
		{name: "test 1 -gt", args: []string{"test", "1", "-gt"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: missing argument after '-gt'\n", wantExit: 2},
		{name: "test -z a b", args: []string{"test", "-z", "a", "b"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: 'a': binary operator expected\n", wantExit: 2},
		{name: "test a -a", args: []string{"test", "a", "-a"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: missing argument after '-a'\n", wantExit: 2},
		{name: "test ! a b", args: []string{"test", "!", "a", "b"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: missing argument after 'b'\n", wantExit: 2},
		{name: "test ( a b )", args: []string{"test", "(", "a", "b", ")"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: missing argument after ')'\n", wantExit: 2},
		{name: "test a = b = c", args: []string{"test", "a", "=", "b", "=", "c"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: extra argument '='\n", wantExit: 2},
		{name: "test -f a b", args: []string{"test", "-f", "a", "b"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: 'a': binary operator expected\n", wantExit: 2},
		{name: "test 1 -eq 2 -o", args: []string{"test", "1", "-eq", "2", "-o"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: missing argument after '-o'\n", wantExit: 2},
		{name: "test x -nt", args: []string{"test", "x", "-nt"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: missing argument after '-nt'\n", wantExit: 2},
		{name: "test ", args: []string{"test"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "test a", args: []string{"test", "a"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -n", args: []string{"test", "-n"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test !", args: []string{"test", "!"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -z ''", args: []string{"test", "-z", ""}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test a = a", args: []string{"test", "a", "=", "a"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test a != a", args: []string{"test", "a", "!=", "a"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "test 1 -lt 2", args: []string{"test", "1", "-lt", "2"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test 10 -gt 9", args: []string{"test", "10", "-gt", "9"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -5 -le -5", args: []string{"test", "-5", "-le", "-5"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test  3 -eq 3", args: []string{"test", "", "3", "-eq", "3"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: extra argument '3'\n", wantExit: 2},
		{name: "test a < b", args: []string{"test", "a", "<", "b"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: '<': binary operator expected\n", wantExit: 2},
		{name: "test b > a", args: []string{"test", "b", ">", "a"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: '>': binary operator expected\n", wantExit: 2},
		{name: "test -f f", args: []string{"test", "-f", "f"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -f d", args: []string{"test", "-f", "d"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "test -d d", args: []string{"test", "-d", "d"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -e nope", args: []string{"test", "-e", "nope"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "test -s f", args: []string{"test", "-s", "f"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -s e", args: []string{"test", "-s", "e"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "test ! -e nope", args: []string{"test", "!", "-e", "nope"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -f f -a -d d", args: []string{"test", "-f", "f", "-a", "-d", "d"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -f nope -o -d d", args: []string{"test", "-f", "nope", "-o", "-d", "d"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test ( -f f )", args: []string{"test", "(", "-f", "f", ")"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test ! ( a = b )", args: []string{"test", "!", "(", "a", "=", "b", ")"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test a -a b -o ''", args: []string{"test", "a", "-a", "b", "-o", ""}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -x f", args: []string{"test", "-x", "f"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "test -L f", args: []string{"test", "-L", "f"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "test -r f", args: []string{"test", "-r", "f"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test -w f", args: []string{"test", "-w", "f"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test 1 -eq 1.5", args: []string{"test", "1", "-eq", "1.5"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: invalid integer '1.5'\n", wantExit: 2},
		{name: "test 999999999999999999999 -gt 1", args: []string{"test", "999999999999999999999", "-gt", "1"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "test x -eq 1 -o 1", args: []string{"test", "x", "-eq", "1", "-o", "1"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "test: invalid integer 'x'\n", wantExit: 2},
		{name: "bracket a ]", args: []string{"[", "a", "]"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "bracket a", args: []string{"[", "a"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantErr: "[: missing ']'\n", wantExit: 2},
		{name: "bracket -f f ]", args: []string{"[", "-f", "f", "]"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
		{name: "bracket ]", args: []string{"[", "]"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "bracket 1 -eq 2 ]", args: []string{"[", "1", "-eq", "2", "]"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: "", wantExit: 1},
		{name: "bracket ( a ) ]", args: []string{"[", "(", "a", ")", "]"}, files: map[string]string{"/w/d/": "", "/w/e": "", "/w/f": "data\n"}, wantOut: ""},
	})
}

func TestTestGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "hidden file does not exist", args: []string{"test", "-e", "hidden/x"}, files: map[string]string{"/w/hidden/x": ""}, wantExit: 1},
		{name: "symlink", args: []string{"test", "-L", "l", "-a", "-f", "l"}, files: map[string]string{"/w/f": "x"}, links: map[string]string{"/w/l": "f"}},
		{name: "newer", args: []string{"test", "new", "-nt", "old"}, files: map[string]string{"/w/new": "", "/w/old": ""},
			times: map[string]time.Time{"/w/old": testNow.Add(-time.Hour)}},
		{name: "same file", args: []string{"test", "l", "-ef", "f"}, files: map[string]string{"/w/f": "x"}, links: map[string]string{"/w/l": "f"}},
		{name: "bracket help", args: []string{"[", "--help"}, wantOut: testHelp},
		{name: "bracket missing close", args: []string{"[", "-f", "x"}, wantErr: "[: missing ']'\n", wantExit: 2},
	})
	cases := []struct {
		argv []string
		want []OperandRef
	}{
		{[]string{"test", "-f", "a", "-a", "-d", "b"}, []OperandRef{{Index: 2}, {Index: 5}}},
		{[]string{"[", "x", "-nt", "y", "]"}, []OperandRef{{Index: 1}, {Index: 3}}},
		{[]string{"test", "-n", "a"}, nil},
		{[]string{"[", "-f", "]"}, nil},
	}
	for _, c := range cases {
		got := Lookup(c.argv[0]).Operands(c.argv)
		if len(got) != len(c.want) {
			t.Errorf("%q operands = %+v, want %+v", c.argv, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q operand %d = %+v, want %+v", c.argv, i, got[i], c.want[i])
			}
		}
	}
}
