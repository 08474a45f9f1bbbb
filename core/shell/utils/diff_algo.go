package utils

// The line matcher of diff: Myers' O(ND) algorithm in linear space. It
// finds the middle snake of the shortest edit script by searching forward
// and backward at once, splits there, and recurses on both halves, after
// trimming the common prefix and suffix of every range.

// diffChange is one run of differing lines: a[aFrom:aTo] became
// b[bFrom:bTo] (either side may be empty).
type diffChange struct {
	aFrom, aTo, bFrom, bTo int
}

// diffLines returns the changes turning a into b; the ints are line ids
// (equal lines share an id).
//
// context is the output's context lines: GNU diff leaves a common prefix
// and suffix out of its analysis except for that many lines of each,
// which decides how far a run of changes may slide (diffSlide).
func diffLines(a, b []int, context int) []diffChange {
	prefix := 0
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	lo := prefix - min(prefix, context)
	keep := suffix - min(suffix, context)
	ra, rb := a[lo:len(a)-keep], b[lo:len(b)-keep]
	m := &diffMatcher{a: a, b: b, aGone: make([]bool, len(a)), bNew: make([]bool, len(b))}
	// Lines that match nothing on the other side (and some that match
	// too much) are changes before any search; the search runs on the
	// rest, as GNU diff's does.
	keepA, keepB := diffDiscards(ra, rb)
	inner := &diffMatcher{a: pick(ra, keepA), b: pick(rb, keepB)}
	inner.aGone, inner.bNew = make([]bool, len(inner.a)), make([]bool, len(inner.b))
	inner.tooExpensive = diffCostLimit(len(inner.a) + len(inner.b))
	inner.compare(0, len(inner.a), 0, len(inner.b), false)
	for i := range ra {
		m.aGone[lo+i] = true
	}
	for i := range rb {
		m.bNew[lo+i] = true
	}
	for k, i := range keepA {
		m.aGone[lo+i] = inner.aGone[k]
	}
	for k, i := range keepB {
		m.bNew[lo+i] = inner.bNew[k]
	}
	diffSlide(m.aGone[lo:len(a)-keep], m.bNew[lo:len(b)-keep], ra, rb)
	return m.changes()
}

// pick returns ids at the given indexes.
func pick(ids, at []int) []int {
	out := make([]int, len(at))
	for k, i := range at {
		out[k] = ids[i]
	}
	return out
}

// diffSlide moves each run of changed lines of one file as GNU diff
// places it when several placements are equally short: a run that can
// slide is first merged with any neighbouring runs it reaches, then
// pushed as far down as it goes, unless stopping where it meets a change
// of the other file keeps the two together.
//
// GNU keeps both files' marks in one array, the first file's then the
// second's, with a zero between and around them, and walks the other
// file's marks past its end into that array; the walk below reads marks
// through the same layout so it slides exactly as GNU does.
func diffSlide(aGone, bNew []bool, aIDs, bIDs []int) {
	layout := make([]bool, len(aGone)+len(bNew)+4)
	copy(layout[1:], aGone)
	copy(layout[len(aGone)+3:], bNew)
	files := [2]struct {
		base int
		ids  []int
	}{{1, aIDs}, {len(aGone) + 3, bIDs}}
	for f := 0; f < 2; f++ {
		me, other := files[f], files[1-f]
		mark := func(i int) bool {
			k := me.base + i
			return k >= 0 && k < len(layout) && layout[k]
		}
		set := func(i int, v bool) { layout[me.base+i] = v }
		otherAt := func(j int) bool {
			k := other.base + j
			return k >= 0 && k < len(layout) && layout[k]
		}
		diffSlideFile(me.ids, mark, set, otherAt)
	}
	copy(aGone, layout[1:])
	copy(bNew, layout[len(aGone)+3:])
}

// diffSlideFile slides the runs of one file; mark and set read and write
// its marks, other reads the other file's (j pairs with i: unchanged lines
// of both files pair up in order).
func diffSlideFile(ids []int, mark func(int) bool, set func(int, bool), other func(int) bool) {
	n := len(ids)
	i, j := 0, 0
	back := func() {
		for j--; other(j); j-- {
		}
	}
	for {
		for i < n && !mark(i) {
			for other(j) {
				j++
			}
			i, j = i+1, j+1
		}
		if i == n {
			return
		}
		start := i
		for mark(i) {
			i++
		}
		for other(j) {
			j++
		}
		var corresponding int
		for {
			length := i - start
			for start > 0 && ids[start-1] == ids[i-1] {
				start--
				i--
				set(start, true)
				set(i, false)
				for mark(start - 1) {
					start--
				}
				back()
			}
			corresponding = n
			if other(j - 1) {
				corresponding = i
			}
			for i < n && ids[start] == ids[i] {
				set(start, false)
				set(i, true)
				start, i = start+1, i+1
				for mark(i) {
					i++
				}
				for j++; other(j); j++ {
					corresponding = i
				}
			}
			if i-start == length {
				break
			}
		}
		for corresponding < i {
			start--
			i--
			set(start, true)
			set(i, false)
			back()
		}
	}
}

type diffMatcher struct {
	a, b  []int
	aGone []bool // line of a deleted
	bNew  []bool // line of b inserted
	// tooExpensive is the edits a search may spend before settling for
	// a good split rather than the best one.
	tooExpensive int
	fwd, bwd     []int // bisect's furthest x per diagonal, forward and backward
}

// diffCostLimit is the search's cost limit for n lines in all, GNU
// diff's: about the square root of the diagonals, at least 4096.
func diffCostLimit(n int) int {
	limit := 1
	for diags := n + 3; diags != 0; diags >>= 2 {
		limit <<= 1
	}
	return max(limit, 4096)
}

// compare marks the changes between a[aLo:aHi] and b[bLo:bHi]. minimal
// turns off the search's cost limit (diffMatcher.tooExpensive) for this
// range: GNU diff searches a half exactly once the limit has split it.
func (m *diffMatcher) compare(aLo, aHi, bLo, bHi int, minimal bool) {
	for aLo < aHi && bLo < bHi && m.a[aLo] == m.b[bLo] {
		aLo++
		bLo++
	}
	for aLo < aHi && bLo < bHi && m.a[aHi-1] == m.b[bHi-1] {
		aHi--
		bHi--
	}
	switch {
	case aLo == aHi:
		for i := bLo; i < bHi; i++ {
			m.bNew[i] = true
		}
		return
	case bLo == bHi:
		for i := aLo; i < aHi; i++ {
			m.aGone[i] = true
		}
		return
	}
	mid := m.bisect(aLo, aHi, bLo, bHi, minimal)
	m.compare(aLo, mid.x, bLo, mid.y, mid.loMinimal)
	m.compare(mid.x, aHi, mid.y, bHi, mid.hiMinimal)
}

// diffSplit is where bisect splits a range, and whether each half is
// then searched exactly.
type diffSplit struct {
	x, y                 int
	loMinimal, hiMinimal bool
}

// bisect finds the middle of an optimal path between (aLo, bLo) and
// (aHi, bHi), searching forward from the start and backward from the end
// in turn, one edit at a time, until the two fronts overlap; (x, y) is
// where they meet, in absolute line numbers. Diagonals are numbered x-y,
// and each pass visits them from the highest down, preferring a deletion
// when two moves reach equally far: the order GNU diff searches in, which
// decides among equally short scripts.
//
// Unless minimal, a search that has spent tooExpensive edits without the
// fronts meeting stops there and splits at the point either front has
// carried furthest: the script may then be longer than the shortest, but
// the time stays near linear on long, very different inputs.
func (m *diffMatcher) bisect(aLo, aHi, bLo, bHi int, minimal bool) diffSplit {
	a, b := m.a, m.b
	dMin, dMax := aLo-bHi, aHi-bLo
	fMid, bMid := aLo-bLo, aHi-bHi
	odd := (fMid-bMid)&1 != 0
	// fwd[d] and bwd[d] hold the furthest x reached on diagonal d.
	// The fronts live in arrays shared by every search of this matcher,
	// indexed by diagonal: one allocation per diff, not one per split.
	if m.fwd == nil {
		m.fwd, m.bwd = make([]int, len(a)+len(b)+3), make([]int, len(a)+len(b)+3)
	}
	base, fwd, bwd := len(b)+1, m.fwd, m.bwd
	fwd[base+fMid], bwd[base+bMid] = aLo, aHi
	fLo, fHi, bLo2, bHi2 := fMid, fMid, bMid, bMid
	for cost := 1; ; cost++ {
		// Widen the forward front by one diagonal each way.
		if fLo > dMin {
			fLo--
			fwd[base+fLo-1] = -1
		} else {
			fLo++
		}
		if fHi < dMax {
			fHi++
			fwd[base+fHi+1] = -1
		} else {
			fHi--
		}
		for d := fHi; d >= fLo; d -= 2 {
			lo, hi := fwd[base+d-1], fwd[base+d+1]
			x := hi
			if lo >= hi {
				x = lo + 1
			}
			y := x - d
			for x < aHi && y < bHi && a[x] == b[y] {
				x, y = x+1, y+1
			}
			fwd[base+d] = x
			if odd && bLo2 <= d && d <= bHi2 && bwd[base+d] <= x {
				return diffSplit{x: x, y: y, loMinimal: true, hiMinimal: true}
			}
		}
		// Widen the backward front.
		if bLo2 > dMin {
			bLo2--
			bwd[base+bLo2-1] = aHi + 1<<30
		} else {
			bLo2++
		}
		if bHi2 < dMax {
			bHi2++
			bwd[base+bHi2+1] = aHi + 1<<30
		} else {
			bHi2--
		}
		for d := bHi2; d >= bLo2; d -= 2 {
			lo, hi := bwd[base+d-1], bwd[base+d+1]
			x := hi - 1
			if lo < hi {
				x = lo
			}
			y := x - d
			for aLo < x && bLo < y && a[x-1] == b[y-1] {
				x, y = x-1, y-1
			}
			bwd[base+d] = x
			if !odd && fLo <= d && d <= fHi && x <= fwd[base+d] {
				return diffSplit{x: x, y: y, loMinimal: true, hiMinimal: true}
			}
		}
		if !minimal && cost >= m.tooExpensive {
			return m.furthest(fwd, bwd, base, [4]int{fLo, fHi, bLo2, bHi2}, aLo, aHi, bLo, bHi)
		}
	}
}

// furthest is bisect's way out when the search costs too much: the
// forward diagonal whose point has come furthest from the start (largest
// x+y) or the backward one that has come furthest from the end, whichever
// has come further. The half on the far side of that point is still
// unexplored and is searched exactly.
func (m *diffMatcher) furthest(fwd, bwd []int, base int, fronts [4]int, aLo, aHi, bLo, bHi int) diffSplit {
	fBest, fX := -1, 0
	for d := fronts[1]; d >= fronts[0]; d -= 2 {
		x := min(fwd[base+d], aHi)
		y := x - d
		if y > bHi {
			x, y = bHi+d, bHi
		}
		if x+y > fBest {
			fBest, fX = x+y, x
		}
	}
	bBest, bX := aHi+bHi+1, 0
	for d := fronts[3]; d >= fronts[2]; d -= 2 {
		x := max(bwd[base+d], aLo)
		y := x - d
		if y < bLo {
			x, y = bLo+d, bLo
		}
		if x+y < bBest {
			bBest, bX = x+y, x
		}
	}
	if (aHi+bHi)-bBest < fBest-(aLo+bLo) {
		return diffSplit{x: fX, y: fBest - fX, loMinimal: true}
	}
	return diffSplit{x: bX, y: bBest - bX, hiMinimal: true}
}

// changes groups the marked lines into runs.
func (m *diffMatcher) changes() []diffChange {
	var out []diffChange
	i, j := 0, 0
	for i < len(m.a) || j < len(m.b) {
		if i < len(m.a) && j < len(m.b) && !m.aGone[i] && !m.bNew[j] {
			i++
			j++
			continue
		}
		c := diffChange{aFrom: i, bFrom: j}
		for i < len(m.a) && m.aGone[i] {
			i++
		}
		for j < len(m.b) && m.bNew[j] {
			j++
		}
		c.aTo, c.bTo = i, j
		if c.aTo == c.aFrom && c.bTo == c.bFrom {
			// Unbalanced marks cannot happen; step on to stay safe.
			i++
			j++
			continue
		}
		out = append(out, c)
	}
	return out
}
