package vfs

import "strings"

// GitRole is what a view of the git utility serves: its work tree or its
// repository (.git). Other views have none.
type GitRole uint8

// The roles of GitView.
const (
	GitNone GitRole = iota
	// GitWorkTree: checkout, reset, stash, merge, mv and rm write files
	// whose content the agent chose (any blob of any commit). No op of
	// this view reaches a path with a .git component, judged on the
	// path every link resolved, so a link that stands (or is flipped, by
	// a host process or another session, while git runs) where a
	// directory of the work tree was can never steer such a write into a
	// repository's index or object store, which only git writes (G-4.5,
	// G-6.1a).
	GitWorkTree
	// GitRepository: git's own files. A link inside .git may not lead an
	// op of this view into a repository's index or object store under
	// another name than the op gave (COMMIT_EDITMSG made a link to
	// .git/index would take a commit message there); a link above .git
	// (a work tree reached through a linked directory) changes nothing.
	GitRepository
)

// errIntoGit refuses an op of a git view that would reach where that view
// may not: a work tree's op inside a .git, a repository's op led into its
// index or objects by a link.
var errIntoGit = &RefusedError{Reason: "a work tree's files never lead into a repository's .git"}

// GitViewer is an FS that can give the git utility its views: a view of
// this package, or a wrapper of one (a shell's stdio or stop wrapper) that
// wraps the inner FS's git view in turn.
type GitViewer interface {
	GitView(role GitRole) (FS, bool)
}

// GitView returns fsys as the git utility's view of a work tree or of a
// repository (see GitRole): the same door, the same mask, plus the role's
// limit. ok is false when fsys cannot give one (it is no view, and wraps
// none), and git must not run on it: its work-tree writes would go
// unguarded.
func GitView(fsys FS, role GitRole) (FS, bool) {
	if g, ok := fsys.(GitViewer); ok {
		return g.GitView(role)
	}
	return fsys, false
}

// GitView implements GitViewer.
func (v *view) GitView(role GitRole) (FS, bool) {
	g := *v
	g.git = role
	return &g, true
}

// hasGitComponent reports whether the clean absolute path p has a
// component named .git.
func hasGitComponent(p string) bool {
	for {
		i := strings.Index(p, "/.git")
		if i < 0 {
			return false
		}
		p = p[i+len("/.git"):]
		if p == "" || p[0] == '/' {
			return true
		}
	}
}

// linkedIntoGitStore reports whether resolving the clean path clean to
// resolved followed a link into a repository's index or object store
// from a path that did not name that place: the part of resolved after
// its last .git component is not what clean named after its own.
func linkedIntoGitStore(clean, resolved string) bool {
	if clean == resolved || !hasGitComponent(resolved) {
		return false
	}
	inside := gitTail(resolved)
	first, _, _ := strings.Cut(inside, "/")
	if first != "index" && first != "index.lock" && first != "objects" {
		return false
	}
	return !hasGitComponent(clean) || gitTail(clean) != inside
}

// gitTail is the part of p after its last .git component ("" for a path
// ending in .git).
func gitTail(p string) string {
	i := strings.LastIndex(p, "/.git/")
	if i < 0 {
		return ""
	}
	return p[i+len("/.git/"):]
}
