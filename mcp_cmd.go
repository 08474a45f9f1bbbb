package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
	"gatehouse/mcp"
	"gatehouse/store"
)

// cmdMCP serves one MCP client over stdin and stdout (docs/agents.md): the
// client is one agent session of the profile, and a line that asks waits
// until a host answers it in the ledger — `gatehouse allow ID`, a console
// or a REST daemon on the same ledger file. stdout carries nothing but the
// protocol; what a human should know goes to stderr.
func cmdMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("mcp")
	wsFile := fs.String("w", "", "Load the workspace from `FILE`, a YAML document; required.")
	profile := fs.String("p", "", "Bind the agent's session to the profile `PROFILE` (default: the document's default profile).")
	agent := fs.String("agent", "", "Call the agent `NAME` in the ledger and the console (default: the name the MCP client gives).")
	db := fs.String("db", "", ledgerSentence)
	httpAddr := fs.String("http", "", "Serve MCP over streamable HTTP at http://`ADDR`/mcp instead of stdio (every client is its own session; asks are answered by any host on the ledger) until a signal.")
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if *wsFile == "" {
		return fs.usageError(stderr, "mcp needs -w FILE")
	}
	if len(pos) > 0 {
		return fs.usageError(stderr, "mcp takes no arguments (got %q)", pos[0])
	}
	ledgerPath := dbPath(*db)
	ws, err := core.LoadWorkspace(*wsFile, core.WithLedger(ledgerPath), core.OnAsk(mcp.AwaitAnswer))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	holdMemoryNearBudget(ws)
	defer ws.Close()
	name, err := sessionProfile(ws, *profile)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "gatehouse mcp: %s, profile %s, ledger %s; answer asks with `gatehouse allow ID --db %s`\n",
		*wsFile, name, store.Redact(ledgerPath), store.Redact(ledgerPath))

	ctx, stop := untilSignal(ws)
	defer stop()
	if *httpAddr != "" {
		stopHTTP, err := serveMCPBeside(ctx, ws, *httpAddr, *profile, *agent, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", err)
			return 1
		}
		<-ctx.Done()
		stopHTTP()
		return 0
	}
	srv, err := mcp.New(ws, mcp.Options{Profile: *profile, Agent: *agent})
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	transport := &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	// Run returns when the client closes stdin (or a signal arrives); a
	// line still waiting then ends, and its ask leaves the queue.
	if err := srv.Run(ctx, transport); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "gatehouse mcp: %v\n", err)
		return 1
	}
	return 0
}

// sessionProfile checks the profile an MCP session would be bound to and
// names it for the human ("unrestricted" when there is none, G-2.2).
func sessionProfile(ws *core.Workspace, profile string) (string, error) {
	if profile == "" {
		profile = ws.Config().Default
	}
	if profile == "" {
		return "unrestricted (no -p and no default profile)", nil
	}
	if !ws.HasProfile(profile) {
		return "", fmt.Errorf("unknown profile %q (known profiles: %v)", profile, ws.ProfileNames())
	}
	return profile, nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mcpIdleTimeout closes an MCP-over-HTTP session its client has left
// without saying goodbye.
const mcpIdleTimeout = 30 * time.Minute

// serveMCPBeside serves MCP over streamable HTTP at http://ADDR/mcp for the
// console's workspace: every MCP client is its own agent session, its asks
// show in the console, and its calls wait for the console's answer.
func serveMCPBeside(ctx context.Context, ws *core.Workspace, addr, profile, agent string, stderr io.Writer) (func(), error) {
	name, err := sessionProfile(ws, profile)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(stderr, "gatehouse: warning: MCP listens on %s; MCP takes no token, so anyone who can reach it can run lines\n", ln.Addr())
	}
	srv, err := mcp.New(ws, mcp.Options{Profile: profile, Agent: agent})
	if err != nil {
		ln.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler(mcpIdleTimeout))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hs.Serve(ln)
	}()
	fmt.Fprintf(stderr, "gatehouse: MCP on http://%s/mcp (profile %s)\n", ln.Addr(), name)
	return func() {
		srv.Close()
		// The lines were stopped already; what is left are streams that
		// never end by themselves.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 300*time.Millisecond)
		defer cancel()
		if hs.Shutdown(sctx) != nil {
			hs.Close() // waiting calls hold their streams open: cut them
		}
		<-done
	}, nil
}
