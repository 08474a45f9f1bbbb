package utils

import "testing"

// Expected outputs recorded from GNU sed 4.9 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestSedAgainstGNUMore(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "range inner empty regex", args: []string{"sed", "-n", "/start/,/end/{//!p}"}, stdin: "a\nstart\nx\ny\nend\nb\n", wantOut: "x\ny\n"},
		{name: "not last delete", args: []string{"sed", "$!d", "f"}, files: sedFiveLines, wantOut: "five\n"},
		{name: "step delete", args: []string{"sed", "1~3d", "f"}, files: sedFiveLines, wantOut: "two\nthree\nfive\n"},
		{name: "negated range", args: []string{"sed", "2,4!d", "f"}, files: sedFiveLines, wantOut: "two\nthree\nfour\n"},
		{name: "append on range", args: []string{"sed", "2,3a\\\n--", "f"}, files: sedFiveLines, wantOut: "one\ntwo\n--\nthree\n--\nfour\nfive\n"},
		{name: "insert quiet", args: []string{"sed", "-n", "1i\\\nheader", "f"}, files: sedFiveLines, wantOut: "header\n"},
		{name: "change negated range", args: []string{"sed", "2,4!c\\\nX", "f"}, files: sedFiveLines, wantOut: "X\ntwo\nthree\nfour\nX\n"},
		{name: "escaped ampersand", args: []string{"sed", "s/o/\\&/g", "f"}, files: sedFiveLines, wantOut: "&ne\ntw&\nthree\nf&ur\nfive\n"},
		{name: "newline replacement", args: []string{"sed", "s/ /\\n/g"}, stdin: "a b c\n", wantOut: "a\nb\nc\n"},
		{name: "M flag", args: []string{"sed", "N;N;s/^t/T/Mg", "f"}, files: sedFiveLines, wantOut: "one\nTwo\nThree\nfour\nfive\n"},
		{name: "N quiet at end", args: []string{"sed", "-n", "N;p", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nthree\nfour\n"},
		{name: "dollar N", args: []string{"sed", "$!N;s/\\n/+/", "f"}, files: sedFiveLines, wantOut: "one+two\nthree+four\nfive\n"},
		{name: "empty regex reuse flags", args: []string{"sed", "s/o/0/;s//O/g", "f"}, files: sedFiveLines, wantOut: "0ne\ntw0\nthree\nf0ur\nfive\n"},
		{name: "y newline", args: []string{"sed", "N;y/\\n/|/", "f"}, files: sedFiveLines, wantOut: "one|two\nthree|four\nfive\n"},
		{name: "quit with append", args: []string{"sed", "1{a\\\nA\nq}", "f"}, files: sedFiveLines, wantOut: "one\nA\n"},
		{name: "regex with slash in class", args: []string{"sed", "s/[/]/|/g"}, stdin: "a/b/c\n", wantOut: "a|b|c\n"},
		{name: "question in BRE", args: []string{"sed", "s/ab\\?c/X/g"}, stdin: "ac abc abbc\n", wantOut: "X X abbc\n"},
		{name: "ERE question", args: []string{"sed", "-E", "s/ab?c/X/g"}, stdin: "ac abc abbc\n", wantOut: "X X abbc\n"},
		{name: "word boundary", args: []string{"sed", "s/\\bt/T/g"}, stdin: "the tot at\n", wantOut: "The Tot at\n"},
		{name: "class digit", args: []string{"sed", "-E", "s/[[:digit:]]+/#/g"}, stdin: "a1b22c333\n", wantOut: "a#b#c#\n"},
		{name: "nth with g and empty", args: []string{"sed", "s/b*/x/2"}, stdin: "abc\n", wantOut: "axc\n"},
		{name: "hold append first", args: []string{"sed", "-n", "H;${x;s/\\n/,/g;p}", "f"}, files: sedFiveLines, wantOut: ",one,two,three,four,five\n"},
		{name: "D without newline", args: []string{"sed", "D", "f"}, files: sedFiveLines, wantOut: ""},
		{name: "labels with spaces", args: []string{"sed", "-n", ":top\n/t/{s/t//;b top\n}\np", "f"}, files: sedFiveLines, wantOut: "one\nwo\nhree\nfour\nfive\n"},
		{name: "multiple -e join", args: []string{"sed", "-e", "1{", "-e", "s/o/0/", "-e", "}", "f"}, files: sedFiveLines, wantOut: "0ne\ntwo\nthree\nfour\nfive\n"},
		{name: "a then i order", args: []string{"sed", "2{a\\\nafter\ni\\\nbefore\n}", "f"}, files: sedFiveLines, wantOut: "one\nbefore\ntwo\nafter\nthree\nfour\nfive\n"},
		{name: "equals quiet", args: []string{"sed", "-n", "/e/=", "f"}, files: sedFiveLines, wantOut: "1\n3\n5\n"},
		{name: "l with width option", args: []string{"sed", "-n", "-l", "5", "l"}, stdin: "abcdefgh\n", wantOut: "abcd\\\nefgh$\n"},
		{name: "s print twice with -n", args: []string{"sed", "-n", "s/o/0/p;p", "f"}, files: sedFiveLines, wantOut: "0ne\n0ne\ntw0\ntw0\nthree\nf0ur\nf0ur\nfive\n"},
		{name: "w devstdout interleave", args: []string{"sed", "s/o/0/w /dev/stdout", "f"}, files: sedFiveLines, wantOut: "0ne\n0ne\ntw0\ntw0\nthree\nf0ur\nf0ur\nfive\n"},
		{name: "z flag with N", args: []string{"sed", "-z", "N;s/\\x00/+/"}, stdin: "a\x00b\x00", wantOut: "a+b\x00"},
		{name: "c last line of range only", args: []string{"sed", "/two/,/four/c\\\nGONE", "f"}, files: sedFiveLines, wantOut: "one\nGONE\nfive\n"},
		{name: "empty pattern space print", args: []string{"sed", "s/.*//"}, stdin: "abc\n\nd\n", wantOut: "\n\n\n"},
		{name: "range to last", args: []string{"sed", "-n", "3,$p", "f"}, files: sedFiveLines, wantOut: "three\nfour\nfive\n"},
		{name: "regex then number", args: []string{"sed", "-n", "/two/,4p", "f"}, files: sedFiveLines, wantOut: "two\nthree\nfour\n"},
		{name: "number then regex never ends", args: []string{"sed", "-n", "4,/zzz/p", "f"}, files: sedFiveLines, wantOut: "four\nfive\n"},
		{name: "s flags combined", args: []string{"sed", "-n", "s/O/0/Igp", "f"}, files: sedFiveLines, wantOut: "0ne\ntw0\nf0ur\n"},
		{name: "caret in middle BRE", args: []string{"sed", "s/a\\(^b\\)/X/"}, stdin: "a^b\n", wantOut: "a^b\n"},
		{name: "star after group", args: []string{"sed", "s/\\(ab\\)*/X/"}, stdin: "ababc\n", wantOut: "Xc\n"},
		{name: "interval at start", args: []string{"sed", "s/\\{1\\}/X/"}, stdin: "a\n", wantOut: "", wantErr: "sed: -e expression #1, char 10: Invalid preceding regular expression\n", wantExit: 1},
		{name: "unknown command brace", args: []string{"sed", "{p;q", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 0: unmatched `{'\n", wantExit: 1},
		{name: "hex escape regex", args: []string{"sed", "s/\\x41/a/g;s/\\x2e/!/"}, stdin: "A.A\n", wantOut: "!.a\n"},
		{name: "hex escape replacement", args: []string{"sed", "s/x/\\x41\\o102\\d67/"}, stdin: "x\n", wantOut: "ABC\n"},
		{name: "G in z mode", args: []string{"sed", "-z", "G"}, stdin: "a\x00", wantOut: "a\x00\x00"},
		{name: "bracket delim with class", args: []string{"sed", "s/[[:space:]/]/_/g"}, stdin: "a b/c\n", wantOut: "a_b_c\n"},
	})
}
