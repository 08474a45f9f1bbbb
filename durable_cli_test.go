package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Durable files through the CLI (G-5.6): what one exec writes, the next
// exec (another process) reads; an approved rm of a seeded file stays
// removed; a persist: false mount forgets; reset --mounts returns the
// seed; the same document named from another directory is the same
// workspace.
func TestExecFilesOutliveTheProcess(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	os.WriteFile(doc, []byte(`mounts:
  /runbook:
    files: {README.md: "Incident runbook\n", frozen/restore.md: "1. page the on-call\n"}
  /scratch: {persist: false}
profiles:
  responder:
    cwd: /runbook
    commands:
      allow: [cat, ls, echo, rm, cd]
      ask: [{reason: removal needs sign-off, command: rm}]
`), 0o644)
	exec := func(line string) (string, string, int) {
		return c.gatehouse("exec", "-w", doc, "-p", "responder", "--", line)
	}
	if _, stderr, code := exec("echo draft > notes.txt; echo s > /scratch/s"); code != 0 {
		t.Fatalf("write: %d %q", code, stderr)
	}
	if out, stderr, code := exec("cat notes.txt; ls /scratch"); code != 0 || out != "draft\n" {
		t.Fatalf("the next exec: %d %q %q", code, out, stderr)
	}
	_, stderr, code := exec("rm frozen/restore.md")
	m := askID.FindStringSubmatch(stderr)
	if code != 126 || m == nil {
		t.Fatalf("rm did not ask: %d %q", code, stderr)
	}
	if _, stderr, code := c.gatehouse("allow", m[1]); code != 0 {
		t.Fatalf("allow: %q", stderr)
	}
	if _, stderr, code := exec("rm frozen/restore.md"); code != 0 {
		t.Fatalf("approved rm: %d %q", code, stderr)
	}
	// Another directory, a relative spelling of the same document.
	rel, _ := filepath.Rel(filepath.Dir(dir), doc)
	cmd := []string{"exec", "-w", rel, "-p", "responder", "--", "ls frozen; cat notes.txt"}
	out, stderr, code := c.gatehouseIn(filepath.Dir(dir), cmd...)
	if code != 0 || out != "draft\n" {
		t.Fatalf("from another directory: %d %q %q", code, out, stderr)
	}
	out, stderr, code = c.gatehouse("reset", "--mounts", "-w", doc)
	if code != 0 || !strings.Contains(out, "reset /runbook") {
		t.Fatalf("reset: %d %q %q", code, out, stderr)
	}
	if out, _, code := exec("ls; cat frozen/restore.md"); code != 0 || out != "README.md\nfrozen\n1. page the on-call\n" {
		t.Fatalf("after reset: %d %q", code, out)
	}
	if _, stderr, code := c.gatehouse("reset", "-w", doc); code != 2 || !strings.Contains(stderr, "--mounts") {
		t.Errorf("reset without --mounts: %d %q", code, stderr)
	}
}
