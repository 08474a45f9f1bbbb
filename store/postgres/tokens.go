package postgres

import (
	"context"

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
