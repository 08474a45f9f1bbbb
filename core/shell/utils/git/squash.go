package git

import (
	"container/heap"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// squashMerge is git merge --squash: theirs merged into the index and
// the worktree, HEAD left where it is and nothing recorded as a merge;
// SQUASH_MSG proposes the commits taken for the next commit's message.
func (r *repo) squashMerge(base, ours, theirs plumbing.Hash, theirName string, f mergeFlags) error {
	switch {
	case base == theirs:
		fmt.Fprintln(r.g.out, "Already up to date. (nothing to squash)")
		return nil
	case base == ours:
		if err := r.moveTree(ours, theirs); err != nil {
			return renameCheckoutVerb(err)
		}
		if err := r.writeSquashMsg(ours, theirs); err != nil {
			return err
		}
		if f.quiet {
			return nil
		}
		fmt.Fprintf(r.g.out, "Updating %s..%s\nFast-forward\nSquash commit -- not updating HEAD\n", r.abbrev(ours), r.abbrev(theirs))
		return r.mergeStat(ours, theirs)
	}
	trees := make([]map[string]flatEntry, 3)
	for i, h := range []plumbing.Hash{base, ours, theirs} {
		t, err := r.commitTree(h)
		if err != nil {
			return err
		}
		if trees[i], err = r.flatten(t); err != nil {
			return err
		}
	}
	res, err := r.mergeTrees(trees[0], trees[1], trees[2], theirName)
	if err != nil {
		return err
	}
	tree, err := r.writeFlatTree(res.merged)
	if err != nil {
		return err
	}
	oursTree, err := r.commitTree(ours)
	if err != nil {
		return err
	}
	if err := r.writeConflicted(oursTree, tree, res); err != nil {
		return renameCheckoutVerb(err)
	}
	if err := r.writeRef("ORIG_HEAD", ours); err != nil {
		return fatalf("%s", errText(err))
	}
	if err := r.writeSquashMsg(ours, theirs); err != nil {
		return err
	}
	for _, m := range res.msgs {
		r.g.out.WriteString(m + "\n")
	}
	if len(res.conflicts) > 0 {
		if err := writeFile(r.g.gitfs, r.gitDir+"/MERGE_MSG", []byte(conflictMessage("", res)), 0o644); err != nil {
			return fatalf("could not write '%s': %s", r.gitDir+"/MERGE_MSG", errText(err))
		}
		r.g.out.WriteString("Squash commit -- not updating HEAD\nAutomatic merge failed; fix conflicts and then commit the result.\n")
		return exitStatus(1)
	}
	r.g.out.Flush()
	fmt.Fprint(r.g.errw, "Automatic merge went well; stopped before committing as requested\n")
	r.g.out.WriteString("Squash commit -- not updating HEAD\n")
	return nil
}

// writeSquashMsg writes SQUASH_MSG: "Squashed commit of the following:"
// and, newest first, each commit theirs has and ours lacks as git log
// shows it.
func (r *repo) writeSquashMsg(ours, theirs plumbing.Hash) error {
	excluded := map[plumbing.Hash]bool{}
	if err := r.markAncestors(ours, excluded); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("Squashed commit of the following:\n")
	q := &commitQueue{}
	seen := map[plumbing.Hash]bool{theirs: true}
	c, err := r.readCommit(theirs)
	if err != nil {
		return err
	}
	heap.Push(q, c)
	for q.Len() > 0 {
		if err := r.stopped(); err != nil {
			return err
		}
		c := heap.Pop(q).(*commit)
		if excluded[c.Hash] {
			continue
		}
		fmt.Fprintf(&b, "\ncommit %s\n", c.Hash)
		if len(c.Parents) > 1 {
			var ps []string
			for _, p := range c.Parents {
				ps = append(ps, r.abbrev(p))
			}
			fmt.Fprintf(&b, "Merge: %s\n", strings.Join(ps, " "))
		}
		fmt.Fprintf(&b, "Author: %s <%s>\nDate:   %s\n\n%s", c.Author.Name, c.Author.Email, gitDate(c.Author.When), indentMessage(c.Message))
		for _, p := range c.Parents {
			if !seen[p] && !excluded[p] {
				seen[p] = true
				pc, err := r.readCommit(p)
				if err != nil {
					return err
				}
				heap.Push(q, pc)
			}
		}
	}
	if err := writeFile(r.g.gitfs, r.gitDir+"/SQUASH_MSG", []byte(b.String()), 0o644); err != nil {
		return fatalf("could not write '%s': %s", r.gitDir+"/SQUASH_MSG", errText(err))
	}
	return nil
}
