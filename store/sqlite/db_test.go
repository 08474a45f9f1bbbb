package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gatehouse/store"
)

// G-10.1: the ledger is SQLite in WAL mode; foreign keys and the busy
// timeout hold on every pooled connection, not just the first.
func TestOpenSettings(t *testing.T) {
	t.Parallel()
	db := mustOpen(t)
	ctx := context.Background()

	tests := []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
		{"synchronous", "1"}, // NORMAL
		{"journal_size_limit", "0"},
	}
	for _, tt := range tests {
		t.Run(tt.pragma, func(t *testing.T) {
			t.Parallel()
			// Hold several connections at once so the pool must open
			// more than one; each must carry the setting.
			var conns []interface{ Close() error }
			defer func() {
				for _, c := range conns {
					c.Close()
				}
			}()
			for range 3 {
				rows, err := db.sql.QueryContext(ctx, "PRAGMA "+tt.pragma)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, rows)
				if !rows.Next() {
					t.Fatalf("PRAGMA %s returned no row", tt.pragma)
				}
				var got string
				if err := rows.Scan(&got); err != nil {
					t.Fatal(err)
				}
				if !strings.EqualFold(got, tt.want) {
					t.Errorf("PRAGMA %s = %q, want %q", tt.pragma, got, tt.want)
				}
			}
		})
	}
}

// A closed ledger leaves its -wal and -shm files in place, the WAL empty:
// the next process to open it creates no file and recovers nothing, and
// what was written is in the main file, read by the next handle.
func TestCloseKeepsAnEmptyWAL(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ledger.db")
	for round := range 3 {
		l, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var n int
		if err := l.sql.QueryRowContext(ctx, "SELECT count(*) FROM schema_version WHERE name LIKE 'round-%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != round {
			t.Errorf("round %d: the earlier rounds' rows: %d, want %d", round, n, round)
		}
		if _, err := l.sql.ExecContext(ctx, "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, '')", 1000+round, fmt.Sprintf("round-%d", round)); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		for _, suffix := range []string{"-wal", "-shm"} {
			fi, err := os.Stat(path + suffix)
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if suffix == "-wal" && fi.Size() != 0 {
				t.Errorf("round %d: the closed ledger's WAL holds %d bytes, want none", round, fi.Size())
			}
		}
	}
}

func TestFullSyncOption(t *testing.T) {
	t.Parallel()
	db := mustOpen(t, WithFullSync())
	var got int
	if err := db.sql.QueryRowContext(context.Background(), "PRAGMA synchronous").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != 2 {
		t.Errorf("PRAGMA synchronous = %d, want 2 (FULL)", got)
	}
}

// Reopening a ledger applies nothing twice and keeps what was written.
func TestMigrationsIdempotentOnReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ledger.db")

	first, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := first.SchemaVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want < 1 {
		t.Fatalf("schema version after first open = %d, want >= 1", want)
	}
	if _, err := first.sql.ExecContext(ctx,
		`INSERT INTO sessions (id, agent_id, created_at) VALUES ('s1', 'agent_a', ?)`,
		formatTime(time.Now())); err != nil {
		t.Fatal(err)
	}
	first.Close()

	for range 2 {
		db, err := Open(path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		got, err := db.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var rows, sessions int
		db.sql.QueryRowContext(ctx, `SELECT count(*) FROM schema_version`).Scan(&rows)
		db.sql.QueryRowContext(ctx, `SELECT count(*) FROM sessions`).Scan(&sessions)
		db.Close()
		if got != want || rows != want {
			t.Errorf("after reopen: version %d with %d rows, want %d with %d", got, rows, want, want)
		}
		if sessions != 1 {
			t.Errorf("after reopen: %d sessions, want the 1 written before", sessions)
		}
	}
}

// A ledger already at the latest schema opens with reads alone: another
// process holding the write lock does not make the open wait for it (an
// exec starting while a daemon writes), where taking the lock to check
// each migration made it wait out the busy timeout.
func TestUpToDateOpenTakesNoWriteLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ledger.db")
	holder, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.begin(ctx) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.rollback()
	done := make(chan error, 1)
	go func() {
		db, err := Open(path)
		if err == nil {
			db.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("open beside a writer: %v", err)
		}
	case <-time.After(busyTimeout / 2):
		t.Fatal("an up-to-date ledger waited for another process's write lock to open")
	}
}

// An exec resuming its session reads it without the write lock: another
// process's long write does not hold up the start of every exec.
func TestExistingSessionTakesNoWriteLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ledger.db")
	holder, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	want, created, err := holder.EnsureSession(ctx, store.SessionRow{ID: "cli-x", AgentID: "cli", Cwd: "/w"})
	if err != nil || !created {
		t.Fatalf("first EnsureSession: created %v, %v", created, err)
	}
	tx, err := holder.begin(ctx) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.rollback()
	other, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	type result struct {
		row     store.SessionRow
		created bool
		err     error
	}
	done := make(chan result, 1)
	go func() {
		row, created, err := other.EnsureSession(ctx, store.SessionRow{ID: "cli-x", AgentID: "cli", Cwd: "/elsewhere"})
		done <- result{row, created, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || r.created || r.row.Cwd != want.Cwd || !r.row.CreatedAt.Equal(want.CreatedAt) {
			t.Fatalf("EnsureSession of an existing session beside a writer: %+v, created %v, %v; want %+v", r.row, r.created, r.err, want)
		}
	case <-time.After(busyTimeout / 2):
		t.Fatal("resuming an existing session waited for another process's write lock")
	}
}

// Two processes opening a fresh file at once must not both migrate it.
func TestConcurrentFirstOpen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ledger.db")
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			db, err := Open(path)
			if err == nil {
				err = db.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Errorf("concurrent open: %v", err)
		}
	}
}

func TestOpenCreatesDirectory(t *testing.T) {
	t.Parallel()
	// Characters that mean something in a URI must still name the file.
	path := filepath.Join(t.TempDir(), "a b", "c?d#e%f", "ledger.db")
	mustOpenFile(t, path)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("ledger file not created where asked: %v", err)
	}
}

func TestOpenRefusesMemory(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"", ":memory:"} {
		if db, err := Open(path); err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded; the ledger must be a file", path)
		}
	}
}

// G-10.3: data_version moves when another handle (standing in for another
// process) commits, and stays put while nothing is written.
func TestDataVersionSeesOtherHandles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	watcher := mustOpen(t)
	writer := mustOpenFile(t, watcher.Path())

	_, before, err := watcher.dataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, again, _ := watcher.dataVersion(ctx)
	if again != before {
		t.Errorf("data_version moved from %d to %d with no write", before, again)
	}
	if _, err := writer.sql.ExecContext(ctx,
		`INSERT INTO sessions (id, created_at) VALUES ('s1', ?)`, formatTime(time.Now())); err != nil {
		t.Fatal(err)
	}
	_, after, err := watcher.dataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after == before {
		t.Errorf("data_version stayed %d after another handle committed", after)
	}
}

func TestTxUsesClock(t *testing.T) {
	t.Parallel()
	pinned := time.Date(2025, 3, 4, 5, 6, 7, 8, time.FixedZone("X", 3600))
	db := mustOpen(t, WithClock(func() time.Time { return pinned }))
	tx, err := db.begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.rollback()
	if !tx.now.Equal(pinned) || tx.now.Location() != time.UTC {
		t.Errorf("tx.now = %v, want %v in UTC", tx.now, pinned)
	}
}

// A write transaction left open must not stop a cancelled caller from
// getting its context error back.
func TestBeginTxHonoursContext(t *testing.T) {
	t.Parallel()
	db := mustOpen(t)
	held, err := db.begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer held.rollback()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := db.begin(ctx); err == nil {
		t.Fatal("second begin succeeded while the first held the write slot")
	}
}

func TestTimeTextOrdersLikeTime(t *testing.T) {
	t.Parallel()
	base := time.Date(2025, 1, 1, 0, 0, 5, 0, time.UTC)
	times := []time.Time{base, base.Add(100 * time.Millisecond), base.Add(time.Second)}
	for i := 1; i < len(times); i++ {
		a, b := formatTime(times[i-1]), formatTime(times[i])
		if a >= b {
			t.Errorf("FormatTime(%v) = %q does not sort before %q", times[i-1], a, b)
		}
		back, err := parseTime(b)
		if err != nil || !back.Equal(times[i]) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", b, back, err, times[i])
		}
	}
}

func mustOpen(tb testing.TB, opts ...Option) *Ledger {
	tb.Helper()
	return mustOpenFile(tb, filepath.Join(tb.TempDir(), "ledger.db"), opts...)
}

func mustOpenFile(tb testing.TB, path string, opts ...Option) *Ledger {
	tb.Helper()
	l, err := Open(path, opts...)
	if err != nil {
		tb.Fatalf("open ledger %s: %v", path, err)
	}
	tb.Cleanup(func() { l.Close() })
	return l
}

// An ask raised by a gatehouse from before rules and facts existed comes
// back naming its one rule, with its grant key, and a grant it left is
// still found; the one-open-question rule still holds for it.
func TestMigrationKeepsOlderAsks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ledger.db")
	// Build the file as version 1 left it.
	v1 := &Ledger{path: path, now: time.Now, sync: "NORMAL", writeSlot: make(chan struct{}, 1)}
	v1.sql = openRaw(t, path)
	if err := v1.migrateTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	now := formatTime(time.Now())
	for _, stmt := range []string{
		`INSERT INTO asks (id, session_id, command, argv, paths, reason, rule, policy, line, place, grant_key, created_at, rev)
		 VALUES ('aaaaaaaaaaaa', 's1', 'rm x', '["rm","x"]', '["/x"]', 'why', 'w.yaml:1:2', 'profile:p', 'rm x', '0', 'k1', '` + now + `', 1)`,
		`INSERT INTO asks (id, session_id, line, place, grant_key, outcome, scope, created_at, answered_at, rev)
		 VALUES ('bbbbbbbbbbbb', 's1', 'rm y', '0', 'k2', 'allow', 'once', '` + now + `', '` + now + `', 2)`,
		`INSERT INTO grants (session_id, kind, grant_key, line, place, ask_id, created_at)
		 VALUES ('s1', 'once', 'k2', 'rm y', '0', 'bbbbbbbbbbbb', '` + now + `')`,
	} {
		if _, err := v1.sql.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	v1.sql.Close()

	l := mustOpenFile(t, path)
	if v, _ := l.SchemaVersion(ctx); v < 2 {
		t.Fatalf("schema version %d after reopening, want >= 2", v)
	}
	rec, err := l.GetAsk(ctx, "aaaaaaaaaaaa")
	if err != nil {
		t.Fatal(err)
	}
	want := []store.AskRule{{Reason: "why", Rule: "w.yaml:1:2", Policy: "profile:p", Paths: []string{"/x"}, Key: "k1"}}
	if !reflect.DeepEqual(rec.Rules, want) {
		t.Errorf("migrated rules = %+v, want %+v", rec.Rules, want)
	}
	same, raised, err := l.RaiseAsk(ctx, rec)
	if err != nil || raised || same.ID != rec.ID {
		t.Errorf("raising the migrated question again = %s (raised %v, %v), want the pending %s", same.ID, raised, err, rec.ID)
	}
	if g, ok, err := l.FindGrant(ctx, store.Question{SessionID: "s1", Line: "rm y", Place: "0"}); err != nil || !ok || g.AskID != "bbbbbbbbbbbb" {
		t.Errorf("the older grant = %+v, %v, %v; want it found", g, ok, err)
	}
}

// openRaw opens a SQLite file with the ledger's settings and no migration.
func openRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	return db
}
