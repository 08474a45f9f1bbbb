package git

import (
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// stashFlats are the trees a stash apply works with, flattened: the
// stash's base (the commit it was made on), its index and its worktree.
type stashFlats struct{ base, index, work map[string]flatEntry }

// indexMoved reports whether the index no longer holds the tree a stash
// was made on (HEAD moved, or changes were staged since): its apply is
// then a merge.
func (r *repo) indexMoved(base map[string]flatEntry) (bool, error) {
	idx, err := r.loadIndex()
	if err != nil {
		return false, err
	}
	return hasUnmerged(idx) || !sameFlat(indexFlat(idx), base), nil
}

// sameFlat reports whether two flattened trees are equal.
func sameFlat(a, b map[string]flatEntry) bool {
	return len(a) == len(b) && len(differing(a, b)) == 0
}

// stashMergeApply is stash apply onto an index that moved since the
// stash was made, as git's: the stash's worktree merged into the current
// index from the stash's base, a whole-tree merge ("Updated upstream"
// against "Stashed changes") that follows renames and reports
// modify/delete and add/add conflicts as git's ort does. A clean apply
// then unstages what it changed except new files (with --index, the
// stash's index applied to the current one is the index instead); a
// conflicted one leaves the merge's index, stages 1-3 included, and says
// "Index was not unstashed." with --index.
func (r *repo) stashMergeApply(f stashFlats, wc *commit, keepIndex bool) error {
	idx, err := r.loadIndex()
	if err != nil {
		return err
	}
	if hasUnmerged(idx) {
		return &exitError{msg: "error: could not write index\n", code: 1}
	}
	cur := indexFlat(idx)
	for _, p := range dedupe(append(differing(f.base, f.work), differing(f.base, f.index)...)) {
		if r.hiddenPath(p) {
			return &exitError{msg: "error: this stash would change files hidden from this session\n", code: 1}
		}
	}
	var indexTree map[string]flatEntry
	if keepIndex && !sameFlat(f.index, f.base) && !sameFlat(f.index, cur) {
		if indexTree, err = r.applyStashedIndex(f, cur); err != nil {
			return err
		}
	}
	res, err := r.mergeTreesNamed(f.base, cur, f.work, "Updated upstream", "Stashed changes")
	if err == errMergeHidden {
		return &exitError{msg: "error: this stash would change files hidden from this session\n", code: 1}
	}
	if err != nil {
		return err
	}
	if err := r.stashMergeCollisions(idx, cur, res); err != nil {
		return err
	}
	tree, err := r.writeFlatTree(res.merged)
	if err != nil {
		return err
	}
	curTree, err := r.writeFlatTree(cur)
	if err != nil {
		return err
	}
	if sameFlat(f.base, f.work) {
		r.g.out.WriteString("Already up to date.\n")
	}
	if err := r.writeConflicted(curTree, tree, res); err != nil {
		return err
	}
	said := r.g.out // what a merge says about files, even with -q
	if r.mergeOut != nil {
		said = r.mergeOut
	}
	for _, m := range res.msgs {
		said.WriteString(m + "\n")
	}
	if len(wc.Parents) > 2 {
		// git brings the untracked files back after the tracked ones.
		if err := r.restoreUntracked(wc.Parents[2]); err != nil {
			return err
		}
	}
	if len(res.conflicts) > 0 {
		if keepIndex {
			r.g.out.Flush()
			r.g.errw.Write([]byte("Index was not unstashed.\n"))
		}
		return &stashRefusal{}
	}
	if indexTree != nil {
		return r.resetIndexTo(indexTree)
	}
	return r.unstageUnlessNew(cur)
}

// stashMergeCollisions refuses an apply whose merge would overwrite a
// file the worktree changed, or an untracked one, before anything is
// written, as git's merge refuses it.
func (r *repo) stashMergeCollisions(idx *index.Index, cur map[string]flatEntry, res *mergeResult) error {
	changed := differing(cur, res.merged)
	for _, c := range res.conflicts {
		changed = append(changed, c.path)
	}
	s := newScanner(r, idx)
	s.allFiles = true
	sc, err := s.run()
	if err != nil {
		return err
	}
	untracked := map[string]bool{}
	for _, p := range sc.untracked {
		untracked[p] = true
	}
	var local, inWay []string
	for _, p := range dedupe(changed) {
		if _, tracked := cur[p]; tracked && sc.tracked[p] != wtSame {
			local = append(local, p)
		} else if !tracked && untracked[p] {
			inWay = append(inWay, p)
		}
	}
	if len(local) > 0 {
		return &stashRefusal{msg: "error: Your local changes to the following files would be overwritten by merge:\n\t" + strings.Join(local, "\n\t") + "\nPlease commit your changes or stash them before you merge.\nAborting\n"}
	}
	if len(inWay) > 0 {
		return &stashRefusal{msg: "error: The following untracked working tree files would be overwritten by merge:\n\t" + strings.Join(inWay, "\n\t") + "\nPlease move or remove them before you merge.\nAborting\n"}
	}
	return nil
}

// applyStashedIndex is apply --index's first step: the changes the
// stash's index made to its base, applied to the current index as git
// apply --cached applies them (a file added that is already there, or
// changed or deleted that is not, refuses; an edit of a file the index
// changed too must merge cleanly).
func (r *repo) applyStashedIndex(f stashFlats, cur map[string]flatEntry) (map[string]flatEntry, error) {
	out := make(map[string]flatEntry, len(cur))
	for p, e := range cur {
		out[p] = e
	}
	var msg strings.Builder
	for _, p := range differing(f.base, f.index) {
		b, hasB := f.base[p]
		i, hasI := f.index[p]
		c, hasC := cur[p]
		switch {
		case !hasB && hasC:
			msg.WriteString("error: " + p + ": already exists in index\n")
		case !hasB:
			out[p] = i
		case !hasC:
			msg.WriteString("error: " + p + ": does not exist in index\n")
		case c == b && !hasI:
			delete(out, p)
		case c == b:
			out[p] = i
		case hasI && c.Mode == b.Mode && i.Mode == b.Mode:
			h, clean, binary, err := r.mergeContent(b.Hash, c.Hash, i.Hash, "ours", "theirs", 7)
			if err != nil {
				return nil, err
			}
			if clean && !binary {
				out[p] = flatEntry{Hash: h, Mode: c.Mode}
				continue
			}
			msg.WriteString("error: patch failed: " + p + "\nerror: " + p + ": patch does not apply\n")
		default:
			msg.WriteString("error: patch failed: " + p + "\nerror: " + p + ": patch does not apply\n")
		}
	}
	if msg.Len() > 0 {
		msg.WriteString("error: conflicts in index. Try without --index.\n")
		return nil, &stashRefusal{msg: msg.String(), noStatus: true}
	}
	return out, nil
}

// unstageUnlessNew is git's unstage_changes_unless_new after a clean
// apply: every index entry the merge changed goes back to the version
// the index had before (cur), so the change shows in the worktree only;
// a file new to the index stays added.
func (r *repo) unstageUnlessNew(cur map[string]flatEntry) error {
	lock, idx, err := r.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	now := indexFlat(idx)
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if c, ok := cur[e.Name]; ok && (c.Hash != e.Hash || c.Mode != e.Mode) {
			e.Hash, e.Mode = c.Hash, c.Mode
			e.ModifiedAt, e.Size = time.Time{}, 0 // the worktree differs: stat must not match
		}
		kept = append(kept, e)
	}
	idx.Entries = kept
	for p, c := range cur {
		if _, ok := now[p]; !ok {
			idx.Entries = append(idx.Entries, &index.Entry{Name: p, Hash: c.Hash, Mode: c.Mode})
		}
	}
	sortIndex(idx)
	return lock.commit(idx)
}

// resetIndexTo makes the index hold tree (the worktree untouched),
// keeping the stat data of entries that do not change.
func (r *repo) resetIndexTo(tree map[string]flatEntry) error {
	lock, idx, err := r.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	old := map[string]*index.Entry{}
	for _, e := range idx.Entries {
		old[e.Name] = e
	}
	idx.Entries = idx.Entries[:0]
	for p, fe := range tree {
		if e := old[p]; e != nil && e.Hash == fe.Hash && e.Mode == fe.Mode && e.Stage == stageMerged {
			idx.Entries = append(idx.Entries, e)
			continue
		}
		idx.Entries = append(idx.Entries, &index.Entry{Name: p, Hash: fe.Hash, Mode: fe.Mode})
	}
	sortIndex(idx)
	return lock.commit(idx)
}
