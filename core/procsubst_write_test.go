package core

import (
	"context"
	"strings"
	"testing"
)

// TestWriteSubstOutsideWordsNamesNothingInternal: a >(…) where it is not
// rewritten (a loop's list, [[ ]]) says where it is supported and never
// shows the session's internal command names (G-12.1).
func TestWriteSubstOutsideWordsNamesNothingInternal(t *testing.T) {
	t.Parallel()
	s := pathsTestWorkspace(t)
	for _, line := range []string{"for f in >(cat >/dev/null); do echo loop; done", "[[ -n >(cat) ]] && echo t"} {
		res := s.Execute(context.Background(), line)
		if strings.Contains(res.Stderr, "__gh") || !strings.Contains(res.Stderr, "process substitution for writing") || res.Stdout == "" {
			t.Errorf("%q: %+v", line, res)
		}
	}
}
