package gate

import (
	"syscall"

	"gatehouse/core/vfs"
)

// A rename carries an entry, and a directory's whole subtree, to a new
// path, and the rules there may be weaker than the rules that reached each
// entry at its old path: a hide anchored inside the directory, a deny
// matching only the old spelling, a read-only show, a rule that keeps one
// command away. The door's CheckCarry (vfs.CarryDoor) refuses to carry an
// entry to a path where it would be less protected (G-6.1a): what is hidden
// stays hidden, what is denied stays denied or hidden, an unanswered ask
// stays that same ask or stronger, a read-only entry stays read-only, for
// every command; and what a pre_ops hook refuses at the old path it must
// refuse at the new one.

// protection is how the rules hold one path for one command.
type protection struct {
	level    protectionLevel
	rec      *Refusal // the deny or ask that refuses, for levels denied and asked
	readOnly bool
}

type protectionLevel uint8

const (
	unprotected protectionLevel = iota
	asked                       // an ask not answered for the command
	denied
	hidden
)

// protection resolves path for cmd as checkRules would. mine marks the
// door's own command, whose refused operands count too.
func (d *door) protection(path string, cmd *Command, mine bool) protection {
	if mine && d.scope != nil {
		for i := range d.scope.Refused {
			if r := &d.scope.Refused[i]; r.covers(path) {
				return protection{level: denied, rec: r.Refusal}
			}
		}
	}
	p := d.p
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := p.newWalk(path, cb[:0], nb[:0])
	dec := p.decide(&w, cmd, cmd == nil)
	pr := protection{readOnly: dec.readOnly()}
	if e := dec.entry; e != nil {
		switch e.verb {
		case VerbHide:
			if !p.traversable(&w, e) {
				pr.level = hidden
			}
		case VerbDeny:
			pr.level, pr.rec = denied, &e.refusal
		case VerbAsk:
			// An answered question covers this move, for whichever
			// command the carried entry will meet next.
			if !d.askGranted(e, path) {
				pr.level, pr.rec = asked, &e.refusal
			}
		}
	}
	return pr
}

// covers reports whether p protects at least as much as was.
func (p *protection) covers(was *protection) bool {
	switch {
	case p.level == hidden:
		return true
	case was.level == hidden:
		return false
	case was.level == denied && p.level != denied:
		return false
	case was.level == asked && p.level == asked && !sameRule(p.rec, was.rec):
		return false
	case was.level == asked && p.level < asked:
		return false
	case was.readOnly && !p.readOnly && p.level != denied:
		return false
	}
	return true
}

// sameRule reports whether two records come from one rule, so that an
// answer to one is an answer to the other.
func sameRule(a, b *Refusal) bool {
	return a.Policy == b.Policy && a.Rule == b.Rule && a.Reason == b.Reason
}

// err is what an op on path meets under p.
func (p *protection) err(path string) error {
	switch p.level {
	case hidden:
		return vfs.ErrHidden
	case denied, asked:
		rec := *p.rec
		rec.Path = path
		return &vfs.RefusedError{Reason: rec.Reason, Detail: &rec}
	}
	return syscall.EROFS
}

// CheckCarry implements vfs.CarryDoor: it refuses to move the entry at
// from.Path to to.Path when the rules, or a pre_ops hook, would hold it
// less tightly there, for this door's command or for any other command a
// command-scoped rule at the old path speaks to (a rule that keeps `cat`
// away from a directory must still keep it away once the directory moved).
func (d *door) CheckCarry(from, to vfs.Op) error {
	if err := d.carryFor(d.cmd, true, from.Path, to.Path); err != nil {
		return err
	}
	if d.cmd != nil {
		// Commands other than this one meet the path entries without a
		// command as well.
		if err := d.carryFor(nil, false, from.Path, to.Path); err != nil {
			return err
		}
	}
	if err := d.carryScoped(from.Path, to.Path); err != nil {
		return err
	}
	if !d.preOps {
		return nil
	}
	// A hook judges ops, not paths: ask it about the rename of this entry
	// at both ends, as if it were renamed alone, and about reading and
	// writing it there.
	if err := d.p.policies.checkOp(d, from); err != nil {
		return err
	}
	if err := d.p.policies.checkOp(d, to); err != nil {
		return err
	}
	for _, write := range [2]bool{false, true} {
		old := vfs.Op{Name: vfs.OpOpen, Path: from.Path, Write: write, Prefix: from.Prefix}
		err := d.p.policies.checkOp(d, old)
		if err == nil {
			continue
		}
		nu := vfs.Op{Name: vfs.OpOpen, Path: to.Path, Write: write, Prefix: to.Prefix}
		if d.p.policies.checkOp(d, nu) == nil {
			return err
		}
	}
	return nil
}

// carryFor compares the protection of from and to for cmd.
func (d *door) carryFor(cmd *Command, mine bool, from, to string) error {
	was := d.protection(from, cmd, mine)
	if was.level == unprotected && !was.readOnly {
		return nil
	}
	now := d.protection(to, cmd, mine)
	if !now.covers(&was) {
		return was.err(from)
	}
	return nil
}

// carryScoped compares both ends for every command a command-scoped entry
// reaching from speaks to, each stood for by an argv its pattern matches.
func (d *door) carryScoped(from, to string) error {
	p := d.p
	if !p.hasEntries {
		return nil
	}
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := p.newWalk(from, cb[:0], nb[:0])
	for depth, n := range w.nodes {
		for _, e := range n.entries {
			if e.commands == nil || !matchRest(e.pattern.rest, from, w.comps, depth) {
				continue
			}
			for _, pat := range e.commands {
				if err := d.carryFor(&Command{Argv: pat.example()}, false, from, to); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// example is an argv the pattern matches: its words, "*" standing for
// any one word.
func (c cmdPattern) example() []string {
	if len(c.tokens) == 0 {
		return []string{"*"}
	}
	return c.tokens
}

// CarryClear implements vfs.CarryDoor: nothing below either directory can
// be told apart by a rule (no entry reaches into them), by the command's
// refused operands or by a pre_ops hook, so a rename need not walk them.
func (d *door) CarryClear(from, to string) bool {
	if d.preOps || (d.scope != nil && len(d.scope.Refused) > 0) {
		return false
	}
	return d.p.subtreeClear(from) && d.p.subtreeClear(to)
}

// subtreeClear reports whether no path entry, of any verb or command,
// reaches dir or anything below it.
func (p *Profile) subtreeClear(dir string) bool {
	if !p.hasEntries {
		return true
	}
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := p.newWalk(dir, cb[:0], nb[:0])
	if len(w.nodes) == len(w.comps)+1 && len(w.nodes[len(w.nodes)-1].children) > 0 {
		return false // entries are anchored below dir
	}
	for depth, n := range w.nodes {
		for _, e := range n.entries {
			if matchRest(e.pattern.rest, dir, w.comps, depth) || reachesBelow(e.pattern.rest, dir, w.comps, depth) {
				return false
			}
		}
	}
	return true
}

var _ vfs.CarryDoor = (*door)(nil)
