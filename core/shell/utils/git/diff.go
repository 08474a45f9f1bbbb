package git

import (
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// diffOptions are git diff's flags.
type diffOptions struct {
	out      diffOutput
	cached   bool
	exitCode bool
	quiet    bool
	revs     []string
	paths    []string
}

func parseDiffArgs(r *repo, args []string) (diffOptions, error) {
	var o diffOptions
	dashdash := false
	patch := false
	for _, a := range args {
		switch {
		case dashdash:
			o.paths = append(o.paths, a)
		case a == "--":
			dashdash = true
		case a == "--cached" || a == "--staged":
			o.cached = true
		case a == "--stat":
			o.out.stat = true
		case a == "--shortstat":
			o.out.shortstat = true
		case a == "--name-only":
			o.out.nameOnly = true
		case a == "--name-status":
			o.out.nameStatus = true
		case a == "-p" || a == "-u" || a == "--patch":
			patch = true
		case a == "--exit-code":
			o.exitCode = true
		case a == "--quiet":
			o.quiet, o.exitCode = true, true
		case a == "--no-color" || a == "--color=never" || a == "--no-ext-diff":
		case a == "-M" || a == "--find-renames":
			// Renames are found by default, at git's 50% similarity.
		case strings.HasPrefix(a, "-U") || strings.HasPrefix(a, "--unified") || strings.HasPrefix(a, "--word-diff") || a == "--numstat" || strings.HasPrefix(a, "--diff-filter="):
			if _, err := o.out.parsePatchOption(a); err != nil {
				return o, err
			}
			patch = patch || o.out.patch
		case strings.HasPrefix(a, "-"):
			return o, unknownOption("diff", a)
		default:
			if _, err := r.resolveRevArg(a); err == nil && len(o.paths) == 0 {
				o.revs = append(o.revs, a)
				continue
			}
			if _, ok := r.workPath(a); ok && r.existsInWorktreeOrIndex(a) {
				o.paths = append(o.paths, a)
				continue
			}
			return o, errBadRev(a)
		}
	}
	o.out.patch = patch || !(o.out.stat || o.out.shortstat || o.out.nameOnly || o.out.nameStatus || o.out.numstat)
	return o, nil
}

// resolveRevArg resolves a revision or a range's ends.
func (r *repo) resolveRevArg(a string) (plumbing.Hash, error) {
	if from, to, ok := strings.Cut(a, ".."); ok {
		if _, err := r.resolveCommit(orHead(strings.TrimPrefix(from, "."))); err != nil {
			return plumbing.ZeroHash, err
		}
		return r.resolveCommit(orHead(strings.TrimPrefix(to, ".")))
	}
	return r.resolveCommit(a)
}

// existsInWorktreeOrIndex says whether an operand names something git
// knows as a path (for telling paths from revisions without "--").
func (r *repo) existsInWorktreeOrIndex(a string) bool {
	if _, err := r.g.fsys.Lstat(r.g.env.Abs(a)); err == nil {
		return true
	}
	p, _ := r.workPath(a)
	idx, err := r.loadIndex()
	if err != nil {
		return false
	}
	for _, e := range idx.Entries {
		if e.Name == p || strings.HasPrefix(e.Name, p+"/") {
			return !r.hiddenPath(e.Name)
		}
	}
	return false
}

func runDiff(g *cmd, args []string) error {
	noIndex := false
	for _, a := range args {
		if a == "--" {
			break
		}
		noIndex = noIndex || a == "--no-index"
	}
	r, err := g.findRepo()
	if noIndex || err == errNotRepo {
		return runDiffNoIndex(g, args, noIndex)
	}
	if err != nil {
		return err
	}
	o, err := parseDiffArgs(r, args)
	if err != nil {
		return err
	}
	var specs []pathspec
	if len(o.paths) > 0 {
		if specs, err = r.pathspecs(o.paths); err != nil {
			return err
		}
	}
	changes, loader, err := r.diffChanges(o)
	if err != nil {
		return err
	}
	if len(specs) > 0 {
		changes = filterChanges(changes, specs)
	}
	changes = o.out.filtered(changes)
	if !o.quiet {
		if err := r.printDiff(changes, o.out, loader); err != nil {
			return err
		}
	}
	if o.exitCode && len(changes) > 0 {
		return exitStatus(1)
	}
	return nil
}

// diffChanges picks the two sides git diff compares: two commits, a
// commit and the index (--cached), a commit and the worktree, or the
// index and the worktree.
func (r *repo) diffChanges(o diffOptions) ([]fileChange, blobLoader, error) {
	var revs []plumbing.Hash
	for _, rev := range o.revs {
		if from, to, ok := strings.Cut(rev, ".."); ok {
			fh, err := r.resolveCommit(orHead(from))
			if err != nil {
				return nil, nil, err
			}
			th, err := r.resolveCommit(orHead(strings.TrimPrefix(to, ".")))
			if err != nil {
				return nil, nil, err
			}
			revs = append(revs, fh, th)
			continue
		}
		h, err := r.resolveCommit(rev)
		if err != nil {
			return nil, nil, err
		}
		revs = append(revs, h)
	}
	switch {
	case len(revs) > 2:
		return nil, nil, &exitError{msg: "git: 'diff' of more than two revisions is not supported here\n", code: 1}
	case len(revs) == 2:
		a, err := r.commitTree(revs[0])
		if err != nil {
			return nil, nil, err
		}
		b, err := r.commitTree(revs[1])
		if err != nil {
			return nil, nil, err
		}
		ch, err := r.treeChanges(a, b)
		return ch, nil, err
	}
	idx, err := r.loadIndex()
	if err != nil {
		return nil, nil, err
	}
	if o.cached {
		var base map[string]flatEntry
		if len(revs) == 1 {
			t, err := r.commitTree(revs[0])
			if err != nil {
				return nil, nil, err
			}
			if base, err = r.flatten(t); err != nil {
				return nil, nil, err
			}
		} else if base, err = r.headTree(); err != nil {
			return nil, nil, err
		}
		unmerged := unmergedOf(idx)
		for _, u := range unmerged {
			delete(base, u.path) // neither side has one version of it
		}
		ch, err := r.flatChanges(base, indexFlat(idx), nil)
		if err != nil {
			return nil, nil, err
		}
		return withConflicts(ch, unmerged, nil, nil), nil, nil
	}
	work, err := r.worktreeFlat(idx)
	if err != nil {
		return nil, nil, err
	}
	from := indexFlat(idx)
	if len(revs) == 0 {
		// The index has no one version of a conflicted path: it is
		// shown against both sides instead.
		unmerged := unmergedOf(idx)
		onDisk := map[string]flatEntry{}
		for _, u := range unmerged {
			if e, ok := work.entries[u.path]; ok {
				onDisk[u.path] = e
				delete(work.entries, u.path)
			}
		}
		ch, err := r.flatChanges(from, work.entries, work.load)
		if err != nil {
			return nil, nil, err
		}
		stages := stagesOf(idx)
		for _, u := range unmerged {
			ours, disk := stages[u.path][1], onDisk[u.path]
			if ours.Mode == 0 || disk.Mode == 0 || ours == disk {
				continue
			}
			side, err := r.flatChanges(map[string]flatEntry{u.path: ours}, map[string]flatEntry{u.path: disk}, work.load)
			if err != nil {
				return nil, nil, err
			}
			for _, c := range side {
				c.ourSide = true
				ch = append(ch, c)
			}
		}
		return withConflicts(ch, unmerged, stages, onDisk), work.load, nil
	}
	if len(revs) == 1 {
		t, err := r.commitTree(revs[0])
		if err != nil {
			return nil, nil, err
		}
		if from, err = r.flatten(t); err != nil {
			return nil, nil, err
		}
	}
	ch, err := r.flatChanges(from, work.entries, work.load)
	return ch, work.load, err
}

// commitTree is a commit's tree id.
func (r *repo) commitTree(h plumbing.Hash) (plumbing.Hash, error) {
	c, err := r.readCommit(h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return c.Tree, nil
}

// indexFlat is the index's stage-0 entries as a flat side.
func indexFlat(idx *index.Index) map[string]flatEntry {
	out := make(map[string]flatEntry, len(idx.Entries))
	for _, e := range idx.Entries {
		if e.Stage == stageMerged {
			out[e.Name] = flatEntry{Hash: e.Hash, Mode: e.Mode}
		}
	}
	return out
}

// workSide is the worktree as a diff side: the tracked files as they are
// now (unchanged ones keep their index ids; changed ones are hashed), and
// a loader that reads their content through the door.
type workSide struct {
	entries map[string]flatEntry
	load    blobLoader
}

func (r *repo) worktreeFlat(idx *index.Index) (*workSide, error) {
	s := newScanner(r, idx)
	sc, err := s.run()
	if err != nil {
		return nil, err
	}
	w := &workSide{entries: map[string]flatEntry{}}
	for name, e := range s.entries {
		switch sc.tracked[name] {
		case wtSame:
			w.entries[name] = flatEntry{Hash: e.Hash, Mode: e.Mode}
		case wtModified, wtTypeChange:
			info := sc.files[name]
			fe := flatEntry{Mode: modeOf(info)}
			if h, err := r.hashWorkFile(name, info); err == nil {
				fe.Hash = h
			} else {
				// Unreadable (denied): a side the diff names but never shows.
				fe.Hash = plumbing.ComputeHash(plumbing.BlobObject, []byte(name+"\x00unreadable"))
			}
			w.entries[name] = fe
		default:
			if sc.hidden[name] {
				w.entries[name] = flatEntry{Hash: e.Hash, Mode: e.Mode}
			}
		}
	}
	for _, name := range s.unmergedNames {
		if info, ok := sc.files[name]; ok {
			if h, err := r.hashWorkFile(name, info); err == nil {
				w.entries[name] = flatEntry{Hash: h, Mode: modeOf(info)}
			}
		}
	}
	w.load = func(p string, e flatEntry) ([]byte, error) {
		info, err := r.g.fsys.Lstat(r.abs(p))
		if err != nil {
			return nil, err
		}
		return r.workContent(p, info)
	}
	return w, nil
}

// stagesOf is the conflict stages of the index: path -> stages 1-3.
func stagesOf(idx *index.Index) map[string]*[3]flatEntry {
	out := map[string]*[3]flatEntry{}
	for _, e := range idx.Entries {
		if e.Stage == stageMerged || e.Stage > 3 {
			continue
		}
		st := out[e.Name]
		if st == nil {
			st = &[3]flatEntry{}
			out[e.Name] = st
		}
		st[e.Stage-1] = flatEntry{Hash: e.Hash, Mode: e.Mode}
	}
	return out
}

// withConflicts adds the conflicted paths to a diff's changes, in path
// order: shown against both sides (a combined diff) when both have the
// path and the worktree holds it, otherwise named as unmerged.
func withConflicts(cs []fileChange, unmerged []unmergedPath, stages map[string]*[3]flatEntry, onDisk map[string]flatEntry) []fileChange {
	if len(unmerged) == 0 {
		return cs
	}
	var conflicts []fileChange
	for _, u := range unmerged {
		c := fileChange{path: u.path, conflict: true}
		if st := stages[u.path]; st != nil && st[1].Mode != 0 && st[2].Mode != 0 {
			if e, ok := onDisk[u.path]; ok {
				c.sides = [2]flatEntry{st[1], st[2]}
				c.new = e
			}
		}
		conflicts = append(conflicts, c)
	}
	// Each conflict comes before the other entries of its path.
	cs = append(conflicts, cs...)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].path < cs[j].path })
	return cs
}
