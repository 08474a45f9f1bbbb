package git

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

func runShow(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	var lo []string
	var names []string
	noPatch := false
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash:
			lo = append(lo, "--", a)
		case a == "--":
			dashdash = true
		case a == "-s" || a == "--no-patch" || a == "--quiet":
			noPatch = true
		case strings.HasPrefix(a, "-"):
			lo = append(lo, a)
		default:
			names = append(names, a)
		}
	}
	o, err := parseLogArgs(lo)
	if err != nil {
		return err
	}
	if !noPatch && !o.stat && !o.nameOnly && !o.nameStat {
		o.patch = true
	}
	if noPatch {
		o.patch, o.stat, o.nameOnly, o.nameStat = false, false, false, false
	}
	if len(names) == 0 {
		names = []string{"HEAD"}
	}
	if o.decorate {
		o.decorations = r.decorations()
	}
	r.date = o.date
	for i, name := range names {
		if i > 0 {
			g.out.WriteString("\n")
		}
		if err := r.showOne(name, o); err != nil {
			return err
		}
	}
	return nil
}

// showOne shows one object: a commit with its patch, a tag then what it
// tags, a tree's names, or a blob's content.
func (r *repo) showOne(name string, o logOptions) error {
	obj, err := r.lookupObject(name)
	if err != nil {
		return err
	}
	switch obj.typ {
	case plumbing.BlobObject:
		r.g.out.Write(obj.data)
	case plumbing.TreeObject:
		lines, err := r.treeLines(obj, true)
		if err != nil {
			return err
		}
		fmt.Fprintf(r.g.out, "tree %s\n\n", name)
		for _, ln := range lines {
			fmt.Fprintln(r.g.out, ln)
		}
	case plumbing.TagObject:
		t := decodeTag(obj.data)
		fmt.Fprintf(r.g.out, "tag %s\nTagger: %s <%s>\nDate:   %s\n\n%s\n\n", t.Name, t.Tagger.Name, t.Tagger.Email, r.fmtDate(t.Tagger.When), strings.TrimRight(t.Message, "\n"))
		return r.showOne(t.Object.String(), o)
	case plumbing.CommitObject:
		c, err := decodeCommit(obj.hash, obj.data)
		if err != nil {
			return err
		}
		return r.showCommit(c, o)
	}
	return nil
}

func (r *repo) showCommit(c *commit, o logOptions) error {
	r.printCommit(c, o)
	if len(c.Parents) > 1 {
		// git shows a merge as its dense combined diff, empty where
		// the merge took each change from one side; its diffstat is
		// against the first parent.
		if !o.stat {
			return nil
		}
		o.patch, o.nameOnly, o.nameStat = false, false, false
	}
	if !(o.patch || o.stat || o.nameOnly || o.nameStat) {
		return nil
	}
	from := plumbing.ZeroHash
	if len(c.Parents) >= 1 {
		pc, err := r.readCommit(c.Parents[0])
		if err != nil {
			return err
		}
		from = pc.Tree
	}
	changes, err := r.treeChanges(from, c.Tree)
	if err != nil {
		return err
	}
	if len(o.paths) > 0 {
		specs, err := r.pathspecs(o.paths)
		if err != nil {
			return err
		}
		changes = filterChanges(changes, specs)
	}
	if len(changes) == 0 {
		return nil
	}
	return r.printChanges(changes, o, o.oneline)
}

func runLsFiles(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	stage, modified, deleted, others, cached, excludeStd := false, false, false, false, false, false
	var paths []string
	for _, a := range args {
		switch a {
		case "-s", "--stage":
			stage = true
		case "-m", "--modified":
			modified = true
		case "-d", "--deleted":
			deleted = true
		case "-o", "--others":
			others = true
		case "-c", "--cached":
			cached = true
		case "--exclude-standard":
			excludeStd = true
		case "--":
		default:
			if strings.HasPrefix(a, "-") {
				return unknownOption("ls-files", a)
			}
			paths = append(paths, a)
		}
	}
	if !modified && !deleted && !others {
		cached = true
	}
	specs, err := r.pathspecs(paths)
	if err != nil {
		return err
	}
	if len(specs) == 0 {
		if sub, _ := r.workPath("."); sub != "" {
			specs = []pathspec{{path: sub}}
		}
	}
	idx, err := r.loadIndex()
	if err != nil {
		return err
	}
	s := newScanner(r, idx)
	s.allFiles = true
	s.noIgnore = !excludeStd
	sc, err := s.run()
	if err != nil {
		return err
	}
	show := func(p string) bool { return len(specs) == 0 || matchAny(specs, p) }
	for _, e := range idx.Entries {
		if sc.hidden[e.Name] || !show(e.Name) {
			continue
		}
		name := quotePath(r.rel(e.Name))
		if cached {
			if stage {
				fmt.Fprintf(r.g.out, "%06o %s %d\t%s\n", uint32(e.Mode), e.Hash, e.Stage, name)
			} else {
				fmt.Fprintln(r.g.out, name)
			}
		}
		st := sc.tracked[e.Name]
		if deleted && st == wtDeleted {
			fmt.Fprintln(r.g.out, name)
		}
		if modified && st != wtSame {
			fmt.Fprintln(r.g.out, name)
		}
	}
	if others {
		for _, p := range sc.untracked {
			if show(p) {
				fmt.Fprintln(r.g.out, quotePath(r.rel(p)))
			}
		}
	}
	return nil
}
