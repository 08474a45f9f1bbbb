package gate

import (
	"fmt"
	"slices"
	"strings"

	"gatehouse/core/vfs"
)

// policyChain is what a profile consults after its rules (G-8.6): the coded
// policies in order, then the profile's program.
type policyChain struct {
	engines []Engine
	coded   []codedPolicy
	program *program // nil without a policy block
	mounts  map[string]string
	files   vfs.FS // the policies' own view: rules apply, pre_ops does not
	bare    CommandContext

	judgesCommands, judgesOps, judgesSessions bool
}

// codedPolicy is one Go policy with the name and source its records cite.
type codedPolicy struct {
	name, source string
	command      PreCommand
	ops          PreOps
	session      PreSession
}

func (c *compiler) compilePolicies(opts []CompileOption) error {
	var o compileOptions
	for _, opt := range opts {
		opt(&o)
	}
	p := c.p
	spec := p.spec.Policy
	if spec == nil && len(o.policies) == 0 {
		return nil
	}
	ch := &policyChain{engines: o.engines, mounts: make(map[string]string, len(p.mounts))}
	for _, m := range p.mounts {
		ch.mounts[m.prefix] = "rw"
		if m.readOnly {
			ch.mounts[m.prefix] = "ro"
		}
	}
	if o.files != nil {
		// Hide and deny apply to what policies read (G-8.3); an ask is a
		// question for a human about the session's command, not about the
		// policy reading the file to judge it, so it lets the read through.
		ch.files = o.files.View(p.newDoor(&OpScope{Granted: true}, true))
	}
	ch.bare = CommandContext{Argv: []string{}, Paths: []string{}, Mounts: ch.mounts, files: ch.files}
	for _, n := range o.policies {
		cp := codedPolicy{name: n.Name, source: n.Source}
		cp.command, _ = n.Policy.(PreCommand)
		cp.ops, _ = n.Policy.(PreOps)
		cp.session, _ = n.Policy.(PreSession)
		if cp.command == nil && cp.ops == nil && cp.session == nil {
			return c.errorf(n.Source, "coded policy %s implements none of PreCommand, PreOps, PreSession", n.Name)
		}
		ch.coded = append(ch.coded, cp)
		ch.judgesCommands = ch.judgesCommands || cp.command != nil
		ch.judgesOps = ch.judgesOps || cp.ops != nil
		ch.judgesSessions = ch.judgesSessions || cp.session != nil
	}
	if spec != nil {
		prog, err := compileProgram(*spec, p.spec.Source, ch)
		if err != nil {
			return c.errorf(spec.Source, "policy %s: %v", spec.Name, err)
		}
		ch.program = prog
		// A program without hooks still judges commands: it denies them all.
		ch.judgesCommands = ch.judgesCommands || prog.hooks[OnCommand] || prog.noHooks()
		ch.judgesOps = ch.judgesOps || prog.hooks[OnOps]
		ch.judgesSessions = ch.judgesSessions || prog.hooks[OnSession]
	}
	p.policies = ch
	return nil
}

// factsOf is a command as policies see it (G-8.2).
func (ch *policyChain) factsOf(cmd *Command) CommandContext {
	f := CommandContext{
		Argv: cmd.Argv, Line: cmd.Line, Cwd: cmd.Cwd, Session: cmd.Session,
		Mounts: ch.mounts, files: ch.files, Paths: make([]string, 0, len(cmd.Operands)),
	}
	if f.Argv == nil {
		f.Argv = []string{}
	}
	if len(cmd.Argv) > 0 {
		f.Command = cmd.Argv[0]
	}
	for _, op := range cmd.Operands {
		if op.Path != "" {
			f.Paths = append(f.Paths, op.Path)
		}
	}
	return f
}

// commandFacts is the command a door's ops belong to, for pre_ops.
func (ch *policyChain) commandFacts(scope *OpScope) *CommandContext {
	if scope == nil || scope.Command == nil {
		return &ch.bare
	}
	f := ch.factsOf(scope.Command)
	return &f
}

// judgeCommand consults the policies after the rules gave v (G-8.6): the
// first deny wins, an ask is kept only while nothing refuses, and an allow
// is no opinion. Every policy's ask joins the rules' asks: a record names
// all of them, so an answer to a rule's question never settles a policy's
// (G-4.10). The rules speak first, so once they deny (the command, or
// one of its operands) no policy is asked: the rule's refusal is the one
// the agent reads, in its own voice (G-4.10).
func (ch *policyChain) judgeCommand(cmd Command, v Verdict) Verdict {
	switch {
	case len(cmd.Argv) == 0, cmd.Partial, v.Outcome == NotFound, v.Outcome == Deny:
		return v
	}
	facts := ch.factsOf(&cmd)
	var asks []Refusal
	for i := range ch.coded {
		cp := &ch.coded[i]
		if cp.command == nil {
			continue
		}
		d := cp.preCommand(facts)
		switch rec := cp.record(d, HookPreCommand, ScopeCommand); {
		case rec == nil:
		case rec.Kind == string(VerbDeny):
			return Verdict{Outcome: Deny, Refusal: rec}
		default:
			asks = append(asks, *rec)
		}
	}
	if prog := ch.program; prog != nil && (prog.hooks[OnCommand] || prog.noHooks()) {
		rec := prog.judge(OnCommand, &HookInput{Facts: &facts}, ScopeCommand)
		switch {
		case rec == nil:
		case rec.Kind == string(VerbDeny):
			return Verdict{Outcome: Deny, Refusal: rec}
		default:
			asks = append(asks, *rec)
		}
	}
	switch {
	case len(asks) == 0:
	case v.Outcome == Run || v.Outcome == Hidden:
		v.Outcome, v.Operand = Ask, nil
		v.Asks = asks
		v.Refusal = &v.Asks[0]
	case v.Outcome == Ask:
		v.Asks = append(v.Asks, asks...)
		v.Refusal = &v.Asks[0]
	}
	return v
}

// checkOp runs the pre_ops hooks for an op the rules let through. A deny
// surfaces as a RefusedError, so the utility says `NAME: PATH: REASON`
// (G-6.2).
func (ch *policyChain) checkOp(d *door, op vfs.Op) error {
	if !ch.judgesOps {
		return nil
	}
	var rec *Refusal
	if len(ch.coded) > 0 {
		rec = ch.codedOps(d, &op)
	}
	if prog := ch.program; rec == nil && prog != nil && prog.hooks[OnOps] {
		if h, ok := d.memo.lookupHit(&op); ok {
			// An earlier op of this command took the same path through
			// the hook: no pooled thread, no watchdog (G-14).
			switch {
			case h.d.Verb != VerbNone:
				rec = prog.record(OnOps, h.d, nil, ScopeOperand)
			case len(ch.coded) == 0:
				d.learnQuiet(h) // the program alone judges ops
			}
		} else {
			rec = prog.judgeOp(d, &op)
		}
	}
	if rec == nil {
		return nil
	}
	rec.Path = op.Path
	text := rec.Reason
	if text == "" {
		text = "Permission denied" // a bare "deny" still reads as an error
	}
	return &vfs.RefusedError{Reason: text, Detail: rec}
}

// codedOps asks the coded policies' PreOps in order. It is apart from
// checkOp because its ctx copy is large: inlined, every op would pay for
// clearing it (G-14).
//
//go:noinline
func (ch *policyChain) codedOps(d *door, op *vfs.Op) *Refusal {
	info := opInfo(op)
	for i := range ch.coded {
		cp := &ch.coded[i]
		if cp.ops == nil {
			continue
		}
		if rec := cp.record(cp.preOps(OpContext{CommandContext: *d.commandFacts(), Op: info}), HookPreOps, ScopeOperand); rec != nil {
			return rec
		}
	}
	return nil
}

// judgeOp runs the program's pre_ops on an op the memo has no answer for;
// it is apart from checkOp so that only a miss moves the op to the heap.
//
//go:noinline
func (p *program) judgeOp(d *door, op *vfs.Op) *Refusal {
	info := opInfo(op)
	return p.judge(OnOps, &HookInput{Facts: d.commandFacts(), Op: &info, Memo: &d.memo}, ScopeOperand)
}

func opInfo(op *vfs.Op) OpInfo {
	return OpInfo{Name: op.Name, Path: op.Path, Write: op.Write, Prefix: op.Prefix}
}

// JudgeEnvWrite runs the pre_session hooks on one environment write (G-8.1):
// the coded policies in order, then the program. It returns the refusal, or
// nil when the write may happen. The shell calls it for every write: `X=1`,
// `export`, `unset`, `declare -x`, `local`, `read VAR`.
func (p *Profile) JudgeEnvWrite(w EnvWrite) *Refusal {
	ch := p.policies
	if ch == nil || !ch.judgesSessions {
		return nil
	}
	facts := ch.bare
	facts.Line, facts.Cwd, facts.Session = w.Line, w.Cwd, w.Session
	ctx := SessionContext{CommandContext: facts, Write: EnvWriteInfo{Key: w.Key, Value: w.Value, Verb: w.Verb}}
	for i := range ch.coded {
		cp := &ch.coded[i]
		if cp.session == nil {
			continue
		}
		if rec := cp.record(cp.preSession(ctx), HookPreSession, ScopeEnv); rec != nil {
			return rec
		}
	}
	if prog := ch.program; prog != nil && prog.hooks[OnSession] {
		return prog.judge(OnSession, &HookInput{Facts: &facts, Write: &ctx.Write}, ScopeEnv)
	}
	return nil
}

// record turns a coded policy's decision into a refusal record, or nil for
// no opinion. An ask where only allow or deny may be said is refused: a
// policy that cannot say what it means fails closed (G-8.4).
func (cp *codedPolicy) record(d Decision, hook, scope string) *Refusal {
	if d.Verb == VerbNone {
		return nil
	}
	rec := &Refusal{Kind: string(VerbDeny), Reason: d.Reason, Policy: cp.name, Scope: scope, Rule: cp.source, Hook: hook}
	switch {
	case d.Verb == VerbDeny:
	case d.Verb == VerbAsk && hook == HookPreCommand:
		rec.Kind = string(VerbAsk)
	default:
		rec.Reason = fmt.Sprintf("%s answered %q (%s); it may answer allow or deny only", hook, d.Verb, d.Reason)
		if hook == HookPreCommand {
			rec.Reason = fmt.Sprintf("%s answered %q (%s); want allow, deny or ask", hook, d.Verb, d.Reason)
		}
	}
	return rec
}

// A coded policy that panics denies, with the panic as the reason, rather
// than taking the session down with it (G-8.4).
func (cp *codedPolicy) preCommand(ctx CommandContext) (d Decision) {
	defer recoverDecision(&d, HookPreCommand)
	return cp.command.PreCommand(ctx)
}

func (cp *codedPolicy) preOps(ctx OpContext) (d Decision) {
	defer recoverDecision(&d, HookPreOps)
	return cp.ops.PreOps(ctx)
}

func (cp *codedPolicy) preSession(ctx SessionContext) (d Decision) {
	defer recoverDecision(&d, HookPreSession)
	return cp.session.PreSession(ctx)
}

func recoverDecision(d *Decision, hook string) {
	if r := recover(); r != nil {
		*d = Refuse(fmt.Sprintf("%s panicked: %v", hook, r))
	}
}

// Policies names who judges besides the rules, in chain order (G-8.6):
// every coded policy, then "policy:NAME" for the program.
func (p *Profile) Policies() []string {
	if p.policies == nil {
		return nil
	}
	names := make([]string, 0, len(p.policies.coded)+1)
	for _, cp := range p.policies.coded {
		names = append(names, cp.name)
	}
	if p.policies.program != nil {
		names = append(names, p.policies.program.policy)
	}
	return slices.Clip(names)
}

// JudgesEnvWrites reports whether any policy of the profile has a
// pre_session hook, so the shell checks environment writes only then.
func (p *Profile) JudgesEnvWrites() bool {
	return p.policies != nil && p.policies.judgesSessions
}

// engine is the engine of the given name among those Compile was offered
// (WithEngines), the last one offered winning.
func (ch *policyChain) engine(name string) (Engine, error) {
	var names []string
	for i := len(ch.engines) - 1; i >= 0; i-- {
		if ch.engines[i].Name() == name {
			return ch.engines[i], nil
		}
	}
	for _, e := range ch.engines {
		if !slices.Contains(names, e.Name()) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("engine %q is not available: no policy engine was given to Compile (gate.WithEngines)", name)
	}
	return nil, fmt.Errorf("engine must be %s, got %q", strings.Join(names, " or "), name)
}
