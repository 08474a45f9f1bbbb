package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"gatehouse/store"
)

var (
	_ store.Exporter = (*Ledger)(nil)
	_ store.Importer = (*Ledger)(nil)
)

// Import implements store.Importer: one transaction that holds the change
// counter (so nothing is raised or answered meanwhile), refuses a ledger
// already in use, and copies the rows with COPY. Times keep the server's
// resolution, the microsecond.
func (l *Ledger) Import(ctx context.Context, snap *store.Snapshot) error {
	return wrap("import", l.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT rev FROM ledger_state FOR UPDATE`); err != nil {
			return err
		}
		var used bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sessions) OR EXISTS (SELECT 1 FROM asks)
			OR EXISTS (SELECT 1 FROM grants) OR EXISTS (SELECT 1 FROM mount_state)`).Scan(&used); err != nil {
			return err
		}
		if used {
			return fmt.Errorf("%w: the ledger already holds sessions, asks, grants or mount files; a copy goes into an empty one", store.ErrExists)
		}
		for _, step := range []func(context.Context, pgx.Tx, *store.Snapshot) error{
			copySessions, copyAsks, copyGrants, copyTokens, copyMounts,
		} {
			if err := step(ctx, tx, snap); err != nil {
				return err
			}
		}
		return nil
	}))
}

func copySessions(ctx context.Context, tx pgx.Tx, snap *store.Snapshot) error {
	rows := make([][]any, len(snap.Sessions))
	for i, s := range snap.Sessions {
		rows[i] = []any{dbText(s.ID), dbText(s.AgentID), dbText(s.Profile), dbText(s.Cwd), dbText(s.Workspace), s.CreatedAt}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"sessions"},
		[]string{"id", "agent_id", "profile", "cwd", "workspace", "created_at"}, pgx.CopyFromRows(rows))
	return wrap("sessions", err)
}

// copyAsks copies the asks in the order raised (their seq follows it) and
// sets the change counter to the newest rev.
func copyAsks(ctx context.Context, tx pgx.Tx, snap *store.Snapshot) error {
	rows := make([][]any, len(snap.Asks))
	var maxRev int64
	for i, a := range snap.Asks {
		r := a.Record
		argv, _ := json.Marshal(nonNil(r.Argv))
		paths, _ := json.Marshal(nonNil(r.Paths))
		rules, err := encodeRules(r.Rules)
		if err != nil {
			return fmt.Errorf("ask %s: %w", r.ID, err)
		}
		grantKey := grantKeyOf(r.Rules)
		rows[i] = []any{r.ID, dbText(r.SessionID), dbText(r.AgentID), dbText(r.Command), string(argv),
			dbText(r.Cwd), string(paths), dbText(r.Reason), dbText(r.Rule), dbText(r.Policy), rules,
			dbText(r.Line), dbText(r.Place), dbText(grantKey), dbText(r.Facts),
			askQuestion(r.SessionID, r.Line, r.Place, grantKey, r.Facts), nullable(r.Outcome), r.Scope,
			dbText(r.Note), r.CreatedAt, nullTime(r.AnsweredAt), dbText(r.AnsweredBy), dbText(r.Closed),
			nullTime(a.ClosedAt), a.Rev}
		maxRev = max(maxRev, a.Rev)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"asks"}, []string{"id", "session_id", "agent_id",
		"command", "argv", "cwd", "paths", "reason", "rule", "policy", "rules", "line", "place",
		"grant_key", "facts", "question", "outcome", "scope", "note", "created_at", "answered_at",
		"answered_by", "closed_reason", "closed_at", "rev"}, pgx.CopyFromRows(rows)); err != nil {
		return wrap("asks", err)
	}
	_, err := tx.Exec(ctx, `UPDATE ledger_state SET rev = greatest(rev, $1)`, maxRev)
	return wrap("asks", err)
}

// copyGrants copies the grants with their ids (claims name them) and moves
// the id sequence past the largest.
func copyGrants(ctx context.Context, tx pgx.Tx, snap *store.Snapshot) error {
	rows := make([][]any, len(snap.Grants))
	for i, g := range snap.Grants {
		state := "available"
		if g.Spent {
			state = "spent"
		}
		rows[i] = []any{g.ID, dbText(g.SessionID), g.Kind, dbText(g.GrantKey), digest(g.GrantKey),
			dbText(g.Line), dbText(g.Place), dbText(g.Facts), grantQuestion(g.SessionID, g.Line, g.Place, g.Facts),
			nullable(g.AskID), state, dbText(g.ClaimedBy), nullTime(g.ClaimedAt), g.CreatedAt, nullTime(g.SpentAt)}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"grants"}, []string{"id", "session_id", "kind",
		"grant_key", "key_digest", "line", "place", "facts", "question", "ask_id", "state", "claimed_by",
		"claimed_at", "created_at", "spent_at"}, pgx.CopyFromRows(rows)); err != nil {
		return wrap("grants", err)
	}
	_, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence('grants', 'id'), max(id)) FROM grants
		HAVING max(id) IS NOT NULL`)
	return wrap("grants", err)
}

func copyTokens(ctx context.Context, tx pgx.Tx, snap *store.Snapshot) error {
	for _, hash := range snap.HostTokenHashes {
		if _, err := tx.Exec(ctx, `INSERT INTO host_tokens (hash, created_at) VALUES ($1, clock_timestamp())
			ON CONFLICT (hash) DO NOTHING`, hash); err != nil {
			return wrap("host tokens", err)
		}
	}
	return nil
}

// copyMounts copies every workspace's mount state and files, each file
// with the rev that wrote it.
func copyMounts(ctx context.Context, tx pgx.Tx, snap *store.Snapshot) error {
	var states, files [][]any
	for _, m := range snap.Mounts {
		key := workspaceKey(m.Workspace)
		states = append(states, []any{key, dbText(m.Workspace), m.State.Rev, m.State.Epoch})
		for _, f := range m.Files {
			if err := f.Check(); err != nil {
				return fmt.Errorf("mount files of %s: %w", m.Workspace, err)
			}
			c := mountColumns([]store.MountFile{f})
			files = append(files, []any{key, c.keys[0], c.mounts[0], c.paths[0], c.kinds[0], c.modes[0],
				c.secs[0], c.nsecs[0], c.data[0], c.targets[0], f.Rev})
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"mount_state"}, []string{"workspace_key", "workspace", "rev", "epoch"},
		pgx.CopyFromRows(states)); err != nil {
		return wrap("mount state", err)
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"mount_files"}, []string{"workspace_key", "file_key", "mount", "path",
		"kind", "mode", "mod_sec", "mod_nsec", "data", "target", "rev"}, pgx.CopyFromRows(files))
	return wrap("mount files", err)
}

// nullable is s, or NULL for "".
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullTime is t, or NULL for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// Export implements store.Exporter: one read-only transaction with a
// single snapshot of the database.
func (l *Ledger) Export(ctx context.Context) (*store.Snapshot, error) {
	snap := &store.Snapshot{}
	err := pgx.BeginTxFunc(ctx, l.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `SELECT `+sessionColumns+` FROM sessions ORDER BY created_at, seq`)
			if err == nil {
				snap.Sessions, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.SessionRow, error) { return readSession(r) })
			}
			if err != nil {
				return wrap("sessions", err)
			}
			rows, err = tx.Query(ctx, `SELECT rev, closed_at, `+askColumns+` FROM asks ORDER BY created_at, seq`)
			if err == nil {
				snap.Asks, err = pgx.CollectRows(rows, readSavedAsk)
			}
			if err != nil {
				return wrap("asks", err)
			}
			rows, err = tx.Query(ctx, `SELECT `+grantColumns+` FROM grants ORDER BY id`)
			if err == nil {
				snap.Grants, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Grant, error) { return readGrant(r) })
			}
			if err != nil {
				return wrap("grants", err)
			}
			rows, err = tx.Query(ctx, `SELECT hash FROM host_tokens ORDER BY created_at, hash`)
			if err == nil {
				snap.HostTokenHashes, err = pgx.CollectRows(rows, pgx.RowTo[string])
			}
			if err != nil {
				return wrap("host tokens", err)
			}
			snap.Mounts, err = exportMounts(ctx, tx)
			return wrap("mount files", err)
		})
	return snap, wrap("export", err)
}

// exportMounts reads every workspace's mount state and files inside tx.
func exportMounts(ctx context.Context, tx pgx.Tx) ([]store.SavedMounts, error) {
	rows, err := tx.Query(ctx, `SELECT workspace, rev, epoch FROM mount_state`)
	if err != nil {
		return nil, err
	}
	saved, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.SavedMounts, error) {
		var m store.SavedMounts
		if err := r.Scan(&m.Workspace, &m.State.Rev, &m.State.Epoch); err != nil {
			return m, err
		}
		return m, decodeAll(&m.Workspace)
	})
	if err != nil {
		return nil, err
	}
	// By workspace, byte by byte, as the SQLite ledger sorts them.
	slices.SortFunc(saved, func(a, b store.SavedMounts) int { return strings.Compare(a.Workspace, b.Workspace) })
	for i := range saved {
		rows, err := tx.Query(ctx, `SELECT mount, path, kind, mode, mod_sec, mod_nsec, data, target, rev
			FROM mount_files WHERE workspace_key = $1 ORDER BY mount, path`, workspaceKey(saved[i].Workspace))
		if err != nil {
			return nil, err
		}
		if saved[i].Files, err = pgx.CollectRows(rows, readMountFile); err != nil {
			return nil, err
		}
		if len(saved[i].Files) == 0 {
			saved[i].Files = nil
		}
	}
	if len(saved) == 0 {
		saved = nil
	}
	return saved, nil
}

func readSavedAsk(row pgx.CollectableRow) (store.SavedAsk, error) {
	var a store.SavedAsk
	var closed *time.Time
	var err error
	a.Record, err = readAsk(row, &a.Rev, &closed)
	a.ClosedAt = utc(closed)
	return a, err
}
