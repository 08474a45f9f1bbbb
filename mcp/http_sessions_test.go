package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPClientsKeepToTheirSessions: over MCP's streamable HTTP (`console
// --mcp ADDR`), what separates two agents of one profile is the
// Mcp-Session-Id the server hands each client: 130 random bits, never shown
// to another client. Each client works in its own gatehouse session, and a
// request naming a session id the server did not give out (a guess, or an
// id of the gatehouse ledger) is refused before any tool runs.
func TestHTTPClientsKeepToTheirSessions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ts := httptest.NewServer(f.srv.HTTPHandler(0))
	t.Cleanup(ts.Close)
	connect := func(name string) *sdk.ClientSession {
		cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "test"}, nil).
			Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	a, b := connect("agent-a"), connect("agent-b")
	if a.ID() == "" || a.ID() == b.ID() || len(a.ID()) < 26 {
		t.Fatalf("session ids %q %q", a.ID(), b.ID())
	}
	call(t, a, "bash", map[string]any{"command": "cd /docs; A_STATE=secret-of-a"})
	if out, _ := call(t, b, "bash", map[string]any{"command": "echo \"[$A_STATE]\"; pwd"}); !strings.Contains(out, "[]\n/runbook\n") {
		t.Errorf("b sees a's shell: %q", out)
	}
	var gatehouseIDs []string
	for _, s := range f.ws.Sessions() {
		gatehouseIDs = append(gatehouseIDs, s.ID())
	}
	if len(gatehouseIDs) != 2 {
		t.Fatalf("gatehouse sessions %v", gatehouseIDs)
	}
	request := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo $A_STATE"}}}`
	for _, forged := range append(gatehouseIDs, "", strings.Repeat("A", 26), a.ID()+"x") {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(request))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if forged != "" {
			req.Header.Set("Mcp-Session-Id", forged)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body strings.Builder
		buf := make([]byte, 4096)
		n, _ := resp.Body.Read(buf)
		body.Write(buf[:n])
		resp.Body.Close()
		ran := strings.Contains(body.String(), "secret-of-a") || strings.Contains(body.String(), "exit code")
		if ran || (forged != "" && resp.StatusCode != http.StatusNotFound) {
			t.Errorf("session id %q: %d %s", forged, resp.StatusCode, body.String())
		}
	}
	if out, _ := call(t, a, "bash", map[string]any{"command": "echo $A_STATE"}); !strings.Contains(out, "secret-of-a") {
		t.Errorf("a lost its own state: %q", out)
	}
}
