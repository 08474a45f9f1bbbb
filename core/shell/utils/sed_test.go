package utils

import "testing"

// sedFiveLines is the input most sed cases edit.
var sedFiveLines = map[string]string{"/w/f": "one\ntwo\nthree\nfour\nfive\n"}

// The expected outputs below were recorded from GNU sed 4.9 (LC_ALL=C) on
// a temp dir holding the same files.
func TestSedAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "print line 2", args: []string{"sed", "-n", "2p", "f"}, files: sedFiveLines, wantOut: "two\n"},
		{name: "delete range", args: []string{"sed", "2,4d", "f"}, files: sedFiveLines, wantOut: "one\nfive\n"},
		{name: "last line", args: []string{"sed", "-n", "$p", "f"}, files: sedFiveLines, wantOut: "five\n"},
		{name: "regex address", args: []string{"sed", "-n", "/o/p", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nfour\n"},
		{name: "regex range", args: []string{"sed", "/two/,/four/d", "f"}, files: sedFiveLines, wantOut: "one\nfive\n"},
		{name: "step", args: []string{"sed", "-n", "1~2p", "f"}, files: sedFiveLines, wantOut: "one\nthree\nfive\n"},
		{name: "plus", args: []string{"sed", "-n", "/two/,+1p", "f"}, files: sedFiveLines, wantOut: "two\nthree\n"},
		{name: "negate", args: []string{"sed", "2!d", "f"}, files: sedFiveLines, wantOut: "two\n"},
		{name: "subst global", args: []string{"sed", "s/o/0/g", "f"}, files: sedFiveLines, wantOut: "0ne\ntw0\nthree\nf0ur\nfive\n"},
		{name: "subst nth", args: []string{"sed", "s/e/E/2", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nthreE\nfour\nfive\n"},
		{name: "subst groups BRE", args: []string{"sed", "s/\\(t\\)\\(w\\)/\\2\\1/", "f"}, files: sedFiveLines, wantOut: "one\nwto\nthree\nfour\nfive\n"},
		{name: "subst groups ERE", args: []string{"sed", "-E", "s/(o)(n|u)/[\\2\\1]/", "f"}, files: sedFiveLines, wantOut: "[no]e\ntwo\nthree\nf[uo]r\nfive\n"},
		{name: "ampersand", args: []string{"sed", "s/[aeiou]/<&>/g", "f"}, files: sedFiveLines, wantOut: "<o>n<e>\ntw<o>\nthr<e><e>\nf<o><u>r\nf<i>v<e>\n"},
		{name: "case conv", args: []string{"sed", "s/\\w\\+/\\u&/;s/e/\\U&x\\E!/", "f"}, files: sedFiveLines, wantOut: "OnEX!\nTwo\nThrEX!e\nFour\nFivEX!\n"},
		{name: "append insert change", args: []string{"sed", "-e", "2a after", "-e", "3i before", "-e", "4c changed", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nafter\nbefore\nthree\nchanged\nfive\n"},
		{name: "quit code", args: []string{"sed", "2q5", "f"}, files: sedFiveLines, wantOut: "one\ntwo\n", wantExit: 5},
		{name: "Quit", args: []string{"sed", "2Q", "f"}, files: sedFiveLines, wantOut: "one\n"},
		{name: "y", args: []string{"sed", "y/abcdefghijklmnopqrstuvwxyz/ABCDEFGHIJKLMNOPQRSTUVWXYZ/", "f"}, files: sedFiveLines, wantOut: "ONE\nTWO\nTHREE\nFOUR\nFIVE\n"},
		{name: "equals", args: []string{"sed", "-n", "$=", "f"}, files: sedFiveLines, wantOut: "5\n"},
		{name: "join lines N", args: []string{"sed", ":a;N;$!ba;s/\\n/,/g", "f"}, files: sedFiveLines, wantOut: "one,two,three,four,five\n"},
		{name: "hold reverse", args: []string{"sed", "-n", "1!G;h;$p", "f"}, files: sedFiveLines, wantOut: "five\nfour\nthree\ntwo\none\n"},
		{name: "NPD", args: []string{"sed", "$!N;P;D", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nthree\nfour\nfive\n"},
		{name: "l command", args: []string{"sed", "-n", "l"}, stdin: "a\tb\\c\x01\n", wantOut: "a\\tb\\\\c\\001$\n"},
		{name: "no trailing newline", args: []string{"sed", "p"}, stdin: "x\ny", wantOut: "x\nx\ny\ny"},
		{name: "stdin dash and file", args: []string{"sed", "-n", "$=", "f", "-"}, files: sedFiveLines, stdin: "a\nb\n", wantOut: "7\n"},
		{name: "missing file", args: []string{"sed", "p", "nope"}, wantOut: "", wantErr: "sed: can't read nope: No such file or directory\n", wantExit: 2},
		{name: "missing file continues", args: []string{"sed", "-n", "1p", "nope", "f"}, files: sedFiveLines, wantOut: "one\n", wantErr: "sed: can't read nope: No such file or directory\n", wantExit: 2},
		{name: "unknown command", args: []string{"sed", "k", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 1: unknown command: `k'\n", wantExit: 1},
		{name: "unterminated s", args: []string{"sed", "s/a/b", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 5: unterminated `s' command\n", wantExit: 1},
		{name: "unclosed bracket swallows the delimiter", args: []string{"sed", "s/a[/x/", "f"}, files: sedFiveLines, wantErr: "sed: -e expression #1, char 7: unterminated `s' command\n", wantExit: 1},
		{name: "unclosed bracket in an address", args: []string{"sed", "-n", "/a[/p", "f"}, files: sedFiveLines, wantErr: "sed: -e expression #1, char 5: unterminated address regex\n", wantExit: 1},
		{name: "bad reference", args: []string{"sed", "s/a/\\1/", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 7: invalid reference \\1 on `s' command's RHS\n", wantExit: 1},
		{name: "unknown option to s", args: []string{"sed", "s/a/b/q", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 7: unknown option to `s'\n", wantExit: 1},
		{name: "missing label", args: []string{"sed", "b nowhere", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: can't find label for jump to `nowhere'\n", wantExit: 4},
		{name: "unmatched brace", args: []string{"sed", "-n", "2{p", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 0: unmatched `{'\n", wantExit: 1},
		{name: "unexpected brace", args: []string{"sed", "-n", "p}", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 2: unexpected `}'\n", wantExit: 1},
		{name: "block", args: []string{"sed", "-n", "2,3{s/t/T/;p}", "f"}, files: sedFiveLines, wantOut: "Two\nThree\n"},
		{name: "t branch", args: []string{"sed", ":a;s/^.\\{1,4\\}$/ &/;ta", "f"}, files: sedFiveLines, wantOut: "  one\n  two\nthree\n four\n five\n"},
		{name: "separate", args: []string{"sed", "-s", "-n", "$p", "f", "g"}, files: map[string]string{"/w/f": "one\ntwo\nthree\nfour\nfive\n", "/w/g": "x\ny\n"}, wantOut: "five\ny\n"},
		{name: "zero regex range", args: []string{"sed", "0,/o/s//O/", "f"}, files: sedFiveLines, wantOut: "One\ntwo\nthree\nfour\nfive\n"},
		{name: "null data", args: []string{"sed", "-z", "s/^/>/"}, stdin: "a\x00b\x00", wantOut: ">a\x00>b\x00"},
		{name: "multiple !", args: []string{"sed", "1!!d", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 3: multiple `!'s\n", wantExit: 1},
		{name: "T command", args: []string{"sed", "s/o/0/;T;s/$/!/", "f"}, files: sedFiveLines, wantOut: "0ne!\ntw0!\nthree\nf0ur!\nfive\n"},
		{name: "w stdout", args: []string{"sed", "-n", "/t/w /dev/stdout", "f"}, files: sedFiveLines, wantOut: "two\nthree\n"},
		{name: "interval ERE", args: []string{"sed", "-E", "s/[a-z]{4}/X/", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nXe\nX\nX\n"},
		{name: "classes", args: []string{"sed", "s/[[:alpha:]]/#/3", "f"}, files: sedFiveLines, wantOut: "on#\ntw#\nth#ee\nfo#r\nfi#e\n"},
		{name: "I flag", args: []string{"sed", "s/ONE/1/I", "f"}, files: sedFiveLines, wantOut: "1\ntwo\nthree\nfour\nfive\n"},
		{name: "addr I flag", args: []string{"sed", "-n", "/FIVE/Ip", "f"}, files: sedFiveLines, wantOut: "five\n"},
		{name: "comment and #n", args: []string{"sed", "#n\n3p", "f"}, files: sedFiveLines, wantOut: "three\n"},
		{name: "anchors", args: []string{"sed", "s/^/[/;s/$/]/", "f"}, files: sedFiveLines, wantOut: "[one]\n[two]\n[three]\n[four]\n[five]\n"},
		{name: "empty match global", args: []string{"sed", "s/x*/-/g"}, stdin: "abc\n", wantOut: "-a-b-c-\n"},
		{name: "escaped newline replace", args: []string{"sed", "s/o/\\\n/"}, stdin: "foo\n", wantOut: "f\no\n"},
		{name: "mult range", args: []string{"sed", "-n", "2,~4p", "f"}, files: sedFiveLines, wantOut: "two\nthree\nfour\n"},
		{name: "c range", args: []string{"sed", "2,3c\\\nX", "f"}, files: sedFiveLines, wantOut: "one\nX\nfour\nfive\n"},
		{name: "P first line", args: []string{"sed", "-n", "N;P", "f"}, files: sedFiveLines, wantOut: "one\nthree\n"},
		{name: "x exchange", args: []string{"sed", "x", "f"}, files: sedFiveLines, wantOut: "\none\ntwo\nthree\nfour\n"},
		{name: "z zap", args: []string{"sed", "2z", "f"}, files: sedFiveLines, wantOut: "one\n\nthree\nfour\nfive\n"},
		{name: "custom delim", args: []string{"sed", "s|/|_|g"}, stdin: "/a/b/\n", wantOut: "_a_b_\n"},
		{name: "addr custom delim", args: []string{"sed", "-n", "\\%r%p", "f"}, files: sedFiveLines, wantOut: "three\nfour\n"},
		{name: "line 0 invalid", args: []string{"sed", "0p", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 2: invalid usage of line address 0\n", wantExit: 1},
		{name: "r file", args: []string{"sed", "2r g", "f"}, files: map[string]string{"/w/f": "one\ntwo\nthree\nfour\nfive\n", "/w/g": "INSERTED\n"}, wantOut: "one\ntwo\nINSERTED\nthree\nfour\nfive\n"},
		{name: "y lengths", args: []string{"sed", "y/ab/c/", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 7: strings for `y' command are different lengths\n", wantExit: 1},
		{name: "bracket newline", args: []string{"sed", "N;s/[\\n]/+/", "f"}, files: sedFiveLines, wantOut: "one+two\nthree+four\nfive\n"},
		{name: "n command", args: []string{"sed", "n;d", "f"}, files: sedFiveLines, wantOut: "one\nthree\nfive\n"},
		{name: "n quiet", args: []string{"sed", "-n", "n;p", "f"}, files: sedFiveLines, wantOut: "two\nfour\n"},
		{name: "N at end", args: []string{"sed", "N;s/\\n/-/", "f"}, files: sedFiveLines, wantOut: "one-two\nthree-four\nfive\n"},
		{name: "addr2 before addr1", args: []string{"sed", "-n", "3,1p", "f"}, files: sedFiveLines, wantOut: "three\n"},
		{name: "classic append", args: []string{"sed", "2a\\\nline1\\\nline2", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nline1\nline2\nthree\nfour\nfive\n"},
		{name: "insert backslash keeps spaces", args: []string{"sed", "1i\\   x", "f"}, files: sedFiveLines, wantOut: "   x\none\ntwo\nthree\nfour\nfive\n"},
		{name: "script file", args: []string{"sed", "-f", "s.sed", "f"}, files: map[string]string{"/w/f": "one\ntwo\nthree\nfour\nfive\n", "/w/s.sed": "s/o/0/\n# comment\n/t/d\n"}, wantOut: "0ne\nf0ur\nfive\n"},
		{name: "F command", args: []string{"sed", "-n", "1F", "f"}, files: sedFiveLines, wantOut: "f\n"},
		{name: "equals no newline", args: []string{"sed", "="}, stdin: "a\nb", wantOut: "1\na\n2\nb"},
		{name: "l wrap", args: []string{"sed", "-n", "l 10"}, stdin: "abcdefghijklmnopqrstuvwxyz\n", wantOut: "abcdefghi\\\njklmnopqr\\\nstuvwxyz$\n"},
		{name: "l zero", args: []string{"sed", "-l", "0", "-n", "l"}, stdin: "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\n", wantOut: "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz$\n"},
		{name: "ERE plus", args: []string{"sed", "-E", "s/o+/O/"}, stdin: "foo\n", wantOut: "fO\n"},
		{name: "BRE plus escaped", args: []string{"sed", "s/o\\+/O/"}, stdin: "foo\n", wantOut: "fO\n"},
		{name: "BRE literal plus", args: []string{"sed", "s/o+/O/"}, stdin: "fo+o\n", wantOut: "fOo\n"},
		{name: "ERE alternation", args: []string{"sed", "-E", "s/one|five/N/", "f"}, files: sedFiveLines, wantOut: "N\ntwo\nthree\nfour\nN\n"},
		{name: "BRE alternation", args: []string{"sed", "s/one\\|five/N/", "f"}, files: sedFiveLines, wantOut: "N\ntwo\nthree\nfour\nN\n"},
		{name: "newline in regex", args: []string{"sed", "N;s/e\\nt/E_T/", "f"}, files: sedFiveLines, wantOut: "onE_Two\nthree\nfour\nfive\n"},
		{name: "c negated", args: []string{"sed", "$!c\\\nX", "f"}, files: sedFiveLines, wantOut: "X\nX\nX\nX\nfive\n"},
		{name: "a one-liner in block", args: []string{"sed", "2{a\\\nadded\n}", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nadded\nthree\nfour\nfive\n"},
		{name: "i one liner -e join", args: []string{"sed", "-e", "1i\\", "-e", "hello", "f"}, files: sedFiveLines, wantOut: "hello\none\ntwo\nthree\nfour\nfive\n"},
		{name: "s w file then print", args: []string{"sed", "-n", "s/o/0/w /dev/stdout", "f"}, files: sedFiveLines, wantOut: "0ne\ntw0\nf0ur\n"},
		{name: "global and nth", args: []string{"sed", "s/o/0/2g"}, stdin: "foooo\n", wantOut: "fo000\n"},
		{name: "semicolon after brace", args: []string{"sed", "-n", "/t/{p;};$p", "f"}, files: sedFiveLines, wantOut: "two\nthree\nfive\n"},
		{name: "spaces around", args: []string{"sed", "-n", " 2 , 3 ! p ", "f"}, files: sedFiveLines, wantOut: "one\nfour\nfive\n"},
		{name: "y with escapes", args: []string{"sed", "y/\\n/ /", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nthree\nfour\nfive\n"},
		{name: "G double space", args: []string{"sed", "G", "f"}, files: sedFiveLines, wantOut: "one\n\ntwo\n\nthree\n\nfour\n\nfive\n\n"},
		{name: "h x at end", args: []string{"sed", "-n", "h;n;G;p", "f"}, files: sedFiveLines, wantOut: "two\none\nfour\nthree\n"},
		{name: "dash file", args: []string{"sed", "s/^/>/", "-"}, stdin: "in\n", wantOut: ">in\n"},
		{name: "extra chars", args: []string{"sed", "p x", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 3: extra characters after command\n", wantExit: 1},
		{name: "missing command", args: []string{"sed", "1", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 1: missing command\n", wantExit: 1},
		{name: "one address only", args: []string{"sed", "1,2q", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 4: command only uses one address\n", wantExit: 1},
		{name: "unterminated y", args: []string{"sed", "y/abc/def", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 9: unterminated `y' command\n", wantExit: 1},
		{name: "unknown option to s 2", args: []string{"sed", "s/a/b/gg", "f"}, files: sedFiveLines, wantOut: "", wantErr: "sed: -e expression #1, char 8: multiple `g' options to `s' command\n", wantExit: 1},
		{name: "directory input", args: []string{"sed", "p", "d/"}, files: map[string]string{"/w/d/": ""}, wantOut: "", wantErr: "sed: read error on d/: Is a directory\n", wantExit: 4},
		{name: "step zero", args: []string{"sed", "-n", "2~0p", "f"}, files: sedFiveLines, wantOut: "two\n"},
		{name: "0~2", args: []string{"sed", "-n", "0~2p", "f"}, files: sedFiveLines, wantOut: "two\nfour\n"},
		{name: "regex range restart", args: []string{"sed", "-n", "/o/,/e/p", "f"}, files: sedFiveLines, wantOut: "one\ntwo\nthree\nfour\nfive\n"},
		{name: "last regex reuse", args: []string{"sed", "-n", "/t/{s//T/;p}", "f"}, files: sedFiveLines, wantOut: "Two\nThree\n"},
		{name: "dot star", args: []string{"sed", "s/.*/[&]/"}, stdin: "a b\n", wantOut: "[a b]\n"},
		{name: "bracket special", args: []string{"sed", "s/[]x]/Y/g"}, stdin: "a]x\n", wantOut: "aYY\n"},
		{name: "caret literal", args: []string{"sed", "s/a^b/X/"}, stdin: "a^b\n", wantOut: "X\n"},
		{name: "dollar literal", args: []string{"sed", "s/a$b/X/"}, stdin: "a$b\n", wantOut: "X\n"},
		{name: "star at start", args: []string{"sed", "s/*a/X/"}, stdin: "*a\n", wantOut: "X\n"},
		{name: "interval BRE", args: []string{"sed", "s/o\\{2\\}/X/"}, stdin: "fooo\n", wantOut: "fXo\n"},
		{name: "upper lower", args: []string{"sed", "s/\\(.\\)\\(.*\\)/\\U\\1\\L\\2/"}, stdin: "hELLO\n", wantOut: "Hello\n"},
		{name: "quit exit no print", args: []string{"sed", "-n", "2{p;q3}", "f"}, files: sedFiveLines, wantOut: "two\n", wantExit: 3},
	})
}

// TestSedGatehouse covers what has no GNU twin: in-place edits through
// the VFS, refusals by the op door, and the patterns RE2 cannot run.
func TestSedGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "in place", args: []string{"sed", "-i", "s/o/0/g", "f"}, files: sedFiveLines,
			wantFiles: map[string]string{"/w/f": "0ne\ntw0\nthree\nf0ur\nfive\n"}},
		{name: "in place with backup", args: []string{"sed", "-i.bak", "2d", "f"}, files: sedFiveLines,
			wantFiles: map[string]string{"/w/f": "one\nthree\nfour\nfive\n", "/w/f.bak": "one\ntwo\nthree\nfour\nfive\n"}},
		{name: "in place backup star", args: []string{"sed", "--in-place=old_*", "1d", "f"}, files: sedFiveLines,
			wantFiles: map[string]string{"/w/f": "two\nthree\nfour\nfive\n", "/w/old_f": "one\ntwo\nthree\nfour\nfive\n"}},
		{name: "in place files separate", args: []string{"sed", "-i", "$s/$/!/", "f", "g"},
			files:     map[string]string{"/w/f": "a\nb\n", "/w/g": "c\n"},
			wantFiles: map[string]string{"/w/f": "a\nb!\n", "/w/g": "c!\n"}},
		{name: "in place quit truncates", args: []string{"sed", "-i", "2q", "f"}, files: sedFiveLines,
			wantFiles: map[string]string{"/w/f": "one\ntwo\n"}},
		{name: "in place read-only mount", args: []string{"sed", "-i", "s/a/b/", "/ro/f"},
			files:   map[string]string{"/ro/f": "a\n"},
			wantErr: "sed: couldn't open temporary file /ro/f: Read-only file system\n", wantExit: 4,
			wantFiles: map[string]string{"/ro/f": "a\n"}},
		{name: "in place stdin", args: []string{"sed", "-i", "p"}, wantErr: "sed: no input files\n", wantExit: 1},
		{name: "w file", args: []string{"sed", "-n", "/t/w out", "f"}, files: sedFiveLines,
			wantFiles: map[string]string{"/w/out": "two\nthree\n"}},
		{name: "refused input", args: []string{"sed", "p", "secret.txt", "f"}, files: map[string]string{"/w/secret.txt": "k\n", "/w/f": "x\n"},
			wantOut: "x\nx\n", wantErr: "sed: can't read secret.txt: " + secretReason + "\n", wantExit: 2},
		{name: "hidden input", args: []string{"sed", "p", "hidden/a"}, files: map[string]string{"/w/hidden/a": "k\n"},
			wantErr: "sed: can't read hidden/a: No such file or directory\n", wantExit: 2},
		{name: "backreference in pattern", args: []string{"sed", `s/\(a\)\1/X/`}, stdin: "aa\n", wantOut: "X\n"},
		{name: "backreference in address", args: []string{"sed", "-E", `/(.)\1/d`}, stdin: "aa\nab\n", wantOut: "ab\n"},
		{name: "e command refused", args: []string{"sed", "1e date"}, stdin: "x\n",
			wantErr: "sed: -e expression #1, char 2: e command is not supported: gatehouse runs no host commands\n", wantExit: 1},
		{name: "no script", args: []string{"sed"}, wantErr: sedUsageText(), wantExit: 1},
		{name: "invalid option", args: []string{"sed", "-k", "p"}, wantErr: "sed: invalid option -- 'k'\n" + sedUsageText(), wantExit: 1},
		{name: "help", args: []string{"sed", "--help"}, wantOut: sedHelp},
		{name: "script file missing", args: []string{"sed", "-f", "nope.sed"},
			wantErr: "sed: couldn't open file nope.sed: No such file or directory\n", wantExit: 1},
		{name: "sandbox refuses w", args: []string{"sed", "--sandbox", "w out"}, stdin: "x\n",
			wantErr: "sed: -e expression #1, char 1: e/r/w commands disabled in sandbox mode\n", wantExit: 1,
			wantFiles: map[string]string{"/w/out": "<absent>"}},
		{name: "R line by line", args: []string{"sed", "R g", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n", "/w/g": "a\nb\n"},
			wantOut: "1\na\n2\nb\n3\n"},
	})
}

func TestSedOperandsAndVoice(t *testing.T) {
	t.Parallel()
	u := Lookup("sed")
	cases := []struct {
		name string
		argv []string
		want []OperandRef
	}{
		{"script then files", []string{"sed", "-n", "p", "a", "b"}, []OperandRef{{Index: 3}, {Index: 4}}},
		{"expression option", []string{"sed", "-e", "p", "a"}, []OperandRef{{Index: 3}}},
		{"script file", []string{"sed", "-fs.sed", "a"}, []OperandRef{{Index: 1, Path: "s.sed"}, {Index: 2}}},
		{"in place writes", []string{"sed", "-i", "s/a/b/", "a"}, []OperandRef{{Index: 3, Kind: Write}}},
		{"stdin is no path", []string{"sed", "p", "-"}, []OperandRef{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := u.Operands(c.argv)
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
	runVoiceCases(t, []voiceCase{
		{utility: "sed", arg: "secret.txt", msg: secretReason, want: "sed: can't read secret.txt: " + secretReason + "\n"},
	})
}
