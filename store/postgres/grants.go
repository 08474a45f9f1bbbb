package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"gatehouse/store"
)

const grantColumns = `id, session_id, kind, grant_key, line, place, facts, coalesce(ask_id, ''),
	claimed_by, claimed_at, state, created_at, spent_at`

// grantQuestion is the digest a once or deny grant is looked up by.
func grantQuestion(sessionID, line, place, facts string) string {
	return digest(sessionID, line, place, facts)
}

// answersQuestion selects the unclaimed once and deny grants of one
// question ($1 the digest, $2…$5 its parts), the host's deny first, then
// the oldest once grant.
const answersQuestion = `FROM grants
	WHERE question = $1 AND session_id = $2 AND line = $3 AND place = $4 AND facts = $5
	AND kind IN ('deny', 'once') AND state = 'available' AND claimed_at IS NULL
	ORDER BY kind = 'deny' DESC, id LIMIT 1`

func questionArgs(q store.Question) []any {
	return []any{grantQuestion(q.SessionID, q.Line, q.Place, q.Facts),
		dbText(q.SessionID), dbText(q.Line), dbText(q.Place), dbText(q.Facts)}
}

// FindGrant implements store.Ledger.
func (l *Ledger) FindGrant(ctx context.Context, q store.Question) (store.Grant, bool, error) {
	g, err := queryOne(ctx, l, readGrant, `SELECT `+grantColumns+` `+answersQuestion, questionArgs(q)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Grant{}, false, nil
	}
	if err != nil {
		return store.Grant{}, false, wrap("find grant", err)
	}
	return g, true, nil
}

// claimAttempts bounds how often ClaimGrant looks again after another line
// took the grant it meant to claim while another grant was still there.
const claimAttempts = 8

// ClaimGrant implements store.Ledger. The search and the claim are one
// UPDATE requiring claimed_at IS NULL; when it waits for another claim of
// the same row, the server rechecks that condition against the winner's
// version and this claim takes nothing, so a grant goes to exactly one
// line (G-9.7). A claim that lost its row while another grant of the
// question is still unclaimed tries again.
func (l *Ledger) ClaimGrant(ctx context.Context, q store.Question, claimant string) (store.Grant, bool, error) {
	if claimant == "" {
		return store.Grant{}, false, fmt.Errorf("claim grant: %w: a claimant is required", store.ErrInvalid)
	}
	args := append(questionArgs(q), dbText(claimant))
	for range claimAttempts {
		// One statement, which touches nothing when no grant waits (the
		// first time a line asks, the common case).
		g, err := queryOne(ctx, l, readGrant, `UPDATE grants SET claimed_by = $6, claimed_at = clock_timestamp()
			WHERE id = (SELECT id `+answersQuestion+`) AND claimed_at IS NULL AND state = 'available'
			RETURNING `+grantColumns, args...)
		if err == nil {
			return g, true, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return store.Grant{}, false, wrap("claim grant", err)
		}
		// Nothing claimed: none waits, or another line took the one this
		// statement chose while another is still there.
		if _, ok, err := l.FindGrant(ctx, q); err != nil || !ok {
			return store.Grant{}, false, err
		}
	}
	return store.Grant{}, false, nil
}

// SessionGrants implements store.Ledger.
func (l *Ledger) SessionGrants(ctx context.Context, sessionID string, keys []string) ([]string, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	digests := make([]string, len(keys))
	for i, k := range keys {
		digests[i] = digest(k)
	}
	held, err := queryAll(ctx, l, scanOne[string], `SELECT DISTINCT key_digest FROM grants
		WHERE session_id = $1 AND kind = 'session' AND state = 'available' AND key_digest = ANY($2)`,
		dbText(sessionID), digests)
	if err != nil {
		return nil, wrap("session grants", err)
	}
	var out []string
	for i, k := range keys {
		for _, h := range held {
			if h == digests[i] {
				out = append(out, k)
				break
			}
		}
	}
	return out, nil
}

// ListGrants implements store.Ledger.
func (l *Ledger) ListGrants(ctx context.Context, sessionID string) ([]store.Grant, error) {
	out, err := queryAll(ctx, l, readGrant, `SELECT `+grantColumns+` FROM grants WHERE session_id = $1 ORDER BY id`,
		dbText(sessionID))
	return out, wrap("list grants", err)
}

// ReleaseGrants implements store.Ledger.
func (l *Ledger) ReleaseGrants(ctx context.Context, claimant string, ids ...int64) error {
	if len(ids) == 0 || claimant == "" {
		return nil
	}
	_, err := l.exec(ctx, `UPDATE grants SET claimed_by = '', claimed_at = NULL
		WHERE claimed_by = $1 AND state = 'available' AND id = ANY($2)`, dbText(claimant), ids)
	return wrap("release", err)
}

// SpendGrants implements store.Ledger.
func (l *Ledger) SpendGrants(ctx context.Context, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := l.exec(ctx, `UPDATE grants SET state = 'spent', spent_at = clock_timestamp()
		WHERE kind <> 'session' AND state = 'available' AND id = ANY($1)`, ids)
	return wrap("spend", err)
}

func readGrant(row pgx.Row) (store.Grant, error) {
	var g store.Grant
	var state string
	var claimed, spent *time.Time
	if err := row.Scan(&g.ID, &g.SessionID, &g.Kind, &g.GrantKey, &g.Line, &g.Place, &g.Facts,
		&g.AskID, &g.ClaimedBy, &claimed, &state, &g.CreatedAt, &spent); err != nil {
		return store.Grant{}, err
	}
	if err := decodeAll(&g.SessionID, &g.GrantKey, &g.Line, &g.Place, &g.Facts, &g.ClaimedBy); err != nil {
		return store.Grant{}, fmt.Errorf("grant %d: %w", g.ID, err)
	}
	g.Spent = state == "spent"
	g.ClaimedAt, g.CreatedAt, g.SpentAt = utc(claimed), g.CreatedAt.UTC(), utc(spent)
	return g, nil
}
