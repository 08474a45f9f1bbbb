package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentDayDocument is a developer's workspace over a host directory: a
// secret hidden, release files denied, recursive removal asked about.
const agentDayDocument = `mounts:
  /repo: {source: "host:repo"}
limits: {wall_time: 1m}
profiles:
  dev:
    cwd: /repo
    commands:
      ask: [{reason: recursive removal needs sign-off, command: rm -r}]
      deny: [{reason: release packaging is frozen, paths: [/repo/pkg/**]}]
    paths:
      hide: [/repo/.env, "/repo/**/.env"]
`

// An agent's day through the doors a coding agent uses, over a host
// directory: a real `gatehouse mcp` process over stdio, and `gatehouse
// exec` one call after another. While one call waits for a human, the
// others return; the human's note on an allow reaches the agent in the
// tool result; a hidden file is missing byte for byte alike through
// read_file, list_dir and bash; what one process wrote is there for the
// next (G-9.5, G-4.5, G-11.6).
func TestAgentDayThroughTheDoors(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts gatehouse processes")
	}
	e := newMCPE2E(t)
	dir := filepath.Dir(e.doc)
	for name, body := range map[string]string{
		"repo/.env": "API_KEY=sk-live\n", "repo/src/.env": "X=1\n", "repo/src/main.rs": "fn main() {}\n",
		"repo/pkg/brew.rb": "class Rg\n", "repo/build/out.o": "obj\n",
	} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(e.doc, []byte(agentDayDocument), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := e.stdio("dev")
	ctx := context.Background()
	call := func(tool string, args map[string]any) string {
		t.Helper()
		select {
		case r := <-callAsync(ctx, cs, tool, args):
			return textOf(r)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s %v waited behind the call waiting for a human", tool, args)
		}
		return ""
	}

	rm := callAsync(ctx, cs, "bash", map[string]any{"command": "rm -r build && echo removed"})
	id := e.pending("rm -r build && echo removed")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"bash", map[string]any{"command": "echo meanwhile"}, "meanwhile\nexit code: 0\n"},
		{"read_file", map[string]any{"path": "src/main.rs"}, "     1\tfn main() {}\n"},
		{"list_dir", map[string]any{"path": "."}, "build/\npkg/\nsrc/\n"},
		{"list_dir", map[string]any{"path": "src"}, "main.rs\n"},
		{"read_file", map[string]any{"path": ".env"}, "read_file: .env: No such file or directory\n"},
		{"read_file", map[string]any{"path": "/repo/src/.env"}, "read_file: /repo/src/.env: No such file or directory\n"},
		{"list_dir", map[string]any{"path": ".env"}, "list_dir: .env: No such file or directory\n"},
		{"bash", map[string]any{"command": "cat .env; ls -a src"}, ".\n..\nmain.rs\ncat: .env: No such file or directory\nexit code: 0\n"},
		{"write_file", map[string]any{"path": "pkg/new.rb", "content": "x"}, "write_file: pkg/new.rb: release packaging is frozen\n"},
		{"write_file", map[string]any{"path": "src/.env", "content": "x"}, "write_file: src/.env: Permission denied\n"},
	} {
		if got := call(tc.tool, tc.args); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.tool, tc.args, got, tc.want)
		}
	}
	if _, stderr, code := e.c.gatehouse("allow", id, "--note", "ok; keep build/ out of git"); code != 0 {
		t.Fatalf("allow: %q", stderr)
	}
	r := <-rm
	want := "removed\nallowed by a reviewer (ask " + id + ")\nnote from reviewer: ok; keep build/ out of git\nexit code: 0\n"
	if got := textOf(r); got != want {
		t.Errorf("rm -r after an allow with a note: %q, want %q", got, want)
	}
	if sc, _ := json.Marshal(r.res.StructuredContent); !strings.Contains(string(sc), `"notes":[{"ask_id":"`+id+`","note":"ok; keep build/ out of git"}]`) {
		t.Errorf("structured content lacks the note: %s", sc)
	}
	if _, err := os.Stat(filepath.Join(dir, "repo/build")); !os.IsNotExist(err) {
		t.Errorf("build/ is still on the host: %v", err)
	}

	// One exec after another: files, the cwd and the secret stay as left.
	for _, tc := range []struct{ line, stdout, stderr string }{
		{"printf 'draft\\n' > NOTES.md && cd src", "", ""},
		{"pwd && cat ../NOTES.md", "/repo/src\ndraft\n", ""},
		{"cat .env ../.env; ls -a ..", ".\n..\nNOTES.md\npkg\nsrc\n", "cat: .env: No such file or directory\ncat: ../.env: No such file or directory\n"},
	} {
		stdout, stderr, _ := e.c.gatehouse("exec", "-w", e.doc, "-p", "dev", "--", tc.line)
		if stdout != tc.stdout || stderr != tc.stderr {
			t.Errorf("exec %q: stdout %q stderr %q, want %q %q", tc.line, stdout, stderr, tc.stdout, tc.stderr)
		}
	}
	if got := call("read_file", map[string]any{"path": "/repo/NOTES.md"}); got != "     1\tdraft\n" {
		t.Errorf("read_file of what exec wrote: %q", got)
	}
}

// The file tools a line's asks stop, as bash's do: write_file and
// edit_file into a directory whose changes need sign-off wait for the
// human, and the note the human wrote on the allow ends the tool result
// and sits in its structured content, over a real `gatehouse mcp` on
// stdio (G-9.5, G-11.6).
func TestFileToolsCarryTheAllowNote(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts gatehouse processes")
	}
	e := newMCPE2E(t)
	dir := filepath.Dir(e.doc)
	os.MkdirAll(filepath.Join(dir, "repo/docs"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "repo/docs/guide.md"), []byte("old words\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(agentDayDocument, "ask: [{reason: recursive removal needs sign-off, command: rm -r}]",
		"ask: [{reason: the docs need sign-off, paths: [/repo/docs/**]}]", 1)
	if err := os.WriteFile(e.doc, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := e.stdio("dev")
	for _, tc := range []struct {
		tool, op, note, want string
		args                 map[string]any
	}{
		{"write_file", "write_file docs/new.md", "fine; link it from the guide", "wrote 6 bytes to /repo/docs/new.md\n",
			map[string]any{"path": "docs/new.md", "content": "hello\n"}},
		{"edit_file", "edit_file docs/guide.md", "ok, but keep the old title", "replaced 1 occurrence(s) in /repo/docs/guide.md, the first at line 1\n",
			map[string]any{"path": "docs/guide.md", "old_string": "old", "new_string": "new"}},
	} {
		done := callAsync(context.Background(), cs, tc.tool, tc.args)
		id := e.pendingStarting(tc.op + " ")
		if _, stderr, code := e.c.gatehouse("allow", id, "--note", tc.note); code != 0 {
			t.Fatalf("allow: %q", stderr)
		}
		var r callResult
		select {
		case r = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s was not released by the allow", tc.tool)
		}
		want := tc.want + "allowed by a reviewer (ask " + id + ")\nnote from reviewer: " + tc.note + "\n"
		if got := textOf(r); got != want {
			t.Errorf("%s after an allow with a note: %q, want %q", tc.tool, got, want)
		}
		if sc, _ := json.Marshal(r.res.StructuredContent); !strings.Contains(string(sc), `"notes":[{"ask_id":"`+id+`","note":"`+tc.note+`"}]`) {
			t.Errorf("%s: the structured content lacks the note: %s", tc.tool, sc)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "repo/docs/guide.md")); string(b) != "new words\n" {
		t.Errorf("guide.md on the host: %q", b)
	}
}

// pendingStarting is the id of the pending ask whose line starts with
// prefix (a file tool's line holds its content after the path).
func (e *mcpE2E) pendingStarting(prefix string) string {
	e.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		out, _, _ := e.c.gatehouse("list-asks", "--json")
		var recs []struct{ ID, Line string }
		json.Unmarshal([]byte(out), &recs)
		for _, r := range recs {
			if strings.HasPrefix(r.Line, prefix) {
				return r.ID
			}
		}
	}
	e.t.Fatalf("no pending ask for a line starting %q", prefix)
	return ""
}
