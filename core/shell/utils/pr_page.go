package utils

import "strconv"

// charFunc sends one character of column p to the page buffer or the
// output.
func (r *prRun) charFunc(p *prColumn, c byte) {
	if p.store {
		r.storeChar(c)
	} else {
		r.printChar(c)
	}
}

// printFunc prints one line of column p; false means it was cut at the
// column's width and the rest of the input line is still to be skipped.
func (r *prRun) printFunc(p *prColumn) bool {
	if p.stored {
		return r.printStored(p)
	}
	return r.readLine(p)
}

// blanks sends n spaces of column p, however many: a wide -n or -e
// field is never held whole.
func (r *prRun) blanks(p *prColumn, n int) {
	switch {
	case n <= 0:
	case p.store:
		for n > 0 && !r.over() {
			k := min(n, 4096)
			r.buff = append(r.buff, make([]byte, k)...)
			for i := len(r.buff) - k; i < len(r.buff); i++ {
				r.buff[i] = ' '
			}
			n -= k
			r.grow()
		}
	case r.tabify:
		r.spaces += n
	default:
		r.putn(' ', n)
	}
}

func (r *prRun) storeChar(c byte) {
	if len(r.buff) == cap(r.buff) {
		r.buff = append(r.buff, c)
		r.grow()
		return
	}
	r.buff = append(r.buff, c)
}

// initPage sets how many lines each column prints on this page.
func (r *prRun) initPage() {
	if r.storing {
		r.storeColumns()
		for i := range r.cols {
			p := &r.cols[i]
			switch {
			case i < len(r.cols)-1 || r.balance:
				p.toPrint = p.nStored
			case p.status == prOpen:
				p.toPrint = r.linesPerBody
			default:
				p.toPrint = 0
			}
		}
		return
	}
	for i := range r.cols {
		p := &r.cols[i]
		p.toPrint = 0
		if p.status == prOpen {
			p.toPrint = r.linesPerBody
		}
	}
}

// alignColumn pads and separates an empty column of -m.
func (r *prRun) alignColumn(p *prColumn) {
	r.padding = p.startPos
	if len(r.colSep) < r.padding {
		r.padAcrossTo(r.padding - len(r.colSep))
		r.padding = 0
	}
	if r.useColSep {
		r.printSepString()
	}
	if p.numbered {
		r.addLineNumber(p)
	}
}

// printPage prints one page; false when there is nothing left to print
// (or the last page asked for is done).
func (r *prRun) printPage() bool {
	r.initPage()
	if r.dead || r.readyToPrint() == 0 {
		return false
	}
	if r.extremities {
		r.printHeader = true
	}
	r.padVert = false
	pv := false
	left := r.linesPerBody
	if r.double {
		left *= 2
	}
	for left > 0 && r.readyToPrint() > 0 && !r.over() {
		r.outPos, r.spaces, r.seps = 0, 0, 0
		r.padVert, r.alignEmpty, r.emptyLine = false, false, true
		r.printLineAcross(&pv)
		if r.padVert {
			r.putc('\n')
			left--
		}
		if r.readyToPrint() == 0 && !r.extremities {
			break
		}
		if r.double && pv {
			r.putc('\n')
			left--
		}
	}
	if left == 0 {
		for i := range r.cols {
			if r.cols[i].status == prOpen {
				r.cols[i].fullPage = true
			}
		}
	}
	r.padVert = pv
	if pv && r.extremities {
		r.padDown(left + 5)
	} else if r.keepFF && r.printFF {
		r.putc('\f')
		r.printFF = false
	}
	r.page++
	if r.page == 0 || r.lastPage < r.page {
		return false
	}
	r.resetStatus()
	return true
}

// printLineAcross prints one output line: a line of every column.
func (r *prRun) printLineAcross(pv *bool) {
	for j := range r.cols {
		p := &r.cols[j]
		r.inPos = 0
		if p.toPrint > 0 || p.status == prFFFound {
			r.ffOnly = false
			r.padding = p.startPos
			if !r.printFunc(p) {
				r.readRestOfLine(p)
			}
			*pv = *pv || r.padVert
			p.toPrint--
			if p.toPrint <= 0 && r.readyToPrint() == 0 {
				break
			}
			if r.parallel && p.status != prOpen {
				if r.emptyLine {
					r.alignEmpty = true
				} else if p.status == prClosed || (p.status == prOnHold && r.ffOnly) {
					r.alignColumn(p)
				}
			}
		} else if r.parallel {
			if r.emptyLine {
				r.alignEmpty = true
			} else {
				r.alignColumn(p)
			}
		}
		if r.useColSep {
			r.seps++
		}
	}
}

// storeColumns reads the page's columns (all but the last unless
// balancing) into the page buffer.
func (r *prRun) storeColumns() {
	r.buff, r.lineVec, r.endVec = r.buff[:0], r.lineVec[:0], r.endVec[:0]
	last := len(r.cols) - 1
	if r.balance {
		last = len(r.cols)
	}
	for i := 0; i < last; i++ {
		r.cols[i].nStored = 0
	}
	start := 0
	for i := 0; i < last && r.ready > 0; i++ {
		p := &r.cols[i]
		p.current = len(r.lineVec)
		for j := r.linesPerBody; j > 0 && r.ready > 0 && !r.over(); j-- {
			if p.status != prOpen {
				continue
			}
			r.inPos = 0
			if !r.readLine(p) {
				r.readRestOfLine(p)
			}
			if p.status == prOpen || start != len(r.buff) {
				p.nStored++
				r.lineVec = append(r.lineVec, start)
				r.endVec = append(r.endVec, r.inPos)
				start = len(r.buff)
				if len(r.lineVec)%1024 == 0 && !r.grow() {
					return
				}
			}
		}
	}
	r.lineVec = append(r.lineVec, start)
	if r.balance {
		r.balanceColumns(len(r.lineVec) - 1)
	}
}

func (r *prRun) balanceColumns(total int) {
	first := 0
	n := len(r.cols)
	for i := range r.cols {
		lines := total / n
		if i+1 <= total%n {
			lines++
		}
		r.cols[i].nStored = lines
		r.cols[i].current = first
		first += lines
	}
}

// addLineNumber prints (or stores) the line number and its separator.
func (r *prRun) addLineNumber(p *prColumn) {
	s := strconv.Itoa(r.lineNumber)
	r.lineNumber++
	if len(s) > r.numDigits {
		s = s[len(s)-r.numDigits:]
	}
	r.blanks(p, r.numDigits-len(s))
	for i := 0; i < len(s); i++ {
		r.charFunc(p, s[i])
	}
	switch {
	case r.columns > 1 && r.numSep == '\t':
		r.blanks(p, r.numberWidth-r.numDigits)
	case r.columns > 1:
		r.charFunc(p, r.numSep)
	default:
		r.charFunc(p, r.numSep)
		if r.numSep == '\t' {
			r.outPos += r.outTabWidth - r.outPos%r.outTabWidth
		}
	}
	if r.truncate && !r.parallel {
		r.inPos += r.numberWidth
	}
}

// padAcrossTo moves the output to position (as pending white space when
// tabifying).
func (r *prRun) padAcrossTo(position int) {
	if r.tabify {
		r.spaces = position - r.outPos
		return
	}
	if position > r.outPos {
		r.putn(' ', position-r.outPos)
	}
	r.outPos = position
}

// padDown ends the page: newlines, or a form feed with -f.
func (r *prRun) padDown(lines int) {
	if r.formFeed {
		r.putc('\f')
		return
	}
	r.putn('\n', lines)
}

// readRestOfLine drops what is left of a line cut at the column width.
func (r *prRun) readRestOfLine(p *prColumn) {
	for {
		c := p.in.getc()
		switch c {
		case '\n':
			return
		case '\f':
			if p.in.getc() != '\n' {
				p.in.ungetc()
			}
			if r.keepFF {
				r.printFF = true
			}
			r.hold(p)
			return
		case -1:
			r.closeInput(p)
			return
		}
	}
}

// printWhiteSpace prints the pending white space, tabs where they fit.
func (r *prRun) printWhiteSpace() {
	h, goal, w := r.outPos, r.outPos+r.spaces, r.outTabWidth
	tabs := 0
	if goal-h > 1 {
		if next := h + w - h%w; next <= goal {
			tabs, h = 1, next
			if w > 1 {
				tabs += (goal - h) / w
				h += (goal - h) / w * w
			} else if goal-h > 1 {
				tabs += goal - h - 1
				h = goal - 1
			}
		}
	}
	r.putn(r.outTab, tabs)
	if goal > h {
		r.putn(' ', goal-h)
	}
	r.outPos, r.spaces = goal, 0
}

// printSepString prints the separators owed before this column.
func (r *prRun) printSepString() {
	if r.seps <= 0 {
		if r.spaces > 0 {
			r.printWhiteSpace()
		}
		return
	}
	for ; r.seps > 0; r.seps-- {
		for i := 0; i < len(r.colSep); i++ {
			if c := r.colSep[i]; c == ' ' {
				r.spaces++
			} else {
				if r.spaces > 0 {
					r.printWhiteSpace()
				}
				r.putc(c)
				r.outPos++
			}
		}
		if r.spaces > 0 {
			r.printWhiteSpace()
		}
	}
}

func (r *prRun) printChar(c byte) {
	if r.tabify {
		if c == ' ' {
			r.spaces++
			return
		}
		if r.spaces > 0 {
			r.printWhiteSpace()
		}
		switch {
		case c >= 0x20 && c < 0x7f:
			r.outPos++
		case c == '\b':
			r.outPos--
		}
	}
	r.putc(c)
}

// printPageHeader prints the five header lines; the margin before the
// first blank line is GNU's.
func (r *prRun) printPageHeader() {
	r.outPos = 0
	r.padAcrossTo(r.margin)
	r.printWhiteSpace()
	pageText := "Page " + strconv.FormatUint(r.page, 10)
	avail := max(0, r.headerAvail-len(pageText))
	lhs, rhs := avail/2, avail-avail/2
	r.t.writeString("\n\n")
	r.putn(' ', r.margin)
	r.t.writeString(r.dateText)
	r.putn(' ', max(lhs, 1))
	r.t.writeString(r.fileText)
	r.putn(' ', max(rhs, 1))
	r.t.writeString(pageText + "\n\n\n")
	r.printHeader = false
	r.outPos = 0
}

// readLine reads one input line of column p and prints (or stores) it;
// false when it was cut at the column's width.
func (r *prRun) readLine(p *prColumn) bool {
	c := p.in.getc()
	lastPos := r.inPos
	if c == '\f' && p.fullPage {
		if c = p.in.getc(); c == '\n' {
			c = p.in.getc()
		}
	}
	p.fullPage = false
	var clump []byte
	switch c {
	case '\f':
		if p.in.getc() != '\n' {
			p.in.ungetc()
		}
		r.ffOnly = true
		if r.printHeader && !r.storing {
			r.padVert = true
			r.printPageHeader()
		} else if r.keepFF {
			r.printFF = true
		}
		r.hold(p)
		return true
	case -1:
		r.closeInput(p)
		return true
	case '\n':
	default:
		clump = r.charToClump(byte(c))
	}
	if r.truncate && r.inPos > r.charsPerColumn {
		r.inPos = lastPos
		return false
	}
	if !p.store {
		r.lineStart(p)
	}
	if p.numbered {
		r.addLineNumber(p)
	}
	r.emptyLine = false
	if c == '\n' {
		return true
	}
	r.printClump(p, clump)
	for !r.over() {
		c = p.in.getc()
		switch c {
		case '\n':
			return true
		case '\f':
			if p.in.getc() != '\n' {
				p.in.ungetc()
			}
			if r.keepFF {
				r.printFF = true
			}
			r.hold(p)
			return true
		case -1:
			r.closeInput(p)
			return true
		}
		lastPos = r.inPos
		clump = r.charToClump(byte(c))
		if r.truncate && r.inPos > r.charsPerColumn {
			r.inPos = lastPos
			return false
		}
		r.printClump(p, clump)
	}
	return true
}

// lineStart is what comes before a printed line's text: the header when
// the page has none yet, -m's empty columns, the padding and separators.
func (r *prRun) lineStart(p *prColumn) {
	r.padVert = true
	if r.printHeader && !r.storing {
		r.printPageHeader()
	}
	if r.parallel && r.alignEmpty {
		k := r.seps
		r.seps = 0
		for j := 0; j < k; j++ {
			r.alignColumn(&r.cols[j])
			r.seps++
		}
		r.padding = p.startPos
		r.spaces = 0
		if r.truncate {
			r.spaces = r.charsPerColumn
		}
		r.alignEmpty = false
	}
	if len(r.colSep) < r.padding {
		r.padAcrossTo(r.padding - len(r.colSep))
		r.padding = 0
	}
	if r.useColSep {
		r.printSepString()
	}
}

func (r *prRun) printClump(p *prColumn, clump []byte) {
	r.blanks(p, r.clumpBlanks)
	for _, c := range clump {
		r.charFunc(p, c)
	}
}

// printStored prints a line of column p from the page buffer.
func (r *prRun) printStored(p *prColumn) bool {
	line := p.current
	p.current++
	r.padVert = true
	if r.printHeader {
		r.printPageHeader()
	}
	if p.status == prFFFound {
		for i := range r.cols {
			r.cols[i].status = prOnHold
		}
		if r.cols[0].toPrint <= 0 {
			if !r.extremities {
				r.padVert = false
			}
			return true
		}
	}
	if len(r.colSep) < r.padding {
		r.padAcrossTo(r.padding - len(r.colSep))
		r.padding = 0
	}
	if r.useColSep {
		r.printSepString()
	}
	if line+1 >= len(r.lineVec) {
		return true
	}
	for _, c := range r.buff[r.lineVec[line]:r.lineVec[line+1]] {
		r.printChar(c)
	}
	if r.spaces == 0 {
		r.outPos = p.startPos + r.endVec[line]
		if p.startPos-len(r.colSep) == r.margin {
			r.outPos -= len(r.colSep)
		}
	}
	return true
}

// charToClump turns an input character into what is printed for it (a
// tab's spaces, an escape) and moves the input position by its width.
func (r *prRun) charToClump(c byte) []byte {
	s := r.clump[:0]
	r.clumpBlanks = 0
	width := 0
	switch {
	case c == r.inTab || c == '\t':
		w := 8
		if c == r.inTab {
			w = r.inTabWidth
		}
		width = w - r.inPos%w
		if r.untabify {
			r.clumpBlanks = width
		} else {
			s = append(s, c)
		}
	case c >= 0x20 && c < 0x7f:
		width = 1
		s = append(s, c)
	case r.escSeq || (r.ctrlPrefix && c >= 0x80):
		width = 4
		s = append(s, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
	case r.ctrlPrefix:
		width = 2
		s = append(s, '^', c^0x40)
	case c == '\b':
		width = -1
		s = append(s, c)
	default:
		s = append(s, c)
	}
	switch {
	case width < 0 && r.inPos == 0:
		s = s[:0]
		r.inPos = 0
	case width < 0 && r.inPos <= -width:
		r.inPos = 0
	default:
		r.inPos += width
	}
	r.clump = s
	return s
}
