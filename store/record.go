package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Outcomes and scopes of an answer (G-9.5).
const (
	Allow = "allow"
	Deny  = "deny"

	Once    = "once"
	Session = "session"
)

// Grant kinds: what an answer leaves behind for the agent's retry.
const (
	// GrantOnce allows exactly one question (session, line, place and
	// facts), once: the first line that claims it uses it up.
	GrantOnce = "once"
	// GrantSession allows every command that meets its rule (its grant
	// key) in the session, for as long as the ledger lasts. It is never
	// claimed and never spent.
	GrantSession = "session"
	// GrantDeny is a one-shot refusal of one question: the retry is
	// refused from the record and that refusal uses it up (G-9.5, G-10.4).
	GrantDeny = "deny"
)

// Errors every Ledger returns, wrapped with context; test them with
// errors.Is. Doors map them to their own words: the CLI exits 1, 1, 2, 1
// and REST answers 404, 409, 422, 409.
var (
	// ErrNotFound: no ask, grant or session has that id.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyAnswered: the ask was answered before this answer (or
	// close) reached it.
	ErrAlreadyAnswered = errors.New("already answered")
	// ErrInvalid: the request breaks the ledger's rules (an ask without a
	// session, deny with scope session, a close without a reason).
	ErrInvalid = errors.New("invalid")
	// ErrExists: a session id that is already taken.
	ErrExists = errors.New("already exists")
)

// AskRule is one ask rule a command met, as its record names it (G-4.10):
// why it asks, where it was written, who spoke, and the resolved paths it
// reaches among the command's operands (none for a command-axis rule).
type AskRule struct {
	Reason string   `json:"reason"`
	Rule   string   `json:"rule"`
	Policy string   `json:"policy"`
	Paths  []string `json:"paths"`
	// Key names what an allow with scope session of this rule covers; the
	// gate chooses it. It is the ledger's, not the human's: absent from
	// JSON.
	Key string `json:"-"`
}

// Record is one ask and, once settled, its answer: the G-10.1 fields, with
// policy (G-7.7) and rules (every ask rule the command met, G-4.10). In
// JSON, outcome and answered_at are null while the ask is pending, and
// argv, paths and rules are always arrays. Reason, Rule and Policy repeat
// the first rule, for hosts that show one.
type Record struct {
	ID         string    `json:"id"`
	SessionID  string    `json:"session_id"`
	AgentID    string    `json:"agent_id"`
	Command    string    `json:"command"`
	Argv       []string  `json:"argv"`
	Cwd        string    `json:"cwd"`
	Paths      []string  `json:"paths"`
	Reason     string    `json:"reason"`
	Rule       string    `json:"rule"`
	Policy     string    `json:"policy"`
	Rules      []AskRule `json:"rules"`
	Line       string    `json:"line"`
	Place      string    `json:"place"`
	Outcome    string    `json:"outcome"` // "" while pending, else Allow or Deny
	Scope      string    `json:"scope"`   // "" while pending, else Once or Session
	Note       string    `json:"note"`
	CreatedAt  time.Time `json:"created_at"`
	AnsweredAt time.Time `json:"answered_at"` // zero while pending
	AnsweredBy string    `json:"answered_by"`
	// Closed says why a pending ask left the queue unanswered
	// ("cancelled"); see Ledger.CloseAsk. It is absent from JSON unless
	// set, so ordinary records carry exactly the fields above.
	Closed string `json:"closed,omitempty"`
	// Facts is the digest of what the human is shown (command, argv, cwd,
	// resolved paths, rules) that an answer is bound to (G-9.5). Two asks
	// of one session, line and place with other facts are two questions.
	// It is the ledger's: absent from JSON.
	Facts string `json:"-"`
}

// Pending reports whether the ask still waits for an answer (a closed ask
// does too: closing only takes it out of the queue).
func (r Record) Pending() bool { return r.Outcome == "" }

// The states of an ask, as State reports them and `list-asks --all` shows
// them.
const (
	StatePending   = "pending"   // in the queue, waiting for a host
	StateAllowed   = "allowed"   // answered allow (once or for the session)
	StateDenied    = "denied"    // answered deny
	StateWithdrawn = "withdrawn" // left the queue unanswered: its line was cancelled
	StateTimedOut  = "timed out" // left the queue unanswered: its line ran out of time
)

// State is the ask's true state: answered (allowed, denied), out of the
// queue unanswered (withdrawn, timed out; see Ledger.CloseAsk), or
// pending.
func (r Record) State() string {
	switch {
	case r.Outcome == Allow:
		return StateAllowed
	case r.Outcome != "":
		return StateDenied
	case r.Closed == StateTimedOut:
		return StateTimedOut
	case r.Closed != "":
		return StateWithdrawn
	}
	return StatePending
}

// GrantKeys lists what an allow with scope session of this ask covers: one
// key per rule named.
func (r Record) GrantKeys() []string {
	keys := make([]string, 0, len(r.Rules))
	for _, rule := range r.Rules {
		keys = append(keys, rule.Key)
	}
	return keys
}

// recordJSON is Record as it travels: nullable where G-10.1 says null.
type recordJSON struct {
	ID         string     `json:"id"`
	SessionID  string     `json:"session_id"`
	AgentID    string     `json:"agent_id"`
	Command    string     `json:"command"`
	Argv       []string   `json:"argv"`
	Cwd        string     `json:"cwd"`
	Paths      []string   `json:"paths"`
	Reason     string     `json:"reason"`
	Rule       string     `json:"rule"`
	Policy     string     `json:"policy"`
	Rules      []AskRule  `json:"rules"`
	Line       string     `json:"line"`
	Place      string     `json:"place"`
	Outcome    *string    `json:"outcome"`
	Scope      string     `json:"scope"`
	Note       string     `json:"note"`
	CreatedAt  time.Time  `json:"created_at"`
	AnsweredAt *time.Time `json:"answered_at"`
	AnsweredBy string     `json:"answered_by"`
	Closed     string     `json:"closed,omitempty"`
}

// MarshalJSON writes null for outcome and answered_at while pending.
func (r Record) MarshalJSON() ([]byte, error) {
	rules := make([]AskRule, len(r.Rules))
	for i, rule := range r.Rules {
		rule.Paths = nonNil(rule.Paths)
		rules[i] = rule
	}
	w := recordJSON{
		ID: r.ID, SessionID: r.SessionID, AgentID: r.AgentID, Command: r.Command,
		Argv: nonNil(r.Argv), Cwd: r.Cwd, Paths: nonNil(r.Paths),
		Reason: r.Reason, Rule: r.Rule, Policy: r.Policy, Rules: rules, Line: r.Line, Place: r.Place,
		Scope: r.Scope, Note: r.Note, CreatedAt: r.CreatedAt, AnsweredBy: r.AnsweredBy,
		Closed: r.Closed,
	}
	if r.Outcome != "" {
		w.Outcome = &r.Outcome
	}
	if !r.AnsweredAt.IsZero() {
		w.AnsweredAt = &r.AnsweredAt
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads what MarshalJSON writes, so REST clients can decode
// records into the same type.
func (r *Record) UnmarshalJSON(data []byte) error {
	var w recordJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = Record{
		ID: w.ID, SessionID: w.SessionID, AgentID: w.AgentID, Command: w.Command,
		Argv: w.Argv, Cwd: w.Cwd, Paths: w.Paths,
		Reason: w.Reason, Rule: w.Rule, Policy: w.Policy, Rules: w.Rules, Line: w.Line, Place: w.Place,
		Scope: w.Scope, Note: w.Note, CreatedAt: w.CreatedAt, AnsweredBy: w.AnsweredBy,
		Closed: w.Closed,
	}
	if w.Outcome != nil {
		r.Outcome = *w.Outcome
	}
	if w.AnsweredAt != nil {
		r.AnsweredAt = *w.AnsweredAt
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Settlement is an answer as the ledger writes it: the host's words and
// the grant the answer leaves (chosen by package core/decisions).
type Settlement struct {
	Outcome string // Allow or Deny
	Scope   string // Once or Session
	Note    string
	By      string // who answered: "console", "cli", "rest", a handler name
	Grant   string // GrantOnce, GrantSession or GrantDeny
}

// Grant is an answer's standing effect (G-9.5, G-9.7).
type Grant struct {
	ID        int64
	SessionID string
	Kind      string // GrantOnce, GrantSession or GrantDeny
	// GrantKey is the rule a session grant covers; for once and deny
	// grants, the ask's rules' keys.
	GrantKey string
	Line     string
	Place    string
	Facts    string
	AskID    string // the ask whose answer gave it; GetAsk it for reason and rule
	// ClaimedBy names the line that took the grant (see ClaimGrant);
	// empty while nobody holds it.
	ClaimedBy string
	ClaimedAt time.Time // zero while unclaimed
	Spent     bool
	CreatedAt time.Time
	SpentAt   time.Time // zero while available
}

// Question names one question an once or deny grant may answer: exactly
// this session, line text, place and facts (G-9.5).
type Question struct {
	SessionID string
	Line      string
	Place     string
	Facts     string
}

// SessionRow is a session as the ledger keeps it (G-10.6, G-11.4), so a
// session outlives the process that created it.
type SessionRow struct {
	ID        string    `json:"id"`
	AgentID   string    `json:"agent_id"`
	Profile   string    `json:"profile"`
	Cwd       string    `json:"cwd"`
	Workspace string    `json:"workspace,omitempty"` // document path, when known
	CreatedAt time.Time `json:"created_at"`
}

// Change is one write to an ask, in the order the ledger committed it:
// Rev grows with every change, whichever process made it.
type Change struct {
	Rev    int64
	Record Record
}

// Kinds of a MountFile.
const (
	MountFileRegular = "file" // a regular file, with its content
	MountFileDir     = "dir"  // a directory
	MountFileLink    = "link" // a symbolic link, with its target
	MountFileGone    = "gone" // removed: the seed's entry (or an earlier one) is no more
)

// MountFile is one path of a durable memory mount that differs from the
// mount's seed (G-5.6), as the ledger keeps it: what it is now, or that it
// is gone.
type MountFile struct {
	Mount   string // the mount's prefix
	Path    string // inside the mount: slash-separated, no leading slash
	Kind    string // MountFileRegular, MountFileDir, MountFileLink or MountFileGone
	Mode    uint32 // permission and special bits (fs.FileMode)
	ModTime time.Time
	Data    []byte // a file's content
	Target  string // a link's target, as written
	// Rev is the save that last wrote the path (set by the ledger).
	Rev int64
}

// Check returns an error wrapping ErrInvalid when f cannot be saved: no
// mount, no path or an absolute one, or a kind outside the MountFile kinds.
// Every ledger checks each file of a save with it before writing any.
func (f MountFile) Check() error {
	switch {
	case f.Mount == "" || f.Path == "" || strings.HasPrefix(f.Path, "/"):
		return fmt.Errorf("%w: mount file %q in mount %q: a mount and a relative path are required", ErrInvalid, f.Path, f.Mount)
	case f.Kind != MountFileRegular && f.Kind != MountFileDir && f.Kind != MountFileLink && f.Kind != MountFileGone:
		return fmt.Errorf("%w: mount file %s: kind %q", ErrInvalid, f.Path, f.Kind)
	}
	return nil
}

// MountState is where a workspace's durable mounts stand in the ledger:
// Rev grows with every save, Epoch with every reset to the seed. A
// process that has applied the files up to a state knows it is current
// while the state is unchanged.
type MountState struct {
	Rev   int64
	Epoch int64
}
