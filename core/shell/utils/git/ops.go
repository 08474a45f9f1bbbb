package git

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// indexEdit is a locked, loaded index with its stage-0 entries by name,
// the shape every index-changing subcommand starts from.
type indexEdit struct {
	lock    *indexLock
	idx     *index.Index
	entries map[string]*index.Entry
}

func (r *repo) editIndex() (*indexEdit, error) {
	lock, idx, err := r.lockedIndex()
	if err != nil {
		return nil, err
	}
	ed := &indexEdit{lock: lock, idx: idx, entries: map[string]*index.Entry{}}
	for _, e := range idx.Entries {
		if e.Stage == stageMerged {
			ed.entries[e.Name] = e
		}
	}
	return ed, nil
}

// lockedIndex takes index.lock and loads the index under it; the caller
// releases the lock.
func (r *repo) lockedIndex() (*indexLock, *index.Index, error) {
	lock, err := r.lockIndex()
	if err != nil {
		return nil, nil, err
	}
	idx, err := r.loadIndex()
	if err != nil {
		lock.release()
		return nil, nil, err
	}
	return lock, idx, nil
}

// dropConflicts forgets every conflict stage (a reset, an aborted merge).
func (ed *indexEdit) dropConflicts() {
	kept := ed.idx.Entries[:0]
	for _, e := range ed.idx.Entries {
		if e.Stage == stageMerged {
			kept = append(kept, e)
		}
	}
	ed.idx.Entries = kept
}

func (ed *indexEdit) commit() error {
	setEntries(ed.idx, ed.entries)
	return ed.lock.commit(ed.idx)
}

// matching lists the visible entries a pathspec names, sorted.
func (r *repo) matching(entries map[string]*index.Entry, sp pathspec) []string {
	var out []string
	for name := range entries {
		if sp.match(name) && !r.hiddenPath(name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func runRm(g *cmd, args []string) error {
	cached, force, recursive, quiet, dryRun := false, false, false, false, false
	var paths []string
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash || !strings.HasPrefix(a, "-"):
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "--cached":
			cached = true
		case a == "-f" || a == "--force":
			force = true
		case a == "-r":
			recursive = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-n" || a == "--dry-run":
			dryRun = true
		case a == "-rf" || a == "-fr":
			recursive, force = true, true
		default:
			return unknownOption("rm", a)
		}
	}
	if len(paths) == 0 {
		return usageErr("usage: git rm [<options>] [--] <file>...\n")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	specs, err := r.pathspecs(paths)
	if err != nil {
		return err
	}
	ed, err := r.editIndex()
	if err != nil {
		return err
	}
	defer ed.lock.release()
	// A conflicted path is removed whole (all its stages), as resolving
	// it by removal: git rm asks nothing of its content.
	unmerged := map[string]bool{}
	candidates := ed.entries
	if um := unmergedOf(ed.idx); len(um) > 0 {
		candidates = make(map[string]*index.Entry, len(ed.entries)+len(um))
		for k, v := range ed.entries {
			candidates[k] = v
		}
		for _, u := range um {
			unmerged[u.path] = true
			candidates[u.path] = nil
		}
	}
	var names []string
	for _, sp := range specs {
		m := r.matching(candidates, sp)
		if len(m) == 0 {
			return fatalf("pathspec '%s' did not match any files", sp.arg)
		}
		if !recursive && !(len(m) == 1 && m[0] == sp.path) && !sp.glob {
			return fatalf("not removing '%s' recursively without -r", sp.arg)
		}
		names = append(names, m...)
	}
	names = dedupe(names)
	if !force {
		var settled []string
		for _, p := range names {
			if !unmerged[p] {
				settled = append(settled, p)
			}
		}
		if err := r.rmCheck(ed, settled, cached); err != nil {
			return err
		}
	}
	for _, p := range names {
		if !quiet {
			fmt.Fprintf(g.out, "rm '%s'\n", p)
		}
		if dryRun {
			continue
		}
		delete(ed.entries, p)
		if !cached {
			if err := g.fsys.Remove(r.abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fatalf("git rm: '%s': %s", p, errText(err))
			}
			r.pruneDirs(path.Dir(p))
		}
	}
	if dryRun {
		return nil
	}
	dropStages(ed.idx, names)
	return ed.commit()
}

func dedupe(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || s[i-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// rmCheck refuses to lose work, as git rm does: a file whose worktree
// differs from the index, or whose index differs from HEAD.
func (r *repo) rmCheck(ed *indexEdit, names []string, cached bool) error {
	head, err := r.headTree()
	if err != nil {
		return err
	}
	var local, staged []string
	for _, p := range names {
		e := ed.entries[p]
		h, inHead := head[p]
		stagedChange := !inHead || h.Hash != e.Hash || h.Mode != e.Mode
		info, err := r.g.fsys.Lstat(r.abs(p))
		worktreeChange := false
		if err == nil {
			if wh, err := r.hashWorkFile(p, info); err != nil || wh != e.Hash || modeOf(info) != e.Mode {
				worktreeChange = true
			}
		}
		switch {
		case worktreeChange && stagedChange:
			local = append(local, p) // both: git names it as local
		case worktreeChange && !cached:
			local = append(local, p)
		case stagedChange && !cached && inHead:
			staged = append(staged, p)
		}
	}
	var msg strings.Builder
	for _, group := range []struct {
		what  string
		paths []string
	}{{"local modifications", local}, {"changes staged in the index", staged}} {
		if len(group.paths) == 0 {
			continue
		}
		noun := "file has"
		if len(group.paths) > 1 {
			noun = "files have"
		}
		fmt.Fprintf(&msg, "error: the following %s %s:\n", noun, group.what)
		for _, p := range group.paths {
			fmt.Fprintf(&msg, "    %s\n", p)
		}
		if group.what == "local modifications" {
			msg.WriteString("(use --cached to keep the file, or -f to force removal)\n")
		} else {
			msg.WriteString("(use --cached to keep the file, or -f to force removal)\n")
		}
	}
	if msg.Len() > 0 {
		return &exitError{msg: msg.String(), code: 1}
	}
	return nil
}

func runMv(g *cmd, args []string) error {
	force, dryRun, skip := false, false, false
	var paths []string
	for _, a := range args {
		switch {
		case !strings.HasPrefix(a, "-"):
			paths = append(paths, a)
		case a == "-f" || a == "--force":
			force = true
		case a == "-n" || a == "--dry-run":
			dryRun = true
		case a == "-k":
			skip = true
		case a == "-v" || a == "--verbose" || a == "--":
		default:
			return unknownOption("mv", a)
		}
	}
	if len(paths) < 2 {
		return usageErr("usage: git mv [<options>] <source>... <destination>\n")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	ed, err := r.editIndex()
	if err != nil {
		return err
	}
	defer ed.lock.release()
	srcs, dstArg := paths[:len(paths)-1], paths[len(paths)-1]
	dst, ok := r.workPath(dstArg)
	if !ok {
		return fatalf("%s: '%s' is outside repository at '%s'", dstArg, dstArg, r.work)
	}
	dstInfo, dstErr := g.fsys.Stat(r.abs(dst))
	intoDir := dstErr == nil && dstInfo.IsDir()
	if len(srcs) > 1 && !intoDir {
		return fatalf("destination '%s' is not a directory", dstArg)
	}
	for _, srcArg := range srcs {
		src, ok := r.workPath(srcArg)
		if !ok {
			return fatalf("%s: '%s' is outside repository at '%s'", srcArg, srcArg, r.work)
		}
		to := dst
		toArg := dstArg
		if intoDir {
			to = joinRel(dst, path.Base(src))
			toArg = path.Join(dstArg, path.Base(srcArg))
		}
		if err := r.mvOne(ed, src, to, srcArg, toArg, force, dryRun); err != nil {
			if skip {
				continue
			}
			return err
		}
	}
	if dryRun {
		return nil
	}
	return ed.commit()
}

// mvOne renames a tracked file or directory in the worktree and the index.
func (r *repo) mvOne(ed *indexEdit, src, to, srcArg, toArg string, force, dryRun bool) error {
	info, err := r.g.fsys.Lstat(r.abs(src))
	if err != nil {
		return fatalf("bad source, source=%s, destination=%s", srcArg, toArg)
	}
	var moved []string
	if info.IsDir() {
		moved = r.matching(ed.entries, pathspec{path: src})
	} else if _, ok := ed.entries[src]; ok {
		moved = []string{src}
	}
	if len(moved) == 0 {
		return fatalf("not under version control, source=%s, destination=%s", srcArg, toArg)
	}
	if src == to || strings.HasPrefix(to, src+"/") {
		return fatalf("can not move directory into itself, source=%s, destination=%s", srcArg, toArg)
	}
	if _, err := r.g.fsys.Lstat(r.abs(to)); err == nil && !force {
		return fatalf("destination exists, source=%s, destination=%s", srcArg, toArg)
	}
	if dryRun {
		fmt.Fprintf(r.g.out, "Checking rename of '%s' to '%s'\nRenaming %s to %s\n", srcArg, toArg, srcArg, toArg)
		return nil
	}
	if dir := path.Dir(r.abs(to)); dir != r.work {
		if err := mkdirAll(r.g.fsys, dir, 0o777); err != nil {
			return fatalf("renaming '%s' failed: %s", srcArg, errText(err))
		}
	}
	if err := r.g.fsys.Rename(r.abs(src), r.abs(to)); err != nil {
		return fatalf("renaming '%s' failed: %s", srcArg, errText(err))
	}
	for _, p := range moved {
		e := ed.entries[p]
		delete(ed.entries, p)
		e.Name = to + strings.TrimPrefix(p, src)
		ed.entries[e.Name] = e
	}
	return nil
}

func runRestore(g *cmd, args []string) error {
	staged, worktree, source := false, false, ""
	var paths []string
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash || !strings.HasPrefix(a, "-"):
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "-S" || a == "--staged":
			staged = true
		case a == "-W" || a == "--worktree":
			worktree = true
		case a == "-s" || a == "--source":
			if i+1 >= len(args) {
				return usageErr("error: option `source' requires a value\n")
			}
			i++
			source = args[i]
		case strings.HasPrefix(a, "--source="):
			source = strings.TrimPrefix(a, "--source=")
		case strings.HasPrefix(a, "-s") && len(a) > 2:
			source = a[2:]
		case a == "-q" || a == "--quiet":
		case a == "-p" || a == "--patch":
			return &exitError{msg: "git: 'restore -p' is not supported here (no interactive terminal)\n", code: 1}
		default:
			return unknownOption("restore", a)
		}
	}
	if len(paths) == 0 {
		return fatalf("you must specify path(s) to restore")
	}
	if !staged {
		worktree = true
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	specs, err := r.pathspecs(paths)
	if err != nil {
		return err
	}
	ed, err := r.editIndex()
	if err != nil {
		return err
	}
	defer ed.lock.release()
	from := indexFlat(ed.idx)
	if staged || source != "" {
		rev := source
		if rev == "" {
			rev = "HEAD"
		}
		if from, err = r.revTree(rev); err != nil {
			return err
		}
	}
	var restores [][]string
	for _, sp := range specs {
		names := map[string]bool{}
		for p := range from {
			if sp.match(p) && !r.hiddenPath(p) {
				names[p] = true
			}
		}
		if staged {
			for p := range ed.entries {
				if sp.match(p) && !r.hiddenPath(p) {
					names[p] = true
				}
			}
		}
		if len(names) == 0 {
			return &exitError{msg: fmt.Sprintf("error: pathspec '%s' did not match any file(s) known to git\n", sp.arg), code: 1}
		}
		restores = append(restores, sortedKeys(names))
	}
	// Every write to the worktree is judged before the first is made (G-6.1).
	for _, names := range restores {
		for _, p := range names {
			if err := r.checkWritable(p, from); worktree && err != nil {
				return err
			}
		}
	}
	for _, names := range restores {
		for _, p := range names {
			if err := r.restoreOne(ed, p, from, staged, worktree); err != nil {
				return err
			}
		}
	}
	return ed.commit()
}

// restoreOne puts the source's version of p into the index and/or the
// worktree (removing it where the source has none).
func (r *repo) restoreOne(ed *indexEdit, p string, from map[string]flatEntry, staged, worktree bool) error {
	fe, ok := from[p]
	if worktree {
		if !ok {
			if err := r.g.fsys.Remove(r.abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fatalf("unable to unlink '%s': %s", p, errText(err))
			}
		} else {
			e, err := r.writeWorkFile(p, fe)
			if err != nil {
				return err
			}
			if staged {
				ed.entries[p] = e
			} else if cur := ed.entries[p]; cur != nil && cur.Hash == fe.Hash {
				cur.Size, cur.ModifiedAt, cur.CreatedAt = e.Size, e.ModifiedAt, e.CreatedAt
			}
		}
	}
	if staged && !worktree {
		if !ok {
			delete(ed.entries, p)
		} else if cur := ed.entries[p]; cur == nil || cur.Hash != fe.Hash || cur.Mode != fe.Mode {
			ed.entries[p] = &index.Entry{Name: p, Hash: fe.Hash, Mode: fe.Mode}
		}
	}
	if staged && worktree && !ok {
		delete(ed.entries, p)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// revTree is a revision's tree, flattened.
func (r *repo) revTree(rev string) (map[string]flatEntry, error) {
	h, err := r.resolveCommit(rev)
	if err != nil {
		if rev == "HEAD" {
			return map[string]flatEntry{}, nil
		}
		return nil, fatalf("could not resolve %s", rev)
	}
	t, err := r.commitTree(h)
	if err != nil {
		return nil, err
	}
	return r.flatten(t)
}

func runReset(g *cmd, args []string) error {
	mode, quiet := "mixed", false
	var rest, paths []string
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash:
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "--soft" || a == "--mixed" || a == "--hard":
			mode = strings.TrimPrefix(a, "--")
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--merge" || a == "--keep" || a == "-p" || a == "--patch":
			return &exitError{msg: "git: 'reset " + a + "' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "-"):
			return unknownOption("reset", a)
		default:
			rest = append(rest, a)
		}
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	rev := "HEAD"
	if len(rest) > 0 {
		if _, err := r.resolveCommit(rest[0]); err == nil || dashdash {
			rev, rest = rest[0], rest[1:]
		}
	}
	paths = append(rest, paths...)
	if len(paths) > 0 {
		if mode != "mixed" {
			return fatalf("Cannot do %s reset with paths.", mode)
		}
		return r.resetPaths(rev, paths, quiet)
	}
	target, err := r.resolveCommit(rev)
	if err != nil {
		if rev == "HEAD" {
			return fatalf("ambiguous argument 'HEAD': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'")
		}
		return errBadRev(rev)
	}
	return r.resetTo(target, mode, quiet)
}

// resetTo moves HEAD's branch to target; mixed also resets the index,
// hard the worktree too.
func (r *repo) resetTo(target plumbing.Hash, mode string, quiet bool) error {
	_, head, err := r.head()
	if err != nil {
		return err
	}
	if mode == "hard" {
		if err := r.hardReset(head, target); err != nil {
			return err
		}
	} else if mode == "mixed" {
		ed, err := r.editIndex()
		if err != nil {
			return err
		}
		defer ed.lock.release()
		tree, err := r.commitTree(target)
		if err != nil {
			return err
		}
		flat, err := r.flatten(tree)
		if err != nil {
			return err
		}
		for p := range ed.entries {
			if _, ok := flat[p]; !ok && !r.hiddenPath(p) {
				delete(ed.entries, p)
			}
		}
		for p, fe := range flat {
			if r.hiddenPath(p) {
				continue
			}
			if cur := ed.entries[p]; cur == nil || cur.Hash != fe.Hash || cur.Mode != fe.Mode {
				ed.entries[p] = &index.Entry{Name: p, Hash: fe.Hash, Mode: fe.Mode}
			}
		}
		ed.dropConflicts()
		if err := ed.commit(); err != nil {
			return err
		}
	}
	if err := r.setHead(target); err != nil {
		return fatalf("cannot lock ref 'HEAD': %s", errText(err))
	}
	if mode != "soft" {
		r.clearMergeState()
	}
	if mode == "hard" && !quiet {
		c, err := r.readCommit(target)
		if err != nil {
			return err
		}
		fmt.Fprintf(r.g.out, "HEAD is now at %s %s\n", r.abbrev(target), c.subject())
	}
	if mode == "mixed" && !quiet {
		return r.printUnstaged()
	}
	return nil
}

// hardReset makes the index and the worktree hold target's tree: every
// path that differs from it (tracked, in HEAD or in target) is rewritten.
func (r *repo) hardReset(head, target plumbing.Hash) error {
	ed, err := r.editIndex()
	if err != nil {
		return err
	}
	defer ed.lock.release()
	tree, err := r.commitTree(target)
	if err != nil {
		return err
	}
	flat, err := r.flatten(tree)
	if err != nil {
		return err
	}
	s := newScanner(r, ed.idx)
	sc, err := s.run()
	if err != nil {
		return err
	}
	paths := map[string]bool{}
	for p := range flat {
		paths[p] = true
	}
	for _, e := range ed.idx.Entries {
		paths[e.Name] = true // conflicted paths too
	}
	var todo []string
	for _, p := range sortedKeys(paths) {
		fe, inTarget := flat[p]
		e, inIndex := ed.entries[p]
		if sc.hidden[p] || r.hiddenPath(p) {
			if inIndex != inTarget || (inIndex && e.Hash != fe.Hash) {
				return &exitError{msg: "error: this reset would change files hidden from this session\n", code: 1}
			}
			continue
		}
		if inIndex && inTarget && e.Hash == fe.Hash && e.Mode == fe.Mode && sc.tracked[p] == wtSame {
			continue
		}
		todo = append(todo, p)
	}
	// Judge every write before the first, so a refused one leaves the
	// worktree as it was.
	for _, p := range todo {
		if err := r.checkWritable(p, flat); err != nil {
			return err
		}
	}
	for _, p := range todo {
		if err := r.applyPath(p, flat, ed.entries); err != nil {
			return err
		}
	}
	ed.dropConflicts()
	return ed.commit()
}

// printUnstaged is mixed reset's "Unstaged changes after reset:" list.
func (r *repo) printUnstaged() error {
	st, _, err := r.collectStatus(false)
	if err != nil {
		return err
	}
	if len(st.unstaged) == 0 {
		return nil
	}
	r.g.out.WriteString("Unstaged changes after reset:\n")
	for _, c := range st.unstaged {
		fmt.Fprintf(r.g.out, "%c\t%s\n", c.kind, quotePath(c.path))
	}
	return nil
}

// resetPaths sets the index entries of paths to rev's.
func (r *repo) resetPaths(rev string, paths []string, quiet bool) error {
	specs, err := r.pathspecs(paths)
	if err != nil {
		return err
	}
	from, err := r.revTree(rev)
	if err != nil {
		return err
	}
	ed, err := r.editIndex()
	if err != nil {
		return err
	}
	defer ed.lock.release()
	for _, sp := range specs {
		names := map[string]bool{}
		for p := range from {
			if sp.match(p) {
				names[p] = true
			}
		}
		for p := range ed.entries {
			if sp.match(p) {
				names[p] = true
			}
		}
		for p := range names {
			if r.hiddenPath(p) {
				continue
			}
			r.restoreOne(ed, p, from, true, false)
		}
	}
	if err := ed.commit(); err != nil {
		return err
	}
	if quiet {
		return nil
	}
	return r.printUnstaged()
}

func runTag(g *cmd, args []string) error {
	annotate, force, del, list := false, false, false, false
	var msgs, names []string
	var lo tagListOptions
	for i := 0; i < len(args); i++ {
		a := args[i]
		if ok, consumed, err := lo.parseTagListArg(a, args[i+1:]); ok {
			if err != nil {
				return err
			}
			if consumed {
				i++
			}
			list = true
			continue
		}
		switch {
		case a == "-a" || a == "--annotate":
			annotate = true
		case a == "-f" || a == "--force":
			force = true
		case a == "-d" || a == "--delete":
			del = true
		case a == "-l" || a == "--list":
			list = true
		case a == "-m" || a == "--message":
			if i+1 >= len(args) {
				return usageErr("error: switch `m' requires a value\n")
			}
			i++
			msgs = append(msgs, args[i])
			annotate = true
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			msgs = append(msgs, a[2:])
			annotate = true
		case a == "-s" || a == "-u" || a == "--sign":
			return &exitError{msg: "git: 'tag " + a + "' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "-"):
			return unknownOption("tag", a)
		default:
			names = append(names, a)
		}
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	switch {
	case del:
		return r.deleteTags(names)
	case list || len(names) == 0:
		lo.patterns = names
		return r.listTagsWith(lo)
	}
	name := names[0]
	ref := plumbing.NewTagReferenceName(name)
	if !validBranchName(name) {
		return fatalf("'%s' is not a valid tag name.", name)
	}
	old, err := r.st.Reference(ref)
	if err == nil && !force {
		return fatalf("tag '%s' already exists", name)
	}
	start := "HEAD"
	if len(names) > 1 {
		start = names[1]
	}
	target, err := r.resolve(start)
	if err != nil {
		return fatalf("Failed to resolve '%s' as a valid ref.", start)
	}
	h := target
	if annotate {
		if len(msgs) == 0 {
			return fatalf("no tag message given; use -m")
		}
		_, tagger, err := r.identities()
		if err != nil {
			return err
		}
		t, _, err := r.readObject(target)
		if err != nil {
			return err
		}
		tg := &tag{Object: target, Type: t.String(), Name: name, Tagger: tagger, Message: cleanMessage(strings.Join(msgs, "\n\n"))}
		if h, err = r.writeObject(plumbing.TagObject, tg.encode()); err != nil {
			return fatalf("%s", errText(err))
		}
		if v, _ := r.cfg.get("advice.nestedtag"); t == plumbing.TagObject && !isFalse(v) {
			fmt.Fprintf(g.errw, "hint: You have created a nested tag. The object referred to by your new tag is\n"+
				"hint: already a tag. If you meant to tag the object that it points to, use:\nhint: \n"+
				"hint: \tgit tag -f %s %s^{}\nhint: Disable this message with \"git config advice.nestedTag false\"\n", name, start)
		}
	}
	if err := r.setRef(ref, h); err != nil {
		return err
	}
	if old != nil && old.Hash() != h {
		fmt.Fprintf(g.out, "Updated tag '%s' (was %s)\n", name, r.abbrev(old.Hash()))
	}
	return nil
}

func (r *repo) deleteTags(names []string) error {
	failed := false
	for _, n := range names {
		ref := plumbing.NewTagReferenceName(n)
		cur, err := r.st.Reference(ref)
		if err != nil {
			fmt.Fprintf(r.g.errw, "error: tag '%s' not found.\n", n)
			failed = true
			continue
		}
		if err := r.st.RemoveReference(ref); err != nil {
			return fatalf("cannot delete tag '%s': %s", n, errText(err))
		}
		fmt.Fprintf(r.g.out, "Deleted tag '%s' (was %s)\n", n, r.abbrev(cur.Hash()))
	}
	if failed {
		return exitStatus(1)
	}
	return nil
}
