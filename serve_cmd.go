package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"

	"gatehouse/core"
	"gatehouse/rest"
	"gatehouse/store"
)

// defaultServeAddr is loopback only: the agent endpoints take no token, so
// reaching them from another machine must be a deliberate --addr.
const defaultServeAddr = "127.0.0.1:7878"

// cmdServe runs the REST daemon (G-10.6) until SIGINT or SIGTERM.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve")
	wsFile := fs.String("w", "", "Load the workspace from `FILE`, a YAML document; required.")
	db := fs.String("db", "", ledgerSentence+" The host token is written beside it.")
	addr := fs.String("addr", defaultServeAddr, "Listen on `ADDR`; loopback by default, since the agent endpoints take no token.")
	var profiles nameList
	fs.Var(&profiles, "p", "A profile `NAME` agents may create sessions of without the host token; repeat it or give a comma list (default: the document's default profile).")
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if *wsFile == "" {
		return fs.usageError(stderr, "serve needs -w FILE")
	}
	if len(pos) > 0 {
		return fs.usageError(stderr, "serve takes no arguments (got %q)", pos[0])
	}
	ledgerPath := dbPath(*db)
	ws, err := core.LoadWorkspace(*wsFile, core.WithLedger(ledgerPath), core.OnAsk(rest.AwaitAnswer))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	holdMemoryNearBudget(ws)
	defer ws.Close()
	for _, name := range profiles {
		if !ws.HasProfile(name) {
			fmt.Fprintf(stderr, "gatehouse: serve -p %s: unknown profile (known profiles: %s)\n", name, strings.Join(ws.ProfileNames(), ", "))
			return 2
		}
	}
	tokenOpt, tokenText, err := hostTokenOption(context.Background(), ws, ledgerPath)
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
	opts := []rest.Option{tokenOpt, rest.WithHosts(hostOf(*addr))}
	open := []string(profiles)
	if profiles != nil {
		opts = append(opts, rest.WithAgentProfiles(profiles...))
	} else if def := ws.Config().Default; def != "" {
		open = []string{def}
	}
	fmt.Fprintf(stdout, "gatehouse: serving %s on http://%s\n  ledger: %s\n  host token: %s\n  open to agents: %s\n",
		*wsFile, ln.Addr(), store.Redact(ledgerPath), tokenText, profileText(open))

	ctx, stop := untilSignal(ws)
	defer stop()
	srv := rest.New(ws, opts...)
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	return 0
}

// nameList is a flag that may be repeated and takes comma lists:
// `-p reader -p triage` or `-p reader,triage`.
type nameList []string

func (l *nameList) String() string { return strings.Join(*l, ",") }

func (l *nameList) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name != "" && !slices.Contains(*l, name) {
			*l = append(*l, name)
		}
	}
	if *l == nil {
		*l = nameList{}
	}
	return nil
}

// hostOf is the host part of a listen address ("" for ":7878").
func hostOf(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return host
}

// profileText lists profiles for the start-up banner.
func profileText(names []string) string {
	if len(names) == 0 {
		return "no profile (every session needs the host token)"
	}
	return strings.Join(names, ", ")
}
