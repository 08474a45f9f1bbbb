package gate

import (
	"errors"
	"fmt"
	"time"

	"gatehouse/core/gate/internal/policyrun"
	"gatehouse/core/vfs"
)

// DefaultPolicyTimeout bounds one hook call when the policy block names no
// timeout (G-8.4); core/gate/internal/policyrun says how time is counted.
const DefaultPolicyTimeout = 100 * time.Millisecond

// MaxPolicyTimeout is the longest time-out a policy block may ask for: a
// hook runs for every command and op, so seconds are already absurd.
const MaxPolicyTimeout = policyrun.MaxTimeout

// Hook is one of a program's three hooks (G-8.1), as an index.
type Hook int

// The hooks, in the order G-8.1 lists them.
const (
	OnCommand Hook = iota // pre_command
	OnOps                 // pre_ops
	OnSession             // pre_session
	NumHooks
)

// recordNames are the hooks as records cite them, whatever the engine.
var recordNames = [NumHooks]string{HookPreCommand, HookPreOps, HookPreSession}

// String is the hook as records cite it: pre_command, pre_ops, pre_session.
func (h Hook) String() string { return recordNames[h] }

// Hooks says which hooks a program defines.
type Hooks [NumHooks]bool

// HookInput is one call's facts; Op and Write are set for their hooks
// only.
type HookInput struct {
	Facts *CommandContext
	Op    *OpInfo       // pre_ops
	Write *EnvWriteInfo // pre_session
	// Memo, for pre_ops, is the command's memory of earlier answers: an
	// engine that can tell which op fields a call read stores the answer
	// there (OpMemo.Remember), and the door asks it before the next call.
	Memo *OpMemo
}

// Engine is a language policy programs are written in (G-8.3). The gate
// links no interpreter itself: whoever compiles profiles with programs
// passes the engines it offers (WithEngines), so a binary that imports the
// gate links only the interpreters it chose. core passes Starlark
// (core/gate/starlark) and JavaScript (core/gate/javascript).
type Engine interface {
	// Name is the engine as a policy block names it ("starlark").
	Name() string
	// Load compiles code and runs its top level within env's time-out,
	// returning the program and which hooks it defines. An error is the
	// document's: a syntax error, an exception, a time-out, a hook that
	// is not a function.
	Load(code string, env *ProgramEnv) (Program, Hooks, error)
}

// Program is one loaded policy program. Call runs hook h on in: the error
// is the deny reason (an exception, a time-out from ProgramEnv.TimedOut, or
// an answer G-8.1 does not define, from UnknownAnswer). Call is safe for
// concurrent use: a call never shares mutable interpreter state with
// another.
type Program interface {
	Call(h Hook, in *HookInput) (Decision, error)
}

// ProgramEnv is what a program can reach besides its ctx, and how long
// each call may run.
type ProgramEnv struct {
	// Name is the program's file name, for positions in errors.
	Name string
	// Timeout bounds one call (G-8.4): its own thread's running time,
	// with a wall backstop (core/gate/internal/policyrun).
	Timeout time.Duration
	// Mounts is ctx.mounts: prefix -> "ro" | "rw". Read, never modify.
	Mounts map[string]string

	files vfs.FS // the policies' view for open(); nil without WithFS
}

// TimedOut is the deny reason of a call of hook (as the program spells
// it) stopped at the time-out.
func (env *ProgramEnv) TimedOut(hook string) error {
	return &timedOutError{program: env.Name, hook: hook, timeout: env.Timeout}
}

// ReadFile is a program's open(name), relative to cwd (G-8.3): through the
// op door's rules but none of the program's own pre_ops. Its errors read
// "open: PATH: TEXT", the same for a hidden path as for a missing one.
func (env *ProgramEnv) ReadFile(cwd, name string) ([]byte, error) {
	return readForPolicy(env.files, cwd, name)
}

// IsFile is a program's is_file(name): whether name, relative to cwd, is
// a regular file the program may see.
func (env *ProgramEnv) IsFile(cwd, name string) bool {
	return isFileForPolicy(env.files, cwd, name)
}

// timedOutError is the deny reason of a call stopped at its time-out
// (G-8.4): it names the program, so whoever reads the refusal knows which
// one to fix.
type timedOutError struct {
	program, hook string
	timeout       time.Duration
}

func (e *timedOutError) Error() string {
	return fmt.Sprintf("policy %s timed out: %s ran past %v", e.program, e.hook, e.timeout)
}

// program is a profile's compiled policy program (G-8).
type program struct {
	policy string // "policy:guard.star", the record's policy (G-7.7)
	rule   string // where the policy block was written (G-1.3)
	hooks  Hooks
	run    Program
}

func (p *program) noHooks() bool {
	return !p.hooks[OnCommand] && !p.hooks[OnOps] && !p.hooks[OnSession]
}

// compileProgram compiles spec once for the profile's lifetime; its top
// level runs now, under the same time-out as a hook call.
func compileProgram(spec PolicySpec, profileSource string, ch *policyChain) (*program, error) {
	name := spec.Name
	if name == "" {
		name = "inline"
	}
	env := &ProgramEnv{Name: name, files: ch.files, Timeout: DefaultPolicyTimeout, Mounts: ch.mounts}
	if spec.Timeout > 0 {
		env.Timeout = time.Duration(spec.Timeout)
	}
	if env.Timeout > MaxPolicyTimeout {
		return nil, fmt.Errorf("timeout %v is over the limit of %v per call", env.Timeout, MaxPolicyTimeout)
	}
	prog := &program{policy: "policy:" + name, rule: spec.Source}
	if prog.rule == "" {
		prog.rule = profileSource
	}
	engine, err := ch.engine(spec.Engine)
	if err == nil {
		prog.run, prog.hooks, err = engine.Load(spec.Code, env)
	}
	if err != nil {
		return nil, err
	}
	return prog, nil
}

// judge calls hook h and turns its answer into a refusal record, or nil for
// no opinion. Anything but a defined answer denies, with the error as the
// reason (G-8.4); a program with no hooks denies every command.
func (p *program) judge(h Hook, in *HookInput, scope string) *Refusal {
	if p.noHooks() {
		return &Refusal{Kind: string(VerbDeny), Reason: NoHooksReason, Policy: p.policy, Scope: scope, Rule: p.rule}
	}
	d, err := p.run.Call(h, in)
	return p.record(h, d, err, scope)
}

// record turns the program's answer (or its failure) into a refusal, nil
// for no opinion.
func (p *program) record(h Hook, d Decision, err error, scope string) *Refusal {
	if err == nil && d.Verb == VerbNone {
		return nil
	}
	rec := &Refusal{Kind: string(VerbDeny), Policy: p.policy, Scope: scope, Rule: p.rule, Hook: recordNames[h]}
	var timedOut *timedOutError
	switch {
	case errors.As(err, &timedOut):
		rec.Reason, rec.timedOut = err.Error(), true
	case err != nil:
		rec.Reason = err.Error()
	case d.Verb == VerbAsk:
		rec.Kind, rec.Reason = string(VerbAsk), d.Reason
	default:
		rec.Reason = d.Reason
	}
	return rec
}

// Answer reads a hook's answer word (G-8.1): "allow" is no opinion, "deny"
// denies, "ask" asks (pre_command only); reason is the text of {"deny":
// reason} or {"ask": reason}, and "allow" takes none. ok is false for
// anything else, which the engine reports with UnknownAnswer.
func Answer(h Hook, word, reason string) (d Decision, ok bool) {
	switch word {
	case "allow":
		return NoOpinion(), reason == ""
	case "deny":
		return Refuse(reason), true
	case "ask":
		return Question(reason), h == OnCommand
	}
	return Decision{}, false
}

// UnknownAnswer is the deny reason for an answer G-8.1 does not define:
// hookName as the program spells it, got the answer as the language
// writes it, none the language's spelling of no answer ("None").
func UnknownAnswer(hookName string, h Hook, got, none string) error {
	if h == OnCommand {
		return fmt.Errorf(`%s returned %s; want %s, "allow", "deny", "ask", {"deny": reason} or {"ask": reason}`, hookName, got, none)
	}
	return fmt.Errorf(`%s returned %s; want %s, "allow", "deny" or {"deny": reason} (no ask here)`, hookName, got, none)
}
