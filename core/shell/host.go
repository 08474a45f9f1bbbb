package shell

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"gatehouse/core/gate"
)

// Question is one ask the gate raised for a command of a line (G-9.1): what
// the human is shown, and the facts an answer to it is bound to (G-9.5).
type Question struct {
	SessionID string
	Line      string
	Place     string
	Command   string // the command as spelled (argv joined)
	Argv      []string
	Cwd       string
	Paths     []string // every operand, resolved against the cwd
	// Refusal is the first ask of Rules: the record the agent reads.
	Refusal gate.Refusal
	// Rules are every ask rule the command meets that no session grant
	// settles, each with the paths it reaches (G-4.10). An answer settles
	// exactly these rules.
	Rules []AskRule
	// Facts is the digest of the argv, the cwd, the operands (as spelled
	// and after every symlink) and the rules named: an answer is bound to
	// it, so the same text meaning something else asks anew (G-9.5).
	Facts string

	// resolved are Paths after symlinks, for Facts.
	resolved []string
	// written are the paths (as spelled and where they lead) the command
	// writes: what an answer lets the rest of the line write (pathGrants).
	written map[string]bool
}

// AskRule is one ask rule a command meets, as its question names it.
type AskRule struct {
	// Key names what an allow for session of the rule covers: the rule
	// that asked; for a policy, which of its questions (see grantKey).
	Key    string
	Reason string
	Rule   string
	Policy string
	// Paths are the command's operands the rule reaches (none for a
	// command-axis rule or a policy).
	Paths []string
	// Refusal is the rule's first ask, as the gate wrote it: the record
	// and voice the agent gets when this rule is the one asking.
	Refusal gate.Refusal
}

// factsDigest is the Facts of q: a SHA-256 over a JSON rendering of what
// the human was shown and what it meant when the question was raised.
func (q *Question) factsDigest() string {
	keys := make([]string, len(q.Rules))
	for i, r := range q.Rules {
		keys[i] = r.Key
	}
	b, _ := json.Marshal(struct {
		Argv     []string `json:"argv"`
		Cwd      string   `json:"cwd"`
		Paths    []string `json:"paths"`
		Resolved []string `json:"resolved"`
		Rules    []string `json:"rules"`
	}{q.Argv, q.Cwd, q.Paths, q.resolved, keys})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// ruleKeys is the keys of q's rules, joined: which rules a standing answer
// settles.
func (q *Question) ruleKeys() string {
	s := ""
	for i, r := range q.Rules {
		if i > 0 {
			s += "\n"
		}
		s += r.Key
	}
	return s
}

// Standing is an answer already on record for a question.
type Standing int

const (
	NoAnswer Standing = iota
	Allowed           // a grant covers it
	Denied            // a deny-once answer waits to be spent by this retry
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
	// Session: the allow settles the question's rules for the session, so
	// the rest of the line does not ask about them again.
	Session bool
}

// Host settles the questions lines raise: the decisions ledger behind an
// optional inline handler. core implements it; a nil Host refuses every ask
// as pending with no id (tests of the gate alone).
type Host interface {
	// Settled returns those of keys (rules' grant keys) that an allow for
	// session settles in the session (G-9.5).
	Settled(ctx context.Context, sessionID string, keys []string) []string
	// Lookup finds a once grant or deny-once given for exactly q (its
	// session, line, place and facts) and claims it for the line, so no
	// other line, in any process, can use it; ok is false when none
	// stands.
	Lookup(ctx context.Context, q Question) (Claim, bool)
	// Peek is Lookup without claiming (explain, G-11.3).
	Peek(ctx context.Context, q Question) (Claim, bool)
	// Ask raises q, or finds the same question already pending. With an
	// inline handler it waits for the answer; otherwise it returns "pending".
	// A question asked in preflight (InPreflight(ctx)) may be deferred: see
	// InPreflight.
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
