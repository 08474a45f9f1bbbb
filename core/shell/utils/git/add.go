package git

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

const addEmptyHint = `Nothing specified, nothing added.
hint: Maybe you wanted to say 'git add .'?
hint: Turn this message off by running
hint: "git config advice.addEmptyPathspec false"
`

const addIgnoredHint = `hint: Use -f if you really want to add them.
hint: Turn this message off by running
hint: "git config advice.addIgnoredFile false"
`

// addOptions are git add's flags.
type addOptions struct {
	all, update, force, dryRun, verbose bool
	paths                               []string
}

func runAdd(g *cmd, args []string) error {
	var o addOptions
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash || !strings.HasPrefix(a, "-") || a == "-":
			o.paths = append(o.paths, a)
		case a == "--":
			dashdash = true
		case a == "-A" || a == "--all" || a == "--no-ignore-removal":
			o.all = true
		case a == "-u" || a == "--update":
			o.update = true
		case a == "-f" || a == "--force":
			o.force = true
		case a == "-n" || a == "--dry-run":
			o.dryRun = true
		case a == "-v" || a == "--verbose":
			o.verbose = true
		case a == "-p" || a == "--patch" || a == "-i" || a == "--interactive" || a == "-e" || a == "--edit":
			return &exitError{msg: "git: 'add " + a + "' is not supported here (no interactive terminal)\n", code: 1}
		default:
			return unknownOption("add", a)
		}
	}
	if len(o.paths) == 0 && !o.all && !o.update {
		g.errw.Write([]byte(addEmptyHint))
		return nil
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	return r.add(o)
}

// add stages what the options and pathspecs select: new and changed files,
// and removals of tracked files gone from the worktree. Hidden paths are
// never seen; a file the door refuses to read fails with its reason.
func (r *repo) add(o addOptions) error {
	lock, idx, err := r.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	s := newScanner(r, idx)
	s.allFiles = true
	sc, err := s.run()
	if err != nil {
		return fatalf("%s", errText(err))
	}
	specs, err := r.pathspecs(o.paths)
	if err != nil {
		return err
	}
	if len(specs) == 0 {
		specs = []pathspec{{path: ""}}
		if sub, ok := r.workPath("."); ok && !o.all && !o.update {
			specs[0].path = sub
		}
	}
	ignored, err := r.checkSpecs(specs, s, sc, o.force)
	if err != nil {
		return err
	}
	var toAdd []string
	var toRemove []string
	for _, name := range s.names {
		if !matchAny(specs, name) {
			continue
		}
		switch sc.tracked[name] {
		case wtModified, wtTypeChange:
			toAdd = append(toAdd, name)
		case wtDeleted:
			toRemove = append(toRemove, name)
		}
	}
	// A conflicted path is resolved by adding what the worktree holds
	// (or its removal, when the file is gone).
	var resolvedGone []string
	for _, name := range s.unmergedNames {
		if !matchAny(specs, name) {
			continue
		}
		if _, ok := sc.files[name]; ok {
			toAdd = append(toAdd, name)
		} else if !r.hiddenPath(name) {
			resolvedGone = append(resolvedGone, name)
		}
	}
	if !o.update {
		for _, p := range sc.untracked {
			if matchAny(specs, p) {
				toAdd = append(toAdd, p)
			}
		}
		toAdd = append(toAdd, ignored...)
	}
	sort.Strings(toAdd)
	entries := s.entries
	var failed []string
	for _, p := range toAdd {
		info := sc.files[p]
		if info == nil {
			if info, err = r.g.fsys.Lstat(r.abs(p)); err != nil {
				failed = append(failed, p)
				continue
			}
		}
		if o.dryRun {
			fmt.Fprintf(r.g.out, "add '%s'\n", p)
			continue
		}
		e, err := r.stage(p, info)
		if err != nil {
			fmt.Fprintf(r.g.errw, "error: open(\"%s\"): %s\nerror: unable to index file '%s'\n", r.rel(p), errText(err), r.rel(p))
			failed = append(failed, p)
			continue
		}
		entries[p] = e
		if o.verbose {
			fmt.Fprintf(r.g.out, "add '%s'\n", p)
		}
	}
	if len(failed) > 0 {
		return fatalf("adding files failed")
	}
	for _, p := range toRemove {
		if o.dryRun || o.verbose {
			fmt.Fprintf(r.g.out, "remove '%s'\n", p)
		}
		delete(entries, p)
	}
	for _, p := range resolvedGone {
		if o.dryRun || o.verbose {
			fmt.Fprintf(r.g.out, "remove '%s'\n", p)
		}
	}
	if o.dryRun {
		return nil
	}
	dropStages(idx, resolvedGone)
	setEntries(idx, entries)
	return lock.commit(idx)
}

// checkSpecs makes sure every pathspec names something, as git does, and
// returns the ignored files named explicitly that -f lets through. Without
// -f naming an ignored file is git's "paths are ignored" refusal.
func (r *repo) checkSpecs(specs []pathspec, s *scanner, sc *scan, force bool) ([]string, error) {
	var ignored, forced []string
	for _, sp := range specs {
		if sp.path == "" || sp.arg == "" {
			continue
		}
		found := false
		for _, name := range s.unmergedNames {
			found = found || sp.match(name)
		}
		for _, name := range s.names {
			if sp.match(name) && !sc.hidden[name] {
				found = true
				break
			}
		}
		for _, p := range sc.untracked {
			if found {
				break
			}
			found = sp.match(p)
		}
		if found {
			continue
		}
		if !sp.glob {
			if info, err := r.g.fsys.Lstat(r.abs(sp.path)); err == nil {
				if !info.IsDir() {
					if force {
						forced = append(forced, sp.path)
					} else {
						ignored = append(ignored, sp.arg)
					}
				}
				continue
			}
		}
		return nil, fatalf("pathspec '%s' did not match any files", sp.arg)
	}
	if len(ignored) > 0 {
		return nil, &exitError{msg: "The following paths are ignored by one of your .gitignore files:\n" + strings.Join(ignored, "\n") + "\n" + addIgnoredHint, code: 1}
	}
	return forced, nil
}

// stage stores a worktree file's content as a blob and returns its index
// entry.
func (r *repo) stage(p string, info fs.FileInfo) (*index.Entry, error) {
	data, err := r.workContent(p, info)
	if err != nil {
		return nil, err
	}
	h, err := r.writeObject(plumbing.BlobObject, data)
	if err != nil {
		return nil, err
	}
	return &index.Entry{
		Name:       p,
		Hash:       h,
		Mode:       modeOf(info),
		Size:       uint32(info.Size()),
		CreatedAt:  info.ModTime(),
		ModifiedAt: info.ModTime(),
	}, nil
}

// setEntries replaces the index's stage-0 entries, sorted as git sorts
// them. A conflicted path keeps its stages 1-3 until an entry of its own
// resolves it.
func setEntries(idx *index.Index, entries map[string]*index.Entry) {
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if _, resolved := entries[e.Name]; e.Stage != stageMerged && !resolved {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
	for _, e := range entries {
		idx.Entries = append(idx.Entries, e)
	}
	sortIndex(idx)
}

// dropStages removes the conflict stages of names from the index.
func dropStages(idx *index.Index, names []string) {
	if len(names) == 0 {
		return
	}
	gone := map[string]bool{}
	for _, n := range names {
		gone[n] = true
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if e.Stage == stageMerged || !gone[e.Name] {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
}

// sortIndex orders entries by name, then stage, as the index file must.
func sortIndex(idx *index.Index) {
	sort.Slice(idx.Entries, func(i, j int) bool {
		a, b := idx.Entries[i], idx.Entries[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Stage < b.Stage
	})
}
