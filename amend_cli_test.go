package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `gatehouse allow ID --amend`, run from another directory and naming no
// document, amends the document the ask's session was opened from, prints
// the change, and allows the ask: the asked line (a redirection into a
// path that asks) then runs, in this exec process and the next; deny
// takes no --amend.
func TestAllowAmendFromAnotherDirectory(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	os.WriteFile(doc, []byte(`# incident workspace
mounts:
  /runbook:
    files: {frozen/restore.md: "1. page\n"}
profiles:
  responder:
    cwd: /runbook
    commands:
      allow: [echo, cat]
      ask:
        - {reason: frozen needs sign-off, paths: [/runbook/frozen/*]}
`), 0o644)
	exec := func(line string) (string, string, int) {
		return c.gatehouseIn(dir, "exec", "-w", "workspace.yaml", "-p", "responder", "--", line)
	}
	_, stderr, code := exec("echo x > frozen/restore.md")
	m := askID.FindStringSubmatch(stderr)
	if code != 126 || m == nil {
		t.Fatalf("the redirection did not ask: %d %q", code, stderr)
	}
	out, stderr, code := c.gatehouseIn(t.TempDir(), "allow", m[1], "--amend")
	want := "except: [{command: echo x, cwd: /runbook, paths: [/runbook/frozen/restore.md]}]"
	if code != 0 || !strings.Contains(out, "+        - {reason: frozen needs sign-off, paths: [/runbook/frozen/*], "+want) || !strings.Contains(out, m[1]+" allow once") {
		t.Fatalf("allow --amend: %d %q %q", code, out, stderr)
	}
	data, _ := os.ReadFile(doc)
	if !strings.Contains(string(data), want) || !strings.HasPrefix(string(data), "# incident workspace\n") {
		t.Fatalf("document:\n%s", data)
	}
	for range 2 { // the allowed retry, then the exception in a new process
		if _, stderr, code := exec("echo x > frozen/restore.md"); code != 0 {
			t.Fatalf("after the amendment: %d %q", code, stderr)
		}
	}
	if _, _, code := exec("echo x > frozen/other.md"); code != 126 {
		t.Fatalf("another path: exit %d, want an ask", code)
	}
	if _, stderr, code := c.gatehouse("deny", m[1], "--amend"); code != 2 || !strings.Contains(stderr, "--amend") {
		t.Fatalf("deny --amend: %d %q", code, stderr)
	}
}
