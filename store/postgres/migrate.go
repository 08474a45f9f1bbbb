package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

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

// migrate brings the schema up to date and learns which schema the
// ledger's tables are in. A database already at the latest version (every
// open but the first) costs one read. Otherwise every missing migration is
// applied in one transaction holding an advisory lock of the schema, so
// hosts opening a fresh ledger at once apply each exactly once, and a
// failure leaves the schema as it was.
func (l *Ledger) migrate(ctx context.Context) error {
	migrations, err := loadMigrations()
	if err != nil {
		return err
	}
	latest := migrations[len(migrations)-1].Version
	if v, err := l.SchemaVersion(ctx); err != nil && !isUndefinedTable(err) {
		return fmt.Errorf("schema version: %w", err)
	} else if v < latest {
		if err := l.inTx(ctx, func(tx pgx.Tx) error { return l.applyMigrations(ctx, tx, migrations) }); err != nil {
			return err
		}
	} else if v > latest {
		return fmt.Errorf("the ledger's schema is at version %d, newer than this gatehouse knows (%d): upgrade gatehouse", v, latest)
	}
	err = l.pool.QueryRow(ctx, `SELECT n.nspname FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = 'asks'::regclass`).Scan(&l.schema)
	return wrap("find the ledger's schema", err)
}

// applyMigrations applies, inside tx, every migration schema_version does
// not record.
func (l *Ledger) applyMigrations(ctx context.Context, tx pgx.Tx, migrations []store.Migration) error {
	searchPath := l.config.ConnConfig.RuntimeParams["search_path"]
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('gatehouse migrate'), hashtext($1))`, searchPath); err != nil {
		return fmt.Errorf("lock for migration: %w", err)
	}
	var current *string
	if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&current); err != nil {
		return err
	}
	if current == nil {
		first := firstSchema(searchPath)
		if first == "" {
			return fmt.Errorf("no schema of search_path %q exists to keep the ledger in", searchPath)
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+quoteIdent(first)); err != nil {
			return fmt.Errorf("create schema %s: %w", first, err)
		}
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
	)`); err != nil {
		return fmt.Errorf("schema_version: %w", err)
	}
	applied := map[int]bool{}
	rows, err := tx.Query(ctx, `SELECT version FROM schema_version`)
	if err != nil {
		return err
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return err
	}
	for _, v := range versions {
		applied[int(v)] = true
	}
	for _, m := range migrations {
		if applied[m.Version] {
			continue
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
	}
	return nil
}

// firstSchema is the first schema a search_path names, unquoted; "" when
// there is none or it is the "$user" placeholder.
func firstSchema(searchPath string) string {
	first, _, _ := strings.Cut(searchPath, ",")
	first = strings.TrimSpace(first)
	if len(first) >= 2 && first[0] == '"' && first[len(first)-1] == '"' {
		first = strings.ReplaceAll(first[1:len(first)-1], `""`, `"`)
	} else {
		first = strings.ToLower(first)
	}
	if first == "$user" {
		return ""
	}
	return first
}

// SchemaVersion is the highest migration version applied to the ledger.
func (l *Ledger) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := l.pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v)
	return v, err
}

func isUndefinedTable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "42P01"
}
