package git

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// pickStop is a pick that conflicted: the commit, HEAD's tree and the
// merged tree with its conflicts.
type pickStop struct {
	c              *commit
	oursTree, tree plumbing.Hash
	res            *mergeResult
	empty          bool // the pick changes nothing HEAD does not have
}

func (p *pickStop) Error() string { return "conflict" }

// pickState is a cherry-pick or revert waiting to be concluded.
type pickState struct {
	name string        // "cherry-pick" or "revert"
	head plumbing.Hash // CHERRY_PICK_HEAD or REVERT_HEAD (zero: none)
	todo []string      // .git/sequencer/todo for a sequence (nil: none)
}

// headFile is the file naming the commit a pick of this kind stopped at.
func headFile(name string) string {
	if name == "revert" {
		return "REVERT_HEAD"
	}
	return "CHERRY_PICK_HEAD"
}

// pickInProgress reads the pick or revert waiting (nil: none).
func (r *repo) pickInProgress() *pickState {
	var st *pickState
	for _, name := range []string{"cherry-pick", "revert"} {
		if data, err := readFile(r.g.gitfs, r.gitDir+"/"+headFile(name)); err == nil {
			if h := plumbing.NewHash(strings.TrimSpace(string(data))); !h.IsZero() {
				st = &pickState{name: name, head: h}
				break
			}
		}
	}
	data, err := readFile(r.g.gitfs, r.gitDir+"/sequencer/todo")
	if err != nil {
		return st
	}
	todo := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(todo) == 0 || todo[0] == "" {
		return st
	}
	if st == nil {
		st = &pickState{name: "cherry-pick"}
		if strings.HasPrefix(todo[0], "revert ") {
			st.name = "revert"
		}
	}
	st.todo = todo
	return st
}

// stopPick leaves a conflicted pick as git does: the markers and stages,
// the commit in CHERRY_PICK_HEAD or REVERT_HEAD (not with --no-commit),
// its message in MERGE_MSG and, for a sequence, the commits left
// (this one first) in .git/sequencer; git's messages and status 1.
func (r *repo) stopPick(s *pickStop, o pickOptions, name string, todo []*commit, origHead plumbing.Hash) error {
	if err := r.writeConflicted(s.oursTree, s.tree, s.res); err != nil {
		return renamePickVerb(err, name)
	}
	files := [][2]string{{"MERGE_MSG", conflictMessage(pickMessage(s.c, o), s.res)}}
	if !o.noCommit {
		files = append(files, [2]string{headFile(name), s.c.Hash.String() + "\n"})
	}
	for _, f := range files {
		if err := writeFile(r.g.gitfs, r.gitDir+"/"+f[0], []byte(f[1]), 0o644); err != nil {
			return fatalf("could not write '%s': %s", r.gitDir+"/"+f[0], errText(err))
		}
	}
	if todo != nil {
		if err := r.writeSequencer(todo, o, origHead); err != nil {
			return err
		}
	}
	for _, m := range s.res.msgs {
		r.g.out.WriteString(m + "\n")
	}
	verb := "apply"
	if o.revert {
		verb = "revert"
	}
	msg := fmt.Sprintf("error: could not %s %s... %s\n", verb, r.abbrev(s.c.Hash), s.c.subject())
	if o.noCommit {
		msg += "hint: after resolving the conflicts, mark the corrected paths\nhint: with 'git add <paths>' or 'git rm <paths>'\n"
	} else {
		msg += fmt.Sprintf("hint: After resolving the conflicts, mark them with\nhint: \"git add/rm <pathspec>\", then run\nhint: \"git %[1]s --continue\".\nhint: You can instead skip this commit with \"git %[1]s --skip\".\nhint: To abort and get back to the state before \"git %[1]s\",\nhint: run \"git %[1]s --abort\".\n", name)
	}
	return &exitError{msg: msg, code: 1}
}

// stopEmptyPick stops at a commit whose change HEAD already has, as git
// does: a cherry-pick waits in CHERRY_PICK_HEAD with git's advice, a
// revert leaves only its message; both print the status (status 1).
func (r *repo) stopEmptyPick(c *commit, o pickOptions, name string, todo []*commit, origHead plumbing.Hash) error {
	files := [][2]string{{"MERGE_MSG", pickMessage(c, o)}}
	if !o.revert {
		files = append(files, [2]string{headFile(name), c.Hash.String() + "\n"})
	}
	for _, f := range files {
		if err := writeFile(r.g.gitfs, r.gitDir+"/"+f[0], []byte(f[1]), 0o644); err != nil {
			return fatalf("could not write '%s': %s", r.gitDir+"/"+f[0], errText(err))
		}
	}
	if todo != nil {
		if err := r.writeSequencer(todo, o, origHead); err != nil {
			return err
		}
	}
	st, _, err := r.collectStatus(false)
	if err != nil {
		return err
	}
	r.printLong(st, true)
	if o.revert {
		return exitStatus(1)
	}
	return &exitError{msg: emptyPickAdvice(false), code: 1}
}

// writeSequencer records a sequence's commits left, as git's todo lines,
// the commit it began at and HEAD now.
func (r *repo) writeSequencer(todo []*commit, o pickOptions, origHead plumbing.Hash) error {
	dir := r.gitDir + "/sequencer"
	if err := r.g.gitfs.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fatalf("could not create sequencer directory '%s': %s", dir, errText(err))
	}
	var b strings.Builder
	for _, c := range todo {
		word := "pick"
		if o.revert {
			word = "revert"
		}
		fmt.Fprintf(&b, "%s %s %s\n", word, r.abbrev(c.Hash), c.subject())
	}
	_, head, err := r.head()
	if err != nil {
		return err
	}
	files := [][2]string{{"todo", b.String()}, {"head", origHead.String() + "\n"}, {"abort-safety", head.String() + "\n"}}
	if o.recordOrigin {
		files = append(files, [2]string{"opts", "[options]\n\trecord-origin = true\n"})
	}
	for _, f := range files {
		if err := writeFile(r.g.gitfs, dir+"/"+f[0], []byte(f[1]), 0o644); err != nil {
			return fatalf("could not write '%s': %s", dir+"/"+f[0], errText(err))
		}
	}
	return nil
}

// removeSequencer forgets a sequence.
func (r *repo) removeSequencer() {
	dir := r.gitDir + "/sequencer"
	for _, name := range []string{"todo", "head", "abort-safety", "opts", "done"} {
		r.g.gitfs.Remove(dir + "/" + name)
	}
	r.g.gitfs.Remove(dir)
}

// checkNoPickInProgress refuses a new pick while one waits: with
// conflicts left, while a sequence is stopped, or with changes staged
// while a single pick waits to be committed.
func (r *repo) checkNoPickInProgress(name string) error {
	idx, err := r.loadIndex()
	if err != nil {
		return err
	}
	if hasUnmerged(idx) {
		verb := "Cherry-picking"
		if name == "revert" {
			verb = "Reverting"
		}
		return &exitError{msg: "error: " + verb + " is not possible because you have unmerged files.\n" +
			"hint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: " + name + " failed\n", code: 128}
	}
	st := r.pickInProgress()
	switch {
	case st == nil:
		return nil
	case st.todo != nil:
		return &exitError{msg: fmt.Sprintf("error: %[1]s is already in progress\nhint: try \"git %[1]s (--continue | --abort | --quit)\"\nfatal: %[1]s failed\n", st.name), code: 128}
	}
	head, err := r.headTree()
	if err != nil {
		return err
	}
	if !equalFlat(indexFlat(idx), head) {
		return &exitError{msg: "error: your local changes would be overwritten by " + name + ".\nhint: commit your changes or stash them to proceed.\nfatal: " + name + " failed\n", code: 128}
	}
	return nil
}

// equalFlat reports whether two flattened trees are the same.
func equalFlat(a, b map[string]flatEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for p, e := range a {
		if b[p] != e {
			return false
		}
	}
	return true
}

// pickAction is git cherry-pick or revert --continue, --skip, --abort
// or --quit.
func (r *repo) pickAction(action, name string) error {
	st := r.pickInProgress()
	if st == nil && action == "quit" {
		return nil
	}
	if st == nil {
		msg := "error: no cherry-pick or revert in progress\n"
		if action == "skip" {
			msg = "error: no " + name + " in progress\n"
		}
		return &exitError{msg: msg + "fatal: " + name + " failed\n", code: 128}
	}
	switch action {
	case "quit":
		r.clearMergeState()
		r.removeSequencer()
		return nil
	case "abort":
		return r.abortPick(st)
	case "skip":
		if !st.head.IsZero() {
			if err := r.resetMerge(plumbing.ZeroHash); err != nil {
				return err
			}
			r.clearMergeState()
		}
	default:
		if !st.head.IsZero() {
			if err := r.commitPick(); err != nil {
				return err
			}
		}
	}
	if st.todo == nil {
		return nil
	}
	return r.pickRest(st)
}

// commitPick is --continue's commit of the stopped pick, as git commit
// would make it with the message proposed.
func (r *repo) commitPick() error {
	return runCommit(r.g, nil)
}

// abortPick puts HEAD, the index and the worktree back where the pick
// or the sequence began.
func (r *repo) abortPick(st *pickState) error {
	_, head, err := r.head()
	if err != nil {
		return err
	}
	target := plumbing.ZeroHash
	if st.todo != nil {
		if data, err := readFile(r.g.gitfs, r.gitDir+"/sequencer/head"); err == nil {
			if h := plumbing.NewHash(strings.TrimSpace(string(data))); !h.IsZero() && h != head {
				target = h
			}
		}
	}
	if err := r.resetMerge(target); err != nil {
		return err
	}
	if err := r.writeRef("ORIG_HEAD", head); err != nil {
		return fatalf("%s", errText(err))
	}
	r.clearMergeState()
	r.removeSequencer()
	return nil
}

// pickRest picks the commits a stopped sequence has left after the one
// it stopped at.
func (r *repo) pickRest(st *pickState) error {
	o := pickOptions{revert: st.name == "revert"}
	if data, err := readFile(r.g.gitfs, r.gitDir+"/sequencer/opts"); err == nil {
		o.recordOrigin = strings.Contains(string(data), "record-origin = true")
	}
	var origHead plumbing.Hash
	if data, err := readFile(r.g.gitfs, r.gitDir+"/sequencer/head"); err == nil {
		origHead = plumbing.NewHash(strings.TrimSpace(string(data)))
	}
	var commits []*commit
	for _, line := range st.todo[1:] {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		h, err := r.resolveCommit(f[1])
		if err != nil {
			return fatalf("could not parse '%s'", line)
		}
		c, err := r.readCommit(h)
		if err != nil {
			return err
		}
		commits = append(commits, c)
	}
	return r.pickSequence(commits, o, st.name, true, origHead)
}
