package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"gatehouse/core"
	"gatehouse/rest"
)

// defaultServeAddr is loopback only: the agent endpoints take no token, so
// reaching them from another machine must be a deliberate --addr.
const defaultServeAddr = "127.0.0.1:7878"

// cmdServe runs the REST daemon (G-10.6) until SIGINT or SIGTERM.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve", stderr)
	wsFile := fs.String("w", "", "workspace document")
	db := fs.String("db", "", "ledger database (default $GATEHOUSE_DB or ~/.local/share/gatehouse/ledger.db)")
	addr := fs.String("addr", defaultServeAddr, "address to listen on")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if *wsFile == "" {
		return usageError(stderr, "serve needs -w FILE")
	}
	if len(pos) > 0 {
		return usageError(stderr, "serve takes no arguments")
	}
	ledgerPath := dbPath(*db)
	ws, err := core.LoadWorkspace(*wsFile, core.WithLedger(ledgerPath), core.OnAsk(rest.AwaitAnswer))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	defer ws.Close()
	token, err := rest.LoadOrCreateToken(ledgerPath)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(stderr, "gatehouse: warning: listening on %s; agent endpoints take no token, so anyone who can reach it can run lines\n", ln.Addr())
	}
	fmt.Fprintf(stdout, "gatehouse: serving %s on http://%s\n  ledger: %s\n  host token: %s\n",
		*wsFile, ln.Addr(), ledgerPath, rest.TokenPath(ledgerPath))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := rest.New(ws, rest.WithToken(token))
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	return 0
}
