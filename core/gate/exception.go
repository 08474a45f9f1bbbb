package gate

import (
	"path"
	"slices"
	"sync/atomic"
)

// Exception is one exact command an ask rule no longer asks about: the
// amendment a host writes when it answers "allow, and add a rule" (see
// docs/agents.md). It is deliberately narrower than a command pattern: the
// argv must equal Argv word for word, with no trailing words (a pattern
// `rm notes.txt` would also cover `rm notes.txt -rf /`), and when Cwd is
// set the command must run in that directory, so a relative operand names
// the same file it named when the human said yes.
type Exception struct {
	Argv []string
	Cwd  string // "" = any directory; else absolute and cleaned
	// Paths, when not nil, are the only paths the command may name: every
	// operand it is judged with (its redirections' targets included), and
	// where each leads once its links are resolved, must be one of them.
	// They are the paths the human was shown, so the exception is no
	// wider than the ask (`echo x > frozen/restore.md` does not cover
	// `echo x > frozen/other.md`), and a host answer opens them at the op
	// door for the line, as an allow does (Verdict.Waived). nil (an
	// exception written before paths were kept) checks no path.
	Paths  []string
	Source string // FILE:LINE:COL of the YAML node, or the Go call site
}

// Covers reports whether cmd is exactly the excepted command. A partial
// argv (preflight's literal prefix of a command that expands at run time)
// is never covered: the execution gate judges the real words.
func (x Exception) Covers(cmd *Command) bool {
	if cmd == nil || cmd.Partial || !slices.Equal(x.Argv, cmd.Argv) {
		return false
	}
	if x.Cwd != "" && x.Cwd != path.Clean(cmd.Cwd) {
		return false
	}
	if x.Paths == nil {
		return true
	}
	for _, op := range cmd.Operands {
		if !slices.Contains(x.Paths, op.Path) || (op.Real != "" && !slices.Contains(x.Paths, op.Real)) {
			return false
		}
	}
	return true
}

// exemptions are the exceptions of one written ask rule, shared by every
// pattern and path the rule compiles into. Waive adds to them while
// sessions judge, so the list sits behind an atomic pointer and is copied
// on write: judging never takes a lock.
type exemptions struct {
	list atomic.Pointer[[]Exception]
	// policy and rule name the ask rule waived, for the grants an
	// exception's paths leave (Verdict.Waived).
	policy, rule string
}

func newExemptions(written []Exception, policy, rule string) *exemptions {
	ex := &exemptions{policy: policy, rule: rule}
	if len(written) > 0 {
		list := slices.Clone(written)
		ex.list.Store(&list)
	}
	return ex
}

// covers reports whether one of the exceptions covers cmd.
func (ex *exemptions) covers(cmd *Command) bool {
	if ex == nil || cmd == nil {
		return false
	}
	list := ex.list.Load()
	if list == nil {
		return false
	}
	for i := range *list {
		if (*list)[i].Covers(cmd) {
			return true
		}
	}
	return false
}

func (ex *exemptions) add(x Exception) {
	for {
		old := ex.list.Load()
		var next []Exception
		if old != nil {
			next = slices.Clone(*old)
		}
		next = append(next, x)
		if ex.list.CompareAndSwap(old, &next) {
			return
		}
	}
}

// Waive adds an exception to the ask rules written at source (a Rule's
// Source), in this compiled profile and so for every session bound to it,
// at once. It reports whether an ask rule with that source exists. This is
// how an amendment written to the document takes effect without a restart.
func (p *Profile) Waive(source string, x Exception) bool {
	found := p.exempt[source]
	for _, ex := range found {
		ex.add(x)
	}
	return len(found) > 0
}

// waived returns, for every exception with paths that covers cmd, a grant
// of its rule at each of those paths: what an allow of the ask would have
// opened at the op door for the line (the targets of the command's
// redirections, which the interpreter opens outside the command).
func (p *Profile) waived(cmd *Command) []PathGrant {
	var grants []PathGrant
	for _, list := range p.exempt {
		for _, ex := range list {
			xs := ex.list.Load()
			if xs == nil {
				continue
			}
			for i := range *xs {
				if x := &(*xs)[i]; x.Paths != nil && x.Covers(cmd) {
					for _, pth := range x.Paths {
						grants = append(grants, PathGrant{Policy: ex.policy, Rule: ex.rule, Path: pth})
					}
				}
			}
		}
	}
	return grants
}
