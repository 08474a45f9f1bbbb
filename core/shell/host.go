package shell

import (
	"context"

	"gatehouse/core/gate"
)

// Question is one ask the gate raised for a command of a line (G-9.1).
type Question struct {
	SessionID string
	Line      string
	Place     string
	Command   string // the command as spelled (argv joined)
	Argv      []string
	Cwd       string
	Paths     []string
	Refusal   gate.Refusal // kind "ask": reason, rule, policy, scope, path
	// GrantKey names what an allow-for-session covers: the rule that asked.
	GrantKey string
}

// Standing is an answer already on record for a question.
type Standing int

const (
	NoAnswer Standing = iota
	Allowed           // a grant covers it
	Refused           // a deny-once answer waits to be spent by this retry
)

// Claim is a standing answer a line has taken; the line spends it when it
// ends (G-9.7). Token is opaque to the shell.
type Claim struct {
	Standing Standing
	Token    any
	Note     string
	AskID    string
}

// Reply is the host's word on a raised question.
type Reply struct {
	Outcome string // "allow", "deny" or "pending"
	AskID   string
	Note    string
	Claim   Claim // for allow/deny: what the line must spend when it ends
}

// Host settles the questions lines raise: the decisions ledger behind an
// optional inline handler. core implements it; a nil Host refuses every ask
// as pending with no id (tests of the gate alone).
type Host interface {
	// Lookup finds a standing answer for q (a grant or a deny-once) and
	// claims it for the line; ok is false when none stands.
	Lookup(ctx context.Context, q Question) (Claim, bool)
	// Peek is Lookup without claiming (explain, G-11.3).
	Peek(ctx context.Context, q Question) (Claim, bool)
	// Ask raises q, or finds the same question already pending. With an
	// inline handler it waits for the answer; otherwise it returns "pending".
	Ask(ctx context.Context, q Question) (Reply, error)
	// Inline reports whether Ask waits for answers for a line running
	// under ctx (G-10.4).
	Inline(ctx context.Context) bool
	// Spend spends the claims a line took, when the line and its jobs end.
	Spend(claims []Claim)
	// Release hands back unspent claims: a line that stopped on a question
	// still waiting spends nothing (G-9.7).
	Release(claims []Claim)
}
