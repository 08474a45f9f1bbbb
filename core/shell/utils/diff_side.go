package utils

import "strings"

// diffSideTab is the tab size GNU diff assumes when it lays out columns.
const diffSideTab = 8

// diffSideGutter is GNU's minimum room between the two columns.
const diffSideGutter = 3

// diffSideLayout is GNU diff's -y geometry for one output width: how wide
// each half is and where the right column starts (diffutils side.c).
type diffSideLayout struct {
	half, col2 int
	expandTabs bool
}

func newDiffSideLayout(width int, expandTabs bool) diffSideLayout {
	t := diffSideTab
	if expandTabs {
		t = 1
	}
	off := (width + t + diffSideGutter) / (2 * t) * t
	half := max(0, min(off-diffSideGutter, width-off))
	col2 := width
	if half > 0 {
		col2 = off
	}
	return diffSideLayout{half: half, col2: col2, expandTabs: expandTabs}
}

// sideBySide writes every line of both files in two columns: common lines
// with no marker, changed pairs with '|', lines only on the left with '<'
// and only on the right with '>' (diff -y).
//
// What is built goes out every 64 KiB, so a wide layout of a long file
// never holds more than a line at once.
func (d *diffRun) sideBySide(out *strings.Builder, a, b *diffFile, changes []diffChange) {
	lay := newDiffSideLayout(d.cfg.width, d.cfg.expandTabs)
	line := func(left string, sep byte, right string, hasLeft, hasRight bool) {
		lay.line(out, left, sep, right, hasLeft, hasRight)
		if out.Len() >= wideField {
			d.t.writeString(out.String())
			out.Reset()
		}
	}
	ai, bi := 0, 0
	common := func(aTo int) {
		for ; ai < aTo; ai, bi = ai+1, bi+1 {
			if !d.cfg.suppressCommon {
				line(a.lines[ai], ' ', b.lines[bi], true, true)
			}
		}
	}
	for _, c := range changes {
		common(c.aFrom)
		for ai < c.aTo && bi < c.bTo {
			line(a.lines[ai], '|', b.lines[bi], true, true)
			ai, bi = ai+1, bi+1
		}
		for ; ai < c.aTo; ai++ {
			line(a.lines[ai], '<', "", true, false)
		}
		for ; bi < c.bTo; bi++ {
			line("", '>', b.lines[bi], false, true)
		}
	}
	common(len(a.lines))
}

// line is side.c's print_1sdiff_line.
func (lay diffSideLayout) line(out *strings.Builder, left string, sep byte, right string, hasLeft, hasRight bool) {
	col := 0
	newline := false
	if hasLeft {
		newline = strings.HasSuffix(left, "\n")
		col = lay.printHalf(out, left)
	}
	if sep != ' ' {
		col = lay.tabTo(out, col, (lay.half+lay.col2-1)/2) + 1
		if sep == '|' && newline != strings.HasSuffix(right, "\n") {
			// One side ends without a newline: GNU marks which.
			if newline {
				sep = '/'
			} else {
				sep = '\\'
			}
		}
		out.WriteByte(sep)
	}
	if hasRight {
		newline = newline || strings.HasSuffix(right, "\n")
		if right != "\n" && right != "" {
			lay.tabTo(out, col, lay.col2)
			lay.printHalf(out, right)
		}
	}
	if newline {
		out.WriteByte('\n')
	}
}

// tabTo moves from column from to column to with tabs where they fit (or
// only spaces under -t) and returns to.
func (lay diffSideLayout) tabTo(out *strings.Builder, from, to int) int {
	if !lay.expandTabs {
		for tab := from + diffSideTab - from%diffSideTab; tab <= to; tab += diffSideTab {
			out.WriteByte('\t')
			from = tab
		}
	}
	for ; from < to; from++ {
		out.WriteByte(' ')
	}
	return to
}

// printHalf prints one line cut to the column width, as side.c's
// print_half_line, and returns the output column reached.
func (lay diffSideLayout) printHalf(out *strings.Builder, line string) int {
	in, pos := 0, 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\n':
			return pos
		case c == '\t':
			spaces := diffSideTab - in%diffSideTab
			if in == pos {
				stop := pos + spaces
				if lay.expandTabs {
					stop = min(stop, lay.half)
					for ; pos < stop; pos++ {
						out.WriteByte(' ')
					}
				} else if stop < lay.half {
					pos = stop
					out.WriteByte('\t')
				}
			}
			in += spaces
		case c == '\r':
			out.WriteByte(c)
			in, pos = 0, 0
		case c == '\b':
			if in != 0 {
				in--
				if in < lay.half {
					if pos <= in {
						for ; pos < in; pos++ {
							out.WriteByte(' ')
						}
					} else {
						pos = in
						out.WriteByte(c)
					}
				}
			}
		case c < ' ' || c == 0x7f:
			out.WriteByte(c) // no width
		default:
			if in < lay.half {
				pos = in + 1
				out.WriteByte(c)
			}
			in++
		}
	}
	return pos
}
