package utils

import (
	"strings"
	"testing"
)

func TestGrep(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"/w/a.txt":     "apple\nbanana\ncherry\nApple pie\n",
		"/w/b.txt":     "banana split\nkiwi\n",
		"/w/sub/c.txt": "apple tart\n",
		"/w/sub/d.md":  "apple doc\n",
		"/w/bin.dat":   "apple\x00\n",
		"/w/ctx.txt":   "1\n2\nmatch\n4\n5\n6\n7\nmatch\n9\n",
		"/w/pats":      "kiwi\ncherry\n",
		"/w/secret":    "apple\n",
	}
	usage := "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"
	runCases(t, []utilCase{
		{name: "match", args: []string{"grep", "apple", "a.txt"}, files: files, wantOut: "apple\n"},
		{name: "no match exits 1", args: []string{"grep", "zzz", "a.txt"}, files: files, wantExit: 1},
		{name: "ignore case", args: []string{"grep", "-i", "apple", "a.txt"}, files: files, wantOut: "apple\nApple pie\n"},
		{name: "invert", args: []string{"grep", "-v", "an", "a.txt"}, files: files, wantOut: "apple\ncherry\nApple pie\n"},
		{name: "count per file", args: []string{"grep", "-c", "an", "a.txt", "b.txt"}, files: files, wantOut: "a.txt:1\nb.txt:1\n"},
		{name: "line numbers", args: []string{"grep", "-n", "cherry", "a.txt"}, files: files, wantOut: "3:cherry\n"},
		{name: "names with several files", args: []string{"grep", "banana", "a.txt", "b.txt"}, files: files,
			wantOut: "a.txt:banana\nb.txt:banana split\n"},
		{name: "no names", args: []string{"grep", "-h", "banana", "a.txt", "b.txt"}, files: files, wantOut: "banana\nbanana split\n"},
		{name: "force names", args: []string{"grep", "-H", "apple", "a.txt"}, files: files, wantOut: "a.txt:apple\n"},
		{name: "files with matches", args: []string{"grep", "-l", "an", "a.txt", "b.txt", "sub/c.txt"}, files: files, wantOut: "a.txt\nb.txt\n"},
		{name: "files without match", args: []string{"grep", "-L", "an", "a.txt", "b.txt", "sub/c.txt"}, files: files, wantOut: "sub/c.txt\n"},
		{name: "only matching", args: []string{"grep", "-o", "an", "a.txt"}, files: files, wantOut: "an\nan\n"},
		{name: "only matching offsets", args: []string{"grep", "-bo", "an"}, stdin: "banana\n", wantOut: "1:an\n3:an\n"},
		{name: "quiet", args: []string{"grep", "-q", "apple", "a.txt"}, files: files},
		{name: "zero context still separates groups", args: []string{"grep", "-A0", "match", "ctx.txt"}, files: files,
			wantOut: "match\n--\nmatch\n"},
		{name: "initial tab aligns to the file size", args: []string{"grep", "-Tn", "cherry", "a.txt"}, files: files,
			wantOut: " 3:\tcherry\n"},
		{name: "initial tab from a pipe is 20 wide", args: []string{"grep", "-Tn", "b"}, stdin: "a\nb\n",
			wantOut: strings.Repeat(" ", 19) + "2:\tb\n"},
		{name: "missing file", args: []string{"grep", "apple", "nope"}, files: files,
			wantErr: "grep: nope: No such file or directory\n", wantExit: 2},
		{name: "error wins over match", args: []string{"grep", "apple", "nope", "a.txt"}, files: files,
			wantOut: "a.txt:apple\n", wantErr: "grep: nope: No such file or directory\n", wantExit: 2},
		{name: "silent errors", args: []string{"grep", "-s", "apple", "nope", "a.txt"}, files: files, wantOut: "a.txt:apple\n", wantExit: 2},
		{name: "quiet match beats error", args: []string{"grep", "-q", "apple", "nope", "a.txt"}, files: files,
			wantErr: "grep: nope: No such file or directory\n"},
		{name: "refused file", args: []string{"grep", "apple", "/w/secret"}, files: files,
			wantErr: "grep: /w/secret: " + secretReason + "\n", wantExit: 2},
		{name: "word", args: []string{"grep", "-w", "pie", "a.txt"}, files: files, wantOut: "Apple pie\n"},
		{name: "word rejects part", args: []string{"grep", "-w", "app", "a.txt"}, files: files, wantExit: 1},
		{name: "word only matching", args: []string{"grep", "-wo", "foo"}, stdin: "foo foobar foo\n", wantOut: "foo\nfoo\n"},
		{name: "whole line", args: []string{"grep", "-x", "kiwi", "b.txt"}, files: files, wantOut: "kiwi\n"},
		{name: "extended", args: []string{"grep", "-E", "ban(an)+a$", "a.txt"}, files: files, wantOut: "banana\n"},
		{name: "basic groups", args: []string{"grep", `ban\(an\)*a$`, "a.txt"}, files: files, wantOut: "banana\n"},
		{name: "basic plus is literal", args: []string{"grep", "a+"}, stdin: "aa\na+\n", wantOut: "a+\n"},
		{name: "fixed strings", args: []string{"grep", "-F", "a.p"}, stdin: "a.p\naxp\n", wantOut: "a.p\n"},
		{name: "several patterns", args: []string{"grep", "-e", "apple", "-e", "kiwi", "a.txt", "b.txt"}, files: files,
			wantOut: "a.txt:apple\nb.txt:kiwi\n"},
		{name: "newline separates patterns", args: []string{"grep", "kiwi\ncherry", "a.txt", "b.txt"}, files: files,
			wantOut: "a.txt:cherry\nb.txt:kiwi\n"},
		{name: "pattern file", args: []string{"grep", "-f", "pats", "a.txt"}, files: files, wantOut: "cherry\n"},
		{name: "empty pattern matches all", args: []string{"grep", "-n", ""}, stdin: "a\n\nb", wantOut: "1:a\n2:\n3:b\n"},
		{name: "recursive directory", args: []string{"grep", "-r", "apple", "sub"}, files: files,
			wantOut: "sub/c.txt:apple tart\nsub/d.md:apple doc\n"},
		{name: "recursive single file has no name", args: []string{"grep", "-r", "apple", "sub/c.txt"}, files: files,
			wantOut: "apple tart\n"},
		{name: "recursive include", args: []string{"grep", "-r", "--include=*.md", "apple", "."}, files: files,
			wantOut: "./sub/d.md:apple doc\n"},
		{name: "recursive exclude dir", args: []string{"grep", "-rl", "--exclude-dir=sub", "apple"}, files: files,
			wantOut: "a.txt\nbin.dat\n", wantErr: "grep: secret: " + secretReason + "\n", wantExit: 2},
		{name: "recursive without operand drops ./", args: []string{"grep", "-r", "tart"}, files: files,
			wantOut: "sub/c.txt:apple tart\n", wantErr: "grep: secret: " + secretReason + "\n", wantExit: 2},
		{name: "recursive skips hidden", args: []string{"grep", "-r", "x"}, files: map[string]string{"/w/hidden": "x\n", "/w/v": "x\n"},
			wantOut: "v:x\n"},
		{name: "directory without -r", args: []string{"grep", "apple", "sub"}, files: files,
			wantErr: "grep: sub: Is a directory\n", wantExit: 2},
		{name: "context", args: []string{"grep", "-C1", "match", "ctx.txt"}, files: files, wantOut: "2\nmatch\n4\n--\n7\nmatch\n9\n"},
		{name: "after context numbered", args: []string{"grep", "-n", "-A1", "match", "ctx.txt"}, files: files,
			wantOut: "3:match\n4-4\n--\n8:match\n9-9\n"},
		{name: "before context", args: []string{"grep", "-B2", "match", "ctx.txt"}, files: files,
			wantOut: "1\n2\nmatch\n--\n6\n7\nmatch\n"},
		{name: "context groups merge", args: []string{"grep", "-2", "match", "ctx.txt"}, files: files, wantOut: "1\n2\nmatch\n4\n5\n6\n7\nmatch\n9\n"},
		{name: "max count", args: []string{"grep", "-m1", "match", "ctx.txt"}, files: files, wantOut: "match\n"},
		{name: "max count with trailing context", args: []string{"grep", "-m1", "-A1", "match", "ctx.txt"}, files: files, wantOut: "match\n4\n"},
		{name: "binary file", args: []string{"grep", "apple", "bin.dat"}, files: files, wantErr: "grep: bin.dat: binary file matches\n"},
		{name: "binary as text", args: []string{"grep", "-a", "apple", "bin.dat"}, files: files, wantOut: "apple\x00\n"},
		{name: "binary count", args: []string{"grep", "-c", "apple", "bin.dat"}, files: files, wantOut: "1\n"},
		{name: "binary without match", args: []string{"grep", "-I", "apple", "bin.dat"}, files: files, wantExit: 1},
		{name: "bad regex", args: []string{"grep", `\(a`, "a.txt"}, files: files, wantErr: "grep: Unmatched ( or \\(\n", wantExit: 2},
		{name: "backreference", args: []string{"grep", `\(p\)\1`, "a.txt"}, files: files,
			wantOut: "apple\nApple pie\n"},
		{name: "backreference to an open group", args: []string{"grep", `\(a\1\)`, "a.txt"}, files: files,
			wantErr: "grep: Invalid back reference\n", wantExit: 2},
		{name: "no pattern", args: []string{"grep"}, wantErr: usage, wantExit: 2},
		{name: "invalid option", args: []string{"grep", "-j", "x"}, wantErr: "grep: invalid option -- 'j'\n" + usage, wantExit: 2},
		{name: "stray backslash is the character", args: []string{"grep", `\d`}, stdin: "d\n1\n", wantOut: "d\n"},
		{name: "bad directories action", args: []string{"grep", "-d", "foo", "x"},
			wantErr: "grep: invalid argument 'foo' for '--directories'\nValid arguments are:\n  - 'read'\n  - 'recurse'\n  - 'skip'\n" + usage, wantExit: 1},
		{name: "egrep", args: []string{"egrep", "a|k", "b.txt"}, files: files, wantOut: "banana split\nkiwi\n"},
		{name: "fgrep", args: []string{"fgrep", "."}, stdin: "a\n.\n", wantOut: ".\n"},
		{name: "perl digits", args: []string{"grep", "-P", `\d+`}, stdin: "ab12\ncd\n", wantOut: "ab12\n"},
		{name: "stdin name", args: []string{"grep", "-H", "x"}, stdin: "x\n", wantOut: "(standard input):x\n"},
		{name: "null after name", args: []string{"grep", "-lZ", "kiwi", "b.txt"}, files: files, wantOut: "b.txt\x00"},
		{name: "posix class", args: []string{"grep", "-c", "^[[:upper:]]", "a.txt"}, files: files, wantOut: "1\n"},
		{name: "C locale ranges are bytes", args: []string{"grep", "-c", "[a-z]"}, stdin: "ABC\nabc\n", wantOut: "1\n"},
	})
}

func TestGrepOperands(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		argv []string
		want []OperandRef
	}{
		{[]string{"grep", "-n", "pat", "a", "b"}, []OperandRef{{Index: 3}, {Index: 4}}},
		{[]string{"grep", "-e", "pat", "a"}, []OperandRef{{Index: 3}}},
		{[]string{"grep", "-f", "pats", "a"}, []OperandRef{{Index: 2}, {Index: 3}}},
		{[]string{"grep", "-fpats", "a"}, []OperandRef{{Index: 1, Path: "pats"}, {Index: 2}}},
		{[]string{"grep", "pat", "-", "a"}, []OperandRef{{Index: 3}}},
		{[]string{"grep", "-r", "pat"}, nil},
	} {
		t.Run(strings.Join(c.argv, " "), func(t *testing.T) {
			t.Parallel()
			got := grepOperands(c.argv)
			if len(got) != len(c.want) {
				t.Fatalf("operands = %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("operand %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestGrepLongInput(t *testing.T) {
	t.Parallel()
	// Lines that straddle the read buffer and a match far in.
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString("filler line without the word\n")
	}
	b.WriteString(strings.Repeat("x", 100000) + " TODO\n")
	b.WriteString("last\n")
	c := utilCase{args: []string{"grep", "-n", "-o", "TODO"}, stdin: b.String()}
	_, out, errs, exit := runUtil(t, c)
	if out != "20001:TODO\n" || errs != "" || exit != 0 {
		t.Errorf("got %q %q %d", out, errs, exit)
	}
}

// A pattern that is one string is searched for with bytes.Index; it must
// find what the regexp finds, line by line and as the first match of a
// buffer, on invalid UTF-8 too, and must not be taken for -i, -w, -x,
// alternatives, classes or U+FFFD (which the regexp also matches at
// every invalid byte).
func TestGrepLiteralMatchesAsTheRegexp(t *testing.T) {
	t.Parallel()
	inputs := []string{
		"", "TODO", "a TODO b\n", "todo\n", "xTODOx\nTODO\n", "TOD\nO\n", "\xffTODO\xfe\n",
		"é\n", "e\u0301\n", "\xc3é\n", "\xe0é\n", "\xef\xbf\xbd\n", "\xff\n", "a.b axb\n", "\x00TODO\n",
	}
	cases := []struct {
		cfg     grepConfig
		literal bool
	}{
		{grepConfig{dialect: "G", patterns: []string{"TODO"}}, true},
		{grepConfig{dialect: "E", patterns: []string{"TODO"}}, true},
		{grepConfig{dialect: "F", patterns: []string{"a.b"}}, true},
		{grepConfig{dialect: "G", patterns: []string{"é"}}, true},
		{grepConfig{dialect: "G", patterns: []string{"TODO"}, nullData: true}, true},
		{grepConfig{dialect: "P", patterns: []string{"TODO"}}, true},
		{grepConfig{dialect: "F", patterns: []string{"\ufffd"}}, false},
		{grepConfig{dialect: "G", patterns: []string{"TODO"}, ignoreCase: true}, false},
		{grepConfig{dialect: "G", patterns: []string{"TODO"}, word: true}, false},
		{grepConfig{dialect: "G", patterns: []string{"TODO"}, line: true}, false},
		{grepConfig{dialect: "G", patterns: []string{"TODO", "é"}}, false},
		{grepConfig{dialect: "G", patterns: []string{"a.b"}}, false},
		{grepConfig{dialect: "G", patterns: []string{""}}, false},
		{grepConfig{dialect: "G", patterns: []string{"^TODO"}}, false},
	}
	for _, c := range cases {
		m, err := newGrepMatcher(&c.cfg)
		if err != nil {
			t.Fatalf("%+v: %v", c.cfg, err)
		}
		if (m.literal != nil) != c.literal {
			t.Errorf("%+v: literal %q, want one: %v", c.cfg, m.literal, c.literal)
		}
		viaRegexp := *m
		viaRegexp.literal = nil
		for _, in := range inputs {
			if got, want := m.matches([]byte(in)), viaRegexp.matches([]byte(in)); got != want {
				t.Errorf("%+v on %q: matches %v, the regexp says %v", c.cfg, in, got, want)
			}
			if m.multi == nil {
				continue
			}
			if got, want := m.jump([]byte(in)), viaRegexp.jump([]byte(in)); got != want {
				t.Errorf("%+v on %q: first match at %d, the regexp says %d", c.cfg, in, got, want)
			}
		}
	}
}
