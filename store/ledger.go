// Package store defines gatehouse's ledger: the durable record of asks, the
// answers hosts give them, the grants those answers leave, and sessions
// (G-9, G-10). It holds the record types every door shares and the Ledger
// interface in the ledger's own words; implementations live in
// subpackages (store/sqlite; a server database later), and
// store/storetest holds the conformance suite every implementation runs.
//
// The store knows rows, not meanings: which grant an answer leaves, how a
// line waits and what a grant key is are package core/decisions' business.
package store

import (
	"context"
	"os"
	"path/filepath"
)

// Ledger is one handle on a ledger. Several handles, in one process or in
// many, may share the same data: every method is one atomic step against
// the shared data, so what one handle commits is what every other sees.
// A Ledger is safe for concurrent use.
//
// Every error a method returns wraps one of ErrNotFound,
// ErrAlreadyAnswered, ErrInvalid and ErrExists where its comment says so;
// any other error is the backend failing (a broken file or connection, a
// cancelled context), which callers report as an internal error.
type Ledger interface {
	// RaiseAsk records rec as a pending ask, with a fresh 12-hex id
	// (G-7.5) and the ledger clock's created_at, and returns it. The
	// record's id, outcome, scope, note and answer times are ignored.
	//
	// One unanswered ask per question (G-9.8): when an unanswered ask
	// with the same session, line, place, rules (their keys, in order)
	// and facts exists, RaiseAsk returns that one instead; if it had been
	// closed it is put back in the queue. raised reports whether the
	// call changed the ledger (a new ask or a reopened one).
	//
	// Errors: ErrInvalid when rec has no session id, no rule, or a rule
	// without a key.
	RaiseAsk(ctx context.Context, rec Record) (ask Record, raised bool, err error)

	// GetAsk returns one ask by id. Errors: ErrNotFound.
	GetAsk(ctx context.Context, id string) (Record, error)

	// ListAsks returns asks oldest first (ties in the order raised), of
	// one session or, when sessionID is "", of every session. With
	// pendingOnly it returns the queue: unanswered asks not closed.
	ListAsks(ctx context.Context, sessionID string, pendingOnly bool) ([]Record, error)

	// AnswerAsk settles a pending (or closed) ask and returns the settled
	// record. In one atomic step it writes the answer if and only if the
	// ask is still unanswered, and leaves the grant s.Grant names:
	//   - GrantOnce or GrantDeny: one grant bound to the ask's session,
	//     line, place and facts;
	//   - GrantSession: one grant per rule the ask names, each covering
	//     that rule's key in the session.
	//
	// Of two answers racing for one ask, on any handles, exactly one
	// succeeds (G-10.1). Errors: ErrNotFound for an unknown id,
	// ErrAlreadyAnswered for an answered ask, ErrInvalid for an outcome,
	// scope or grant kind outside the constants of this package.
	AnswerAsk(ctx context.Context, id string, s Settlement) (Record, error)

	// CloseAsk takes a pending ask out of the queue without answering it,
	// recording why ("cancelled", "timed out"). The ask stays unanswered:
	// it can still be answered, and raising the same question again puts
	// it back. Errors: ErrInvalid for an empty reason, ErrNotFound,
	// ErrAlreadyAnswered.
	CloseAsk(ctx context.Context, id, reason string) error

	// FindGrant returns the once or deny grant that answers q, if one is
	// available and nobody has claimed it: a deny first (the host's last
	// word on that very question), then the oldest once grant. Finding
	// does not claim; explain uses it (G-11.3).
	FindGrant(ctx context.Context, q Question) (Grant, bool, error)

	// ClaimGrant is FindGrant and a claim in one atomic step: the grant
	// found is marked claimed by claimant (a name unique to the line
	// claiming) and returned. Of any number of lines, on any handles and
	// hosts, claiming grants for the same question, each grant goes to
	// exactly one (G-9.7): a claimed grant is never found or claimed
	// again. ok is false when no unclaimed grant answers q.
	//
	// A claim is the use. A line that ends spends what it claimed
	// (SpendGrants); one that stopped on a question still waiting hands
	// it back (ReleaseGrants). A claim whose holder died without either
	// stays claimed: the command may have run, so the grant is not
	// offered again, and the next identical line asks anew.
	ClaimGrant(ctx context.Context, q Question, claimant string) (g Grant, ok bool, err error)

	// SessionGrants returns, in the order given, those of keys that a
	// session grant of the session covers (G-9.5: allow for session
	// settles its rule, and only that rule).
	SessionGrants(ctx context.Context, sessionID string, keys []string) ([]string, error)

	// ReleaseGrants hands back grants claimant claimed and did not spend,
	// so that the next line can claim them (G-9.7: a line stopped on a
	// question still waiting spends nothing). Ids claimant does not hold
	// are passed over.
	ReleaseGrants(ctx context.Context, claimant string, ids ...int64) error

	// ListGrants returns every grant of a session, oldest first, spent
	// ones included (audit, tests).
	ListGrants(ctx context.Context, sessionID string) ([]Grant, error)

	// SpendGrants marks once and deny grants spent, in one atomic step,
	// when the line that claimed them ends (G-9.7). Session grants, spent
	// grants and unknown ids are passed over.
	SpendGrants(ctx context.Context, ids ...int64) error

	// CreateSession stores a new session so that later processes find it
	// (G-10.6, G-11.4). An empty ID gets a fresh 12-hex one, an empty Cwd
	// "/", a zero CreatedAt the ledger clock's time. Errors: ErrExists
	// when the id is taken.
	CreateSession(ctx context.Context, s SessionRow) (SessionRow, error)

	// EnsureSession returns the session with s.ID, creating it from s in
	// the same atomic step when there is none, so that processes racing
	// to open one session id all get the same row. created reports which
	// happened. Errors: ErrInvalid for an empty id.
	EnsureSession(ctx context.Context, s SessionRow) (row SessionRow, created bool, err error)

	// GetSession returns one session. Errors: ErrNotFound.
	GetSession(ctx context.Context, id string) (SessionRow, error)

	// ListSessions returns every session, oldest first.
	ListSessions(ctx context.Context) ([]SessionRow, error)

	// SetSessionCwd records a session's current directory, so a process
	// resuming it starts where the last line left off (G-2.3, G-11.4).
	// Errors: ErrNotFound.
	SetSessionCwd(ctx context.Context, id, cwd string) error

	// Revision is the newest change's Rev (0 for a ledger without asks).
	Revision(ctx context.Context) (int64, error)

	// ChangesSince returns every ask whose last change came after rev, in
	// the order the changes were committed, each as it stands now and
	// tagged with that change's Rev.
	//
	// Revs follow commit order across every handle and host: once a reader
	// has seen Rev N, no change committed later gets a Rev at or below N
	// (a server database must not hand out revs from a sequence that
	// commits out of order, or readers would skip changes).
	ChangesSince(ctx context.Context, rev int64) ([]Change, error)

	// WaitForChange blocks until the ledger may have changed since mark
	// was returned (by a commit of any handle, in any process), or ctx
	// ends, and returns the new mark. A zero mark returns the current one
	// at once. A rare spurious wake-up (after a reconnect) is allowed, a
	// missed change is not; a change committed elsewhere must be seen
	// within 100 ms (G-10.3). The wait must not spin: it sleeps or blocks
	// between looks.
	WaitForChange(ctx context.Context, mark uint64) (uint64, error)

	// MountState returns where workspace's durable mount files stand: the
	// zero state when nothing was ever saved for it. It is one cheap read,
	// done before every line.
	MountState(ctx context.Context, workspace string) (MountState, error)

	// MountFiles returns the mount files of workspace whose last save came
	// after rev (0: all of them), ordered by mount and path, together with
	// the state they were read at (one consistent read).
	MountFiles(ctx context.Context, workspace string, after int64) ([]MountFile, MountState, error)

	// SaveMountFiles writes files, each replacing the row of its mount and
	// path, as one save in one atomic step (G-5.6: a line's changes land
	// together or not at all), and returns the state after it; every row
	// written carries the new Rev. Saves of any handles and hosts get
	// increasing revs in commit order. Saving no files changes nothing.
	// Errors: ErrInvalid for an empty workspace, a file with no mount or
	// path, or a kind outside the MountFile kinds.
	SaveMountFiles(ctx context.Context, workspace string, files []MountFile) (MountState, error)

	// ResetMounts forgets the mount files of workspace, of the mounts
	// named (all of them when none is), and returns the state after it,
	// whose Epoch has grown: processes that see it reload those mounts
	// from their seed.
	ResetMounts(ctx context.Context, workspace string, mounts ...string) (MountState, error)

	// Close releases the handle. Committed writes are already durable.
	Close() error
}

// DefaultPath is where the ledger lives when nobody says otherwise:
// $GATEHOUSE_DB, else $XDG_DATA_HOME/gatehouse/ledger.db, else
// ~/.local/share/gatehouse/ledger.db.
func DefaultPath() string {
	if p := os.Getenv("GATEHOUSE_DB"); p != "" {
		return p
	}
	if dir := os.Getenv("XDG_DATA_HOME"); dir != "" {
		return filepath.Join(dir, "gatehouse", "ledger.db")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		// Without a home there is no per-user place; the working
		// directory is the least surprising fallback.
		home = "."
	}
	return filepath.Join(home, ".local", "share", "gatehouse", "ledger.db")
}
