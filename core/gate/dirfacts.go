package gate

import (
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
)

// dirFacts is what path resolution knows of one directory's children before
// it sees their names (G-14: a find, a listing or a grep over many files
// resolves thousands of siblings in a row). When no entry reaches the
// directory itself, a child is reached only by an entry anchored on the
// child's own trie node or below it, or by a candidate: an entry whose
// pattern could still match a path below the directory. A child whose name
// has no trie node and matches no candidate is reached by nothing, and its
// decision is just the directory's mount. Anything else is resolved the slow
// way, so this is an answer cache, never a second set of rules.
type dirFacts struct {
	dir string
	// plain: every child is reached by nothing unless its name is one of
	// lits (nothing reaches dir, its trie node has no children, and each
	// candidate is a literal name). The hot path then compares names only,
	// in this struct's first cache line (G-14: a grep touches little else
	// between its opens, and pointer chasing cost more than the tests).
	plain bool
	nLits int
	lits  [2]string
	mount *mountInfo

	comps []span    // dir's components
	node  *pathNode // dir's trie node, nil when the trie stops above dir
	// reached: an entry reaches dir or an ancestor, so it reaches every
	// child too and each child is resolved the slow way.
	reached bool
	cands   []dirCandidate
	// shared: no entry met on the way depends on the command (a
	// command-scoped entry outside the door, or an ask with exceptions,
	// which an amendment can extend at any time), so every command may use
	// these facts.
	shared bool
}

type dirCandidate struct {
	e     *pathEntry
	depth int
	// last is the one component left for a child to match, when the
	// pattern has no "**" (the common case: one glob test per child).
	last *nameGlob
}

// candidate classifies an entry anchored at depth that does not reach dir
// but reachesBelow it: ok is false when it can only reach grandchildren.
func candidate(e *pathEntry, depth, dirComps int) (c dirCandidate, ok bool) {
	c = dirCandidate{e: e, depth: depth}
	rest := e.pattern.rest
	for i := range rest {
		if rest[i].kind == compDoubleStar {
			return c, true
		}
	}
	// Without "**" each component matches one: the dir's components below
	// the anchor used up the first ones, and a child needs exactly one more.
	k := dirComps - depth
	if len(rest)-k != 1 {
		return c, false
	}
	c.last = &rest[k].glob
	return c, true
}

// newDirFacts resolves dir for its children, with the entries that count
// for cmd (atDoor as in decide).
func (p *Profile) newDirFacts(dir string, cmd *Command, atDoor bool) *dirFacts {
	var argv []string
	if cmd != nil {
		argv = cmd.Argv
	}
	var cb [stackDepth]span
	var nb [stackDepth + 1]*pathNode
	w := p.newWalk(dir, cb[:0], nb[:0])
	f := &dirFacts{dir: dir, comps: slices.Clone(w.comps), mount: w.mount(), shared: true}
	if len(w.nodes) == len(w.comps)+1 {
		f.node = w.nodes[len(w.nodes)-1]
	}
	for d := len(w.nodes) - 1; d >= 0; d-- {
		for _, e := range w.nodes[d].entries {
			if (e.commands != nil && !atDoor) || e.exempt != nil {
				f.shared = false
			}
			if e.commands != nil && (atDoor || !anyMatches(e.commands, argv)) {
				continue
			}
			if e.exempt != nil && e.exempt.covers(cmd) {
				continue
			}
			switch {
			case matchRest(e.pattern.rest, dir, w.comps, d):
				f.reached = true
				return f
			case reachesBelow(e.pattern.rest, dir, w.comps, d):
				if c, ok := candidate(e, d, len(w.comps)); ok {
					f.cands = append(f.cands, c)
				}
			}
		}
	}
	f.plain = !f.reached && (f.node == nil || len(f.node.children) == 0)
	for _, c := range f.cands {
		if c.last == nil || !c.last.isLit || f.nLits == len(f.lits) {
			f.plain = false
			break
		}
		f.lits[f.nLits] = c.last.literal
		f.nLits++
	}
	return f
}

// childName returns the name of p when p lies directly inside f.dir.
func (f *dirFacts) childName(p string) (string, bool) {
	d := f.dir
	if d == "/" {
		d = ""
	}
	if len(p) <= len(d)+1 || p[len(d)] != '/' || p[:len(d)] != d {
		return "", false
	}
	name := p[len(d)+1:]
	for i := 0; i < len(name); i++ { // names are short: a loop beats a call
		if name[i] == '/' {
			return "", false
		}
	}
	return name, true
}

// sibling answers for path when it lies directly inside f.dir (ok): clear
// reports that nothing reaches it; false means "resolve it the slow way",
// not "something reaches".
func (f *dirFacts) sibling(path string) (clear, ok bool) {
	name, ok := f.childName(path)
	if !ok {
		return false, false
	}
	return f.clearEntry(name, path), true
}

// clearEntry is sibling for the entry name; child is its path, or ""
// to have it joined only if a "**" pattern needs it.
func (f *dirFacts) clearEntry(name, child string) bool {
	if f.plain {
		return (f.nLits < 1 || name != f.lits[0]) && (f.nLits < 2 || name != f.lits[1])
	}
	if f.reached {
		return false
	}
	if f.node != nil && f.node.children[name] != nil {
		return false
	}
	for i := range f.cands {
		c := &f.cands[i]
		if c.last != nil {
			if c.last.match(name) {
				return false
			}
			continue
		}
		if f.deepMatch(c, name, child) {
			return false
		}
	}
	return true
}

// deepMatch matches a "**" candidate against the child; it is apart from
// clearEntry so that only such patterns pay for splitting the path.
func (f *dirFacts) deepMatch(c *dirCandidate, name, child string) bool {
	if child == "" {
		child = joinDir(f.dir, name)
	}
	var cb [stackDepth + 1]span
	comps := append(append(cb[:0], f.comps...), span{len(child) - len(name), len(child)})
	return matchRest(c.e.pattern.rest, child, comps, c.depth)
}

// mayHide reports whether some entry of f.dir could be hidden: only a hide
// entry can hide, and one that reaches a child is a candidate, reaches the
// directory itself, or sits on a trie node below it.
func (f *dirFacts) mayHide() bool {
	if f.reached || (f.node != nil && len(f.node.children) > 0) {
		return true
	}
	for _, c := range f.cands {
		if c.e.verb == VerbHide {
			return true
		}
	}
	return false
}

func joinDir(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// splitChild cuts an absolute, cleaned path into its directory and reports
// whether it has one (the root has none).
func splitChild(p string) (dir string, ok bool) {
	if len(p) == 0 || p[0] != '/' {
		return "", false
	}
	i := len(p) - 1
	for i > 0 && p[i] != '/' {
		i--
	}
	switch {
	case len(p) <= 1 || p[i] != '/' || i == len(p)-1:
		return "", false // the root, a relative path, or a trailing slash
	case i == 0:
		return "/", true
	}
	return p[:i], true
}

// dirMemo keeps the facts of the directory seen last. A directory's facts
// are built on its second op in a row, so a command whose every op lands in
// a new directory pays one hash per op, not a build.
type dirMemo struct {
	facts *dirFacts
	seen  uint64 // hash of the last directory without facts
}

var dirSeed = maphash.MakeSeed()

// useDirFacts switches the sibling cache; tests turn it off to get the
// slow path's answers to compare with.
var useDirFacts = true

// clear reports whether path may skip resolution: nothing reaches it, and
// mount is the mount holding it.
func (m *dirMemo) clear(p *Profile, path string, cmd *Command, atDoor bool) (mount *mountInfo, ok bool) {
	if !useDirFacts {
		return nil, false
	}
	if f := m.facts; f != nil {
		if clear, ok := f.sibling(path); ok {
			return f.mount, clear
		}
	}
	return m.moved(p, path, cmd, atDoor)
}

// moved is clear for a path outside the remembered directory: it notes the
// new directory, and builds (or fetches) its facts the second time in a row.
func (m *dirMemo) moved(p *Profile, path string, cmd *Command, atDoor bool) (*mountInfo, bool) {
	dir, ok := splitChild(path)
	if !ok {
		return nil, false
	}
	h := maphash.String(dirSeed, dir)
	if m.seen != h {
		m.seen = h
		return nil, false
	}
	f := p.dirFactsOf(dir, cmd, atDoor)
	m.facts = f
	if clear, ok := f.sibling(path); ok && clear {
		return f.mount, true
	}
	return nil, false
}

// sharedDirFacts keeps a profile's shared directory facts, so that a
// directory's facts are built once, not once per command: xargs runs grep
// every ~4,000 files, and each grep walks the same directories again.
type sharedDirFacts struct {
	m sync.Map // dirKey -> *dirFacts
	n atomic.Int64
}

type dirKey struct {
	dir    string
	atDoor bool
}

// maxSharedDirs bounds the shared facts (a few hundred bytes each); past
// it, facts are built per command as before.
const maxSharedDirs = 16384

// dirFactsOf returns dir's facts from the profile's shared ones, or builds
// them, sharing them when no command can change them.
func (p *Profile) dirFactsOf(dir string, cmd *Command, atDoor bool) *dirFacts {
	key := dirKey{dir, atDoor}
	if f, ok := p.dirs.m.Load(key); ok {
		return f.(*dirFacts)
	}
	f := p.newDirFacts(dir, cmd, atDoor)
	if f.shared && p.dirs.n.Load() < maxSharedDirs {
		if _, loaded := p.dirs.m.LoadOrStore(key, f); !loaded {
			p.dirs.n.Add(1)
		}
	}
	return f
}

// dirCache is a dirMemo a door's concurrent ops may share: each op works on
// a copy and publishes what it learnt.
type dirCache struct {
	facts atomic.Pointer[dirFacts]
	seen  atomic.Uint64
}

func (c *dirCache) clear(p *Profile, path string, cmd *Command, atDoor bool) (*mountInfo, bool) {
	if !useDirFacts {
		return nil, false
	}
	if f := c.facts.Load(); f != nil {
		if clear, ok := f.sibling(path); ok {
			return f.mount, clear
		}
	}
	m := dirMemo{facts: c.facts.Load(), seen: c.seen.Load()}
	mount, ok := m.moved(p, path, cmd, atDoor)
	if m.facts != nil && m.facts != c.facts.Load() {
		c.facts.Store(m.facts)
	}
	c.seen.Store(m.seen)
	return mount, ok
}
