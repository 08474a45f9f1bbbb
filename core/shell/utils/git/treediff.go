package git

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// flattenPair flattens the trees ha and hb as flatten does, but only
// where they differ: a subtree with the same id on both sides is not
// read, and a file the same on both sides is left out of both maps. What
// flatChanges compares (the paths that differ) is the same as over whole
// flattenings, at the cost of the changed directories alone.
func (r *repo) flattenPair(ha, hb plumbing.Hash) (a, b map[string]flatEntry, err error) {
	a, b = map[string]flatEntry{}, map[string]flatEntry{}
	return a, b, r.walkPair(ha, hb, "", a, b)
}

func (r *repo) walkPair(ha, hb plumbing.Hash, prefix string, a, b map[string]flatEntry) error {
	if ha == hb {
		return nil
	}
	if err := r.stopped(); err != nil {
		return err
	}
	var ea, eb []treeEntry
	var err error
	if !ha.IsZero() {
		if ea, err = r.readTree(ha); err != nil {
			return err
		}
	}
	if !hb.IsZero() {
		if eb, err = r.readTree(hb); err != nil {
			return err
		}
	}
	byName := make(map[string]treeEntry, len(eb))
	for _, e := range eb {
		byName[e.Name] = e
	}
	// put adds one side's entry: a file as it is, a directory whole.
	put := func(e treeEntry, old bool) error {
		p := prefix + e.Name
		side := b
		if old {
			side = a
		}
		if e.Mode != filemode.Dir {
			side[p] = flatEntry{Hash: e.Hash, Mode: e.Mode}
			return nil
		}
		if old {
			return r.walkPair(e.Hash, plumbing.ZeroHash, p+"/", a, b)
		}
		return r.walkPair(plumbing.ZeroHash, e.Hash, p+"/", a, b)
	}
	for _, x := range ea {
		y, ok := byName[x.Name]
		delete(byName, x.Name)
		switch {
		case !ok:
			err = put(x, true)
		case x.Mode == filemode.Dir && y.Mode == filemode.Dir:
			err = r.walkPair(x.Hash, y.Hash, prefix+x.Name+"/", a, b)
		case x == y:
		default:
			if err = put(x, true); err == nil {
				err = put(y, false)
			}
		}
		if err != nil {
			return err
		}
	}
	for _, e := range eb {
		if _, left := byName[e.Name]; left {
			if err := put(e, false); err != nil {
				return err
			}
		}
	}
	return nil
}
