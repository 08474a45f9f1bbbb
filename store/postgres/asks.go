package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"gatehouse/store"
)

// askColumns is the column list readAsk expects, in its order.
const askColumns = `id, session_id, agent_id, command, argv, cwd, paths, reason, rule, policy,
	rules, line, place, coalesce(outcome, ''), scope, note, created_at, answered_at,
	answered_by, closed_reason, facts`

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
		rows[i] = ruleRow{Reason: r.Reason, Rule: r.Rule, Policy: r.Policy, Paths: nonNil(r.Paths), Key: r.Key}
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
// line.
func grantKeyOf(rules []store.AskRule) string {
	keys := make([]string, len(rules))
	for i, r := range rules {
		keys[i] = r.Key
	}
	return strings.Join(keys, "\n")
}

// askQuestion is the digest one unanswered ask per question is enforced
// on (G-9.8).
func askQuestion(sessionID, line, place, grantKey, facts string) string {
	return digest(sessionID, line, place, grantKey, facts)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// RaiseAsk implements store.Ledger. An unanswered, unclosed ask for the
// question is returned by a plain read; otherwise one transaction, holding
// the change counter, reopens the closed ask or inserts a new one.
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
	question := askQuestion(rec.SessionID, rec.Line, rec.Place, grantKey, rec.Facts)
	const findOpen = `SELECT ` + askColumns + ` FROM asks WHERE question = $1 AND outcome IS NULL`

	// A retry of a question still waiting is the common case, and needs
	// no lock.
	if existing, err := queryOne(ctx, l, readAsk1, findOpen, question); err == nil && existing.Closed == "" {
		return existing, false, nil
	} else if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return store.Record{}, false, wrap("raise", err)
	}

	argv, _ := json.Marshal(nonNil(rec.Argv))
	paths, _ := json.Marshal(nonNil(rec.Paths))
	var out store.Record
	var raised bool
	errUnchanged := errors.New("unchanged")
	err = l.inTx(ctx, func(tx pgx.Tx) error {
		rev, err := bumpRev(ctx, tx)
		if err != nil {
			return err
		}
		// Holding the counter, no other host raises or answers meanwhile:
		// what this read finds is the truth until commit.
		existing, err := readAsk(tx.QueryRow(ctx, findOpen, question))
		switch {
		case err == nil && existing.Closed == "":
			out, raised = existing, false
			return errUnchanged // roll the counter back: nothing changed
		case err == nil:
			if _, err := tx.Exec(ctx, `UPDATE asks SET closed_reason = '', closed_at = NULL, rev = $1
				WHERE id = $2`, rev, existing.ID); err != nil {
				return fmt.Errorf("reopen %s: %w", existing.ID, err)
			}
			existing.Closed = ""
			out, raised = existing, true
			return nil
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		for {
			// 48 random bits rarely collide; when they do, the insert
			// adds nothing and a fresh draw goes again.
			out, err = readAsk(tx.QueryRow(ctx, `INSERT INTO asks (id, session_id, agent_id, command,
				argv, cwd, paths, reason, rule, policy, rules, line, place, grant_key, facts, question,
				created_at, rev)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
				clock_timestamp(), $17)
				ON CONFLICT (id) DO NOTHING
				RETURNING `+askColumns,
				store.NewID(), dbText(rec.SessionID), dbText(rec.AgentID), dbText(rec.Command), string(argv),
				dbText(rec.Cwd), string(paths), dbText(rec.Reason), dbText(rec.Rule), dbText(rec.Policy),
				rules, dbText(rec.Line), dbText(rec.Place), dbText(grantKey), dbText(rec.Facts), question, rev))
			if !errors.Is(err, pgx.ErrNoRows) {
				raised = err == nil
				return err
			}
		}
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		return store.Record{}, false, wrap("raise", err)
	}
	return out, raised, nil
}

// GetAsk implements store.Ledger.
func (l *Ledger) GetAsk(ctx context.Context, id string) (store.Record, error) {
	rec, err := queryOne(ctx, l, readAsk1, `SELECT `+askColumns+` FROM asks WHERE id = $1`, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Record{}, fmt.Errorf("ask %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Record{}, fmt.Errorf("ask %s: %w", id, err)
	}
	return rec, nil
}

// ListAsks implements store.Ledger.
func (l *Ledger) ListAsks(ctx context.Context, sessionID string, pendingOnly bool) ([]store.Record, error) {
	where := `true`
	if pendingOnly {
		where = `outcome IS NULL AND closed_reason = ''`
	}
	var args []any
	if sessionID != "" {
		where += ` AND session_id = $1`
		args = append(args, dbText(sessionID))
	}
	out, err := queryAll(ctx, l, readAsk1, `SELECT `+askColumns+` FROM asks WHERE `+where+
		` ORDER BY created_at, seq`, args...)
	return out, wrap("list asks", err)
}

// AnswerAsk implements store.Ledger in one statement: it takes the change
// counter, settles the ask only while outcome IS NULL (the server rechecks
// that against the newest version of the row when it waits for another
// answer, so of two answers racing on any hosts the second updates
// nothing, G-10.1) and inserts the grants, all committed at once. The
// ask's immutable parts (its question and rules, which name the grants)
// are read first without a lock, so the counter is held only while the
// statement runs and commits.
func (l *Ledger) AnswerAsk(ctx context.Context, id string, s store.Settlement) (store.Record, error) {
	if err := checkSettlement(s); err != nil {
		return store.Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	asked, err := l.GetAsk(ctx, id)
	if err != nil {
		return store.Record{}, err
	}
	if !asked.Pending() {
		return store.Record{}, fmt.Errorf("ask %s: %w", id, store.ErrAlreadyAnswered)
	}
	keys := []string{grantKeyOf(asked.Rules)}
	if s.Grant == store.GrantSession {
		keys = asked.GrantKeys()
	}
	stored, digests := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		stored[i], digests[i] = dbText(k), digest(k)
	}
	settled, err := queryOne(ctx, l, readAsk1, `WITH counter AS (
			UPDATE ledger_state SET rev = rev + 1 RETURNING rev
		), settled AS (
			UPDATE asks SET outcome = $1, scope = $2, note = $3, answered_at = clock_timestamp(),
				answered_by = $4, rev = (SELECT rev FROM counter)
			WHERE id = $5 AND outcome IS NULL
			RETURNING *
		), granted AS (
			INSERT INTO grants (session_id, kind, grant_key, key_digest, line, place, facts, question,
				ask_id, created_at)
			SELECT settled.session_id, $6, k.key, k.digest, settled.line, settled.place, settled.facts, $7,
				settled.id, clock_timestamp()
			FROM settled, unnest($8::text[], $9::text[]) AS k(key, digest)
		)
		SELECT `+askColumns+` FROM settled`,
		s.Outcome, s.Scope, dbText(s.Note), dbText(s.By), id, s.Grant,
		grantQuestion(asked.SessionID, asked.Line, asked.Place, asked.Facts), stored, digests)
	if errors.Is(err, pgx.ErrNoRows) {
		// Another host's answer came between the read and the update.
		return store.Record{}, fmt.Errorf("ask %s: %w", id, store.ErrAlreadyAnswered)
	}
	if err != nil {
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
// nothing: ErrNotFound or ErrAlreadyAnswered (or the read's own failure).
func missingOrSettled(ctx context.Context, tx pgx.Tx, id string) error {
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM asks WHERE id = $1)`, id).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return store.ErrNotFound
	}
	return store.ErrAlreadyAnswered
}

// CloseAsk implements store.Ledger.
func (l *Ledger) CloseAsk(ctx context.Context, id, reason string) error {
	if reason == "" {
		return fmt.Errorf("close %s: %w: a reason is required", id, store.ErrInvalid)
	}
	err := l.inTx(ctx, func(tx pgx.Tx) error {
		rev, err := bumpRev(ctx, tx)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE asks SET closed_reason = $1, closed_at = clock_timestamp(), rev = $2
			WHERE id = $3 AND outcome IS NULL`, dbText(reason), rev, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return missingOrSettled(ctx, tx, id)
		}
		return nil
	})
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrAlreadyAnswered):
		return fmt.Errorf("ask %s: %w", id, err)
	default:
		return wrap("close "+id, err)
	}
}

// Revision implements store.Ledger.
func (l *Ledger) Revision(ctx context.Context) (int64, error) {
	rev, err := queryOne(ctx, l, scanOne[int64], `SELECT coalesce(max(rev), 0) FROM asks`)
	return rev, wrap("revision", err)
}

// ChangesSince implements store.Ledger. Revs commit in order (see
// bumpRev), so a change this read misses has a rev above every one it
// returns.
func (l *Ledger) ChangesSince(ctx context.Context, rev int64) ([]store.Change, error) {
	out, err := queryAll(ctx, l, func(row pgx.Row) (store.Change, error) {
		var c store.Change
		var err error
		c.Record, err = readAsk(row, &c.Rev)
		return c, err
	}, `SELECT rev, `+askColumns+` FROM asks WHERE rev > $1 ORDER BY rev`, rev)
	return out, wrap("changes", err)
}

// readAsk1 is readAsk without leading columns.
func readAsk1(row pgx.Row) (store.Record, error) { return readAsk(row) }

// scanOne reads a row of one column.
func scanOne[T any](row pgx.Row) (T, error) {
	var v T
	err := row.Scan(&v)
	return v, err
}

// readAsk scans one row selected with askColumns, after any leading
// columns the query put first.
func readAsk(row pgx.Row, leading ...any) (store.Record, error) {
	var rec store.Record
	var argv, paths, rules string
	var created time.Time
	var answered *time.Time
	dest := append(leading, &rec.ID, &rec.SessionID, &rec.AgentID, &rec.Command, &argv,
		&rec.Cwd, &paths, &rec.Reason, &rec.Rule, &rec.Policy, &rules, &rec.Line, &rec.Place,
		&rec.Outcome, &rec.Scope, &rec.Note, &created, &answered, &rec.AnsweredBy, &rec.Closed, &rec.Facts)
	if err := row.Scan(dest...); err != nil {
		return store.Record{}, err
	}
	if err := decodeAll(&rec.SessionID, &rec.AgentID, &rec.Command, &rec.Cwd, &rec.Reason, &rec.Rule,
		&rec.Policy, &rec.Line, &rec.Place, &rec.Note, &rec.AnsweredBy, &rec.Closed, &rec.Facts); err != nil {
		return store.Record{}, fmt.Errorf("ask %s: %w", rec.ID, err)
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
	rec.CreatedAt, rec.AnsweredAt = created.UTC(), utc(answered)
	return rec, nil
}
