package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The human's note reaches the agent through the CLI (G-9.5): a deny with
// a note, given from another process, is what the agent's retry reads on
// stderr after the refusal line, and in the --json refusal record.
func TestExecDenyNoteAcrossProcesses(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	exec := []string{"exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md"}
	_, stderr, code := c.gatehouse(exec...)
	m := askID.FindStringSubmatch(stderr)
	if code != 126 || m == nil {
		t.Fatalf("first exec: %d %q", code, stderr)
	}
	if out, stderr, code := c.gatehouse("deny", m[1], "--note", "use the staging copy"); code != 0 || !strings.Contains(out, "note: use the staging copy") {
		t.Fatalf("deny: %d %q %q", code, out, stderr)
	}
	_, stderr, code = c.gatehouse(exec...)
	want := "rm: Permission denied\ndenied by a reviewer (ask " + m[1] + ")\nnote from reviewer: use the staging copy\n"
	if code != 126 || stderr != want {
		t.Fatalf("retry: %d %q, want %q", code, stderr, want)
	}

	// The deny is used up; ask again, deny again, read the record as JSON.
	_, stderr, _ = c.gatehouse(exec...)
	m = askID.FindStringSubmatch(stderr)
	c.gatehouse("deny", m[1], "--note", "not today")
	out, _, code := c.gatehouse(append([]string{"exec", "--json"}, exec[1:]...)...)
	var res struct {
		Refusal struct{ Kind, Note, AskID string } `json:"refusal"`
	}
	if code != 126 || json.Unmarshal([]byte(out), &res) != nil || res.Refusal.Kind != "deny" || res.Refusal.Note != "not today" {
		t.Fatalf("--json: %d %s", code, out)
	}

	// A rule's own deny reason is said too.
	_, stderr, code = c.gatehouse("exec", "-w", permissions, "-p", "intern", "--", "rm", "README.md")
	if code != 126 || stderr != "rm: Permission denied\ndenied: interns do not delete\n" {
		t.Errorf("rule deny: %d %q", code, stderr)
	}
}

// An allow's note reaches the agent too (G-9.5): the retry that the allow
// lets through prints, after its own stderr, who allowed it and the note,
// and --json carries it in "notes"; an allow without a note adds nothing.
func TestExecAllowNoteAcrossProcesses(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	exec := []string{"exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md"}
	_, stderr, code := c.gatehouse(exec...)
	m := askID.FindStringSubmatch(stderr)
	if code != 126 || m == nil {
		t.Fatalf("first exec: %d %q", code, stderr)
	}
	if _, stderr, code := c.gatehouse("allow", m[1], "--note", "fine, but restore it from git after"); code != 0 {
		t.Fatalf("allow: %d %q", code, stderr)
	}
	out, stderr, code := c.gatehouse(append([]string{"exec", "--json"}, exec[1:]...)...)
	var res struct {
		ExitCode int `json:"exit_code"`
		Notes    []struct {
			AskID string `json:"ask_id"`
			Note  string `json:"note"`
		} `json:"notes"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Notes) != 1 || res.Notes[0].AskID != m[1] || res.Notes[0].Note != "fine, but restore it from git after" {
		t.Fatalf("retry --json: %d %s %q", code, out, stderr)
	}

	c.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "touch", "frozen/restore.md")
	_, stderr, _ = c.gatehouse(exec...)
	m = askID.FindStringSubmatch(stderr)
	c.gatehouse("allow", m[1], "--note", "once more,\nthen stop")
	_, stderr, code = c.gatehouse(exec...)
	want := "allowed by a reviewer (ask " + m[1] + ")\nnote from reviewer: once more, then stop\n"
	if code != 0 || stderr != want {
		t.Fatalf("retry: %d %q, want %q", code, stderr, want)
	}

	c.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "touch", "frozen/restore.md")
	_, stderr, _ = c.gatehouse(exec...)
	m = askID.FindStringSubmatch(stderr)
	c.gatehouse("allow", m[1])
	if _, stderr, code = c.gatehouse(exec...); code != 0 || stderr != "" {
		t.Errorf("retry after an allow without a note: %d %q", code, stderr)
	}
}
