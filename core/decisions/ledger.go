package decisions

import (
	"context"
	"fmt"
	"sync"

	"gatehouse/store"
)

// Ledger is the decision ledger over one store handle. It is safe for
// concurrent use; one Ledger per handle per process is the intended shape
// (each runs its own change watcher while someone waits or watches).
type Ledger struct {
	store store.Ledger

	// mu guards the listeners and the watcher's liveness.
	mu       sync.Mutex
	waiters  map[string]map[*waiter]struct{} // ask id -> lines waiting on it
	subs     map[*subscriber]struct{}
	stopPoll context.CancelFunc // ends the watcher; nil while none runs
	stopped  bool               // Stop ran: no watcher starts any more
	// watcher counts the running watcher goroutine, so Stop can wait
	// until nothing reads the store before its handle is closed.
	watcher sync.WaitGroup

	// scanMu serialises scans; lastRev is the newest change already
	// turned into events. Lock order: scanMu before mu.
	scanMu  sync.Mutex
	lastRev int64
}

// New returns the decision ledger kept in s.
func New(s store.Ledger) *Ledger {
	return &Ledger{
		store:   s,
		waiters: map[string]map[*waiter]struct{}{},
		subs:    map[*subscriber]struct{}{},
	}
}

// Store is the ledger handle the decisions are kept in.
func (l *Ledger) Store() store.Ledger { return l.store }

// Path is the file the ledger lives in, for what is kept beside it (the
// REST token); "" when the store is not a file.
func (l *Ledger) Path() string {
	if p, ok := l.store.(interface{ Path() string }); ok {
		return p.Path()
	}
	return ""
}

// Raise records a pending ask for rec's question and returns it, with a
// fresh id and created_at. rec names every rule the command met (Rules,
// each with its grant key: what an allow for session of that rule
// covers) and the Facts digest its answer will be bound to.
//
// A question already pending for the same session, line, place, rules and
// facts is returned as it is instead: a retry raises no duplicate
// (G-9.8). A pending ask that was closed is put back in the queue.
// Errors: ErrInvalid for a record without a session or a rule.
func (l *Ledger) Raise(ctx context.Context, rec Record) (Record, error) {
	raised, changed, err := l.store.RaiseAsk(ctx, rec)
	if err != nil {
		return Record{}, err
	}
	if changed {
		l.changed(ctx)
	}
	return raised, nil
}

// Get returns one ask by id. Errors: ErrNotFound.
func (l *Ledger) Get(ctx context.Context, id string) (Record, error) {
	return l.store.GetAsk(ctx, id)
}

// Pending returns the queue: unanswered asks that were not closed, oldest
// first, of one session or ("") of every session.
func (l *Ledger) Pending(ctx context.Context, sessionID string) ([]Record, error) {
	return l.store.ListAsks(ctx, sessionID, true)
}

// List returns every ask, answered or not, oldest first, of one session or
// ("") of every session.
func (l *Ledger) List(ctx context.Context, sessionID string) ([]Record, error) {
	return l.store.ListAsks(ctx, sessionID, false)
}

// Answer settles a pending ask and returns the settled record. In one
// atomic step the ledger writes the answer, if and only if the ask is
// still unanswered, and leaves the grant the answer gives:
//   - allow once: a once grant for exactly the ask's question (session,
//     line, place and facts);
//   - allow session: a session grant for each rule the ask names, and no
//     other (G-4.10);
//   - deny (once): a one-shot refusal of the ask's question.
//
// Deny with scope session, or an unknown outcome or scope, is ErrInvalid;
// an unknown id is ErrNotFound; an answered one is ErrAlreadyAnswered, so
// of two hosts answering at once exactly one succeeds (G-10.1). A closed
// ask can still be answered. Lines waiting on the ask are released before
// Answer returns.
func (l *Ledger) Answer(ctx context.Context, id string, a Answer) (Record, error) {
	s, err := settlementOf(a)
	if err != nil {
		return Record{}, fmt.Errorf("answer %s: %w", id, err)
	}
	settled, err := l.store.AnswerAsk(ctx, id, s)
	if err != nil {
		return Record{}, err
	}
	l.changed(ctx)
	return settled, nil
}

// settlementOf checks an answer and names the grant it leaves and the
// scope to record.
func settlementOf(a Answer) (store.Settlement, error) {
	s := store.Settlement{Outcome: a.Outcome, Scope: a.Scope, Note: a.Note, By: a.By}
	if s.Scope == "" {
		s.Scope = Once
	}
	if s.Scope != Once && s.Scope != Session {
		return s, fmt.Errorf("%w: scope %q is not once or session", ErrInvalid, a.Scope)
	}
	switch {
	case a.Outcome == Allow && s.Scope == Once:
		s.Grant = GrantOnce
	case a.Outcome == Allow:
		s.Grant = GrantSession
	case a.Outcome == Deny && s.Scope == Once:
		s.Grant = GrantDeny
	case a.Outcome == Deny:
		return s, fmt.Errorf("%w: deny answers once; scope session is not allowed", ErrInvalid)
	default:
		return s, fmt.Errorf("%w: outcome %q is not allow or deny", ErrInvalid, a.Outcome)
	}
	return s, nil
}

// Close takes a pending ask out of the queue without answering it, with a
// word saying why ("cancelled"), for a line that stopped waiting because
// its context ended. The record stays unanswered: a host may still answer
// it, and the same question raised again puts it back in the queue.
//
// A line whose inline handler gave no answer within ask_timeout should not
// Close its ask: G-10.4 leaves such an ask pending for a host to answer.
// Errors: ErrInvalid (no reason), ErrNotFound, ErrAlreadyAnswered.
func (l *Ledger) Close(ctx context.Context, id, reason string) error {
	if err := l.store.CloseAsk(ctx, id, reason); err != nil {
		return err
	}
	l.changed(ctx)
	return nil
}

// FindGrant returns the once grant or one-shot refusal that answers q, if
// one is available and unclaimed, without claiming it (explain, G-11.3).
func (l *Ledger) FindGrant(ctx context.Context, q Question) (Grant, bool, error) {
	return l.store.FindGrant(ctx, q)
}

// Claim finds the once grant or one-shot refusal that answers q and claims
// it for the line named claimant, in one atomic step: whatever the number
// of lines, processes and hosts trying, each grant goes to one line
// (G-9.7). ok is false when none is left. The line then Spends it when it
// ends, or Releases it when it stopped on a question still waiting.
func (l *Ledger) Claim(ctx context.Context, q Question, claimant string) (Grant, bool, error) {
	return l.store.ClaimGrant(ctx, q, claimant)
}

// SessionGrants returns those of keys (rules' grant keys) that an allow
// for session settles in the session, in the order given (G-9.5).
func (l *Ledger) SessionGrants(ctx context.Context, sessionID string, keys []string) ([]string, error) {
	return l.store.SessionGrants(ctx, sessionID, keys)
}

// Spend marks once grants and refusals spent, in one atomic step, when the
// line that claimed them ends (G-9.7). Session grants, spent grants and
// unknown ids are passed over.
func (l *Ledger) Spend(ctx context.Context, grantIDs ...int64) error {
	return l.store.SpendGrants(ctx, grantIDs...)
}

// Release hands back grants the line named claimant claimed and did not
// spend: a line that stopped on a question still waiting spends nothing
// (G-9.7), so its retry finds them again.
func (l *Ledger) Release(ctx context.Context, claimant string, grantIDs ...int64) error {
	return l.store.ReleaseGrants(ctx, claimant, grantIDs...)
}
