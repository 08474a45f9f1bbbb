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
	if !noPatch && !o.stat && !o.nameOnly && !o.nameStat && !o.patchOut.numstat && !o.shortStat {
		o.patch = true
	}
	if noPatch {
		o.patch, o.stat, o.nameOnly, o.nameStat, o.patchOut.numstat, o.shortStat = false, false, false, false, false, false
	}
	if len(names) == 0 {
		names = []string{"HEAD"}
	}
	if o.decorate {
		o.decorations = r.decorationsWith(o.decorateFull)
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
	if !(o.patch || o.stat || o.nameOnly || o.nameStat || o.patchOut.numstat || o.shortStat) {
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
