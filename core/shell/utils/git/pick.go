package git

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// pickOptions are git cherry-pick's and git revert's flags.
type pickOptions struct {
	revert, noCommit, recordOrigin bool
	revs                           []string
	favor                          string // -X ours or theirs
}

func runCherryPick(g *cmd, args []string) error { return runPick(g, args, false) }

func runRevert(g *cmd, args []string) error { return runPick(g, args, true) }

// runPick is git cherry-pick (apply what commits changed, as new commits
// with their authors and messages) and git revert (apply the opposite of
// what they changed). Each is a three-way merge of the commit's change
// into HEAD; one that conflicts stops with git's state (markers, stages,
// CHERRY_PICK_HEAD or REVERT_HEAD, MERGE_MSG and, for several commits,
// .git/sequencer) for --continue, --skip, --abort or --quit.
func runPick(g *cmd, args []string, revert bool) error {
	name := "cherry-pick"
	if revert {
		name = "revert"
	}
	o := pickOptions{revert: revert}
	action := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-X" || a == "--strategy-option":
			if i+1 >= len(args) {
				return usageErr(fmt.Sprintf("error: switch `%s' requires a value\n", strings.TrimLeft(a, "-")))
			}
			i++
			o.setFavor(args[i])
		case strings.HasPrefix(a, "-X") || strings.HasPrefix(a, "--strategy-option="):
			o.setFavor(strings.TrimPrefix(strings.TrimPrefix(a, "-X"), "--strategy-option="))
		case a == "-n" || a == "--no-commit":
			o.noCommit = true
		case a == "-x" && !revert:
			o.recordOrigin = true
		case a == "--no-edit" || a == "--ff" && !revert:
		case a == "--continue" || a == "--abort" || a == "--skip" || a == "--quit":
			action = a[2:]
		case strings.HasPrefix(a, "-"):
			return &exitError{msg: "git: '" + name + " " + a + "' is not supported here\n", code: 1}
		default:
			o.revs = append(o.revs, a)
		}
	}
	if action != "" {
		if len(args) > 1 {
			return usageErr(fmt.Sprintf("error: option '%s' cannot be used with other options\n", action))
		}
		r, err := g.findRepo()
		if err != nil {
			return err
		}
		return r.pickAction(action, name)
	}
	if len(o.revs) == 0 {
		return usageErr(fmt.Sprintf("usage: git %s [<options>] <commit-ish>...\n", name))
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	if err := r.checkNoPickInProgress(name); err != nil {
		return err
	}
	if err := r.checkNoMergeInProgress(); err != nil {
		return err
	}
	commits, err := r.pickList(o.revs, revert)
	if err != nil {
		return err
	}
	if o.noCommit && len(commits) > 1 {
		return &exitError{msg: "git: '" + name + " --no-commit' of more than one commit is not supported here\n", code: 1}
	}
	_, head, err := r.head()
	if err != nil {
		return err
	}
	r.favor = o.favor
	return r.pickSequence(commits, o, name, len(commits) > 1, head)
}

// setFavor reads -X: ours and theirs settle conflicting hunks; git's
// sequencer passes other values on without a word, and so they change
// nothing here.
func (o *pickOptions) setFavor(v string) {
	if v == "ours" || v == "theirs" {
		o.favor = v
	}
}

// pickSequence picks commits in turn; the first that conflicts stops the
// sequence with its state written, the rest in .git/sequencer/todo when
// seq (a sequence of several commits, begun at origHead).
func (r *repo) pickSequence(commits []*commit, o pickOptions, name string, seq bool, origHead plumbing.Hash) error {
	for i, c := range commits {
		err := r.pickOne(c, o, name)
		var stop *pickStop
		if errors.As(err, &stop) {
			var todo []*commit
			if seq {
				todo = commits[i:]
			}
			if stop.empty {
				return r.stopEmptyPick(stop.c, o, name, todo, origHead)
			}
			return r.stopPick(stop, o, name, todo, origHead)
		}
		if err != nil {
			if seq {
				r.removeSequencer()
			}
			return err
		}
	}
	if seq {
		r.removeSequencer()
	}
	return nil
}

// pickList resolves the operands to commits, oldest first; "A..B" is the
// commits B has and A lacks (newest first for revert, as git goes).
func (r *repo) pickList(revs []string, revert bool) ([]*commit, error) {
	var out []*commit
	for _, rev := range revs {
		from, to, isRange := strings.Cut(rev, "..")
		if !isRange {
			h, err := r.resolveCommit(rev)
			if err != nil {
				return nil, fatalf("bad revision '%s'", rev)
			}
			c, err := r.readCommit(h)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			continue
		}
		fh, err := r.resolveCommit(orHead(from))
		if err != nil {
			return nil, fatalf("bad revision '%s'", rev)
		}
		th, err := r.resolveCommit(orHead(to))
		if err != nil {
			return nil, fatalf("bad revision '%s'", rev)
		}
		excluded := map[plumbing.Hash]bool{}
		if err := r.markAncestors(fh, excluded); err != nil {
			return nil, err
		}
		var chain []*commit
		for h := th; !h.IsZero() && !excluded[h]; {
			c, err := r.readCommit(h)
			if err != nil {
				return nil, err
			}
			chain = append(chain, c)
			if len(c.Parents) == 0 {
				break
			}
			h = c.Parents[0]
		}
		if !revert {
			for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
				chain[i], chain[j] = chain[j], chain[i]
			}
		}
		out = append(out, chain...)
	}
	return out, nil
}

// pickOne applies one commit's change (or its opposite) to HEAD, the index
// and the worktree, and commits it unless --no-commit.
func (r *repo) pickOne(c *commit, o pickOptions, name string) error {
	if len(c.Parents) > 1 {
		return &exitError{msg: fmt.Sprintf("error: commit %s is a merge but no -m option was given.\nfatal: %s failed\n", c.Hash, name), code: 128}
	}
	branch, head, err := r.head()
	if err != nil {
		return err
	}
	if head.IsZero() {
		return fatalf("your current branch '%s' does not have any commits yet", branch.Short())
	}
	parentTree := plumbing.ZeroHash
	if len(c.Parents) == 1 {
		if parentTree, err = r.commitTree(c.Parents[0]); err != nil {
			return err
		}
	}
	base, theirs := parentTree, c.Tree
	label := r.abbrev(c.Hash) + " (" + c.subject() + ")"
	if o.revert {
		base, theirs = c.Tree, parentTree
		label = "parent of " + label
	}
	oursTree, err := r.commitTree(head)
	if err != nil {
		return err
	}
	var flats [3]map[string]flatEntry
	for i, t := range []plumbing.Hash{base, oursTree, theirs} {
		if flats[i], err = r.flatten(t); err != nil {
			return err
		}
	}
	res, err := r.mergeTrees(flats[0], flats[1], flats[2], label)
	if err != nil {
		return err
	}
	if len(res.conflicts) > 0 {
		tree, err := r.writeFlatTree(res.merged)
		if err != nil {
			return err
		}
		return &pickStop{c: c, oursTree: oursTree, tree: tree, res: res}
	}
	tree, err := r.writeFlatTree(res.merged)
	if err != nil {
		return err
	}
	if tree == oursTree && !o.noCommit {
		for _, m := range res.msgs {
			r.g.out.WriteString(m + "\n")
		}
		return &pickStop{c: c, empty: true}
	}
	if err := r.moveTrees(oursTree, tree); err != nil {
		return renamePickVerb(err, name)
	}
	for _, m := range res.msgs {
		r.g.out.WriteString(m + "\n")
	}
	if o.noCommit {
		return nil
	}
	author, committer, err := r.identities()
	if err != nil {
		return err
	}
	if !o.revert {
		author = c.Author
	}
	msg := pickMessage(c, o)
	nc := &commit{Tree: tree, Parents: []plumbing.Hash{head}, Author: author, Committer: committer, Message: msg}
	h, err := r.writeObject(plumbing.CommitObject, nc.encode())
	if err != nil {
		return fatalf("%s", errText(err))
	}
	nc.Hash = h
	if err := r.writeRef("ORIG_HEAD", head); err != nil {
		return fatalf("%s", errText(err))
	}
	if err := r.setHead(h); err != nil {
		return fatalf("cannot lock ref 'HEAD': %s", errText(err))
	}
	// git's sequencer always names the author date in its summary.
	return r.commitSummary(nc, branch, oursTree, false, true)
}

// pickMessage is the message of a pick's commit: the picked commit's
// (with -x its origin), or a revert's "Revert ..." naming it.
func pickMessage(c *commit, o pickOptions) string {
	if o.revert {
		return fmt.Sprintf("Revert \"%s\"\n\nThis reverts commit %s.\n", c.subject(), c.Hash)
	}
	if o.recordOrigin {
		return strings.TrimRight(c.Message, "\n") + "\n\n(cherry picked from commit " + c.Hash.String() + ")\n"
	}
	return c.Message
}

// renamePickVerb words a refused worktree update as cherry-pick's or
// revert's.
func renamePickVerb(err error, name string) error {
	if ee, ok := err.(*exitError); ok {
		ee.msg = strings.Replace(ee.msg, "overwritten by checkout:", "overwritten by merge:", 1)
		ee.msg = strings.Replace(ee.msg, "Please commit your changes or stash them before you switch branches.\nAborting\n",
			"Please commit your changes or stash them before you merge.\nAborting\nfatal: "+name+" failed\n", 1)
		ee.code = 128
	}
	return err
}
