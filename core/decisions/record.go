// Package decisions is gatehouse's ledger of asks, answers and grants
// (G-9, G-10) over package store's SQLite file.
//
// An ask is raised when the gate needs a human; a host answers it (console,
// CLI, REST or an inline handler); the answer leaves a grant that the
// agent's retry finds and spends. Every door (CLI, REST, console, MCP)
// shares Record, so none reshapes it. Several processes may share one ledger
// file: answers are single transactions, and a line waiting in one process
// is released by an answer written in another (G-10.3).
package decisions

import (
	"encoding/json"
	"errors"
	"time"
)

// Outcomes and scopes of an answer (G-9.5).
const (
	Allow = "allow"
	Deny  = "deny"

	Once    = "once"
	Session = "session"
)

// Errors a door maps to its own words: CLI exit 1/1/2, REST 404/409/422.
// Returned errors wrap these; test with errors.Is.
var (
	ErrNotFound        = errors.New("not found")
	ErrAlreadyAnswered = errors.New("already answered")
	ErrInvalid         = errors.New("invalid")
	// ErrExists is a session id that is already taken.
	ErrExists = errors.New("already exists")
)

// Record is one ask and, once settled, its answer: the G-10.1 fields plus
// policy (G-7.7). In JSON, outcome and answered_at are null while the ask is
// pending, and argv and paths are always arrays.
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
	Line       string    `json:"line"`
	Place      string    `json:"place"`
	Outcome    string    `json:"outcome"` // "" while pending, else Allow or Deny
	Scope      string    `json:"scope"`   // "" while pending, else Once or Session
	Note       string    `json:"note"`
	CreatedAt  time.Time `json:"created_at"`
	AnsweredAt time.Time `json:"answered_at"` // zero while pending
	AnsweredBy string    `json:"answered_by"`
	// Closed says why a pending ask left the queue unanswered
	// ("cancelled"); see Ledger.Close. It is absent from JSON unless set,
	// so ordinary records carry exactly the G-10.1 fields.
	Closed string `json:"closed,omitempty"`
}

// Pending reports whether the ask still waits for an answer (a closed ask
// does too: closing only takes it out of the queue).
func (r Record) Pending() bool { return r.Outcome == "" }

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
	w := recordJSON{
		ID: r.ID, SessionID: r.SessionID, AgentID: r.AgentID, Command: r.Command,
		Argv: nonNil(r.Argv), Cwd: r.Cwd, Paths: nonNil(r.Paths),
		Reason: r.Reason, Rule: r.Rule, Policy: r.Policy, Line: r.Line, Place: r.Place,
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
		Reason: w.Reason, Rule: w.Rule, Policy: w.Policy, Line: w.Line, Place: w.Place,
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

// Answer is a host's answer to one ask (G-9.5).
type Answer struct {
	Outcome string // Allow or Deny
	Scope   string // Once or Session; "" means Once
	Note    string
	By      string // who answered: "console", "cli", "rest:…", a handler name
}

// Grant kinds: what an answer leaves behind for the retry.
const (
	// GrantOnce allows exactly (session, line, place), once.
	GrantOnce = "once"
	// GrantSession allows everything with the ask's grant key in the
	// session, for as long as the ledger lasts; it is never spent.
	GrantSession = "session"
	// GrantDeny is a one-shot refusal of (session, line, place): the
	// retry is refused from the record and spends it (G-9.5, G-10.4).
	GrantDeny = "deny"
)

// Grant is an answer's standing effect, bound as G-9.7 says.
type Grant struct {
	ID        int64
	SessionID string
	Kind      string // GrantOnce, GrantSession or GrantDeny
	GrantKey  string
	Line      string
	Place     string
	AskID     string // the ask whose answer gave it; Get it for reason and rule
	Spent     bool
	CreatedAt time.Time
	SpentAt   time.Time // zero while available
}

// Event kinds a subscriber sees.
const (
	EventAsk    = "ask"    // a new pending ask (or a closed one raised again)
	EventAnswer = "answer" // an ask was answered, in this process or another
	EventClosed = "closed" // a pending ask left the queue unanswered
)

// Event is one change to the ledger, for hosts that show it live.
type Event struct {
	Kind   string
	Record Record
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
