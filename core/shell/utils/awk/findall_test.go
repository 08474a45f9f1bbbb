package awk

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// findAll, searching a long string a growing number of matches at a time,
// finds exactly what one FindAll call finds, empty matches included.
func TestFindAllMatchesOneSearch(t *testing.T) {
	subjects := []string{
		strings.Repeat("a", 4500),
		strings.Repeat("ab", 2500),
		strings.Repeat("abc ", 1100) + "xyz",
		strings.Repeat("é", 1100) + strings.Repeat("a", 2100),
		strings.Repeat("aab", 1400) + strings.Repeat("b", 101),
	}
	for _, expr := range []string{"a", "x*", "b*", "a*b|a", "(a)(b)?", "a|ab", "[ab]+", "b$", "c ", "é*", "a{2}", "(ab|a)*"} {
		re := regexp.MustCompile(expr)
		re.Longest()
		for i, s := range subjects {
			for _, groups := range []bool{false, true} {
				want := re.FindAllStringIndex(s, -1)
				if groups {
					want = re.FindAllStringSubmatchIndex(s, -1)
				}
				calls := 0
				got := findAll(re, s, groups, func() { calls++ })
				if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
					t.Errorf("%q on subject %d (groups %v): %d matches, want %d%s", expr, i, groups, len(got), len(want), firstDiff(got, want))
				}
				if len(want) > 100 && calls < 2 {
					t.Errorf("%q on subject %d: searched in %d call(s)", expr, i, calls)
				}
			}
		}
	}
}

func firstDiff(got, want [][]int) string {
	for i := range min(len(got), len(want)) {
		if !slices.Equal(got[i], want[i]) {
			return fmt.Sprintf("; #%d is %v, want %v", i, got[i], want[i])
		}
	}
	return ""
}
