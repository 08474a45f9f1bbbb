package sqlite

import (
	"context"
	"embed"
	"fmt"

	"gatehouse/store"
)

// migrationFiles are the schema's history, applied in name order. A file is
// named NNNN_what.sql; NNNN is its version. Applied files are never edited:
// a change is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

func loadMigrations() ([]store.Migration, error) {
	return store.LoadMigrations(migrationFiles, "migrations")
}

// migrate applies each migration not yet recorded in schema_version, each
// in its own transaction together with its schema_version row: a crash
// leaves the schema at a whole version, and two processes opening a fresh
// file at once apply every migration exactly once (the second waits for the
// write lock, then finds the version recorded).
func (l *Ledger) migrate(ctx context.Context) error { return l.migrateTo(ctx, 0) }

// migrateTo is migrate stopping after version upTo (0: no stop); tests
// use it to build a file as an older gatehouse left it.
func (l *Ledger) migrateTo(ctx context.Context, upTo int) error {
	migrations, err := loadMigrations()
	if err != nil {
		return err
	}
	// A file already at the latest version (every open but the first)
	// answers one read: no write transaction, so an exec starting while
	// another process writes does not queue behind it for the lock.
	if upTo == 0 && len(migrations) > 0 {
		if v, err := l.SchemaVersion(ctx); err == nil && v >= migrations[len(migrations)-1].Version {
			return nil
		}
	}
	if _, err := l.sql.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL
	)`); err != nil {
		return fmt.Errorf("schema_version: %w", err)
	}
	for _, m := range migrations {
		if upTo > 0 && m.Version > upTo {
			break
		}
		if err := l.applyMigration(ctx, m); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
	}
	return nil
}

func (l *Ledger) applyMigration(ctx context.Context, m store.Migration) error {
	tx, err := l.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.rollback()
	var applied int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_version WHERE version = ?`, m.Version).Scan(&applied); err != nil {
		return err
	}
	if applied > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)`,
		m.Version, m.Name, formatTime(tx.now)); err != nil {
		return err
	}
	return tx.commit()
}

// SchemaVersion is the highest migration version applied to the file.
func (l *Ledger) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := l.sql.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v)
	return v, err
}
