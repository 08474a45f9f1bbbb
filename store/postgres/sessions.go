package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"gatehouse/store"
)

const sessionColumns = `id, agent_id, profile, cwd, workspace, created_at`

// insertSession inserts s unless its id is taken, and returns the row as
// stored (pgx.ErrNoRows when the id was taken). A zero CreatedAt is the
// server's clock; any other is kept to the microsecond, the server's
// resolution.
func (l *Ledger) insertSession(ctx context.Context, s store.SessionRow) (store.SessionRow, error) {
	if s.Cwd == "" {
		s.Cwd = "/"
	}
	var created *time.Time
	if !s.CreatedAt.IsZero() {
		t := s.CreatedAt.UTC().Truncate(time.Microsecond)
		created = &t
	}
	return queryOne(ctx, l, readSession, `INSERT INTO sessions (id, agent_id, profile, cwd, workspace, created_at)
		VALUES ($1, $2, $3, $4, $5, coalesce($6, clock_timestamp()))
		ON CONFLICT (id) DO NOTHING
		RETURNING `+sessionColumns,
		dbText(s.ID), dbText(s.AgentID), dbText(s.Profile), dbText(s.Cwd), dbText(s.Workspace), created)
}

// CreateSession implements store.Ledger.
func (l *Ledger) CreateSession(ctx context.Context, s store.SessionRow) (store.SessionRow, error) {
	generate := s.ID == ""
	for {
		if generate {
			s.ID = store.NewID()
		}
		row, err := l.insertSession(ctx, s)
		switch {
		case err == nil:
			return row, nil
		case !errors.Is(err, pgx.ErrNoRows):
			return store.SessionRow{}, wrap("create session "+s.ID, err)
		case !generate:
			return store.SessionRow{}, fmt.Errorf("session %s: %w", s.ID, store.ErrExists)
		}
		// A generated id that is taken: draw again.
	}
}

// EnsureSession implements store.Ledger: an insert that does nothing when
// the id is taken, then a read. The server makes a racing insert of the
// same id wait for the first to commit, so every racer reads the one row.
func (l *Ledger) EnsureSession(ctx context.Context, s store.SessionRow) (store.SessionRow, bool, error) {
	if s.ID == "" {
		return store.SessionRow{}, false, fmt.Errorf("ensure session: %w: an id is required", store.ErrInvalid)
	}
	row, err := l.insertSession(ctx, s)
	if err == nil {
		return row, true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return store.SessionRow{}, false, wrap("ensure session "+s.ID, err)
	}
	row, err = l.GetSession(ctx, s.ID)
	return row, false, err
}

// GetSession implements store.Ledger.
func (l *Ledger) GetSession(ctx context.Context, id string) (store.SessionRow, error) {
	s, err := queryOne(ctx, l, readSession, `SELECT `+sessionColumns+` FROM sessions WHERE id = $1`, dbText(id))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.SessionRow{}, fmt.Errorf("session %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.SessionRow{}, fmt.Errorf("session %s: %w", id, err)
	}
	return s, nil
}

// ListSessions implements store.Ledger.
func (l *Ledger) ListSessions(ctx context.Context) ([]store.SessionRow, error) {
	out, err := queryAll(ctx, l, readSession, `SELECT `+sessionColumns+` FROM sessions ORDER BY created_at, seq`)
	return out, wrap("list sessions", err)
}

// SetSessionCwd implements store.Ledger.
func (l *Ledger) SetSessionCwd(ctx context.Context, id, cwd string) error {
	tag, err := l.exec(ctx, `UPDATE sessions SET cwd = $1 WHERE id = $2`, dbText(cwd), dbText(id))
	if err != nil {
		return wrap("set session cwd "+id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("session %s: %w", id, store.ErrNotFound)
	}
	return nil
}

func readSession(row pgx.Row) (store.SessionRow, error) {
	var s store.SessionRow
	if err := row.Scan(&s.ID, &s.AgentID, &s.Profile, &s.Cwd, &s.Workspace, &s.CreatedAt); err != nil {
		return store.SessionRow{}, err
	}
	s.CreatedAt = s.CreatedAt.UTC()
	return s, decodeAll(&s.ID, &s.AgentID, &s.Profile, &s.Cwd, &s.Workspace)
}
