package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exec's default session is one per workspace document, profile and agent
// (G-2.1, G-11.4): a second document on the same ledger never resumes the
// first's session (no "unknown profile"), the same profile name in two
// documents is two sessions with their own cwd, and one document named from
// another directory is the same session.
func TestExecSessionsPerDocument(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	dir := t.TempDir()
	write := func(name, doc string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.yaml", `mounts: {/a: {files: {x: "a\n"}}, /b: {}}
profiles:
  default: alpha
  alpha: {cwd: /a}
  shared: {cwd: /a}
`)
	b := write("b.yaml", `mounts: {/b: {files: {y: "b\n"}}, /a: {}}
profiles:
  default: beta
  beta: {cwd: /b}
  shared: {cwd: /b}
`)
	steps := []struct {
		args   []string
		stdout string
	}{
		{[]string{"exec", "-w", a, "--", "cd /b && pwd"}, "/b\n"},
		{[]string{"exec", "-w", b, "--", "pwd"}, "/b\n"}, // its own default session, not alpha's
		{[]string{"exec", "-w", a, "-p", "shared", "--", "cd /b; pwd"}, "/b\n"},
		{[]string{"exec", "-w", b, "-p", "shared", "--", "pwd"}, "/b\n"}, // b's shared starts at its own cwd
		{[]string{"exec", "-w", b, "-p", "shared", "--", "cd /a; pwd"}, "/a\n"},
		{[]string{"exec", "-w", a, "-p", "shared", "--", "pwd"}, "/b\n"}, // a's shared kept its own cwd
		{[]string{"exec", "-w", a, "--", "pwd"}, "/b\n"},
		{[]string{"exec", "-w", a, "--agent", "other", "--", "pwd"}, "/a\n"}, // another agent, another session
	}
	for _, s := range steps {
		out, stderr, code := c.gatehouse(s.args...)
		if code != 0 || out != s.stdout {
			t.Fatalf("%v: exit %d stdout %q stderr %q; want %q", s.args, code, out, stderr, s.stdout)
		}
	}
	// The same document from another directory, spelled relatively.
	if out, stderr, code := c.gatehouseIn(dir, "exec", "-w", "a.yaml", "--", "pwd"); code != 0 || out != "/b\n" {
		t.Fatalf("relative spelling: %d %q %q", code, out, stderr)
	}
	// A session of another document, named outright, is refused.
	c.gatehouse("exec", "-w", a, "-s", "mine", "--", "true")
	_, stderr, code := c.gatehouse("exec", "-w", b, "-s", "mine", "--", "true")
	if code != 2 || !strings.Contains(stderr, "belongs to the workspace "+a) {
		t.Errorf("another document's session: %d %q", code, stderr)
	}
}
