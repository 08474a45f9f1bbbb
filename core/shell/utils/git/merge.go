package git

import (
	"bytes"
	"container/heap"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// mergeBase is a nearest common ancestor of a and b (zero when none): the
// first of b's ancestors, newest first, that a also reaches.
func (r *repo) mergeBase(a, b plumbing.Hash) (plumbing.Hash, error) {
	marks := map[plumbing.Hash]bool{}
	if err := r.markAncestors(a, marks); err != nil {
		return plumbing.ZeroHash, err
	}
	q := &commitQueue{}
	c, err := r.readCommit(b)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	seen := map[plumbing.Hash]bool{b: true}
	heap.Push(q, c)
	for q.Len() > 0 {
		c := heap.Pop(q).(*commit)
		if marks[c.Hash] {
			return c.Hash, nil
		}
		for _, p := range c.Parents {
			if !seen[p] {
				seen[p] = true
				pc, err := r.readCommit(p)
				if err != nil {
					return plumbing.ZeroHash, err
				}
				heap.Push(q, pc)
			}
		}
	}
	return plumbing.ZeroHash, nil
}

func runMerge(g *cmd, args []string) error {
	var msgs, revs []string
	noFF, ffOnly, quiet := false, false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m":
			if i+1 >= len(args) {
				return usageErr("error: switch `m' requires a value\n")
			}
			i++
			msgs = append(msgs, args[i])
		case a == "--no-ff":
			noFF = true
		case a == "--ff-only":
			ffOnly = true
		case a == "--ff" || a == "--no-edit" || a == "--stat" || a == "--no-verify":
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--abort" || a == "--continue" || a == "--squash" || a == "-s" || a == "--strategy" || a == "-X":
			return &exitError{msg: "git: 'merge " + a + "' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "-"):
			return unknownOption("merge", a)
		default:
			revs = append(revs, a)
		}
	}
	if len(revs) != 1 {
		if len(revs) == 0 {
			return fatalf("No remote for the current branch.")
		}
		return &exitError{msg: "git: an octopus 'merge' is not supported here\n", code: 1}
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	theirs, err := r.resolveCommit(revs[0])
	if err != nil {
		return &exitError{msg: "merge: " + revs[0] + " - not something we can merge\n", code: 1}
	}
	branch, ours, err := r.head()
	if err != nil {
		return err
	}
	if ours.IsZero() {
		return fatalf("no commits yet on the current branch: 'merge' into an unborn branch is not supported here")
	}
	base, err := r.mergeBase(ours, theirs)
	if err != nil {
		return err
	}
	switch {
	case base == theirs:
		fmt.Fprintln(g.out, "Already up to date.")
		return nil
	case base == ours && !noFF:
		return r.fastForward(ours, theirs, quiet)
	case ffOnly:
		return fatalf("Not possible to fast-forward, aborting.")
	}
	msg := cleanMessage(strings.Join(msgs, "\n\n"))
	if msg == "" {
		msg = "Merge branch '" + revs[0] + "'"
		if b := branch.Short(); branch != "" && b != "main" && b != "master" {
			msg += " into " + b
		}
		if !plumbing.NewBranchReferenceName(revs[0]).IsBranch() || !r.isBranch(revs[0]) {
			msg = "Merge commit '" + revs[0] + "'"
		}
		msg += "\n"
	}
	return r.threeWay(branch, base, ours, theirs, msg, quiet)
}

func (r *repo) isBranch(name string) bool {
	_, err := r.st.Reference(plumbing.NewBranchReferenceName(name))
	return err == nil
}

// fastForward moves the branch to theirs, updating the index and worktree.
func (r *repo) fastForward(ours, theirs plumbing.Hash, quiet bool) error {
	if err := r.moveTree(ours, theirs); err != nil {
		return renameCheckoutVerb(err)
	}
	if err := r.setHead(theirs); err != nil {
		return fatalf("cannot lock ref 'HEAD': %s", errText(err))
	}
	if quiet {
		return nil
	}
	fmt.Fprintf(r.g.out, "Updating %s..%s\nFast-forward\n", r.abbrev(ours), r.abbrev(theirs))
	return r.mergeStat(ours, theirs)
}

// renameCheckoutVerb words a refused worktree update as merge's.
func renameCheckoutVerb(err error) error {
	if ee, ok := err.(*exitError); ok {
		ee.msg = strings.Replace(ee.msg, "overwritten by checkout:", "overwritten by merge:", 1)
		ee.msg = strings.Replace(ee.msg, "before you switch branches.", "before you merge.", 1)
	}
	return err
}

func (r *repo) mergeStat(from, to plumbing.Hash) error {
	a, err := r.commitTree(from)
	if err != nil {
		return err
	}
	b, err := r.commitTree(to)
	if err != nil {
		return err
	}
	changes, err := r.treeChanges(a, b)
	if err != nil {
		return err
	}
	r.printStat(changes, false)
	for _, ch := range changes {
		switch {
		case ch.from != "":
			fmt.Fprintf(r.g.out, " rename %s (100%%)\n", renameName(ch.from, ch.path))
		case ch.old.Hash.IsZero():
			fmt.Fprintf(r.g.out, " create mode %o %s\n", uint32(ch.new.Mode), quotePath(ch.path))
		case ch.new.Hash.IsZero():
			fmt.Fprintf(r.g.out, " delete mode %o %s\n", uint32(ch.old.Mode), quotePath(ch.path))
		}
	}
	return nil
}

// threeWay merges theirs into ours from base, path by path; files both
// sides changed are merged line by line. Any conflict stops the merge
// before anything is written.
func (r *repo) threeWay(branch plumbing.ReferenceName, base, ours, theirs plumbing.Hash, msg string, quiet bool) error {
	trees := make([]map[string]flatEntry, 3)
	for i, h := range []plumbing.Hash{base, ours, theirs} {
		if h.IsZero() {
			trees[i] = map[string]flatEntry{}
			continue
		}
		t, err := r.commitTree(h)
		if err != nil {
			return err
		}
		if trees[i], err = r.flatten(t); err != nil {
			return err
		}
	}
	merged, auto, conflicts, err := r.mergeTrees(trees[0], trees[1], trees[2])
	if err != nil {
		return err
	}
	var out strings.Builder
	for _, p := range auto {
		fmt.Fprintf(&out, "Auto-merging %s\n", p)
	}
	if len(conflicts) > 0 {
		for _, c := range conflicts {
			out.WriteString(c + "\n")
		}
		r.g.out.WriteString(out.String())
		return &exitError{msg: "error: Automatic merge failed; this git writes no conflicts: nothing was changed.\nhint: resolve by hand (git diff, edit, commit) or merge another way.\n", code: 1}
	}
	// Write the merged blobs, then move the worktree from ours to it.
	tree, err := r.writeFlatTree(merged)
	if err != nil {
		return err
	}
	_, committer, err := r.identities()
	if err != nil {
		return err
	}
	author, _, _ := r.identities()
	c := &commit{Tree: tree, Parents: []plumbing.Hash{ours, theirs}, Author: author, Committer: committer, Message: msg}
	h, err := r.writeObject(plumbing.CommitObject, c.encode())
	if err != nil {
		return fatalf("%s", errText(err))
	}
	if err := r.moveTree(ours, h); err != nil {
		return renameCheckoutVerb(err)
	}
	if err := r.setHead(h); err != nil {
		return fatalf("cannot lock ref 'HEAD': %s", errText(err))
	}
	if quiet {
		return nil
	}
	r.g.out.WriteString(out.String())
	r.g.out.WriteString("Merge made by the 'ort' strategy.\n")
	return r.mergeStat(ours, h)
}

// mergeTrees merges three flattened trees. auto lists the paths merged
// line by line; conflicts are git's CONFLICT lines.
func (r *repo) mergeTrees(base, ours, theirs map[string]flatEntry) (merged map[string]flatEntry, auto, conflicts []string, err error) {
	merged = map[string]flatEntry{}
	paths := map[string]bool{}
	for _, m := range []map[string]flatEntry{base, ours, theirs} {
		for p := range m {
			paths[p] = true
		}
	}
	for _, p := range sortedKeys(paths) {
		b, o, t := base[p], ours[p], theirs[p]
		switch {
		case o == t:
			if o.Mode != 0 {
				merged[p] = o
			}
		case b == o:
			if t.Mode != 0 {
				merged[p] = t
			}
		case b == t:
			if o.Mode != 0 {
				merged[p] = o
			}
		case o.Mode == 0 || t.Mode == 0:
			who := "HEAD"
			if t.Mode == 0 {
				conflicts = append(conflicts, fmt.Sprintf("CONFLICT (modify/delete): %s deleted in theirs and modified in %s.", p, who))
			} else {
				conflicts = append(conflicts, fmt.Sprintf("CONFLICT (modify/delete): %s deleted in HEAD and modified in theirs.", p))
			}
		case o.Mode == filemode.Symlink || t.Mode == filemode.Symlink || o.Mode == filemode.Submodule:
			conflicts = append(conflicts, fmt.Sprintf("CONFLICT (content): Merge conflict in %s", p))
		default:
			if r.hiddenPath(p) {
				conflicts = append(conflicts, "CONFLICT (content): a file hidden from this session changed on both sides")
				continue
			}
			auto = append(auto, p)
			h, ok, err := r.mergeFile(b.Hash, o.Hash, t.Hash)
			if err != nil {
				return nil, nil, nil, err
			}
			if !ok {
				conflicts = append(conflicts, fmt.Sprintf("CONFLICT (content): Merge conflict in %s", p))
				continue
			}
			mode := o.Mode
			if o.Mode == b.Mode {
				mode = t.Mode
			}
			merged[p] = flatEntry{Hash: h, Mode: mode}
		}
	}
	return merged, auto, conflicts, nil
}

// hunk is a change of a base text: base lines [start,end) become lines.
type hunk struct {
	start, end int
	lines      [][]byte
}

func hunksOf(base, side [][]byte) []hunk {
	var out []hunk
	edits := diffLines(base, side)
	pos := 0 // the base line the next edit is at
	for i := 0; i < len(edits); {
		if edits[i].op == opEqual {
			pos = edits[i].a + 1
			i++
			continue
		}
		h := hunk{start: pos, end: pos}
		for i < len(edits) && edits[i].op != opEqual {
			if edits[i].op == opDel {
				h.end = edits[i].a + 1
			} else {
				h.lines = append(h.lines, side[edits[i].b])
			}
			i++
		}
		out = append(out, h)
		pos = h.end
	}
	return out
}

// mergeFile merges two edits of a base file line by line; ok is false
// when they touch the same or adjacent base lines (as git's merge does).
func (r *repo) mergeFile(b, o, t plumbing.Hash) (plumbing.Hash, bool, error) {
	var texts [3][]byte
	for i, h := range []plumbing.Hash{b, o, t} {
		data, err := r.blob(h)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if isBinary(data) {
			return plumbing.ZeroHash, false, nil
		}
		texts[i] = data
	}
	base := splitLines(texts[0])
	hs := append(hunksOf(base, splitLines(texts[1])), hunksOf(base, splitLines(texts[2]))...)
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].start < hs[j].start })
	for i := 1; i < len(hs); i++ {
		if hs[i].start <= hs[i-1].end {
			if hs[i].start == hs[i-1].start && hs[i].end == hs[i-1].end && equalLines(hs[i].lines, hs[i-1].lines) {
				continue // the same change on both sides
			}
			return plumbing.ZeroHash, false, nil
		}
	}
	var outText bytes.Buffer
	pos := 0
	for i, h := range hs {
		if i > 0 && h.start == hs[i-1].start && h.end == hs[i-1].end && equalLines(h.lines, hs[i-1].lines) {
			continue
		}
		for ; pos < h.start; pos++ {
			outText.Write(base[pos])
		}
		for _, ln := range h.lines {
			outText.Write(ln)
		}
		pos = h.end
	}
	for ; pos < len(base); pos++ {
		outText.Write(base[pos])
	}
	h, err := r.writeObject(plumbing.BlobObject, outText.Bytes())
	return h, true, err
}

func equalLines(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// writeFlatTree stores the trees of a flattened tree.
func (r *repo) writeFlatTree(flat map[string]flatEntry) (plumbing.Hash, error) {
	idx := &index.Index{Version: 2}
	for p, e := range flat {
		idx.Entries = append(idx.Entries, &index.Entry{Name: p, Hash: e.Hash, Mode: e.Mode})
	}
	return r.writeTreeFromIndex(idx)
}
