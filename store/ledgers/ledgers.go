// Package ledgers opens a ledger by the name a user gives it: a
// postgres:// (or postgresql://) URL is a ledger on a PostgreSQL server
// (store/postgres), anything else the path of a SQLite file
// (store/sqlite). Every place a ledger is named (--db, $GATEHOUSE_DB, the
// Go API's core.WithLedger) goes through Open, so each door takes either
// (G-10.7).
package ledgers

import (
	"context"
	"time"

	"gatehouse/store"
	"gatehouse/store/postgres"
	"gatehouse/store/sqlite"
)

// connectTimeout bounds how long opening a server ledger may take when the
// caller's context sets no deadline: a server that does not answer fails
// the command instead of hanging it.
const connectTimeout = 30 * time.Second

// Open opens the ledger name names. SQLite options apply to a file ledger
// only; a server ledger keeps the server's clock and settings.
func Open(ctx context.Context, name string, opts ...sqlite.Option) (store.Ledger, error) {
	if !store.IsURL(name) {
		return sqlite.Open(name, opts...)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, connectTimeout)
		defer cancel()
	}
	return postgres.Open(ctx, name)
}
