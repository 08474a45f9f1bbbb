package gate

import (
	"path"
	"slices"
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
		refused, firstDeny = p.judgeOperands(&cmd, &v)
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
	if p.exempt != nil {
		v.Waived = p.waived(&cmd)
	}
	return v
}

// judgeOperands judges each operand on the path axis (G-4.4, G-4.10): it
// marks the cleared ones and the hidden ones in v, and returns the operand
// denies and asks in argv order with the index of the first deny (-1 when
// none).
func (p *Profile) judgeOperands(cmd *Command, v *Verdict) (refused []OperandRefusal, firstDeny int) {
	firstDeny = -1
	var dirs dirMemo // xargs hands a command thousands of siblings
	for i := range cmd.Operands {
		op := &cmd.Operands[i]
		if op.Path == "" {
			continue
		}
		real := op.Path
		if cmd.Resolver != nil && strings.HasPrefix(op.Path, "/") {
			real = cmd.Resolver.Resolve(op.Path, !op.Write)
		}
		if real == op.Path {
			if _, clear := dirs.clear(p, op.Path, cmd, false); clear {
				v.Cleared.add(i, len(cmd.Operands))
				continue // the common case first: an absolute path nothing reaches
			}
		}
		var j operandJudgement
		p.judgeOperand(cmd, *op, real, &dirs, &j)
		switch {
		case j.entry == nil:
			if j.cleared {
				v.Cleared.add(i, len(cmd.Operands))
			}
		case j.entry.verb == VerbHide:
			if len(v.HiddenOperands) == 0 {
				v.HideReason, v.HideRule = j.entry.reason, j.entry.rule
			}
			v.HiddenOperands = append(v.HiddenOperands, j.op)
		default:
			rec := j.entry.refusal
			rec.Path = j.path
			if j.entry.verb == VerbDeny && firstDeny < 0 {
				firstDeny = len(refused)
			}
			refused = append(refused, OperandRefusal{Operand: j.op, Refusal: &rec})
			if j.also != nil {
				also := j.also.refusal
				also.Path = j.alsoPath
				refused = append(refused, OperandRefusal{Operand: j.op, Refusal: &also})
			}
		}
	}
	return refused, firstDeny
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
// With a Resolver, the mounts a symlink leads into count too, so `cd` into
// a link to a mount is working inside that mount (G-5.3, G-6.1a).
func (p *Profile) workMounts(cmd Command, buf []*mountInfo) []*mountInfo {
	add := func(name string) {
		if name == "" {
			return
		}
		if !strings.HasPrefix(name, "/") {
			name = path.Join(cmd.Cwd, name)
		}
		at := name
		for {
			m := p.mountOf(at)
			if m != nil && m.deny.size+m.ask.size > 0 && !slices.Contains(buf, m) {
				buf = append(buf, m)
			}
			if at != name || cmd.Resolver == nil {
				return
			}
			if at = cmd.Resolver.Resolve(name, true); at == name {
				return
			}
		}
	}
	add(cmd.Cwd)
	for _, op := range cmd.Operands {
		add(op.Path)
	}
	return buf
}

// resolve is where name leads for cmd: name itself without a Resolver.
func (p *Profile) resolve(cmd *Command, name string, follow bool) string {
	if cmd.Resolver == nil {
		return name
	}
	return cmd.Resolver.Resolve(name, follow)
}

// operandJudgement is what one operand meets.
type operandJudgement struct {
	op Operand // Path made absolute; Real set when it leads elsewhere
	// entry is the hide, deny or ask that speaks for the operand, judged
	// on path; nil when none does.
	entry *pathEntry
	path  string
	// cleared: no entry reaches the operand, spelled absolute and leading
	// to itself, so the door may trust this answer (Verdict.Cleared).
	cleared bool
	// also is a second ask the operand meets, on alsoPath (the link's own
	// path) when entry is an ask on the path it leads to.
	also     *pathEntry
	alsoPath string
}

// judgeOperand judges one operand on its own path and, when a symlink
// takes it elsewhere, on the path it leads to; the stronger answer counts
// (G-6.1a: a rule on the link's own path applies too). With a Resolver, a
// deny or ask does not speak for a path that is not there unless the
// command creates it, and a hidden name the command writes answers like a
// missing one in its directory (G-4.5).
//
// real is where op.Path leads when the caller resolved it already (an
// absolute path); j receives the answer.
func (p *Profile) judgeOperand(cmd *Command, op Operand, real string, dirs *dirMemo, j *operandJudgement) {
	spelled := op.Path
	if !strings.HasPrefix(op.Path, "/") {
		op.Path = path.Join(cmd.Cwd, op.Path)
		real = p.resolve(cmd, op.Path, !op.Write)
	}
	j.op = op
	// The caller tried the sibling fast path on a path leading to itself.
	e, at := p.operandEntry(cmd, op.Path, dirs, real != op.Path || op.Path != spelled), op.Path
	if real != op.Path {
		j.op.Real = real
		re := p.operandEntry(cmd, real, dirs, true)
		if re != nil && e != nil && re.verb == VerbAsk && e.verb == VerbAsk {
			// Two questions: the link's own path and its target are both
			// read, so the record names both (G-4.10).
			j.also, j.alsoPath = e, op.Path
		}
		if outranks(re, e) {
			e, at = re, real
		}
	}
	if e == nil {
		j.cleared = real == spelled
		return
	}
	r := cmd.Resolver
	switch {
	case r == nil:
	case e.verb == VerbHide && op.Write:
		// A hidden name the command writes is refused as a missing name
		// would be there, if its directory is visible and there.
		var cb [stackDepth]span
		var nb [stackDepth + 1]*pathNode
		w := p.newWalk(at, cb[:0], nb[:0])
		if u := p.unhiddenEntry(&w, cmd, false); u != nil && p.parentVisible(at, cmd) && r.Presence(dirOf(at)) == Present {
			e = u
		}
	case e.verb == VerbDeny || e.verb == VerbAsk:
		switch r.Presence(real) {
		case Absent:
			j.also = nil
			return
		case Creatable:
			if !op.Write {
				j.also = nil
				return
			}
		}
	}
	j.entry, j.path = e, at
}

// operandEntry is the entry that speaks for an operand at path: a hide
// that leaves it hidden, a deny or an ask; nil when none does. fast tries
// the directory facts first (the caller may have tried them already).
func (p *Profile) operandEntry(cmd *Command, at string, dirs *dirMemo, fast bool) *pathEntry {
	if fast {
		if _, clear := dirs.clear(p, at, cmd, false); clear {
			return nil // the common case first: an absolute path nothing reaches
		}
	}
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := p.newWalk(at, cb[:0], nb[:0])
	dec := p.decide(&w, cmd, false)
	e := dec.entry
	switch {
	case e == nil, e.verb == VerbShow:
		return nil
	case e.verb == VerbHide && p.traversable(&w, e):
		return nil
	}
	return e
}

// outranks reports whether entry a speaks at least as strongly as b:
// hidden over denied over asked over nothing.
func outranks(a, b *pathEntry) bool {
	if a == nil {
		return false
	}
	return b == nil || a.verb.strength() >= b.verb.strength() // a tie: the path it leads to
}

// dirOf is the directory holding the clean absolute path p.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}
