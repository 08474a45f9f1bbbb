// Package store owns gatehouse's SQLite ledger file (G-10.1): it opens the
// database with the settings every door relies on, brings the schema up to
// date with embedded migrations, hands out write transactions, and offers
// PRAGMA data_version so that a process can notice what another one wrote
// (G-10.3).
//
// Durability: the file runs in WAL mode with synchronous=NORMAL by default.
// In WAL mode NORMAL makes a commit durable against the process being killed
// (kill -9 included) as soon as COMMIT returns, because the commit is in the
// WAL file the operating system already holds; only a power loss or kernel
// crash can undo the last commits. G-10.1 asks for the former. Hosts that
// want the latter too open with WithFullSync, at the cost of an fsync per
// answer.
//
// The store knows tables, not meanings: package core/decisions gives the
// rows their sense.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// busyTimeout is how long a connection waits for another process's write
// lock before giving up with SQLITE_BUSY. Writes here are tiny, so reaching
// it means something is badly stuck.
const busyTimeout = 5 * time.Second

// DB is one open ledger file. It is safe for concurrent use. Several DB
// values (in one process or many) may share a file.
type DB struct {
	sql  *sql.DB
	path string
	now  func() time.Time
	sync string

	// writeSlot serialises this handle's write transactions in Go, so
	// writers of one process queue in order instead of sleeping in
	// SQLite's busy handler. Other processes still meet the file lock.
	writeSlot chan struct{}

	versionMu   sync.Mutex
	versionConn *sql.Conn // held open: data_version is per connection
}

// Option changes how Open sets up a DB.
type Option func(*DB)

// WithClock makes the DB read time from now instead of time.Now; tests use
// it to pin created_at and answered_at.
func WithClock(now func() time.Time) Option {
	return func(db *DB) { db.now = now }
}

// WithFullSync selects synchronous=FULL: commits survive power loss as well
// as process death, for one fsync per write transaction.
func WithFullSync() Option {
	return func(db *DB) { db.sync = "FULL" }
}

// DefaultPath is where the ledger lives when nobody says otherwise:
// $GATEHOUSE_DB, else $XDG_DATA_HOME/gatehouse/ledger.db, else
// ~/.local/share/gatehouse/ledger.db.
func DefaultPath() string {
	if p := os.Getenv("GATEHOUSE_DB"); p != "" {
		return p
	}
	if dir := os.Getenv("XDG_DATA_HOME"); dir != "" {
		return filepath.Join(dir, "gatehouse", "ledger.db")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		// Without a home there is no per-user place; the working
		// directory is the least surprising fallback.
		home = "."
	}
	return filepath.Join(home, ".local", "share", "gatehouse", "ledger.db")
}

// Open opens (creating if needed) the ledger at path, creating its directory,
// and applies every migration not yet applied. The path must name a file:
// an in-memory database cannot be shared between connections, and the
// ledger's whole point is to be shared.
func Open(path string, opts ...Option) (*DB, error) {
	if path == "" || path == ":memory:" {
		return nil, fmt.Errorf("store: open %q: the ledger must be a file", path)
	}
	db := &DB{path: path, now: time.Now, sync: "NORMAL", writeSlot: make(chan struct{}, 1)}
	for _, opt := range opts {
		opt(db)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}

	// Every pooled connection runs these pragmas as it opens, so no
	// connection ever lacks foreign keys or the busy timeout.
	// _txlock=immediate makes BEGIN take the write lock at once: a
	// transaction that reads and then writes cannot deadlock against
	// another process doing the same.
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+db.sync+")")
	q.Set("_txlock", "immediate")
	dsn := (&url.URL{Scheme: "file", OmitHost: true, Path: path, RawQuery: q.Encode()}).String()

	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Bounded so that a thousand busy sessions cannot open a thousand
	// SQLite connections, each with its own page cache.
	sqlDB.SetMaxOpenConns(32)
	sqlDB.SetMaxIdleConns(8)
	db.sql = sqlDB

	if err := db.migrate(context.Background()); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return db, nil
}

// Close releases the connections. Transactions still open are rolled back
// by SQLite; committed ones are already on disk.
func (db *DB) Close() error {
	db.versionMu.Lock()
	if db.versionConn != nil {
		db.versionConn.Close()
		db.versionConn = nil
	}
	db.versionMu.Unlock()
	return db.sql.Close()
}

// Path is the file the DB was opened on.
func (db *DB) Path() string { return db.path }

// Now is the DB clock's current time in UTC.
func (db *DB) Now() time.Time { return db.now().UTC() }

// ExecContext runs one statement outside any transaction.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return db.sql.ExecContext(ctx, query, args...)
}

// QueryContext runs a read outside any transaction; in WAL mode it sees the
// last commit and never waits for a writer.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.sql.QueryContext(ctx, query, args...)
}

// QueryRowContext is QueryContext for one row.
func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return db.sql.QueryRowContext(ctx, query, args...)
}

// Tx is a write transaction holding the file's write lock from its first
// statement. Now is the one timestamp its rows should carry.
type Tx struct {
	*sql.Tx
	Now     time.Time
	release sync.Once
	slot    chan struct{}
}

// BeginTx starts a write transaction. Callers must end it with Commit or
// Rollback (a deferred Rollback after Commit is harmless).
func (db *DB) BeginTx(ctx context.Context) (*Tx, error) {
	select {
	case db.writeSlot <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	sqlTx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		<-db.writeSlot
		return nil, err
	}
	return &Tx{Tx: sqlTx, Now: db.Now(), slot: db.writeSlot}, nil
}

// Commit commits and lets this handle's next writer in.
func (tx *Tx) Commit() error {
	defer tx.free()
	return tx.Tx.Commit()
}

// Rollback abandons the transaction; after Commit it does nothing.
func (tx *Tx) Rollback() error {
	defer tx.free()
	err := tx.Tx.Rollback()
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

func (tx *Tx) free() { tx.release.Do(func() { <-tx.slot }) }

// DataVersion reads PRAGMA data_version on a connection this DB keeps for
// nothing else. The value changes whenever another connection, in this
// process or any other, commits to the file, so polling it is a cheap way
// to learn that something may have changed (G-10.3). Only the change means
// anything, not the number.
func (db *DB) DataVersion(ctx context.Context) (int64, error) {
	db.versionMu.Lock()
	defer db.versionMu.Unlock()
	if db.versionConn == nil {
		conn, err := db.sql.Conn(ctx)
		if err != nil {
			return 0, err
		}
		db.versionConn = conn
	}
	var v int64
	if err := db.versionConn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		// A broken connection is replaced on the next call. The new one
		// starts a new count, which callers see as a change: a spurious
		// re-read, never a missed one.
		db.versionConn.Close()
		db.versionConn = nil
		return 0, err
	}
	return v, nil
}

// TimeLayout is how times are written into the ledger: fixed width, UTC,
// nanoseconds, so that comparing the text compares the times.
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// FormatTime renders t in TimeLayout.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ParseTime reads a time written by FormatTime.
func ParseTime(s string) (time.Time, error) { return time.Parse(TimeLayout, s) }
