package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"gatehouse/rest"
	"gatehouse/store"
	"gatehouse/store/ledgers"
	"gatehouse/store/sqlite"
)

// besideLedger is the file kept beside the ledger name names (name plus
// suffix); a ledger on a database server has no side, so its file goes to
// the temporary directory.
func besideLedger(name, suffix string) string {
	if store.IsURL(name) {
		return filepath.Join(os.TempDir(), "gatehouse-console"+suffix)
	}
	return name + suffix
}

// cmdMigrate copies a SQLite ledger into an empty PostgreSQL one (G-10.7):
// every session, ask and grant with its id, rev, claim and times, the
// durable memory mounts' files (G-5.6), and the
// host token of the file beside the SQLite ledger (kept as a hash, so
// hosts holding it go on answering). The source is read in one
// transaction holding its write lock and the target written in one
// transaction: the copy is whole or absent.
func cmdMigrate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("migrate")
	from := fs.String("from", "", "Copy the SQLite ledger `FILE`; stop the processes using it first.")
	to := fs.String("to", "", "Copy into the PostgreSQL ledger at `URL` (postgres://…), which must hold no sessions, asks, grants or mount files.")
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	switch {
	case len(pos) > 0:
		return fs.usageError(stderr, "migrate takes no arguments")
	case *from == "" || *to == "":
		return fs.usageError(stderr, "migrate needs --from FILE and --to postgres://…")
	case store.IsURL(*from):
		return fs.usageError(stderr, "migrate copies a SQLite file (--from FILE) into a PostgreSQL ledger")
	case !store.IsURL(*to):
		return fs.usageError(stderr, "migrate copies into a PostgreSQL ledger: --to postgres://user@host/db")
	}
	snap, err := exportFile(*from)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	ctx := context.Background()
	target, err := ledgers.Open(ctx, *to)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	defer target.Close()
	importer, ok := target.(store.Importer)
	if !ok {
		fmt.Fprintf(stderr, "gatehouse: the ledger %s cannot be filled from a copy\n", store.Redact(*to))
		return 1
	}
	if err := importer.Import(ctx, snap); err != nil {
		fmt.Fprintf(stderr, "gatehouse: migrate into %s: %v\n", store.Redact(*to), err)
		return 1
	}
	pending := 0
	for _, a := range snap.Asks {
		if a.Record.Pending() && a.Record.Closed == "" {
			pending++
		}
	}
	files := 0
	for _, m := range snap.Mounts {
		files += len(m.Files)
	}
	fmt.Fprintf(stdout, "gatehouse: copied %d sessions, %d asks (%d pending), %d grants and %d mount files from %s to %s\n",
		len(snap.Sessions), len(snap.Asks), pending, len(snap.Grants), files, *from, store.Redact(*to))
	if len(snap.HostTokenHashes) > 0 {
		fmt.Fprintf(stdout, "gatehouse: the host token in %s carries over: hosts give it as %s\n", rest.TokenPath(*from), rest.TokenEnv)
	}
	return 0
}

// exportFile reads the whole SQLite ledger at path, and the hash of the
// host token beside it if there is one. A missing file is an error, not a
// new empty ledger.
func exportFile(path string) (*store.Snapshot, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	src, err := sqlite.Open(path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	snap, err := src.Export(context.Background())
	if err != nil {
		return nil, fmt.Errorf("migrate: read %s: %w", path, err)
	}
	token, err := rest.ReadTokenFile(path)
	switch {
	case err == nil:
		snap.HostTokenHashes = append(snap.HostTokenHashes, rest.HashToken(token))
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return snap, nil
}
