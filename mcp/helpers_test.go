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

// testDocument is a small incident workspace: rm asks, the vault's
// credentials are denied, its internal folder hidden, /docs read-only.
const testDocument = `mounts:
  /runbook:
    files: {notes.txt: "check the pager\n", old.txt: "stale\n"}
  /vault:
    files: {aws.token: "AKIA\n", internal/keys.txt: "k\n", public/ca.pem: "CERT\n"}
  /docs:
    mode: ro
    files: {guide.md: "read me\n"}
profiles:
  responder:
    cwd: /runbook
    commands:
      allow: [cat, ls, echo, rm, tee, cd, pwd]
      ask:
        - {reason: removal needs sign-off, command: rm}
      deny:
        - {reason: credentials are never read by hand, paths: [/vault/aws.token]}
    paths:
      hide: [/vault/internal]
`

// fixture is a workspace served over MCP whose asks wait for an answer
// from the ledger, as `gatehouse mcp` runs it.
type fixture struct {
	t   *testing.T
	ws  *core.Workspace
	srv *mcp.Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	if err := os.WriteFile(doc, []byte(testDocument), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := core.LoadWorkspace(doc, core.WithLedger(filepath.Join(dir, "ledger.db")), core.OnAsk(mcp.AwaitAnswer))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	srv, err := mcp.New(ws, mcp.Options{Profile: "responder", ProgressInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, ws: ws, srv: srv}
}

// connect attaches an in-process go-sdk client over an in-memory
// transport; progress notifications it receives go to progress.
func (f *fixture) connect(name string, progress chan<- string) *sdk.ClientSession {
	f.t.Helper()
	ctx := context.Background()
	serverSide, clientSide := sdk.NewInMemoryTransports()
	ss, err := f.srv.SDK().Connect(ctx, serverSide, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { ss.Close() })
	opts := &sdk.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params.Message:
			default:
			}
		}
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "test"}, opts).Connect(ctx, clientSide, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { cs.Close() })
	return cs
}

// call runs a tool and returns its text and whether it is an error result.
func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return resultText(res), res.IsError
}

func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// waitForPending waits until an ask about command is pending in the
// ledger, as a console or `gatehouse list-asks` would see it.
func (f *fixture) waitForPending(command string) decisions.Record {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		pending, err := f.ws.Decisions().Pending(context.Background(), "")
		if err != nil {
			f.t.Fatal(err)
		}
		for _, r := range pending {
			if r.Command == command {
				return r
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.t.Fatalf("no pending ask for %q", command)
	return decisions.Record{}
}
