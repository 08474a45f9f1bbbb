package git

import (
	"bytes"
	"container/heap"
	"errors"
	"fmt"
	"io/fs"
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

// mergeFlags are git merge's options.
type mergeFlags struct {
	msgs, revs          []string
	noFF, ffOnly, quiet bool
	noCommit, squash    bool
	favor               string // -X ours or theirs: conflicting hunks take that side
	action              string // "abort" or "continue"
}

func parseMergeArgs(args []string) (mergeFlags, error) {
	var f mergeFlags
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m" || a == "-X":
			if i+1 >= len(args) {
				return f, usageErr(fmt.Sprintf("error: switch `%s' requires a value\n", a[1:]))
			}
			i++
			if a == "-m" {
				f.msgs = append(f.msgs, args[i])
			} else if err := f.strategyOption(args[i]); err != nil {
				return f, err
			}
		case strings.HasPrefix(a, "-X") || strings.HasPrefix(a, "--strategy-option="):
			if err := f.strategyOption(strings.TrimPrefix(strings.TrimPrefix(a, "-X"), "--strategy-option=")); err != nil {
				return f, err
			}
		case a == "--no-ff":
			f.noFF = true
		case a == "--ff-only":
			f.ffOnly = true
		case a == "--no-commit":
			f.noCommit = true
		case a == "--ff" || a == "--no-edit" || a == "--stat" || a == "--no-verify" || a == "--commit":
		case a == "-q" || a == "--quiet":
			f.quiet = true
		case a == "--abort" || a == "--continue":
			f.action = a[2:]
		case a == "--squash":
			f.squash = true
		case a == "-s" || a == "--strategy" || strings.HasPrefix(a, "--strategy="):
			return f, &exitError{msg: "git: 'merge " + a + "' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "-"):
			return f, unknownOption("merge", a)
		default:
			f.revs = append(f.revs, a)
		}
	}
	return f, nil
}

// strategyOption reads -X: ours and theirs settle conflicting hunks.
func (f *mergeFlags) strategyOption(v string) error {
	if v != "ours" && v != "theirs" {
		return fatalf("unknown strategy option: -X%s", v)
	}
	f.favor = v
	return nil
}

func runMerge(g *cmd, args []string) error {
	f, err := parseMergeArgs(args)
	if err != nil {
		return err
	}
	switch f.action {
	case "abort":
		return abortMerge(g, args)
	case "continue":
		return continueMerge(g, args)
	}
	revs, msgs := f.revs, f.msgs
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
	if err := r.checkNoMergeInProgress(); err != nil {
		return err
	}
	if st := r.pickInProgress(); st != nil && st.name == "cherry-pick" && !st.head.IsZero() {
		return fatalf("You have not concluded your cherry-pick (CHERRY_PICK_HEAD exists).\nPlease, commit your changes before you merge.")
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
	r.favor = f.favor
	if f.squash {
		if f.noFF {
			return fatalf("options '--squash' and '--no-ff.' cannot be used together")
		}
		return r.squashMerge(base, ours, theirs, revs[0], f)
	}
	switch {
	case base == theirs:
		fmt.Fprintln(g.out, "Already up to date.")
		return nil
	case base == ours && !f.noFF:
		return r.fastForward(ours, theirs, f.quiet)
	case f.ffOnly:
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
	return r.threeWay(branch, base, ours, theirs, revs[0], msg, f)
}

// checkNoMergeInProgress refuses a merge while one waits to be concluded.
func (r *repo) checkNoMergeInProgress() error {
	idx, err := r.loadIndex()
	if err != nil {
		return err
	}
	if hasUnmerged(idx) {
		return &exitError{msg: "error: Merging is not possible because you have unmerged files.\n" + unmergedHint, code: 128}
	}
	if _, ok := r.mergeHead(); ok {
		return fatalf("You have not concluded your merge (MERGE_HEAD exists).\nPlease, commit your changes before you merge.")
	}
	return nil
}

// unmergedHint ends git's refusals to work on an index with conflicts.
const unmergedHint = `hint: Fix them up in the work tree, and then use 'git add/rm <file>'
hint: as appropriate to mark resolution and make a commit.
fatal: Exiting because of an unresolved conflict.
`

// mergeHead is the commit a merge in progress merges (MERGE_HEAD).
func (r *repo) mergeHead() (plumbing.Hash, bool) {
	data, err := readFile(r.g.gitfs, r.gitDir+"/MERGE_HEAD")
	if err != nil {
		return plumbing.ZeroHash, false
	}
	h := plumbing.NewHash(strings.TrimSpace(string(bytes.SplitN(data, []byte("\n"), 2)[0])))
	return h, !h.IsZero()
}

// clearMergeState forgets a merge in progress, as a commit or a reset does.
func (r *repo) clearMergeState() {
	for _, name := range []string{"MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE", "CHERRY_PICK_HEAD", "REVERT_HEAD", "SQUASH_MSG"} {
		if err := r.g.gitfs.Remove(r.gitDir + "/" + name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(r.g.errw, "warning: could not remove '%s': %s\n", r.gitDir+"/"+name, errText(err))
		}
	}
}

// hasUnmerged reports whether the index holds conflict stages.
func hasUnmerged(idx *index.Index) bool {
	for _, e := range idx.Entries {
		if e.Stage != stageMerged {
			return true
		}
	}
	return false
}

// abortMerge is git merge --abort: the index and the worktree go back to
// HEAD for every path the merge touched (staged or conflicted); changes
// only in the worktree stay, as git's reset --merge keeps them.
func abortMerge(g *cmd, args []string) error {
	if len(args) > 1 {
		return usageErr("usage: git merge --abort\n")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	if _, ok := r.mergeHead(); !ok {
		return fatalf("There is no merge to abort (MERGE_HEAD missing).")
	}
	if err := r.resetMerge(plumbing.ZeroHash); err != nil {
		return err
	}
	r.clearMergeState()
	return nil
}

// resetMerge is git reset --merge: the index and the worktree go to the
// target commit (zero: HEAD) for every path whose index entry differs
// from it or is conflicted; changes only in the worktree stay. HEAD
// moves to a target given.
func (r *repo) resetMerge(target plumbing.Hash) error {
	ed, err := r.editIndex()
	if err != nil {
		return err
	}
	defer ed.lock.release()
	var head map[string]flatEntry
	if target.IsZero() {
		head, err = r.headTree()
	} else {
		var t plumbing.Hash
		if t, err = r.commitTree(target); err == nil {
			head, err = r.flatten(t)
		}
	}
	if err != nil {
		return err
	}
	touched := map[string]bool{}
	for _, e := range ed.idx.Entries {
		if e.Stage != stageMerged {
			touched[e.Name] = true
		} else if h, ok := head[e.Name]; !ok || h.Hash != e.Hash || h.Mode != e.Mode {
			touched[e.Name] = true
		}
	}
	for p := range head {
		if _, ok := ed.entries[p]; !ok {
			touched[p] = true
		}
	}
	for _, p := range sortedKeys(touched) {
		if r.hiddenPath(p) {
			return &exitError{msg: "error: this reset would change files hidden from this session\n", code: 1}
		}
		if err := r.checkWritable(p, head); err != nil {
			return err
		}
	}
	for _, p := range sortedKeys(touched) {
		if err := r.applyPath(p, head, ed.entries); err != nil {
			return err
		}
	}
	ed.dropConflicts()
	if err := ed.commit(); err != nil {
		return err
	}
	if !target.IsZero() {
		if err := r.setHead(target); err != nil {
			return fatalf("cannot lock ref 'HEAD': %s", errText(err))
		}
	}
	return nil
}

// continueMerge is git merge --continue: the merge in progress is
// committed as git commit would (here without an editor, its message
// taken as proposed).
func continueMerge(g *cmd, args []string) error {
	if len(args) > 1 {
		return usageErr("usage: git merge --continue\n")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	if _, ok := r.mergeHead(); !ok {
		return fatalf("There is no merge in progress (MERGE_HEAD missing).")
	}
	return runCommit(g, nil)
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
			fmt.Fprintf(r.g.out, " rename %s (%d%%)\n", renameName(ch.from, ch.path), percent(ch.score))
		case ch.old.Hash.IsZero():
			fmt.Fprintf(r.g.out, " create mode %o %s\n", uint32(ch.new.Mode), quotePath(ch.path))
		case ch.new.Hash.IsZero():
			fmt.Fprintf(r.g.out, " delete mode %o %s\n", uint32(ch.old.Mode), quotePath(ch.path))
		}
	}
	return nil
}

// threeWay merges theirs into ours from base, path by path; files both
// sides changed are merged line by line. A clean merge is committed; a
// merge with conflicts leaves git's state to conclude it: the conflicted
// files written with markers, their stages 1-3 in the index, MERGE_HEAD
// and MERGE_MSG (exit 1).
func (r *repo) threeWay(branch plumbing.ReferenceName, base, ours, theirs plumbing.Hash, theirName, msg string, f mergeFlags) error {
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
	res, err := r.mergeTrees(trees[0], trees[1], trees[2], theirName)
	if err != nil {
		return err
	}
	var out strings.Builder
	for _, m := range res.msgs {
		out.WriteString(m + "\n")
	}
	tree, err := r.writeFlatTree(res.merged)
	if err != nil {
		return err
	}
	if err := r.writeRef("ORIG_HEAD", ours); err != nil {
		return fatalf("%s", errText(err))
	}
	if len(res.conflicts) > 0 || f.noCommit {
		return r.stopWithConflicts(ours, theirs, tree, res, msg, f.noFF, out.String())
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
	// git merge -q still says what it merged file by file.
	r.g.out.WriteString(out.String())
	if f.quiet {
		return nil
	}
	r.g.out.WriteString("Merge made by the 'ort' strategy.\n")
	return r.mergeStat(ours, h)
}

// stopWithConflicts writes a conflicted merge's result to the worktree and
// the index (the worktree's versions first, as a checkout of tree, then
// each conflicted path's stages in place of its entry) and records the
// merge in progress.
func (r *repo) stopWithConflicts(ours, theirs, tree plumbing.Hash, res *mergeResult, msg string, noFF bool, said string) error {
	oursTree, err := r.commitTree(ours)
	if err != nil {
		return err
	}
	if err := r.writeConflicted(oursTree, tree, res); err != nil {
		return renameCheckoutVerb(err)
	}
	mode := ""
	if noFF {
		mode = "no-ff"
	}
	if len(res.conflicts) > 0 {
		msg = conflictMessage(msg, res)
	}
	for _, f := range []struct{ name, text string }{
		{"MERGE_HEAD", theirs.String() + "\n"}, {"MERGE_MSG", msg}, {"MERGE_MODE", mode},
	} {
		if err := writeFile(r.g.gitfs, r.gitDir+"/"+f.name, []byte(f.text), 0o644); err != nil {
			return fatalf("could not write '%s': %s", r.gitDir+"/"+f.name, errText(err))
		}
	}
	r.g.out.WriteString(said)
	if len(res.conflicts) == 0 {
		r.g.out.Flush()
		fmt.Fprint(r.g.errw, "Automatic merge went well; stopped before committing as requested\n")
		return nil
	}
	r.g.out.WriteString("Automatic merge failed; fix conflicts and then commit the result.\n")
	return exitStatus(1)
}

// writeConflicted moves the worktree and the index from oursTree to a
// conflicted merge's tree (conflicted paths as the worktree gets them),
// then puts each conflicted path's stages in place of its entry.
func (r *repo) writeConflicted(oursTree, tree plumbing.Hash, res *mergeResult) error {
	if err := r.moveTrees(oursTree, tree); err != nil {
		return err
	}
	lock, idx, err := r.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	conflicted := map[string]bool{}
	for _, c := range res.conflicts {
		conflicted[c.path] = true
	}
	entries := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !conflicted[e.Name] {
			entries = append(entries, e)
		}
	}
	for _, c := range res.conflicts {
		for i, fe := range c.stages {
			if fe.Mode != 0 {
				entries = append(entries, &index.Entry{Name: c.path, Hash: fe.Hash, Mode: fe.Mode, Stage: index.Stage(i + 1)})
			}
		}
	}
	idx.Entries = entries
	sortIndex(idx)
	return lock.commit(idx)
}

// conflictMessage is MERGE_MSG for a stopped merge or pick: the message,
// then the conflicted paths as comments.
func conflictMessage(msg string, res *mergeResult) string {
	var m strings.Builder
	m.WriteString(msg)
	m.WriteString("\n# Conflicts:\n")
	for _, c := range res.conflicts {
		m.WriteString("#\t" + c.path + "\n")
	}
	return m.String()
}

// writeRef points a ref of .git (ORIG_HEAD) at h.
func (r *repo) writeRef(name string, h plumbing.Hash) error {
	return writeFile(r.g.gitfs, r.gitDir+"/"+name, []byte(h.String()+"\n"), 0o644)
}

// mergeResult is a merge of three trees: the tree it leaves (a conflicted
// path holds what the worktree gets), what git says path by path, and the
// conflicted paths.
type mergeResult struct {
	merged    map[string]flatEntry
	msgs      []string
	conflicts []mergeConflict
}

// mergeConflict is a path the merge could not settle: its base, our and
// their versions (zero Mode where a side has none), index stages 1-3.
type mergeConflict struct {
	path   string
	stages [3]flatEntry
}

// treeMerge is a merge of three trees under way: what it says is kept by
// path, as git's ort prints its messages in path order at the end.
type treeMerge struct {
	r *repo
	// ourName and theirName name the sides in markers and messages
	// ("HEAD" and the branch; a stash's "Updated upstream" and "Stashed
	// changes").
	ourName   string
	theirName string
	res       *mergeResult
	said      map[string][]string
}

// say records a message about a path.
func (m *treeMerge) say(p, format string, args ...any) {
	m.said[p] = append(m.said[p], fmt.Sprintf(format, args...))
}

// conflict records a conflicted path's stages.
func (m *treeMerge) conflict(p string, b, o, t flatEntry) {
	m.res.conflicts = append(m.res.conflicts, mergeConflict{path: p, stages: [3]flatEntry{b, o, t}})
}

// mergeTrees merges three flattened trees, following what each side
// renamed (exactly or by similarity, as git's ort does), and reports in
// path order as git does. A conflict on a path the door hides refuses
// the whole merge: its markers could be written nowhere the session may
// see.
func (r *repo) mergeTrees(base, ours, theirs map[string]flatEntry, theirName string) (*mergeResult, error) {
	return r.mergeTreesNamed(base, ours, theirs, "HEAD", theirName)
}

// mergeTreesNamed is mergeTrees with our side named too.
func (r *repo) mergeTreesNamed(base, ours, theirs map[string]flatEntry, ourName, theirName string) (*mergeResult, error) {
	m := &treeMerge{r: r, ourName: ourName, theirName: theirName, res: &mergeResult{merged: map[string]flatEntry{}}, said: map[string][]string{}}
	units, err := m.followRenames(base, ours, theirs)
	if err != nil {
		return nil, err
	}
	for _, u := range units {
		if err := m.settle(u); err != nil {
			return nil, err
		}
	}
	for _, p := range sortedKeys(m.said) {
		m.res.msgs = append(m.res.msgs, m.said[p]...)
	}
	sort.SliceStable(m.res.conflicts, func(i, j int) bool { return m.res.conflicts[i].path < m.res.conflicts[j].path })
	return m.res, nil
}

// mergeUnit is one path of the result and the three versions that settle
// it, with the paths they had (a side's rename brings its old path's
// versions to the new one).
type mergeUnit struct {
	path    string
	b, o, t flatEntry
	paths   [3]string
	// pathConflict: the path itself is in conflict (a rename moved into
	// a directory the other side renamed), whether or not its content
	// merges cleanly.
	pathConflict bool
}

// labels name our and their sides in conflict markers: "HEAD" and the
// merged name, each with its path when the versions had different ones.
func (m *treeMerge) labels(u mergeUnit) (string, string) {
	if u.paths[0] == u.paths[1] && u.paths[1] == u.paths[2] {
		return m.ourName, m.theirName
	}
	return m.ourName + ":" + u.paths[1], m.theirName + ":" + u.paths[2]
}

// settle merges one path's three versions.
func (m *treeMerge) settle(u mergeUnit) error {
	r, res, p := m.r, m.res, u.path
	b, o, t := u.b, u.o, u.t
	if u.pathConflict {
		return m.settleMoved(u)
	}
	switch {
	case o == t:
		if o.Mode != 0 {
			res.merged[p] = o
		}
		return nil
	case b == o:
		if t.Mode != 0 {
			res.merged[p] = t
		}
		return nil
	case b == t:
		if o.Mode != 0 {
			res.merged[p] = o
		}
		return nil
	}
	if r.hiddenPath(p) {
		return errMergeHidden
	}
	switch {
	case o.Mode == 0 || t.Mode == 0:
		gone, kept, left := m.ourName, m.theirName, t
		if t.Mode == 0 {
			gone, kept, left = m.theirName, m.ourName, o
		}
		m.say(p, "CONFLICT (modify/delete): %s deleted in %s and modified in %s.  Version %s of %s left in tree.", p, gone, kept, kept, p)
		res.merged[p] = left
		m.conflict(p, b, o, t)
		return nil
	case o.Mode == filemode.Symlink || t.Mode == filemode.Symlink || o.Mode == filemode.Submodule || t.Mode == filemode.Submodule:
		m.say(p, "CONFLICT (content): Merge conflict in %s", p)
		res.merged[p] = o
		m.conflict(p, b, o, t)
		return nil
	}
	merged, clean, err := m.content(p, u)
	if err != nil {
		return err
	}
	res.merged[p] = merged
	if clean {
		return nil
	}
	kind := "content"
	if b.Mode == 0 {
		kind = "add/add"
	}
	m.say(p, "CONFLICT (%s): Merge conflict in %s", kind, p)
	m.conflict(p, b, o, t)
	return nil
}

// settleMoved settles a path in conflict whatever its content: its
// versions merged (trivially when two agree, line by line otherwise) and
// all of them left at their stages.
func (m *treeMerge) settleMoved(u mergeUnit) error {
	if m.r.hiddenPath(u.path) {
		return errMergeHidden
	}
	switch {
	case u.b == u.o:
		m.res.merged[u.path] = u.t
	case u.b == u.t || u.o == u.t:
		m.res.merged[u.path] = u.o
	default:
		merged, clean, err := m.content(u.path, u)
		if err != nil {
			return err
		}
		m.res.merged[u.path] = merged
		if !clean {
			m.say(u.path, "CONFLICT (content): Merge conflict in %s", u.path)
		}
	}
	m.conflict(u.path, u.b, u.o, u.t)
	return nil
}

// content merges two edited files line by line (binary ones keep ours),
// saying so about path p.
func (m *treeMerge) content(p string, u mergeUnit) (flatEntry, bool, error) {
	b, o, t := u.b, u.o, u.t
	mode := o.Mode
	if o.Mode == b.Mode {
		mode = t.Mode
	}
	ol, tl := m.labels(u)
	h, clean, binary, err := m.r.mergeContent(b.Hash, o.Hash, t.Hash, ol, tl, 7)
	if err != nil {
		return flatEntry{}, false, err
	}
	if binary {
		m.say(p, "warning: Cannot merge binary files: %s (%s vs. %s)", p, ol, tl)
		h = o.Hash
	}
	m.say(p, "Auto-merging %s", p)
	return flatEntry{Hash: h, Mode: mode}, clean, nil
}

// errMergeHidden refuses a merge that would conflict on a hidden path.
var errMergeHidden = &exitError{msg: "error: this merge would change files hidden from this session\nAborting\n", code: 1}

// mergeContent merges two edits of a base blob (zero: none, as when both
// sides added the file) line by line and stores the result, conflict
// markers (size characters long) included; clean says it has none.
// Binary content is not merged.
func (r *repo) mergeContent(b, o, t plumbing.Hash, oursName, theirName string, size int) (h plumbing.Hash, clean, binary bool, err error) {
	var texts [3][]byte
	for i, id := range []plumbing.Hash{b, o, t} {
		data, err := r.blob(id)
		if err != nil {
			return h, false, false, err
		}
		if isBinary(data) {
			return h, false, true, nil
		}
		texts[i] = data
	}
	// The result is at most both sides and the markers, and the merge
	// holds every version split into lines with the diff's tables beside
	// them (mergeLineCost a line): all of it must fit in the line's memory
	// budget along with what is read (G-12.3). Counted here, before the
	// merge, so a merge too big for the budget ends the line whatever the
	// heap watchdog happens to see while it runs.
	lines := 0
	for _, text := range texts {
		lines += bytes.Count(text, []byte{'\n'}) + 1
	}
	if err := r.fits(int64(len(texts[1])+len(texts[2])) + int64(lines)*mergeLineCost); err != nil {
		return h, false, false, err
	}
	merged, conflicts := mergeText(texts[0], texts[1], texts[2], oursName, theirName, r.favor, size)
	h, err = r.writeObject(plumbing.BlobObject, merged)
	return h, conflicts == 0, false, err
}

// mergeLineCost is what a merge holds for one line of one version: its
// slice header in the split text and its entries in the diff's tables.
const mergeLineCost = 48

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
