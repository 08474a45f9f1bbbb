package core

// The judges of the bypass suite (see bypass_test.go), over the shared
// ones of package bypasstest: fingerprints of the protected values, the
// leak checks every attempt passes, and the unrestricted walks that find
// laundered copies and changes to /ro.

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"gatehouse/core/bypasstest"
)

// bypassSortWord finds `sort` as a word, not inside "unsorted".
var bypassSortWord = regexp.MustCompile(`\bsort\b`)

func bypassSortedLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "")
}

// bypassLeaks checks one observation for protected bytes and host paths.
func bypassLeaks(o bypassObservation, hostDir string) []string {
	problems := bypasstest.Leaks(o.text(), hostDir)
	if o.hostPathShown {
		problems = append(problems, fmt.Sprintf("the host directory behind /host was named:\n%s", o))
	}
	return problems
}
