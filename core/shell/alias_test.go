package shell

import (
	"errors"
	"strings"
	"testing"
)

// TestAliasExpansionIsBounded: a line using an alias thousands of times is
// expanded in a few rounds (every word of a complete command at once, each
// round one pass over the text), and a table built to grow a line
// exponentially stops at the bound instead of holding the session (G-2.3,
// G-12.3).
func TestAliasExpansionIsBounded(t *testing.T) {
	t.Parallel()
	tbl := aliasTable{on: true, m: map[string]string{"a": "echo x"}}
	src := strings.Repeat("a; ", 5000) + "\n" + strings.Repeat("a\n", 5000)
	out, err := expandAliasText(src, tbl)
	if err != nil || strings.Count(out, "echo x") != 10000 {
		t.Fatalf("err %v, %d expansions", err, strings.Count(out, "echo x"))
	}
	grow := aliasTable{on: true, m: map[string]string{}}
	names := "abcdefghijklmnopqrstuvwxyz"
	for i := 0; i+1 < len(names); i++ {
		grow.m[names[i:i+1]] = names[i+1:i+2] + "; " + names[i+1:i+2]
	}
	if _, err := expandAliasText("a", grow); !errors.Is(err, errAliasBound) {
		t.Fatalf("an exponential table: %v, want the bound", err)
	}
}
