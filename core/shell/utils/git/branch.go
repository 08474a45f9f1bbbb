package git

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// validBranchName applies git's ref-name rules to a branch name.
func validBranchName(name string) bool {
	if name == "" || name == "HEAD" || strings.HasPrefix(name, "-") || strings.HasPrefix(name, "/") ||
		strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "//") || strings.Contains(name, "@{") {
		return false
	}
	for _, c := range []byte(name) {
		if c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return false
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return false
		}
	}
	return true
}

// branches lists the branch names, sorted.
func (r *repo) branches() ([]string, error) {
	iter, err := r.st.IterReferences()
	if err != nil {
		return nil, err
	}
	var names []string
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		if ref.Name().IsBranch() {
			names = append(names, ref.Name().Short())
		}
		return nil
	})
	sort.Strings(names)
	return names, err
}

// refs lists every reference with a hash (branches, tags, stash).
func (r *repo) refs() ([]*plumbing.Reference, error) {
	iter, err := r.st.IterReferences()
	if err != nil {
		return nil, err
	}
	var out []*plumbing.Reference
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		if ref.Type() == plumbing.HashReference {
			out = append(out, ref)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, err
}

func runBranch(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	var mode, remotes string
	verbose, force, list := false, false, false
	var names []string
	for _, a := range args {
		switch a {
		case "-d", "--delete":
			mode = "delete"
		case "-D":
			mode, force = "delete", true
		case "-m", "--move":
			mode = "move"
		case "-M":
			mode, force = "move", true
		case "-f", "--force":
			force = true
		case "--show-current":
			mode = "current"
		case "-v", "-vv", "--verbose":
			verbose = true
		case "--list", "-l":
			list = true
		case "--no-color", "-q", "--quiet":
		case "-a", "--all":
			remotes = "all"
		case "-r", "--remotes":
			remotes = "only"
		default:
			if strings.HasPrefix(a, "-") {
				return unknownOption("branch", a)
			}
			names = append(names, a)
		}
	}
	switch {
	case mode == "current":
		branch, _, err := r.head()
		if err != nil {
			return err
		}
		if branch != "" {
			fmt.Fprintln(r.g.out, branch.Short())
		}
		return nil
	case mode == "delete":
		if len(names) == 0 {
			return fatalf("branch name required")
		}
		return r.deleteBranches(names, force)
	case mode == "move":
		return r.moveBranch(names, force)
	case len(names) > 0 && !list:
		if len(names) > 2 {
			return fatalf("too many arguments for a create operation")
		}
		return r.createBranch(names, force)
	}
	return r.listBranches(verbose, remotes, names)
}

// listBranches prints the branches; remotes is "" (local ones), "all"
// (then the remote-tracking ones) or "only"; patterns (--list) keep
// those whose names match one (wildmatch).
func (r *repo) listBranches(verbose bool, remotes string, patterns []string) error {
	branch, head, err := r.head()
	if err != nil {
		return err
	}
	names, err := r.branches()
	if err != nil {
		return err
	}
	type row struct {
		label string
		hash  plumbing.Hash
		cur   bool
	}
	var rows []row
	if branch == "" && !head.IsZero() {
		rows = append(rows, row{fmt.Sprintf("(HEAD detached at %s)", r.abbrev(head)), head, true})
	}
	for _, n := range names {
		ref, err := r.st.Reference(plumbing.NewBranchReferenceName(n))
		if err != nil {
			continue
		}
		rows = append(rows, row{n, ref.Hash(), branch.Short() == n && branch != ""})
	}
	if remotes == "only" {
		rows = nil
	}
	if remotes != "" {
		refs, err := r.remoteRefs()
		if err != nil {
			return err
		}
		for _, ref := range refs {
			label := strings.TrimPrefix(string(ref.Name()), "refs/")
			if remotes == "only" {
				label = strings.TrimPrefix(label, "remotes/")
			}
			if ref.Type() == plumbing.SymbolicReference {
				label += " -> " + strings.TrimPrefix(string(ref.Target()), "refs/remotes/")
			}
			rows = append(rows, row{label: label, hash: ref.Hash()})
		}
	}
	if len(patterns) > 0 {
		kept := rows[:0]
		for _, rw := range rows {
			name, _, _ := strings.Cut(rw.label, " -> ")
			for _, p := range patterns {
				if wildmatch(p, name) {
					kept = append(kept, rw)
					break
				}
			}
		}
		rows = kept
	}
	width := 0
	for _, rw := range rows {
		if len(rw.label) > width && !strings.Contains(rw.label, " -> ") {
			width = len(rw.label)
		}
	}
	for _, rw := range rows {
		mark := "  "
		if rw.cur {
			mark = "* "
		}
		if !verbose {
			fmt.Fprintf(r.g.out, "%s%s\n", mark, rw.label)
			continue
		}
		subject := ""
		if c, err := r.readCommit(rw.hash); err == nil {
			subject = c.subject()
		}
		fmt.Fprintf(r.g.out, "%s%-*s %s %s\n", mark, width, rw.label, r.abbrev(rw.hash), subject)
	}
	return nil
}

func (r *repo) createBranch(names []string, force bool) error {
	name := names[0]
	if !validBranchName(name) {
		return fatalf("'%s' is not a valid branch name", name)
	}
	start := "HEAD"
	if len(names) == 2 {
		start = names[1]
	}
	h, err := r.resolveCommit(start)
	if err != nil {
		if start == "HEAD" {
			branch, _, _ := r.head()
			return fatalf("not a valid object name: '%s'", branch.Short())
		}
		return fatalf("not a valid object name: '%s'", start)
	}
	ref := plumbing.NewBranchReferenceName(name)
	if _, err := r.st.Reference(ref); err == nil && !force {
		return fatalf("a branch named '%s' already exists", name)
	}
	return r.setRef(ref, h)
}

// setRef points a ref at h, in git's voice when it cannot.
func (r *repo) setRef(name plumbing.ReferenceName, h plumbing.Hash) error {
	if err := r.st.SetReference(plumbing.NewHashReference(name, h)); err != nil {
		return fatalf("cannot lock ref '%s': %s", name, errText(err))
	}
	return nil
}

func (r *repo) deleteBranches(names []string, force bool) error {
	branch, head, err := r.head()
	if err != nil {
		return err
	}
	failed := false
	for _, n := range names {
		ref := plumbing.NewBranchReferenceName(n)
		cur, err := r.st.Reference(ref)
		if err != nil {
			fmt.Fprintf(r.g.errw, "error: branch '%s' not found.\n", n)
			failed = true
			continue
		}
		if ref == branch {
			fmt.Fprintf(r.g.errw, "error: Cannot delete branch '%s' checked out at '%s'\n", n, r.work)
			failed = true
			continue
		}
		if !force && !head.IsZero() {
			merged, err := r.isAncestor(cur.Hash(), head)
			if err != nil {
				return err
			}
			if !merged {
				fmt.Fprintf(r.g.errw, "error: The branch '%s' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D %s'.\n", n, n)
				failed = true
				continue
			}
		}
		if err := r.st.RemoveReference(ref); err != nil {
			return fatalf("cannot delete branch '%s': %s", n, errText(err))
		}
		fmt.Fprintf(r.g.out, "Deleted branch %s (was %s).\n", n, r.abbrev(cur.Hash()))
	}
	if failed {
		return exitStatus(1)
	}
	return nil
}

func (r *repo) moveBranch(names []string, force bool) error {
	branch, _, err := r.head()
	if err != nil {
		return err
	}
	var from, to string
	switch len(names) {
	case 1:
		if branch == "" {
			return fatalf("cannot rename the current branch while not on any.")
		}
		from, to = branch.Short(), names[0]
	case 2:
		from, to = names[0], names[1]
	default:
		return fatalf("branch name required")
	}
	if !validBranchName(to) {
		return fatalf("'%s' is not a valid branch name", to)
	}
	oldRef := plumbing.NewBranchReferenceName(from)
	newRef := plumbing.NewBranchReferenceName(to)
	cur, err := r.st.Reference(oldRef)
	if err != nil && !(errors.Is(err, plumbing.ErrReferenceNotFound) && oldRef == branch) {
		return fatalf("no branch named '%s'", from)
	}
	if _, err := r.st.Reference(newRef); err == nil && !force && oldRef != newRef {
		return fatalf("a branch named '%s' already exists", to)
	}
	if cur != nil {
		if err := r.setRef(newRef, cur.Hash()); err != nil {
			return err
		}
		if oldRef != newRef {
			r.st.RemoveReference(oldRef)
		}
	}
	if oldRef == branch {
		return r.st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, newRef))
	}
	return nil
}

// isAncestor reports whether a is h or one of its ancestors.
func (r *repo) isAncestor(a, h plumbing.Hash) (bool, error) {
	marks := map[plumbing.Hash]bool{}
	if err := r.markAncestors(h, marks); err != nil {
		return false, err
	}
	return marks[a], nil
}

// remoteRefs lists refs/remotes/*, symbolic ones included, sorted.
func (r *repo) remoteRefs() ([]*plumbing.Reference, error) {
	iter, err := r.st.IterReferences()
	if err != nil {
		return nil, err
	}
	var out []*plumbing.Reference
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		if ref.Name().IsRemote() {
			out = append(out, ref)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, err
}
