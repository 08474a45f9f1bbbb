package git

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// object is an object named on the command line, with the worktree path
// it was reached by when the name said one (REV:PATH, :PATH), or found
// for it (a bare blob or tree id).
type object struct {
	hash plumbing.Hash
	typ  plumbing.ObjectType
	data []byte
	path string // "" for the root tree or an object with no path
	name string // as given
}

// resolveObject resolves any object name: REV, REV:PATH, :PATH.
func (r *repo) resolveObject(a string) (plumbing.Hash, error) {
	o, err := r.lookupObject(a)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return o.hash, nil
}

// lookupObject finds an object and judges it: content reached through a
// path is shown only if reading that worktree path is allowed (a hidden
// path "does not exist"; a denied one refuses with its reason), and a
// bare blob or tree id only if some visible path of the index or of the
// history holds it, so ids listed in .git/objects reveal nothing.
func (r *repo) lookupObject(a string) (*object, error) {
	o := &object{name: a}
	rev, p, hasPath := strings.Cut(a, ":")
	if hasPath && !strings.HasPrefix(a, ":/") {
		if err := r.pathObject(o, rev, p); err != nil {
			return nil, err
		}
	} else {
		h, err := r.resolve(a)
		if err != nil {
			return nil, err
		}
		o.hash = h
	}
	t, data, err := r.readObject(o.hash)
	if err != nil {
		return nil, errBadRev(a)
	}
	o.typ, o.data = t, data
	if !hasPath && (t == plumbing.BlobObject || t == plumbing.TreeObject) {
		p, ok := r.visiblePathOf(o.hash, t)
		if !ok {
			return nil, errBadRev(a)
		}
		o.path = p
	}
	return o, nil
}

// pathObject resolves REV:PATH (the index for an empty REV, :N:PATH its
// stage N).
func (r *repo) pathObject(o *object, rev, p string) error {
	stage := stageMerged
	if rev == "" && len(p) > 2 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' {
		stage, p = index.Stage(p[0]-'0'), p[2:]
	}
	name := p
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." {
		wp, ok := r.workPath(p)
		if !ok {
			return fatalf("'%s' is outside repository at '%s'", p, r.work)
		}
		name = wp
	}
	name = strings.Trim(path.Clean("/"+name), "/")
	if name != "" {
		if err := r.readablePath(name); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return r.missingPath(rev, p)
			}
			return fatalf("%s: %s", p, errText(err))
		}
	}
	o.path = name
	if rev == "" {
		idx, err := r.loadIndex()
		if err != nil {
			return err
		}
		var other *index.Entry
		for _, e := range idx.Entries {
			if e.Name == name && e.Stage == stage {
				o.hash = e.Hash
				return nil
			}
			if e.Name == name && other == nil {
				other = e
			}
		}
		if other != nil {
			return fatalf("path '%s' is in the index, but not at stage %d\nhint: Did you mean ':%d:%s'?", p, stage, other.Stage, p)
		}
		return fatalf("path '%s' does not exist (neither on disk nor in the index)", p)
	}
	h, err := r.resolve(rev)
	if err != nil {
		return err
	}
	tree, err := r.peel(h, "tree")
	if err != nil {
		return errBadRev(rev + ":" + p)
	}
	if name == "" {
		o.hash = tree
		return nil
	}
	e, ok, err := r.treeLookup(tree, name)
	if err != nil {
		return err
	}
	if !ok {
		return r.missingPath(rev, p)
	}
	o.hash = e.Hash
	return nil
}

func (r *repo) missingPath(rev, p string) error {
	if rev == "" {
		return fatalf("path '%s' does not exist (neither on disk nor in the index)", p)
	}
	return fatalf("path '%s' does not exist in '%s'", p, rev)
}

// treeLookup finds a path's entry in a tree.
func (r *repo) treeLookup(tree plumbing.Hash, p string) (treeEntry, bool, error) {
	parts := strings.Split(p, "/")
	cur := tree
	for i, part := range parts {
		entries, err := r.readTree(cur)
		if err != nil {
			return treeEntry{}, false, err
		}
		found := false
		for _, e := range entries {
			if e.Name == part {
				if i == len(parts)-1 {
					return e, true, nil
				}
				if e.Mode != filemode.Dir {
					return treeEntry{}, false, nil
				}
				cur, found = e.Hash, true
				break
			}
		}
		if !found {
			return treeEntry{}, false, nil
		}
	}
	return treeEntry{}, false, nil
}

// visiblePathOf finds a path holding a blob or tree id that the session
// may read: the index first, then every tree reachable from HEAD and the
// refs. The root tree of a commit is the path "".
func (r *repo) visiblePathOf(h plumbing.Hash, t plumbing.ObjectType) (string, bool) {
	if t == plumbing.BlobObject {
		if idx, err := r.loadIndex(); err == nil {
			for _, e := range idx.Entries {
				if e.Hash == h && r.readablePath(e.Name) == nil {
					return e.Name, true
				}
			}
		}
	}
	var starts []plumbing.Hash
	if _, head, err := r.head(); err == nil && !head.IsZero() {
		starts = append(starts, head)
	}
	if refs, err := r.refs(); err == nil {
		for _, ref := range refs {
			starts = append(starts, ref.Hash())
		}
	}
	commits := map[plumbing.Hash]bool{}
	trees := map[plumbing.Hash]bool{}
	var found string
	var walkTree func(tree plumbing.Hash, prefix string) bool
	walkTree = func(tree plumbing.Hash, prefix string) bool {
		if trees[tree] {
			return false
		}
		trees[tree] = true
		entries, err := r.readTree(tree)
		if err != nil {
			return false
		}
		for _, e := range entries {
			p := prefix + e.Name
			if e.Hash == h && r.readablePath(p) == nil {
				found = p
				return true
			}
			if e.Mode == filemode.Dir && r.readablePath(p) == nil && walkTree(e.Hash, p+"/") {
				return true
			}
		}
		return false
	}
	for len(starts) > 0 {
		c := starts[len(starts)-1]
		starts = starts[:len(starts)-1]
		if commits[c] {
			continue
		}
		commits[c] = true
		cm, err := r.readCommit(c)
		if err != nil {
			continue
		}
		if cm.Tree == h {
			return "", true
		}
		if walkTree(cm.Tree, "") {
			return found, true
		}
		starts = append(starts, cm.Parents...)
	}
	return "", false
}

// treeLines is a tree's entries as cat-file -p prints them, the door's
// hidden names left out.
func (r *repo) treeLines(o *object, short bool) ([]string, error) {
	entries, err := decodeTree(o.data)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, e := range entries {
		p := e.Name
		if o.path != "" {
			p = o.path + "/" + e.Name
		}
		if r.hiddenPath(p) {
			continue
		}
		if short {
			name := e.Name
			if e.Mode == filemode.Dir {
				name += "/"
			}
			lines = append(lines, quotePath(name))
			continue
		}
		typ := "blob"
		switch e.Mode {
		case filemode.Dir:
			typ = "tree"
		case filemode.Submodule:
			typ = "commit"
		}
		lines = append(lines, fmt.Sprintf("%06o %s %s\t%s", uint32(e.Mode), typ, e.Hash, quotePath(e.Name)))
	}
	return lines, nil
}

func runCatFile(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	mode := ""
	var names []string
	for _, a := range args {
		switch a {
		case "-t", "-p", "-s", "-e":
			mode = a
		default:
			if strings.HasPrefix(a, "-") {
				return unknownOption("cat-file", a)
			}
			names = append(names, a)
		}
	}
	if mode == "" || len(names) != 1 {
		return usageErr("usage: git cat-file (-t | -s | -e | -p) <object>\n")
	}
	o, err := r.lookupObject(names[0])
	if err != nil {
		if mode == "-e" && len(names[0]) == 40 && isHex(names[0]) {
			return exitStatus(1)
		}
		if strings.Contains(names[0], ":") {
			return err
		}
		return fatalf("Not a valid object name %s", names[0])
	}
	switch mode {
	case "-e":
	case "-t":
		fmt.Fprintln(g.out, o.typ)
	case "-s":
		fmt.Fprintln(g.out, len(o.data))
	case "-p":
		if o.typ == plumbing.TreeObject {
			lines, err := r.treeLines(o, false)
			if err != nil {
				return err
			}
			for _, ln := range lines {
				fmt.Fprintln(g.out, ln)
			}
			return nil
		}
		g.out.Write(o.data)
	}
	return nil
}
