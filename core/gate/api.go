// Package gate is gatehouse's admission gate: it compiles a profile (G-1..G-5)
// into matchers once, judges commands (argv + cwd + resolved operands) into a
// Verdict, and judges filesystem operations as the op door (G-6).
//
// The gate knows nothing of shell syntax: the shell asks it about one command
// at a time. A compiled Profile is immutable and safe for concurrent use.
package gate

// Rule is one ask or deny rule as written (G-1.2). Patterns are unparsed:
// command patterns are words separated by blanks ("git push", "git push *");
// path patterns are absolute globs ("/vault/*"), or for mount-level rules
// relative to the mount ("*.key" under /repo means "/repo/*.key").
type Rule struct {
	Reason   string
	Commands []string
	Paths    []string
	Source   string // "FILE:LINE:COL" of the YAML node, or the Go call site
	// Except lists exact commands an ask rule does not ask about (see
	// Exception); a deny rule takes none.
	Except []Exception
}

// PathGroup is one hide entry: a bare pattern has an empty reason (G-4.5).
type PathGroup struct {
	Reason string
	Paths  []string
	Source string
}

// ShowEntry re-opens a subtree inside a hidden region (G-4.7). Mode is "ro",
// "rw" or "" (the mount's mode).
type ShowEntry struct {
	Path   string
	Mode   string
	Source string
}

// MountRules is a profile's narrowing of one mount (G-5.1, G-5.3).
type MountRules struct {
	ReadOnly bool // weaken rw to ro; never raises
	Hide     []PathGroup
	Show     []ShowEntry
	Ask      []Rule // command rules apply by cwd or operand inside the mount
	Deny     []Rule
	Source   string
}

// PolicySpec is a profile's policy program (G-8).
type PolicySpec struct {
	Engine  string // "starlark" | "javascript"
	File    string // absolute host path of the program, or ""
	Code    string // inline source, or the file's text once read
	Name    string // "guard.star" for records: policy:NAME
	Source  string
	Timeout int64 // nanoseconds per call; 0 = 100ms
}

// ProfileSpec is a profile as written, before compilation (G-1.1, G-11.5).
type ProfileSpec struct {
	Name string
	Cwd  string            // "" = "/"
	Env  map[string]string // seeded and exported at session creation
	// Allow is the tool set (G-3.1): nil = every command; an empty non-nil
	// slice = nothing; otherwise patterns whose first words are installed.
	Allow []string
	// AllowSource is where the allow list was written; refusals by allow
	// refinement (G-3.1 step 4) cite it, falling back to Source.
	AllowSource string
	Ask         []Rule
	Deny        []Rule
	Hide        []PathGroup
	Show        []ShowEntry
	VarsHide    []string
	Mounts      map[string]MountRules
	Policy      *PolicySpec
	Source      string
}

// Mount is what the gate needs to know of a workspace mount.
type Mount struct {
	Prefix   string
	ReadOnly bool
}

// Outcome of judging one command (G-11.1).
type Outcome string

const (
	Run      Outcome = "run"
	Deny     Outcome = "deny"
	Ask      Outcome = "ask"
	NotFound Outcome = "not-found"
	Hidden   Outcome = "hidden"
	Granted  Outcome = "granted"
	Dynamic  Outcome = "dynamic"
)

// Refusal is the record of G-7.2..G-7.4, JSON-shaped for every door.
type Refusal struct {
	Kind   string `json:"kind"`   // "deny" | "ask"
	Reason string `json:"reason"` // may be empty
	Policy string `json:"policy"` // profile:NAME, mount:PREFIX, allow, policy:FILE, coded name
	Scope  string `json:"scope"`  // "command" | "operand"
	Rule   string `json:"rule"`   // FILE:LINE:COL or Go call site
	Path   string `json:"path,omitempty"`
	AskID  string `json:"ask_id,omitempty"`
	Status string `json:"status,omitempty"` // "pending" for asks
	// Hook is the policy hook that spoke (G-8.1): "pre_command", "pre_ops"
	// or "pre_session"; empty for document rules.
	Hook string `json:"hook,omitempty"`
	// Note is what the human who denied an ask wrote to the agent, on
	// the deny record a host's answer yields (G-9.5); empty otherwise.
	Note string `json:"note,omitempty"`

	// timedOut marks a policy program stopped at its time-out (G-8.4).
	timedOut bool
}

// TimedOut reports whether the refusal is a policy program that ran past
// its time-out rather than one that decided: the agent is told so, since
// no rule and no answer of the program refused the command.
func (r *Refusal) TimedOut() bool { return r != nil && r.timedOut }

// Operand is one path argument of a command, as the shell resolved it.
type Operand struct {
	Arg   string // as spelled in argv
	Path  string // absolute and cleaned, against the command's cwd
	Write bool   // the command writes or creates it
	// Real is where Path leads once its symlinks are resolved, when Judge
	// found it elsewhere (Command.Resolver); "" otherwise. Judge sets it on
	// the operands of its verdict, and the op door refuses a refused
	// operand at either path.
	Real string
}

// A Resolver tells Judge where a command's paths really lead and whether
// they are there, as the op door will find them (G-6.1a, G-4.5): a rule is
// judged on the path a symlink leads to as well as on the link's own path,
// and a deny or ask does not speak for a path that does not exist unless
// the command would create it. A nil Resolver judges paths as spelled.
// Implementations are safe for concurrent use.
type Resolver interface {
	// Resolve returns path (absolute, cleaned) with every symlink
	// component resolved as the session's view resolves it, the last one
	// too when follow is set. A walk that stops (a missing, hidden or
	// refused step) returns path unchanged.
	Resolve(path string, follow bool) string
	// Presence reports what the session's view finds at path, not
	// following a last symlink.
	Presence(path string) Presence
}

// Presence is what a Resolver found at a path.
type Presence uint8

// Presences.
const (
	Absent    Presence = iota // neither the path nor its directory is there (or it is hidden)
	Creatable                 // the path is missing, its directory is there
	Present                   // the path is there
)

// Command is one simple command to judge.
type Command struct {
	Argv     []string
	Cwd      string
	Operands []Operand
	// Line is the whole line the command belongs to, and Session the session
	// running it: policy programs see both in ctx (G-8.2).
	Line    string
	Session SessionInfo
	// Partial marks an argv that is only the literal prefix of a command
	// whose later words expand at run time (preflight). Policies are not
	// consulted on it: they would judge words the command will not have, and
	// the execution gate asks them again with the real argv (G-9.4).
	Partial bool
	// FileOp marks a file operation of the Session API (read_file,
	// write_file, …; G-11.6) rather than a command the shell runs: the tool
	// set and allow refinement are about commands and do not apply to it;
	// rules, path entries and policies do.
	FileOp bool
	// Resolver, when set, lets Judge follow the cwd and the operands
	// through symlinks and ask whether they exist (see Resolver).
	Resolver Resolver
}

// SessionInfo names the session a command or environment write belongs to,
// as policy programs see it in ctx["session"] (G-8.2).
type SessionInfo struct {
	ID      string
	AgentID string
	Profile string
}

// Verdict is the gate's judgement of one command. The shell renders the
// agent-visible text from it (one function for Execute and Explain, G-11.1).
type Verdict struct {
	Outcome Outcome
	// Refusal is the first refusal record (nil for run, not-found, hidden).
	Refusal *Refusal
	// Operand is the operand that decided an operand-scope outcome.
	Operand *Operand
	// OperandRefusals are every operand deny, in argv order; the command
	// runs and each fails where touched (G-4.10).
	OperandRefusals []OperandRefusal
	// Asks are every ask the command meets when Outcome is Ask, in the
	// order G-4.10 gives: command-axis rules (the profile's, then its
	// mounts'), operands in argv order (one per operand, with its path),
	// then the policies' asks. Refusal is the first of them. A question's
	// record names them all, and an answer settles exactly these.
	Asks []Refusal
	// HiddenOperands are operands that resolve to hidden paths; HideReason
	// explains them to hosts only.
	HiddenOperands []Operand
	HideReason     string
	HideRule       string
	// Cleared marks the operands (absolute paths only) that no path entry
	// reaches for this command. A door given them (OpScope.Cleared) answers
	// a read of exactly such a path without resolving it again (G-14).
	Cleared OperandSet
	// Waived are the grants the ask rules' exceptions covering the command
	// leave (Exception.Paths): the caller opens them at the op door for
	// the line, as an answer's would be, so that the redirections the
	// interpreter opens for the excepted command pass too.
	Waived []PathGrant
}

// OperandSet marks operands of a command by their index in
// Command.Operands. The zero value is empty; sets of up to 64 operands
// allocate nothing.
type OperandSet struct {
	small uint64   // operands 0..63
	big   []uint64 // operands from 64 on, 64 to a word
}

func (s *OperandSet) add(i int, of int) {
	if i < 64 {
		s.small |= 1 << uint(i)
		return
	}
	i -= 64
	if s.big == nil {
		s.big = make([]uint64, (of-64+63)/64)
	}
	if w := i / 64; w < len(s.big) {
		s.big[w] |= 1 << uint(i%64)
	}
}

// Has reports whether operand i is in the set.
func (s *OperandSet) Has(i int) bool {
	if i < 64 {
		return i >= 0 && s.small&(1<<uint(i)) != 0
	}
	i -= 64
	w := i / 64
	return w < len(s.big) && s.big[w]&(1<<uint(i%64)) != 0
}

// OperandRefusal is one denied operand of a running command.
type OperandRefusal struct {
	Operand Operand
	Refusal *Refusal
}
