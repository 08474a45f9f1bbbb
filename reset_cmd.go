package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"gatehouse/core"
)

// cmdReset returns a workspace's memory mounts to its document's seed: the
// files the agents wrote, kept in the ledger (G-5.6), are forgotten, here
// and in every process with the workspace open, from its next line.
func cmdReset(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("reset")
	wsFile := fs.String("w", "", "Load the workspace from `FILE`, a YAML document; required.")
	mounts := fs.Bool("mounts", false, "Return the workspace's memory mounts to the files its document seeds them with; required, as it is what reset does.")
	var only nameList
	fs.Var(&only, "mount", "Reset only the mount `PREFIX` (for example /runbook); repeat it or give a comma list (default: every memory mount the ledger keeps).")
	db := fs.String("db", "", ledgerSentence)
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	switch {
	case *wsFile == "":
		return fs.usageError(stderr, "reset needs -w FILE")
	case !*mounts:
		return fs.usageError(stderr, "reset needs --mounts (the memory mounts are what it resets)")
	case len(pos) > 0:
		return fs.usageError(stderr, "reset takes no arguments (got %q)", pos[0])
	}
	ws, err := core.LoadWorkspace(*wsFile, core.WithLedger(dbPath(*db)))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	defer ws.Close()
	kept := ws.DurableMounts()
	if len(kept) == 0 {
		fmt.Fprintf(stdout, "%s keeps no memory mount in the ledger: nothing to reset\n", *wsFile)
		return 0
	}
	if err := ws.ResetMounts(context.Background(), only...); err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	done := []string(only)
	if len(done) == 0 {
		done = kept
	}
	fmt.Fprintf(stdout, "reset %s to the files %s seeds\n", strings.Join(done, ", "), *wsFile)
	return 0
}
