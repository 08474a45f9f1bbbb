package utils

// Placing hunks in a file, as GNU patch does: at the line the hunk names
// plus the offset the previous hunks found, else nearer lines first
// (after, then before), then again with fuzz: up to F lines of context
// at each end may differ.

// patchEdit is one placed hunk: its old side's lines [start, end) of the
// file become newLines.
type patchEdit struct {
	start, end int
	newLines   []string
	newNoEOL   bool
	atEOF      bool
}

// patchApply is the state of one file's hunks.
type patchApply struct {
	lines    []string // the file as read
	noEOL    bool     // its last line has no newline
	fuzz     int
	offset   int // where the last hunk landed relative to where it said
	minPos   int // hunks apply in order and do not overlap
	edits    []patchEdit
	mismatch bool // some hunk needed an offset or fuzz, or failed
}

// contextRuns counts a hunk's leading and trailing context lines.
func contextRuns(h *patchHunk) (lead, trail int) {
	for _, l := range h.lines {
		if l.op != ' ' {
			break
		}
		lead++
	}
	for i := len(h.lines) - 1; i >= 0 && h.lines[i].op == ' '; i-- {
		trail++
	}
	if lead == len(h.lines) {
		trail = 0
	}
	return lead, trail
}

// find locates h's old side with the given fuzz; pos is where the
// untrimmed hunk starts.
func (a *patchApply) find(h *patchHunk, fuzz int) (pos, dropLead int, ok bool) {
	old := h.oldSide()
	lead, trail := contextRuns(h)
	dl, dt := min(fuzz, lead), min(fuzz, trail)
	if fuzz > 0 && dl == 0 && dt == 0 {
		return 0, 0, false // nothing to drop: the exact search already failed
	}
	old = old[dl : len(old)-dt]
	expected := h.oldStart - 1 + a.offset + dl
	if h.oldLen == 0 {
		expected = h.oldStart + a.offset
	}
	limit := len(a.lines) - len(old)
	for d := 0; d <= len(a.lines)+1; d++ {
		for _, p := range []int{expected + d, expected - d} {
			if d == 0 && p != expected {
				continue
			}
			if p < a.minPos || p > limit || p < 0 {
				continue
			}
			if a.matches(old, p) {
				return p - dl, dl, true
			}
		}
		if expected+d > limit && expected-d < a.minPos {
			break
		}
	}
	return 0, 0, false
}

// matches compares the file at p with want.
func (a *patchApply) matches(want []string, p int) bool {
	for i, w := range want {
		if a.lines[p+i] != w {
			return false
		}
	}
	return true
}

// place finds a hunk (exactly, then with more fuzz) and records its edit.
func (a *patchApply) place(h *patchHunk) (pos, fuzz int, ok bool) {
	for f := 0; f <= a.fuzz; f++ {
		start, dl, found := a.find(h, f)
		if !found {
			continue
		}
		_, trail := contextRuns(h)
		dt := min(f, trail)
		old, nw := h.oldSide(), h.newSide()
		oldTrim := old[dl : len(old)-dt]
		newTrim := nw[dl : len(nw)-dt]
		begin := start + dl
		e := patchEdit{start: begin, end: begin + len(oldTrim), newLines: newTrim, newNoEOL: h.newNoEOL}
		e.atEOF = e.end == len(a.lines)
		a.edits = append(a.edits, e)
		a.minPos = e.end
		if h.oldLen == 0 {
			a.offset = start - h.oldStart
		} else {
			a.offset = start + 1 - h.oldStart
		}
		return start, f, true
	}
	return 0, 0, false
}

// result is the patched file, and whether its last line lacks a newline.
func (a *patchApply) result() ([]string, bool) {
	var out []string
	noEOL := a.noEOL
	last := 0
	for _, e := range a.edits {
		out = append(out, a.lines[last:e.start]...)
		out = append(out, e.newLines...)
		last = e.end
		if e.atEOF {
			noEOL = e.newNoEOL
		}
	}
	out = append(out, a.lines[last:]...)
	return out, noEOL
}
