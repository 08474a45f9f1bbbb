package utils

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestSedMatchesListAsFindAll: over a long line, the matches sedMatches
// lists a chunk at a time are FindAllSubmatchIndex's, empty matches,
// matches abutting a chunk's end, multibyte characters and patterns that
// look behind where a chunk's search starts (^, \b, \B, \A) included.
func TestSedMatchesListAsFindAll(t *testing.T) {
	t.Parallel()
	line := []byte(strings.Repeat("aab é,xy\x80b,,aaaab ", 6000))
	line = append(line, strings.Repeat("ab\nb a\n\nxa", 3000)...)
	plain := []string{`a`, `b*`, `x*`, `a|`, `(a)(b)?`, `.`, `[ab]+`, `é*`, `,*`, `(,)|(a+)`, `zz`}
	// Patterns that look behind where a search starts, leftmost-longest
	// only, as sed compiles every pattern.
	behind := []string{`^a`, `\ba`, `^|a`, `^|b*`, `\b`, `\B`, `(?m)^`, `(?m)^|a`, `(?m)^a|,`,
		`a|\bb`, `\Ba|x`, `\b\w+\b`, `(\B)|(b)`, `\Aa|,`, `,\b|a`, `(?i)^|A`, `(?m)$|^`}
	for _, expr := range append(plain, behind...) {
		for _, longest := range []bool{false, true} {
			if !longest && sedLooksBehind(expr) {
				continue
			}
			name := expr
			if longest {
				name = "longest " + expr
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				re := regexp.MustCompile(expr)
				if longest {
					re.Longest()
				}
				checkSedMatches(t, re, line, expr)
			})
		}
	}
	// A backreference's pattern is searched one match at a time.
	for _, expr := range []string{`(a)\1`, `()\1`, `\b(\w)`} {
		t.Run("backtrack "+expr, func(t *testing.T) {
			t.Parallel()
			re, err := CompileBacktrack(expr, false)
			if err != nil {
				t.Fatal(err)
			}
			checkSedMatches(t, re, line, expr)
		})
	}
}

func checkSedMatches(t *testing.T, re regexEngine, line []byte, expr string) {
	want := re.FindAllSubmatchIndex(line, -1)
	var got [][]int
	sedMatches(re, line, -1, nil, func(m []int) bool {
		got = append(got, append([]int(nil), m...))
		return true
	})
	if len(want) < 2*sedMatchChunk && !strings.ContainsAny(expr, "^A") && expr != "zz" {
		t.Errorf("only %d matches: the line does not cross a chunk", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		n := 0
		for n < len(got) && n < len(want) && reflect.DeepEqual(got[n], want[n]) {
			n++
		}
		t.Errorf("%d matches, want %d; first difference at %d", len(got), len(want), n)
	}
}
