package gate

import (
	"errors"
	"slices"
	"strings"
)

// wildWord is the command-pattern token that matches any one word (G-3.4).
const wildWord = "*"

// cmdPattern is a compiled command pattern: a prefix of the argv whose
// tokens are literal words or wildWord. Trailing wildWords are dropped at
// compile time because `git push` and `git push *` are the same rule, and a
// bare `*` becomes the empty pattern, which matches every command.
type cmdPattern struct {
	tokens []string
}

var errEmptyCommand = errors.New("empty command pattern")

func compileCmdPattern(pattern string) (cmdPattern, error) {
	tokens := strings.Fields(pattern)
	if len(tokens) == 0 {
		return cmdPattern{}, errEmptyCommand
	}
	for len(tokens) > 0 && tokens[len(tokens)-1] == wildWord {
		tokens = tokens[:len(tokens)-1]
	}
	return cmdPattern{tokens: tokens}, nil
}

// firstWord is the word the pattern installs (G-3.1); "" for a pattern whose
// first token is a wildcard, which installs every command.
func (c cmdPattern) firstWord() string {
	if len(c.tokens) == 0 || c.tokens[0] == wildWord {
		return ""
	}
	return c.tokens[0]
}

// matches reports whether argv starts with the pattern.
func (c cmdPattern) matches(argv []string) bool {
	if len(argv) < len(c.tokens) {
		return false
	}
	for i, tok := range c.tokens {
		if tok != wildWord && tok != argv[i] {
			return false
		}
	}
	return true
}

// anyMatches reports whether one of the patterns matches argv.
func anyMatches(patterns []cmdPattern, argv []string) bool {
	for _, p := range patterns {
		if p.matches(argv) {
			return true
		}
	}
	return false
}

// cmdRule is one compiled command-axis rule with the refusal it produces.
type cmdRule struct {
	pattern cmdPattern
	order   int // declaration order, so the first written rule wins
	refusal Refusal
	exempt  *exemptions // an ask rule's exceptions; nil otherwise
}

// cmdIndex is a trie over pattern tokens: a literal token follows its word,
// a `*` token follows the star edge, and a rule sits at the node where its
// pattern ends. Judging walks only the argv's own words (and star edges),
// so its cost does not grow with rules written for other commands.
type cmdIndex struct {
	root cmdNode
	size int
}

type cmdNode struct {
	first *cmdRule // the earliest rule ending here; later ones never win
	// rules are every rule ending here, in declaration order: an excepted
	// command passes the first and may still meet a later one.
	rules []*cmdRule
	next  map[string]*cmdNode
	star  *cmdNode
}

func (ix *cmdIndex) add(r *cmdRule) {
	r.order = ix.size
	ix.size++
	n := &ix.root
	for _, tok := range r.pattern.tokens {
		if tok == wildWord {
			if n.star == nil {
				n.star = &cmdNode{}
			}
			n = n.star
			continue
		}
		c := n.next[tok]
		if c == nil {
			if n.next == nil {
				n.next = make(map[string]*cmdNode)
			}
			c = &cmdNode{}
			n.next[tok] = c
		}
		n = c
	}
	if n.first == nil {
		n.first = r
	}
	n.rules = append(n.rules, r)
}

// mayMatch reports whether some rule could match a command named name; a
// false answer spares the caller collecting what the rules would need.
func (ix *cmdIndex) mayMatch(name string) bool {
	if ix.size == 0 {
		return false
	}
	r := &ix.root
	return r.first != nil || r.star != nil || r.next[name] != nil
}

// first returns the first rule, in declaration order, whose pattern matches
// argv, or nil.
func (ix *cmdIndex) first(argv []string) *cmdRule {
	if ix.size == 0 || len(argv) == 0 {
		return nil
	}
	return ix.root.earliest(argv, nil)
}

// earliest returns the earliest rule ending at n or below it along argv,
// or best when none is earlier.
func (n *cmdNode) earliest(argv []string, best *cmdRule) *cmdRule {
	if n.first != nil && (best == nil || n.first.order < best.order) {
		best = n.first
	}
	if len(argv) == 0 {
		return best
	}
	if c := n.next[argv[0]]; c != nil {
		best = c.earliest(argv[1:], best)
	}
	if n.star != nil {
		best = n.star.earliest(argv[1:], best)
	}
	return best
}

// allFor appends to out every rule matching cmd whose exceptions do not
// cover it, in declaration order.
func (ix *cmdIndex) allFor(cmd *Command, out []*cmdRule) []*cmdRule {
	if ix.size == 0 || len(cmd.Argv) == 0 {
		return out
	}
	start := len(out)
	out = ix.root.collectFor(cmd, cmd.Argv, out)
	if len(out)-start > 1 {
		slices.SortFunc(out[start:], func(a, b *cmdRule) int { return a.order - b.order })
	}
	return out
}

// collectFor appends the rules ending at n or below it along argv that
// cmd's exceptions do not cover. A rule's node is reached by one path at
// most, so none is appended twice.
func (n *cmdNode) collectFor(cmd *Command, argv []string, out []*cmdRule) []*cmdRule {
	for _, r := range n.rules {
		if !r.exempt.covers(cmd) {
			out = append(out, r)
		}
	}
	if len(argv) == 0 {
		return out
	}
	if c := n.next[argv[0]]; c != nil {
		out = c.collectFor(cmd, argv[1:], out)
	}
	if n.star != nil {
		out = n.star.collectFor(cmd, argv[1:], out)
	}
	return out
}
