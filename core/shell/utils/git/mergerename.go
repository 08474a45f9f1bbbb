package git

import (
	"errors"
	"io/fs"
	"sort"
)

// renamesOf pairs the paths side deleted from base with those it added,
// as git's rename detection does (identical content, then similar by at
// least half): old path -> new path. Paths the door hides or refuses to
// read are never paired.
func (r *repo) renamesOf(base, side map[string]flatEntry) (map[string]string, error) {
	var paths []string
	dels, adds := false, false
	for p, e := range base {
		if _, ok := side[p]; !ok {
			paths = append(paths, p)
			dels = dels || isFileMode(e.Mode)
		}
	}
	for p, e := range side {
		if _, ok := base[p]; !ok {
			paths = append(paths, p)
			adds = adds || isFileMode(e.Mode)
		}
	}
	out := map[string]string{}
	if !dels || !adds {
		return out, nil
	}
	sort.Strings(paths)
	var changes []fileChange
	prints := map[int]*fingerprint{}
	for _, p := range paths {
		if err := r.readablePath(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			changes = append(changes, fileChange{path: p, old: base[p], new: side[p], refused: err})
			continue
		}
		ch := fileChange{path: p, old: base[p], new: side[p]}
		e := ch.new
		if e.Mode == 0 {
			e = ch.old
		}
		if isFileMode(e.Mode) {
			data, err := r.blob(e.Hash)
			if err != nil {
				return nil, err
			}
			prints[len(changes)] = newFingerprint(data)
		}
		changes = append(changes, ch)
	}
	for _, c := range pairRenames(changes, prints, nil) {
		if c.from != "" {
			out[c.from] = c.path
		}
	}
	return out, nil
}

// followRenames lists the merge's paths, each with its three versions:
// a path one side renamed is merged at its new name from the base's and
// the other side's old one. A rename the other side also made elsewhere
// (rename/rename) or deleted (rename/delete) is a conflict, settled here
// as git's ort leaves it. A rename onto a path the other side added too
// is not followed.
func (m *treeMerge) followRenames(base, ours, theirs map[string]flatEntry) ([]mergeUnit, error) {
	ro, err := m.r.renamesOf(base, ours)
	if err != nil {
		return nil, err
	}
	rt, err := m.r.renamesOf(base, theirs)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	var units []mergeUnit
	for _, old := range sortedKeys(ro) {
		on := ro[old]
		tn, both := rt[old]
		switch {
		case both && tn == on:
			units = append(units, mergeUnit{path: on, b: base[old], o: ours[on], t: theirs[on], paths: [3]string{old, on, on}})
		case both:
			if err := m.renameRename(old, on, tn, base[old], ours[on], theirs[tn]); err != nil {
				return nil, err
			}
			done[tn] = true
		case theirs[old].Mode == 0:
			if err := m.renameDelete(old, on, base[old], ours[on], true); err != nil {
				return nil, err
			}
		case theirs[on].Mode != 0:
			continue
		default:
			units = append(units, mergeUnit{path: on, b: base[old], o: ours[on], t: theirs[old], paths: [3]string{old, on, old}})
		}
		done[old], done[on] = true, true
	}
	for _, old := range sortedKeys(rt) {
		tn := rt[old]
		if _, ok := ro[old]; ok || done[tn] {
			continue
		}
		switch {
		case ours[old].Mode == 0:
			if err := m.renameDelete(old, tn, base[old], theirs[tn], false); err != nil {
				return nil, err
			}
		case ours[tn].Mode != 0:
			continue
		default:
			units = append(units, mergeUnit{path: tn, b: base[old], o: ours[old], t: theirs[tn], paths: [3]string{old, old, tn}})
		}
		done[old], done[tn] = true, true
	}
	paths := map[string]bool{}
	for _, side := range []map[string]flatEntry{base, ours, theirs} {
		for p := range side {
			if !done[p] {
				paths[p] = true
			}
		}
	}
	for _, p := range sortedKeys(paths) {
		units = append(units, mergeUnit{path: p, b: base[p], o: ours[p], t: theirs[p], paths: [3]string{p, p, p}})
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i].path < units[j].path })
	return units, nil
}

// renameRename is a path both sides renamed, to different names: their
// versions are merged and the result left at both names, the old path
// conflicted with the base's version only (stage 1), each new one with
// its side's stage.
func (m *treeMerge) renameRename(old, on, tn string, b, o, t flatEntry) error {
	for _, p := range []string{old, on, tn} {
		if m.r.hiddenPath(p) {
			return errMergeHidden
		}
	}
	merged := o
	switch {
	case o == t || b == t:
	case b == o:
		merged = t
	default:
		var err error
		if merged, _, err = m.content(old, mergeUnit{path: old, b: b, o: o, t: t, paths: [3]string{old, on, tn}}); err != nil {
			return err
		}
	}
	m.say(old, "CONFLICT (rename/rename): %s renamed to %s in HEAD and to %s in %s.", old, on, tn, m.theirName)
	m.res.merged[on], m.res.merged[tn] = merged, merged
	m.conflict(old, b, flatEntry{}, flatEntry{})
	m.conflict(on, flatEntry{}, merged, flatEntry{})
	m.conflict(tn, flatEntry{}, flatEntry{}, merged)
	return nil
}

// renameDelete is a path one side renamed (ours when byUs) and the other
// deleted: the renamed file stays in the tree, conflicted with the base's
// version as stage 1.
func (m *treeMerge) renameDelete(old, nw string, b, kept flatEntry, byUs bool) error {
	if m.r.hiddenPath(nw) {
		return errMergeHidden
	}
	renamer, deleter := "HEAD", m.theirName
	if !byUs {
		renamer, deleter = m.theirName, "HEAD"
	}
	m.say(nw, "CONFLICT (rename/delete): %s renamed to %s in %s, but deleted in %s.", old, nw, renamer, deleter)
	if kept != b {
		m.say(nw, "CONFLICT (modify/delete): %s deleted in %s and modified in %s.  Version %s of %s left in tree.", nw, deleter, renamer, renamer, nw)
	}
	m.res.merged[nw] = kept
	if byUs {
		m.conflict(nw, b, kept, flatEntry{})
	} else {
		m.conflict(nw, b, flatEntry{}, kept)
	}
	return nil
}
