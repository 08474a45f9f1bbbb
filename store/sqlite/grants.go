package sqlite

import (
	"context"
	"fmt"
	"strings"

	"gatehouse/store"
)

const grantColumns = `id, session_id, kind, grant_key, line, place, facts, coalesce(ask_id, ''),
	claimed_by, coalesce(claimed_at, ''), state, created_at, coalesce(spent_at, '')`

// answersQuestion selects the unclaimed once and deny grants of one
// question, the host's deny first, then the oldest once grant.
const answersQuestion = `FROM grants
	WHERE session_id = ? AND line = ? AND place = ? AND facts = ?
	AND kind IN ('deny', 'once') AND state = 'available' AND claimed_at IS NULL
	ORDER BY CASE kind WHEN 'deny' THEN 0 ELSE 1 END, id LIMIT 1`

// FindGrant implements store.Ledger.
func (l *Ledger) FindGrant(ctx context.Context, q store.Question) (store.Grant, bool, error) {
	g, err := readGrant(l.sql.QueryRowContext(ctx, `SELECT `+grantColumns+` `+answersQuestion,
		q.SessionID, q.Line, q.Place, q.Facts))
	if isNoRows(err) {
		return store.Grant{}, false, nil
	}
	if err != nil {
		return store.Grant{}, false, wrap("find grant", err)
	}
	return g, true, nil
}

// ClaimGrant implements store.Ledger. The search and the claim are one
// UPDATE inside a transaction that holds the file's write lock, and the
// UPDATE itself requires claimed_at IS NULL: two claimants, in any
// processes, can never both take one grant.
func (l *Ledger) ClaimGrant(ctx context.Context, q store.Question, claimant string) (store.Grant, bool, error) {
	if claimant == "" {
		return store.Grant{}, false, fmt.Errorf("claim grant: %w: a claimant is required", store.ErrInvalid)
	}
	// Most questions have no grant waiting (the first time a line asks):
	// a read, which never waits for the write lock, says so without
	// taking it. A grant committed after this read is one the claim
	// would have missed by a moment anyway.
	if _, ok, err := l.FindGrant(ctx, q); err != nil || !ok {
		return store.Grant{}, false, err
	}
	tx, err := l.begin(ctx)
	if err != nil {
		return store.Grant{}, false, wrap("claim grant", err)
	}
	defer tx.rollback()
	g, err := readGrant(tx.QueryRowContext(ctx, `UPDATE grants SET claimed_by = ?, claimed_at = ?
		WHERE id = (SELECT id `+answersQuestion+`) AND claimed_at IS NULL
		RETURNING `+grantColumns,
		claimant, formatTime(tx.now), q.SessionID, q.Line, q.Place, q.Facts))
	if isNoRows(err) {
		return store.Grant{}, false, nil
	}
	if err != nil {
		return store.Grant{}, false, wrap("claim grant", err)
	}
	if err := tx.commit(); err != nil {
		return store.Grant{}, false, wrap("claim grant", err)
	}
	return g, true, nil
}

// SessionGrants implements store.Ledger.
func (l *Ledger) SessionGrants(ctx context.Context, sessionID string, keys []string) ([]string, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	args := []any{sessionID}
	for _, k := range keys {
		args = append(args, k)
	}
	rows, err := l.sql.QueryContext(ctx, `SELECT DISTINCT grant_key FROM grants
		WHERE session_id = ? AND kind = 'session' AND state = 'available'
		AND grant_key IN (`+marks(len(keys))+`)`, args...)
	if err != nil {
		return nil, wrap("session grants", err)
	}
	defer rows.Close()
	held := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, wrap("session grants", err)
		}
		held[k] = true
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("session grants", err)
	}
	var out []string
	for _, k := range keys {
		if held[k] {
			out = append(out, k)
		}
	}
	return out, nil
}

// ListGrants implements store.Ledger.
func (l *Ledger) ListGrants(ctx context.Context, sessionID string) ([]store.Grant, error) {
	rows, err := l.sql.QueryContext(ctx, `SELECT `+grantColumns+` FROM grants
		WHERE session_id = ? ORDER BY id`, sessionID)
	if err != nil {
		return nil, wrap("list grants", err)
	}
	defer rows.Close()
	var out []store.Grant
	for rows.Next() {
		g, err := readGrant(rows)
		if err != nil {
			return nil, wrap("list grants", err)
		}
		out = append(out, g)
	}
	return out, wrap("list grants", rows.Err())
}

// ReleaseGrants implements store.Ledger.
func (l *Ledger) ReleaseGrants(ctx context.Context, claimant string, ids ...int64) error {
	if len(ids) == 0 || claimant == "" {
		return nil
	}
	return l.writeIDs(ctx, "release", ids, `UPDATE grants SET claimed_by = '', claimed_at = NULL
		WHERE claimed_by = ? AND state = 'available' AND id IN (%s)`, claimant)
}

// SpendGrants implements store.Ledger.
func (l *Ledger) SpendGrants(ctx context.Context, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	return l.writeIDs(ctx, "spend", ids, `UPDATE grants SET state = 'spent', spent_at = ?
		WHERE kind != 'session' AND state = 'available' AND id IN (%s)`, nil)
}

// writeIDs runs one UPDATE over a list of grant ids in a transaction. The
// statement's %s takes the placeholders; first is its leading argument
// (nil: the transaction's time).
func (l *Ledger) writeIDs(ctx context.Context, op string, ids []int64, stmt string, first any) error {
	tx, err := l.begin(ctx)
	if err != nil {
		return wrap(op, err)
	}
	defer tx.rollback()
	if first == nil {
		first = formatTime(tx.now)
	}
	args := []any{first}
	for _, id := range ids {
		args = append(args, id)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(stmt, marks(len(ids))), args...); err != nil {
		return wrap(op, err)
	}
	return wrap(op, tx.commit())
}

// marks is n comma-separated placeholders.
func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

func readGrant(row rowScanner) (store.Grant, error) {
	var g store.Grant
	var claimed, state, created, spent string
	if err := row.Scan(&g.ID, &g.SessionID, &g.Kind, &g.GrantKey, &g.Line, &g.Place, &g.Facts,
		&g.AskID, &g.ClaimedBy, &claimed, &state, &created, &spent); err != nil {
		return store.Grant{}, err
	}
	g.Spent = state == "spent"
	var err error
	if g.ClaimedAt, err = parseOptionalTime(claimed); err != nil {
		return store.Grant{}, err
	}
	if g.CreatedAt, err = parseTime(created); err != nil {
		return store.Grant{}, err
	}
	if g.SpentAt, err = parseOptionalTime(spent); err != nil {
		return store.Grant{}, err
	}
	return g, nil
}
