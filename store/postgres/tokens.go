package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// KeepHostToken implements store.HostTokens. The table lock makes the
// look and the insert one step, so of daemons starting at once on a fresh
// ledger exactly one keeps its token.
func (l *Ledger) KeepHostToken(ctx context.Context, hash string, replace bool) (bool, error) {
	var kept bool
	err := l.inTx(ctx, func(tx pgx.Tx) error {
		kept = false
		if _, err := tx.Exec(ctx, `LOCK TABLE host_tokens IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return err
		}
		if replace {
			if _, err := tx.Exec(ctx, `DELETE FROM host_tokens`); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, `INSERT INTO host_tokens (hash, created_at)
			SELECT $1, clock_timestamp() WHERE NOT EXISTS (SELECT 1 FROM host_tokens)`, hash)
		kept = err == nil && tag.RowsAffected() == 1
		return err
	})
	return kept, wrap("host token", err)
}

// HasHostToken implements store.HostTokens.
func (l *Ledger) HasHostToken(ctx context.Context, hash string) (bool, error) {
	ok, err := queryOne(ctx, l, scanOne[bool], `SELECT EXISTS (SELECT 1 FROM host_tokens WHERE hash = $1)`, hash)
	return ok, wrap("host token", err)
}

// SessionKey implements store.HostTokens. A kept key costs one read;
// otherwise one statement keeps candidate (or replaces the key) and the
// key kept is read after it in the same transaction, so daemons racing on
// a fresh ledger all read the one row that won.
func (l *Ledger) SessionKey(ctx context.Context, candidate []byte, replace bool) ([]byte, error) {
	if len(candidate) < 32 {
		return nil, errors.New("session key: a candidate key needs at least 32 bytes")
	}
	conflict := `DO NOTHING`
	if replace {
		conflict = `DO UPDATE SET key = EXCLUDED.key, created_at = EXCLUDED.created_at`
	}
	if !replace {
		// The usual case, a key already kept, is one read.
		key, err := queryOne(ctx, l, scanOne[[]byte], `SELECT key FROM session_key`)
		if !errors.Is(err, pgx.ErrNoRows) {
			return key, wrap("session key", err)
		}
	}
	var key []byte
	err := l.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO session_key (key, created_at) VALUES ($1, clock_timestamp())
			ON CONFLICT (only_row) `+conflict, candidate); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT key FROM session_key`).Scan(&key)
	})
	return key, wrap("session key", err)
}
