// Package postgres is the ledger (package store) kept on a PostgreSQL
// server, for a team whose agents run on several machines and answer from
// one queue (G-10.7). It keeps the same records as store/sqlite with the
// same guarantees: an answer is one transaction, of two hosts answering
// one ask exactly one succeeds, and a once grant is claimed exactly once
// across every process and host (G-10.1, G-9.7).
//
// How the guarantees hold on a server that runs transactions side by side:
//   - Every write to an ask first takes the one row of ledger_state and
//     bumps its change counter, holding that row lock until commit; so ask
//     changes commit one at a time, in the order of their revs, and a
//     reader that has seen rev N never later meets a change below N.
//   - Conditional updates (an answer only while outcome IS NULL, a claim
//     only while claimed_at IS NULL) are rechecked by PostgreSQL against
//     the newest row version when they wait for a lock, so a second
//     answer or claim finds nothing to update.
//   - Waiting lines are woken by LISTEN/NOTIFY: a trigger notifies the
//     channel gatehouse_ledger at the commit of any change, and each handle
//     keeps one connection listening (see WaitForChange).
//
// Text the gate records may hold bytes PostgreSQL's text type refuses (NUL,
// invalid UTF-8); such a value is stored as "\x01b64:" and its base64, so
// every record comes back byte for byte. Questions are looked up by a
// SHA-256 digest of their parts, so a long line never meets the size limit
// of an index entry.
package postgres

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"gatehouse/store"
)

var (
	_ store.Ledger     = (*Ledger)(nil)
	_ store.HostTokens = (*Ledger)(nil)
)

// channel is the LISTEN/NOTIFY channel of every gatehouse ledger; the
// payload names the schema whose tables changed, so ledgers sharing a
// database in different schemas do not wake each other.
const channel = "gatehouse_ledger"

// Ledger is one handle on a ledger in a PostgreSQL database: a pool of
// connections, and one more that listens for changes once somebody waits.
// It is safe for concurrent use; handles in any number of processes and
// hosts may share the database.
type Ledger struct {
	pool   *pgxpool.Pool
	config *pgxpool.Config
	name   string // the URL with its password hidden, for messages
	schema string // where the ledger's tables are

	watchOnce sync.Once
	watch     *watcher
	closeOnce sync.Once
	closed    chan struct{}
}

// Open connects to the database at url (postgres://user@host/db?…, as
// libpq and pgx read it; pool_max_conns and search_path are honoured) and
// brings the ledger's schema up to date. A search_path whose first schema
// does not exist yet gets it created, so several ledgers can share one
// database, one schema each.
func Open(ctx context.Context, url string) (*Ledger, error) {
	name := store.Redact(url)
	config, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password and all.
		return nil, fmt.Errorf("ledger %s: not a PostgreSQL URL this program can read", name)
	}
	if _, ok := config.ConnConfig.RuntimeParams["application_name"]; !ok {
		config.ConnConfig.RuntimeParams["application_name"] = "gatehouse"
	}
	pool, err := pgxpool.NewWithConfig(ctx, config)
	if err != nil {
		return nil, fmt.Errorf("ledger %s: %w", name, err)
	}
	l := &Ledger{pool: pool, config: config, name: name, closed: make(chan struct{})}
	if err := l.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ledger %s: %w", name, err)
	}
	return l, nil
}

// Close stops the listening connection and closes the pool. Transactions
// in flight are rolled back by the server; committed ones are durable.
func (l *Ledger) Close() error {
	l.closeOnce.Do(func() {
		close(l.closed)
		// Either the watcher exists and is stopped here, or it is made
		// now, stopped from the start, for any later wait to find.
		l.watcher().stop()
		l.pool.Close()
	})
	return nil
}

// Name is the ledger's URL with any password hidden, for banners and
// messages.
func (l *Ledger) Name() string { return l.name }

// Schema is the schema the ledger's tables live in.
func (l *Ledger) Schema() string { return l.schema }

// bumpRev takes the ledger_state row, holding it until the transaction
// ends, and returns the rev this transaction's ask changes carry. Every
// transaction that writes an ask calls it before touching the ask, so all
// of them take their locks in one order.
func bumpRev(ctx context.Context, tx pgx.Tx) (int64, error) {
	var rev int64
	err := tx.QueryRow(ctx, `UPDATE ledger_state SET rev = rev + 1 RETURNING rev`).Scan(&rev)
	return rev, err
}

// wrap adds the operation's name to err, unless err is nil.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", op, err)
}

// utc is a time the server returned, in UTC like every time the store
// hands out; nil (a NULL column) is the zero time.
func utc(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// quoteIdent quotes a name for SQL text.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
