package git

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

const detachedAdvice = `Note: switching to '%s'.

You are in 'detached HEAD' state. You can look around, make experimental
changes and commit them, and you can discard any commits you make in this
state without impacting any branches by switching back to a branch.

If you want to create a new branch to retain commits you create, you may
do so (now or later) by using -c with the switch command. Example:

  git switch -c <new-branch-name>

Or undo this operation with:

  git switch -

Turn off this advice by setting config variable advice.detachedHead to false

`

// switchRequest is one move of HEAD: to a branch (made first when
// create is set) or, detached, to a commit.
type switchRequest struct {
	arg    string // as the user named the target
	branch plumbing.ReferenceName
	target plumbing.Hash
	create bool
	detach bool
	quiet  bool
	// advise is git checkout's detached-HEAD advice: given when a
	// commit that is no branch was named without --detach.
	advise bool
	// isSwitch is git switch (which refuses while a merge waits),
	// not git checkout (which refuses while the index has conflicts).
	isSwitch bool
}

// splitShort spreads short options run together ("-qb" is "-q -b"),
// before "--"; a letter of valued that is not the last keeps the rest of
// the word as its value ("-bname").
func splitShort(args []string, valued string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			out = append(out, "-"+a[j:j+1])
			if strings.IndexByte(valued, a[j]) >= 0 && j+1 < len(a) {
				out = append(out, a[j+1:])
				break
			}
		}
	}
	return out
}

func runCheckout(g *cmd, args []string) error {
	args = splitShort(args, "bB")
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	var newBranch string
	var rest, paths []string
	dashdash, detach, force, quiet := false, false, false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash:
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "-b" || a == "-B":
			if i+1 >= len(args) {
				return usageErr("error: switch `b' requires a value\n")
			}
			i++
			newBranch = args[i]
			force = force || a == "-B"
		case a == "--detach":
			detach = true
		case a == "-f" || a == "--force":
			force = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-p" || a == "--patch":
			return &exitError{msg: "git: 'checkout -p' is not supported here (no interactive terminal)\n", code: 1}
		case strings.HasPrefix(a, "-") && a != "-":
			return unknownOption("checkout", a)
		default:
			rest = append(rest, a)
		}
	}
	if len(paths) > 0 || (len(rest) > 0 && !dashdash && newBranch == "" && !r.isRevision(rest[0])) {
		source := ""
		if dashdash && len(rest) == 1 {
			source = rest[0]
		} else if !dashdash {
			paths = rest
		} else if len(rest) > 1 {
			return fatalf("only one reference expected, %d given.", len(rest))
		}
		return r.checkoutPaths(source, paths, !dashdash && !quiet)
	}
	req := switchRequest{detach: detach, quiet: quiet}
	start := "HEAD"
	switch {
	case newBranch != "":
		req.create, req.branch = true, plumbing.NewBranchReferenceName(newBranch)
		if len(rest) > 0 {
			start = rest[0]
		}
		if err := r.checkNewBranch(newBranch, force); err != nil {
			return err
		}
	case len(rest) == 0 && !detach:
		return r.showTracking()
	case len(rest) == 0:
		// --detach alone detaches HEAD where it is.
	default:
		start = rest[0]
	}
	return r.doSwitch(req, start)
}

func runSwitch(g *cmd, args []string) error {
	args = splitShort(args, "cC")
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	req := switchRequest{isSwitch: true}
	var rest []string
	force := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || a == "-C" || a == "--create" || a == "--force-create":
			if i+1 >= len(args) {
				return usageErr("error: switch `c' requires a value\n")
			}
			i++
			req.create, req.branch = true, plumbing.NewBranchReferenceName(args[i])
			force = a == "-C" || a == "--force-create"
		case a == "-d" || a == "--detach":
			req.detach = true
		case a == "-q" || a == "--quiet":
			req.quiet = true
		case a == "--no-guess":
		case strings.HasPrefix(a, "-") && a != "-":
			return unknownOption("switch", a)
		default:
			rest = append(rest, a)
		}
	}
	if req.create {
		if err := r.checkNewBranch(req.branch.Short(), force); err != nil {
			return err
		}
		start := "HEAD"
		if len(rest) > 0 {
			start = rest[0]
		}
		return r.doSwitch(req, start)
	}
	if len(rest) == 0 && req.detach {
		rest = []string{"HEAD"}
	}
	if len(rest) == 0 {
		return fatalf("missing branch or commit argument")
	}
	if !req.detach && rest[0] != "-" {
		if ref, err := r.st.Reference(plumbing.HEAD); err == nil && rest[0] == "HEAD" && ref.Type() == plumbing.SymbolicReference {
			return fatalf("a branch is expected, got '%s'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.", ref.Target())
		}
		if _, err := r.st.Reference(plumbing.NewBranchReferenceName(rest[0])); err != nil {
			if _, err := r.resolveCommit(rest[0]); err == nil {
				return fatalf("a branch is expected, got commit '%s'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.", rest[0])
			}
			return fatalf("invalid reference: %s", rest[0])
		}
	}
	return r.doSwitch(req, rest[0])
}

func (r *repo) checkNewBranch(name string, force bool) error {
	if !validBranchName(name) {
		return fatalf("'%s' is not a valid branch name", name)
	}
	if _, err := r.st.Reference(plumbing.NewBranchReferenceName(name)); err == nil && !force {
		return fatalf("a branch named '%s' already exists", name)
	}
	return nil
}

// isRevision says whether an argument names a branch or a commit.
func (r *repo) isRevision(a string) bool {
	if a == "-" {
		return true
	}
	_, err := r.resolveCommit(a)
	return err == nil
}

// showTracking is a bare "git checkout": it lists local changes.
func (r *repo) showTracking() error {
	return r.printLocalChanges()
}

// doSwitch moves HEAD to what start names, updating the index and the
// worktree where the two commits differ and keeping local changes that
// do not collide, as git does.
func (r *repo) doSwitch(req switchRequest, start string) error {
	oldBranch, oldHead, err := r.head()
	if err != nil {
		return err
	}
	if start == "-" {
		prev, ok := r.previousBranch()
		if !ok {
			return fatalf("invalid reference: @{-1}")
		}
		start = prev
	}
	req.arg = start
	if !req.create && !req.detach {
		if _, err := r.st.Reference(plumbing.NewBranchReferenceName(start)); err == nil {
			req.branch = plumbing.NewBranchReferenceName(start)
		}
	}
	if start == "HEAD" && oldHead.IsZero() && req.create {
		// A new branch on an unborn one: only HEAD moves.
		if err := r.st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, req.branch)); err != nil {
			return fatalf("%s", errText(err))
		}
		if !req.quiet {
			fmt.Fprintf(r.g.errw, "Switched to a new branch '%s'\n", req.branch.Short())
		}
		return nil
	}
	if err := r.checkSwitchWhileMerging(req); err != nil {
		return err
	}
	req.target, err = r.resolveCommit(start)
	if err != nil {
		if req.create {
			return fatalf("'%s' is not a commit and a branch '%s' cannot be created from it", start, req.branch.Short())
		}
		return &exitError{msg: fmt.Sprintf("error: pathspec '%s' did not match any file(s) known to git\n", start), code: 1}
	}
	if req.branch == "" {
		req.advise = !req.detach
		req.detach = true
	}
	if !req.create && !req.detach && req.branch == oldBranch {
		if req.quiet {
			return nil
		}
		fmt.Fprintf(r.g.errw, "Already on '%s'\n", oldBranch.Short())
		return r.printLocalChanges()
	}
	if err := r.moveTree(oldHead, req.target); err != nil {
		return err
	}
	if req.create {
		if err := r.setRef(req.branch, req.target); err != nil {
			return err
		}
	}
	if req.detach {
		err = r.st.SetReference(plumbing.NewHashReference(plumbing.HEAD, req.target))
	} else {
		err = r.st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, req.branch))
	}
	if err != nil {
		return fatalf("unable to update HEAD: %s", errText(err))
	}
	r.logCheckout(oldBranch, oldHead, req)
	return r.reportSwitch(oldBranch, oldHead, req)
}

// checkSwitchWhileMerging refuses to move to another commit while a merge
// waits: git switch refuses while MERGE_HEAD exists, git checkout while
// the index has conflicts.
func (r *repo) checkSwitchWhileMerging(req switchRequest) error {
	if _, merging := r.mergeHead(); merging && req.isSwitch {
		return fatalf("cannot switch branch while merging\nConsider \"git merge --quit\" or \"git worktree add\".")
	}
	idx, err := r.loadIndex()
	if err != nil {
		return err
	}
	um := unmergedOf(idx)
	if len(um) == 0 {
		return nil
	}
	for _, u := range um {
		fmt.Fprintf(r.g.out, "%s: needs merge\n", quotePath(r.rel(u.path)))
	}
	return &exitError{msg: "error: you need to resolve your current index first\n", code: 1}
}

func (r *repo) reportSwitch(oldBranch plumbing.ReferenceName, oldHead plumbing.Hash, req switchRequest) error {
	if req.quiet {
		return nil
	}
	if oldBranch == "" && !oldHead.IsZero() && oldHead != req.target {
		if c, err := r.readCommit(oldHead); err == nil {
			fmt.Fprintf(r.g.errw, "Previous HEAD position was %s %s\n", r.abbrev(oldHead), c.subject())
		}
	}
	if err := r.printLocalChanges(); err != nil {
		return err
	}
	switch {
	case req.detach:
		c, err := r.readCommit(req.target)
		if err != nil {
			return err
		}
		if req.advise && oldBranch != "" {
			fmt.Fprintf(r.g.errw, detachedAdvice, req.arg)
		}
		fmt.Fprintf(r.g.errw, "HEAD is now at %s %s\n", r.abbrev(req.target), c.subject())
	case req.create:
		fmt.Fprintf(r.g.errw, "Switched to a new branch '%s'\n", req.branch.Short())
	default:
		fmt.Fprintf(r.g.errw, "Switched to branch '%s'\n", req.branch.Short())
	}
	return nil
}

// printLocalChanges lists what differs from HEAD after a switch, as git
// checkout does ("M\tpath").
func (r *repo) printLocalChanges() error {
	st, _, err := r.collectStatus(false)
	if err != nil {
		return err
	}
	letters := map[string]byte{}
	for _, c := range st.staged {
		letters[c.path] = c.kind
	}
	for _, c := range st.unstaged {
		if _, ok := letters[c.path]; !ok || c.kind == 'D' {
			letters[c.path] = c.kind
		}
	}
	var names []string
	for p := range letters {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		fmt.Fprintf(r.g.out, "%c\t%s\n", letters[p], quotePath(r.rel(p)))
	}
	return nil
}

// moveTree carries the index and the worktree from commit from's tree to
// to's: each path that differs between the two is written or removed,
// unless a local change sits on it (then nothing is changed at all).
func (r *repo) moveTree(from, to plumbing.Hash) error {
	fromTree := plumbing.ZeroHash
	if !from.IsZero() {
		t, err := r.commitTree(from)
		if err != nil {
			return err
		}
		fromTree = t
	}
	toTree, err := r.commitTree(to)
	if err != nil {
		return err
	}
	return r.moveTrees(fromTree, toTree)
}

// moveTrees is moveTree between two trees (zero: the empty tree).
func (r *repo) moveTrees(from, to plumbing.Hash) error {
	lock, idx, err := r.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	oldTree, err := r.flatten(from)
	if err != nil {
		return err
	}
	newTree, err := r.flatten(to)
	if err != nil {
		return err
	}
	s := newScanner(r, idx)
	s.allFiles = true
	sc, err := s.run()
	if err != nil {
		return err
	}
	changed := differing(oldTree, newTree)
	if err := r.checkCollisions(changed, oldTree, newTree, s, sc); err != nil {
		return err
	}
	for _, p := range changed {
		if err := r.applyPath(p, newTree, s.entries); err != nil {
			return err
		}
	}
	setEntries(idx, s.entries)
	return lock.commit(idx)
}

// differing lists the paths whose entries differ between two sides.
func differing(a, b map[string]flatEntry) []string {
	var out []string
	for p, e := range a {
		if be, ok := b[p]; !ok || be != e {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// checkCollisions refuses a switch that would overwrite local changes or
// untracked files, or change a path the door hides (which the session can
// neither write nor be told about).
func (r *repo) checkCollisions(changed []string, oldTree, newTree map[string]flatEntry, s *scanner, sc *scan) error {
	var local, untracked []string
	untrackedSet := map[string]bool{}
	for _, p := range sc.untracked {
		untrackedSet[p] = true
	}
	for _, p := range changed {
		if sc.hidden[p] || r.hiddenPath(p) {
			return &exitError{msg: "error: this switch would change files hidden from this session\nAborting\n", code: 1}
		}
		// A file the session may not change or create (a deny rule, a
		// read-only mount) is refused before anything is written, so a
		// switch or a merge never stops half done.
		if err := r.checkWritable(p, newTree); err != nil {
			return err
		}
		e, inIndex := s.entries[p]
		old, inOld := oldTree[p]
		switch {
		case inIndex && (!inOld || old.Hash != e.Hash || old.Mode != e.Mode):
			local = append(local, p)
		case inIndex && sc.tracked[p] != wtSame:
			local = append(local, p)
		case !inIndex && inOld:
			local = append(local, p)
		case !inIndex && untrackedSet[p]:
			untracked = append(untracked, p)
		}
	}
	if len(local) > 0 {
		return &exitError{msg: "error: Your local changes to the following files would be overwritten by checkout:\n\t" +
			strings.Join(local, "\n\t") + "\nPlease commit your changes or stash them before you switch branches.\nAborting\n", code: 1}
	}
	if len(untracked) > 0 {
		return &exitError{msg: "error: The following untracked working tree files would be overwritten by checkout:\n\t" +
			strings.Join(untracked, "\n\t") + "\nPlease move or remove them before you switch branches.\nAborting\n", code: 1}
	}
	return nil
}

// checkWritable is the door's word on the write applyPath would make of
// p: rewriting or creating it when target holds it (a new file in a
// place the session may not write is refused like a denied file),
// removing it otherwise. Nothing is changed.
func (r *repo) checkWritable(p string, target map[string]flatEntry) error {
	if _, write := target[p]; write {
		if err := r.g.fsys.CheckCreate(r.abs(p)); err != nil {
			return &exitError{msg: fmt.Sprintf("error: unable to create file %s: %s\nAborting\n", p, errText(err)), code: 1}
		}
		return nil
	}
	if err := r.g.fsys.CheckWrite(r.abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &exitError{msg: fmt.Sprintf("error: unable to unlink old '%s': %s\nAborting\n", p, errText(err)), code: 1}
	}
	return nil
}

// applyPath makes the worktree and the index hold target's version of p
// (removing it when target has none).
func (r *repo) applyPath(p string, target map[string]flatEntry, entries map[string]*index.Entry) error {
	te, ok := target[p]
	if !ok {
		if err := r.g.fsys.Remove(r.abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fatalf("unable to unlink '%s': %s", p, errText(err))
		}
		r.pruneDirs(path.Dir(p))
		delete(entries, p)
		return nil
	}
	e, err := r.writeWorkFile(p, te)
	if err != nil {
		return err
	}
	entries[p] = e
	return nil
}

// writeWorkFile writes a blob to the worktree and returns its index entry.
func (r *repo) writeWorkFile(p string, te flatEntry) (*index.Entry, error) {
	data, err := r.blob(te.Hash)
	if err != nil {
		return nil, err
	}
	abs := r.abs(p)
	if dir := path.Dir(abs); dir != r.work {
		if err := mkdirAll(r.g.fsys, dir, 0o777); err != nil {
			return nil, fatalf("unable to create directory for '%s': %s", p, errText(err))
		}
	}
	if info, err := r.g.fsys.Lstat(abs); err == nil && (info.Mode()&fs.ModeSymlink != 0) != (te.Mode == filemode.Symlink) {
		r.g.fsys.Remove(abs)
	}
	if te.Mode == filemode.Symlink {
		r.g.fsys.Remove(abs)
		if err := r.g.fsys.Symlink(string(data), abs); err != nil {
			return nil, fatalf("unable to create symlink '%s': %s", p, errText(err))
		}
	} else {
		perm := fs.FileMode(0o644)
		if te.Mode == filemode.Executable {
			perm = 0o755
		}
		if err := writeFile(r.g.fsys, abs, data, perm); err != nil {
			return nil, &exitError{msg: fmt.Sprintf("error: unable to create file %s: %s\n", p, errText(err)), code: 1}
		}
		if err := r.g.fsys.Chmod(abs, perm); err != nil {
			return nil, fatalf("unable to set mode of '%s': %s", p, errText(err))
		}
	}
	info, err := r.g.fsys.Lstat(abs)
	if err != nil {
		return nil, fatalf("unable to stat just-written file '%s': %s", p, errText(err))
	}
	return &index.Entry{Name: p, Hash: te.Hash, Mode: te.Mode, Size: uint32(info.Size()), CreatedAt: info.ModTime(), ModifiedAt: info.ModTime()}, nil
}

// pruneDirs removes directories left empty, up to the worktree's top.
func (r *repo) pruneDirs(dir string) {
	for dir != "." && dir != "" && dir != "/" {
		if err := r.g.fsys.Remove(r.abs(dir)); err != nil {
			return
		}
		dir = path.Dir(dir)
	}
}

// checkoutPaths restores paths in the worktree from the index, or from a
// commit's tree (then in the index too).
func (r *repo) checkoutPaths(source string, args []string, report bool) error {
	specs, err := r.pathspecs(args)
	if err != nil {
		return err
	}
	lock, idx, err := r.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	entries := map[string]*index.Entry{}
	for _, e := range idx.Entries {
		if e.Stage == stageMerged {
			entries[e.Name] = e
		}
	}
	from := indexFlat(idx)
	origin := "the index"
	if source != "" {
		h, err := r.resolveCommit(source)
		if err != nil {
			return errBadRev(source)
		}
		t, err := r.commitTree(h)
		if err != nil {
			return err
		}
		if from, err = r.flatten(t); err != nil {
			return err
		}
		origin = r.abbrev(t)
	}
	var names []string
	for _, sp := range specs {
		found := false
		for p := range from {
			if sp.match(p) && !r.hiddenPath(p) {
				names = append(names, p)
				found = true
			}
		}
		if !found {
			return &exitError{msg: fmt.Sprintf("error: pathspec '%s' did not match any file(s) known to git\n", sp.arg), code: 1}
		}
	}
	sort.Strings(names)
	var writes []string
	for i, p := range names {
		if i > 0 && names[i-1] == p {
			continue
		}
		if info, err := r.g.fsys.Lstat(r.abs(p)); err == nil && modeOf(info) == from[p].Mode {
			if h, err := r.hashWorkFile(p, info); err == nil && h == from[p].Hash {
				if cur := entries[p]; source != "" && (cur == nil || cur.Hash != h) {
					entries[p] = &index.Entry{Name: p, Hash: h, Mode: from[p].Mode, Size: uint32(info.Size()), CreatedAt: info.ModTime(), ModifiedAt: info.ModTime()}
				}
				continue
			}
		}
		writes = append(writes, p)
	}
	// Every write is judged before the first is made (G-6.1).
	for _, p := range writes {
		if err := r.checkWritable(p, from); err != nil {
			return err
		}
	}
	updated := 0
	for _, p := range writes {
		updated++
		e, err := r.writeWorkFile(p, from[p])
		if err != nil {
			return err
		}
		if source != "" {
			entries[p] = e
		} else if cur := entries[p]; cur != nil {
			cur.Size, cur.ModifiedAt, cur.CreatedAt = e.Size, e.ModifiedAt, e.CreatedAt
		}
	}
	setEntries(idx, entries)
	if err := lock.commit(idx); err != nil {
		return err
	}
	if report {
		fmt.Fprintf(r.g.errw, "Updated %d path%s from %s\n", updated, plural(updated), origin)
	}
	return nil
}

// logCheckout appends to HEAD's reflog the line git writes for a
// checkout, which "checkout -" and "switch -" read back.
func (r *repo) logCheckout(oldBranch plumbing.ReferenceName, oldHead plumbing.Hash, req switchRequest) {
	from := oldHead.String()
	if oldBranch != "" {
		from = oldBranch.Short()
	}
	to := req.arg
	if req.create {
		to = req.branch.Short()
	}
	name, _ := r.g.configValue(r.cfg, "user.name")
	email, _ := r.g.configValue(r.cfg, "user.email")
	now := time.Now().UTC()
	line := fmt.Sprintf("%s %s %s <%s> %d +0000\tcheckout: moving from %s to %s\n", oldHead, req.target, name, email, now.Unix(), from, to)
	p := r.gitDir + "/logs/HEAD"
	mkdirAll(r.g.gitfs, r.gitDir+"/logs", 0o777)
	old, _ := readFile(r.g.gitfs, p)
	writeFile(r.g.gitfs, p, append(old, line...), 0o644)
}

// previousBranch is what "-" names: where the last checkout came from.
func (r *repo) previousBranch() (string, bool) {
	data, err := readFile(r.g.gitfs, r.gitDir+"/logs/HEAD")
	if err != nil {
		return "", false
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		_, msg, ok := strings.Cut(lines[i], "\tcheckout: moving from ")
		if !ok {
			continue
		}
		from, _, ok := strings.Cut(msg, " to ")
		return from, ok
	}
	return "", false
}
