package utils

import (
	"strings"
	"testing"
	"time"
)

func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

func TestFind(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"/w/t/a.txt":          "aaa\n",
		"/w/t/b.go":           "package x\n",
		"/w/t/sub/c.txt":      "c\n",
		"/w/t/sub/deep/d.txt": "d\n",
		"/w/t/empty/":         "",
		"/w/t/zero":           "",
	}
	all := lines("t", "t/a.txt", "t/b.go", "t/empty", "t/sub", "t/sub/c.txt", "t/sub/deep", "t/sub/deep/d.txt", "t/zero")
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	warning := "find: warning: you have specified the global option -maxdepth after the argument -name, but global options are not positional, i.e., -maxdepth affects tests specified before it as well as those specified after it.  Please specify global options before other arguments.\n"
	runCases(t, []utilCase{
		{name: "everything in readdir order", args: []string{"find", "t"}, files: files, wantOut: all},
		{name: "cwd default", args: []string{"find"}, dir: "/w/t/sub", files: files, wantOut: lines(".", "./c.txt", "./deep", "./deep/d.txt")},
		{name: "name", args: []string{"find", "t", "-name", "*.txt"}, files: files, wantOut: lines("t/a.txt", "t/sub/c.txt", "t/sub/deep/d.txt")},
		{name: "iname", args: []string{"find", "t", "-iname", "A.TXT"}, files: files, wantOut: lines("t/a.txt")},
		{name: "type d", args: []string{"find", "t", "-type", "d"}, files: files, wantOut: lines("t", "t/empty", "t/sub", "t/sub/deep")},
		{name: "type list", args: []string{"find", "t/sub", "-type", "f,d"}, files: files, wantOut: lines("t/sub", "t/sub/c.txt", "t/sub/deep", "t/sub/deep/d.txt")},
		{name: "maxdepth", args: []string{"find", "t", "-maxdepth", "1", "-type", "f"}, files: files, wantOut: lines("t/a.txt", "t/b.go", "t/zero")},
		{name: "mindepth", args: []string{"find", "t", "-mindepth", "2"}, files: files, wantOut: lines("t/sub/c.txt", "t/sub/deep", "t/sub/deep/d.txt")},
		{name: "misplaced global option is quiet", args: []string{"find", "t", "-name", "*.txt", "-maxdepth", "1"}, files: files,
			wantOut: lines("t/a.txt")},
		{name: "misplaced global option warns with -warn", args: []string{"find", "t", "-warn", "-name", "*.txt", "-maxdepth", "1"}, files: files,
			wantOut: lines("t/a.txt"), wantErr: warning},
		{name: "empty", args: []string{"find", "t", "-empty"}, files: files, wantOut: lines("t/empty", "t/zero")},
		{name: "prune", args: []string{"find", "t", "-path", "*sub", "-prune", "-o", "-print"}, files: files,
			wantOut: lines("t", "t/a.txt", "t/b.go", "t/empty", "t/zero")},
		{name: "or binds looser than and", args: []string{"find", "t", "-name", "*.go", "-o", "-name", "c*", "-type", "f"}, files: files,
			wantOut: lines("t/b.go", "t/sub/c.txt")},
		{name: "parentheses", args: []string{"find", "t", "(", "-name", "*.go", "-o", "-name", "*.txt", ")", "-newer", "t/b.go"}, files: files,
			times: map[string]time.Time{"/w/t/b.go": old}, wantOut: lines("t/a.txt", "t/sub/c.txt", "t/sub/deep/d.txt")},
		{name: "not", args: []string{"find", "t", "!", "-name", "*.txt", "-type", "f"}, files: files, wantOut: lines("t/b.go", "t/zero")},
		{name: "size in blocks", args: []string{"find", "t", "-type", "f", "-size", "-1"}, files: files, wantOut: lines("t/zero")},
		{name: "size in bytes", args: []string{"find", "t", "-type", "f", "-size", "+3c"}, files: files, wantOut: lines("t/a.txt", "t/b.go")},
		{name: "mtime", args: []string{"find", "t", "-type", "f", "-mtime", "+30"}, files: files,
			times: map[string]time.Time{"/w/t/a.txt": old}, wantOut: lines("t/a.txt", "t/b.go", "t/sub/c.txt", "t/sub/deep/d.txt", "t/zero")},
		{name: "newer", args: []string{"find", "t", "-newer", "t/a.txt", "-type", "f"}, files: files,
			times: map[string]time.Time{"/w/t/a.txt": old}, wantOut: lines("t/b.go", "t/sub/c.txt", "t/sub/deep/d.txt", "t/zero")},
		{name: "print0", args: []string{"find", "t/sub", "-print0"}, files: files, wantOut: "t/sub\x00t/sub/c.txt\x00t/sub/deep\x00t/sub/deep/d.txt\x00"},
		{name: "printf", args: []string{"find", "t/sub", "-printf", `%p|%f|%h|%P|%d|%y|%s\n`}, files: files,
			wantOut: lines("t/sub|sub|t||0|d|4096", "t/sub/c.txt|c.txt|t/sub|c.txt|1|f|2", "t/sub/deep|deep|t/sub|deep|1|d|4096", "t/sub/deep/d.txt|d.txt|t/sub/deep|deep/d.txt|2|f|2")},
		{name: "exec each", args: []string{"find", "t/sub", "-type", "f", "-exec", "echo", "found", "{}", ";"}, files: files,
			wantOut: lines("found t/sub/c.txt", "found t/sub/deep/d.txt")},
		{name: "exec batch", args: []string{"find", "t/sub", "-type", "f", "-exec", "echo", "{}", "+"}, files: files,
			wantOut: lines("t/sub/c.txt t/sub/deep/d.txt")},
		{name: "exec is a test", args: []string{"find", "t", "-type", "f", "-exec", "grep", "-q", "c", "{}", ";", "-print"}, files: files,
			wantOut: lines("t/b.go", "t/sub/c.txt")},
		{name: "exec batch failure sets status", args: []string{"find", "t/sub", "-type", "f", "-exec", "false", "{}", "+"}, files: files, wantExit: 1},
		{name: "exec runs utilities", args: []string{"find", "t/sub", "-name", "*.txt", "-exec", "cat", "{}", ";"}, files: files, wantOut: "c\nd\n"},
		{name: "quit", args: []string{"find", "t", "-name", "b.go", "-print", "-quit"}, files: files, wantOut: lines("t/b.go")},
		{name: "quit before print", args: []string{"find", "t", "-quit"}, files: files},
		{name: "delete", args: []string{"find", "t", "-name", "*.txt", "-delete"}, files: files,
			wantFiles: map[string]string{"/w/t/a.txt": "<absent>", "/w/t/sub/deep/d.txt": "<absent>", "/w/t/b.go": "package x\n"}},
		{name: "delete tree", args: []string{"find", "t/sub", "-delete"}, files: files,
			wantFiles: map[string]string{"/w/t/sub": "<absent>", "/w/t": "<dir>"}},
		{name: "missing start", args: []string{"find", "nope", "t/empty"}, files: files,
			wantOut: lines("t/empty"), wantErr: "find: 'nope': No such file or directory\n", wantExit: 1},
		{name: "refused directory", args: []string{"find", "/w/secret"}, files: map[string]string{"/w/secret/k": "1"},
			wantOut: lines("/w/secret"), wantErr: "find: '/w/secret': " + secretReason + "\n", wantExit: 1},
		{name: "hidden absent", args: []string{"find", "."}, files: map[string]string{"/w/hidden": "1", "/w/v": "2"},
			wantOut: lines(".", "./v")},
		{name: "trailing slash", args: []string{"find", "t/sub/", "-name", "c*"}, files: files, wantOut: lines("t/sub/c.txt")},
		{name: "symlink not followed", args: []string{"find", "t", "-type", "l"}, files: files, links: map[string]string{"/w/t/ln": "sub"},
			wantOut: lines("t/ln")},
		{name: "symlink followed with -L", args: []string{"find", "-L", "t", "-name", "c.txt"}, files: files, links: map[string]string{"/w/t/ln": "sub"},
			wantOut: lines("t/ln/c.txt", "t/sub/c.txt")},
		{name: "regex", args: []string{"find", "t", "-regex", `.*/[a-c]\.txt`}, files: files, wantOut: lines("t/a.txt", "t/sub/c.txt")},
		{name: "perm", args: []string{"find", "t/sub", "-perm", "-u=rwx"}, files: files, wantOut: lines("t/sub", "t/sub/deep")},
		{name: "missing exec terminator", args: []string{"find", "t", "-exec", "echo"}, files: files,
			wantErr: "find: missing argument to `-exec'\n", wantExit: 1},
		{name: "unknown predicate", args: []string{"find", "t", "-foo"}, files: files, wantErr: "find: unknown predicate `-foo'\n", wantExit: 1},
		{name: "bad type", args: []string{"find", "t", "-type", "z"}, files: files, wantErr: "find: Unknown argument to -type: z\n", wantExit: 1},
		{name: "path after expression", args: []string{"find", "-name", "x", "t"}, files: files,
			wantErr: "find: paths must precede expression: `t'\nfind: possible unquoted pattern after predicate `-name'?\n", wantExit: 1},
		{name: "path after a test", args: []string{"find", ".", "-print", "t"}, files: files,
			wantErr: "find: paths must precede expression: `t'\nfind: possible unquoted pattern after predicate `-print'?\n", wantExit: 1},
		{name: "missing path after expression", args: []string{"find", ".", "-name", "x", "y"}, files: files,
			wantErr: "find: paths must precede expression: `y'\n", wantExit: 1},
		{name: "dangling or", args: []string{"find", ".", "-name", "x", "-o"}, files: files,
			wantErr: "find: expected an expression after '-o'\n", wantExit: 1},
		{name: "unbalanced parenthesis", args: []string{"find", "t", "(", "-name", "x"}, files: files,
			wantErr: "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.\n", wantExit: 1},
	})
}

func TestFindOperands(t *testing.T) {
	t.Parallel()
	argv := []string{"find", "-L", "a", "b", "-newer", "ref", "-exec", "cat", "{}", ";"}
	refs := findOperands(argv)
	want := []OperandRef{{Index: 2}, {Index: 3}, {Index: 5}}
	if len(refs) != len(want) {
		t.Fatalf("operands = %+v, want %+v", refs, want)
	}
	for i := range want {
		if refs[i] != want[i] {
			t.Errorf("operand %d = %+v, want %+v", i, refs[i], want[i])
		}
	}
}
