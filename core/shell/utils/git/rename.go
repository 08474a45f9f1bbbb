package git

import (
	"sort"
	"strings"
)

// Exact renames: git pairs a deleted path with an added one of the same
// content and shows a rename (status, diff, log, commit summaries). Only
// identical content is paired here; git's similarity scoring of edited
// files is not done, so such a rename shows as a deletion and an addition.

// pairRenames merges each deletion with an addition of the same non-empty
// blob into one change, sorted by the new path.
func pairRenames(changes []fileChange) []fileChange {
	added := map[string][]int{}
	for i, c := range changes {
		if c.old.Mode == 0 && !c.new.Hash.IsZero() && c.new.Hash != emptyBlob && c.refused == nil {
			added[c.new.Hash.String()] = append(added[c.new.Hash.String()], i)
		}
	}
	if len(added) == 0 {
		return changes
	}
	pairOf := map[int]int{} // deletion -> addition
	used := map[int]bool{}
	for i, c := range changes {
		if c.new.Mode == 0 && c.refused == nil {
			if cands := added[c.old.Hash.String()]; len(cands) > 0 {
				added[c.old.Hash.String()] = cands[1:]
				pairOf[i] = cands[0]
				used[cands[0]] = true
			}
		}
	}
	var out []fileChange
	for i, c := range changes {
		if used[i] {
			continue
		}
		if j, ok := pairOf[i]; ok {
			n := changes[j]
			out = append(out, fileChange{path: n.path, from: c.path, old: c.old, new: n.new, sizes: [2]int64{c.sizes[0], n.sizes[1]}, binary: n.binary})
			continue
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// renameName is how a stat line names a rename: the common leading
// directories and trailing components written once, the differing middle
// as "{old => new}".
func renameName(from, to string) string {
	qf, qt := quotePath(from), quotePath(to)
	if qf != from || qt != to {
		return qf + " => " + qt
	}
	// Common prefix, cut back to the last "/" inside it.
	pre := 0
	for i := 0; i < len(from) && i < len(to) && from[i] == to[i]; i++ {
		if from[i] == '/' {
			pre = i + 1
		}
	}
	// Common suffix, starting at a "/" and not overlapping the prefix.
	suf := 0
	for i := 1; i <= len(from)-pre+boolInt(pre > 0) && i <= len(to)-pre+boolInt(pre > 0); i++ {
		if from[len(from)-i] != to[len(to)-i] {
			break
		}
		if from[len(from)-i] == '/' {
			suf = i
		}
	}
	midFrom := max(len(from)-pre-suf, 0)
	midTo := max(len(to)-pre-suf, 0)
	var b strings.Builder
	if pre+suf > 0 {
		b.WriteString(from[:pre])
		b.WriteByte('{')
	}
	b.WriteString(from[pre : pre+midFrom])
	b.WriteString(" => ")
	b.WriteString(to[pre : pre+midTo])
	if pre+suf > 0 {
		b.WriteByte('}')
		b.WriteString(from[len(from)-suf:])
	}
	return b.String()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
