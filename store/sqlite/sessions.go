package sqlite

import (
	"context"
	"fmt"

	"gatehouse/store"
)

const sessionColumns = `id, agent_id, profile, cwd, workspace, created_at`

// CreateSession implements store.Ledger.
func (l *Ledger) CreateSession(ctx context.Context, s store.SessionRow) (store.SessionRow, error) {
	tx, err := l.begin(ctx)
	if err != nil {
		return store.SessionRow{}, wrap("create session", err)
	}
	defer tx.rollback()
	if s.ID == "" {
		for {
			s.ID = store.NewID()
			if taken, err := sessionExists(ctx, tx, s.ID); err != nil {
				return store.SessionRow{}, wrap("create session", err)
			} else if !taken {
				break
			}
		}
	} else if taken, err := sessionExists(ctx, tx, s.ID); err != nil {
		return store.SessionRow{}, wrap("create session "+s.ID, err)
	} else if taken {
		return store.SessionRow{}, fmt.Errorf("session %s: %w", s.ID, store.ErrExists)
	}
	s, err = insertSession(ctx, tx, s)
	if err != nil {
		return store.SessionRow{}, err
	}
	return s, wrap("create session "+s.ID, tx.commit())
}

// EnsureSession implements store.Ledger: a session that exists (every
// exec but a session's first) is one read, without the write lock, so an
// exec starting while another process writes does not queue behind it;
// otherwise the lookup and the insert share one transaction holding the
// write lock, and the id is the primary key.
func (l *Ledger) EnsureSession(ctx context.Context, s store.SessionRow) (store.SessionRow, bool, error) {
	if s.ID == "" {
		return store.SessionRow{}, false, fmt.Errorf("ensure session: %w: an id is required", store.ErrInvalid)
	}
	existing, err := readSession(l.sql.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, s.ID))
	switch {
	case err == nil:
		return existing, false, nil
	case !isNoRows(err):
		return store.SessionRow{}, false, wrap("ensure session "+s.ID, err)
	}
	tx, err := l.begin(ctx)
	if err != nil {
		return store.SessionRow{}, false, wrap("ensure session "+s.ID, err)
	}
	defer tx.rollback()
	existing, err = readSession(tx.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, s.ID))
	switch {
	case err == nil:
		return existing, false, nil
	case !isNoRows(err):
		return store.SessionRow{}, false, wrap("ensure session "+s.ID, err)
	}
	if s, err = insertSession(ctx, tx, s); err != nil {
		return store.SessionRow{}, false, err
	}
	return s, true, wrap("ensure session "+s.ID, tx.commit())
}

// insertSession fills a new session's defaults and inserts it.
func insertSession(ctx context.Context, tx *tx, s store.SessionRow) (store.SessionRow, error) {
	if s.Cwd == "" {
		s.Cwd = "/"
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = tx.now
	}
	s.CreatedAt = s.CreatedAt.UTC()
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, agent_id, profile, cwd, workspace, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, s.ID, s.AgentID, s.Profile, s.Cwd, s.Workspace,
		formatTime(s.CreatedAt)); err != nil {
		return store.SessionRow{}, fmt.Errorf("create session %s: %w", s.ID, err)
	}
	return s, nil
}

func sessionExists(ctx context.Context, tx *tx, id string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE id = ?`, id).Scan(&n)
	return n > 0, err
}

// GetSession implements store.Ledger.
func (l *Ledger) GetSession(ctx context.Context, id string) (store.SessionRow, error) {
	s, err := readSession(l.sql.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, id))
	if isNoRows(err) {
		return store.SessionRow{}, fmt.Errorf("session %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.SessionRow{}, fmt.Errorf("session %s: %w", id, err)
	}
	return s, nil
}

// ListSessions implements store.Ledger.
func (l *Ledger) ListSessions(ctx context.Context) ([]store.SessionRow, error) {
	rows, err := l.sql.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions ORDER BY created_at, rowid`)
	if err != nil {
		return nil, wrap("list sessions", err)
	}
	defer rows.Close()
	var out []store.SessionRow
	for rows.Next() {
		s, err := readSession(rows)
		if err != nil {
			return nil, wrap("list sessions", err)
		}
		out = append(out, s)
	}
	return out, wrap("list sessions", rows.Err())
}

func readSession(row rowScanner) (store.SessionRow, error) {
	var s store.SessionRow
	var created string
	if err := row.Scan(&s.ID, &s.AgentID, &s.Profile, &s.Cwd, &s.Workspace, &created); err != nil {
		return store.SessionRow{}, err
	}
	var err error
	s.CreatedAt, err = parseTime(created)
	return s, err
}

// SetSessionCwd implements store.Ledger.
func (l *Ledger) SetSessionCwd(ctx context.Context, id, cwd string) error {
	tx, err := l.begin(ctx)
	if err != nil {
		return wrap("set session cwd "+id, err)
	}
	defer tx.rollback()
	res, err := tx.ExecContext(ctx, `UPDATE sessions SET cwd = ? WHERE id = ?`, cwd, id)
	if err != nil {
		return wrap("set session cwd "+id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return wrap("set session cwd "+id, err)
	}
	if n == 0 {
		return fmt.Errorf("session %s: %w", id, store.ErrNotFound)
	}
	return wrap("set session cwd "+id, tx.commit())
}
