package core

import (
	"context"
	"testing"

	"gatehouse/core/vfs"
)

// G-2.3: a session keeps its aliases from line to line, and, as bash expands
// an alias while it reads a line, an alias a line defines expands from the
// next line on — not later in the same line, but on the next line of the
// same call, as bash reads a script line by line.
func TestAliasTakesEffectOnTheNextLine(t *testing.T) {
	t.Parallel()
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"a": "1\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("aliases")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ line, stdout, stderr string }{
		{`shopt -s expand_aliases; alias x="echo hi"; x there`, "", "x: command not found\n"},
		{"alias y='echo why'\ny two", "why two\n", ""},
		{`x again; (x sub); echo $(x cmdsub); y three`, "hi again\nhi sub\nhi cmdsub\nwhy three\n", ""},
		{`unalias x; x still`, "hi still\n", ""},
		{`x gone`, "", "x: command not found\n"},
	} {
		res := s.Execute(context.Background(), c.line)
		if res.Stdout != c.stdout || res.Stderr != c.stderr {
			t.Errorf("%q: got stdout %q stderr %q, want %q %q", c.line, res.Stdout, res.Stderr, c.stdout, c.stderr)
		}
	}
}
