package git

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// The stash is git's: refs/stash names the newest entry, a commit of the
// worktree whose parents are HEAD and a commit of the index; its reflog
// (.git/logs/refs/stash) lists the entries, newest last.

const stashRef = plumbing.ReferenceName("refs/stash")

func runStash(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	sub := "push"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	quiet := false
	var kept []string
	for _, a := range args {
		if a == "-q" || a == "--quiet" {
			quiet = true
			continue
		}
		kept = append(kept, a)
	}
	args = kept
	if quiet {
		// Quiet: git's messages go nowhere; errors still speak.
		r.g.out = bufio.NewWriter(io.Discard)
	}
	switch sub {
	case "push", "save":
		msg := ""
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case a == "-m" || a == "--message":
				if i+1 >= len(args) {
					return usageErr("error: switch `m' requires a value\n")
				}
				i++
				msg = args[i]
			case a == "-q" || a == "--quiet":
			case strings.HasPrefix(a, "-"):
				return &exitError{msg: "git: 'stash push " + a + "' is not supported here\n", code: 1}
			default:
				if sub == "save" {
					msg = strings.Join(args[i:], " ")
					i = len(args)
					continue
				}
				return &exitError{msg: "git: 'stash push' of paths is not supported here\n", code: 1}
			}
		}
		return r.stashPush(msg)
	case "list":
		return r.stashList()
	case "pop", "apply", "drop":
		n, err := stashIndex(args)
		if err != nil {
			return err
		}
		name := "refs/stash@{0}"
		if len(args) > 0 {
			name = args[0]
			if !strings.HasPrefix(name, "stash@{") {
				name = "stash@{" + name + "}"
			}
		}
		return r.stashTake(sub, n, name)
	case "show":
		n, err := stashIndex(args)
		if err != nil {
			return err
		}
		return r.stashShow(n)
	}
	return &exitError{msg: "git: 'stash " + sub + "' is not supported here\n", code: 1}
}

// stashIndex reads "stash@{N}" or "N" (0 by default).
func stashIndex(args []string) (int, error) {
	if len(args) == 0 {
		return 0, nil
	}
	a := strings.TrimSuffix(strings.TrimPrefix(args[0], "stash@{"), "}")
	n, err := strconv.Atoi(a)
	if err != nil || n < 0 {
		return 0, fatalf("'%s' is not a stash-like commit", args[0])
	}
	return n, nil
}

// stashEntries reads the stash's reflog, newest first: each entry's
// commit and message.
func (r *repo) stashEntries() ([]stashEntry, []string, error) {
	data, err := readFile(r.g.fsys, r.gitDir+"/logs/refs/stash")
	if err != nil {
		return nil, nil, nil
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	var out []stashEntry
	for i := len(lines) - 1; i >= 0; i-- {
		head, msg, _ := strings.Cut(lines[i], "\t")
		f := strings.Fields(head)
		if len(f) < 2 {
			continue
		}
		out = append(out, stashEntry{hash: plumbing.NewHash(f[1]), msg: msg})
	}
	return out, lines, nil
}

type stashEntry struct {
	hash plumbing.Hash
	msg  string
}

func (r *repo) stashList() error {
	entries, _, err := r.stashEntries()
	if err != nil {
		return err
	}
	for i, e := range entries {
		fmt.Fprintf(r.g.out, "stash@{%d}: %s\n", i, e.msg)
	}
	return nil
}

func (r *repo) stashPush(msg string) error {
	st, idx, err := r.collectStatus(false)
	if err != nil {
		return err
	}
	if len(st.staged) == 0 && len(st.unstaged) == 0 {
		fmt.Fprintln(r.g.out, "No local changes to save")
		return nil
	}
	branch, head, err := r.head()
	if err != nil {
		return err
	}
	if head.IsZero() {
		return fatalf("You do not have the initial commit yet")
	}
	hc, err := r.readCommit(head)
	if err != nil {
		return err
	}
	where := "(no branch)"
	if branch != "" {
		where = branch.Short()
	}
	title := fmt.Sprintf("%s: %s %s", where, r.abbrev(head), hc.subject())
	author, committer, err := r.identities()
	if err != nil {
		return err
	}
	indexTree, err := r.writeTreeFromIndex(idx)
	if err != nil {
		return fatalf("%s", errText(err))
	}
	ic := &commit{Tree: indexTree, Parents: []plumbing.Hash{head}, Author: author, Committer: committer, Message: "index on " + title + "\n"}
	ih, err := r.writeObject(plumbing.CommitObject, ic.encode())
	if err != nil {
		return fatalf("%s", errText(err))
	}
	// The worktree's tracked files, as they are now.
	work, err := r.worktreeFlat(idx)
	if err != nil {
		return err
	}
	for p, e := range work.entries {
		if e.Hash == (plumbing.Hash{}) {
			continue
		}
		if ie := indexFlat(idx)[p]; ie.Hash == e.Hash {
			continue
		}
		data, err := work.load(p, e)
		if err != nil {
			return &exitError{msg: fmt.Sprintf("error: %s: %s\nCannot save the current worktree state\n", p, errText(err)), code: 1}
		}
		if _, err := r.writeObject(plumbing.BlobObject, data); err != nil {
			return fatalf("%s", errText(err))
		}
	}
	workTree, err := r.writeFlatTree(work.entries)
	if err != nil {
		return err
	}
	label := "WIP on " + title
	if msg != "" {
		label = "On " + where + ": " + msg
	}
	// git writes the worktree commit's message without a final newline.
	wc := &commit{Tree: workTree, Parents: []plumbing.Hash{head, ih}, Author: author, Committer: committer, Message: label}
	wh, err := r.writeObject(plumbing.CommitObject, wc.encode())
	if err != nil {
		return fatalf("%s", errText(err))
	}
	if err := r.resetTo(head, "hard", true); err != nil {
		return err
	}
	old := plumbing.ZeroHash
	if ref, err := r.st.Reference(stashRef); err == nil {
		old = ref.Hash()
	}
	if err := r.setRef(stashRef, wh); err != nil {
		return err
	}
	r.appendLog("logs/refs/stash", old, wh, committer, label)
	fmt.Fprintf(r.g.out, "Saved working directory and index state %s\n", label)
	return nil
}

// appendLog adds one reflog line.
func (r *repo) appendLog(name string, old, new plumbing.Hash, who signature, msg string) {
	p := r.gitDir + "/" + name
	mkdirAll(r.g.fsys, p[:strings.LastIndexByte(p, '/')], 0o777)
	prev, _ := readFile(r.g.fsys, p)
	when := who.When
	if when.IsZero() {
		when = time.Now().UTC()
	}
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, new, who.Name, who.Email, when.Unix(), when.Format("-0700"), msg)
	writeFile(r.g.fsys, p, append(prev, line...), 0o644)
}

// stashTake applies entry n (pop, apply) and drops it (pop, drop).
func (r *repo) stashTake(how string, n int, name string) error {
	entries, lines, err := r.stashEntries()
	if err != nil {
		return err
	}
	if n >= len(entries) {
		if len(entries) == 0 {
			if how == "drop" {
				return &exitError{msg: "No stash entries found.\n", code: 1}
			}
			return &exitError{msg: "No stash entries found.\n", code: 1}
		}
		return fatalf("stash@{%d} is not a valid reference", n)
	}
	e := entries[n]
	if how != "drop" {
		if err := r.stashApply(e.hash); err != nil {
			return err
		}
		st, _, err := r.collectStatus(false)
		if err != nil {
			return err
		}
		r.printLong(st, false)
	}
	if how == "apply" {
		return nil
	}
	// Drop: remove the line, point refs/stash at the next newest.
	keep := make([]string, 0, len(lines))
	pos := len(lines) - 1 - n
	keep = append(keep, lines[:pos]...)
	keep = append(keep, lines[pos+1:]...)
	if len(keep) == 0 {
		r.st.RemoveReference(stashRef)
		r.g.fsys.Remove(r.gitDir + "/logs/refs/stash")
	} else {
		f := strings.Fields(keep[len(keep)-1])
		r.setRef(stashRef, plumbing.NewHash(f[1]))
		writeFile(r.g.fsys, r.gitDir+"/logs/refs/stash", []byte(strings.Join(keep, "\n")+"\n"), 0o644)
	}
	fmt.Fprintf(r.g.out, "Dropped %s (%s)\n", name, e.hash)
	return nil
}

// stashApply brings a stash's changes into the worktree: every path the
// stash changed from its base is written (or removed), and files its
// index added are added again. It refuses when the worktree or index has
// changes of its own on those paths.
func (r *repo) stashApply(w plumbing.Hash) error {
	wc, err := r.readCommit(w)
	if err != nil || len(wc.Parents) < 2 {
		return fatalf("'%s' is not a stash-like commit", w)
	}
	base, err := r.commitTree(wc.Parents[0])
	if err != nil {
		return err
	}
	ic, err := r.readCommit(wc.Parents[1])
	if err != nil {
		return err
	}
	baseFlat, err := r.flatten(base)
	if err != nil {
		return err
	}
	workFlat, err := r.flatten(wc.Tree)
	if err != nil {
		return err
	}
	indexFlatT, err := r.flatten(ic.Tree)
	if err != nil {
		return err
	}
	ed, err := r.editIndex()
	if err != nil {
		return err
	}
	defer ed.lock.release()
	headFlat, err := r.headTree()
	if err != nil {
		return err
	}
	changed := differing(baseFlat, workFlat)
	for p := range indexFlatT {
		if _, inBase := baseFlat[p]; !inBase {
			changed = append(changed, p)
		}
	}
	changed = dedupe(changed)
	s := newScanner(r, ed.idx)
	sc, err := s.run()
	if err != nil {
		return err
	}
	var local []string
	for _, p := range changed {
		if r.hiddenPath(p) {
			return &exitError{msg: "error: this stash would change files hidden from this session\n", code: 1}
		}
		if headFlat[p] != baseFlat[p] || sc.tracked[p] != wtSame && sc.tracked[p] != wtDeleted || func() bool { _, ok := ed.entries[p]; return ok && headFlat[p].Hash != ed.entries[p].Hash }() {
			local = append(local, p)
		}
	}
	if len(local) > 0 {
		return &exitError{msg: "error: Your local changes to the following files would be overwritten by merge:\n\t" + strings.Join(local, "\n\t") + "\nPlease commit your changes or stash them before you merge.\nAborting\n", code: 1}
	}
	for _, p := range changed {
		fe, ok := workFlat[p]
		if !ok {
			if _, inIndex := indexFlatT[p]; !inIndex {
				r.g.fsys.Remove(r.abs(p))
				delete(ed.entries, p)
			}
			continue
		}
		e, err := r.writeWorkFile(p, fe)
		if err != nil {
			return err
		}
		_, inBase := baseFlat[p]
		if ie, added := indexFlatT[p]; added && !inBase {
			e.Hash, e.Mode = ie.Hash, ie.Mode
			ed.entries[p] = e
		} else if cur := ed.entries[p]; cur != nil {
			cur.ModifiedAt = cur.ModifiedAt.Add(-time.Nanosecond) // content changed: stat must not match
		}
	}
	return ed.commit()
}

func (r *repo) stashShow(n int) error {
	entries, _, err := r.stashEntries()
	if err != nil {
		return err
	}
	if n >= len(entries) {
		return &exitError{msg: "No stash entries found.\n", code: 1}
	}
	wc, err := r.readCommit(entries[n].hash)
	if err != nil {
		return err
	}
	base, err := r.commitTree(wc.Parents[0])
	if err != nil {
		return err
	}
	changes, err := r.treeChanges(base, wc.Tree)
	if err != nil {
		return err
	}
	r.printStat(changes, false)
	return nil
}
