package core

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/core/decisions"
	"gatehouse/core/gate"
)

// SessionCover is what an allow with scope session leaves standing for one
// rule an ask names: from then on, that session runs every command the
// rule covers without asking about that rule (G-9.5). A host shows it
// before the human says yes, so the answer covers what the human saw.
type SessionCover struct {
	// Rule is where the rule is written (FILE:LINE:COL); Reason is its
	// reason, as the ask showed it.
	Rule, Reason string
	// Known is false when the rule could not be found in the profile the
	// session runs under (the document changed); then only Rule, Reason and
	// Program say anything.
	Known bool
	// Commands are the rule's command patterns: each matches a prefix of
	// the argv, and a word `*` matches any one word. None: any command.
	Commands []string
	// Paths are the rule's path patterns (absolute globs, each reaching
	// its whole subtree). None: the rule judges commands by their words.
	Paths []string
	// Mount is set for a rule written under one mount: it covers commands
	// run in that mount or reaching a path inside it.
	Mount string
	// Except lists the exact commands the rule does not ask about anyway,
	// each "ARGV" or "ARGV (in CWD)".
	Except []string
	// Program names the policy program that asked, when one did: the grant
	// covers that program's questions with this reason.
	Program string
}

// SessionCovers says, for every rule rec names, what allowing rec for the
// session would cover. It reads the profile the ask's session runs under
// (a session the ledger knows, live here or not) and changes nothing.
func (ws *Workspace) SessionCovers(ctx context.Context, rec decisions.Record) []SessionCover {
	rules := rec.Rules
	if len(rules) == 0 {
		rules = []decisions.AskRule{{Reason: rec.Reason, Rule: rec.Rule, Policy: rec.Policy, Paths: rec.Paths}}
	}
	var spec gate.ProfileSpec
	prof, err := ws.profileOfSession(ctx, rec.SessionID)
	if err == nil {
		spec = prof.Spec()
	}
	out := make([]SessionCover, 0, len(rules))
	for _, r := range rules {
		c := SessionCover{Rule: r.Rule, Reason: r.Reason}
		var written []gate.Rule
		switch {
		case strings.HasPrefix(r.Policy, "profile:"):
			written = spec.Ask
		case strings.HasPrefix(r.Policy, "mount:"):
			c.Mount = strings.TrimPrefix(r.Policy, "mount:")
			written = spec.Mounts[c.Mount].Ask
		default:
			c.Program = r.Policy
		}
		if i := slices.IndexFunc(written, func(w gate.Rule) bool { return sameSource(w.Source, r.Rule) }); i >= 0 {
			w := written[i]
			c.Known = true
			c.Commands = slices.Clone(w.Commands)
			c.Paths = slices.Clone(w.Paths)
			for _, x := range w.Except {
				text := strings.Join(x.Argv, " ")
				if x.Cwd != "" {
					text += " (in " + x.Cwd + ")"
				}
				c.Except = append(c.Except, text)
			}
		}
		out = append(out, c)
	}
	return out
}

// sameSource reports whether two rule sources name the same place: a
// record from another process may spell the document's path differently,
// so the position decides when the file's base name agrees.
func sameSource(a, b string) bool {
	if a == b {
		return true
	}
	fa, pa, oka := splitSource(a)
	fb, pb, okb := splitSource(b)
	return oka && okb && pa == pb && filepath.Base(fa) == filepath.Base(fb)
}
