package gate

import (
	"path"
	"strings"
)

// Reason and policy of a refusal by allow refinement (G-3.1 step 4).
const (
	NotInAllowList = "not in the allow list"
	AllowPolicy    = "allow"
)

// Refusal scopes (G-7.2, G-7.3).
const (
	ScopeCommand = "command"
	ScopeOperand = "operand"
)

// Judge judges one simple command whose argv is already expanded and whose
// operands are resolved (wrappers are unwrapped by the shell). The order is
// G-3.1 and G-4.10:
//
//  1. a word missing from the tool set is NotFound, with no refusal record
//     (a file operation of the Session API is no command, and skips this
//     step and step 3);
//  2. a command-axis deny (profile rules, then the rules of every mount the
//     command works in, by cwd or by operand, G-5.3) refuses the command;
//  3. allow refinement refuses an argv no allow pattern covers;
//  4. operand denies refuse those operands where they are touched, and the
//     command runs (Outcome Deny, scope operand);
//  5. asks, command axis first, then operands in argv order.
//
// An ask is kept only while nothing refuses (G-8.6): next to an operand deny,
// asked operands are refused like denied ones, and a command-axis ask
// refuses the whole command, since it cannot run without the answer.
// Hidden operands make the outcome Hidden only when the command would
// otherwise run; it still runs and meets ENOENT at the op door.
//
// Last come the policies (G-8.6): every coded PreCommand, then the
// profile's program, unless the rules already denied the command or one of
// its operands (the first deny wins).
func (p *Profile) Judge(cmd Command) Verdict {
	v := p.judgeRules(cmd)
	if p.policies == nil || !p.policies.judgesCommands {
		return v
	}
	return p.policies.judgeCommand(cmd, v)
}

// judgeRules is Judge by the document's rules alone.
func (p *Profile) judgeRules(cmd Command) Verdict {
	argv := cmd.Argv
	if len(argv) == 0 {
		return Verdict{Outcome: Run}
	}
	if !cmd.FileOp && !p.Installed(argv[0]) {
		return Verdict{Outcome: NotFound}
	}

	var mountBuf [4]*mountInfo
	mounts := mountBuf[:0]
	if p.cmdMounts && p.mountRulesMayMatch(argv[0]) {
		mounts = p.workMounts(cmd, mounts)
	}

	if r := p.deny.first(argv); r != nil {
		return commandVerdict(Deny, r.refusal)
	}
	for _, m := range mounts {
		if r := m.deny.first(argv); r != nil {
			return commandVerdict(Deny, r.refusal)
		}
	}
	if p.refine && !cmd.FileOp && p.allow.first(argv) == nil {
		return commandVerdict(Deny, Refusal{Kind: string(VerbDeny), Reason: NotInAllowList,
			Policy: AllowPolicy, Scope: ScopeCommand, Rule: p.allowRule})
	}

	// Every command-axis ask the command meets: a record names them all
	// (G-4.10), the profile's first, then each mount's.
	var askBuf [4]*cmdRule
	cmdAsks := p.ask.allFor(&cmd, askBuf[:0])
	for _, m := range mounts {
		cmdAsks = m.ask.allFor(&cmd, cmdAsks)
	}
	var cmdAsk *cmdRule
	if len(cmdAsks) > 0 {
		cmdAsk = cmdAsks[0]
	}

	var v Verdict
	var refused []OperandRefusal // operand denies and asks, in argv order
	firstDeny := -1
	if p.hasEntries {
		var dirs dirMemo // xargs hands a command thousands of siblings
		for i := range cmd.Operands {
			if cmd.Operands[i].Path == "" {
				continue
			}
			if _, clear := dirs.clear(p, cmd.Operands[i].Path, &cmd, false); clear {
				v.Cleared.add(i, len(cmd.Operands))
				continue // the common case first: an absolute path nothing reaches
			}
			op := cmd.Operands[i]
			if !strings.HasPrefix(op.Path, "/") {
				op.Path = path.Join(cmd.Cwd, op.Path)
			}
			var cb [stackDepth]span
			var nb [stackDepth + 1]*pathNode
			w := p.newWalk(op.Path, cb[:0], nb[:0])
			dec := p.decide(&w, &cmd, false)
			e := dec.entry
			if e == nil {
				if op.Path == cmd.Operands[i].Path { // absolute as given
					v.Cleared.add(i, len(cmd.Operands))
				}
				continue
			}
			switch e.verb {
			case VerbHide:
				if p.traversable(&w, e) {
					continue
				}
				if len(v.HiddenOperands) == 0 {
					v.HideReason, v.HideRule = e.reason, e.rule
				}
				v.HiddenOperands = append(v.HiddenOperands, op)
			case VerbDeny, VerbAsk:
				rec := e.refusal
				rec.Path = op.Path
				if e.verb == VerbDeny && firstDeny < 0 {
					firstDeny = len(refused)
				}
				refused = append(refused, OperandRefusal{Operand: op, Refusal: &rec})
			}
		}
	}

	switch {
	case firstDeny >= 0:
		for _, r := range refused {
			r.Refusal.Kind = string(VerbDeny) // asked operands are refused too, during this run
		}
		v.OperandRefusals = refused
		v.Outcome = Deny
		if cmdAsk != nil {
			rec := cmdAsk.refusal
			rec.Kind = string(VerbDeny)
			v.Refusal = &rec
			return v
		}
		v.Refusal = refused[firstDeny].Refusal
		v.Operand = &refused[firstDeny].Operand
	case cmdAsk != nil || len(refused) > 0:
		v.Outcome = Ask
		v.Asks = make([]Refusal, 0, len(cmdAsks)+len(refused))
		for _, r := range cmdAsks {
			v.Asks = append(v.Asks, r.refusal)
		}
		for _, r := range refused {
			v.Asks = append(v.Asks, *r.Refusal)
		}
		v.Refusal = &v.Asks[0]
		if cmdAsk == nil {
			v.Operand = &refused[0].Operand
		}
	case len(v.HiddenOperands) > 0:
		v.Outcome = Hidden
	default:
		v.Outcome = Run
	}
	return v
}

func commandVerdict(o Outcome, rec Refusal) Verdict {
	return Verdict{Outcome: o, Refusal: &rec}
}

// mountRulesMayMatch reports whether some mount's command rules could
// match a command named name: only then do its operands' mounts matter
// (a grep over 4,000 files needs no mount lookup per file when the mounts
// rule on truncate and shred alone).
func (p *Profile) mountRulesMayMatch(name string) bool {
	for _, m := range p.mounts {
		if m.deny.mayMatch(name) || m.ask.mayMatch(name) {
			return true
		}
	}
	return false
}

// workMounts appends the mounts with command-axis rules that the command
// works in: the cwd's mount first, then each operand's, without repeats.
func (p *Profile) workMounts(cmd Command, buf []*mountInfo) []*mountInfo {
	add := func(name string) {
		if name == "" {
			return
		}
		if !strings.HasPrefix(name, "/") {
			name = path.Join(cmd.Cwd, name)
		}
		m := p.mountOf(name)
		if m == nil || m.deny.size+m.ask.size == 0 {
			return
		}
		for _, seen := range buf {
			if seen == m {
				return
			}
		}
		buf = append(buf, m)
	}
	add(cmd.Cwd)
	for _, op := range cmd.Operands {
		add(op.Path)
	}
	return buf
}
