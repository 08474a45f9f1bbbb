package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core/decisions"
)

// wire is a scripted JSON-RPC client on a pipe pair, as an MCP host that
// launches `gatehouse mcp` talks to its stdin and stdout: one JSON message
// per line, written and read by hand.
type wire struct {
	t        *testing.T
	toServer *io.PipeWriter
	lines    chan string
	served   chan error
}

func newWire(t *testing.T, f *fixture) *wire {
	t.Helper()
	serverIn, toServer := io.Pipe()
	fromServer, serverOut := io.Pipe()
	w := &wire{t: t, toServer: toServer, lines: make(chan string, 64), served: make(chan error, 1)}
	go func() {
		w.served <- f.srv.Run(context.Background(), &sdk.IOTransport{Reader: serverIn, Writer: serverOut})
		serverOut.Close()
	}()
	go func() {
		sc := bufio.NewScanner(fromServer)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	t.Cleanup(func() { toServer.Close() })
	return w
}

func (w *wire) send(msg string) {
	w.t.Helper()
	if _, err := io.WriteString(w.toServer, msg+"\n"); err != nil {
		w.t.Fatal(err)
	}
}

// reply reads messages until the response to id, and returns it; the
// notifications passed on the way are returned too.
func (w *wire) reply(id int) (map[string]any, []map[string]any) {
	w.t.Helper()
	var notes []map[string]any
	timeout := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				w.t.Fatalf("the server closed its output before answering %d", id)
			}
			var msg map[string]any
			if err := json.Unmarshal([]byte(line), &msg); err != nil {
				w.t.Fatalf("not JSON: %q", line)
			}
			if got, ok := msg["id"].(float64); ok && int(got) == id {
				return msg, notes
			}
			notes = append(notes, msg)
		case <-timeout:
			w.t.Fatalf("no reply to %d", id)
		}
	}
}

// toolText is the text of a tools/call response.
func toolText(t *testing.T, msg map[string]any) (string, bool) {
	t.Helper()
	result, ok := msg["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", msg)
	}
	var b strings.Builder
	content, _ := result["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			b.WriteString(m["text"].(string))
		}
	}
	isError, _ := result["isError"].(bool)
	return b.String(), isError
}

func callLine(id int, tool string, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

// TestScriptedExchange: initialize, tools/list and tools/call written as
// raw JSON-RPC lines; a denied read, a hidden listing, and an ask that
// blocks the call until the ledger answers it.
func TestScriptedExchange(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := newWire(t, f)

	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scripted","version":"0"}}}`)
	init, _ := w.reply(1)
	info := init["result"].(map[string]any)["serverInfo"].(map[string]any)
	if info["name"] != "gatehouse" {
		t.Errorf("serverInfo %v", info)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	list, _ := w.reply(2)
	var names []string
	for _, tool := range list["result"].(map[string]any)["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	if got := strings.Join(names, ","); got != "bash,edit_file,explain,list_dir,read_file,write_file" {
		t.Errorf("tools: %s", got)
	}

	w.send(callLine(3, "read_file", `{"path":"/vault/aws.token"}`))
	msg, _ := w.reply(3)
	if text, isError := toolText(t, msg); !isError || text != "read_file: /vault/aws.token: credentials are never read by hand\n" {
		t.Errorf("denied read: %q (isError %v)", text, isError)
	}

	w.send(callLine(4, "list_dir", `{"path":"/vault"}`))
	msg, _ = w.reply(4)
	if text, _ := toolText(t, msg); text != "aws.token\npublic/\n" {
		t.Errorf("listing shows hidden entries or lacks visible ones: %q", text)
	}

	w.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"bash","arguments":{"command":"rm notes.txt && echo removed"},"_meta":{"progressToken":"p5"}}}`)
	rec := f.waitForPending("rm notes.txt")
	if rec.AgentID != "scripted" {
		t.Errorf("agent %q", rec.AgentID)
	}
	time.Sleep(100 * time.Millisecond) // long enough for a wrongly unblocked call to answer
	if _, err := f.ws.Decisions().Answer(context.Background(), rec.ID, decisions.Answer{Outcome: decisions.Allow, By: "test"}); err != nil {
		t.Fatal(err)
	}
	msg, notes := w.reply(5)
	if text, isError := toolText(t, msg); isError || text != "removed\nexit code: 0\n" {
		t.Errorf("answered call: %q (isError %v)", text, isError)
	}
	progressed := false
	for _, n := range notes {
		if n["method"] == "notifications/progress" {
			params := n["params"].(map[string]any)
			progressed = progressed || (params["progressToken"] == "p5" && strings.Contains(params["message"].(string), rec.ID))
		}
	}
	if !progressed {
		t.Errorf("no progress notification for p5 before the answer: %v", notes)
	}
}

// TestScriptedCancel: notifications/cancelled ends a waiting call and
// closes its ask; closing stdin ends the server with a line still waiting.
func TestScriptedCancel(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := newWire(t, f)
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scripted","version":"0"}}}`)
	w.reply(1)
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	w.send(callLine(2, "bash", `{"command":"rm old.txt"}`))
	first := f.waitForPending("rm old.txt")
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user gave up"}}`)
	waitClosed(t, f, first.ID)

	w.send(callLine(3, "bash", `{"command":"rm notes.txt"}`))
	second := f.waitForPending("rm notes.txt")
	w.toServer.Close()
	select {
	case <-w.served:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop when its input closed")
	}
	waitClosed(t, f, second.ID)
}

func waitClosed(t *testing.T, f *fixture, id string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := f.ws.Decisions().Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Closed == "cancelled" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("ask %s still open: %+v", id, r)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
