package core

import (
	"context"
	"strings"
	"testing"
	"time"

	"gatehouse/core/vfs"
)

// nested builds open×n + middle + close×n.
func nested(open, middle, close string, n int) string {
	return strings.Repeat(open, n) + middle + strings.Repeat(close, n)
}

// G-12.3: lines nested tens of thousands deep would exhaust the goroutine
// stack (a fatal error no recover catches) in the parser, the preflight
// walk, the expander or the interpreter. Each is refused before any
// recursion with bash's voice and exit 2, and the session runs the next
// line. The depths used here crashed the process before the bound.
func TestBypassDeepNestingIsRefused(t *testing.T) {
	t.Parallel()
	const deep = 200000
	parseLimit := "bash: line 1: nesting too deep (limit 1000)\n"
	arithLimit := "expression recursion level exceeded"
	cases := []struct {
		name, line, stderr string
		code               int
	}{
		{"subshells", nested("( ", "echo x", " )", deep), parseLimit, 2},
		{"blocks", nested("{ ", "echo x;", " }", deep), parseLimit, 2},
		{"command substitutions", "echo " + nested("$(", "echo x", ")", deep), parseLimit, 2},
		{"quoted substitutions", "echo " + nested(`"$(echo `, "x", `)"`, deep), parseLimit, 2},
		{"if", nested("if true; then ", "echo x", "; fi", deep), parseLimit, 2},
		{"elif chain", "if false; then :; " + strings.Repeat("elif false; then :; ", deep) + "fi", parseLimit, 2},
		{"while", nested("while false; do ", "echo x", "; done", deep), parseLimit, 2},
		{"for", nested("for i in 1; do ", "echo x", "; done", deep), parseLimit, 2},
		{"case", nested("case x in x) ", "echo x", ";; esac", deep), parseLimit, 2},
		{"functions in functions", nested("f() { ", "echo x;", " }", deep), parseLimit, 2},
		// Arithmetic is parsed when it runs, as in bash: a deep
		// expression is an error of that line (status 1), a long
		// left-associative chain is evaluated in a loop.
		{"arithmetic parentheses", "echo $(( " + nested("( ", "1", " )", deep) + " ))", arithLimit, 1},
		{"arithmetic operator chain", "echo $(( " + strings.Repeat("1+", deep) + "1 ))", "", 0},
		{"arithmetic unary chain", "echo $(( " + strings.Repeat("- ", deep) + "1 ))", arithLimit, 1},
		{"arithmetic ternaries", "echo $(( " + strings.Repeat("1?1:", deep) + "1 ))", arithLimit, 1},
		{"arithmetic assignments", "(( " + strings.Repeat("a=", deep) + "1 ))", arithLimit, 1},
		{"arithmetic power chain", "echo $(( " + strings.Repeat("1**", deep) + "1 ))", arithLimit, 1},
		{"arithmetic command", "(( " + nested("(", "1", ")", deep) + " ))", arithLimit, 1},
		{"arithmetic in a variable's value", "x='(x)'; echo $(( x ))", arithLimit, 1},
		{"arithmetic values within values", "x='" + nested("(", "x", ")", 900) + "'; echo $(( x ))", arithLimit, 1},
		{"parameter expansions", "echo " + nested("${a:-", "x", "}", deep), parseLimit, 2},
		{"test expression parentheses", "[[ " + nested("( ", "a", " )", deep) + " ]]", parseLimit, 2},
		{"test expression negations", "[[ " + strings.Repeat("! ", deep) + "a ]]", parseLimit, 2},
		{"test expression chain", "[[ a" + strings.Repeat(" && a", deep) + " ]]", parseLimit, 2},
		{"and-or chain", "true" + strings.Repeat(" && true", deep), parseLimit, 2},
		{"pipeline", "true" + strings.Repeat(" | true", deep), parseLimit, 2},
		{"here-documents in substitutions", "cat " + nested("<<E $(cat ", "/dev/null", ")\nx\nE\n", 2000), parseLimit, 2},
		{"process substitutions", "cat " + nested("<(cat ", "/dev/null", ")", deep), parseLimit, 2},
		{"nested braces", "echo " + nested("{a,", "b", "}", deep), "bash: brace expansion: too many braces in one word (limit 128)\n", 2},
		{"braces side by side", "echo " + strings.Repeat("{a,b}", deep), "bash: brace expansion: too many braces in one word (limit 128)\n", 2},
		{"eval of a deep text", `x="` + nested("( ", "echo x", " )", 5000) + `"; eval "$x"; echo status $?`, "bash: eval: line 1: nesting too deep (limit 1000)\n", 0},
		{"builtin eval of a deep text", `x="` + nested("( ", "echo x", " )", 5000) + `"; builtin eval "$x"; echo status $?`, "bash: eval: line 1: nesting too deep (limit 1000)\n", 0},
		{"bash -c of a deep text", `x="` + nested("( ", "echo x", " )", 5000) + `"; bash -c "$x"; echo status $?`, "bash: -c: line 1: nesting too deep (limit 1000)\n", 0},
		{"sourced deep text", `printf '%s' "` + nested("{ ", "echo x;", " }", 5000) + `" > /tmp/deep; source /tmp/deep; echo status $?`, "bash: eval: line 1: nesting too deep (limit 1000)\n", 0},
		// Each eval stays under the parse bound; together they nest
		// deeper than the interpreter's run-time bound.
		{"eval recursion through deep texts", "x='" + nested("( ", `eval "$x"`, " )", 990) + `'; eval "$x"`, "bash: nesting too deep (limit 10000)\n", 2},
		{"function recursion through deep bodies", "x='f() { " + nested("{ ", "f;", " }", 990) + "; }'; eval \"$x\"; f", "environment: line 1: nesting too deep (limit 10000)\n", 2},
		{"bash -c recursion through deep texts", "export x='" + nested("{ ", `bash -c "$x";`, " }", 990) + `'; bash -c "$x"`, "bash: nesting too deep (limit 10000)\n", 2},
		{"builtin eval recursion", `x='builtin eval "$x"'; builtin eval "$x"`, "gatehouse: line exceeded the nesting depth limit of 100\n", 125},
		{"command eval recursion", `x='command eval "$x"'; command eval "$x"`, "gatehouse: line exceeded the nesting depth limit of 100\n", 125},
		{"substitution recursion", `f() { echo $(f); }; f`, "gatehouse: line exceeded the nesting depth limit of 100\n", 125},
	}
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"a": "1\n"}}},
		WithLimits(Limits{WallTime: 30 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := ws.CreateSession("deep")
			if err != nil {
				t.Fatal(err)
			}
			res := s.Execute(context.Background(), tc.line)
			stderrOK := strings.HasPrefix(res.Stderr, tc.stderr)
			if tc.stderr == arithLimit {
				stderrOK = strings.Contains(res.Stderr, arithLimit)
			}
			if res.ExitCode != tc.code || !stderrOK {
				t.Errorf("exit %d stderr %q, want %d and %q", res.ExitCode, tail(res.Stderr), tc.code, tc.stderr)
			}
			if strings.Contains(res.Stdout, "x\n") {
				t.Errorf("the deep body ran: %q", tail(res.Stdout))
			}
			if _, err := s.Explain(tc.line); err == nil && strings.HasPrefix(tc.stderr, "bash: line 1:") {
				t.Errorf("explain took a line the parser refuses")
			}
			if next := s.Execute(context.Background(), "echo alive; cat /w/a"); next.Stdout != "alive\n1\n" {
				t.Errorf("the session did not survive: %+v", next)
			}
		})
	}
}

// G-12.3: what stays within the bounds still runs as in bash.
func TestNestingWithinBoundsRuns(t *testing.T) {
	t.Parallel()
	cases := []struct{ line, want string }{
		{nested("( ", "echo x", " )", 400), "x\n"},
		{"echo " + nested("$(echo ", "x", ")", 300), "x\n"},
		{"echo $(( " + nested("(", "1", ")", 900) + " ))", "1\n"},
		{"echo $(( " + strings.Repeat("- ", 900) + "1 ))", "1\n"},
		{"echo $(( " + strings.Repeat("1+", 300) + "1 ))", "301\n"},
		{"true" + strings.Repeat(" | true", 300) + "; echo ok", "ok\n"},
		{"echo " + strings.Repeat("{a,b}", 3) + " | wc -w", "8\n"},
		{"shopt -s extglob; [[ ab == " + nested("@(a|", "b", ")", 3) + "b ]] && echo match", "match\n"},
		{"f() { if (( $1 > 0 )); then f $(( $1 - 1 )); else echo bottom; fi; }; f 90", "bottom\n"},
	}
	s := limitsWorkspace(t, Limits{})
	for _, tc := range cases {
		res := s.Execute(context.Background(), tc.line)
		if res.Stdout != tc.want || res.ExitCode != 0 {
			t.Errorf("%.60s…: %+v", tc.line, res)
		}
	}
}

// G-12.3: patterns the regexp engine would refuse or choke on (nested too
// deep, or too long) fail like a malformed pattern, without a panic or a
// minute of compiling.
func TestBypassHugePatterns(t *testing.T) {
	t.Parallel()
	s := limitsWorkspace(t, Limits{WallTime: 20 * time.Second})
	long := strings.Repeat("?", 3000000)
	cases := []struct{ line, want string }{
		// An extended glob's list is parsed as part of its word, so the
		// parser's nesting bound refuses this one before it runs.
		{"shopt -s extglob; [[ x == " + nested("@(a|", "b", ")", 100000) + " ]]; echo $?", ""},
		{"shopt -s extglob; x=abc; echo ${x#" + nested("@(a|", "b", ")", 1500) + "}", "abc\n"},
		{"x=abc; echo ${x#" + long + "}", "abc\n"},
		{"x=abc; echo ${x/" + long + "/y}", "abc\n"},
		{"case x in " + long + ") echo y;; *) echo n;; esac", "n\n"},
		{"[[ x =~ " + nested("(", "x", ")", 2000) + " ]]; echo $?", "2\n"},
		{"[[ x =~ x" + strings.Repeat("x", 100000) + " ]]; echo $?", "2\n"},
	}
	for _, tc := range cases {
		start := time.Now()
		res := s.Execute(context.Background(), tc.line)
		if res.Stdout != tc.want {
			t.Errorf("%.60s…: %+v", tc.line, res)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%.60s… took %v", tc.line, d)
		}
	}
}

// G-12.3: the argument and program parsers of utilities recurse too: test
// and [ (builtin and utility), find's expression, jq's program and jq's
// JSON input each bound their nesting and fail in their own voice.
func TestBypassDeepUtilityExpressions(t *testing.T) {
	t.Parallel()
	n := "100000"
	if testing.Short() {
		n = "5000" // still five times the bound; the race detector slows sed and seq
	}
	words := func(w string) string { return `set -- $(seq ` + n + ` | sed "s/.*/` + w + `/"); ` }
	cases := []struct{ name, line, stderr, stdout string }{
		{"test parentheses", words("(") + `[ "$@" ]; echo $?`, "expression nested too deeply (limit 1000)\n", "2\n"},
		{"test negations", words("!") + `test "$@" x; echo $?`, "expression nested too deeply (limit 1000)\n", "2\n"},
		{"test -a chain", words("x -a") + `[ "$@" x ]; echo $?`, "expression nested too deeply (limit 1000)\n", "2\n"},
		{"test utility", words("(") + `env test "$@"; echo $?`, "test: expression nested too deeply (limit 1000)\n", "2\n"},
		{"find negations", words("!") + `find /w "$@"; echo $?`, "find: expression nested too deeply (limit 1000)\n", "1\n"},
		{"find parentheses", words("(") + `find /w "$@"; echo $?`, "find: expression nested too deeply (limit 1000)\n", "1\n"},
		{"find and chain", words("-true") + `find /w "$@"; echo $?`, "find: expression nested too deeply (limit 1000)\n", "1\n"},
		{"jq operator chain", `x=$(seq ` + n + ` | sed "s/.*/1+/" | tr -d "\n")1; jq -n "$x"; echo $?`, "jq: error: program nested too deeply\njq: 1 compile error\n", "3\n"},
		{"jq parentheses", `x=$(seq ` + n + ` | sed "s/.*/(/" | tr -d "\n")1$(seq ` + n + ` | sed "s/.*/)/" | tr -d "\n"); jq -n "$x"; echo $?`, "jq: error: program nested too deeply\njq: 1 compile error\n", "3\n"},
		{"jq arrays in the program", `x=$(seq ` + n + ` | sed "s/.*/[/" | tr -d "\n")1$(seq ` + n + ` | sed "s/.*/]/" | tr -d "\n"); jq -n "$x" | wc -c; echo $?`, "jq: error: program nested too deeply\njq: 1 compile error\n", "0\n0\n"},
		{"jq input", `seq ` + n + ` | sed "s/.*/[/" | tr -d "\n" | jq .; echo $?`, "parse error: Exceeds depth limit for parsing", ""},
		// bc's parser, its trees and its function calls recursed without
		// a bound: each of these ended the process (stack overflow).
		{"bc parentheses", `seq ` + n + ` | sed "s/.*/(/" | tr -d "\n" | bc; echo done`, ": nesting too deep (limit 2000)\n", "done\n"},
		{"bc negations", `seq ` + n + ` | sed "s/.*/!/" | tr -d "\n" | bc; echo done`, ": nesting too deep (limit 2000)\n", "done\n"},
		{"bc blocks", `(seq ` + n + ` | sed "s/.*/{/" | tr -d "\n"; echo 1) | bc; echo done`, ": nesting too deep (limit 2000)\n", "done\n"},
		{"bc operator chain", `(seq ` + n + ` | sed "s/.*/1+/" | tr -d "\n"; echo 1) | bc; echo done`, ": nesting too deep (limit 2000)\n", "done\n"},
		{"bc powers", `(seq ` + n + ` | sed "s/.*/2^/" | tr -d "\n"; echo 1) | bc; echo done`, ": nesting too deep (limit 2000)\n", "done\n"},
		{"bc recursion", `echo 'define f(n) { return f(n+1); }; f(1)' | bc; echo done`, "function calls nested too deep (limit 10000)\n", "done\n"},
	}
	s := limitsWorkspace(t, Limits{WallTime: 30 * time.Second})
	for _, tc := range cases {
		res := s.Execute(context.Background(), tc.line)
		if !strings.Contains(res.Stderr, tc.stderr) || (tc.stdout != "" && res.Stdout != tc.stdout) || res.Stdout == "0\n" {
			t.Errorf("%s: stdout %q stderr %q, want %q and %q", tc.name, res.Stdout, tail(res.Stderr), tc.stdout, tc.stderr)
		}
	}
}

// G-12.3: a jq program builds values of any depth ([.] in a reduce) and
// shares arrays without copying them (each [., ., …] below holds the one
// before eight times: 40 arrays, 8^40 numbers walked deep-first). gojq's
// builtins written in Go (comparisons, tojson, flatten, setpath, …) and
// the printer walked them by recursion: a value millions deep overflowed
// the goroutine's stack and ended the process, a shared one ran on after
// the line's end, holding gigabytes nothing charged.
func TestBypassJqValuesTheProgramBuilt(t *testing.T) {
	t.Parallel()
	deep := "4500000" // past what the encoder's and Compare's frames fit in 1 GB of stack
	if testing.Short() {
		deep = "20000"
	}
	const shared = `reduce range(40) as $i (0; [., ., ., ., ., ., ., .])`
	cases := []struct{ name, line, stdout, stderr string }{
		{"deep compare", `jq -n 'reduce range(` + deep + `) as $i (null; [.]) | . == [.[0]]'; echo $?`,
			"5\n", "==: value nested deeper than 10000 levels"},
		{"deep tojson", `jq -n 'reduce range(` + deep + `) as $i (null; [.]) | tojson | length'`, "543\n", ""},
		// jq prints a value inside more than 256 arrays or objects as
		// <stripped: exceeds max depth>: 257 brackets each side.
		{"deep print", `jq -c -n 'reduce range(` + deep + `) as $i (1; [.])' | wc -c`, "544\n", ""},
		{"deep pretty print", `jq -n 'reduce range(300000) as $i (null; [.])' | wc -c`, "133156\n", ""},
		{"long setpath", `jq -n 'setpath([range(20000) | 0]; 1) | length'; echo $?`, "5\n", "setpath: value nested deeper than 10000 levels"},
		{"shared compare", `jq -n '` + shared + ` | [.] == [.]'; echo $?`, "5\n", "==: value of more than 33554432 parts"},
		{"shared tojson", `jq -n '` + shared + ` | tojson | length'; echo $?`, "5\n", "tojson: value of more than 33554432 parts"},
		{"shared flatten", `jq -n '` + shared + ` | flatten | length'; echo $?`, "5\n", "flatten: value of more than 33554432 parts"},
		{"shared sort", `jq -n '[` + shared + `, 1] | sort | length'; echo $?`, "5\n", "sort: value of more than 33554432 parts"},
		// math/big multiplies (and prints) in one call nothing stops:
		// 2^(2^30) ran on for minutes after its line.
		{"big product", `jq -n 'reduce range(30) as $i (2; . * .) | tostring | length'; echo $?`, "5\n", "*: integer of more than 4194304 bits"},
		// contains, inside and indices compare each part of one value
		// with each of the other's, in one call.
		{"huge inside", `jq -n '[range(1e6)] | inside([range(1e6)])'; echo $?`, "5\n", "inside: values too large to look for one inside the other (more than 1073741824 pairs of parts)"},
		{"inside that fits", `jq -n '[range(1000)] | inside([range(2000)])'`, "true\n", ""},
		{"big product that fits", `jq -n 'reduce range(20) as $i (2; . * .) | tostring | length'`, "315653\n", ""},
		{"shared print", `jq -c -n '` + shared + `' | head -c 40; echo`, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n", ""},
	}
	s := limitsWorkspace(t, Limits{WallTime: 30 * time.Second})
	for _, tc := range cases {
		start := time.Now()
		res := s.Execute(context.Background(), tc.line)
		if res.Stdout != tc.stdout || !strings.Contains(res.Stderr, tc.stderr) || tc.stderr == "" && res.Stderr != "" {
			t.Errorf("%s: stdout %q stderr %q, want %q and %q", tc.name, res.Stdout, tail(res.Stderr), tc.stdout, tc.stderr)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s took %v", tc.name, d)
		}
	}
}

// G-12.3: expr converts an integer to compute with it in time quadratic in
// its digits: a number of two million digits took tens of seconds in one
// call no context stops (ten million, minutes past the line's end). Past
// 131,072 digits (what one argument of GNU's expr can hold) arithmetic is
// out of range; truth and comparisons read the digits without converting.
func TestExprHugeIntegersArePrompt(t *testing.T) {
	t.Parallel()
	const x = `x=$(printf '%*s' 2000000 '' | tr ' ' 9); `
	cases := []struct{ line, stdout, stderr string }{
		{x + `expr $x + 1; echo $?`, "3\n", "expr: +: Numerical result out of range\n"},
		{x + `expr 1 \* $x; echo $?`, "3\n", "expr: *: Numerical result out of range\n"},
		{x + `expr $x | wc -c; expr $x \< 1$x; expr -$x \< -1$x; expr 0$x = $x`, "2000001\n1\n0\n1\n", ""},
		{`y=$(printf '%*s' 70000 '' | tr ' ' 9); expr $y \* $y | wc -c`, "0\n", "expr: *: Numerical result out of range\n"},
		{`y=$(printf '%*s' 60000 '' | tr ' ' 9); expr $y \* $y | wc -c`, "120001\n", ""},
	}
	s := limitsWorkspace(t, Limits{WallTime: 30 * time.Second})
	for _, tc := range cases {
		start := time.Now()
		res := s.Execute(context.Background(), tc.line)
		if res.Stdout != tc.stdout || res.Stderr != tc.stderr {
			t.Errorf("%s: stdout %q stderr %q, want %q and %q", tc.line, res.Stdout, tail(res.Stderr), tc.stdout, tc.stderr)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s took %v", tc.line, d)
		}
	}
}

// G-12.3: braces that fall back to literal text were copied into the
// enclosing brace's parts at each level: a word of 30,000 unclosed '{'
// (or 30,000 around one letter) copied hundreds of millions of parts,
// gigabytes nothing charged, and ran on after its line (mvdan-sh patch
// 160). The text is bash's, as before.
func TestBypassUnclosedBraces(t *testing.T) {
	t.Parallel()
	s := limitsWorkspace(t, Limits{WallTime: 15 * time.Second})
	cases := []struct{ line, want string }{
		{`x=$(head -c 30000 /dev/zero | tr '\0' '{'); eval "echo $x" | wc -c`, "30001\n"},
		{`x=$(head -c 30000 /dev/zero | tr '\0' '{')a$(head -c 30000 /dev/zero | tr '\0' '}'); eval "echo $x" | wc -c`, "60002\n"},
		{`echo {a,b}{{c,d}} {x} {1..3} {a..c..2} {1..2,3} x{y{z,w}} {{a,b},c}d {a,{b,c}`,
			"a{c} a{d} b{c} b{d} {x} 1 2 3 a c 1..2 3 x{yz} x{yw} ad bd cd {a,b {a,c\n"},
	}
	for _, tc := range cases {
		start := time.Now()
		res := s.Execute(context.Background(), tc.line)
		if res.Stdout != tc.want || res.ExitCode != 0 {
			t.Errorf("%.50s…: %q %q exit %d, want %q", tc.line, res.Stdout, tail(res.Stderr), res.ExitCode, tc.want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%.50s… took %v", tc.line, d)
		}
	}
}
