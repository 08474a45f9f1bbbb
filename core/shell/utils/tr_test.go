package utils

import "testing"

// Expected outputs recorded from GNU tr (coreutils 9.1) (LC_ALL=C) run on a temp dir
// holding the same files.
func TestTrAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "lower to upper range", args: []string{"tr", "a-z", "A-Z"}, stdin: "Hello, World! 123\n", wantOut: "HELLO, WORLD! 123\n"},
		{name: "classes upper", args: []string{"tr", "[:lower:]", "[:upper:]"}, stdin: "Hello, World! 123\n", wantOut: "HELLO, WORLD! 123\n"},
		{name: "classes lower", args: []string{"tr", "[:upper:]", "[:lower:]"}, stdin: "Hello, World! 123\n", wantOut: "hello, world! 123\n"},
		{name: "delete digits", args: []string{"tr", "-d", "0-9"}, stdin: "Hello, World! 123\n", wantOut: "Hello, World! \n"},
		{name: "delete class", args: []string{"tr", "-d", "[:punct:]"}, stdin: "Hello, World! 123\n", wantOut: "Hello World 123\n"},
		{name: "squeeze spaces", args: []string{"tr", "-s", " "}, stdin: "a   b    c\n", wantOut: "a b c\n"},
		{name: "squeeze class", args: []string{"tr", "-s", "[:space:]"}, stdin: "a  \n\n b\n", wantOut: "a \n b\n"},
		{name: "complement delete", args: []string{"tr", "-cd", "[:alnum:]\\n"}, stdin: "Hello, World! 123\n", wantOut: "HelloWorld123\n"},
		{name: "complement translate", args: []string{"tr", "-c", "a-z", "_"}, stdin: "ab-cd\n", wantOut: "ab_cd_"},
		{name: "complement squeeze", args: []string{"tr", "-cs", "[:alpha:]", "\\n"}, stdin: "one, two  three\n", wantOut: "one\ntwo\nthree\n"},
		{name: "short set2 extends", args: []string{"tr", "abc", "x"}, stdin: "aabbcc\n", wantOut: "xxxxxx\n"},
		{name: "truncate", args: []string{"tr", "-t", "abc", "xy"}, stdin: "aabbcc\n", wantOut: "xxyycc\n"},
		{name: "escapes", args: []string{"tr", "\\t", "\\n"}, stdin: "a\tb\n", wantOut: "a\nb\n"},
		{name: "octal", args: []string{"tr", "\\101", "x"}, stdin: "ABA\n", wantOut: "xBx\n"},
		{name: "newlines to spaces", args: []string{"tr", "\\n", " "}, stdin: "a\nb\nc\n", wantOut: "a b c "},
		{name: "translate and squeeze", args: []string{"tr", "-s", "a-c", "xyz"}, stdin: "aabbcc\n", wantOut: "xyz\n"},
		{name: "delete and squeeze", args: []string{"tr", "-ds", "a", "b"}, stdin: "abbbca\n", wantOut: "bc\n"},
		{name: "rot13", args: []string{"tr", "A-Za-z", "N-ZA-Mn-za-m"}, stdin: "Hello, World! 123\n", wantOut: "Uryyb, Jbeyq! 123\n"},
		{name: "repeat fill", args: []string{"tr", "a-f", "[x*]"}, stdin: "abcdef\n", wantOut: "xxxxxx\n"},
		{name: "repeat count", args: []string{"tr", "a-f", "[x*2]y"}, stdin: "abcdef\n", wantOut: "xxyyyy\n"},
		{name: "equivalence", args: []string{"tr", "[=a=]", "b"}, stdin: "banana\n", wantOut: "bbnbnb\n"},
		{name: "literal brackets", args: []string{"tr", "[]", "()"}, stdin: "[x]\n", wantOut: "(x)\n"},
		{name: "dash at end", args: []string{"tr", "a-", "x"}, stdin: "a-b\n", wantOut: "xxb\n"},
		{name: "missing operand", args: []string{"tr"}, wantOut: "", wantErr: "tr: missing operand\nTry 'tr --help' for more information.\n", wantExit: 1},
		{name: "one operand", args: []string{"tr", "a"}, wantOut: "", wantErr: "tr: missing operand after 'a'\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n", wantExit: 1},
		{name: "extra operand delete", args: []string{"tr", "-d", "a", "b"}, wantOut: "", wantErr: "tr: extra operand 'b'\nOnly one string may be given when deleting without squeezing repeats.\nTry 'tr --help' for more information.\n", wantExit: 1},
		{name: "extra operand", args: []string{"tr", "a", "b", "c"}, wantOut: "", wantErr: "tr: extra operand 'c'\nTry 'tr --help' for more information.\n", wantExit: 1},
		{name: "reverse range", args: []string{"tr", "z-a", "x"}, stdin: "a\n", wantOut: "", wantErr: "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n", wantExit: 1},
		{name: "bad class", args: []string{"tr", "[:foo:]", "x"}, stdin: "a\n", wantOut: "", wantErr: "tr: invalid character class 'foo'\n", wantExit: 1},
		{name: "class in set2", args: []string{"tr", "a-c", "[:digit:]"}, stdin: "abc\n", wantOut: "", wantErr: "tr: when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'\n", wantExit: 1},
		{name: "empty set2", args: []string{"tr", "abc", ""}, stdin: "abc\n", wantOut: "", wantErr: "tr: when not truncating set1, string2 must be non-empty\n", wantExit: 1},
		{name: "trailing backslash", args: []string{"tr", "a\\", "xy"}, stdin: "a\\\n", wantOut: "xy\n", wantErr: "tr: warning: an unescaped backslash at end of string is not portable\n"},
		{name: "squeeze without newline", args: []string{"tr", "-s", "x"}, stdin: "xxx", wantOut: "x"},
		{name: "invalid option", args: []string{"tr", "-x", "a"}, wantOut: "", wantErr: "tr: invalid option -- 'x'\nTry 'tr --help' for more information.\n", wantExit: 1},
		{name: "repeat in set1", args: []string{"tr", "[a*2]", "x"}, stdin: "a\n", wantOut: "x\n"},
		{name: "delete squeeze one op", args: []string{"tr", "-ds", "a"}, stdin: "a\n", wantOut: "", wantErr: "tr: missing operand after 'a'\nTwo strings must be given when both deleting and squeezing repeats.\nTry 'tr --help' for more information.\n", wantExit: 1},
		{name: "complement upper", args: []string{"tr", "-c", "[:upper:]", "."}, stdin: "AbC\n", wantOut: "A.C."},
		{name: "xdigit", args: []string{"tr", "-d", "[:xdigit:]"}, stdin: "0x1fgz\n", wantOut: "xgz\n"},
		{name: "backslash escaped", args: []string{"tr", "\\\\", "/"}, stdin: "a\\b\n", wantOut: "a/b\n"},
		{name: "blank cntrl", args: []string{"tr", "-d", "[:blank:][:cntrl:]"}, stdin: "a b\tc\x01\n", wantOut: "abc"},
		{name: "fill in set1 refused", args: []string{"tr", "[a*]", "x"}, stdin: "a\n", wantOut: "", wantErr: "tr: the [c*] repeat construct may not appear in string1\n", wantExit: 1},
		{name: "octal count", args: []string{"tr", "a-z", "[x*010]y"}, stdin: "abcdefghij\n", wantOut: "xxxxxxxxyy\n"},
	})
}

func TestTrHelpAndOperands(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "help", args: []string{"tr", "--help"}, wantOut: trHelp},
	})
	if Lookup("tr").Operands != nil {
		t.Errorf("tr declares path operands; it reads only stdin")
	}
}
