package utils

import (
	"strings"
	"testing"
)

func TestBacktrack(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern, in string
		want        [][]int // all matches
		fold        bool
	}{
		{`(?<=id=)\d+`, "a id=42 b id=7", [][]int{{5, 7}, {13, 14}}, false},
		{`def \w+(?=\(self)`, "def f(self): def g(x)", [][]int{{0, 5}}, false},
		{`import(?! type)`, "import type x; import y", [][]int{{15, 21}}, false},
		{`(\w)\1`, "aa ab bb", [][]int{{0, 2}, {6, 8}}, false},
		{`"[^"]+?"`, `"a" "bc"`, [][]int{{0, 3}, {4, 8}}, false},
		{`a*?`, "aaa", nil, false},
		{`foo=\K\w+`, "foo=bar x", [][]int{{4, 7}}, false},
		{`(?i)abc`, "xAbC", [][]int{{1, 4}}, false},
		{`(?P<w>ab)(?P=w)?\k<w>`, "abab", [][]int{{0, 4}}, false},
		{`(?>a+)b`, "aaab", [][]int{{0, 4}}, false},
		{`a++a`, "aaaa", nil, false},
		{`^\s*#`, "  # c", [][]int{{0, 3}}, false},
		{`x{2,3}`, "xxxxxxx", [][]int{{0, 3}, {3, 6}}, false},
		{`[[:digit:]-]+`, "a1-2b", [][]int{{1, 4}}, false},
		{`(?<=ab|c)d`, "abd cd", [][]int{{2, 3}, {5, 6}}, false},
		{`\bcat\b`, "concat cat", [][]int{{7, 10}}, false},
		{`ABC`, "xabc", [][]int{{1, 4}}, true},
	}
	for _, c := range cases {
		re, err := CompileBacktrack(c.pattern, c.fold)
		if err != nil {
			t.Errorf("%s: %v", c.pattern, err)
			continue
		}
		var got [][]int
		for _, m := range re.FindAllIndex([]byte(c.in), -1) {
			if m[1] > m[0] {
				got = append(got, m)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%s on %q: got %v, want %v", c.pattern, c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i][0] != c.want[i][0] || got[i][1] != c.want[i][1] {
				t.Errorf("%s on %q: got %v, want %v", c.pattern, c.in, got, c.want)
				break
			}
		}
	}
}

func TestBacktrackErrors(t *testing.T) {
	t.Parallel()
	for pattern, want := range map[string]string{
		"(foo":         "missing closing parenthesis",
		"a)":           "unmatched closing parenthesis",
		"(?<=a+)b":     "lookbehind assertion is not fixed length",
		"[a":           "missing terminating ] for character class",
		"a{2,1}":       "numbers out of order in {} quantifier",
		`\`:            `\ at end of pattern`,
		`(?<x>a)\k<y>`: "reference to non-existent subpattern",
		"a**":          "quantifier does not follow a repeatable item",
		`(a)\2`:        "reference to non-existent subpattern",
	} {
		if _, err := CompileBacktrack(pattern, false); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", pattern, err, want)
		}
	}
}

// Catastrophic patterns and long lines end within the step and depth
// limits instead of hanging the line or exhausting the stack. Under -race
// or -short the step limit is lowered a hundredfold: running out of steps
// works the same, and ten million of them under the race detector take
// seconds, a minute on a loaded machine. The depth limit is kept: the
// stack it allows is the point.
func TestBacktrackLimits(t *testing.T) {
	t.Parallel()
	re, _ := CompileBacktrack(`(a+)+$`, false)
	if re.stepLimit != btStepLimit {
		t.Fatalf("a compiled pattern's step limit is %d, want %d", re.stepLimit, btStepLimit)
	}
	if raceDetector || testing.Short() {
		re.stepLimit = btStepLimit / 100
	}
	if re.Match([]byte(strings.Repeat("a", 40) + "!")) {
		t.Error("(a+)+$ matched")
	}
	if !re.Exceeded() {
		t.Error("(a+)+$ did not hit the step limit")
	}
	long, _ := CompileBacktrack(`(?:ab)*c`, false)
	long.Match([]byte(strings.Repeat("ab", 1<<20) + "c"))
	if !long.Exceeded() {
		t.Error("a million nested repetitions did not hit the depth limit")
	}
	fast, _ := CompileBacktrack(`x*y`, false)
	if !fast.Match([]byte(strings.Repeat("x", 1<<20) + "y")) {
		t.Error("a one-byte repeat over a megabyte failed")
	}
}
