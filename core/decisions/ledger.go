package decisions

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"gatehouse/store"
)

// Ledger is the decision ledger of one store. It is safe for concurrent
// use; one Ledger per store per process is the intended shape (each runs
// its own change poller while someone waits or watches).
type Ledger struct {
	db *store.DB

	// mu guards the listeners and the poller's liveness.
	mu      sync.Mutex
	waiters map[string]map[*waiter]struct{} // ask id -> lines waiting on it
	subs    map[*subscriber]struct{}
	polling bool

	// scanMu serialises scans; lastRev is the newest asks.rev already
	// turned into events. Lock order: scanMu before mu.
	scanMu  sync.Mutex
	lastRev int64
}

// New returns the ledger kept in db.
func New(db *store.DB) *Ledger {
	return &Ledger{
		db:      db,
		waiters: map[string]map[*waiter]struct{}{},
		subs:    map[*subscriber]struct{}{},
	}
}

// DB is the store the ledger writes to.
func (l *Ledger) DB() *store.DB { return l.db }

// askColumns is the column list readRecord expects, in its order.
const askColumns = `id, session_id, agent_id, command, argv, cwd, paths, reason, rule, policy,
	line, place, coalesce(outcome, ''), scope, note, created_at, coalesce(answered_at, ''),
	answered_by, closed_reason`

// nextRev is the value a write to an asks row stores in rev. Every such
// write runs inside a transaction holding the file's write lock, so revs
// are unique and commit in increasing order across processes.
const nextRev = `(SELECT coalesce(max(rev), 0) + 1 FROM asks)`

// Raise records a pending ask for rec's question and returns it, with a
// fresh id and created_at. grantKey is what an allow with scope session
// would cover (chosen by the gate, e.g. the rule and the command it
// matched); it must not be empty.
//
// A question already pending for the same (session, line, place,
// grantKey) is returned as it is instead: a retry raises no duplicate
// (G-9.8). A pending ask that was closed is put back in the queue.
func (l *Ledger) Raise(ctx context.Context, rec Record, grantKey string) (Record, error) {
	if rec.SessionID == "" {
		return Record{}, fmt.Errorf("raise: %w: an ask needs a session id", ErrInvalid)
	}
	if grantKey == "" {
		return Record{}, fmt.Errorf("raise: %w: an ask needs a grant key", ErrInvalid)
	}
	tx, err := l.db.BeginTx(ctx)
	if err != nil {
		return Record{}, fmt.Errorf("raise: %w", err)
	}
	defer tx.Rollback()

	existing, err := readRecord(tx.QueryRowContext(ctx, `SELECT `+askColumns+` FROM asks
		WHERE session_id = ? AND line = ? AND place = ? AND grant_key = ? AND outcome IS NULL`,
		rec.SessionID, rec.Line, rec.Place, grantKey))
	switch {
	case err == nil && existing.Closed == "":
		return existing, nil
	case err == nil:
		if _, err := tx.ExecContext(ctx, `UPDATE asks SET closed_reason = '', closed_at = NULL,
			rev = `+nextRev+` WHERE id = ?`, existing.ID); err != nil {
			return Record{}, fmt.Errorf("raise: reopen %s: %w", existing.ID, err)
		}
		existing.Closed = ""
		if err := tx.Commit(); err != nil {
			return Record{}, fmt.Errorf("raise: %w", err)
		}
		l.changed(ctx)
		return existing, nil
	case !errors.Is(err, sql.ErrNoRows):
		return Record{}, fmt.Errorf("raise: %w", err)
	}

	argv, _ := json.Marshal(nonNil(rec.Argv))
	paths, _ := json.Marshal(nonNil(rec.Paths))
	var raised Record
	for {
		// 48 random bits rarely collide; when they do, the insert fails
		// on the primary key and a fresh draw goes again. The write lock
		// held since BEGIN makes the check and the insert one step.
		id := newID()
		raised, err = readRecord(tx.QueryRowContext(ctx, `INSERT INTO asks (id, session_id,
			agent_id, command, argv, cwd, paths, reason, rule, policy, line, place, grant_key,
			created_at, rev)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, `+nextRev+`)
			RETURNING `+askColumns,
			id, rec.SessionID, rec.AgentID, rec.Command, string(argv), rec.Cwd, string(paths),
			rec.Reason, rec.Rule, rec.Policy, rec.Line, rec.Place, grantKey,
			store.FormatTime(tx.Now)))
		if err == nil {
			break
		}
		if taken, checkErr := askExists(ctx, tx, id); checkErr != nil || !taken {
			return Record{}, fmt.Errorf("raise: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return Record{}, fmt.Errorf("raise: %w", err)
	}
	l.changed(ctx)
	return raised, nil
}

func askExists(ctx context.Context, tx *store.Tx, id string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM asks WHERE id = ?`, id).Scan(&n)
	return n > 0, err
}

// newID is 48 random bits in 12 lowercase hex characters (G-7.5).
func newID() string {
	var b [6]byte
	rand.Read(b[:]) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b[:])
}

// Get returns one ask by id.
func (l *Ledger) Get(ctx context.Context, id string) (Record, error) {
	rec, err := readRecord(l.db.QueryRowContext(ctx, `SELECT `+askColumns+` FROM asks WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, fmt.Errorf("ask %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Record{}, fmt.Errorf("ask %s: %w", id, err)
	}
	return rec, nil
}

// Pending returns the queue: unanswered asks that were not closed, oldest
// first, of one session or ("" ) of every session.
func (l *Ledger) Pending(ctx context.Context, sessionID string) ([]Record, error) {
	return l.query(ctx, `outcome IS NULL AND closed_reason = ''`, sessionID)
}

// List returns every ask, answered or not, oldest first, of one session or
// ("") of every session.
func (l *Ledger) List(ctx context.Context, sessionID string) ([]Record, error) {
	return l.query(ctx, `1`, sessionID)
}

func (l *Ledger) query(ctx context.Context, where, sessionID string) ([]Record, error) {
	var args []any
	if sessionID != "" {
		where += ` AND session_id = ?`
		args = append(args, sessionID)
	}
	// rowid breaks ties between asks raised within one clock tick.
	rows, err := l.db.QueryContext(ctx, `SELECT `+askColumns+` FROM asks WHERE `+where+
		` ORDER BY created_at, rowid`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		rec, err := readRecord(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, rows.Err()
}

// Answer settles a pending ask and returns the settled record. In one
// transaction it writes the answer, if and only if the ask is still
// unanswered, and leaves the grant the answer gives:
//   - allow once: a once grant for exactly (session, line, place);
//   - allow session: a session grant for (session, grant key) that stays;
//   - deny (once): a one-shot refusal of (session, line, place).
//
// Deny with scope session, or an unknown outcome or scope, is ErrInvalid;
// an unknown id is ErrNotFound; an answered one is ErrAlreadyAnswered, so
// of two hosts answering at once exactly one succeeds (G-10.1). A closed
// ask can still be answered. Lines waiting on the ask are released before
// Answer returns.
func (l *Ledger) Answer(ctx context.Context, id string, a Answer) (Record, error) {
	kind, scope, err := grantFor(a)
	if err != nil {
		return Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	tx, err := l.db.BeginTx(ctx)
	if err != nil {
		return Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	defer tx.Rollback()

	// The condition on outcome is the whole of G-10.1's "exactly one
	// success": the second of two answers finds no pending row to update.
	settled, err := readRecord(tx.QueryRowContext(ctx, `UPDATE asks SET outcome = ?, scope = ?,
		note = ?, answered_at = ?, answered_by = ?, rev = `+nextRev+`
		WHERE id = ? AND outcome IS NULL
		RETURNING `+askColumns,
		a.Outcome, scope, a.Note, store.FormatTime(tx.Now), a.By, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, fmt.Errorf("ask %s: %w", id, missingOrSettled(ctx, tx, id))
	}
	if err != nil {
		return Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO grants
		(session_id, kind, grant_key, line, place, ask_id, created_at)
		SELECT session_id, ?, grant_key, line, place, id, ? FROM asks WHERE id = ?`,
		kind, store.FormatTime(tx.Now), id); err != nil {
		return Record{}, fmt.Errorf("answer %s: grant: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	l.changed(ctx)
	return settled, nil
}

// grantFor checks an answer and names the grant it gives and the scope to
// record.
func grantFor(a Answer) (kind, scope string, err error) {
	scope = a.Scope
	if scope == "" {
		scope = Once
	}
	if scope != Once && scope != Session {
		return "", "", fmt.Errorf("%w: scope %q is not once or session", ErrInvalid, a.Scope)
	}
	switch {
	case a.Outcome == Allow && scope == Once:
		return GrantOnce, scope, nil
	case a.Outcome == Allow:
		return GrantSession, scope, nil
	case a.Outcome == Deny && scope == Once:
		return GrantDeny, scope, nil
	case a.Outcome == Deny:
		return "", "", fmt.Errorf("%w: deny answers once; scope session is not allowed", ErrInvalid)
	default:
		return "", "", fmt.Errorf("%w: outcome %q is not allow or deny", ErrInvalid, a.Outcome)
	}
}

// missingOrSettled says why a conditional update on a pending ask touched
// nothing.
func missingOrSettled(ctx context.Context, tx *store.Tx, id string) error {
	switch taken, err := askExists(ctx, tx, id); {
	case err != nil:
		return err
	case !taken:
		return ErrNotFound
	default:
		return ErrAlreadyAnswered
	}
}

// Close takes a pending ask out of the queue without answering it, with a
// word saying why ("cancelled"), for a line that stopped waiting because
// its context ended. The record stays unanswered: a host may still answer
// it, and the same question raised again puts it back in the queue.
//
// A line whose inline handler gave no answer within ask_timeout should not
// Close its ask: G-10.4 leaves such an ask pending for a host to answer.
func (l *Ledger) Close(ctx context.Context, id, reason string) error {
	if reason == "" {
		return fmt.Errorf("close %s: %w: a reason is required", id, ErrInvalid)
	}
	tx, err := l.db.BeginTx(ctx)
	if err != nil {
		return fmt.Errorf("close %s: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE asks SET closed_reason = ?, closed_at = ?,
		rev = `+nextRev+` WHERE id = ? AND outcome IS NULL`, reason, store.FormatTime(tx.Now), id)
	if err != nil {
		return fmt.Errorf("close %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("close %s: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("ask %s: %w", id, missingOrSettled(ctx, tx, id))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("close %s: %w", id, err)
	}
	l.changed(ctx)
	return nil
}

type rowScanner interface{ Scan(dest ...any) error }

// readRecord scans one row selected with askColumns, after any leading
// columns the query put first.
func readRecord(row rowScanner, leading ...any) (Record, error) {
	var rec Record
	var argv, paths, created, answered string
	dest := append(leading, &rec.ID, &rec.SessionID, &rec.AgentID, &rec.Command, &argv,
		&rec.Cwd, &paths, &rec.Reason, &rec.Rule, &rec.Policy, &rec.Line, &rec.Place,
		&rec.Outcome, &rec.Scope, &rec.Note, &created, &answered, &rec.AnsweredBy, &rec.Closed)
	if err := row.Scan(dest...); err != nil {
		return Record{}, err
	}
	if err := json.Unmarshal([]byte(argv), &rec.Argv); err != nil {
		return Record{}, fmt.Errorf("ask %s: argv: %w", rec.ID, err)
	}
	if err := json.Unmarshal([]byte(paths), &rec.Paths); err != nil {
		return Record{}, fmt.Errorf("ask %s: paths: %w", rec.ID, err)
	}
	var err error
	if rec.CreatedAt, err = store.ParseTime(created); err != nil {
		return Record{}, fmt.Errorf("ask %s: created_at: %w", rec.ID, err)
	}
	if rec.AnsweredAt, err = parseOptionalTime(answered); err != nil {
		return Record{}, fmt.Errorf("ask %s: answered_at: %w", rec.ID, err)
	}
	return rec, nil
}

// FindGrant returns the grant that answers a command at (line, place) of a
// session, if one is available: a one-shot refusal or once grant given for
// exactly that (session, line, place), else a session grant for
// (session, grantKey). A refusal comes first (the host's last word on that
// very line), then a once grant (so it is the one the retry spends). Finding
// a grant does not spend it: see Spend.
func (l *Ledger) FindGrant(ctx context.Context, sessionID, line, place, grantKey string) (Grant, bool, error) {
	row := l.db.QueryRowContext(ctx, `SELECT `+grantColumns+` FROM grants
		WHERE session_id = ? AND state = 'available' AND (
			(kind IN ('deny', 'once') AND line = ? AND place = ?)
			OR (kind = 'session' AND grant_key = ? AND grant_key != ''))
		ORDER BY CASE kind WHEN 'deny' THEN 0 WHEN 'once' THEN 1 ELSE 2 END, id
		LIMIT 1`, sessionID, line, place, grantKey)
	g, err := readGrant(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Grant{}, false, nil
	}
	if err != nil {
		return Grant{}, false, fmt.Errorf("find grant: %w", err)
	}
	return g, true, nil
}

// Spend marks once grants and refusals spent, in one transaction, when the
// line that used them ends (G-9.7). Session grants are never spent; ids of
// session grants, of spent grants and unknown ids are passed over.
func (l *Ledger) Spend(ctx context.Context, grantIDs ...int64) error {
	if len(grantIDs) == 0 {
		return nil
	}
	tx, err := l.db.BeginTx(ctx)
	if err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	defer tx.Rollback()
	args := []any{store.FormatTime(tx.Now)}
	for _, id := range grantIDs {
		args = append(args, id)
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(grantIDs)), ",")
	if _, err := tx.ExecContext(ctx, `UPDATE grants SET state = 'spent', spent_at = ?
		WHERE id IN (`+marks+`) AND kind != 'session' AND state = 'available'`, args...); err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	return tx.Commit()
}

const grantColumns = `id, session_id, kind, grant_key, line, place, coalesce(ask_id, ''),
	state, created_at, coalesce(spent_at, '')`

func readGrant(row rowScanner) (Grant, error) {
	var g Grant
	var state, created, spent string
	if err := row.Scan(&g.ID, &g.SessionID, &g.Kind, &g.GrantKey, &g.Line, &g.Place, &g.AskID,
		&state, &created, &spent); err != nil {
		return Grant{}, err
	}
	g.Spent = state == "spent"
	var err error
	if g.CreatedAt, err = store.ParseTime(created); err != nil {
		return Grant{}, err
	}
	if g.SpentAt, err = parseOptionalTime(spent); err != nil {
		return Grant{}, err
	}
	return g, nil
}

// parseOptionalTime reads a nullable time column read through coalesce.
func parseOptionalTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return store.ParseTime(s)
}
