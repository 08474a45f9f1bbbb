// Package sqlite is the ledger (package store) kept in one SQLite file
// (G-10.1): it opens the database with the settings every door relies on,
// brings the schema up to date with embedded migrations, and holds every
// SQL statement gatehouse runs. Several handles, in one process or many,
// may share a file; each write is one transaction holding the file's write
// lock, and a handle notices what others wrote through PRAGMA
// data_version (G-10.3).
//
// Durability: the file runs in WAL mode with synchronous=NORMAL by default.
// In WAL mode NORMAL makes a commit durable against the process being killed
// (kill -9 included) as soon as COMMIT returns, because the commit is in the
// WAL file the operating system already holds; only a power loss or kernel
// crash can undo the last commits. G-10.1 asks for the former. Hosts that
// want the latter too open with WithFullSync, at the cost of an fsync per
// answer.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"gatehouse/internal/faultaround"
	"gatehouse/internal/lazy"
	"gatehouse/store"
)

var _ store.Ledger = (*Ledger)(nil)

// busyTimeout is how long a connection waits for another process's write
// lock before giving up with SQLITE_BUSY. Writes here are tiny, so reaching
// it means something is badly stuck.
const busyTimeout = 5 * time.Second

// pollInterval is how often WaitForChange looks at PRAGMA data_version: a
// waiting line must hear of another process's answer within 100 ms
// (G-10.3), and one cheap PRAGMA per interval is no busy loop.
const pollInterval = 25 * time.Millisecond

// Ledger is one open ledger file. It is safe for concurrent use. Several
// Ledger values (in one process or many) may share a file.
type Ledger struct {
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
	versionGen  uint64    // bumped whenever versionConn is replaced
}

// Option changes how Open sets up a Ledger.
type Option func(*Ledger)

// WithClock makes the ledger read time from now instead of time.Now; tests
// use it to pin created_at and answered_at.
func WithClock(now func() time.Time) Option {
	return func(l *Ledger) { l.now = now }
}

// WithFullSync selects synchronous=FULL: commits survive power loss as well
// as process death, for one fsync per write transaction.
func WithFullSync() Option {
	return func(l *Ledger) { l.sync = "FULL" }
}

// Open opens (creating if needed) the ledger at path, creating its directory,
// and applies every migration not yet applied. The path must name a file:
// an in-memory database cannot be shared between connections, and the
// ledger's whole point is to be shared.
func Open(path string, opts ...Option) (*Ledger, error) {
	if path == "" || path == ":memory:" {
		return nil, fmt.Errorf("ledger: open %q: the ledger must be a file", path)
	}
	l := &Ledger{path: path, now: time.Now, sync: "NORMAL", writeSlot: make(chan struct{}, 1)}
	for _, opt := range opts {
		opt(l)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("ledger: open %s: %w", path, err)
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
	q.Add("_pragma", "synchronous("+l.sync+")")
	// The WAL is emptied whenever it restarts and when the last
	// connection closes, so the -wal file a closed ledger leaves behind
	// (see persistentWAL) is empty and the next opener has nothing to
	// recover.
	q.Add("_pragma", "journal_size_limit(0)")
	q.Set("_txlock", "immediate")
	dsn := (&url.URL{Scheme: "file", OmitHost: true, Path: path, RawQuery: q.Encode()}).String()

	sqlDB := sql.OpenDB(ledgerConnector{dsn: dsn})
	// Bounded so that a thousand busy sessions cannot open a thousand
	// SQLite connections, each with its own page cache.
	sqlDB.SetMaxOpenConns(32)
	sqlDB.SetMaxIdleConns(8)
	l.sql = sqlDB

	if err := l.migrate(context.Background()); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("ledger: open %s: %w", path, err)
	}
	return l, nil
}

// ledgerDriver opens every ledger connection, each with a persistent WAL:
// by default the last connection to close deletes the -wal and -shm files
// and the next one to open creates them again, two file creations and two
// removals (on a journalled disk, most of an open's cost) for every
// `gatehouse exec`. Kept, they are reused; the closing connection still
// checkpoints and empties the WAL.
// It is made on first use, not at start-up. Opening a connection and
// reading the schema run most of SQLite's code, so the kernel may map it
// 64 KiB at a time again (see internal/faultaround).
var ledgerDriver = lazy.Value[*sqlite.Driver]{New: func() *sqlite.Driver {
	faultaround.Resume(sqliteCode())
	d := &sqlite.Driver{}
	d.RegisterConnectionHook(persistentWAL)
	return d
}}

// sqliteCode returns the addresses of the first and last exported functions
// of SQLite's code as the linker lays it out (TestSQLiteCodeIsCovered holds
// them to the package's ends).
func sqliteCode() (first, last uintptr) {
	return reflect.ValueOf(sqlite3.Xsqlite3_aggregate_count).Pointer(), reflect.ValueOf(sqlite3.Xsqlite3_soft_heap_limit64).Pointer()
}

func persistentWAL(c sqlite.ExecQuerierContext, _ string) error {
	fc, ok := c.(sqlite.FileControl)
	if !ok {
		return errors.New("the SQLite driver offers no file control")
	}
	_, err := fc.FileControlPersistWAL("main", 1)
	return err
}

// ledgerConnector connects to one ledger file through ledgerDriver.
type ledgerConnector struct{ dsn string }

func (c ledgerConnector) Connect(context.Context) (driver.Conn, error) {
	return ledgerDriver.Get().Open(c.dsn)
}

func (c ledgerConnector) Driver() driver.Driver { return ledgerDriver.Get() }

// Close releases the connections. Transactions still open are rolled back
// by SQLite; committed ones are already on disk.
func (l *Ledger) Close() error {
	l.versionMu.Lock()
	if l.versionConn != nil {
		l.versionConn.Close()
		l.versionConn = nil
	}
	l.versionMu.Unlock()
	return l.sql.Close()
}

// Path is the file the ledger was opened on.
func (l *Ledger) Path() string { return l.path }

// nowUTC is the ledger clock's current time in UTC.
func (l *Ledger) nowUTC() time.Time { return l.now().UTC() }

// tx is a write transaction holding the file's write lock from its first
// statement. now is the one timestamp its rows carry.
type tx struct {
	*sql.Tx
	now     time.Time
	release sync.Once
	slot    chan struct{}
}

// begin starts a write transaction. Callers end it with commit or
// rollback (a deferred rollback after commit is harmless).
func (l *Ledger) begin(ctx context.Context) (*tx, error) {
	select {
	case l.writeSlot <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	sqlTx, err := l.sql.BeginTx(ctx, nil)
	if err != nil {
		<-l.writeSlot
		return nil, err
	}
	return &tx{Tx: sqlTx, now: l.nowUTC(), slot: l.writeSlot}, nil
}

// commit commits and lets this handle's next writer in.
func (t *tx) commit() error {
	defer t.free()
	return t.Tx.Commit()
}

// rollback abandons the transaction; after commit it does nothing.
func (t *tx) rollback() {
	defer t.free()
	_ = t.Tx.Rollback() // sql.ErrTxDone after commit; nothing else to report
}

func (t *tx) free() { t.release.Do(func() { <-t.slot }) }

// dataVersion reads PRAGMA data_version on a connection this handle keeps
// for nothing else. The value changes whenever another connection, in this
// process or any other, commits to the file. The generation of that
// connection is returned with it: a replaced connection starts a new
// count.
func (l *Ledger) dataVersion(ctx context.Context) (gen uint64, v int64, err error) {
	l.versionMu.Lock()
	defer l.versionMu.Unlock()
	if l.versionConn == nil {
		conn, err := l.sql.Conn(ctx)
		if err != nil {
			return 0, 0, err
		}
		l.versionConn = conn
		l.versionGen++
	}
	if err := l.versionConn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		// A broken connection is replaced on the next call, which
		// callers see as a change: a spurious re-read, never a missed one.
		l.versionConn.Close()
		l.versionConn = nil
		return 0, 0, err
	}
	return l.versionGen, v, nil
}

// WaitForChange polls PRAGMA data_version every 25 ms until it moves (see
// store.Ledger). The mark packs the version connection's generation with
// the version, so a replaced connection reads as a change.
func (l *Ledger) WaitForChange(ctx context.Context, mark uint64) (uint64, error) {
	timer := time.NewTimer(pollInterval)
	defer timer.Stop()
	for {
		gen, v, err := l.dataVersion(ctx)
		if err == nil {
			now := gen<<40 | uint64(v)&(1<<40-1)
			if mark == 0 || now != mark {
				return now, nil
			}
		} else if ctx.Err() != nil {
			return mark, ctx.Err()
		}
		select {
		case <-timer.C:
			timer.Reset(pollInterval)
		case <-ctx.Done():
			return mark, ctx.Err()
		}
	}
}

// timeLayout is how times are written into the ledger: fixed width, UTC,
// nanoseconds, so that comparing the text compares the times and the file
// stays readable with the sqlite3 shell.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) { return time.Parse(timeLayout, s) }

// parseOptionalTime reads a nullable time column read through coalesce.
func parseOptionalTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return parseTime(s)
}

// wrap adds the operation's name to err, unless err is nil.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", op, err)
}

var errNoRows = sql.ErrNoRows

func isNoRows(err error) bool { return errors.Is(err, errNoRows) }

// Check runs SQLite's integrity check over the whole file and returns an
// error naming the first problem, if any (after a crash, in tests and by
// operators).
func (l *Ledger) Check(ctx context.Context) error {
	var result string
	if err := l.sql.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&result); err != nil {
		return wrap("integrity check", err)
	}
	if result != "ok" {
		return fmt.Errorf("integrity check: %s", result)
	}
	return nil
}
