package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"gatehouse/store"
)

// askColumns is the column list readAsk expects, in its order.
const askColumns = `id, session_id, agent_id, command, argv, cwd, paths, reason, rule, policy,
	rules, line, place, coalesce(outcome, ''), scope, note, created_at, coalesce(answered_at, ''),
	answered_by, closed_reason, facts`

// nextRev is the value a write to an asks row stores in rev. Every such
// write runs inside a transaction holding the file's write lock, so revs
// are unique and commit in increasing order across processes.
const nextRev = `(SELECT coalesce(max(rev), 0) + 1 FROM asks)`

// ruleRow is an AskRule as the rules column stores it: with its key.
type ruleRow struct {
	Reason string   `json:"reason"`
	Rule   string   `json:"rule"`
	Policy string   `json:"policy"`
	Paths  []string `json:"paths"`
	Key    string   `json:"key"`
}

func encodeRules(rules []store.AskRule) (string, error) {
	rows := make([]ruleRow, len(rules))
	for i, r := range rules {
		rows[i] = ruleRow{Reason: r.Reason, Rule: r.Rule, Policy: r.Policy, Paths: r.Paths, Key: r.Key}
		if rows[i].Paths == nil {
			rows[i].Paths = []string{}
		}
	}
	b, err := json.Marshal(rows)
	return string(b), err
}

func decodeRules(text string) ([]store.AskRule, error) {
	var rows []ruleRow
	if err := json.Unmarshal([]byte(text), &rows); err != nil {
		return nil, err
	}
	rules := make([]store.AskRule, len(rows))
	for i, r := range rows {
		rules[i] = store.AskRule{Reason: r.Reason, Rule: r.Rule, Policy: r.Policy, Paths: r.Paths, Key: r.Key}
	}
	return rules, nil
}

// grantKeyOf is the grant_key column of an ask: its rules' keys, one per
// line, so the unique index tells apart questions naming other rules.
func grantKeyOf(rules []store.AskRule) string {
	keys := make([]string, len(rules))
	for i, r := range rules {
		keys[i] = r.Key
	}
	return strings.Join(keys, "\n")
}

// RaiseAsk implements store.Ledger.
func (l *Ledger) RaiseAsk(ctx context.Context, rec store.Record) (store.Record, bool, error) {
	if rec.SessionID == "" {
		return store.Record{}, false, fmt.Errorf("raise: %w: an ask needs a session id", store.ErrInvalid)
	}
	if len(rec.Rules) == 0 {
		return store.Record{}, false, fmt.Errorf("raise: %w: an ask names at least one rule", store.ErrInvalid)
	}
	for _, r := range rec.Rules {
		if r.Key == "" {
			return store.Record{}, false, fmt.Errorf("raise: %w: every rule of an ask needs a grant key", store.ErrInvalid)
		}
	}
	rules, err := encodeRules(rec.Rules)
	if err != nil {
		return store.Record{}, false, wrap("raise", err)
	}
	grantKey := grantKeyOf(rec.Rules)

	tx, err := l.begin(ctx)
	if err != nil {
		return store.Record{}, false, wrap("raise", err)
	}
	defer tx.rollback()

	existing, err := readAsk(tx.QueryRowContext(ctx, `SELECT `+askColumns+` FROM asks
		WHERE session_id = ? AND line = ? AND place = ? AND grant_key = ? AND facts = ?
		AND outcome IS NULL`,
		rec.SessionID, rec.Line, rec.Place, grantKey, rec.Facts))
	switch {
	case err == nil && existing.Closed == "":
		return existing, false, nil
	case err == nil:
		if _, err := tx.ExecContext(ctx, `UPDATE asks SET closed_reason = '', closed_at = NULL,
			rev = `+nextRev+` WHERE id = ?`, existing.ID); err != nil {
			return store.Record{}, false, fmt.Errorf("raise: reopen %s: %w", existing.ID, err)
		}
		existing.Closed = ""
		if err := tx.commit(); err != nil {
			return store.Record{}, false, wrap("raise", err)
		}
		return existing, true, nil
	case !isNoRows(err):
		return store.Record{}, false, wrap("raise", err)
	}

	argv, _ := json.Marshal(nonNil(rec.Argv))
	paths, _ := json.Marshal(nonNil(rec.Paths))
	var raised store.Record
	for {
		// 48 random bits rarely collide; when they do, the insert fails
		// on the primary key and a fresh draw goes again. The write lock
		// held since BEGIN makes the check and the insert one step.
		id := store.NewID()
		raised, err = readAsk(tx.QueryRowContext(ctx, `INSERT INTO asks (id, session_id,
			agent_id, command, argv, cwd, paths, reason, rule, policy, rules, line, place,
			grant_key, facts, created_at, rev)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, `+nextRev+`)
			RETURNING `+askColumns,
			id, rec.SessionID, rec.AgentID, rec.Command, string(argv), rec.Cwd, string(paths),
			rec.Reason, rec.Rule, rec.Policy, rules, rec.Line, rec.Place, grantKey, rec.Facts,
			formatTime(tx.now)))
		if err == nil {
			break
		}
		if taken, checkErr := askExists(ctx, tx, id); checkErr != nil || !taken {
			return store.Record{}, false, wrap("raise", err)
		}
	}
	if err := tx.commit(); err != nil {
		return store.Record{}, false, wrap("raise", err)
	}
	return raised, true, nil
}

func askExists(ctx context.Context, tx *tx, id string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM asks WHERE id = ?`, id).Scan(&n)
	return n > 0, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// GetAsk implements store.Ledger.
func (l *Ledger) GetAsk(ctx context.Context, id string) (store.Record, error) {
	rec, err := readAsk(l.sql.QueryRowContext(ctx, `SELECT `+askColumns+` FROM asks WHERE id = ?`, id))
	if isNoRows(err) {
		return store.Record{}, fmt.Errorf("ask %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Record{}, fmt.Errorf("ask %s: %w", id, err)
	}
	return rec, nil
}

// ListAsks implements store.Ledger.
func (l *Ledger) ListAsks(ctx context.Context, sessionID string, pendingOnly bool) ([]store.Record, error) {
	where := `1`
	if pendingOnly {
		where = `outcome IS NULL AND closed_reason = ''`
	}
	var args []any
	if sessionID != "" {
		where += ` AND session_id = ?`
		args = append(args, sessionID)
	}
	// rowid breaks ties between asks raised within one clock tick.
	rows, err := l.sql.QueryContext(ctx, `SELECT `+askColumns+` FROM asks WHERE `+where+
		` ORDER BY created_at, rowid`, args...)
	if err != nil {
		return nil, wrap("list asks", err)
	}
	defer rows.Close()
	var out []store.Record
	for rows.Next() {
		rec, err := readAsk(rows)
		if err != nil {
			return nil, wrap("list asks", err)
		}
		out = append(out, rec)
	}
	return out, wrap("list asks", rows.Err())
}

// AnswerAsk implements store.Ledger.
func (l *Ledger) AnswerAsk(ctx context.Context, id string, s store.Settlement) (store.Record, error) {
	if err := checkSettlement(s); err != nil {
		return store.Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	tx, err := l.begin(ctx)
	if err != nil {
		return store.Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	defer tx.rollback()

	// The condition on outcome is the whole of G-10.1's "exactly one
	// success": the second of two answers finds no pending row to update.
	settled, err := readAsk(tx.QueryRowContext(ctx, `UPDATE asks SET outcome = ?, scope = ?,
		note = ?, answered_at = ?, answered_by = ?, rev = `+nextRev+`
		WHERE id = ? AND outcome IS NULL
		RETURNING `+askColumns,
		s.Outcome, s.Scope, s.Note, formatTime(tx.now), s.By, id))
	if isNoRows(err) {
		return store.Record{}, fmt.Errorf("ask %s: %w", id, missingOrSettled(ctx, tx, id))
	}
	if err != nil {
		return store.Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	if s.Grant == store.GrantSession {
		for _, key := range settled.GrantKeys() {
			if _, err := tx.ExecContext(ctx, `INSERT INTO grants
				(session_id, kind, grant_key, line, place, facts, ask_id, created_at)
				VALUES (?, 'session', ?, ?, ?, ?, ?, ?)`,
				settled.SessionID, key, settled.Line, settled.Place, settled.Facts, id,
				formatTime(tx.now)); err != nil {
				return store.Record{}, fmt.Errorf("answer %s: grant: %w", id, err)
			}
		}
	} else if _, err := tx.ExecContext(ctx, `INSERT INTO grants
		(session_id, kind, grant_key, line, place, facts, ask_id, created_at)
		SELECT session_id, ?, grant_key, line, place, facts, id, ? FROM asks WHERE id = ?`,
		s.Grant, formatTime(tx.now), id); err != nil {
		return store.Record{}, fmt.Errorf("answer %s: grant: %w", id, err)
	}
	if err := tx.commit(); err != nil {
		return store.Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	return settled, nil
}

// checkSettlement refuses what the schema would refuse less politely.
func checkSettlement(s store.Settlement) error {
	switch {
	case s.Outcome != store.Allow && s.Outcome != store.Deny:
		return fmt.Errorf("%w: outcome %q is not allow or deny", store.ErrInvalid, s.Outcome)
	case s.Scope != store.Once && s.Scope != store.Session:
		return fmt.Errorf("%w: scope %q is not once or session", store.ErrInvalid, s.Scope)
	case s.Grant != store.GrantOnce && s.Grant != store.GrantSession && s.Grant != store.GrantDeny:
		return fmt.Errorf("%w: grant kind %q", store.ErrInvalid, s.Grant)
	}
	return nil
}

// missingOrSettled says why a conditional update on a pending ask touched
// nothing.
func missingOrSettled(ctx context.Context, tx *tx, id string) error {
	switch taken, err := askExists(ctx, tx, id); {
	case err != nil:
		return err
	case !taken:
		return store.ErrNotFound
	default:
		return store.ErrAlreadyAnswered
	}
}

// CloseAsk implements store.Ledger.
func (l *Ledger) CloseAsk(ctx context.Context, id, reason string) error {
	if reason == "" {
		return fmt.Errorf("close %s: %w: a reason is required", id, store.ErrInvalid)
	}
	tx, err := l.begin(ctx)
	if err != nil {
		return fmt.Errorf("close %s: %w", id, err)
	}
	defer tx.rollback()
	res, err := tx.ExecContext(ctx, `UPDATE asks SET closed_reason = ?, closed_at = ?,
		rev = `+nextRev+` WHERE id = ? AND outcome IS NULL`, reason, formatTime(tx.now), id)
	if err != nil {
		return fmt.Errorf("close %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("close %s: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("ask %s: %w", id, missingOrSettled(ctx, tx, id))
	}
	return wrap("close "+id, tx.commit())
}

// Revision implements store.Ledger.
func (l *Ledger) Revision(ctx context.Context) (int64, error) {
	var rev int64
	err := l.sql.QueryRowContext(ctx, `SELECT coalesce(max(rev), 0) FROM asks`).Scan(&rev)
	return rev, wrap("revision", err)
}

// ChangesSince implements store.Ledger.
func (l *Ledger) ChangesSince(ctx context.Context, rev int64) ([]store.Change, error) {
	rows, err := l.sql.QueryContext(ctx, `SELECT rev, `+askColumns+` FROM asks
		WHERE rev > ? ORDER BY rev`, rev)
	if err != nil {
		return nil, wrap("changes", err)
	}
	defer rows.Close()
	var out []store.Change
	for rows.Next() {
		var c store.Change
		if c.Record, err = readAsk(rows, &c.Rev); err != nil {
			return out, wrap("changes", err)
		}
		out = append(out, c)
	}
	return out, wrap("changes", rows.Err())
}

type rowScanner interface{ Scan(dest ...any) error }

// readAsk scans one row selected with askColumns, after any leading
// columns the query put first.
func readAsk(row rowScanner, leading ...any) (store.Record, error) {
	var rec store.Record
	var argv, paths, rules, created, answered string
	dest := append(leading, &rec.ID, &rec.SessionID, &rec.AgentID, &rec.Command, &argv,
		&rec.Cwd, &paths, &rec.Reason, &rec.Rule, &rec.Policy, &rules, &rec.Line, &rec.Place,
		&rec.Outcome, &rec.Scope, &rec.Note, &created, &answered, &rec.AnsweredBy, &rec.Closed,
		&rec.Facts)
	if err := row.Scan(dest...); err != nil {
		return store.Record{}, err
	}
	if err := json.Unmarshal([]byte(argv), &rec.Argv); err != nil {
		return store.Record{}, fmt.Errorf("ask %s: argv: %w", rec.ID, err)
	}
	if err := json.Unmarshal([]byte(paths), &rec.Paths); err != nil {
		return store.Record{}, fmt.Errorf("ask %s: paths: %w", rec.ID, err)
	}
	var err error
	if rec.Rules, err = decodeRules(rules); err != nil {
		return store.Record{}, fmt.Errorf("ask %s: rules: %w", rec.ID, err)
	}
	if rec.CreatedAt, err = parseTime(created); err != nil {
		return store.Record{}, fmt.Errorf("ask %s: created_at: %w", rec.ID, err)
	}
	if rec.AnsweredAt, err = parseOptionalTime(answered); err != nil {
		return store.Record{}, fmt.Errorf("ask %s: answered_at: %w", rec.ID, err)
	}
	return rec, nil
}
