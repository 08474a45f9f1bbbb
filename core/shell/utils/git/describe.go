package git

import (
	"container/heap"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// describeName is a ref that can name a commit: an annotated tag (prio
// 2) wins over a lightweight one (1), which wins over a branch (0, with
// --all only); of two annotated tags the newer tagger date wins, of
// equals the first by ref name.
type describeName struct {
	path string // the ref's name without refs/tags/ (refs/ with --all)
	tag  string // an annotated tag's own name, as its object says
	prio int
	date int64
	// misnamed: an annotated tag whose ref is not its own name, which git
	// warns about (once) and never prints without the suffix.
	misnamed, checked bool
}

type describeOptions struct {
	tags, all, always, long, firstParent bool
	abbrev                               int // -1: the repository's default
	candidates                           int
	match, exclude                       []string
	dirty, broken                        string // the marks, "" when not asked
	revs                                 []string
}

// describeMaxTags is git's MAX_TAGS: the most candidates a walk keeps.
const describeMaxTags = 27

// parseDescribeArgs reads describe's options as git's parse-options does.
func parseDescribeArgs(args []string) (describeOptions, error) {
	o := describeOptions{abbrev: -1, candidates: 10}
	number := func(name, v string) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, usageErr("error: option `" + name + "' expects a numerical value\n")
		}
		return n, nil
	}
	var err error
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "--match", "--exclude", "--candidates":
			if !hasVal {
				if i+1 >= len(args) {
					return o, usageErr("error: option `" + name[2:] + "' requires a value\n")
				}
				i++
				val = args[i]
			}
		}
		switch {
		case a == "--":
			o.revs = append(o.revs, args[i+1:]...)
			i = len(args)
		case a == "--tags":
			o.tags = true
		case a == "--all":
			o.all = true
		case a == "--always":
			o.always = true
		case a == "--long":
			o.long = true
		case a == "--first-parent":
			o.firstParent = true
		case a == "--exact-match":
			o.candidates = 0
		case a == "--debug":
		case a == "--abbrev":
			o.abbrev = -1
		case name == "--abbrev" && hasVal:
			if o.abbrev, err = number("abbrev", val); err != nil {
				return o, err
			}
			if o.abbrev != 0 {
				o.abbrev = max(4, min(o.abbrev, 40))
			}
		case name == "--candidates":
			if o.candidates, err = number("candidates", val); err != nil {
				return o, err
			}
		case name == "--match":
			o.match = append(o.match, val)
		case name == "--exclude":
			o.exclude = append(o.exclude, val)
		case a == "--dirty":
			o.dirty = "-dirty"
		case name == "--dirty" && hasVal:
			o.dirty = val
		case a == "--broken":
			o.broken = "-broken"
		case name == "--broken" && hasVal:
			o.broken = val
		case a == "--contains":
			return o, &exitError{msg: "git: 'describe --contains' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "-") && a != "-":
			return o, unknownOption("describe", a)
		default:
			o.revs = append(o.revs, a)
		}
	}
	o.candidates = max(0, min(o.candidates, describeMaxTags))
	return o, nil
}

// runDescribe is git describe: the newest tag a commit descends from,
// how many commits it is past it and its abbreviated id, found as git
// 2.39 finds it (walking back by date, the first ten tags met are the
// candidates, the one fewest commits away wins, the first met on a tie).
func runDescribe(g *cmd, args []string) error {
	o, err := parseDescribeArgs(args)
	if err != nil {
		return err
	}
	if o.long && o.abbrev == 0 {
		return fatalf("options '--long' and '--abbrev=0' cannot be used together")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	names, err := r.describeNames(o)
	if err != nil {
		return err
	}
	if len(names) == 0 && !o.always {
		return fatalf("No names found, cannot describe anything.")
	}
	suffix := ""
	switch {
	case len(o.revs) == 0:
		o.revs = []string{"HEAD"}
		if o.dirty != "" || o.broken != "" {
			dirty, err := r.describeDirty()
			if err != nil {
				return err
			}
			if dirty {
				suffix = o.dirty
				if suffix == "" {
					suffix = "-dirty"
				}
			}
		}
	case o.dirty != "":
		return fatalf("option '--dirty' and commit-ishes cannot be used together")
	case o.broken != "":
		return fatalf("option '--broken' and commit-ishes cannot be used together")
	}
	for _, rev := range o.revs {
		h, err := r.resolve(rev)
		if err != nil {
			return fatalf("Not a valid object name %s", rev)
		}
		c, err := r.peel(h, "commit")
		if err != nil {
			if t, _, err := r.readObject(h); err == nil && t == plumbing.BlobObject {
				return &exitError{msg: "git: 'describe' of a blob is not supported here\n", code: 1}
			}
			return fatalf("%s is neither a commit nor blob", rev)
		}
		s, err := r.describeCommit(c, names, o)
		if err != nil {
			return err
		}
		fmt.Fprintln(g.out, s+suffix)
	}
	return nil
}

// describeDirty is describe --dirty's question: do the index or the
// worktree's tracked files differ from HEAD (git diff-index HEAD)?
// Hidden paths count for nothing, as status shows none of them.
func (r *repo) describeDirty() (bool, error) {
	st, _, err := r.collectStatus(false)
	if err != nil {
		return false, err
	}
	return len(st.staged) > 0 || len(st.unstaged) > 0 || len(st.unmerged) > 0, nil
}

// describeNames are the refs that may name commits, by the commit (or
// other object) they peel to.
func (r *repo) describeNames(o describeOptions) (map[plumbing.Hash]*describeName, error) {
	refs, err := r.refs()
	if err != nil {
		return nil, err
	}
	names := map[plumbing.Hash]*describeName{}
	for _, ref := range refs {
		full := ref.Name().String()
		toMatch, isTag := strings.CutPrefix(full, "refs/tags/")
		if !isTag {
			if !o.all {
				continue
			}
			var ok bool
			if toMatch, ok = strings.CutPrefix(full, "refs/heads/"); !ok {
				toMatch, ok = strings.CutPrefix(full, "refs/remotes/")
				if !ok && (len(o.match) > 0 || len(o.exclude) > 0) {
					continue
				}
			}
		}
		if !globsAccept(toMatch, o.match, o.exclude) {
			continue
		}
		n := &describeName{path: strings.TrimPrefix(full, "refs/tags/")}
		if o.all {
			n.path = strings.TrimPrefix(full, "refs/")
		}
		peeled := ref.Hash()
		if t, data, err := r.readObject(ref.Hash()); err == nil && t == plumbing.TagObject {
			tg := decodeTag(data)
			n.prio, n.tag, n.date = 2, tg.Name, tg.Tagger.When.Unix()
			if peeled, err = r.peel(ref.Hash(), ""); err != nil {
				continue
			}
		} else if isTag {
			n.prio = 1
		}
		if old, ok := names[peeled]; ok && (old.prio > n.prio || old.prio == n.prio && (n.prio < 2 || old.date >= n.date)) {
			continue
		}
		names[peeled] = n
	}
	return names, nil
}

// globsAccept is describe's --match and --exclude on a ref's name, with
// git's wildmatch ("*" crosses "/").
func globsAccept(name string, match, exclude []string) bool {
	for _, p := range exclude {
		if wildmatch(p, name) {
			return false
		}
	}
	if len(match) == 0 {
		return true
	}
	for _, p := range match {
		if wildmatch(p, name) {
			return true
		}
	}
	return false
}

// describeLabel is how a name is printed: an annotated tag by its own
// name ("tags/" before it with --all), any other ref by its path. A tag
// whose ref names it otherwise is warned about, the first time.
func (r *repo) describeLabel(n *describeName, all bool) string {
	if n.prio < 2 {
		return n.path
	}
	if !n.checked {
		n.checked = true
		ref := n.path
		if all && len(ref) >= 5 {
			ref = ref[5:]
		}
		if ref != n.tag {
			n.misnamed = true
			fmt.Fprintf(r.g.errw, "warning: tag '%s' is externally known as '%s'\n", n.path, n.tag)
		}
	}
	if all {
		return "tags/" + n.tag
	}
	return n.tag
}

// describeCandidate is one tag the walk met: how many commits it has
// counted not reachable from it, when it was met and its flag bit.
type describeCandidate struct {
	n     *describeName
	depth int
	order int
	flag  uint32
}

// describeWalk is the state of describe's walk back from one commit.
type describeWalk struct {
	r     *repo
	q     *commitQueue
	flags map[plumbing.Hash]uint32
	first bool
}

const describeSeen = 1

// push queues a commit's parents, each carrying the commit's flags, as
// git does (a parent already seen only gains the flags).
func (w *describeWalk) push(c *commit) error {
	for _, p := range c.Parents {
		if w.flags[p]&describeSeen == 0 {
			pc, err := w.r.readCommit(p)
			if err != nil {
				return err
			}
			heap.Push(w.q, pc)
		}
		w.flags[p] |= w.flags[c.Hash]
		if w.first {
			break
		}
	}
	return nil
}

// describeCommit names one commit, as git's describe_commit.
func (r *repo) describeCommit(h plumbing.Hash, names map[plumbing.Hash]*describeName, o describeOptions) (string, error) {
	abbrev := func() string {
		if o.abbrev > 0 {
			return h.String()[:o.abbrev]
		}
		return r.abbrev(h)
	}
	if n, ok := names[h]; ok && (o.tags || o.all || n.prio == 2) {
		s := r.describeLabel(n, o.all)
		if o.long || n.misnamed {
			s += "-0-g" + abbrev()
		}
		return s, nil
	}
	if o.candidates == 0 {
		return "", fatalf("no tag exactly matches '%s'", h)
	}
	w := &describeWalk{r: r, q: &commitQueue{}, flags: map[plumbing.Hash]uint32{h: describeSeen}, first: o.firstParent}
	c, err := r.readCommit(h)
	if err != nil {
		return "", err
	}
	heap.Push(w.q, c)
	var cands []describeCandidate
	var gaveUp *commit
	seen, annotated, unannotated := 0, 0, 0
	for w.q.Len() > 0 {
		if err := r.stopped(); err != nil {
			return "", err
		}
		c := heap.Pop(w.q).(*commit)
		seen++
		if n, ok := names[c.Hash]; ok {
			switch {
			case !o.tags && !o.all && n.prio < 2:
				unannotated++
			case len(cands) < o.candidates:
				t := describeCandidate{n: n, depth: seen - 1, order: len(cands) + 1, flag: 1 << (len(cands) + 1)}
				cands = append(cands, t)
				w.flags[c.Hash] |= t.flag
				if n.prio == 2 {
					annotated++
				}
			default:
				gaveUp = c
			}
		}
		if gaveUp != nil {
			break
		}
		for i := range cands {
			if w.flags[c.Hash]&cands[i].flag == 0 {
				cands[i].depth++
			}
		}
		if annotated > 0 && w.q.Len() == 0 && w.coveredByBest(c, cands) {
			break
		}
		if err := w.push(c); err != nil {
			return "", err
		}
	}
	if len(cands) == 0 {
		if o.always {
			return abbrev(), nil
		}
		if unannotated > 0 {
			return "", fatalf("No annotated tags can describe '%s'.\nHowever, there were unannotated tags: try --tags.", h)
		}
		return "", fatalf("No tags can describe '%s'.\nTry --always, or create some tags.", h)
	}
	best := 0
	for i, t := range cands {
		if t.depth < cands[best].depth || t.depth == cands[best].depth && t.order < cands[best].order {
			best = i
		}
	}
	if gaveUp != nil {
		heap.Push(w.q, gaveUp)
	}

	if err := w.finishDepth(&cands[best]); err != nil {
		return "", err
	}
	s := r.describeLabel(cands[best].n, o.all)
	if o.abbrev != 0 || cands[best].n.misnamed {
		s += fmt.Sprintf("-%d-g%s", cands[best].depth, abbrev())
	}
	return s, nil
}

// coveredByBest is git's stop when one path is left: the commit is
// reachable from every candidate of the least depth so far.
func (w *describeWalk) coveredByBest(c *commit, cands []describeCandidate) bool {
	bestDepth, within := -1, uint32(0)
	for _, t := range cands {
		switch {
		case bestDepth < 0 || t.depth < bestDepth:
			bestDepth, within = t.depth, t.flag
		case t.depth == bestDepth:
			within |= t.flag
		}
	}
	return w.flags[c.Hash]&within == within
}

// finishDepth walks on until only commits the best candidate reaches
// are left, counting those it does not: git's finish_depth_computation
// (without --first-parent's limit, as git).
func (w *describeWalk) finishDepth(best *describeCandidate) error {
	w.first = false
	for w.q.Len() > 0 {
		if err := w.r.stopped(); err != nil {
			return err
		}
		c := heap.Pop(w.q).(*commit)
		if w.flags[c.Hash]&best.flag != 0 {
			rest := true
			for _, it := range w.q.items {
				if w.flags[it.c.Hash]&best.flag == 0 {
					rest = false
					break
				}
			}
			if rest {
				break
			}
		} else {
			best.depth++
		}
		if err := w.push(c); err != nil {
			return err
		}
	}
	return nil
}
