package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
	"gatehouse/core/decisions"
	"gatehouse/mcp"
)

// filesDocument installs no cat, tee or ls: the file tools are Session
// operations and need none of them (G-11.6). Writes under /runbook/frozen
// ask; the vault's token is denied.
const filesDocument = `mounts:
  /runbook:
    files: {notes.txt: "one\ntwo\nthree\nfour\n", frozen/restore.md: "1. page the on-call\n", dup.txt: "a\na\n"}
  /vault:
    files: {aws.token: "AKIA\n"}
profiles:
  writer:
    cwd: /runbook
    commands:
      allow: [echo]
      ask:
        - {reason: the frozen runbook needs sign-off, paths: [/runbook/frozen]}
      deny:
        - {reason: credentials are never read by hand, paths: [/vault/aws.token]}
`

func newFilesFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	if err := os.WriteFile(doc, []byte(filesDocument), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := core.LoadWorkspace(doc, core.WithLedger(filepath.Join(dir, "ledger.db")), core.OnAsk(mcp.AwaitAnswer))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	srv, err := mcp.New(ws, mcp.Options{Profile: "writer", ProgressInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, ws: ws, srv: srv}
}

func TestFileToolsWithoutShellCommands(t *testing.T) {
	t.Parallel()
	f := newFilesFixture(t)
	cs := f.connect("files-agent", nil)
	cases := []struct {
		name    string
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"read numbered", "read_file", map[string]any{"path": "notes.txt"}, "     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n", false},
		{"read a window", "read_file", map[string]any{"path": "notes.txt", "offset": 2, "limit": 2},
			"     2\ttwo\n     3\tthree\n[lines 2-3 of 4; read on with offset 4]\n", false},
		{"read denied", "read_file", map[string]any{"path": "/vault/aws.token"}, "read_file: /vault/aws.token: credentials are never read by hand\n", true},
		{"edit not unique", "edit_file", map[string]any{"path": "dup.txt", "old_string": "a", "new_string": "b"},
			"edit_file: dup.txt: the text to replace occurs 2 times; give more context to make it unique, or replace every occurrence\n", true},
		{"edit every occurrence", "edit_file", map[string]any{"path": "dup.txt", "old_string": "a", "new_string": "b", "replace_all": true},
			"replaced 2 occurrence(s) in /runbook/dup.txt, the first at line 1\n", false},
		{"write a new file", "write_file", map[string]any{"path": "new.md", "content": "hello\n"}, "wrote 6 bytes to /runbook/new.md\n", false},
		{"list", "list_dir", map[string]any{}, "dup.txt\nfrozen/\nnew.md\nnotes.txt\n", false},
		{"the shell still has no cat", "bash", map[string]any{"command": "cat notes.txt"}, "cat: command not found\nexit code: 127\n", true},
	}
	for _, tc := range cases { // in order: the edit and the write come before the listing
		text, isError := call(t, cs, tc.tool, tc.args)
		if text != tc.want || isError != tc.isError {
			t.Errorf("%s: %q (isError %v), want %q (isError %v)", tc.name, text, isError, tc.want, tc.isError)
		}
	}
}

// A file tool whose path asks waits for the answer like bash does, with
// progress, and then does the work (G-11.6, G-10.4).
func TestFileToolWaitsForAnswer(t *testing.T) {
	t.Parallel()
	f := newFilesFixture(t)
	progress := make(chan string, 16)
	cs := f.connect("files-agent", progress)
	done := make(chan *sdk.CallToolResult, 1)
	go func() {
		params := &sdk.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "frozen/restore.md", "content": "2. restore\n"}}
		params.SetProgressToken("w-1")
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	rec := f.waitForPending("write_file frozen/restore.md 2. restore\n")
	if rec.Reason != "the frozen runbook needs sign-off" || rec.AgentID != "files-agent" {
		t.Errorf("record %+v", rec)
	}
	select {
	case msg := <-progress:
		if !strings.Contains(msg, "ask "+rec.ID) {
			t.Errorf("progress %q", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no progress while the write waits")
	}
	if _, err := f.ws.Decisions().Answer(context.Background(), rec.ID, decisions.Answer{Outcome: decisions.Allow, By: "test"}); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-done:
		if text := resultText(res); res.IsError || text != "wrote 11 bytes to /runbook/frozen/restore.md\n" {
			t.Errorf("answered write: %q (isError %v)", text, res.IsError)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the write did not return after the answer")
	}
	// The once grant was spent: the same write asks again.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go cs.CallTool(ctx, &sdk.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "frozen/restore.md", "content": "2. restore\n"}})
	if again := f.waitForPending("write_file frozen/restore.md 2. restore\n"); again.ID == rec.ID {
		t.Error("the answered ask is pending again")
	}
}
