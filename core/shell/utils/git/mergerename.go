package git

import (
	"errors"
	"io/fs"
	"path"
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
	// Directories one side renamed whole take the files the other side
	// adds or renames into them (file location conflicts).
	dirsO, dirsT := dirRenames(base, ours, ro), dirRenames(base, theirs, rt)
	for d := range dirsO {
		if _, ok := dirsT[d]; ok {
			delete(dirsO, d) // renamed on both sides: neither is followed
			delete(dirsT, d)
		}
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
			// rename/add: the renamed file, merged, against the file
			// theirs added there.
			first, ok, err := m.collision(old, on, base[old], ours[on], theirs[old], [3]string{old, on, old})
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			units = append(units, mergeUnit{path: on, o: first, t: theirs[on], paths: [3]string{on, on, on}})
		default:
			u := mergeUnit{path: on, b: base[old], o: ours[on], t: theirs[old], paths: [3]string{old, on, old}}
			moved, follow := m.renamedIntoRenamedDir(&u, dirsT, [3]map[string]flatEntry{base, ours, theirs}, true)
			if !follow {
				continue
			}
			units = append(units, u)
			done[moved] = true
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
			first, ok, err := m.collision(old, tn, base[old], ours[old], theirs[tn], [3]string{old, old, tn})
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			units = append(units, mergeUnit{path: tn, o: ours[tn], t: first, paths: [3]string{tn, tn, tn}})
		default:
			u := mergeUnit{path: tn, b: base[old], o: ours[old], t: theirs[tn], paths: [3]string{old, old, tn}}
			moved, follow := m.renamedIntoRenamedDir(&u, dirsO, [3]map[string]flatEntry{base, ours, theirs}, false)
			if !follow {
				continue
			}
			units = append(units, u)
			done[moved] = true
		}
		done[old], done[tn] = true, true
	}
	// A file one side added inside a directory the other side renamed
	// whole is a file location conflict at the renamed place.
	m.moveIntoRenamedDirs(base, ours, theirs, dirsT, true, done)
	m.moveIntoRenamedDirs(base, theirs, ours, dirsO, false, done)
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
	m.say(old, "CONFLICT (rename/rename): %s renamed to %s in %s and to %s in %s.", old, on, m.ourName, tn, m.theirName)
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
	renamer, deleter := m.ourName, m.theirName
	if !byUs {
		renamer, deleter = m.theirName, m.ourName
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

// dirRenames are the directories a side renamed whole: gone from the
// side, most of their renamed files gone to one new directory (git's
// ort counts each rename for its directory and, while the last names
// agree, the directories above it). A tie names none.
func dirRenames(base, side map[string]flatEntry, renames map[string]string) map[string]string {
	out := map[string]string{}
	if len(renames) == 0 {
		return out
	}
	kept := map[string]bool{} // directories the side still has
	for p := range side {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if kept[d] {
				break
			}
			kept[d] = true
		}
	}
	removed := func(d string) bool { return d != "." && !kept[d] }
	counts := map[string]map[string]int{}
	for _, old := range sortedKeys(renames) {
		od, nd := old, renames[old]
		for {
			od, nd = path.Dir(od), path.Dir(nd)
			if od == nd {
				break
			}
			if counts[od] == nil {
				counts[od] = map[string]int{}
			}
			counts[od][nd]++
			if !removed(od) || od == "." || nd == "." || path.Base(od) != path.Base(nd) {
				break
			}
		}
	}
	for od, targets := range counts {
		if !removed(od) {
			continue
		}
		best, n, tie := "", 0, false
		for nd, c := range targets {
			switch {
			case c > n:
				best, n, tie = nd, c, false
			case c == n:
				tie = true
			}
		}
		if !tie && best != "." {
			out[od] = best
		}
	}
	return out
}

// renamedDirTarget is where a path goes when a directory above it was
// renamed whole ("" when none was).
func renamedDirTarget(p string, dirs map[string]string) string {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if nd, ok := dirs[d]; ok {
			return nd + p[len(d):]
		}
	}
	return ""
}

// renamedIntoRenamedDir settles a file one side renamed (ours when
// byUs) into a directory the other side renamed whole: when the other
// side left the file as it was, git's ort does not pair the rename
// (follow false: the file is an addition, which moveIntoRenamedDirs
// moves); else the rename is followed to the renamed directory as a
// file location conflict, its versions merged there and left at stages
// 1-3. moved is the path u now settles ("" when none changed).
func (m *treeMerge) renamedIntoRenamedDir(u *mergeUnit, dirs map[string]string, sides [3]map[string]flatEntry, byUs bool) (string, bool) {
	old, nw := u.paths[0], u.paths[2]
	renamer, other, otherSide := m.theirName, m.ourName, sides[1]
	if byUs {
		nw, renamer, other, otherSide = u.paths[1], m.ourName, m.theirName, sides[2]
	}
	np := renamedDirTarget(nw, dirs)
	if np == "" || m.r.hiddenPath(nw) || m.r.hiddenPath(np) {
		return "", true
	}
	for _, side := range sides {
		if side[np].Mode != 0 {
			return "", true
		}
	}
	if otherSide[old] == sides[0][old] {
		return "", false
	}
	m.say(np, "CONFLICT (file location): %s renamed to %s in %s, inside a directory that was renamed in %s, suggesting it should perhaps be moved to %s.", old, nw, renamer, other, np)
	u.path, u.pathConflict = np, true
	return np, true
}

// moveIntoRenamedDirs settles the files side added (ours when byUs)
// inside a directory other renamed whole: each goes to the renamed
// directory, conflicted with its side's stage only, as git's ort leaves
// it by default (merge.directoryRenames=conflict). One whose new place
// is taken, or hidden, stays where it was added.
func (m *treeMerge) moveIntoRenamedDirs(base, side, other map[string]flatEntry, dirs map[string]string, byUs bool, done map[string]bool) {
	if len(dirs) == 0 {
		return
	}
	adder, renamer := m.ourName, m.theirName
	if !byUs {
		adder, renamer = m.theirName, m.ourName
	}
	for _, p := range sortedKeys(side) {
		if done[p] || base[p].Mode != 0 || other[p].Mode != 0 {
			continue
		}
		np := renamedDirTarget(p, dirs)
		if np == "" || done[np] || base[np].Mode != 0 || side[np].Mode != 0 || other[np].Mode != 0 || m.r.hiddenPath(p) || m.r.hiddenPath(np) {
			continue
		}
		m.say(np, "CONFLICT (file location): %s added in %s inside a directory that was renamed in %s, suggesting it should perhaps be moved to %s.", p, adder, renamer, np)
		m.res.merged[np] = side[p]
		if byUs {
			m.conflict(np, flatEntry{}, side[p], flatEntry{})
		} else {
			m.conflict(np, flatEntry{}, flatEntry{}, side[p])
		}
		done[p], done[np] = true, true
	}
}

// collision merges a file one side renamed onto a path the other side
// added, before it meets the added file: trivially when one side alone
// changed it, else line by line with markers one longer than git's
// usual (they may end up nested), saying so as git's ort does. ok is
// false when the rename is not followed (a side has no file, binary
// content, a hidden path).
func (m *treeMerge) collision(old, nw string, b, o, t flatEntry, paths [3]string) (flatEntry, bool, error) {
	if first, ok := trivialMerge(b, o, t); ok {
		return first, true, nil
	}
	if o.Mode == 0 || t.Mode == 0 || m.r.hiddenPath(old) || m.r.hiddenPath(nw) {
		return flatEntry{}, false, nil
	}
	h, clean, binary, err := m.r.mergeContent(b.Hash, o.Hash, t.Hash, m.ourName+":"+paths[1], m.theirName+":"+paths[2], 8)
	if err != nil || binary {
		return flatEntry{}, false, err
	}
	m.say(old, "Auto-merging %s", old)
	if !clean {
		m.say(nw, "CONFLICT (rename involved in collision): rename of %s -> %s has content conflicts AND collides with another path; this may result in nested conflict markers.", old, nw)
	}
	mode := o.Mode
	if o.Mode == b.Mode {
		mode = t.Mode
	}
	return flatEntry{Hash: h, Mode: mode}, true, nil
}

// trivialMerge settles three versions of a file when one side alone
// changed it (or both alike); ok is false when its lines would have to
// be merged, or a side has no file.
func trivialMerge(b, o, t flatEntry) (flatEntry, bool) {
	switch {
	case o.Mode == 0 || t.Mode == 0:
		return flatEntry{}, false
	case o == t || b == t:
		return o, true
	case b == o:
		return t, true
	}
	return flatEntry{}, false
}
