package decisions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"gatehouse/store"
)

// CreateSession persists a session so that later processes can find it
// (`gatehouse exec -s ID`, G-11.4; REST sessions, G-10.6). An empty ID gets
// a fresh 12-hex one, an empty Cwd "/", a zero CreatedAt the ledger clock's
// time. Taking an id already in the ledger is ErrExists.
func (l *Ledger) CreateSession(ctx context.Context, s SessionRow) (SessionRow, error) {
	tx, err := l.db.BeginTx(ctx)
	if err != nil {
		return SessionRow{}, fmt.Errorf("create session: %w", err)
	}
	defer tx.Rollback()
	if s.ID == "" {
		for {
			s.ID = newID()
			if taken, err := sessionExists(ctx, tx, s.ID); err != nil {
				return SessionRow{}, fmt.Errorf("create session: %w", err)
			} else if !taken {
				break
			}
		}
	} else if taken, err := sessionExists(ctx, tx, s.ID); err != nil {
		return SessionRow{}, fmt.Errorf("create session %s: %w", s.ID, err)
	} else if taken {
		return SessionRow{}, fmt.Errorf("session %s: %w", s.ID, ErrExists)
	}
	if s.Cwd == "" {
		s.Cwd = "/"
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = tx.Now
	}
	s.CreatedAt = s.CreatedAt.UTC()
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, agent_id, profile, cwd, workspace, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, s.ID, s.AgentID, s.Profile, s.Cwd, s.Workspace,
		store.FormatTime(s.CreatedAt)); err != nil {
		return SessionRow{}, fmt.Errorf("create session %s: %w", s.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return SessionRow{}, fmt.Errorf("create session %s: %w", s.ID, err)
	}
	return s, nil
}

func sessionExists(ctx context.Context, tx *store.Tx, id string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE id = ?`, id).Scan(&n)
	return n > 0, err
}

const sessionColumns = `id, agent_id, profile, cwd, workspace, created_at`

// GetSession returns one persisted session, or ErrNotFound.
func (l *Ledger) GetSession(ctx context.Context, id string) (SessionRow, error) {
	s, err := readSession(l.db.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return SessionRow{}, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return SessionRow{}, fmt.Errorf("session %s: %w", id, err)
	}
	return s, nil
}

// ListSessions returns every persisted session, oldest first.
func (l *Ledger) ListSessions(ctx context.Context) ([]SessionRow, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions ORDER BY created_at, rowid`)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []SessionRow
	for rows.Next() {
		s, err := readSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func readSession(row rowScanner) (SessionRow, error) {
	var s SessionRow
	var created string
	if err := row.Scan(&s.ID, &s.AgentID, &s.Profile, &s.Cwd, &s.Workspace, &created); err != nil {
		return SessionRow{}, err
	}
	var err error
	s.CreatedAt, err = store.ParseTime(created)
	return s, err
}

// SetSessionCwd records a session's current directory, so a later process
// resuming it starts where the last line left off (G-2.3, G-11.4).
func (l *Ledger) SetSessionCwd(ctx context.Context, id, cwd string) error {
	tx, err := l.db.BeginTx(ctx)
	if err != nil {
		return fmt.Errorf("set session cwd: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE sessions SET cwd = ? WHERE id = ?`, cwd, id)
	if err != nil {
		return fmt.Errorf("set session cwd %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return tx.Commit()
}
