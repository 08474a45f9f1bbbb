package utils

import (
	"strings"
	"testing"
)

// numbered returns "1\n2\n...n\n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat("", 0))
		b.WriteString(itoa(i) + "\n")
	}
	return b.String()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

func TestHead(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/n12": numbered(12), "/w/ab": "a\nb\n", "/w/dir/x": "", "/w/secret": "k"}
	runCases(t, []utilCase{
		{name: "ten lines by default", args: []string{"head", "n12"}, files: files, wantOut: numbered(10)},
		{name: "n lines", args: []string{"head", "-n", "3", "n12"}, files: files, wantOut: "1\n2\n3\n"},
		{name: "obsolete count", args: []string{"head", "-2", "n12"}, files: files, wantOut: "1\n2\n"},
		{name: "attached count", args: []string{"head", "-n2", "n12"}, files: files, wantOut: "1\n2\n"},
		{name: "bytes", args: []string{"head", "-c", "5", "n12"}, files: files, wantOut: "1\n2\n3"},
		{name: "all but last lines", args: []string{"head", "-n", "-9", "n12"}, files: files, wantOut: "1\n2\n3\n"},
		{name: "all but last bytes", args: []string{"head", "-c", "-2", "ab"}, files: files, wantOut: "a\n"},
		{name: "stdin", args: []string{"head", "-n", "1"}, stdin: "x\ny\n", wantOut: "x\n"},
		{name: "no trailing newline", args: []string{"head", "-n", "5"}, stdin: "x\ny", wantOut: "x\ny"},
		{name: "headers for several files", args: []string{"head", "-n1", "ab", "n12"}, files: files,
			wantOut: "==> ab <==\na\n\n==> n12 <==\n1\n"},
		{name: "quiet", args: []string{"head", "-q", "-n1", "ab", "n12"}, files: files, wantOut: "a\n1\n"},
		{name: "verbose stdin", args: []string{"head", "-v", "-n1"}, stdin: "s\n", wantOut: "==> standard input <==\ns\n"},
		{name: "missing file", args: []string{"head", "nope", "ab"}, files: files,
			wantOut: "==> ab <==\na\nb\n", wantErr: "head: cannot open 'nope' for reading: No such file or directory\n", wantExit: 1},
		{name: "directory", args: []string{"head", "dir"}, files: files,
			wantErr: "head: error reading 'dir': Is a directory\n", wantExit: 1},
		{name: "refused", args: []string{"head", "/w/secret"}, files: files,
			wantErr: "head: cannot open '/w/secret' for reading: " + secretReason + "\n", wantExit: 1},
		{name: "invalid count", args: []string{"head", "-n", "x", "ab"}, files: files,
			wantErr: "head: invalid number of lines: 'x'\n", wantExit: 1},
		{name: "size suffix", args: []string{"head", "-c", "1K"}, stdin: strings.Repeat("z", 2000), wantOut: strings.Repeat("z", 1024)},
		{name: "missing argument", args: []string{"head", "-n"},
			wantErr: "head: option requires an argument -- 'n'\nTry 'head --help' for more information.\n", wantExit: 1},
		{name: "zero terminated", args: []string{"head", "-z", "-n1"}, stdin: "a\nb\x00c\x00", wantOut: "a\nb\x00"},
	})
}

func TestTail(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/n12": numbered(12), "/w/ab": "a\nb\n", "/w/dir/x": ""}
	runCases(t, []utilCase{
		{name: "ten lines by default", args: []string{"tail", "n12"}, files: files, wantOut: strings.TrimPrefix(numbered(12), "1\n2\n")},
		{name: "n lines", args: []string{"tail", "-n", "2", "n12"}, files: files, wantOut: "11\n12\n"},
		{name: "obsolete count", args: []string{"tail", "-1", "n12"}, files: files, wantOut: "12\n"},
		{name: "from line", args: []string{"tail", "-n", "+11", "n12"}, files: files, wantOut: "11\n12\n"},
		{name: "obsolete from line", args: []string{"tail", "+12", "n12"}, files: files, wantOut: "12\n"},
		{name: "bytes", args: []string{"tail", "-c", "3", "n12"}, files: files, wantOut: "12\n"},
		{name: "from byte", args: []string{"tail", "-c", "+3", "ab"}, files: files, wantOut: "b\n"},
		{name: "no trailing newline", args: []string{"tail", "-n", "1"}, stdin: "x\ny", wantOut: "y"},
		{name: "more than there is", args: []string{"tail", "-n", "5"}, stdin: "x\ny\n", wantOut: "x\ny\n"},
		{name: "zero lines", args: []string{"tail", "-n", "0"}, stdin: "x\ny\n", wantOut: ""},
		{name: "headers", args: []string{"tail", "-n1", "ab", "n12"}, files: files,
			wantOut: "==> ab <==\nb\n\n==> n12 <==\n12\n"},
		{name: "missing file", args: []string{"tail", "nope"},
			wantErr: "tail: cannot open 'nope' for reading: No such file or directory\n", wantExit: 1},
		{name: "directory", args: []string{"tail", "dir"}, files: files,
			wantErr: "tail: error reading 'dir': Is a directory\n", wantExit: 1},
		{name: "follow prints and ends", args: []string{"tail", "-f", "-n1", "ab"}, files: files, wantOut: "b\n"},
		{name: "old count with two files", args: []string{"tail", "-1", "ab", "n12"}, files: files,
			wantErr: "tail: option used in invalid context -- 1\n", wantExit: 1},
		{name: "invalid count", args: []string{"tail", "-n", "1x"},
			wantErr: "tail: invalid number of lines: '1x'\n", wantExit: 1},
	})
}

func TestHeadTailOperands(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		argv []string
		want []int
	}{
		{[]string{"head", "-5", "a", "b"}, []int{2, 3}},
		{[]string{"head", "-n", "5", "a"}, []int{3}},
		{[]string{"tail", "+5", "a"}, []int{2}},
		{[]string{"tail", "-f", "a", "-n", "3", "b"}, []int{2, 5}},
	} {
		t.Run(strings.Join(c.argv, " "), func(t *testing.T) {
			t.Parallel()
			refs := Lookup(c.argv[0]).Operands(c.argv)
			var got []int
			for _, r := range refs {
				got = append(got, r.Index)
			}
			if !equalInts(got, c.want) {
				t.Errorf("operands = %v, want %v", got, c.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestWc(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/a.txt": "hello world\nfoo\n", "/w/b.txt": "x\n", "/w/dir/x": "", "/w/tabs": "abc\tde\nxy\n", "/w/secret": "k"}
	runCases(t, []utilCase{
		{name: "one file", args: []string{"wc", "a.txt"}, files: files, wantOut: " 2  3 16 a.txt\n"},
		{name: "one count unpadded", args: []string{"wc", "-l", "a.txt"}, files: files, wantOut: "2 a.txt\n"},
		{name: "stdin is seven wide", args: []string{"wc"}, stdin: "hello world\nfoo\n", wantOut: "      2       3      16\n"},
		{name: "stdin one count", args: []string{"wc", "-l"}, stdin: "a\nb\n", wantOut: "2\n"},
		{name: "control and high bytes are not words", args: []string{"wc", "-w"}, stdin: "\x00\x00 a\x01b \x80\n", wantOut: "1\n"},
		{name: "total", args: []string{"wc", "a.txt", "b.txt"}, files: files,
			wantOut: " 2  3 16 a.txt\n 1  1  2 b.txt\n 3  4 18 total\n"},
		{name: "counts in fixed order", args: []string{"wc", "-cl", "a.txt"}, files: files, wantOut: " 2 16 a.txt\n"},
		{name: "chars and words", args: []string{"wc", "-mw", "a.txt"}, files: files, wantOut: " 3 16 a.txt\n"},
		{name: "max line length", args: []string{"wc", "-L", "tabs"}, files: files, wantOut: "10 tabs\n"},
		{name: "missing file", args: []string{"wc", "nope", "a.txt"}, files: files,
			wantOut: " 2  3 16 a.txt\n 2  3 16 total\n", wantErr: "wc: nope: No such file or directory\n", wantExit: 1},
		{name: "directory", args: []string{"wc", "dir"}, files: files,
			wantOut: "      0       0       0 dir\n", wantErr: "wc: dir: Is a directory\n", wantExit: 1},
		{name: "refused", args: []string{"wc", "-l", "/w/secret"}, files: files,
			wantErr: "wc: /w/secret: " + secretReason + "\n", wantExit: 1},
		{name: "total only", args: []string{"wc", "-l", "--total=only", "a.txt", "b.txt"}, files: files, wantOut: "3\n"},
		{name: "total never", args: []string{"wc", "-l", "--total=never", "a.txt", "b.txt"}, files: files, wantOut: " 2 a.txt\n 1 b.txt\n"},
		{name: "no trailing newline", args: []string{"wc", "-lw"}, stdin: "a b", wantOut: "      0       2\n"},
		{name: "dash names stdin", args: []string{"wc", "-c", "-", "b.txt"}, files: files, stdin: "abc",
			wantOut: "      3 -\n      2 b.txt\n      5 total\n"},
	})
}

func TestHeadStopsReadingEndlessInput(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	e := &Env{Args: []string{"head", "-n", "2"}, Stdin: endlessLines{}, Stdout: &out, Stderr: new(discard), Dir: "/"}
	status, err := Lookup("head").Run(e)
	if err != nil || status != 0 || out.String() != "y\ny\n" {
		t.Fatalf("head on endless input = %d, %v, %q", status, err, out.String())
	}
}

type endlessLines struct{}

func (endlessLines) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "y\n"[i%2]
	}
	return len(p) - len(p)%2, nil
}
