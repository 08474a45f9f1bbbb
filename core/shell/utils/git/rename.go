package git

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Renames: git pairs a deleted path with an added one into a rename when
// their content is the same, or similar enough: at least half of the
// larger file's bytes come from the other (git's default -M50%). Similarity
// is git's estimate: both contents cut into spans (lines, at most 64 bytes)
// hashed into buckets, the bytes they share counted bucket by bucket.

// maxScore is the score of identical content (git's MAX_SCORE).
const maxScore = 60000

// minRenameScore is git's default least similarity for a rename (50%).
const minRenameScore = 30000

// renameLimit is git's diff.renameLimit: with more deletions times
// additions than its square, only identical content is paired.
const renameLimit = 1000

// spanCount is the bytes of content whose spans hash to one bucket.
type spanCount struct{ hash, bytes uint32 }

// fingerprint is content cut into hashed spans, for similarity scores.
type fingerprint struct {
	spans []spanCount // sorted by hash
	size  int64
}

// newFingerprint hashes content as git's diffcore does: a span ends at a
// newline or after 64 bytes; a CR before LF in text does not count.
func newFingerprint(data []byte) *fingerprint {
	const hashBase = 107927
	text := !isBinary(data)
	counts := map[uint32]uint32{}
	var accum1, accum2 uint32
	n := uint32(0)
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		if text && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old1 := accum1
		accum1 = (accum1 << 7) ^ (accum2 >> 25)
		accum2 = (accum2 << 7) ^ (old1 >> 25)
		accum1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(accum1+accum2*0x61)%hashBase] += n
		n, accum1, accum2 = 0, 0, 0
	}
	if n > 0 {
		counts[(accum1+accum2*0x61)%hashBase] += n
	}
	f := &fingerprint{spans: make([]spanCount, 0, len(counts)), size: int64(len(data))}
	for h, b := range counts {
		f.spans = append(f.spans, spanCount{h, b})
	}
	sort.Slice(f.spans, func(i, j int) bool { return f.spans[i].hash < f.spans[j].hash })
	return f
}

// similarity is git's estimate of how much of dst comes from src, from 0
// to maxScore; 0 when the sizes alone rule a rename out.
func similarity(src, dst *fingerprint) int {
	maxSize, baseSize := src.size, dst.size
	if baseSize > maxSize {
		maxSize, baseSize = baseSize, maxSize
	}
	if maxSize*(maxScore-minRenameScore) < (maxSize-baseSize)*maxScore || dst.size == 0 {
		return 0
	}
	var copied uint64
	d := dst.spans
	for _, s := range src.spans {
		for len(d) > 0 && d[0].hash < s.hash {
			d = d[1:]
		}
		if len(d) > 0 && d[0].hash == s.hash {
			copied += uint64(min(s.bytes, d[0].bytes))
			d = d[1:]
		}
	}
	return int(float64(copied) * maxScore / float64(maxSize))
}

// renameCandidate is a deletion and an addition that may be one rename.
type renameCandidate struct {
	del, add  int // indexes into the changes
	score     int
	sameBase  bool
	addSerial int
}

// pairRenames merges deletions with additions of the same non-empty blob,
// then, of the rest, those similar enough (best score first, a same base
// name winning a tie), into renames sorted by the new path. fingerprint
// gives a change's fingerprint (nil: not a candidate); when it is nil
// itself, only identical content pairs. lineCount counts an inexact
// rename's added and deleted lines.
func pairRenames(changes []fileChange, prints map[int]*fingerprint, warn func(string)) []fileChange {
	added := map[plumbing.Hash][]int{}
	for i, c := range changes {
		if c.old.Mode == 0 && !c.new.Hash.IsZero() && c.new.Hash != emptyBlob && c.refused == nil {
			added[c.new.Hash] = append(added[c.new.Hash], i)
		}
	}
	if len(added) == 0 {
		return changes
	}
	pairOf := map[int]int{} // deletion -> addition
	scoreOf := map[int]int{}
	used := map[int]bool{}
	for i, c := range changes {
		if c.new.Mode == 0 && c.refused == nil {
			if cands := added[c.old.Hash]; len(cands) > 0 {
				added[c.old.Hash] = cands[1:]
				pairOf[i] = cands[0]
				scoreOf[i] = maxScore
				used[cands[0]] = true
			}
		}
	}
	var dels, adds []int
	for i := range changes {
		if prints[i] == nil {
			continue
		}
		if _, paired := pairOf[i]; paired || used[i] {
			continue
		}
		if changes[i].new.Mode == 0 {
			dels = append(dels, i)
		} else if changes[i].old.Mode == 0 {
			adds = append(adds, i)
		}
	}
	switch {
	case len(dels) == 0 || len(adds) == 0:
	case len(dels)*len(adds) > renameLimit*renameLimit:
		if warn != nil {
			warn(fmt.Sprintf("warning: exhaustive rename detection was skipped due to too many files.\nwarning: you may want to set your diff.renameLimit variable to at least %d and retry the command.\n", max(len(dels), len(adds))))
		}
	default:
		var cands []renameCandidate
		for k, a := range adds {
			for _, d := range dels {
				if sc := similarity(prints[d], prints[a]); sc >= minRenameScore {
					cands = append(cands, renameCandidate{del: d, add: a, score: sc, addSerial: k,
						sameBase: path.Base(changes[d].path) == path.Base(changes[a].path)})
				}
			}
		}
		sort.SliceStable(cands, func(i, j int) bool {
			if cands[i].score != cands[j].score {
				return cands[i].score > cands[j].score
			}
			return cands[i].sameBase && !cands[j].sameBase
		})
		for _, c := range cands {
			if _, taken := pairOf[c.del]; taken || used[c.add] {
				continue
			}
			pairOf[c.del] = c.add
			scoreOf[c.del] = c.score
			used[c.add] = true
		}
	}
	var out []fileChange
	for i, c := range changes {
		if used[i] {
			continue
		}
		if j, ok := pairOf[i]; ok {
			n := changes[j]
			out = append(out, fileChange{path: n.path, from: c.path, old: c.old, new: n.new, score: scoreOf[i],
				sizes: [2]int64{c.sizes[0], n.sizes[1]}, binary: c.binary || n.binary})
			continue
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// percent is a rename score as git prints it (similarity index N%).
func percent(score int) int { return score * 100 / maxScore }

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

// isFileMode reports whether a mode is a file's, executable or not (git's
// S_ISREG): only files are paired by similarity.
func isFileMode(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}
