package git

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
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
		// Quiet: git's messages go nowhere; errors and what a merge
		// says about files still speak.
		r.mergeOut = r.g.out
		r.g.out = bufio.NewWriter(io.Discard)
		defer func() { r.g.out = r.mergeOut }() // flushed when git ends
	}
	switch sub {
	case "push", "save":
		o, err := parseStashPush(sub, args)
		if err != nil {
			return err
		}
		return r.stashPush(o)
	case "list":
		return r.stashList()
	case "pop", "apply", "drop":
		keepIndex := false
		var refs []string
		for _, a := range args {
			switch {
			case a == "--index" && sub != "drop":
				keepIndex = true
			case strings.HasPrefix(a, "-") && a != "-":
				return unknownOption("stash "+sub, a)
			default:
				refs = append(refs, a)
			}
		}
		n, err := stashIndex(refs)
		if err != nil {
			return err
		}
		name := "refs/stash@{0}"
		if len(refs) > 0 {
			name = refs[0]
			if !strings.HasPrefix(name, "stash@{") {
				name = "stash@{" + name + "}"
			}
		}
		return r.stashTake(sub, n, name, keepIndex)
	case "show":
		var d diffOutput
		var refs []string
		for _, a := range args {
			switch a {
			case "-p", "-u", "--patch":
				d.patch = true
			case "--stat":
				d.stat = true
			case "--name-only":
				d.nameOnly = true
			case "--name-status":
				d.nameStatus = true
			case "--shortstat":
				d.shortstat = true
			default:
				if strings.HasPrefix(a, "-") {
					return unknownOption("stash show", a)
				}
				refs = append(refs, a)
			}
		}
		if !d.patch && !d.nameOnly && !d.nameStatus && !d.shortstat {
			d.stat = true
		}
		n, err := stashIndex(refs)
		if err != nil {
			return err
		}
		return r.stashShow(n, d)
	}
	return &exitError{msg: "git: 'stash " + sub + "' is not supported here\n", code: 1}
}

// stashPushOptions are git stash push's flags.
type stashPushOptions struct {
	msg              string
	paths            []string
	includeUntracked bool
	keepIndex        bool
}

func parseStashPush(sub string, args []string) (stashPushOptions, error) {
	var o stashPushOptions
	dashdash := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case dashdash:
			o.paths = append(o.paths, a)
		case a == "--":
			dashdash = true
		case a == "-m" || a == "--message":
			if i+1 >= len(args) {
				return o, usageErr("error: switch `m' requires a value\n")
			}
			i++
			o.msg = args[i]
		case strings.HasPrefix(a, "--message="):
			o.msg = strings.TrimPrefix(a, "--message=")
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			o.msg = a[2:]
		case a == "-u" || a == "--include-untracked":
			o.includeUntracked = true
		case a == "-k" || a == "--keep-index":
			o.keepIndex = true
		case a == "--no-keep-index":
			o.keepIndex = false
		case a == "-q" || a == "--quiet":
		case strings.HasPrefix(a, "-"):
			return o, &exitError{msg: "git: 'stash push " + a + "' is not supported here\n", code: 1}
		case sub == "save":
			o.msg = strings.Join(args[i:], " ")
			i = len(args)
		default:
			o.paths = append(o.paths, a)
		}
	}
	return o, nil
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
	data, err := readFile(r.g.gitfs, r.gitDir+"/logs/refs/stash")
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

// stashPush saves the index and the worktree's tracked changes (and,
// with -u, the untracked files) as a stash commit, then takes them out of
// the worktree: all of them, or only the paths the pathspecs name. As in
// git, the worktree commit holds the whole index plus the named paths'
// worktree versions.
func (r *repo) stashPush(o stashPushOptions) error {
	st, idx, err := r.collectStatus(o.includeUntracked)
	if err != nil {
		return err
	}
	if len(st.unmerged) > 0 {
		for _, u := range st.unmerged {
			fmt.Fprintf(r.g.errw, "%s: needs merge\n", u.path)
		}
		return &exitError{msg: "error: could not write index\n", code: 1}
	}
	headFlat, err := r.headTree()
	if err != nil {
		return err
	}
	var specs []pathspec
	if len(o.paths) > 0 {
		if specs, err = r.pathspecs(o.paths); err != nil {
			return err
		}
		if err := r.checkStashSpecs(specs, idx, headFlat, st); err != nil {
			return err
		}
		st.filter(specs)
	}
	var untracked []string
	if o.includeUntracked {
		untracked = st.scan.untracked
	}
	if len(st.staged) == 0 && len(st.unstaged) == 0 && len(untracked) == 0 {
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
	workTree, err := r.stashWorkTree(idx, specs)
	if err != nil {
		return err
	}
	parents := []plumbing.Hash{head, ih}
	if len(untracked) > 0 {
		uh, err := r.stashUntracked(untracked, title, author, committer)
		if err != nil {
			return err
		}
		parents = append(parents, uh)
	}
	label := "WIP on " + title
	if o.msg != "" {
		label = "On " + where + ": " + o.msg
	}
	// git writes the worktree commit's message without a final newline.
	wc := &commit{Tree: workTree, Parents: parents, Author: author, Committer: committer, Message: label}
	wh, err := r.writeObject(plumbing.CommitObject, wc.encode())
	if err != nil {
		return fatalf("%s", errText(err))
	}
	if err := r.stashClean(head, headFlat, specs, untracked, o.keepIndex); err != nil {
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

// checkStashSpecs makes every pathspec name a path git knows (the index,
// HEAD) or, with -u, an untracked file, as git stash push requires.
func (r *repo) checkStashSpecs(specs []pathspec, idx *index.Index, headFlat map[string]flatEntry, st *status) error {
	for _, sp := range specs {
		found := false
		for _, e := range idx.Entries {
			if found = sp.match(e.Name) && !r.hiddenPath(e.Name); found {
				break
			}
		}
		for p := range headFlat {
			if found {
				break
			}
			found = sp.match(p) && !r.hiddenPath(p)
		}
		for _, p := range st.scan.untracked {
			if found {
				break
			}
			found = sp.match(strings.TrimSuffix(p, "/"))
		}
		if !found {
			return &exitError{msg: fmt.Sprintf("error: pathspec ':(,prefix:0)%s' did not match any file(s) known to git\nDid you forget to 'git add'?\n", sp.arg), code: 1}
		}
	}
	return nil
}

// stashWorkTree stores the stash's worktree tree: the index with the
// worktree's version of every tracked path (of the named ones, given
// pathspecs), and of every path HEAD has that the index lost (git rm
// --cached) while the file is still there, as git's update-index --add
// takes it.
func (r *repo) stashWorkTree(idx *index.Index, specs []pathspec) (plumbing.Hash, error) {
	work, err := r.worktreeFlat(idx)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	flat := indexFlat(idx)
	for p := range flat {
		if _, ok := work.entries[p]; !ok && (specs == nil || matchAny(specs, p)) {
			delete(flat, p) // gone from the worktree
		}
	}
	for p, e := range work.entries {
		if specs != nil && !matchAny(specs, p) {
			continue
		}
		if ie := flat[p]; ie.Hash != e.Hash {
			data, err := work.load(p, e)
			if err != nil {
				return plumbing.ZeroHash, &exitError{msg: fmt.Sprintf("error: %s: %s\nCannot save the current worktree state\n", p, errText(err)), code: 1}
			}
			if _, err := r.writeObject(plumbing.BlobObject, data); err != nil {
				return plumbing.ZeroHash, fatalf("%s", errText(err))
			}
		}
		flat[p] = e
	}
	if err := r.stashUnindexed(idx, specs, flat); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.writeFlatTree(flat)
}

// stashUnindexed adds to a stash's worktree tree the files HEAD has, the
// index lacks and the worktree still holds (hidden ones are never read).
func (r *repo) stashUnindexed(idx *index.Index, specs []pathspec, flat map[string]flatEntry) error {
	head, err := r.headTree()
	if err != nil {
		return err
	}
	inIndex := map[string]bool{}
	for _, e := range idx.Entries {
		inIndex[e.Name] = true
	}
	for p := range head {
		if inIndex[p] || specs != nil && !matchAny(specs, p) || r.hiddenPath(p) {
			continue
		}
		info, err := r.g.fsys.Lstat(r.abs(p))
		if err != nil || info.IsDir() {
			continue
		}
		data, err := r.workContent(p, info)
		if err != nil {
			return &exitError{msg: fmt.Sprintf("error: %s: %s\nCannot save the current worktree state\n", p, errText(err)), code: 1}
		}
		h, err := r.writeObject(plumbing.BlobObject, data)
		if err != nil {
			return fatalf("%s", errText(err))
		}
		flat[p] = flatEntry{Hash: h, Mode: modeOf(info)}
	}
	return nil
}

// stashUntracked stores the untracked files as the stash's third parent:
// a commit of them alone, as git stash -u makes.
func (r *repo) stashUntracked(paths []string, title string, author, committer signature) (plumbing.Hash, error) {
	flat := map[string]flatEntry{}
	for _, p := range paths {
		info, err := r.g.fsys.Lstat(r.abs(p))
		if err != nil {
			return plumbing.ZeroHash, &exitError{msg: fmt.Sprintf("error: %s: %s\nCannot save the untracked files\n", p, errText(err)), code: 1}
		}
		data, err := r.workContent(p, info)
		if err != nil {
			return plumbing.ZeroHash, &exitError{msg: fmt.Sprintf("error: %s: %s\nCannot save the untracked files\n", p, errText(err)), code: 1}
		}
		h, err := r.writeObject(plumbing.BlobObject, data)
		if err != nil {
			return plumbing.ZeroHash, fatalf("%s", errText(err))
		}
		flat[p] = flatEntry{Hash: h, Mode: modeOf(info)}
	}
	tree, err := r.writeFlatTree(flat)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	uc := &commit{Tree: tree, Author: author, Committer: committer, Message: "untracked files on " + title + "\n"}
	h, err := r.writeObject(plumbing.CommitObject, uc.encode())
	if err != nil {
		return plumbing.ZeroHash, fatalf("%s", errText(err))
	}
	return h, nil
}

// stashClean takes the stashed changes out: the worktree and the index go
// back to HEAD (only the named paths, given pathspecs; with --keep-index
// the index's versions stay, in the index and the worktree), and stashed
// untracked files are removed.
func (r *repo) stashClean(head plumbing.Hash, headFlat map[string]flatEntry, specs []pathspec, untracked []string, keepIndex bool) error {
	if specs == nil && !keepIndex {
		if err := r.resetTo(head, "hard", true); err != nil {
			return err
		}
	} else {
		ed, err := r.editIndex()
		if err != nil {
			return err
		}
		defer ed.lock.release()
		target := headFlat
		if keepIndex {
			target = indexFlat(ed.idx)
		}
		s := newScanner(r, ed.idx)
		sc, err := s.run()
		if err != nil {
			return err
		}
		paths := map[string]bool{}
		for p := range ed.entries {
			paths[p] = true
		}
		for p := range headFlat {
			paths[p] = true
		}
		var todo []string
		for _, p := range sortedKeys(paths) {
			if (specs != nil && !matchAny(specs, p)) || sc.hidden[p] || r.hiddenPath(p) {
				continue
			}
			e, inIndex := ed.entries[p]
			t, inTarget := target[p]
			if inIndex == inTarget && (!inIndex || e.Hash == t.Hash && e.Mode == t.Mode) && sc.tracked[p] == wtSame {
				continue
			}
			todo = append(todo, p)
		}
		for _, p := range todo {
			if err := r.checkWritable(p, target); err != nil {
				return err
			}
		}
		for _, p := range todo {
			if err := r.applyPath(p, target, ed.entries); err != nil {
				return err
			}
		}
		if err := ed.commit(); err != nil {
			return err
		}
	}
	for _, p := range untracked {
		if err := r.g.fsys.Remove(r.abs(p)); err != nil {
			return fatalf("could not remove '%s': %s", p, errText(err))
		}
		r.pruneDirs(path.Dir(p))
	}
	return nil
}

// appendLog adds one reflog line.
func (r *repo) appendLog(name string, old, new plumbing.Hash, who signature, msg string) {
	p := r.gitDir + "/" + name
	mkdirAll(r.g.gitfs, p[:strings.LastIndexByte(p, '/')], 0o777)
	prev, _ := readFile(r.g.gitfs, p)
	when := who.When
	if when.IsZero() {
		when = time.Now().UTC()
	}
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, new, who.Name, who.Email, when.Unix(), when.Format("-0700"), msg)
	writeFile(r.g.gitfs, p, append(prev, line...), 0o644)
}

// stashTake applies entry n (pop, apply) and drops it (pop, drop).
func (r *repo) stashTake(how string, n int, name string, keepIndex bool) error {
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
		err := r.stashApply(e.hash, keepIndex)
		refusal, refused := err.(*stashRefusal)
		if err != nil && !refused {
			return err
		}
		if !refused || !refusal.noStatus {
			st, _, serr := r.collectStatus(false)
			if serr != nil {
				return serr
			}
			r.printLong(st, false)
		}
		if err != nil {
			if how == "pop" {
				r.g.out.WriteString("The stash entry is kept in case you need it again.\n")
			}
			if msg := refusal.msg; msg != "" {
				return exitErrorOf(msg)
			}
			return exitStatus(1)
		}
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
		r.g.gitfs.Remove(r.gitDir + "/logs/refs/stash")
	} else {
		f := strings.Fields(keep[len(keep)-1])
		r.setRef(stashRef, plumbing.NewHash(f[1]))
		writeFile(r.g.gitfs, r.gitDir+"/logs/refs/stash", []byte(strings.Join(keep, "\n")+"\n"), 0o644)
	}
	fmt.Fprintf(r.g.out, "Dropped %s (%s)\n", name, e.hash)
	return nil
}

// stashApply brings a stash's changes into the worktree: every path the
// stash changed from its base is written (or removed), files its index
// added are added again, and its untracked files come back. With --index
// the index gets the stash's index versions too. It refuses when the
// worktree or index has changes of its own on those paths (a path that
// already holds what the stash brings is left as it is).
func (r *repo) stashApply(w plumbing.Hash, keepIndex bool) error {
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
	if moved, err := r.indexMoved(baseFlat); err != nil || moved {
		if err != nil {
			return err
		}
		return r.stashMergeApply(stashFlats{baseFlat, indexFlatT, workFlat}, wc, keepIndex)
	}
	ed, err := r.editIndex()
	if err != nil {
		return err
	}
	defer ed.lock.release()
	if hasUnmerged(ed.idx) {
		return &exitError{msg: "error: could not write index\n", code: 1}
	}
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
	if keepIndex {
		changed = append(changed, differing(baseFlat, indexFlatT)...)
	}
	changed = dedupe(changed)
	s := newScanner(r, ed.idx)
	sc, err := s.run()
	if err != nil {
		return err
	}
	var local, todo []string
	merges := map[string]*stashMerge{}
	for _, p := range changed {
		if r.hiddenPath(p) {
			return &exitError{msg: "error: this stash would change files hidden from this session\n", code: 1}
		}
		want, inStash := workFlat[p]
		cur, inIndex := ed.entries[p]
		if inIndex == inStash && (!inIndex || cur.Hash == want.Hash && cur.Mode == want.Mode && sc.tracked[p] == wtSame) && !keepIndex {
			continue // already as the stash has it
		}
		todo = append(todo, p)
		dirty := sc.tracked[p] != wtSame && sc.tracked[p] != wtDeleted || inIndex && headFlat[p].Hash != cur.Hash
		if !dirty && headFlat[p] != baseFlat[p] && !keepIndex {
			// HEAD moved since the stash: both changes merged, as git does.
			m, err := r.mergeStashed(baseFlat[p], headFlat[p], want)
			if err != nil {
				return err
			}
			if m != nil {
				merges[p] = m
				continue
			}
		}
		if dirty || headFlat[p] != baseFlat[p] {
			local = append(local, p)
		}
	}
	if len(local) > 0 {
		return &stashRefusal{msg: "error: Your local changes to the following files would be overwritten by merge:\n\t" + strings.Join(local, "\n\t") + "\nPlease commit your changes or stash them before you merge.\nAborting\n"}
	}
	if err := r.checkStashWrites(wc, todo, workFlat); err != nil {
		return err
	}
	if len(differing(baseFlat, workFlat)) == 0 {
		r.g.out.WriteString("Already up to date.\n")
	}
	conflicts, err := r.stashWrites(ed, todo, merges, [3]map[string]flatEntry{baseFlat, indexFlatT, workFlat}, keepIndex)
	if err != nil {
		return err
	}
	if err := ed.commit(); err != nil {
		return err
	}
	if len(wc.Parents) > 2 {
		// git brings the untracked files back after the tracked ones.
		if err := r.restoreUntracked(wc.Parents[2]); err != nil {
			return err
		}
	}
	if len(conflicts) > 0 {
		return &stashRefusal{}
	}
	return nil
}

// stashWrites writes an apply's paths (todo) to the worktree and the
// index: merged files as their merge left them (conflicts as stages 1-3,
// returned), the others as the stash has them (flats: its base, index
// and worktree trees).
func (r *repo) stashWrites(ed *indexEdit, todo []string, merges map[string]*stashMerge, flats [3]map[string]flatEntry, keepIndex bool) ([]string, error) {
	baseFlat, indexFlatT, workFlat := flats[0], flats[1], flats[2]
	var conflicts []string
	said := r.g.out // what a merge says about files, even with -q
	if r.mergeOut != nil {
		said = r.mergeOut
	}
	for _, p := range todo {
		fe, ok := workFlat[p]
		if m := merges[p]; m != nil {
			said.WriteString("Auto-merging " + p + "\n")
			if _, err := r.writeWorkFile(p, m.result); err != nil {
				return nil, err
			}
			if m.clean {
				if cur := ed.entries[p]; cur != nil {
					cur.ModifiedAt = cur.ModifiedAt.Add(-time.Nanosecond) // content changed: stat must not match
				}
				continue
			}
			said.WriteString("CONFLICT (content): Merge conflict in " + p + "\n")
			conflicts = append(conflicts, p)
			delete(ed.entries, p)
			for i, st := range m.stages {
				ed.idx.Entries = append(ed.idx.Entries, &index.Entry{Name: p, Hash: st.Hash, Mode: st.Mode, Stage: index.Stage(i + 1)})
			}
			continue
		}
		if !ok {
			r.g.fsys.Remove(r.abs(p))
			r.pruneDirs(path.Dir(p))
			delete(ed.entries, p)
			if ie, inIndex := indexFlatT[p]; inIndex && (keepIndex || baseFlat[p].Mode == 0) {
				ed.entries[p] = &index.Entry{Name: p, Hash: ie.Hash, Mode: ie.Mode}
			}
			continue
		}
		e, err := r.writeWorkFile(p, fe)
		if err != nil {
			return nil, err
		}
		_, inBase := baseFlat[p]
		ie, inIndexT := indexFlatT[p]
		switch {
		case keepIndex && !inIndexT:
			delete(ed.entries, p)
		case keepIndex || inIndexT && !inBase:
			if ie != fe {
				e.ModifiedAt = e.ModifiedAt.Add(-time.Nanosecond) // the worktree differs: stat must not match
			}
			e.Hash, e.Mode = ie.Hash, ie.Mode
			ed.entries[p] = e
		default:
			if cur := ed.entries[p]; cur != nil {
				cur.ModifiedAt = cur.ModifiedAt.Add(-time.Nanosecond) // content changed: stat must not match
			}
		}
	}
	return conflicts, nil
}

// stashMerge is a stashed change merged with HEAD's since the stash: the
// file the worktree gets and, when it conflicts, the index stages.
type stashMerge struct {
	result flatEntry
	clean  bool
	stages [3]flatEntry
}

// mergeStashed merges a file's stashed change (base to work) into HEAD's
// version, line by line as git's stash apply does ("Updated upstream"
// against "Stashed changes"); nil when it cannot be merged that way (a
// side deleted or added it, a mode, a binary file), which is refused.
func (r *repo) mergeStashed(base, head, work flatEntry) (*stashMerge, error) {
	for _, e := range []flatEntry{base, head, work} {
		if !isFileMode(e.Mode) {
			return nil, nil
		}
	}
	if base.Mode != head.Mode || base.Mode != work.Mode {
		return nil, nil
	}
	h, clean, binary, err := r.mergeContent(base.Hash, head.Hash, work.Hash, "Updated upstream", "Stashed changes", 7)
	if err != nil || binary {
		return nil, err
	}
	return &stashMerge{result: flatEntry{Hash: h, Mode: head.Mode}, clean: clean, stages: [3]flatEntry{base, head, work}}, nil
}

// stashRefusal is an apply that could not be done: git then prints the
// status (unless noStatus: it stopped before the merge), and pop keeps
// the entry.
type stashRefusal struct {
	msg      string
	noStatus bool
}

func (e *stashRefusal) Error() string { return e.msg }

// checkStashWrites judges every write an apply will make, the tracked
// paths (todo, to workFlat's versions) and the untracked files it brings
// back, before the first is made (G-6.1).
func (r *repo) checkStashWrites(wc *commit, todo []string, workFlat map[string]flatEntry) error {
	for _, p := range todo {
		if err := r.checkWritable(p, workFlat); err != nil {
			return err
		}
	}
	if len(wc.Parents) < 3 {
		return nil
	}
	tree, err := r.commitTree(wc.Parents[2])
	if err != nil {
		return err
	}
	untracked, err := r.flatten(tree)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(untracked))
	for p := range untracked {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		if r.hiddenPath(p) {
			continue // refused by the restore, before it writes
		}
		if err := r.checkWritable(p, untracked); err != nil {
			return err
		}
	}
	return nil
}

// exitErrorOf is a refusal's message as git's exit (status 1).
func exitErrorOf(msg string) error { return &exitError{msg: msg, code: 1} }

// restoreUntracked writes a stash's untracked files back, refusing (as
// git does) when one is already there.
func (r *repo) restoreUntracked(u plumbing.Hash) error {
	tree, err := r.commitTree(u)
	if err != nil {
		return err
	}
	flat, err := r.flatten(tree)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(flat))
	for p := range flat {
		if r.hiddenPath(p) {
			return &exitError{msg: "error: this stash would change files hidden from this session\n", code: 1}
		}
		names = append(names, p)
	}
	sort.Strings(names)
	var there []string
	for _, p := range names {
		if _, err := r.g.fsys.Lstat(r.abs(p)); err == nil {
			there = append(there, p)
		}
	}
	if len(there) > 0 {
		var msg strings.Builder
		for _, p := range there {
			fmt.Fprintf(&msg, "%s already exists, no checkout\n", p)
		}
		msg.WriteString("error: could not restore untracked files from stash\n")
		return &stashRefusal{msg: msg.String()}
	}
	for _, p := range names {
		if _, err := r.writeWorkFile(p, flat[p]); err != nil {
			return err
		}
	}
	return nil
}

// stashShow prints what a stash changed from its base: a diffstat, or
// what the flags ask for.
func (r *repo) stashShow(n int, d diffOutput) error {
	entries, _, err := r.stashEntries()
	if err != nil {
		return err
	}
	if n >= len(entries) {
		if len(entries) == 0 {
			return &exitError{msg: "No stash entries found.\n", code: 1}
		}
		return fatalf("stash@{%d} is not a valid reference", n)
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
	return r.printDiff(changes, d, nil)
}
