package core

import "testing"

// G-9.3, G-3.5: preflight reads `bash … -c S` the way bash reads its own
// options, so the literal S is judged before anything of the line runs,
// whatever options come first; and options that take a word (--rcfile
// FILE, -o NAME) never make that word the script.
func TestPreflightReadsBashOptions(t *testing.T) {
	t.Parallel()
	asked := lineCase{wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"}
	cases := []lineCase{}
	for _, line := range []string{
		"echo before; bash -c 'rm README.md'",
		"echo before; bash --norc -c 'rm README.md'",
		"echo before; bash --noprofile --norc -c 'rm README.md'",
		"echo before; bash --rcfile /dev/null -c 'rm README.md'",
		"echo before; bash -o pipefail -c 'rm README.md'",
		"echo before; bash -eo pipefail -c 'rm README.md'",
		"echo before; bash -c -e 'rm README.md'",
		"echo before; bash -ec 'rm README.md'",
		"echo before; sh -c 'rm README.md' name arg",
	} {
		c := asked
		c.name, c.line = line, line
		cases = append(cases, c)
	}
	cases = append(cases,
		// Not a script: the word after --rcfile or -o is an option's.
		lineCase{name: "rcfile's word is not a script", line: "bash --rcfile 'rm README.md' -c 'echo ran'", wantOut: "ran\n"},
		lineCase{name: "-o's word is not a script", line: "bash -o 'rm README.md' -c 'echo ran' 2>/dev/null; echo $?", wantOut: "ran\n0\n"},
		lineCase{name: "the script's operands", line: "bash --norc -c 'echo $0 $1 $2' a b c", wantOut: "a b c\n"},
		lineCase{name: "an option bash does not have", line: "bash --nosuch -c 'echo ran' 2>&1 | head -1", wantOut: "bash: --nosuch: invalid option\n"},
		lineCase{name: "an option bash does not have exits 2", line: "bash --nosuch -c 'echo ran' 2>/dev/null; echo $?", wantOut: "2\n"},
		lineCase{name: "--rcfile without its word", line: "bash --rcfile", wantErr: "bash: rcfile: option requires an argument\n", wantExit: 2},
	)
	runCases(t, cases)
}
