package utils

import "testing"

// Expected outputs recorded from jq 1.6 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestJqAgainstJq(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "identity pretty", args: []string{"jq", ".", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "{\n  \"name\": \"gatehouse\",\n  \"tags\": [\n    \"a\",\n    \"b\"\n  ],\n  \"n\": 3,\n  \"nested\": {\n    \"x\": [\n      1,\n      {\n        \"y\": null\n      }\n    ]\n  }\n}\n"},
		{name: "field", args: []string{"jq", ".name", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "\"gatehouse\"\n"},
		{name: "raw field", args: []string{"jq", "-r", ".name", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "gatehouse\n"},
		{name: "compact", args: []string{"jq", "-c", ".", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"},
		{name: "iterate", args: []string{"jq", ".tags[]", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "\"a\"\n\"b\"\n"},
		{name: "raw iterate", args: []string{"jq", "-r", ".tags[]", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "a\nb\n"},
		{name: "join output", args: []string{"jq", "-j", ".tags[]", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "ab"},
		{name: "nested path", args: []string{"jq", ".nested.x[1]", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "{\n  \"y\": null\n}\n"},
		{name: "select", args: []string{"jq", "-c", ".[] | select(.ok)"}, stdin: "[{\"id\":1,\"ok\":true},{\"id\":2,\"ok\":false},{\"id\":3,\"ok\":true}]\n", wantOut: "{\"id\":1,\"ok\":true}\n{\"id\":3,\"ok\":true}\n"},
		{name: "map", args: []string{"jq", "-c", "map(.id * 10)"}, stdin: "[{\"id\":1,\"ok\":true},{\"id\":2,\"ok\":false},{\"id\":3,\"ok\":true}]\n", wantOut: "[10,20,30]\n"},
		{name: "length keys", args: []string{"jq", "-c", "[length, (.[0]|keys)]"}, stdin: "[{\"id\":1,\"ok\":true},{\"id\":2,\"ok\":false},{\"id\":3,\"ok\":true}]\n", wantOut: "[3,[\"id\",\"ok\"]]\n"},
		{name: "null input", args: []string{"jq", "-n", "1+2"}, wantOut: "3\n"},
		{name: "arg", args: []string{"jq", "-n", "--arg", "who", "world", "\"hello \\($who)\""}, wantOut: "\"hello world\"\n"},
		{name: "argjson", args: []string{"jq", "-n", "-c", "--argjson", "v", "{\"a\":[1,2]}", "$v.a"}, wantOut: "[1,2]\n"},
		{name: "ARGS named", args: []string{"jq", "-n", "-c", "--arg", "x", "1", "$ARGS"}, wantOut: "{\"positional\":[],\"named\":{\"x\":\"1\"}}\n"},
		{name: "args positional", args: []string{"jq", "-n", "-c", "$ARGS.positional", "--args", "a", "b"}, wantOut: "[\"a\",\"b\"]\n"},
		{name: "slurp", args: []string{"jq", "-s", "-c", "."}, stdin: "1 2 3", wantOut: "[1,2,3]\n"},
		{name: "slurp add", args: []string{"jq", "-s", "add"}, stdin: "1\n2\n3\n", wantOut: "6\n"},
		{name: "raw input", args: []string{"jq", "-R", "."}, stdin: "a\nb\n", wantOut: "\"a\"\n\"b\"\n"},
		{name: "raw input slurp", args: []string{"jq", "-Rs", "."}, stdin: "a\nb\n", wantOut: "\"a\\nb\\n\"\n"},
		{name: "raw split", args: []string{"jq", "-R", "-c", "split(\",\")"}, stdin: "a,b\nc\n", wantOut: "[\"a\",\"b\"]\n[\"c\"]\n"},
		{name: "exit status false", args: []string{"jq", "-e", ".ok"}, stdin: "{\"ok\":false}\n", wantOut: "false\n", wantExit: 1},
		{name: "exit status null", args: []string{"jq", "-e", ".missing"}, stdin: "{}\n", wantOut: "null\n", wantExit: 1},
		{name: "exit status true", args: []string{"jq", "-e", ".ok"}, stdin: "{\"ok\":1}\n", wantOut: "1\n"},
		{name: "exit status empty", args: []string{"jq", "-e", "empty"}, stdin: "1\n", wantOut: "", wantExit: 4},
		{name: "tab", args: []string{"jq", "--tab", "."}, stdin: "{\"a\":[1,{\"b\":2}]}\n", wantOut: "{\n\t\"a\": [\n\t\t1,\n\t\t{\n\t\t\t\"b\": 2\n\t\t}\n\t]\n}\n"},
		{name: "indent 4", args: []string{"jq", "--indent", "4", "."}, stdin: "{\"a\":[1]}\n", wantOut: "{\n    \"a\": [\n        1\n    ]\n}\n"},
		{name: "indent 0", args: []string{"jq", "--indent", "0", "."}, stdin: "{\"a\":[1]}\n", wantOut: "{\"a\":[1]}\n"},
		{name: "indent too big", args: []string{"jq", "--indent", "9", "."}, stdin: "1\n", wantOut: "", wantErr: "jq: --indent takes a number between -1 and 7\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n", wantExit: 2},
		{name: "ascii", args: []string{"jq", "-a", "."}, stdin: "\"\\u00e9\\u0001 ☃ 😀\"\n", wantOut: "\"\\u00e9\\u0001 \\u2603 \\ud83d\\ude00\"\n"},
		{name: "empty containers", args: []string{"jq", "-c", "."}, stdin: "[[],{},[{}]]\n", wantOut: "[[],{},[{}]]\n"},
		{name: "empty pretty", args: []string{"jq", "."}, stdin: "[[],{}]\n", wantOut: "[\n  [],\n  {}\n]\n"},
		{name: "strings escapes", args: []string{"jq", "."}, stdin: "\"tab\\there \\\"q\\\" \\\\ \\u007f\"\n", wantOut: "\"tab\\there \\\"q\\\" \\\\ \\u007f\"\n"},
		{name: "numbers", args: []string{"jq", "-c", "."}, stdin: "[1.0, 1e3, 0.1, -0, 1.5e-7, 3.14159]\n", wantOut: "[1,1000,0.1,-0,1.5e-07,3.14159]\n"},
		{name: "runtime error", args: []string{"jq", ".a[]"}, stdin: "{\"a\":1}\n", wantOut: "", wantErr: "jq: error (at <stdin>:1): Cannot iterate over number (1)\n", wantExit: 5},
		{name: "add type error", args: []string{"jq", ".a + 1"}, stdin: "{\"a\":\"x\"}\n", wantErr: "jq: error (at <stdin>:1): string (\"x\") and number (1) cannot be added\n", wantExit: 5},
		{name: "subtract type error", args: []string{"jq", "1 - .a"}, stdin: "{\"a\":\"x\"}\n", wantErr: "jq: error (at <stdin>:1): number (1) and string (\"x\") cannot be subtracted\n", wantExit: 5},
		{name: "remainder by zero", args: []string{"jq", ".a % 0"}, stdin: "{\"a\":5}\n", wantErr: "jq: error (at <stdin>:1): number (5) and number (0) cannot be divided (remainder) because the divisor is zero\n", wantExit: 5},
		{name: "divide by zero", args: []string{"jq", ".a / 0"}, stdin: "{\"a\":1}\n", wantErr: "jq: error (at <stdin>:1): number (1) and number (0) cannot be divided because the divisor is zero\n", wantExit: 5},
		{name: "error string", args: []string{"jq", "-n", "\"boom\"|error"}, wantOut: "", wantErr: "jq: error (at <unknown>): boom\n", wantExit: 5},
		{name: "error object", args: []string{"jq", "-n", "{\"a\":1}|error"}, wantOut: "", wantErr: "jq: error (at <unknown>) (not a string): {\"a\":1}\n", wantExit: 5},
		{name: "missing file", args: []string{"jq", ".", "nope"}, wantOut: "", wantErr: "jq: error: Could not open file nope: No such file or directory\n", wantExit: 2},
		{name: "missing file continues", args: []string{"jq", "-c", ".", "nope", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n", wantErr: "jq: error: Could not open file nope: No such file or directory\n", wantExit: 2},
		{name: "unknown option", args: []string{"jq", "-x", "."}, wantOut: "", wantErr: "jq: Unknown option -x\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n", wantExit: 2},
		{name: "input_filename", args: []string{"jq", "-c", "[input_filename,.n]", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "[\"d.json\",3]\n"},
		{name: "input", args: []string{"jq", "-n", "-c", "[input, input]"}, stdin: "1 2 3", wantOut: "[1,2]\n"},
		{name: "inputs", args: []string{"jq", "-n", "-c", "[inputs]"}, stdin: "1 2 3", wantOut: "[1,2,3]\n"},
		{name: "multiple files", args: []string{"jq", "-c", ".", "d.json", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"},
		{name: "reduce", args: []string{"jq", "-n", "reduce range(5) as $i (0; .+$i)"}, wantOut: "10\n"},
		{name: "string interpolation", args: []string{"jq", "-r", "\"\\(.name) has \\(.tags|length) tags\"", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n"}, wantOut: "gatehouse has 2 tags\n"},
		{name: "halt_error", args: []string{"jq", "-n", "\"bye\\n\"|halt_error(3)"}, wantOut: "", wantErr: "bye\n", wantExit: 3},
		{name: "default filter", args: []string{"jq"}, stdin: "{\"a\":1}\n", wantOut: "{\n  \"a\": 1\n}\n"},
		{name: "sort_by group_by", args: []string{"jq", "-c", "sort_by(.id)|reverse|map(.id)"}, stdin: "[{\"id\":1,\"ok\":true},{\"id\":2,\"ok\":false},{\"id\":3,\"ok\":true}]\n", wantOut: "[3,2,1]\n"},
		{name: "try catch", args: []string{"jq", "-c", "try error(\"x\") catch ."}, stdin: "1\n", wantOut: "\"x\"\n"},
		{name: "alternative", args: []string{"jq", ".missing // \"default\""}, stdin: "{}\n", wantOut: "\"default\"\n"},
		{name: "tostring tonumber", args: []string{"jq", "-c", "[(1|tostring), (\"2\"|tonumber)]"}, stdin: "null\n", wantOut: "[\"1\",2]\n"},
		{name: "from file", args: []string{"jq", "-f", "prog.jq", "d.json"}, files: map[string]string{"/w/d.json": "{\"name\":\"gatehouse\",\"tags\":[\"a\",\"b\"],\"n\":3,\"nested\":{\"x\":[1,{\"y\":null}]}}\n", "/w/prog.jq": ".n + 1\n"}, wantOut: "4\n"},
		{name: "unicode", args: []string{"jq", "."}, stdin: "\"h\\u00e9llo \\u2603\"\n", wantOut: "\"héllo ☃\"\n"},
		{name: "sort keys", args: []string{"jq", "-S", "-c", "."}, stdin: "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}\n", wantOut: "{\"a\":{\"c\":2,\"d\":1},\"b\":1}\n"},
		{name: "args order", args: []string{"jq", "-n", "-c", "--arg", "b", "1", "--arg", "a", "2", "$ARGS.named"}, wantOut: "{\"b\":\"1\",\"a\":\"2\"}\n"},
		{name: "nested order kept", args: []string{"jq", "-c", ".x"}, stdin: "{\"x\":{\"z\":1,\"y\":2}}\n", wantOut: "{\"z\":1,\"y\":2}\n"},
		{name: "env empty of host", args: []string{"jq", "-n", "-c", "$ENV.HOME"}, wantOut: "\"/w\"\n"},
	})
}

// TestJqGatehouse covers the host staying out, the VFS, and the places
// where gatehouse follows jq 1.7 / gojq rather than the jq 1.6 the table
// above was recorded with.
func TestJqGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "env is the session's", args: []string{"jq", "-n", "-c", "env|keys"}, env: []string{"TEAM=sre", "HOME=/w"},
			wantOut: "[\"HOME\",\"TEAM\"]\n"},
		{name: "ENV variable", args: []string{"jq", "-n", "-r", "$ENV.TEAM"}, env: []string{"TEAM=sre"}, wantOut: "sre\n"},
		{name: "no modules", args: []string{"jq", "-n", `import "x" as x; 1`},
			wantErr: "jq: error: module not found: x (gatehouse loads no jq modules)\njq: 1 compile error\n", wantExit: 3},
		{name: "refused file", args: []string{"jq", ".", "secret.json"}, files: map[string]string{"/w/secret.json": "{}"},
			wantErr: "jq: error: Could not open file secret.json: " + secretReason + "\n", wantExit: 2},
		{name: "slurpfile and rawfile", args: []string{"jq", "-n", "-c", "--slurpfile", "s", "a.json", "--rawfile", "r", "b.txt", "[$s, $r]"},
			files: map[string]string{"/w/a.json": "1 2", "/w/b.txt": "hi\n"}, wantOut: "[[1,2],\"hi\\n\"]\n"},
		{name: "jsonargs", args: []string{"jq", "-n", "-c", "$ARGS.positional", "--jsonargs", "1", `{"a":2}`},
			wantOut: "[1,{\"a\":2}]\n"},
		// jq 1.7 keeps big integer literals; jq 1.6 rounded them to doubles.
		{name: "big integer kept", args: []string{"jq", "."}, stdin: "12345678901234567890\n", wantOut: "12345678901234567890\n"},
		// Any runtime error makes the exit status 5 (jq 1.6 only looked at
		// the last input).
		{name: "error then success", args: []string{"jq", ".[]"}, stdin: "1\n[2]\n", wantOut: "2\n",
			wantErr: "jq: error (at <stdin>:1): Cannot iterate over number (1)\n", wantExit: 5},
		// Input that does not parse ends the reading; jq 1.6 exits 4.
		{name: "parse error", args: []string{"jq", "."}, stdin: "{\n",
			wantErr: "parse error: Unfinished JSON term at EOF at line 2, column 0\n", wantExit: 4},
		// Objects the filter derives keep the order of the object they
		// came from, as jq's do; a new key goes last.
		{name: "derived objects keep order", args: []string{"jq", "-c", "to_entries|from_entries|.c=3"}, stdin: "{\"b\":2,\"a\":1}\n",
			wantOut: "{\"b\":2,\"a\":1,\"c\":3}\n"},
		{name: "compile error", args: []string{"jq", ".["}, stdin: "1\n",
			wantErr: "jq: error: unexpected EOF\njq: 1 compile error\n", wantExit: 3},
		{name: "help", args: []string{"jq", "--help"}, wantOut: jqHelp},
		{name: "halt stops", args: []string{"jq", "., halt"}, stdin: "1 2", wantOut: "1\n"},
	})
}

func TestJqOperands(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		argv []string
		want []OperandRef
	}{
		{"filter then files", []string{"jq", "-r", ".a", "x.json", "y.json"}, []OperandRef{{Index: 3}, {Index: 4}}},
		{"arg values are not paths", []string{"jq", "--arg", "n", "v", ".", "x.json"}, []OperandRef{{Index: 5}}},
		{"from file", []string{"jq", "-f", "p.jq", "x.json"}, []OperandRef{{Index: 2}, {Index: 3}}},
		{"positional strings", []string{"jq", "-n", "$ARGS", "--args", "a"}, nil},
		{"rawfile", []string{"jq", "--rawfile", "r", "b.txt", "."}, []OperandRef{{Index: 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := Lookup("jq").Operands(c.argv)
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
		{utility: "jq", arg: "secret.json", msg: secretReason, want: "jq: error: Could not open file secret.json: " + secretReason + "\n"},
	})
}

// TestJqShortFlagsAreTheirLongSpelling: each letter that only sets a flag
// sets what its long spelling sets, alone and in a cluster, and names a
// long option that exists.
func TestJqShortFlagsAreTheirLongSpelling(t *testing.T) {
	t.Parallel()
	for letter, long := range jqShortFlags.Get() {
		t.Run(string(letter), func(t *testing.T) {
			t.Parallel()
			if _, ok := jqLongFlags.Get()[long]; !ok {
				t.Fatalf("-%c names --%s, which is not a long flag", letter, long)
			}
			byLetter, _, err := jqParseArgs([]string{"jq", "-" + string(letter), "."})
			if err != nil {
				t.Fatal(err.msg)
			}
			byName, _, err := jqParseArgs([]string{"jq", "--" + long, "."})
			if err != nil {
				t.Fatal(err.msg)
			}
			inCluster, _, err := jqParseArgs([]string{"jq", "-h" + string(letter), "."})
			if err != nil {
				t.Fatal(err.msg)
			}
			flags := func(c *jqConfig) [10]bool {
				return [10]bool{c.raw, c.join, c.compact, c.nullInput, c.slurp, c.exitStatus, c.ascii, c.rawInput, c.tab, c.sortKeys}
			}
			if flags(byLetter) != flags(byName) || flags(inCluster) != flags(byName) {
				t.Errorf("-%c sets %v, -h%c %v, --%s %v", letter, flags(byLetter), letter, flags(inCluster), long, flags(byName))
			}
		})
	}
}

// sub, gsub, splits and match as gojq's definitions had them, now cut in
// one pass (gojq patch 4): code point offsets, several outputs of the
// replacement (one result each), none (the string unchanged), null (as
// ""), a replacement that is not a string (the error of its addition).
func TestJqRegexBuiltinsKeepTheirResults(t *testing.T) {
	t.Parallel()
	jq := func(name, q, want string) utilCase {
		return utilCase{name: name, args: []string{"jq", "-n", "-c", q}, wantOut: want + "\n"}
	}
	runCases(t, []utilCase{
		jq("sub once", `"abcabc" | sub("b"; "X")`, `"aXcabc"`),
		jq("gsub", `"abcabc" | gsub("b"; "X")`, `"aXcaXc"`),
		jq("gsub empty pattern", `"abc" | gsub(""; "-")`, `"-a-b-c-"`),
		jq("gsub of empty", `"" | gsub(""; "x")`, `"x"`),
		jq("code points", `"aéxbéy" | gsub("(?<c>é)"; "[\(.c)]")`, `"a[é]xb[é]y"`),
		jq("match offsets", `"aéxbéy" | [match("é(.)"; "g") | [.offset, .length, .captures[0].offset]]`, `[[1,2,2],[4,2,5]]`),
		jq("unmatched capture", `"aé" | [match("(é)(z)?") | .captures[] | .offset]`, `[1,-1]`),
		jq("several outputs", `"abcabc" | [gsub("b"; "1", "2")]`, `["a1ca1c","a2ca2c"]`),
		jq("uneven outputs", `"abab" | [gsub("(?<a>a)|b"; if .a then "A", "B" else "c" end)]`, `["AcAc","BB"]`),
		jq("no output", `"abcabc" | [gsub("b"; empty)]`, `["abcabc"]`),
		jq("null output", `"abcabc" | gsub("b"; null)`, `"acac"`),
		jq("number output", `"abcabc" | try gsub("b"; 1) catch .`, `"cannot add: string (\"a\") and number (1)"`),
		jq("no match", `"abc" | gsub("z"; "x")`, `"abc"`),
		jq("flags", `"abcABC" | gsub("b"; "x"; "i")`, `"axcAxC"`),
		jq("splits", `"héllo wörld" | [splits("ö|l")]`, `["hé","","o w","r","d"]`),
		jq("splits empty pattern", `"xy" | [splits("")]`, `["","x","y",""]`),
		jq("split", `"a,b, c" | split(", *"; null)`, `["a","b","c"]`),
		jq("scan", `"aéb" | [scan("(é)"), scan(".")]`, `[["é"],"a","é","b"]`),
		jq("not a string", `123 | try sub("a"; "b") catch .`, `"match(\"a\"; null) cannot be applied to: number (123)"`),
	})
}
