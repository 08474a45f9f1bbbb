package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestPrintfEchoAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "printf string", args: []string{"printf", "%s-%s\\n", "a", "b", "c"}, wantOut: "a-b\nc-\n"},
		{name: "printf reuse", args: []string{"printf", "%d:%s\\n", "1", "a", "2", "b"}, wantOut: "1:a\n2:b\n"},
		{name: "printf width", args: []string{"printf", "[%5s][%-5s][%.2s]\\n", "ab", "cd", "efgh"}, wantOut: "[   ab][cd   ][ef]\n"},
		{name: "printf ints", args: []string{"printf", "%d %i %o %x %X %u %05d %+d\\n", "42", "-7", "8", "255", "255", "3", "42", "5"}, wantOut: "42 -7 10 ff FF 3 00042 +5\n"},
		{name: "printf floats", args: []string{"printf", "%f %.2f %e %g %g %G\\n", "3.14159", "2.5", "1234.5", "0.0001", "1234567", "1e-10"}, wantOut: "3.141590 2.50 1.234500e+03 0.0001 1.23457e+06 1E-10\n"},
		{name: "printf char", args: []string{"printf", "%c%c\\n", "hello", "w"}, wantOut: "hw\n"},
		{name: "printf b", args: []string{"printf", "%b\\n", "a\\tb\\0101"}, wantOut: "a\tbA\n"},
		{name: "printf b stop", args: []string{"printf", "%b|%s\\n", "x\\cy", "z"}, wantOut: "x"},
		{name: "printf percent", args: []string{"printf", "100%%\\n"}, wantOut: "100%\n"},
		{name: "printf char code", args: []string{"printf", "%d %d\\n", "'A", "\"b"}, wantOut: "65 98\n"},
		{name: "printf hex octal arg", args: []string{"printf", "%d %d\\n", "0x10", "010"}, wantOut: "16 8\n"},
		{name: "printf bad number", args: []string{"printf", "%d\\n", "abc"}, wantOut: "0\n", wantErr: "printf: 'abc': expected a numeric value\n", wantExit: 1},
		{name: "printf partial number", args: []string{"printf", "%d\\n", "12abc"}, wantOut: "12\n", wantErr: "printf: '12abc': value not completely converted\n", wantExit: 1},
		{name: "printf missing args", args: []string{"printf", "%s|%d|\\n"}, wantOut: "|0|\n"},
		{name: "printf no format", args: []string{"printf"}, wantOut: "", wantErr: "printf: missing operand\nTry 'printf --help' for more information.\n", wantExit: 1},
		{name: "printf excess", args: []string{"printf", "hi\\n", "extra"}, wantOut: "hi\n", wantErr: "printf: warning: ignoring excess arguments, starting with 'extra'\n"},
		{name: "printf star width", args: []string{"printf", "[%*d]\\n", "5", "42"}, wantOut: "[   42]\n"},
		{name: "printf invalid conv", args: []string{"printf", "%z\\n"}, wantOut: "", wantErr: "printf: %z\\: invalid conversion specification\n", wantExit: 1},
		{name: "printf q", args: []string{"printf", "%q\\n", "a b"}, wantOut: "'a b'\n"},
		{name: "printf stop c", args: []string{"printf", "a\\cb"}, wantOut: "a"},
		{name: "printf negative unsigned", args: []string{"printf", "%u %x\\n", "-1", "-1"}, wantOut: "18446744073709551615 ffffffffffffffff\n"},
		{name: "echo plain", args: []string{"echo", "a", "b"}, wantOut: "a b\n"},
		{name: "echo -n", args: []string{"echo", "-n", "x"}, wantOut: "x"},
		{name: "echo -e", args: []string{"echo", "-e", "a\\tb\\n\\x41\\0101"}, wantOut: "a\tb\nAA\n"},
		{name: "echo -e c", args: []string{"echo", "-e", "a\\cb", "c"}, wantOut: "a"},
		{name: "echo not option", args: []string{"echo", "-nx", "y"}, wantOut: "-nx y\n"},
		{name: "echo -E", args: []string{"echo", "-E", "a\\tb"}, wantOut: "a\\tb\n"},
		{name: "echo -- literal", args: []string{"echo", "--", "x"}, wantOut: "-- x\n"},
		{name: "echo help alone", args: []string{"echo", "--help", "x"}, wantOut: "--help x\n"},
	})
}

func TestPrintfEchoGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		// A workspace speaks UTF-8: \u escapes print the character (GNU
		// in the C locale would print the escape back).
		{name: "printf unicode escape", args: []string{"printf", `\u00e9\U0001F600\n`}, wantOut: "é😀\n"},
		{name: "printf help", args: []string{"printf", "--help"}, wantOut: printfHelp},
		// Widths and precisions count bytes, as in C.
		{name: "printf pads bytes", args: []string{"printf", `[%5s][%-4s][%.1s]\n`, "é", "é", "é"}, wantOut: "[   é][é  ][\xc3]\n"},
		{name: "echo help", args: []string{"echo", "--help"}, wantOut: echoHelp},
	})
	for _, name := range []string{"printf", "echo"} {
		if Lookup(name).Operands != nil {
			t.Errorf("%s declares path operands; it has none (G-4.9)", name)
		}
	}
}
