package git

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// runLsTree is git ls-tree [-r] [-t] [--name-only] TREE-ISH [PATH...]: a
// tree's entries (of the current directory's subtree, named relative to
// it), recursively with -r. Hidden paths are left out (G-4.5).
func runLsTree(g *cmd, args []string) error {
	recursive, showTrees, nameOnly := false, false, false
	var operands []string
	for _, a := range args {
		switch a {
		case "-r":
			recursive = true
		case "-t":
			showTrees = true
		case "--name-only", "--name-status":
			nameOnly = true
		default:
			if strings.HasPrefix(a, "-") {
				return &exitError{msg: "git: 'ls-tree " + a + "' is not supported here\n", code: 1}
			}
			operands = append(operands, a)
		}
	}
	if len(operands) == 0 {
		return usageErr("usage: git ls-tree [<options>] <tree-ish> [<path>...]\n")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	h, err := r.resolveTreeish(operands[0])
	if err != nil {
		return fatalf("Not a valid object name %s", operands[0])
	}
	prefix, _ := r.workPath(".")
	var wants []string // full paths asked for; a trailing "/" asks for the contents
	for _, a := range operands[1:] {
		p, ok := r.workPath(a)
		if !ok {
			return fatalf("%s: '%s' is outside repository at '%s'", a, a, r.work)
		}
		if strings.HasSuffix(a, "/") && p != "" {
			p += "/"
		}
		wants = append(wants, p)
	}
	if len(wants) == 0 {
		wants = []string{prefix}
		if prefix != "" {
			wants[0] += "/"
		}
	}
	var walk func(tree plumbing.Hash, dir string) error
	walk = func(tree plumbing.Hash, dir string) error {
		entries, err := r.readTree(tree)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := joinRel(dir, e.Name)
			if r.hiddenPath(p) {
				continue
			}
			isDir := e.Mode == filemode.Dir
			show, descend := false, false
			for _, w := range wants {
				switch {
				case w == "" || strings.HasPrefix(p, w) && strings.HasSuffix(w, "/"):
					show, descend = !isDir || !recursive || showTrees, isDir && recursive
				case p == w, recursive && strings.HasPrefix(p, w+"/"):
					show, descend = !isDir || !recursive || showTrees, isDir && recursive
				case isDir && strings.HasPrefix(w, p+"/"):
					descend = true
				}
				if w == p+"/" {
					descend = true
				}
			}
			if show {
				name := quotePath(relPath("/"+prefix, "/"+p))
				if prefix == "" {
					name = quotePath(p)
				}
				if nameOnly {
					fmt.Fprintln(g.out, name)
				} else {
					typ := "blob"
					switch e.Mode {
					case filemode.Dir:
						typ = "tree"
					case filemode.Submodule:
						typ = "commit"
					}
					fmt.Fprintf(g.out, "%06o %s %s\t%s\n", uint32(e.Mode), typ, e.Hash, name)
				}
			}
			if descend {
				if err := walk(e.Hash, p); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(h, "")
}

// resolveTreeish is the tree a revision names (a commit's, or a tree).
func (r *repo) resolveTreeish(rev string) (plumbing.Hash, error) {
	if h, err := r.resolveCommit(rev); err == nil {
		return r.commitTree(h)
	}
	o, err := r.lookupObject(rev)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if o.typ != plumbing.TreeObject {
		return plumbing.ZeroHash, fatalf("not a tree object")
	}
	return o.hash, nil
}
