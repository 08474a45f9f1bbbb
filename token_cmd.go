package main

import (
	"context"
	"fmt"
	"io"

	"gatehouse/core"
	"gatehouse/rest"
	"gatehouse/store"
)

// hostTokenOption is how a daemon on ws's ledger knows the host token
// (G-10.6, G-10.7), and what its banner says about it. A ledger that keeps
// token hashes itself (one on a database server) gets its first token
// issued here, shown this once; a file ledger keeps its token in the 0600
// file beside it.
func hostTokenOption(ctx context.Context, ws *core.Workspace, ledgerName string) (rest.Option, string, error) {
	if k, ok := ws.Decisions().Store().(store.HostTokens); ok {
		token, err := rest.IssueLedgerToken(ctx, k)
		if err != nil {
			return nil, "", err
		}
		if token != "" {
			return rest.WithTokenKeeper(k), token + "\n    (new, and shown only now: the ledger keeps its hash; hosts give it as " + rest.TokenEnv + ")", nil
		}
		return rest.WithTokenKeeper(k), "kept as a hash in the ledger (hosts give it as " + rest.TokenEnv +
			"; `gatehouse token --rotate` issues a new one)", nil
	}
	token, err := rest.LoadOrCreateToken(ledgerName)
	if err != nil {
		return nil, "", err
	}
	return rest.WithToken(token), rest.TokenPath(ledgerName), nil
}

// cmdToken prints the host token hosts give to answer over REST. A file
// ledger's token is read from (or first made in) the file beside it. A
// ledger on a database server keeps only a hash: its first token is issued
// here if no daemon issued one yet, and --rotate issues a new one that
// replaces every earlier token on every daemon of the ledger;
// --revoke-sessions replaces the ledger's session key instead, so every
// session token agents hold stops working (G-10.6). The token alone goes
// to stdout, for `export GATEHOUSE_TOKEN=$(gatehouse token …)`.
func cmdToken(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("token")
	db := fs.String("db", "", ledgerSentence)
	rotate := fs.Bool("rotate", false, "Issue a new token for a ledger on a database server; every earlier token stops working on every daemon at once.")
	revoke := fs.Bool("revoke-sessions", false, "Give a ledger on a database server a new session key: every session token agents were given stops working on every daemon at once (the host token still opens every session).")
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return fs.usageError(stderr, "token takes no arguments (got %q)", pos[0])
	}
	if *rotate && *revoke {
		return fs.usageError(stderr, "--rotate and --revoke-sessions are separate steps; run them one at a time")
	}
	name := dbPath(*db)
	if !store.IsURL(name) {
		if *rotate || *revoke {
			return fs.usageError(stderr, "--rotate and --revoke-sessions are for a ledger on a database server; a file ledger's token is %s, and its session tokens derive from it: remove it and restart `gatehouse serve` for a new one", rest.TokenPath(name))
		}
		token, err := rest.LoadOrCreateToken(name)
		if err != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, token)
		return 0
	}
	l, done, ok := openLedger(name, stderr)
	if !ok {
		return 1
	}
	defer done()
	k, ok := l.Store().(store.HostTokens)
	if !ok {
		fmt.Fprintf(stderr, "gatehouse: the ledger %s keeps no host tokens\n", store.Redact(name))
		return 1
	}
	ctx := context.Background()
	if *revoke {
		if err := rest.RevokeSessionTokens(ctx, k); err != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "gatehouse: a new session key for %s: every session token given before no longer works\n", store.Redact(name))
		return 0
	}
	var token string
	var err error
	if *rotate {
		token, err = rest.RotateLedgerToken(ctx, k)
	} else if token, err = rest.IssueLedgerToken(ctx, k); err == nil && token == "" {
		fmt.Fprintf(stderr, "gatehouse: the ledger %s keeps only a hash of its host token, given when it was issued; `gatehouse token --rotate` issues a new one (the old one then stops working)\n", store.Redact(name))
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, token)
	fmt.Fprintf(stderr, "gatehouse: a new host token for %s, shown only now; hosts give it as %s\n", store.Redact(name), rest.TokenEnv)
	return 0
}
