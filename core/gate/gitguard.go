package gate

import (
	"path"
	"strings"

	"gatehouse/core/vfs"
)

// The refusals of a write to a repository's index or object store, and of
// a new .git, by anything but git.
const (
	gitInternalsReason = "only git writes a repository's index and objects"
	gitDirReason       = "only git makes a .git"
)

// gitGuard refuses, under a profile that can hide or deny a path, every
// change to a repository's index or object store, and every new entry named
// .git, that does not come from the git utility itself (G-4.5, G-6.1).
//
// git judges an object by the paths that hold it: a blob is shown, or
// checked out, at a readable path of the index or of a tree. Both the index
// and the trees are files under .git; were they writable by hand, an agent
// could write an index (or a loose object) placing a hidden file's blob at
// a readable name and have git print or check out its content. With only
// git writing them, every placement is one git made from content the
// writing session could read. Removing, chmod and utimes change no
// placement and stay allowed (rm -rf .git); a hard link from inside the
// store is refused, as writing through it would be.
func (d *door) gitGuard(op vfs.Op) error {
	if !op.Write && op.Name != vfs.OpLink {
		return nil
	}
	switch op.Name {
	case vfs.OpRemove, vfs.OpChmod, vfs.OpUtimes:
		return nil
	}
	if !strings.Contains(op.Path, "/.git") || !(d.p.hasEntries || d.p.policies != nil) {
		return nil
	}
	reason := gitInternalsReason
	if !gitInternal(op.Path) {
		if !op.Create || path.Base(op.Path) != ".git" {
			return nil
		}
		reason = gitDirReason
	}
	if d.cmd != nil && len(d.cmd.Argv) > 0 && path.Base(d.cmd.Argv[0]) == "git" {
		return nil
	}
	return &vfs.RefusedError{Reason: reason}
}

// gitInternal reports whether p lies in a repository's index or object
// store: a .git component followed by index (or index.lock) or objects.
func gitInternal(p string) bool {
	for {
		i := strings.Index(p, "/.git/")
		if i < 0 {
			return false
		}
		rest := p[i+len("/.git/"):]
		first, _, _ := strings.Cut(rest, "/")
		if first == "index" || first == "index.lock" || first == "objects" {
			return true
		}
		p = p[i+len("/.git"):]
	}
}
