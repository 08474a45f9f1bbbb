package utils

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestSedMatchesListAsFindAll: over a long line, the matches sedMatches
// lists a chunk at a time are FindAllSubmatchIndex's, empty matches,
// matches abutting a chunk's end and multibyte characters included.
func TestSedMatchesListAsFindAll(t *testing.T) {
	t.Parallel()
	line := []byte(strings.Repeat("aab é,xy\x80b,,aaaab ", 6000))
	for _, expr := range []string{`a`, `b*`, `x*`, `a|`, `(a)(b)?`, `.`, `[ab]+`, `é*`, `,*`, `(,)|(a+)`, `zz`, `^a`, `\ba`} {
		t.Run(expr, func(t *testing.T) {
			t.Parallel()
			re := regexp.MustCompile(expr)
			want := re.FindAllSubmatchIndex(line, -1)
			var got [][]int
			sedMatches(re, line, -1, func(m []int) bool {
				got = append(got, append([]int(nil), m...))
				return true
			})
			if len(want) < 2*sedMatchChunk && !sedLooksBehind(expr) && expr != "zz" {
				t.Errorf("only %d matches: the line does not cross a chunk", len(want))
			}
			if !reflect.DeepEqual(got, want) {
				n := 0
				for n < len(got) && n < len(want) && reflect.DeepEqual(got[n], want[n]) {
					n++
				}
				t.Errorf("%d matches, want %d; first difference at %d", len(got), len(want), n)
			}
		})
	}
}
