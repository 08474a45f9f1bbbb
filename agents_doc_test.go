package main

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// agentsDocDocument is the workspace docs/agents.md's "What the agent
// sees" describes.
const agentsDocDocument = `mounts:
  /runbook:
    files: {notes.txt: "n\n", old.txt: "o\n", aws.token: "t\n"}
limits: {tool_output: 400}
profiles:
  responder:
    cwd: /runbook
    commands:
      allow: [cat, echo, seq, rm]
      ask: [{reason: removal needs sign-off, command: rm}]
      deny: [{reason: credentials are never read by hand, paths: [/runbook/*.token]}]
`

// docBlocks returns the unlabelled fenced blocks of the section of
// docs/agents.md headed heading.
func docBlocks(t *testing.T, heading string) []string {
	t.Helper()
	data, err := os.ReadFile("docs/agents.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, "\n## "+heading+"\n")
	if i < 0 {
		t.Fatalf("docs/agents.md has no section %q", heading)
	}
	section := text[i+1:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)\n```\n(.*?)```\n").FindAllStringSubmatch(section, -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// The replies docs/agents.md shows an agent (asked then allowed, denied
// with a note, denied by a rule, capped) are what a real `gatehouse mcp`
// answers, a human answering through the CLI.
func TestAgentsDocWhatTheAgentSees(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts gatehouse processes")
	}
	e := newMCPE2E(t)
	if err := os.WriteFile(e.doc, []byte(agentsDocDocument), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := e.stdio("responder")
	ctx := context.Background()
	var replies []string
	ask := regexp.MustCompile(`ask [0-9a-f]{12}`)
	add := func(r callResult) {
		replies = append(replies, ask.ReplaceAllString(textOf(r), "ask 3f9c2a1b7d40"))
	}
	old := callAsync(ctx, cs, "bash", map[string]any{"command": "rm old.txt"})
	if _, stderr, code := e.c.gatehouse("allow", e.pending("rm old.txt")); code != 0 {
		t.Fatal(stderr)
	}
	add(<-old)
	notes := callAsync(ctx, cs, "bash", map[string]any{"command": "rm notes.txt"})
	if _, stderr, code := e.c.gatehouse("deny", e.pending("rm notes.txt"), "--note", "use the staging copy"); code != 0 {
		t.Fatal(stderr)
	}
	add(<-notes)
	add(<-callAsync(ctx, cs, "bash", map[string]any{"command": "cat /runbook/aws.token"}))
	add(<-callAsync(ctx, cs, "bash", map[string]any{"command": "seq 1 1000"}))

	blocks := docBlocks(t, "What the agent sees")
	if len(blocks) < 4 {
		t.Fatalf("found %d blocks in the section", len(blocks))
	}
	for _, b := range blocks {
		found := false
		for _, r := range replies {
			found = found || strings.Contains(r, b)
		}
		if !found {
			t.Errorf("docs/agents.md shows\n%s\nbut the replies were:\n%s", b, strings.Join(replies, "\n---\n"))
		}
	}
}
