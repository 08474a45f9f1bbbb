package utils

import "testing"

func TestCat(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"/w/a.txt":   "alpha\nbeta\n",
		"/w/b.txt":   "gamma",
		"/w/blank":   "one\n\n\n\ntwo\n",
		"/w/ctl":     "tab\there\x01\x7f\xe9\n",
		"/w/dir/x":   "x",
		"/w/secret":  "AKIA\n",
		"/w/a b.txt": "spaced\n",
	}
	runCases(t, []utilCase{
		{name: "one file", args: []string{"cat", "a.txt"}, files: files, wantOut: "alpha\nbeta\n"},
		{name: "concatenates in order", args: []string{"cat", "a.txt", "b.txt", "a.txt"}, files: files, wantOut: "alpha\nbeta\ngammaalpha\nbeta\n"},
		{name: "stdin by default", args: []string{"cat"}, stdin: "piped\n", wantOut: "piped\n"},
		{name: "dash is stdin", args: []string{"cat", "b.txt", "-"}, files: files, stdin: "!\n", wantOut: "gamma!\n"},
		{name: "missing file continues", args: []string{"cat", "nope", "b.txt"}, files: files,
			wantOut: "gamma", wantErr: "cat: nope: No such file or directory\n", wantExit: 1},
		{name: "directory", args: []string{"cat", "dir"}, files: files, wantErr: "cat: dir: Is a directory\n", wantExit: 1},
		{name: "refused file speaks the reason", args: []string{"cat", "/w/secret"}, files: files,
			wantErr: "cat: /w/secret: " + secretReason + "\n", wantExit: 1},
		{name: "hidden file reads as missing", args: []string{"cat", "hidden.txt"}, files: map[string]string{"/w/hidden.txt": "x"},
			wantErr: "cat: hidden.txt: No such file or directory\n", wantExit: 1},
		{name: "quotes names with spaces", args: []string{"cat", "no such"}, wantErr: "cat: 'no such': No such file or directory\n", wantExit: 1},
		{name: "number lines across files", args: []string{"cat", "-n", "a.txt", "a.txt"}, files: files,
			wantOut: "     1\talpha\n     2\tbeta\n     3\talpha\n     4\tbeta\n"},
		{name: "number nonblank", args: []string{"cat", "-b", "blank"}, files: files,
			wantOut: "     1\tone\n\n\n\n     2\ttwo\n"},
		{name: "squeeze blanks", args: []string{"cat", "-s", "blank"}, files: files, wantOut: "one\n\ntwo\n"},
		{name: "show all", args: []string{"cat", "-A", "ctl"}, files: files, wantOut: "tab^Ihere^A^?M-i$\n"},
		{name: "show nonprinting keeps tabs", args: []string{"cat", "-v", "ctl"}, files: files, wantOut: "tab\there^A^?M-i\n"},
		{name: "show ends with -e", args: []string{"cat", "-e", "a.txt"}, files: files, wantOut: "alpha$\nbeta$\n"},
		{name: "options after operands", args: []string{"cat", "a.txt", "-n"}, files: files, wantOut: "     1\talpha\n     2\tbeta\n"},
		{name: "double dash ends options", args: []string{"cat", "--", "-n"}, wantErr: "cat: -n: No such file or directory\n", wantExit: 1},
		{name: "invalid option", args: []string{"cat", "-z"},
			wantErr: "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n", wantExit: 1},
		{name: "unknown long option", args: []string{"cat", "--bogus"},
			wantErr: "cat: unrecognized option '--bogus'\nTry 'cat --help' for more information.\n", wantExit: 1},
		{name: "abbreviated long option", args: []string{"cat", "--squ", "blank"}, files: files, wantOut: "one\n\ntwo\n"},
		{name: "ambiguous long option", args: []string{"cat", "--show"},
			wantErr: "cat: option '--show' is ambiguous; possibilities: '--show-all' '--show-ends' '--show-tabs' '--show-nonprinting'\nTry 'cat --help' for more information.\n", wantExit: 1},
		{name: "help", args: []string{"cat", "--help"}, wantOut: catHelp},
		{name: "binary safe", args: []string{"cat"}, stdin: "\x00\xff\x00", wantOut: "\x00\xff\x00"},
	})
}

func TestCatStopsWhenStdoutCloses(t *testing.T) {
	t.Parallel()
	e := &Env{Args: []string{"cat"}, Stdin: endlessReader{}, Stdout: failingWriter{}, Stderr: new(discard), Dir: "/"}
	status, err := Lookup("cat").Run(e)
	if err != nil || status != 1 {
		t.Fatalf("cat on a closed pipe = %d, %v; want 1, nil", status, err)
	}
}

type endlessReader struct{}

func (endlessReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'y'
	}
	return len(p), nil
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errClosedPipe }

type discard struct{}

func (*discard) Write(p []byte) (int, error) { return len(p), nil }
