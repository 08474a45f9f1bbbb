package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/store"
	"gatehouse/store/storetest"
)

// G-10.1: the ledger is SQLite in WAL mode; foreign keys and the busy
// timeout hold on every pooled connection, not just the first.
func TestOpenSettings(t *testing.T) {
	t.Parallel()
	db := storetest.MustOpen(t)
	ctx := context.Background()

	tests := []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
		{"synchronous", "1"}, // NORMAL
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
				rows, err := db.QueryContext(ctx, "PRAGMA "+tt.pragma)
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

func TestFullSyncOption(t *testing.T) {
	t.Parallel()
	db := storetest.MustOpen(t, store.WithFullSync())
	var got int
	if err := db.QueryRowContext(context.Background(), "PRAGMA synchronous").Scan(&got); err != nil {
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

	first, err := store.Open(path)
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
	if _, err := first.ExecContext(ctx,
		`INSERT INTO sessions (id, agent_id, created_at) VALUES ('s1', 'agent_a', ?)`,
		store.FormatTime(time.Now())); err != nil {
		t.Fatal(err)
	}
	first.Close()

	for range 2 {
		db, err := store.Open(path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		got, err := db.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var rows, sessions int
		db.QueryRowContext(ctx, `SELECT count(*) FROM schema_version`).Scan(&rows)
		db.QueryRowContext(ctx, `SELECT count(*) FROM sessions`).Scan(&sessions)
		db.Close()
		if got != want || rows != want {
			t.Errorf("after reopen: version %d with %d rows, want %d with %d", got, rows, want, want)
		}
		if sessions != 1 {
			t.Errorf("after reopen: %d sessions, want the 1 written before", sessions)
		}
	}
}

// Two processes opening a fresh file at once must not both migrate it.
func TestConcurrentFirstOpen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ledger.db")
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			db, err := store.Open(path)
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
	storetest.MustOpenFile(t, path)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("ledger file not created where asked: %v", err)
	}
}

func TestOpenRefusesMemory(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"", ":memory:"} {
		if db, err := store.Open(path); err == nil {
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
	watcher := storetest.MustOpen(t)
	writer := storetest.MustOpenFile(t, watcher.Path())

	before, err := watcher.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := watcher.DataVersion(ctx)
	if again != before {
		t.Errorf("data_version moved from %d to %d with no write", before, again)
	}
	if _, err := writer.ExecContext(ctx,
		`INSERT INTO sessions (id, created_at) VALUES ('s1', ?)`, store.FormatTime(time.Now())); err != nil {
		t.Fatal(err)
	}
	after, err := watcher.DataVersion(ctx)
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
	db := storetest.MustOpen(t, store.WithClock(func() time.Time { return pinned }))
	tx, err := db.BeginTx(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if !tx.Now.Equal(pinned) || tx.Now.Location() != time.UTC {
		t.Errorf("tx.Now = %v, want %v in UTC", tx.Now, pinned)
	}
}

// A write transaction left open must not stop a cancelled caller from
// getting its context error back.
func TestBeginTxHonoursContext(t *testing.T) {
	t.Parallel()
	db := storetest.MustOpen(t)
	held, err := db.BeginTx(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer held.Rollback()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := db.BeginTx(ctx); err == nil {
		t.Fatal("second BeginTx succeeded while the first held the write slot")
	}
}

func TestTimeTextOrdersLikeTime(t *testing.T) {
	t.Parallel()
	base := time.Date(2025, 1, 1, 0, 0, 5, 0, time.UTC)
	times := []time.Time{base, base.Add(100 * time.Millisecond), base.Add(time.Second)}
	for i := 1; i < len(times); i++ {
		a, b := store.FormatTime(times[i-1]), store.FormatTime(times[i])
		if a >= b {
			t.Errorf("FormatTime(%v) = %q does not sort before %q", times[i-1], a, b)
		}
		back, err := store.ParseTime(b)
		if err != nil || !back.Equal(times[i]) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", b, back, err, times[i])
		}
	}
}

// DefaultPath: $GATEHOUSE_DB, then $XDG_DATA_HOME, then ~/.local/share.
// Not parallel: it changes the environment.
func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name, db, xdg, want string
	}{
		{"explicit", "/x/ledger.db", "/xdg", "/x/ledger.db"},
		{"xdg", "", "/xdg", "/xdg/gatehouse/ledger.db"},
		{"home", "", "", filepath.Join(home, ".local/share/gatehouse/ledger.db")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("GATEHOUSE_DB", tt.db)
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			if got := store.DefaultPath(); got != tt.want {
				t.Errorf("DefaultPath() = %q, want %q", got, tt.want)
			}
		})
	}
}
