package shell

import (
	"context"
	"errors"
	"strconv"
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

// TestAliasRereadIsBounded: an alias a function defines applies from the
// next line the run reads, which reads the rest of the line again; a line
// whose run changes the aliases before each of its 5,000 lines is read
// again a bounded number of times and bytes, not 5,000 times its length
// (G-2.3, G-12.3).
func TestAliasRereadIsBounded(t *testing.T) {
	sh := fdShell(t)
	text := strings.Repeat("f; b1\n", 5000)
	f, rd, err := sh.readText(text, aliasTable{on: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	live := func() aliasTable {
		n++
		return aliasTable{on: true, m: map[string]string{"b1": "true", "a" + strconv.Itoa(n): "x"}}
	}
	stmts, ran := f.Stmts, 1
	for i := 1; i < len(stmts); i++ {
		if rest, ok := rd.readAgain(stmts[i], live); ok {
			stmts, i = rest, 0
		}
		ran++
	}
	if ran != 10000 || rd.rereads > maxRereads || rd.rereadBytes > maxRereadBytes+len(text) {
		t.Fatalf("%d statements, read again %d times, %d bytes", ran, rd.rereads, rd.rereadBytes)
	}
	if rd.rereads < 10 {
		t.Fatalf("read again %d times", rd.rereads)
	}
}

// TestAliasDefinedByAFunction: an alias a function defines applies from
// the line after the one that called it, in a session's line and in a
// sourced file, as bash reads them (G-2.3).
func TestAliasDefinedByAFunction(t *testing.T) {
	sh := fdShell(t)
	res := sh.Run(context.Background(), "g() { alias c='echo cee'; }; g; c same 2>/dev/null; echo st=$?\nc next")
	if res.Stdout != "st=127\ncee next\n" {
		t.Fatalf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
	res = sh.Run(context.Background(), "printf 'h() { unalias c; }\\nh\\nc gone\\n' > lib.sh; . ./lib.sh 2>/dev/null; echo st=$?")
	if res.Stdout != "st=127\n" {
		t.Fatalf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
}
