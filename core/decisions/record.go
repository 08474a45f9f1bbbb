// Package decisions gives gatehouse's ledger its meaning (G-9, G-10): which
// answers are valid and which grant each leaves, how a line waits for an
// answer, and the events hosts watch. The rows themselves live behind
// package store's Ledger interface (SQLite by default).
//
// An ask is raised when the gate needs a human; a host answers it (console,
// CLI, REST or an inline handler); the answer leaves a grant that the
// agent's retry claims and spends. Every door (CLI, REST, console, MCP)
// shares Record, so none reshapes it. Several processes may share one
// ledger: answers and claims are single atomic steps, and a line waiting in
// one process is released by an answer written in another (G-10.3).
package decisions

import (
	"gatehouse/store"
)

// Outcomes and scopes of an answer (G-9.5).
const (
	Allow = store.Allow
	Deny  = store.Deny

	Once    = store.Once
	Session = store.Session
)

// Errors a door maps to its own words: CLI exit 1/1/2, REST 404/409/422.
// Returned errors wrap these; test with errors.Is. They are package
// store's, so an error from any ledger implementation matches.
var (
	ErrNotFound        = store.ErrNotFound
	ErrAlreadyAnswered = store.ErrAlreadyAnswered
	ErrInvalid         = store.ErrInvalid
	// ErrExists is a session id that is already taken.
	ErrExists = store.ErrExists
)

// Record is one ask and, once settled, its answer: the G-10.1 fields plus
// policy (G-7.7) and every rule the command met (G-4.10). See store.Record.
type Record = store.Record

// AskRule is one ask rule a record names, with the paths it reaches.
type AskRule = store.AskRule

// Grant is an answer's standing effect, bound as G-9.5 and G-9.7 say.
type Grant = store.Grant

// Question names what a once or deny grant answers: a session, line, place
// and the facts the record showed there.
type Question = store.Question

// SessionRow is a session as the ledger keeps it (G-10.6, G-11.4).
type SessionRow = store.SessionRow

// The states of an ask (Record.State), as `list-asks --all` shows them.
const (
	StatePending   = store.StatePending
	StateAllowed   = store.StateAllowed
	StateDenied    = store.StateDenied
	StateWithdrawn = store.StateWithdrawn
	StateTimedOut  = store.StateTimedOut
)

// Answer is a host's answer to one ask (G-9.5).
type Answer struct {
	Outcome string // Allow or Deny
	Scope   string // Once or Session; "" means Once
	Note    string
	By      string // who answered: "console", "cli", "rest:…", a handler name
}

// Grant kinds: what an answer leaves behind for the retry.
const (
	// GrantOnce allows exactly one question (session, line, place and
	// facts), once.
	GrantOnce = store.GrantOnce
	// GrantSession allows every command meeting one rule named by the ask
	// in the session, for as long as the ledger lasts; it is never spent.
	GrantSession = store.GrantSession
	// GrantDeny is a one-shot refusal of one question: the retry is
	// refused from the record and spends it (G-9.5, G-10.4).
	GrantDeny = store.GrantDeny
)

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
