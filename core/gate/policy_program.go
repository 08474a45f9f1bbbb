package gate

import (
	"errors"
	"fmt"
	"time"

	"gatehouse/core/vfs"
)

// DefaultPolicyTimeout bounds one hook call when the policy block names no
// timeout (G-8.4); see policy_budget.go for how time is counted.
const DefaultPolicyTimeout = 100 * time.Millisecond

// hook is one of the three admission hooks, as an index.
type hook int

const (
	hookCommand hook = iota
	hookOps
	hookSession
	hookCount
)

// recordNames are the hooks as records cite them, whatever the engine.
var recordNames = [hookCount]string{HookPreCommand, HookPreOps, HookPreSession}

// starlarkNames and javascriptNames are the hooks as programs define them.
var (
	starlarkNames   = [hookCount]string{"pre_command", "pre_ops", "pre_session"}
	javascriptNames = [hookCount]string{"preCommand", "preOps", "preSession"}
)

// hookInput is one call's facts; op and write are set for their hooks only.
type hookInput struct {
	facts *CommandContext
	op    *OpInfo
	write *EnvWriteInfo
	// memo, for pre_ops, is the command's memory of earlier answers; an
	// engine that can tell which op fields a call read uses it.
	memo *opMemo
}

// engine runs one compiled program. Implementations are safe for concurrent
// use: a call never shares mutable interpreter state with another.
type engine interface {
	// call runs hook h. The error is the deny reason: an exception, a
	// time-out, or an answer G-8.1 does not define.
	call(h hook, in *hookInput) (Decision, error)
}

// programEnv is what an engine's program can reach besides its ctx.
type programEnv struct {
	name    string // the program's file name, for positions in errors
	files   vfs.FS // the policies' view for open(); nil without WithFS
	timeout time.Duration
	budget  callBudget
}

// timedOut is the deny reason of a call of hook stopped at the time-out.
func (env *programEnv) timedOut(hook string) error {
	return &timedOutError{program: env.name, hook: hook, timeout: env.timeout}
}

// program is a profile's compiled policy program (G-8).
type program struct {
	policy string // "policy:guard.star", the record's policy (G-7.7)
	rule   string // where the policy block was written (G-1.3)
	hooks  [hookCount]bool
	run    engine
}

func (p *program) noHooks() bool {
	return !p.hooks[hookCommand] && !p.hooks[hookOps] && !p.hooks[hookSession]
}

// compileProgram compiles spec once for the profile's lifetime; its top
// level runs now, under the same time-out as a hook call.
func compileProgram(spec PolicySpec, profileSource string, ch *policyChain) (*program, error) {
	name := spec.Name
	if name == "" {
		name = "inline"
	}
	env := &programEnv{name: name, files: ch.files, timeout: DefaultPolicyTimeout}
	if spec.Timeout > 0 {
		env.timeout = time.Duration(spec.Timeout)
	}
	if env.timeout > MaxPolicyTimeout {
		return nil, fmt.Errorf("timeout %v is over the limit of %v per call", env.timeout, MaxPolicyTimeout)
	}
	env.budget = newBudget(env.timeout)
	prog := &program{policy: "policy:" + name, rule: spec.Source}
	if prog.rule == "" {
		prog.rule = profileSource
	}
	var err error
	switch spec.Engine {
	case "starlark":
		prog.run, prog.hooks, err = newStarlarkEngine(spec.Code, env, ch.mounts)
	case "javascript":
		prog.run, prog.hooks, err = newJavaScriptEngine(spec.Code, env, ch.mounts)
	default:
		err = fmt.Errorf("engine must be starlark or javascript, got %q", spec.Engine)
	}
	if err != nil {
		return nil, err
	}
	return prog, nil
}

// judge calls hook h and turns its answer into a refusal record, or nil for
// no opinion. Anything but a defined answer denies, with the error as the
// reason (G-8.4); a program with no hooks denies every command.
func (p *program) judge(h hook, in *hookInput, scope string) *Refusal {
	if p.noHooks() {
		return &Refusal{Kind: string(VerbDeny), Reason: NoHooksReason, Policy: p.policy, Scope: scope, Rule: p.rule}
	}
	d, err := p.run.call(h, in)
	return p.record(h, d, err, scope)
}

// record turns the program's answer (or its failure) into a refusal, nil
// for no opinion.
func (p *program) record(h hook, d Decision, err error, scope string) *Refusal {
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

// answerWord reads a hook's answer word (G-8.1): "allow" is no opinion,
// "deny" denies, "ask" asks (pre_command only). ok is false for anything
// else, which the caller reports as an unknown value.
func answerWord(h hook, word, reason string) (d Decision, ok bool) {
	switch word {
	case "allow":
		return NoOpinion(), reason == ""
	case "deny":
		return Refuse(reason), true
	case "ask":
		return Question(reason), h == hookCommand
	}
	return Decision{}, false
}

// unknownAnswer is the deny reason for an answer G-8.1 does not define.
func unknownAnswer(hookName string, h hook, got, none string) error {
	if h == hookCommand {
		return fmt.Errorf(`%s returned %s; want %s, "allow", "deny", "ask", {"deny": reason} or {"ask": reason}`, hookName, got, none)
	}
	return fmt.Errorf(`%s returned %s; want %s, "allow", "deny" or {"deny": reason} (no ask here)`, hookName, got, none)
}
