package gate

import (
	"errors"
	"sync/atomic"
	"syscall"

	"gatehouse/core/vfs"
)

// OpScope is what the op door knows of the command being run: which ask
// rules an answer opened for it and where, and which operands Judge
// refused (G-4.10).
type OpScope struct {
	// Granted lets every path-only ask entry pass: only for the reads a
	// policy program makes to judge a line (G-8.3), never for a command.
	Granted bool
	// Grants are the ask rules a host's answer opened for this command,
	// each at a path its record showed. An op on a path an ask entry
	// reaches passes only when the entry's rule is granted at that path
	// or at one of its ancestors: an answer never opens a rule its record
	// did not name, nor a path it did not show (G-4.10, G-9.5).
	Grants []PathGrant
	// Refused are the command's refused operands: every op on one of these
	// paths or below it fails with the refusal.
	Refused []OperandRefusal
	// Command is the command the ops belong to, so a policy's pre_ops sees
	// the line's facts (G-8.2); nil leaves them empty.
	Command *Command
	// Cleared are Command's operands that Judge found no entry reaches
	// (Verdict.Cleared): the door trusts that answer for a read of exactly
	// such a path, so a grep over 4,000 files resolves each once, not twice.
	// The door entries are a subset of Judge's (command-scoped ones only for
	// this command), and an amendment can only add exceptions, so the
	// answer still holds.
	Cleared OperandSet
}

// PathGrant opens one ask rule (named by its refusal's policy and rule) at
// one path and below it, for one command.
type PathGrant struct {
	Policy string
	Rule   string
	Path   string
	// Write: the question showed the path as written (an operand the
	// command writes, an output redirection). An answer to a question that
	// only read a path lets the rest of the line read it, never write,
	// move or remove it (G-9.5).
	Write bool
}

// Opens reports whether the scope lets an op on path through the ask rule
// r: the whole scope is granted, or some grant names r's rule at path or
// at an ancestor of it.
func (s *OpScope) Opens(r *Refusal, path string) bool {
	if s.Granted {
		return true
	}
	for i := range s.Grants {
		g := &s.Grants[i]
		if g.Rule == r.Rule && g.Policy == r.Policy && within(path, g.Path) {
			return true
		}
	}
	return false
}

// Door returns the op door of this profile for one command (scope may be
// nil, e.g. for redirections and the session's own lookups). It applies, in
// order: the command's refused operands, the command rules of the mount an
// op lands in (G-5.3), hide (ENOENT; creating a hidden name in a visible
// directory meets the deny or ask that would reach it, else EACCES, G-4.5,
// G-4.11), deny and ask entries without a command and those naming the
// scope's command (every op but stat/lstat, G-6.1b), read-only modes
// (EROFS, G-5.2), and last the policies' pre_ops hooks (G-6.1, G-8.6). The
// door is also a vfs.CarryDoor: it judges what a rename carries (carry.go).
func (p *Profile) Door(scope *OpScope) vfs.Door {
	return p.newDoor(scope, false)
}

func (p *Profile) newDoor(scope *OpScope, policyRead bool) *door {
	// The policies' own door is made while the profile compiles: it always
	// walks the rules rather than trust flags that may not be final yet.
	d := &door{p: p, scope: scope, policyRead: policyRead, rules: policyRead || p.hasEntries || p.anyRO}
	if scope != nil && scope.Command != nil {
		d.cmd = scope.Command
		if argv := d.cmd.Argv; len(argv) > 0 && p.cmdMounts && p.mountRulesMayMatch(argv[0]) {
			d.mountRules = p.mountRefusals(d.cmd)
		}
	}
	if ch := p.policies; ch != nil && ch.judgesOps && !policyRead {
		d.preOps = true
		d.memoFirst = len(ch.coded) == 0
	}
	return d
}

type door struct {
	p     *Profile
	scope *OpScope
	// cmd is the scope's command, nil without one. Its command-scoped path
	// entries count at this door too, on the path each op really reaches,
	// so neither a symlink nor a recursive walk goes around them (G-6.1a).
	cmd *Command
	// mountRules are the mounts whose command rules refuse cmd: its ops in
	// them fail too, however the command got there (G-5.3).
	mountRules []mountRefusal
	// The profile's answers this door consults on every op, copied here
	// so that an op reads them from the door's own cache lines (G-14):
	// rules (some entry or read-only mode exists), preOps (a hook judges
	// ops) and memoFirst (only the program does, so the quiet word of a
	// silent memo hit settles an op).
	rules, preOps, memoFirst bool
	// memo holds the program's pre_ops answers for this command.
	memo OpMemo
	// dirs resolves runs of siblings without walking each one.
	dirs dirCache
	// next is the index of the operand the command is expected to open
	// next (utilities go through their operands in order).
	next atomic.Int64
	// quiet: see learnQuiet.
	quiet atomic.Uint32
	// policyRead marks the door of the policies' own reads (open()): hide,
	// deny and modes apply, but no pre_ops hook judges them (G-8.3).
	policyRead bool
	// facts is the command as the policies' pre_ops hooks see it, built
	// once per command rather than once per op (G-6.3), and only when a
	// hook runs: a command whose ops all hit the memo never needs it.
	facts atomic.Pointer[CommandContext]
}

// commandFacts returns the command's facts for the pre_ops hooks.
func (d *door) commandFacts() *CommandContext {
	if f := d.facts.Load(); f != nil {
		return f
	}
	f := d.p.policies.commandFacts(d.scope)
	d.facts.CompareAndSwap(nil, f)
	return d.facts.Load()
}

// CheckOp judges one operation on an absolute, cleaned, link-free path.
func (d *door) CheckOp(op vfs.Op) error {
	if err := d.checkRules(op); err != nil {
		return err
	}
	if err := d.gitGuard(op); err != nil {
		return err
	}
	// pre_ops can only refuse, and a refused entry is still listed
	// (G-6.1b): a listing's per-entry check need not ask it.
	if !d.preOps || op.Listing {
		return nil
	}
	if d.memoFirst {
		if q := d.quiet.Load(); q&quietKnown != 0 && (q&quietOnWrite == 0) == !op.Write {
			return nil
		}
	}
	return d.p.policies.checkOp(d, op)
}

// The door's quiet word remembers, in one atomic load on its own cache
// line, that the program says nothing about ops with a given write flag:
// a hook that read no op field but "write" answered silence for it. It is
// only ever a copy of a memo hit, so it answers as the memo would (G-14).
const (
	quietKnown   = 1 << iota // the word holds an answer
	quietOnWrite             // for ops that write (else for reads)
)

// learnQuiet keeps a silent memo hit in the quiet word when the call that
// made it read "write" and no other op field.
func (d *door) learnQuiet(h *memoHit) {
	if h.key.mask != FieldWrite {
		return
	}
	var q uint32 = quietKnown
	if h.key.write {
		q |= quietOnWrite
	}
	d.quiet.Store(q)
}

// Hider serves a listing of dir (vfs.ListingDoor): nil when no entry of it
// can be hidden, which spares a find or an ls one check per entry (G-14).
func (d *door) Hider(dir string) func(name string) bool {
	if !d.p.hasEntries {
		return nil
	}
	entryHidden := func(name string) bool {
		err := d.CheckOp(vfs.Op{Name: vfs.OpStat, Path: joinDir(dir, name), Listing: true})
		return errors.Is(err, vfs.ErrHidden)
	}
	if !useDirFacts {
		return entryHidden
	}
	f := d.dirs.facts.Load()
	if f == nil || f.dir != dir {
		var cmd *Command
		if d.scope != nil {
			cmd = d.scope.Command
		}
		// The entries are often opened or stat'ed next: keep the facts.
		f = d.p.dirFactsOf(dir, cmd, true)
		d.dirs.facts.Store(f)
	}
	if !f.mayHide() {
		return nil
	}
	return func(name string) bool {
		return !f.clearEntry(name, "") && entryHidden(name)
	}
}

// checkRules applies the profile's rules and mount modes to one op.
func (d *door) checkRules(op vfs.Op) error {
	p := d.p
	if d.scope != nil {
		for i := range d.scope.Refused {
			r := &d.scope.Refused[i]
			if r.covers(op.Path) && !d.hides(op.Path) {
				return &vfs.RefusedError{Reason: r.Refusal.Reason, Detail: r.Refusal}
			}
		}
	}
	if d.mountRules != nil {
		if err := d.mountRefused(op); err != nil {
			return err
		}
	}
	if !d.rules {
		return nil
	}
	if !op.Write && !op.Create && d.clearedOperand(op.Path) {
		return nil
	}
	cmd := d.cmd
	if mount, ok := d.dirs.clear(p, op.Path, cmd, cmd == nil); ok {
		if op.Write && mount != nil && mount.readOnly {
			return syscall.EROFS
		}
		return nil
	}
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := p.newWalk(op.Path, cb[:0], nb[:0])
	dec := p.decide(&w, cmd, cmd == nil)
	if e := dec.entry; e != nil {
		switch e.verb {
		case VerbHide:
			return d.hiddenOp(&w, e, op)
		case VerbDeny, VerbAsk:
			if op.Name == vfs.OpStat || op.Name == vfs.OpLstat || d.askGranted(e, op.Path) {
				break
			}
			return refusedAt(e, op.Path)
		}
	}
	if op.Write && dec.readOnly() {
		return syscall.EROFS
	}
	return nil
}

// hides reports whether a hide leaves path hidden: a refused operand's
// refusal then gives way to the hide's own answers (hiddenOp), so an op on
// a hidden name reads as it would on a missing one.
func (d *door) hides(path string) bool {
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := d.p.newWalk(path, cb[:0], nb[:0])
	dec := d.p.decide(&w, d.cmd, d.cmd == nil)
	return d.p.visibility(&w, &dec) == PathHidden
}

// covers reports whether path is the refused operand or lies below it,
// spelled as given or where its symlinks lead.
func (r *OperandRefusal) covers(path string) bool {
	return within(path, r.Operand.Path) || (r.Operand.Real != "" && within(path, r.Operand.Real))
}

// askGranted reports whether e is an ask this door's command may pass at
// path: an answer opened its rule there (G-4.10, G-9.5).
func (d *door) askGranted(e *pathEntry, path string) bool {
	return e.verb == VerbAsk && d.scope != nil && d.scope.Opens(&e.refusal, path)
}

// refusedAt is the door's refusal by a deny or ask entry, for path.
func refusedAt(e *pathEntry, path string) error {
	rec := e.refusal
	rec.Path = path
	return &vfs.RefusedError{Reason: rec.Reason, Detail: &rec}
}

// mountRefusal is a mount whose command rules refuse a door's command.
type mountRefusal struct {
	prefix string
	rec    Refusal
}

// mountRefusals lists the mounts whose deny or ask rules match cmd
// (G-5.3), with the record each gives; nil when none does.
func (p *Profile) mountRefusals(cmd *Command) []mountRefusal {
	var out []mountRefusal
	for _, m := range p.mounts {
		r := m.deny.first(cmd.Argv)
		if r == nil {
			if asks := m.ask.allFor(cmd, nil); len(asks) > 0 {
				r = asks[0]
			}
		}
		if r != nil {
			out = append(out, mountRefusal{prefix: m.prefix, rec: r.refusal})
		}
	}
	return out
}

// mountRefused refuses an op of the door's command inside a mount whose
// command rules refuse it. Judge refuses such a command when its cwd or an
// operand lies in the mount; the door holds the rule for what the command
// reaches by itself: through a symlink, or walking down from a directory
// above the mount (G-5.3, G-6.1a). Listing checks only ask what is hidden,
// and a mount rule hides nothing.
func (d *door) mountRefused(op vfs.Op) error {
	if op.Listing {
		return nil
	}
	for i := range d.mountRules {
		m := &d.mountRules[i]
		if m.prefix != op.Prefix {
			continue
		}
		if m.rec.Kind == string(VerbAsk) && d.scope.Opens(&m.rec, op.Path) {
			return nil
		}
		rec := m.rec
		rec.Path = op.Path
		return &vfs.RefusedError{Reason: rec.Reason, Detail: &rec}
	}
	return nil
}

// clearedOperand reports whether path is an operand Judge cleared: the one
// the command is expected to reach next, or the one it reached last.
func (d *door) clearedOperand(path string) bool {
	sc := d.scope
	if sc == nil || sc.Command == nil || (sc.Cleared.small == 0 && sc.Cleared.big == nil) {
		return false
	}
	ops := sc.Command.Operands
	i := int(d.next.Load())
	if i < len(ops) && sc.Cleared.Has(i) && ops[i].Path == path {
		d.next.CompareAndSwap(int64(i), int64(i+1))
		return true
	}
	return i > 0 && i <= len(ops) && sc.Cleared.Has(i-1) && ops[i-1].Path == path
}

// hiddenOp answers an op on a path a hide entry reaches.
func (d *door) hiddenOp(w *walk, hide *pathEntry, op vfs.Op) error {
	p := d.p
	if p.traversable(w, hide) {
		switch {
		case op.Name == vfs.OpStat, op.Name == vfs.OpLstat, op.Name == vfs.OpReadDir,
			op.Name == vfs.OpReadlink, op.Name == vfs.OpOpen && !op.Write:
			return nil
		}
		// The session can see this directory, so ENOENT would be a lie.
		return syscall.EACCES
	}
	if !op.Create {
		return vfs.ErrHidden
	}
	visible := p.parentVisible(op.Path, d.cmd)
	if !visible && !op.Planned {
		return vfs.ErrHidden
	}
	// Creating a name in a directory the session sees, or planning a
	// write that would make the directories missing on the way (a hidden
	// one looks missing). Where a deny or an unanswered ask would reach
	// the name were no hide written, it is refused that way, as a missing
	// name there is; elsewhere the create is EACCES (G-4.5, G-4.11), and
	// a planned write below a hidden directory answers as below a
	// missing one.
	if e := p.unhiddenEntry(w, d.cmd, d.cmd == nil); e != nil && !d.askGranted(e, op.Path) {
		return refusedAt(e, op.Path)
	}
	if !visible {
		return vfs.ErrHidden
	}
	return syscall.EACCES
}

// parentVisible reports whether the directory holding name is visible or
// traversable to the session, for cmd.
func (p *Profile) parentVisible(name string, cmd *Command) bool {
	parent := dirOf(name)
	if parent == "/" {
		return true // the root is always visible
	}
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := p.newWalk(parent, cb[:0], nb[:0])
	dec := p.decide(&w, cmd, cmd == nil)
	return p.visibility(&w, &dec) != PathHidden
}
