package sqlite

import (
	"context"
	"database/sql"

	"gatehouse/store"
)

var _ store.Exporter = (*Ledger)(nil)

// Export implements store.Exporter. It reads inside a transaction that
// holds the file's write lock, so no other process changes the ledger
// halfway through the copy.
func (l *Ledger) Export(ctx context.Context) (*store.Snapshot, error) {
	tx, err := l.begin(ctx)
	if err != nil {
		return nil, wrap("export", err)
	}
	defer tx.rollback()
	snap := &store.Snapshot{}

	rows, err := tx.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions ORDER BY created_at, rowid`)
	if err == nil {
		snap.Sessions, err = collect(rows, func(r *sql.Rows) (store.SessionRow, error) { return readSession(r) })
	}
	if err != nil {
		return nil, wrap("export sessions", err)
	}

	rows, err = tx.QueryContext(ctx, `SELECT rev, coalesce(closed_at, ''), `+askColumns+` FROM asks
		ORDER BY created_at, rowid`)
	if err == nil {
		snap.Asks, err = collect(rows, readSavedAsk)
	}
	if err != nil {
		return nil, wrap("export asks", err)
	}

	rows, err = tx.QueryContext(ctx, `SELECT `+grantColumns+` FROM grants ORDER BY id`)
	if err == nil {
		snap.Grants, err = collect(rows, func(r *sql.Rows) (store.Grant, error) { return readGrant(r) })
	}
	if err != nil {
		return nil, wrap("export grants", err)
	}
	snap.Mounts, err = exportMounts(ctx, tx)
	return snap, wrap("export mount files", err)
}

// exportMounts reads every workspace's mount state and files.
func exportMounts(ctx context.Context, tx *tx) ([]store.SavedMounts, error) {
	rows, err := tx.QueryContext(ctx, `SELECT workspace, rev, epoch FROM mount_state ORDER BY workspace`)
	if err != nil {
		return nil, err
	}
	saved, err := collect(rows, func(r *sql.Rows) (store.SavedMounts, error) {
		var m store.SavedMounts
		err := r.Scan(&m.Workspace, &m.State.Rev, &m.State.Epoch)
		return m, err
	})
	if err != nil {
		return nil, err
	}
	for i := range saved {
		if saved[i].Files, err = readMountFiles(ctx, tx, saved[i].Workspace, 0); err != nil {
			return nil, err
		}
	}
	return saved, nil
}

func readSavedAsk(rows *sql.Rows) (store.SavedAsk, error) {
	var a store.SavedAsk
	var closed string
	var err error
	if a.Record, err = readAsk(rows, &a.Rev, &closed); err != nil {
		return a, err
	}
	a.ClosedAt, err = parseOptionalTime(closed)
	return a, err
}

// collect reads every row with read and closes rows.
func collect[T any](rows *sql.Rows, read func(*sql.Rows) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := read(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
