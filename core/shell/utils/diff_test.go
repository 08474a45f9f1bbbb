package utils

import (
	"strings"
	"testing"
)

// Expected outputs recorded from GNU diff (diffutils 3.8) (LC_ALL=C) run on a temp dir
// holding the same files.
func TestDiffAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "normal change", args: []string{"diff", "a", "b"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "3c3\n< 3\n---\n> three\n11c11\n< 11\n---\n> eleven\n12a13\n> 13\n", wantExit: 1},
		{name: "normal delete add", args: []string{"diff", "x", "y"}, files: map[string]string{"/w/x": "a\nb\nc\n", "/w/y": "a\nc\nd\n"}, wantOut: "2d1\n< b\n3a3\n> d\n", wantExit: 1},
		{name: "identical", args: []string{"diff", "a", "a"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: ""},
		{name: "brief", args: []string{"diff", "-q", "a", "b"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "Files a and b differ\n", wantExit: 1},
		{name: "report identical", args: []string{"diff", "-s", "a", "a"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "Files a and a are identical\n"},
		{name: "unified labels", args: []string{"diff", "-u", "--label", "old", "--label", "new", "a", "b"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "--- old\n+++ new\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n@@ -8,5 +8,6 @@\n 8\n 9\n 10\n-11\n+eleven\n 12\n+13\n", wantExit: 1},
		{name: "side by side", args: []string{"diff", "-y", "-W", "30", "x", "y"}, files: map[string]string{"/w/x": "one\ntwo\nthree\n", "/w/y": "one\n2\nthree\nfour\n"},
			wantOut: "one\t\tone\ntwo\t      |\t2\nthree\t\tthree\n\t      >\tfour\n", wantExit: 1},
		{name: "side by side equal files print", args: []string{"diff", "-y", "-W", "30", "x", "x"}, files: map[string]string{"/w/x": "one\ntwo\n"},
			wantOut: "one\t\tone\ntwo\t\ttwo\n"},
		{name: "side by side changes only", args: []string{"diff", "-y", "--suppress-common-lines", "-W", "30", "x", "y"}, files: map[string]string{"/w/x": "one\ntwo\nthree\n", "/w/y": "one\n2\nthree\nfour\n"},
			wantOut: "two\t      |\t2\n\t      >\tfour\n", wantExit: 1},
		{name: "repeated line delete", args: []string{"diff", "x", "y"}, files: map[string]string{"/w/x": "x\nx\n", "/w/y": "x\n"}, wantOut: "2d1\n< x\n", wantExit: 1},
		{name: "no newline", args: []string{"diff", "x", "y"}, files: map[string]string{"/w/x": "a\nb", "/w/y": "a\nb\n"}, wantOut: "2c2\n< b\n\\ No newline at end of file\n---\n> b\n", wantExit: 1},
		{name: "no newline unified", args: []string{"diff", "-u", "--label", "x", "--label", "y", "x", "y"}, files: map[string]string{"/w/x": "a\nb", "/w/y": "a\nc"}, wantOut: "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n", wantExit: 1},
		{name: "empty vs content", args: []string{"diff", "x", "y"}, files: map[string]string{"/w/x": "", "/w/y": "a\nb\n"}, wantOut: "0a1,2\n> a\n> b\n", wantExit: 1},
		{name: "content vs empty", args: []string{"diff", "-u", "--label", "x", "--label", "y", "x", "y"}, files: map[string]string{"/w/x": "a\nb\n", "/w/y": ""}, wantOut: "--- x\n+++ y\n@@ -1,2 +0,0 @@\n-a\n-b\n", wantExit: 1},
		{name: "missing", args: []string{"diff", "nope", "a"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "", wantErr: "diff: nope: No such file or directory\n", wantExit: 2},
		{name: "binary", args: []string{"diff", "bin", "a"}, files: map[string]string{"/w/a": "a\n", "/w/bin": "\x00\x01"}, wantOut: "Binary files bin and a differ\n", wantExit: 1},
		{name: "ignore case", args: []string{"diff", "-i", "x", "y"}, files: map[string]string{"/w/x": "Hello\n", "/w/y": "hello\n"}, wantOut: ""},
		{name: "ignore all space", args: []string{"diff", "-w", "x", "y"}, files: map[string]string{"/w/x": "a b\n", "/w/y": "ab \n"}, wantOut: ""},
		{name: "ignore space change", args: []string{"diff", "-b", "x", "y"}, files: map[string]string{"/w/x": "a  b\n", "/w/y": "a b  \n"}, wantOut: ""},
		{name: "space change still differs", args: []string{"diff", "-b", "x", "y"}, files: map[string]string{"/w/x": "ab\n", "/w/y": "a b\n"}, wantOut: "1c1\n< ab\n---\n> a b\n", wantExit: 1},
		{name: "dir non recursive", args: []string{"diff", "d1", "d2"}, files: map[string]string{"/w/d1/f": "1\n", "/w/d1/only": "o\n", "/w/d1/s/g": "q\n", "/w/d2/f": "2\n", "/w/d2/new": "n\n", "/w/d2/s/g": "r\n"}, wantOut: "diff d1/f d2/f\n1c1\n< 1\n---\n> 2\nOnly in d2: new\nOnly in d1: only\nCommon subdirectories: d1/s and d2/s\n", wantExit: 1},
		{name: "dir recursive unified", args: []string{"diff", "-ru", "--label", "L", "--label", "R", "d1", "d2"}, files: map[string]string{"/w/d1/f": "1\n", "/w/d1/s/g": "q\n", "/w/d2/f": "2\n", "/w/d2/s/g": "r\n"}, wantOut: "diff -ru --label L --label R L R\n--- L\n+++ R\n@@ -1 +1 @@\n-1\n+2\ndiff -ru --label L --label R L R\n--- L\n+++ R\n@@ -1 +1 @@\n-q\n+r\n", wantExit: 1},
		{name: "dir recursive normal", args: []string{"diff", "-r", "d1", "d2"}, files: map[string]string{"/w/d1/f": "1\n", "/w/d1/s/g": "q\n", "/w/d2/f": "2\n", "/w/d2/s/g": "r\n", "/w/d2/s/h": "h\n"}, wantOut: "diff -r d1/f d2/f\n1c1\n< 1\n---\n> 2\ndiff -r d1/s/g d2/s/g\n1c1\n< q\n---\n> r\nOnly in d2/s: h\n", wantExit: 1},
		{name: "dir brief", args: []string{"diff", "-rq", "d1", "d2"}, files: map[string]string{"/w/d1/f": "1\n", "/w/d1/same": "s\n", "/w/d2/f": "2\n", "/w/d2/same": "s\n"}, wantOut: "Files d1/f and d2/f differ\n", wantExit: 1},
		{name: "file vs dir", args: []string{"diff", "f", "d"}, files: map[string]string{"/w/d/f": "2\n", "/w/f": "1\n"}, wantOut: "1c1\n< 1\n---\n> 2\n", wantExit: 1},
		{name: "new file", args: []string{"diff", "-N", "x", "nope"}, files: map[string]string{"/w/x": "a\n"}, wantOut: "1d0\n< a\n", wantExit: 1},
		{name: "new file dirs", args: []string{"diff", "-rN", "d1", "d2"}, files: map[string]string{"/w/d1/f": "1\n", "/w/d2/g": "2\n"}, wantOut: "diff -rN d1/f d2/f\n1d0\n< 1\ndiff -rN d1/g d2/g\n0a1\n> 2\n", wantExit: 1},
		{name: "stdin", args: []string{"diff", "-", "a"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, stdin: "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n10\n11\n12\n", wantOut: "5c5\n< FIVE\n---\n> 5\n", wantExit: 1},
		{name: "missing operand", args: []string{"diff", "a"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "", wantErr: "diff: missing operand after 'a'\ndiff: Try 'diff --help' for more information.\n", wantExit: 2},
		{name: "no operand", args: []string{"diff"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "", wantErr: "diff: missing operand after 'diff'\ndiff: Try 'diff --help' for more information.\n", wantExit: 2},
		{name: "extra operand", args: []string{"diff", "a", "b", "c"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "", wantErr: "diff: extra operand 'c'\ndiff: Try 'diff --help' for more information.\n", wantExit: 2},
		{name: "many changes", args: []string{"diff", "x", "y"}, files: map[string]string{"/w/x": "a\nb\nc\nd\ne\nf\ng\n", "/w/y": "b\nc\nX\nd\nf\ng\nh\n"}, wantOut: "1d0\n< a\n3a3\n> X\n5d4\n< e\n7a7\n> h\n", wantExit: 1},
		{name: "many changes unified", args: []string{"diff", "-u", "--label", "x", "--label", "y", "x", "y"}, files: map[string]string{"/w/x": "a\nb\nc\nd\ne\nf\ng\n", "/w/y": "b\nc\nX\nd\nf\ng\nh\n"}, wantOut: "--- x\n+++ y\n@@ -1,7 +1,7 @@\n-a\n b\n c\n+X\n d\n-e\n f\n g\n+h\n", wantExit: 1},
		{name: "swap lines", args: []string{"diff", "x", "y"}, files: map[string]string{"/w/x": "a\nb\n", "/w/y": "b\na\n"}, wantOut: "1d0\n< a\n2a2\n> a\n", wantExit: 1},
		{name: "file vs dir kind", args: []string{"diff", "-r", "d1", "d2"}, files: map[string]string{"/w/d1/x": "1\n", "/w/d2/x/y": "2\n"}, wantOut: "File d1/x is a regular file while file d2/x is a directory\n", wantExit: 1},
		{name: "bad context", args: []string{"diff", "-U", "x", "a", "b"}, files: map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}, wantOut: "", wantErr: "diff: invalid context length 'x'\ndiff: Try 'diff --help' for more information.\n", wantExit: 2},
	})
}

func TestDiffGatehouse(t *testing.T) {
	t.Parallel()
	stamp := "\t2024-03-15 12:00:00.000000000 +0000\n"
	files := map[string]string{"/w/a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "/w/b": "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n13\n"}
	runCases(t, []utilCase{
		{name: "unified with file times", args: []string{"diff", "-u", "a", "b"}, files: files, wantExit: 1,
			wantOut: "--- a" + stamp + "+++ b" + stamp + "@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n@@ -8,5 +8,6 @@\n 8\n 9\n 10\n-11\n+eleven\n 12\n+13\n"},
		{name: "unified zero context", args: []string{"diff", "-U0", "a", "b"}, files: files, wantExit: 1,
			wantOut: "--- a" + stamp + "+++ b" + stamp + "@@ -3 +3 @@\n-3\n+three\n@@ -11 +11 @@\n-11\n+eleven\n@@ -12,0 +13 @@\n+13\n"},
		{name: "times in TZ", args: []string{"diff", "-u", "x", "y"}, env: []string{"TZ=EST5"}, files: map[string]string{"/w/x": "a\n", "/w/y": "b\n"}, wantExit: 1,
			wantOut: "--- x\t2024-03-15 07:00:00.000000000 -0500\n+++ y\t2024-03-15 07:00:00.000000000 -0500\n@@ -1 +1 @@\n-a\n+b\n"},
		{name: "refused file is trouble", args: []string{"diff", "a", "secret"}, files: map[string]string{"/w/a": "", "/w/secret": "k"},
			wantErr: "diff: secret: " + secretReason + "\n", wantExit: 2},
		{name: "hidden entries are absent", args: []string{"diff", "-r", "/w/d", "/w/hidden"}, files: map[string]string{"/w/d/x": "", "/w/hidden/x": ""},
			wantErr: "diff: /w/hidden: No such file or directory\n", wantExit: 2},
		{name: "large shift", args: []string{"diff", "x", "y"}, files: map[string]string{"/w/x": strings.Repeat("l\n", 2000) + "end\n", "/w/y": "start\n" + strings.Repeat("l\n", 2000)},
			wantExit: 1, wantOut: "0a1\n> start\n2001d2001\n< end\n"},
		{name: "help", args: []string{"diff", "--help"}, wantOut: diffHelp},
		{name: "bad option", args: []string{"diff", "-k", "a", "b"}, files: files,
			wantErr: "diff: invalid option -- 'k'\ndiff: Try 'diff --help' for more information.\n", wantExit: 2},
	})
	runVoiceCases(t, []voiceCase{{utility: "diff", arg: "secret", msg: secretReason, want: "diff: secret: " + secretReason + "\n"}})
}

// TestDiffMatcher checks the edit script is minimal on shapes where
// a greedy matcher goes wrong.
func TestDiffMatcher(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		a, b []int
		want int // lines deleted plus lines inserted
	}{
		{"equal", []int{1, 2, 3}, []int{1, 2, 3}, 0},
		{"all new", []int{1, 2}, []int{3, 4}, 4},
		{"insert middle", []int{1, 3}, []int{1, 2, 3}, 1},
		{"move", []int{1, 2, 3, 4}, []int{2, 3, 4, 1}, 2},
		{"interleaved", []int{1, 2, 1, 2, 1}, []int{2, 1, 2, 1, 2}, 2},
		{"empty a", nil, []int{1}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			edits := 0
			for _, ch := range diffLines(c.a, c.b, 0) {
				edits += ch.aTo - ch.aFrom + ch.bTo - ch.bFrom
			}
			if edits != c.want {
				t.Errorf("edits = %d, want %d", edits, c.want)
			}
		})
	}
}
