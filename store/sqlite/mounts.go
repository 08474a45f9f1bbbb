package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"gatehouse/store"
)

// MountState implements store.Ledger: one primary-key read.
func (l *Ledger) MountState(ctx context.Context, workspace string) (store.MountState, error) {
	st, err := readMountState(ctx, l.sql, workspace)
	return st, wrap("mount state", err)
}

// queryer is what a read needs: the pool or a transaction.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func readMountState(ctx context.Context, q queryer, workspace string) (store.MountState, error) {
	var st store.MountState
	err := q.QueryRowContext(ctx, `SELECT rev, epoch FROM mount_state WHERE workspace = ?`, workspace).Scan(&st.Rev, &st.Epoch)
	if isNoRows(err) {
		return store.MountState{}, nil
	}
	return st, err
}

// MountFiles implements store.Ledger. The state and the rows come from one
// read transaction, so they agree (WAL readers see one snapshot).
func (l *Ledger) MountFiles(ctx context.Context, workspace string, after int64) ([]store.MountFile, store.MountState, error) {
	tx, err := l.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, store.MountState{}, wrap("mount files", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep
	st, err := readMountState(ctx, tx, workspace)
	if err != nil {
		return nil, store.MountState{}, wrap("mount files", err)
	}
	files, err := readMountFiles(ctx, tx, workspace, after)
	if err != nil {
		return nil, store.MountState{}, wrap("mount files", err)
	}
	return files, st, nil
}

// readMountFiles reads the mount files of workspace saved after rev, by
// mount and path.
func readMountFiles(ctx context.Context, q queryer, workspace string, after int64) ([]store.MountFile, error) {
	rows, err := q.QueryContext(ctx, `SELECT mount, path, kind, mode, mod_time, data, target, rev
		FROM mount_files WHERE workspace = ? AND rev > ? ORDER BY mount, path`, workspace, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var files []store.MountFile
	for rows.Next() {
		var f store.MountFile
		var modTime string
		if err := rows.Scan(&f.Mount, &f.Path, &f.Kind, &f.Mode, &modTime, &f.Data, &f.Target, &f.Rev); err != nil {
			return nil, err
		}
		if f.ModTime, err = parseTime(modTime); err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, rows.Err()
}

// SaveMountFiles implements store.Ledger: the new rev and every row in one
// write transaction.
func (l *Ledger) SaveMountFiles(ctx context.Context, workspace string, files []store.MountFile) (store.MountState, error) {
	if workspace == "" {
		return store.MountState{}, fmt.Errorf("save mount files: %w: no workspace", store.ErrInvalid)
	}
	for _, f := range files {
		if err := f.Check(); err != nil {
			return store.MountState{}, fmt.Errorf("save mount files: %w", err)
		}
	}
	if len(files) == 0 {
		return l.MountState(ctx, workspace)
	}
	tx, err := l.begin(ctx)
	if err != nil {
		return store.MountState{}, wrap("save mount files", err)
	}
	defer tx.rollback()
	st, err := bumpMountState(ctx, tx, workspace, false)
	if err != nil {
		return store.MountState{}, wrap("save mount files", err)
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO mount_files (workspace, mount, path, kind, mode, mod_time, data, target, rev)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (workspace, mount, path) DO UPDATE SET kind = excluded.kind, mode = excluded.mode,
			mod_time = excluded.mod_time, data = excluded.data, target = excluded.target, rev = excluded.rev`)
	if err != nil {
		return store.MountState{}, wrap("save mount files", err)
	}
	defer stmt.Close()
	for _, f := range files {
		var data any // NULL unless a file
		if f.Kind == store.MountFileRegular {
			data = f.Data
			if f.Data == nil {
				data = []byte{}
			}
		}
		if _, err := stmt.ExecContext(ctx, workspace, f.Mount, f.Path, f.Kind, f.Mode, formatTime(f.ModTime), data, f.Target, st.Rev); err != nil {
			return store.MountState{}, wrap("save mount files", err)
		}
	}
	return st, wrap("save mount files", tx.commit())
}

// bumpMountState moves a workspace's rev on by one (and its epoch, for a
// reset) inside tx and returns the new state.
func bumpMountState(ctx context.Context, t *tx, workspace string, reset bool) (store.MountState, error) {
	epoch := 0
	if reset {
		epoch = 1
	}
	var st store.MountState
	err := t.QueryRowContext(ctx, `INSERT INTO mount_state (workspace, rev, epoch) VALUES (?, 1, ?)
		ON CONFLICT (workspace) DO UPDATE SET rev = rev + 1, epoch = epoch + ?
		RETURNING rev, epoch`, workspace, epoch, epoch).Scan(&st.Rev, &st.Epoch)
	return st, err
}

// ResetMounts implements store.Ledger.
func (l *Ledger) ResetMounts(ctx context.Context, workspace string, mounts ...string) (store.MountState, error) {
	if workspace == "" {
		return store.MountState{}, fmt.Errorf("reset mounts: %w: no workspace", store.ErrInvalid)
	}
	tx, err := l.begin(ctx)
	if err != nil {
		return store.MountState{}, wrap("reset mounts", err)
	}
	defer tx.rollback()
	if len(mounts) == 0 {
		_, err = tx.ExecContext(ctx, `DELETE FROM mount_files WHERE workspace = ?`, workspace)
	} else {
		for _, m := range mounts {
			if _, err = tx.ExecContext(ctx, `DELETE FROM mount_files WHERE workspace = ? AND mount = ?`, workspace, m); err != nil {
				break
			}
		}
	}
	if err != nil {
		return store.MountState{}, wrap("reset mounts", err)
	}
	st, err := bumpMountState(ctx, tx, workspace, true)
	if err != nil {
		return store.MountState{}, wrap("reset mounts", err)
	}
	return st, wrap("reset mounts", tx.commit())
}
