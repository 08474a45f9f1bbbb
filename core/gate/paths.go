package gate

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Verb is what a path entry does to the subtree it reaches (G-4.1).
type Verb string

// Path entry verbs. VerbNone means no entry reached the path.
const (
	VerbNone Verb = ""
	VerbHide Verb = "hide"
	VerbDeny Verb = "deny"
	VerbAsk  Verb = "ask"
	VerbShow Verb = "show"
)

// strength orders verbs for ties at the same anchor depth (G-4.4):
// hide > deny > ask > show.
func (v Verb) strength() int {
	switch v {
	case VerbHide:
		return 4
	case VerbDeny:
		return 3
	case VerbAsk:
		return 2
	case VerbShow:
		return 1
	}
	return 0
}

// Visibility is how a path appears to the session.
type Visibility string

// Visibilities of a path (G-4.5, G-4.7).
const (
	// PathVisible paths exist for the session (they may still be denied).
	PathVisible Visibility = "visible"
	// PathHidden paths answer ENOENT through every door.
	PathHidden Visibility = "hidden"
	// PathTraversable paths are hidden ancestors of a shown path: they can
	// be stat'ed and listed, and list only shown or traversable children.
	PathTraversable Visibility = "traversable"
)

// PathInfo explains how the op door sees one path (no command in view:
// command-scoped rules are judged by Judge, not here).
type PathInfo struct {
	Path       string
	Visibility Visibility
	ReadOnly   bool   // writes fail with EROFS
	Mount      string // prefix of the mount holding the path, "" outside every mount
	// Verb, Pattern, Reason, Rule and Policy describe the deciding entry;
	// Verb is VerbNone when no entry reaches the path.
	Verb    Verb
	Pattern string
	Reason  string
	Rule    string
	Policy  string
}

type compKind uint8

const (
	compName       compKind = iota // one component, literal or glob
	compDoubleStar                 // `**`: zero or more components
)

type compPattern struct {
	kind compKind
	glob nameGlob
}

// pathPattern is a compiled absolute path glob. anchor holds the literal
// components before the first wildcard (their count is the anchor depth,
// G-4.3); rest holds the components from the first wildcard on.
type pathPattern struct {
	text   string
	anchor []string
	rest   []compPattern
}

var errRelativePattern = errors.New("path pattern must be absolute")

// compilePathPattern parses an absolute glob, cleaning repeated slashes and
// "." components.
func compilePathPattern(pattern string) (pathPattern, error) {
	if !strings.HasPrefix(pattern, "/") {
		return pathPattern{}, errRelativePattern
	}
	pp := pathPattern{}
	var clean []string
	for _, comp := range strings.Split(pattern, "/") {
		switch {
		case comp == "" || comp == ".":
			continue
		case comp == "..":
			return pathPattern{}, errors.New(`".." is not allowed in a path pattern`)
		case comp == "**":
			pp.rest = append(pp.rest, compPattern{kind: compDoubleStar})
		case strings.Contains(comp, "**"):
			return pathPattern{}, errors.New("`**` must be a whole path component")
		default:
			g, err := compileNameGlob(comp)
			if err != nil {
				return pathPattern{}, err
			}
			if g.isLit && len(pp.rest) == 0 {
				pp.anchor = append(pp.anchor, g.literal)
			} else {
				pp.rest = append(pp.rest, compPattern{kind: compName, glob: g})
			}
		}
		clean = append(clean, comp)
	}
	pp.text = "/" + strings.Join(clean, "/")
	return pp, nil
}

// span is one component of a path, as byte offsets into the path string, so
// splitting a path allocates nothing.
type span struct{ start, end int }

// splitPath appends the components of an absolute cleaned path to buf.
func splitPath(p string, buf []span) []span {
	for i := 0; i < len(p); {
		if p[i] == '/' {
			i++
			continue
		}
		j := i
		for j < len(p) && p[j] != '/' {
			j++
		}
		buf = append(buf, span{i, j})
		i = j
	}
	return buf
}

// matchRest reports whether rest matches comps[ci:ci+k] for some k, that is,
// whether the pattern matches the path or one of its ancestors (reach, G-4.2).
func matchRest(rest []compPattern, p string, comps []span, ci int) bool {
	for pi := range rest {
		c := &rest[pi]
		if c.kind == compDoubleStar {
			if pi+1 == len(rest) {
				return true
			}
			for k := ci; k <= len(comps); k++ {
				if matchRest(rest[pi+1:], p, comps, k) {
					return true
				}
			}
			return false
		}
		if ci >= len(comps) || !c.glob.match(p[comps[ci].start:comps[ci].end]) {
			return false
		}
		ci++
	}
	return true
}

// reachesBelow reports whether rest can match a path strictly below the
// path whose components are comps (and not the path or an ancestor itself).
func reachesBelow(rest []compPattern, p string, comps []span, ci int) bool {
	for pi := range rest {
		if ci == len(comps) {
			return true
		}
		c := &rest[pi]
		if c.kind == compDoubleStar {
			for k := ci; k <= len(comps); k++ {
				if reachesBelow(rest[pi+1:], p, comps, k) {
					return true
				}
			}
			return false
		}
		if !c.glob.match(p[comps[ci].start:comps[ci].end]) {
			return false
		}
		ci++
	}
	return false
}

// pathEntry is one compiled hide, show, deny or ask entry (G-4.1).
type pathEntry struct {
	verb     Verb
	pattern  pathPattern
	commands []cmdPattern // nil: the entry counts for every command and at the op door
	readOnly bool         // show ro
	refusal  Refusal      // deny/ask record template (scope operand)
	reason   string
	rule     string
	policy   string
	order    int
	exempt   *exemptions // an ask entry's exceptions; nil otherwise
}

func (e *pathEntry) depth() int { return len(e.pattern.anchor) }

// pathNode is one node of the anchor trie: entries are stored at the node
// of their anchor, so the entries that can reach a path are exactly those on
// the nodes along it, and the deepest anchor is found walking back up.
type pathNode struct {
	children map[string]*pathNode
	entries  []*pathEntry // strongest verb first, then declaration order
	mount    *mountInfo   // a mount whose prefix is this node
	// showBelow: a show entry is anchored strictly below this node, which
	// makes a hidden path here traversable (G-4.7).
	showBelow bool
}

func (n *pathNode) child(name string) *pathNode {
	if c, ok := n.children[name]; ok {
		return c
	}
	if n.children == nil {
		n.children = make(map[string]*pathNode)
	}
	c := &pathNode{}
	n.children[name] = c
	return c
}

// nodeFor returns (creating) the node for a list of literal components.
func (n *pathNode) nodeFor(comps []string) *pathNode {
	for _, c := range comps {
		n = n.child(c)
	}
	return n
}

// finish sorts entries for tie-breaking and sets showBelow; it reports
// whether a show entry is anchored at this node or below.
func (n *pathNode) finish() bool {
	sortEntries(n.entries)
	for _, c := range n.children {
		if c.finish() {
			n.showBelow = true
		}
	}
	for _, e := range n.entries {
		if e.verb == VerbShow {
			return true
		}
	}
	return n.showBelow
}

// sortEntries puts the strongest verb first, then the first written, so the
// first reaching entry at a depth is the winner.
func sortEntries(es []*pathEntry) {
	slices.SortFunc(es, func(a, b *pathEntry) int {
		if sa, sb := a.verb.strength(), b.verb.strength(); sa != sb {
			return sb - sa
		}
		return a.order - b.order
	})
}

// stackDepth is how many path components are split without allocating.
const stackDepth = 32

// walk is one path split into components with the trie nodes along it:
// nodes[d] is the node at depth d (nodes[0] is the root).
type walk struct {
	path  string
	comps []span
	nodes []*pathNode
}

func (p *Profile) newWalk(path string, comps []span, nodes []*pathNode) walk {
	comps = splitPath(path, comps)
	n := p.root
	nodes = append(nodes, n)
	for _, c := range comps {
		n = n.children[path[c.start:c.end]]
		if n == nil {
			break
		}
		nodes = append(nodes, n)
	}
	return walk{path: path, comps: comps, nodes: nodes}
}

// mount returns the mount holding the walked path (the deepest mount node).
func (w *walk) mount() *mountInfo {
	for d := len(w.nodes) - 1; d >= 0; d-- {
		if m := w.nodes[d].mount; m != nil {
			return m
		}
	}
	return nil
}

// decision is the outcome of path resolution (G-4.4).
type decision struct {
	entry  *pathEntry // the deepest reaching entry, nil when none reaches
	mount  *mountInfo
	showRO bool // the deepest reaching show states ro
}

func (d *decision) readOnly() bool {
	return d.showRO || (d.mount != nil && d.mount.readOnly)
}

// decide resolves the walked path. cmd selects command-scoped entries;
// atDoor leaves them out (a door or a question without a command). An ask
// entry whose exceptions cover cmd does not reach the path for it, at the
// door too, so resolution falls to the next entry. A command-scoped entry
// deeper than a hide still leaves the path hidden.
func (p *Profile) decide(w *walk, cmd *Command, atDoor bool) decision {
	var argv []string
	if cmd != nil {
		argv = cmd.Argv
	}
	dec := decision{mount: w.mount()}
	showFound := !p.hasROShow // without an ro show, the mode never needs a show
	for d := len(w.nodes) - 1; d >= 0; d-- {
		for _, e := range w.nodes[d].entries {
			if dec.entry != nil && (showFound || e.verb != VerbShow) {
				continue
			}
			if e.commands != nil && (atDoor || !anyMatches(e.commands, argv)) {
				continue
			}
			if e.exempt != nil && e.exempt.covers(cmd) {
				continue
			}
			if !matchRest(e.pattern.rest, w.path, w.comps, d) {
				continue
			}
			if dec.entry == nil {
				dec.entry = e
			}
			if e.verb == VerbShow && !showFound {
				showFound = true
				dec.showRO = e.readOnly
			}
		}
		if dec.entry != nil && showFound {
			break
		}
	}
	if e := dec.entry; e != nil && e.commands != nil {
		// A command-scoped entry refuses what the command may do with a
		// path; it never brings a hidden path back into view.
		if door := p.decide(w, cmd, true); door.entry != nil && door.entry.verb == VerbHide && !p.traversable(w, door.entry) {
			return door
		}
	}
	return dec
}

// unhiddenEntry is the deny or ask that would speak for the walked path
// were no hide entry written: what a name that a hide keeps out of view
// would meet if it were simply missing (G-4.5). nil when none would.
func (p *Profile) unhiddenEntry(w *walk, cmd *Command, atDoor bool) *pathEntry {
	var argv []string
	if cmd != nil {
		argv = cmd.Argv
	}
	for d := len(w.nodes) - 1; d >= 0; d-- {
		for _, e := range w.nodes[d].entries {
			switch {
			case e.verb == VerbHide,
				e.commands != nil && (atDoor || !anyMatches(e.commands, argv)),
				e.exempt != nil && e.exempt.covers(cmd),
				!matchRest(e.pattern.rest, w.path, w.comps, d):
				continue
			case e.verb == VerbDeny, e.verb == VerbAsk:
				return e
			}
			return nil // a deeper show speaks
		}
	}
	return nil
}

// traversable reports whether a path that resolved hidden is the ancestor of
// a shown path whose show outranks the hide (G-4.7).
func (p *Profile) traversable(w *walk, hide *pathEntry) bool {
	if !p.hasShow {
		return false
	}
	for d := hide.depth() + 1; d < len(w.nodes); d++ {
		for _, e := range w.nodes[d].entries {
			if e.verb == VerbShow && reachesBelow(e.pattern.rest, w.path, w.comps, d) {
				return true
			}
		}
	}
	// A show anchored strictly below the path names only its descendants,
	// and its anchor is deeper than the hide's, which reaches the path.
	return len(w.nodes) == len(w.comps)+1 && w.nodes[len(w.nodes)-1].showBelow
}

// visibility classifies a decision for the door.
func (p *Profile) visibility(w *walk, dec *decision) Visibility {
	if dec.entry == nil || dec.entry.verb != VerbHide {
		return PathVisible
	}
	if p.traversable(w, dec.entry) {
		return PathTraversable
	}
	return PathHidden
}

// PathInfo resolves one path as the op door sees it (G-4.2..G-4.7). A
// relative path is taken from the root.
func (p *Profile) PathInfo(name string) PathInfo {
	name = cleanAbs(name)
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := p.newWalk(name, cb[:0], nb[:0])
	dec := p.decide(&w, nil, true)
	info := PathInfo{
		Path:       name,
		Visibility: p.visibility(&w, &dec),
		ReadOnly:   dec.readOnly(),
	}
	if dec.mount != nil {
		info.Mount = dec.mount.prefix
	}
	if e := dec.entry; e != nil {
		info.Verb, info.Pattern = e.verb, e.pattern.text
		info.Reason, info.Rule, info.Policy = e.reason, e.rule, e.policy
	}
	return info
}

func cleanAbs(name string) string {
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	return path.Clean(name)
}

// joinMountPattern anchors a mount-level pattern to its mount (G-1.1): a
// relative pattern is joined to the prefix; an absolute one must lie inside
// the mount.
func joinMountPattern(prefix, pattern string) (string, error) {
	if strings.HasPrefix(pattern, "/") {
		if !within(path.Clean(pattern), prefix) {
			return "", fmt.Errorf("pattern %q is outside mount %s", pattern, prefix)
		}
		return pattern, nil
	}
	if prefix == "/" {
		return "/" + pattern, nil
	}
	return prefix + "/" + pattern, nil
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || (len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir)
}
