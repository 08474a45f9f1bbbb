package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"gatehouse/store"
)

// Durable memory mount files (G-5.6). A save takes the workspace's
// mount_state row first and holds it until it commits, so saves commit one
// at a time in the order of their revs, on every host; a reset takes the
// same row first too, so the two never wait for each other's locks in
// opposite orders.

// workspaceKey is the key a workspace's rows are kept under: the digest of
// its name, whose length nobody bounds.
func workspaceKey(workspace string) string { return digest("workspace", workspace) }

// MountState implements store.Ledger: one primary-key read.
func (l *Ledger) MountState(ctx context.Context, workspace string) (store.MountState, error) {
	st, err := queryOne(ctx, l, readMountState, `SELECT rev, epoch FROM mount_state WHERE workspace_key = $1`, workspaceKey(workspace))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.MountState{}, nil
	}
	return st, wrap("mount state", err)
}

func readMountState(row pgx.Row) (store.MountState, error) {
	var st store.MountState
	err := row.Scan(&st.Rev, &st.Epoch)
	return st, err
}

// MountFiles implements store.Ledger. The state and the rows are read in
// one read-only repeatable-read transaction, one snapshot, so they agree.
func (l *Ledger) MountFiles(ctx context.Context, workspace string, after int64) ([]store.MountFile, store.MountState, error) {
	key := workspaceKey(workspace)
	var files []store.MountFile
	var st store.MountState
	err := l.do(ctx, func() error {
		files, st = nil, store.MountState{}
		opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
		return pgx.BeginTxFunc(ctx, l.pool, opts, func(tx pgx.Tx) error {
			var err error
			st, err = readMountState(tx.QueryRow(ctx, `SELECT rev, epoch FROM mount_state WHERE workspace_key = $1`, key))
			if errors.Is(err, pgx.ErrNoRows) {
				return nil // never saved: no files either
			} else if err != nil {
				return err
			}
			rows, err := tx.Query(ctx, `SELECT mount, path, kind, mode, mod_sec, mod_nsec, data, target, rev
				FROM mount_files WHERE workspace_key = $1 AND rev > $2 ORDER BY mount, path`, key, after)
			if err != nil {
				return err
			}
			files, err = pgx.CollectRows(rows, readMountFile)
			return err
		})
	})
	if err != nil {
		return nil, store.MountState{}, wrap("mount files", err)
	}
	if len(files) == 0 {
		files = nil
	}
	return files, st, nil
}

func readMountFile(row pgx.CollectableRow) (store.MountFile, error) {
	var f store.MountFile
	var mount, path []byte
	var mode, sec int64
	var nsec int32
	if err := row.Scan(&mount, &path, &f.Kind, &mode, &sec, &nsec, &f.Data, &f.Target, &f.Rev); err != nil {
		return f, err
	}
	f.Mount, f.Path, f.Mode = string(mount), string(path), uint32(mode)
	f.ModTime = time.Unix(sec, int64(nsec)).UTC()
	if f.Kind == store.MountFileRegular && f.Data == nil {
		f.Data = []byte{}
	}
	return f, decodeAll(&f.Target)
}

// SaveMountFiles implements store.Ledger: the new rev and every row in one
// transaction, the rows in one statement.
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
	cols := mountColumns(lastOfEachPath(files))
	key := workspaceKey(workspace)
	var st store.MountState
	err := l.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		if st, err = bumpMountState(ctx, tx, key, workspace, false); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO mount_files
			(workspace_key, file_key, mount, path, kind, mode, mod_sec, mod_nsec, data, target, rev)
			SELECT $1, f.file_key, f.mount, f.path, f.kind, f.mode, f.mod_sec, f.mod_nsec, f.data, f.target, $2
			FROM unnest($3::text[], $4::bytea[], $5::bytea[], $6::text[], $7::bigint[], $8::bigint[], $9::integer[], $10::bytea[], $11::text[])
				AS f (file_key, mount, path, kind, mode, mod_sec, mod_nsec, data, target)
			ON CONFLICT (workspace_key, file_key) DO UPDATE SET kind = excluded.kind, mode = excluded.mode,
				mod_sec = excluded.mod_sec, mod_nsec = excluded.mod_nsec, data = excluded.data,
				target = excluded.target, rev = excluded.rev`,
			key, st.Rev, cols.keys, cols.mounts, cols.paths, cols.kinds, cols.modes, cols.secs, cols.nsecs, cols.data, cols.targets)
		return err
	})
	if err != nil {
		return store.MountState{}, wrap("save mount files", err)
	}
	return st, nil
}

// lastOfEachPath drops every file that a later one of the same mount and
// path replaces: one statement may write a row once only, and within a save
// the last word on a path stands.
func lastOfEachPath(files []store.MountFile) []store.MountFile {
	type id struct{ mount, path string }
	last := make(map[id]int, len(files))
	for i, f := range files {
		last[id{f.Mount, f.Path}] = i
	}
	if len(last) == len(files) {
		return files
	}
	out := make([]store.MountFile, 0, len(last))
	for i, f := range files {
		if last[id{f.Mount, f.Path}] == i {
			out = append(out, f)
		}
	}
	return out
}

// mountRows are mount files as the columns of one INSERT … unnest.
type mountRows struct {
	keys, kinds, targets []string
	mounts, paths, data  [][]byte
	modes, secs          []int64
	nsecs                []int32
}

func mountColumns(files []store.MountFile) mountRows {
	var c mountRows
	for _, f := range files {
		var data []byte // NULL unless a file
		if f.Kind == store.MountFileRegular {
			data = f.Data
			if data == nil {
				data = []byte{}
			}
		}
		c.keys = append(c.keys, digest("mount file", f.Mount, f.Path))
		c.mounts = append(c.mounts, []byte(f.Mount))
		c.paths = append(c.paths, []byte(f.Path))
		c.kinds = append(c.kinds, f.Kind)
		c.modes = append(c.modes, int64(f.Mode))
		c.secs = append(c.secs, f.ModTime.Unix())
		c.nsecs = append(c.nsecs, int32(f.ModTime.Nanosecond()))
		c.data = append(c.data, data)
		c.targets = append(c.targets, dbText(f.Target))
	}
	return c
}

// bumpMountState moves a workspace's rev on by one (and its epoch, for a
// reset) inside tx, holding its row until tx ends, and returns the new
// state.
func bumpMountState(ctx context.Context, tx pgx.Tx, key, workspace string, reset bool) (store.MountState, error) {
	epoch := 0
	if reset {
		epoch = 1
	}
	return readMountState(tx.QueryRow(ctx, `INSERT INTO mount_state AS s (workspace_key, workspace, rev, epoch)
		VALUES ($1, $2, 1, $3)
		ON CONFLICT (workspace_key) DO UPDATE SET rev = s.rev + 1, epoch = s.epoch + $3
		RETURNING rev, epoch`, key, dbText(workspace), epoch))
}

// ResetMounts implements store.Ledger.
func (l *Ledger) ResetMounts(ctx context.Context, workspace string, mounts ...string) (store.MountState, error) {
	if workspace == "" {
		return store.MountState{}, fmt.Errorf("reset mounts: %w: no workspace", store.ErrInvalid)
	}
	key := workspaceKey(workspace)
	var st store.MountState
	err := l.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		if st, err = bumpMountState(ctx, tx, key, workspace, true); err != nil {
			return err
		}
		if len(mounts) == 0 {
			_, err = tx.Exec(ctx, `DELETE FROM mount_files WHERE workspace_key = $1`, key)
			return err
		}
		names := make([][]byte, len(mounts))
		for i, m := range mounts {
			names[i] = []byte(m)
		}
		_, err = tx.Exec(ctx, `DELETE FROM mount_files WHERE workspace_key = $1 AND mount = ANY ($2::bytea[])`, key, names)
		return err
	})
	if err != nil {
		return store.MountState{}, wrap("reset mounts", err)
	}
	return st, nil
}
