package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
	"gatehouse/core/decisions"
	"gatehouse/mcp"
)

// No queuing: while one call of a client waits for a human, the client's
// other calls run and return, each waiting call's progress names its own
// ask, and an answer releases exactly the call it answers.
func TestCallsOfOneClientRunConcurrently(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	progress := make(chan string, 64)
	cs := f.connect("busy-agent", progress)
	type outcome struct {
		text string
		err  error
	}
	start := func(command, token string) chan outcome {
		done := make(chan outcome, 1)
		go func() {
			params := &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": command}}
			params.SetProgressToken(token)
			res, err := cs.CallTool(context.Background(), params)
			if err != nil {
				done <- outcome{err: err}
				return
			}
			done <- outcome{text: resultText(res)}
		}()
		return done
	}
	rmNotes := start("rm notes.txt", "t-notes")
	notes := f.waitForPending("rm notes.txt")
	rmOld := start("rm old.txt && echo old gone", "t-old")
	old := f.waitForPending("rm old.txt")

	// The quick calls are not held up by the two waiting ones.
	for _, line := range []string{"echo hi", "cd /docs && pwd", "pwd"} {
		quick := start(line, "")
		select {
		case o := <-quick:
			if o.err != nil || !strings.HasSuffix(o.text, "exit code: 0\n") {
				t.Fatalf("%s: %q %v", line, o.text, o.err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s waited behind the calls waiting for a human", line)
		}
	}
	// Each waiting call names its own ask.
	seen := map[string]bool{}
	deadline := time.After(10 * time.Second)
	for !seen[notes.ID] || !seen[old.ID] {
		select {
		case msg := <-progress:
			for _, id := range []string{notes.ID, old.ID} {
				if strings.Contains(msg, "ask "+id) {
					seen[id] = true
				}
			}
		case <-deadline:
			t.Fatalf("progress named %v, want both %s and %s", seen, notes.ID, old.ID)
		}
	}
	// The second answer first: only its call returns. The session moved to
	// /docs meanwhile, but each line runs where it was asked: the answer
	// covers what the human saw (G-9.5), so rm old.txt asks again there.
	answer(t, f, old.ID, decisions.Allow, "")
	select {
	case o := <-rmNotes:
		t.Fatalf("rm notes.txt returned on another ask's answer: %q", o.text)
	case <-time.After(200 * time.Millisecond):
	}
	again := f.waitForPending("rm old.txt")
	if again.ID == old.ID || again.Cwd != "/docs" {
		t.Fatalf("after a cd the retry must ask anew about what it now means: %+v", again)
	}
	answer(t, f, again.ID, decisions.Deny, "it is not there")
	if o := <-rmOld; !strings.Contains(o.text, "note from reviewer: it is not there") || !strings.Contains(o.text, "exit code: 126") {
		t.Errorf("rm old.txt after a deny with a note: %q", o.text)
	}
	answer(t, f, notes.ID, decisions.Allow, "")
	again = f.waitForPending("rm notes.txt")
	answer(t, f, again.ID, decisions.Allow, "")
	if o := <-rmNotes; o.text != "rm: cannot remove 'notes.txt': No such file or directory\nexit code: 1\n" {
		t.Errorf("rm notes.txt ran in /docs: %q", o.text)
	}
}

func answer(t *testing.T, f *fixture, id, outcome, note string) {
	t.Helper()
	if _, err := f.ws.Decisions().Answer(context.Background(), id, decisions.Answer{Outcome: outcome, Note: note, By: "test"}); err != nil {
		t.Fatal(err)
	}
}

// tools/list offers what the profile can use: no bash for a profile
// without commands, no write tools where nothing can be written or the
// profile refuses them; the bash tool names the commands and mounts.
func TestToolsFitTheProfile(t *testing.T) {
	t.Parallel()
	const doc = `mounts:
  /runbook: {files: {notes.txt: "n\n"}}
  /docs: {mode: ro, files: {guide.md: "g\n"}}
  /secret: {files: {k: "k\n"}}
  /tmp: {mode: ro}
profiles:
  responder:
    commands: {allow: [cat, ls, grep]}
    paths: {hide: [/secret]}
  reader:
    commands:
      allow: []
    mounts: {/runbook: {mode: ro}, /secret: {mode: ro}}
  noedit:
    commands:
      allow: [echo]
      deny: [{reason: edits go through review, commands: [edit_file, write_file]}]
`
	ws := loadDoc(t, doc)
	cases := []struct {
		profile, tools string
		bashMentions   []string
	}{
		{"responder", "bash,edit_file,explain,list_dir,read_file,write_file", []string{"Commands (3): cat grep ls.", "/docs (ro), /runbook (rw), /tmp (ro)."}},
		{"reader", "list_dir,read_file", nil},
		{"noedit", "bash,explain,list_dir,read_file", []string{"Commands (1): echo.", "/secret (rw)"}},
	}
	for _, c := range cases {
		t.Run(c.profile, func(t *testing.T) {
			srv, err := mcp.New(ws, mcp.Options{Profile: c.profile})
			if err != nil {
				t.Fatal(err)
			}
			cs := connectTo(t, srv, "lister")
			list, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if tool.OutputSchema == nil {
					t.Errorf("%s has no output schema", tool.Name)
				}
				if tool.Name == "bash" {
					for _, m := range c.bashMentions {
						if !strings.Contains(tool.Description, m) {
							t.Errorf("bash description lacks %q:\n%s", m, tool.Description)
						}
					}
					if strings.Contains(tool.Description, "/secret") && c.profile == "responder" {
						t.Errorf("bash description names a hidden mount:\n%s", tool.Description)
					}
				}
			}
			if got := strings.Join(names, ","); got != c.tools {
				t.Errorf("tools %s, want %s", got, c.tools)
			}
		})
	}
	if _, err := mcp.New(ws, mcp.Options{Profile: "nobody"}); err == nil || !strings.Contains(err.Error(), "unknown profile") {
		t.Errorf("unknown profile: %v", err)
	}
}

// A result carries at most limits.tool_output characters: head and tail,
// a marker saying how much was cut and how to see it; the structured
// content holds the same capped text, not the whole output again.
func TestToolOutputIsCapped(t *testing.T) {
	t.Parallel()
	const doc = `mounts:
  /work: {}
limits: {tool_output: 2000}
profiles:
  agent:
    cwd: /work
    commands: {allow: [seq, cat, echo]}
`
	ws := loadDoc(t, doc)
	srv, err := mcp.New(ws, mcp.Options{Profile: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectTo(t, srv, "capped")
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "seq 1 100000; seq 1 3 >&2; seq 1 20000 > big.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	text := resultText(res)
	if n := utf8.RuneCountInString(text); n > 2000+100 {
		t.Errorf("result text has %d characters, cap 2000", n)
	}
	for _, want := range []string{"1\n2\n3\n", "\n100000\n", "characters cut here (lines ", "> /tmp/out.txt", "1\n2\n3\nexit code: 0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("capped text lacks %q:\n%s", want, text)
		}
	}
	sc := res.StructuredContent.(map[string]any)
	if out := sc["stdout"].(string); !strings.Contains(text, out) || sc["cut"] == nil {
		t.Errorf("structured stdout is not the capped text (cut %v)", sc["cut"])
	}
	// read_file's cut says which offset reads on.
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "big.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(res); utf8.RuneCountInString(text) > 2000 || !strings.Contains(text, "read_file with a smaller limit and the offset") || !strings.Contains(text, "[lines 1-2000 of 20000; read on with offset 2001]") {
		t.Errorf("read_file capped:\n%s", text)
	}
}

func loadDoc(t *testing.T, doc string) *core.Workspace {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "workspace.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := core.LoadWorkspace(path, core.WithLedger(filepath.Join(dir, "ledger.db")), core.OnAsk(mcp.AwaitAnswer))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func connectTo(t *testing.T, srv *mcp.Server, name string) *sdk.ClientSession {
	t.Helper()
	f := &fixture{t: t, srv: srv}
	return f.connect(name, nil)
}
