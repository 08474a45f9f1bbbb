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
func diffLines(a, b []int) []diffChange {
	m := &diffMatcher{a: a, b: b, aGone: make([]bool, len(a)), bNew: make([]bool, len(b))}
	m.compare(0, len(a), 0, len(b))
	return m.changes()
}

type diffMatcher struct {
	a, b  []int
	aGone []bool // line of a deleted
	bNew  []bool // line of b inserted
}

func (m *diffMatcher) compare(aLo, aHi, bLo, bHi int) {
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
	x, y, ok := m.bisect(aLo, aHi, bLo, bHi)
	if !ok {
		for i := aLo; i < aHi; i++ {
			m.aGone[i] = true
		}
		for i := bLo; i < bHi; i++ {
			m.bNew[i] = true
		}
		return
	}
	m.compare(aLo, x, bLo, y)
	m.compare(x, aHi, y, bHi)
}

// bisect finds where the forward and backward searches meet; (x, y) is a
// point on an optimal path, in absolute line numbers.
func (m *diffMatcher) bisect(aLo, aHi, bLo, bHi int) (int, int, bool) {
	a, b := m.a[aLo:aHi], m.b[bLo:bHi]
	n, mm := len(a), len(b)
	maxD := (n + mm + 1) / 2
	offset := maxD
	size := 2*maxD + 2
	v1 := make([]int, size)
	v2 := make([]int, size)
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[offset+1], v2[offset+1] = 0, 0
	delta := n - mm
	front := delta%2 != 0
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for d := 0; d < maxD; d++ {
		for k1 := -d + k1start; k1 <= d-k1end; k1 += 2 {
			i := offset + k1
			var x1 int
			if k1 == -d || (k1 != d && v1[i-1] < v1[i+1]) {
				x1 = v1[i+1]
			} else {
				x1 = v1[i-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < mm && a[x1] == b[y1] {
				x1++
				y1++
			}
			v1[i] = x1
			switch {
			case x1 > n:
				k1end += 2
			case y1 > mm:
				k1start += 2
			case front:
				j := offset + delta - k1
				if j >= 0 && j < size && v2[j] != -1 && x1 >= n-v2[j] {
					return aLo + x1, bLo + y1, true
				}
			}
		}
		for k2 := -d + k2start; k2 <= d-k2end; k2 += 2 {
			i := offset + k2
			var x2 int
			if k2 == -d || (k2 != d && v2[i-1] < v2[i+1]) {
				x2 = v2[i+1]
			} else {
				x2 = v2[i-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < mm && a[n-x2-1] == b[mm-y2-1] {
				x2++
				y2++
			}
			v2[i] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > mm:
				k2start += 2
			case !front:
				j := offset + delta - k2
				if j >= 0 && j < size && v1[j] != -1 {
					x1 := v1[j]
					y1 := offset + x1 - j
					if x1 >= n-x2 {
						return aLo + x1, bLo + y1, true
					}
				}
			}
		}
	}
	return 0, 0, false
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
