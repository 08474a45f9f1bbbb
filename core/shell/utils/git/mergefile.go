package git

import (
	"bytes"
	"strings"
)

// sideChange is one change of a side against a base text: base lines
// [b, b+nb) became the side's lines [s, s+ns).
type sideChange struct{ b, nb, s, ns int }

// changesOf lists the changes that turn base into side, in order.
func changesOf(base, side [][]byte) []sideChange {
	var out []sideChange
	edits := diffLines(base, side)
	bPos, sPos := 0, 0 // the base and side lines the next edit is at
	for i := 0; i < len(edits); {
		if edits[i].op == opEqual {
			bPos, sPos = edits[i].a+1, edits[i].b+1
			i++
			continue
		}
		c := sideChange{b: bPos, s: sPos}
		for ; i < len(edits) && edits[i].op != opEqual; i++ {
			if edits[i].op == opDel {
				c.nb++
			} else {
				c.ns++
			}
		}
		bPos, sPos = c.b+c.nb, c.s+c.ns
		out = append(out, c)
	}
	return out
}

// How a chunk of a three-way merge is settled.
const (
	chunkConflict  = 0 // both sides changed it differently
	chunkOurs      = 1 // only ours changed it
	chunkTheirs    = 2 // only theirs changed it
	chunkIdentical = 4 // both changed it the same way
)

// mergeChunk is a region of a three-way merge: base lines [i0, i0+c0),
// our lines [i1, i1+c1) and their lines [i2, i2+c2).
type mergeChunk struct {
	mode                   int
	i0, c0, i1, c1, i2, c2 int
}

// mergeChunks lines up our and their changes of base the way git's
// "zealous" merge does: changes that overlap or touch are one conflict,
// a conflict is then narrowed to the lines where the two sides really
// differ, and conflicts at most three lines apart are joined again.
func mergeChunks(base, ours, theirs [][]byte) []mergeChunk {
	x1, x2 := changesOf(base, ours), changesOf(base, theirs)
	var cs []mergeChunk
	add := func(c mergeChunk) {
		if n := len(cs); n > 0 {
			m := &cs[n-1]
			if c.i1 <= m.i1+m.c1 || c.i2 <= m.i2+m.c2 {
				if c.mode != m.mode {
					m.mode = chunkConflict
				}
				m.c0 = c.i0 + c.c0 - m.i0
				m.c1 = c.i1 + c.c1 - m.i1
				m.c2 = c.i2 + c.c2 - m.i2
				return
			}
		}
		cs = append(cs, c)
	}
	i, j := 0, 0
	for i < len(x1) && j < len(x2) {
		a, b := x1[i], x2[j]
		if a.b+a.nb < b.b {
			add(mergeChunk{chunkOurs, a.b, a.nb, a.s, a.ns, b.s - b.b + a.b, a.nb})
			i++
			continue
		}
		if b.b+b.nb < a.b {
			add(mergeChunk{chunkTheirs, b.b, b.nb, a.s - a.b + b.b, b.nb, b.s, b.ns})
			j++
			continue
		}
		if a.b != b.b || a.nb != b.nb || a.ns != b.ns || !equalLines(ours[a.s:a.s+a.ns], theirs[b.s:b.s+b.ns]) {
			off := a.b - b.b
			ffo := off + a.nb - b.nb
			i0, i1, i2 := a.b, a.s, b.s
			if off > 0 {
				i0 -= off
				i1 -= off
			} else {
				i2 += off
			}
			c0, c1, c2 := a.b+a.nb-i0, a.s+a.ns-i1, b.s+b.ns-i2
			if ffo < 0 {
				c0 -= ffo
				c1 -= ffo
			} else {
				c2 += ffo
			}
			add(mergeChunk{chunkConflict, i0, c0, i1, c1, i2, c2})
		}
		e1, e2 := a.b+a.nb, b.b+b.nb
		if e1 >= e2 {
			j++
		}
		if e2 >= e1 {
			i++
		}
	}
	for ; i < len(x1); i++ {
		a := x1[i]
		add(mergeChunk{chunkOurs, a.b, a.nb, a.s, a.ns, a.b + len(theirs) - len(base), a.nb})
	}
	for ; j < len(x2); j++ {
		b := x2[j]
		add(mergeChunk{chunkTheirs, b.b, b.nb, b.b + len(ours) - len(base), b.nb, b.s, b.ns})
	}
	return joinNearConflicts(refineConflicts(cs, ours, theirs))
}

// refineConflicts narrows each conflict to the lines where our and their
// versions differ, splitting it where they agree.
func refineConflicts(cs []mergeChunk, ours, theirs [][]byte) []mergeChunk {
	var out []mergeChunk
	for _, m := range cs {
		if m.mode != chunkConflict || m.c1 == 0 || m.c2 == 0 {
			out = append(out, m)
			continue
		}
		diffs := changesOf(ours[m.i1:m.i1+m.c1], theirs[m.i2:m.i2+m.c2])
		if len(diffs) == 0 {
			m.mode = chunkIdentical
			out = append(out, m)
			continue
		}
		for k, d := range diffs {
			n := mergeChunk{mode: chunkConflict, i1: m.i1 + d.b, c1: d.nb, i2: m.i2 + d.s, c2: d.ns}
			if k == 0 {
				n.i0, n.c0 = m.i0, m.c0
			}
			out = append(out, n)
		}
	}
	return out
}

// joinNearConflicts joins two conflicts whose our sides lie at most three
// lines apart into one.
func joinNearConflicts(cs []mergeChunk) []mergeChunk {
	out := cs[:0]
	for _, m := range cs {
		if n := len(out); n > 0 {
			p := &out[n-1]
			if p.mode == chunkConflict && m.mode == chunkConflict && m.i1-(p.i1+p.c1) <= 3 {
				p.c0 = m.i0 + m.c0 - p.i0
				p.c1 = m.i1 + m.c1 - p.i1
				p.c2 = m.i2 + m.c2 - p.i2
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// mergeText merges two edits of a base text line by line, as git's merge
// does, writing conflicts between "<<<<<<< oursName", "=======" and
// ">>>>>>> theirsName" lines; with favor "ours" or "theirs" a conflict
// takes that side's lines instead (git's -X). It returns the text and how
// many conflicts it holds. Markers are size characters long (git's 7,
// more for a merge whose result is merged again).
func mergeText(base, ours, theirs []byte, oursName, theirsName, favor string, size int) ([]byte, int) {
	open, mid, closing := strings.Repeat("<", size)+" ", strings.Repeat("=", size)+"\n", strings.Repeat(">", size)+" "
	b, o, t := splitLines(base), splitLines(ours), splitLines(theirs)
	var out bytes.Buffer
	out.Grow(len(ours) + len(theirs)/2)
	conflicts := 0
	copyLines := func(lines [][]byte, closeLast bool) {
		for _, ln := range lines {
			out.Write(ln)
		}
		if closeLast && len(lines) > 0 && !bytes.HasSuffix(lines[len(lines)-1], []byte("\n")) {
			out.WriteByte('\n')
		}
	}
	pos := 0 // the next line of ours not yet written
	for _, m := range mergeChunks(b, o, t) {
		switch m.mode {
		case chunkConflict:
			if favor != "" {
				copyLines(o[pos:m.i1], false)
				if favor == "ours" {
					copyLines(o[m.i1:m.i1+m.c1], false)
				} else {
					copyLines(t[m.i2:m.i2+m.c2], false)
				}
				break
			}
			conflicts++
			copyLines(o[pos:m.i1], false)
			out.WriteString(open + oursName + "\n")
			copyLines(o[m.i1:m.i1+m.c1], true)
			out.WriteString(mid)
			copyLines(t[m.i2:m.i2+m.c2], true)
			out.WriteString(closing + theirsName + "\n")
		case chunkOurs:
			copyLines(o[pos:m.i1+m.c1], false)
		case chunkTheirs:
			copyLines(o[pos:m.i1], false)
			copyLines(t[m.i2:m.i2+m.c2], false)
		default:
			continue
		}
		pos = m.i1 + m.c1
	}
	copyLines(o[pos:], false)
	return out.Bytes(), conflicts
}
