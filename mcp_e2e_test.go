package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
)

// e2eDocument: three profiles with three tool lists, a small tool_output cap
// and a memory mount whose files outlive each process.
const e2eDocument = `mounts:
  /runbook:
    files: {notes.txt: "n\n", old.txt: "o\n"}
  /docs: {mode: ro, files: {guide.md: "g\n"}}
  /tmp: {}
limits: {tool_output: 2000, wall_time: 1m}
profiles:
  responder:
    cwd: /runbook
    commands:
      allow: [cat, echo, seq, rm, ls]
      ask: [{reason: removal needs sign-off, command: rm}]
  reader:
    cwd: /runbook
    commands: {allow: []}
    mounts: {/runbook: {mode: ro}, /tmp: {mode: ro}}
  noedit:
    cwd: /runbook
    commands:
      allow: [echo]
      deny: [{reason: edits go through review, commands: [edit_file, write_file]}]
`

// mcpE2E is one `gatehouse mcp` process (stdio, or --http) and the CLI
// beside it, on one ledger.
type mcpE2E struct {
	t   *testing.T
	c   *cli
	doc string
}

func newMCPE2E(t *testing.T) *mcpE2E {
	c := newCLI(t)
	doc := filepath.Join(t.TempDir(), "workspace.yaml")
	if err := os.WriteFile(doc, []byte(e2eDocument), 0o644); err != nil {
		t.Fatal(err)
	}
	return &mcpE2E{t: t, c: c, doc: doc}
}

func (e *mcpE2E) command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"mcp", "-w", e.doc}, args...)...)
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GATEHOUSE_DB="+e.c.db)
	return cmd
}

// stdio connects an SDK client to a fresh `gatehouse mcp -p profile`.
func (e *mcpE2E) stdio(profile string) *sdk.ClientSession {
	e.t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: e.command("-p", profile)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cs.Close() })
	return cs
}

// http starts `gatehouse mcp --http 127.0.0.1:0 -p profile` and connects
// an SDK client to it; stop ends the process.
func (e *mcpE2E) http(profile string) (cs *sdk.ClientSession, stop func()) {
	e.t.Helper()
	cmd := e.command("-p", profile, "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	stop = func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }
	e.t.Cleanup(stop)
	banner := regexp.MustCompile(`MCP on (http://\S+/mcp)`)
	lines := bufio.NewScanner(stderr)
	url := ""
	for url == "" && lines.Scan() {
		if m := banner.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		e.t.Fatal("gatehouse mcp --http printed no address")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "e2e-http", Version: "1"}, nil)
	cs, err = client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cs.Close() })
	return cs, stop
}

// pending waits until the ledger holds a pending ask for line and
// returns its id, reading it through `gatehouse list-asks --json`.
func (e *mcpE2E) pending(line string) string {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		out, _, _ := e.c.gatehouse("list-asks", "--json")
		var recs []struct {
			ID, Line string
		}
		json.Unmarshal([]byte(out), &recs)
		for _, r := range recs {
			if r.Line == line {
				return r.ID
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.t.Fatalf("no pending ask for %q", line)
	return ""
}

// row is the ask's row in `list-asks --all`.
func (e *mcpE2E) row(id string) string {
	out, _, _ := e.c.gatehouse("list-asks", "--all")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, id) {
			return line
		}
	}
	return ""
}

type callResult struct {
	res *sdk.CallToolResult
	err error
}

func callAsync(ctx context.Context, cs *sdk.ClientSession, tool string, args map[string]any) chan callResult {
	done := make(chan callResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		done <- callResult{res, err}
	}()
	return done
}

func textOf(r callResult) string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	var b strings.Builder
	for _, c := range r.res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// An agent's day through a real `gatehouse mcp` process, over stdio and
// over HTTP, with the human answering through `gatehouse deny` in another
// process on the same ledger: a waiting rm does not hold up echo; the
// human's note reaches the agent in the text and the structured content;
// a cancelled call withdraws its ask; output is capped; what the agent
// wrote is there for the next process.
func TestMCPEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts gatehouse processes")
	}
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			e := newMCPE2E(t)
			connect := func() (*sdk.ClientSession, func()) {
				if transport == "http" {
					return e.http("responder")
				}
				cs := e.stdio("responder")
				return cs, func() { cs.Close() }
			}
			cs, stop := connect()
			ctx := context.Background()

			rm := callAsync(ctx, cs, "bash", map[string]any{"command": "rm notes.txt"})
			id := e.pending("rm notes.txt")
			select {
			case r := <-callAsync(ctx, cs, "bash", map[string]any{"command": "echo hi"}):
				if textOf(r) != "hi\nexit code: 0\n" {
					t.Fatalf("echo hi: %q", textOf(r))
				}
			case <-time.After(10 * time.Second):
				t.Fatal("echo hi waited behind the rm waiting for a human")
			}
			if _, stderr, code := e.c.gatehouse("deny", id, "--note", "use the staging copy"); code != 0 {
				t.Fatalf("deny: %q", stderr)
			}
			r := <-rm
			text := textOf(r)
			if !strings.Contains(text, "note from reviewer: use the staging copy") || !strings.Contains(text, "exit code: 126") {
				t.Fatalf("rm after a deny with a note: %q", text)
			}
			if sc, _ := json.Marshal(r.res.StructuredContent); !strings.Contains(string(sc), `"note":"use the staging copy"`) {
				t.Errorf("structured content lacks the note: %s", sc)
			}

			cctx, cancel := context.WithCancel(ctx)
			old := callAsync(cctx, cs, "bash", map[string]any{"command": "rm old.txt"})
			oldID := e.pending("rm old.txt")
			cancel()
			<-old
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(e.row(oldID), "withdrawn") && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if got := e.row(oldID); !strings.Contains(got, "withdrawn") {
				t.Errorf("a cancelled call's ask: %q, want withdrawn", got)
			}
			if out, _, _ := e.c.gatehouse("list-asks"); strings.Contains(out, oldID) {
				t.Errorf("list-asks shows the withdrawn ask:\n%s", out)
			}

			r = <-callAsync(ctx, cs, "bash", map[string]any{"command": "seq 1 50000"})
			if text := textOf(r); len(text) > 2100 || !strings.Contains(text, "characters cut here") || !strings.Contains(text, "\n50000\n") {
				t.Errorf("capped output: %d characters:\n%.300s", len(text), text)
			}

			r = <-callAsync(ctx, cs, "write_file", map[string]any{"path": "draft.md", "content": "kept\n"})
			if r.err != nil || r.res.IsError {
				t.Fatalf("write_file: %q", textOf(r))
			}
			stop()
			cs, _ = connect()
			r = <-callAsync(ctx, cs, "read_file", map[string]any{"path": "/runbook/draft.md"})
			if text := textOf(r); !strings.Contains(text, "kept") {
				t.Errorf("read_file in the next process: %q", text)
			}
		})
	}
}

// tools/list of a real `gatehouse mcp` fits each of three profiles.
func TestMCPToolListsPerProfile(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts gatehouse processes")
	}
	e := newMCPE2E(t)
	for profile, want := range map[string]string{
		"responder": "bash,edit_file,explain,list_dir,read_file,write_file",
		"reader":    "list_dir,read_file",
		"noedit":    "bash,explain,list_dir,read_file",
	} {
		list, err := e.stdio(profile).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
		if got := strings.Join(names, ","); got != want {
			t.Errorf("%s: tools %s, want %s", profile, got, want)
		}
	}
}

// BenchmarkMCPRoundTrip: `echo hi` run in-process on a Session, and as a
// tools/call through a real `gatehouse mcp` process over stdio and over
// HTTP (docs/PERFORMANCE.md reports the difference).
func BenchmarkMCPRoundTrip(b *testing.B) {
	dir := b.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	db := filepath.Join(dir, "ledger.db")
	if err := os.WriteFile(doc, []byte(e2eDocument), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("in-process", func(b *testing.B) {
		ws, err := core.LoadWorkspace(doc, core.WithLedger(db))
		if err != nil {
			b.Fatal(err)
		}
		defer ws.Close()
		s, err := ws.CreateSession("bench", core.Profile("responder"))
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if res := s.Execute(context.Background(), "echo hi"); res.Stdout != "hi\n" {
				b.Fatalf("%+v", res)
			}
		}
	})
	call := func(b *testing.B, cs *sdk.ClientSession) {
		params := &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "echo hi"}}
		for b.Loop() {
			res, err := cs.CallTool(context.Background(), params)
			if err != nil || res.IsError {
				b.Fatal(err)
			}
		}
	}
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], append([]string{"mcp", "-w", doc, "-p", "responder", "--db", db}, args...)...)
		cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1")
		return cmd
	}
	b.Run("stdio", func(b *testing.B) {
		client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: command()}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		call(b, cs)
	})
	b.Run("http", func(b *testing.B) {
		cmd := command("--http", "127.0.0.1:0")
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
		banner := regexp.MustCompile(`MCP on (http://\S+/mcp)`)
		lines := bufio.NewScanner(stderr)
		url := ""
		for url == "" && lines.Scan() {
			if m := banner.FindStringSubmatch(lines.Text()); m != nil {
				url = m[1]
			}
		}
		go func() {
			for lines.Scan() {
			}
		}()
		client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		call(b, cs)
	})
}
