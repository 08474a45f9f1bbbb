package mcp_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core/decisions"
)

// TestToolsThroughTheGate: every tool answers as the shell would, through
// the same rules and the same op door.
func TestToolsThroughTheGate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		tool      string
		args      map[string]any
		want      []string // substrings of the result text
		notWant   []string
		wantError bool
	}{
		{name: "bash runs a line", tool: "bash", args: map[string]any{"command": "cat notes.txt; pwd"},
			want: []string{"check the pager\n/runbook\nexit code: 0\n"}},
		{name: "bash denied read gives the refusal", tool: "bash", args: map[string]any{"command": "cat /vault/aws.token"},
			want: []string{"cat: /vault/aws.token: credentials are never read by hand\n", "exit code: 1\n"}, wantError: true},
		{name: "read_file denied gives the reason", tool: "read_file", args: map[string]any{"path": "/vault/aws.token"},
			want: []string{"read_file: /vault/aws.token: credentials are never read by hand"}, wantError: true},
		{name: "read_file reads relative to the cwd", tool: "read_file", args: map[string]any{"path": "notes.txt"},
			want: []string{"check the pager\n"}},
		{name: "read_file hidden reads as missing", tool: "read_file", args: map[string]any{"path": "/vault/internal/keys.txt"},
			want: []string{"read_file: /vault/internal/keys.txt: No such file or directory"}, wantError: true},
		{name: "read_file missing reads the same", tool: "read_file", args: map[string]any{"path": "/vault/nothing/keys.txt"},
			want: []string{"read_file: /vault/nothing/keys.txt: No such file or directory"}, wantError: true},
		{name: "list_dir leaves hidden entries out", tool: "list_dir", args: map[string]any{"path": "/vault"},
			want: []string{"aws.token\npublic/\n"}, notWant: []string{"internal"}},
		{name: "list_dir of the root", tool: "list_dir", args: map[string]any{"path": "/"},
			want: []string{"docs/", "runbook/", "vault/"}},
		{name: "list_dir of a hidden directory", tool: "list_dir", args: map[string]any{"path": "/vault/internal"},
			want: []string{"list_dir: /vault/internal: No such file or directory"}, wantError: true},
		{name: "write_file on a read-only mount", tool: "write_file", args: map[string]any{"path": "/docs/guide.md", "content": "x"},
			want: []string{"write_file: /docs/guide.md: Read-only file system"}, wantError: true},
		{name: "write_file asks like tee would", tool: "write_file", args: map[string]any{"path": "/tmp/x", "content": "x"},
			want: []string{"wrote 1 bytes to /tmp/x"}},
		{name: "explain is agent-safe", tool: "explain", args: map[string]any{"command": "rm notes.txt; cat /vault/internal/keys.txt"},
			want: []string{"rm notes.txt: ask (removal needs sign-off)", "cat /vault/internal/keys.txt: run"}, notWant: []string{"hide", "hidden"}},
		{name: "a tool outside the tool set", tool: "bash", args: map[string]any{"command": "sort notes.txt"},
			want: []string{"sort: command not found\n", "exit code: 127\n"}, wantError: true},
	}
	f := newFixture(t)
	cs := f.connect("table-agent", nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			text, isError := call(t, cs, tc.tool, tc.args)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("result %q lacks %q", text, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(text, w) {
					t.Errorf("result %q shows %q", text, w)
				}
			}
			if isError != tc.wantError {
				t.Errorf("isError = %v, want %v (%q)", isError, tc.wantError, text)
			}
		})
	}
}

// TestAskWaitsForAnswer: a line that asks holds the tool call open, with
// progress notifications, until a host answers in the ledger; then the call
// returns what the line did.
func TestAskWaitsForAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	progress := make(chan string, 16)
	cs := f.connect("claude-test", progress)

	type outcome struct {
		res *sdk.CallToolResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		params := &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "rm notes.txt && echo removed"}}
		params.SetProgressToken("rm-1")
		res, err := cs.CallTool(context.Background(), params)
		done <- outcome{res, err}
	}()
	rec := f.waitForPending("rm notes.txt")
	if rec.AgentID != "claude-test" {
		t.Errorf("agent = %q, want the client's name", rec.AgentID)
	}
	select {
	case msg := <-progress:
		if !strings.Contains(msg, "ask "+rec.ID) || !strings.Contains(msg, "removal needs sign-off") {
			t.Errorf("progress message %q", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no progress notification while waiting")
	}
	select {
	case o := <-done:
		t.Fatalf("the call returned before the answer: %+v", o)
	default:
	}
	if _, err := f.ws.Decisions().Answer(context.Background(), rec.ID, decisions.Answer{Outcome: decisions.Allow, By: "test"}); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		if text := resultText(o.res); text != "removed\nexit code: 0\n" {
			t.Errorf("result %q", text)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not return after the answer")
	}
	if text, _ := call(t, cs, "list_dir", map[string]any{}); strings.Contains(text, "notes.txt") {
		t.Errorf("notes.txt still listed: %q", text)
	}
}

// TestCancelEndsTheWait: a client that gives up on a waiting call ends
// the line, and its ask leaves the queue as withdrawn.
func TestCancelEndsTheWait(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect("impatient", nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "rm old.txt"}})
		done <- err
	}()
	rec := f.waitForPending("rm old.txt")
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled call did not return")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, err := f.ws.Decisions().Get(context.Background(), rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.State() == decisions.StateWithdrawn {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ask not closed after cancel: %+v", r)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOneSessionPerClient: each MCP client is its own agent session, with
// its own shell state.
func TestOneSessionPerClient(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, b := f.connect("agent-a", nil), f.connect("agent-b", nil)
	call(t, a, "bash", map[string]any{"command": "cd /vault"})
	if text, _ := call(t, b, "bash", map[string]any{"command": "pwd"}); text != "/runbook\nexit code: 0\n" {
		t.Errorf("b shares a's cwd: %q", text)
	}
	if text, _ := call(t, a, "bash", map[string]any{"command": "pwd"}); text != "/vault\nexit code: 0\n" {
		t.Errorf("a lost its cwd: %q", text)
	}
	agents := map[string]string{}
	for _, s := range f.ws.Sessions() {
		agents[s.AgentID()] = s.ProfileName()
	}
	if agents["agent-a"] != "responder" || agents["agent-b"] != "responder" {
		t.Errorf("sessions: %v", agents)
	}
}
