package utils

import (
	"bufio"
	"io"
	"strconv"
	"time"
)

// prStatus is a column's input: open, at a form feed (held until the next
// page), or at its end.
type prStatus int

const (
	prOpen prStatus = iota
	prFFFound
	prOnHold
	prClosed
)

// prColumn is one output column: its input (shared by every column of
// one file), what it has stored, and where it starts on the line.
type prColumn struct {
	in       *prInput
	status   prStatus
	store    bool // characters go to the page buffer (columns down)
	stored   bool // lines are printed from the page buffer
	current  int  // its first line in lineVec
	nStored  int
	toPrint  int
	startPos int
	numbered bool
	fullPage bool // a full page was printed without a form feed
}

// prInput is one open file.
type prInput struct {
	name   string
	r      *bufio.Reader
	close  func()
	err    error
	closed bool
}

func (in *prInput) getc() int {
	b, err := in.r.ReadByte()
	if err != nil {
		if err != io.EOF && in.err == nil {
			in.err = err
		}
		return -1
	}
	return int(b)
}

func (in *prInput) ungetc() { in.r.UnreadByte() }

// prRun is one pr command: its options, then the state of the page being
// printed, kept as GNU pr keeps it so that columns, numbers, separators
// and form feeds land where they land there.
type prRun struct {
	t *tool

	columns, linesPerPage, charsPerLine, margin  int
	inTabWidth, outTabWidth, numDigits           int
	startLineNum                                 int
	inTab, outTab, numSep                        byte
	digits                                       string
	explicitColumns, columnsGiven                bool
	across, parallel, storing, balance           bool
	ctrlPrefix, escSeq, double, untabify, tabify bool
	formFeed, join, numbered, skipCount          bool
	ignoreFailed, useColSep, extremities, keepFF bool
	truncate, oldOptions, oldS, oldW             bool
	header                                       *string
	dateFormat, colSep                           string
	firstPage, lastPage                          uint64

	cols                                      []prColumn
	buff                                      []byte
	lineVec, endVec                           []int
	charged                                   int64
	linesPerBody, charsPerColumn, numberWidth int
	outPos, inPos, spaces, seps, padding      int
	padVert, printHeader, printFF             bool
	alignEmpty, emptyLine, ffOnly, lastLine   bool
	lineNumber, lineCount                     int
	page                                      uint64
	ready                                     int
	failedOpens, dead                         bool
	dateText, fileText                        string
	headerAvail                               int
	clump                                     []byte
	clumpBlanks                               int
	now                                       time.Time
}

// putc writes one byte of output.
func (r *prRun) putc(c byte) { r.t.writeByte(c) }

// putn writes c n times, giving up when the line is over.
func (r *prRun) putn(c byte, n int) {
	var chunk [512]byte
	for i := range chunk {
		chunk[i] = c
	}
	for n > 0 && !r.t.stopped() {
		k := min(n, len(chunk))
		r.t.write(chunk[:k])
		n -= k
	}
}

// over reports that the run must stop: a dead input or output, or the
// line's end.
func (r *prRun) over() bool { return r.dead || r.t.stopped() }

// grow charges the page buffer's growth to the line's budget.
func (r *prRun) grow() bool {
	held := int64(cap(r.buff)) + 16*int64(cap(r.lineVec))
	if held > r.charged {
		if r.t.env.Grow(held-r.charged) != nil {
			r.dead = true
			return false
		}
		r.charged = held
	}
	return true
}

func (r *prRun) release() {
	if r.charged > 0 {
		r.t.env.Grow(-r.charged)
		r.charged = 0
	}
}

// parameters is init_parameters: the body length, the column width, the
// default separators.
func (r *prRun) parameters(nfiles int) string {
	r.linesPerBody = r.linesPerPage - 10
	if r.linesPerBody <= 0 {
		r.extremities, r.keepFF = false, true
	}
	if !r.extremities {
		r.linesPerBody = r.linesPerPage
	}
	if r.double {
		r.linesPerBody /= 2
	}
	if nfiles == 0 {
		r.parallel = false
	}
	if r.parallel {
		r.columns = nfiles
	}
	if r.storing {
		r.balance = true
	}
	if r.columns > 1 {
		if !r.useColSep {
			r.colSep = " "
			if r.join {
				r.colSep = "\t"
			}
			r.useColSep = true
		} else if !r.join && r.colSep == "\t" {
			r.colSep = " "
		}
		r.truncate = true
		if r.colSep != "\t" {
			r.untabify = true
		}
		r.tabify = true
	} else {
		r.storing = false
	}
	if r.join {
		r.truncate = false
	}
	usedByNumber := 0
	if r.numbered {
		r.lineCount = r.startLineNum
		if r.numSep == '\t' {
			r.numberWidth = r.numDigits + 8 - r.numDigits%8
		} else {
			r.numberWidth = r.numDigits + 1
		}
		if r.parallel {
			usedByNumber = r.numberWidth
		}
	}
	useful := int64(r.charsPerLine) - int64(usedByNumber) - int64(r.columns-1)*int64(len(r.colSep))
	if useful/int64(r.columns) < 1 {
		return "page width too narrow"
	}
	r.charsPerColumn = int(useful / int64(r.columns))
	return ""
}

// printFiles prints one file, or every file side by side (-m), or
// standard input (no names).
func (r *prRun) printFiles(names []string) {
	if msg := r.parameters(len(names)); msg != "" {
		r.t.warn(msg)
		r.dead = true
		return
	}
	if !r.openColumns(names) {
		return
	}
	defer r.closeAll()
	r.buff, r.lineVec, r.endVec = r.buff[:0], r.lineVec[:0], r.endVec[:0]
	if r.firstPage > 1 {
		if !r.skipToPage(r.firstPage) {
			return
		}
		r.page = r.firstPage
	} else {
		r.page = 1
	}
	r.initFuncs()
	r.lineNumber = r.lineCount
	for !r.over() && r.printPage() {
	}
}

// open opens one file for a column; false when it cannot be read.
func (r *prRun) open(name string) (*prInput, time.Time, bool) {
	if name == "-" {
		return &prInput{name: "standard input", r: bufio.NewReader(r.t.stdin()), close: func() {}}, time.Time{}, true
	}
	f, closeIn, err := openOperand(r.t, name)
	if err != nil {
		r.failedOpens = true
		if !r.ignoreFailed {
			r.t.warn(quoteIfNeeded(name) + ": " + errText(err))
		}
		return nil, time.Time{}, false
	}
	var mtime time.Time
	if fi, err := r.t.env.FS.Stat(r.t.abs(name)); err == nil {
		mtime = fi.ModTime()
	}
	return &prInput{name: name, r: bufio.NewReader(f), close: closeIn}, mtime, true
}

// openColumns is init_fps: a column per file with -m, else every column
// reading the one file.
func (r *prRun) openColumns(names []string) bool {
	r.cols = r.cols[:0]
	r.ready = 0
	if r.parallel {
		for _, name := range names {
			in, _, ok := r.open(name)
			if !ok {
				r.columns--
				continue
			}
			r.cols = append(r.cols, prColumn{in: in})
			r.ready++
		}
		if r.columns == 0 {
			return false
		}
		r.initHeader("", time.Time{})
		return true
	}
	name := "-"
	if len(names) > 0 {
		name = names[0]
	}
	in, mtime, ok := r.open(name)
	if !ok {
		return false
	}
	if len(names) > 0 && name != "-" {
		r.initHeader(name, mtime)
	} else {
		r.initHeader("", time.Time{})
	}
	r.ready = 1
	for range r.columns {
		r.cols = append(r.cols, prColumn{in: in})
	}
	return true
}

func (r *prRun) closeAll() {
	for i := range r.cols {
		if in := r.cols[i].in; !in.closed {
			in.closed = true
			in.close()
		}
	}
}

// initHeader makes the header's date (the file's modification time, or
// now for standard input and -m) and name.
func (r *prRun) initHeader(name string, mtime time.Time) {
	if name == "" {
		if r.now.IsZero() {
			r.now = time.Now()
		}
		mtime = r.now
	}
	text, err := strftimeGrow(r.dateFormat, mtime.In(r.t.location()), r.t.env.Grow)
	if err != nil {
		r.dead = true
	}
	r.dateText = text
	switch {
	case r.header != nil:
		r.fileText = *r.header
	default:
		r.fileText = name
	}
	r.headerAvail = r.charsPerLine - len(r.dateText) - len(r.fileText)
}

// initFuncs decides, column by column, whether lines are stored or
// printed as read, and where each column starts.
func (r *prRun) initFuncs() {
	h := r.margin
	hNext := 0
	if r.truncate {
		hNext = h + r.charsPerColumn
		if r.parallel && r.numbered {
			hNext += r.numberWidth
		}
	}
	h += len(r.colSep)
	for i := range r.cols {
		p := &r.cols[i]
		last := i == len(r.cols)-1
		p.store = r.storing && (!last || r.balance)
		p.stored = p.store
		p.numbered = r.numbered && (!r.parallel || i == 0)
		p.startPos = h
		if last {
			break
		}
		if !r.truncate {
			h, hNext = 0, 0
		} else {
			h = hNext + len(r.colSep)
			hNext = h + r.charsPerColumn
		}
	}
}

// closeInput is close_file: every column of a single file closes with it.
func (r *prRun) closeInput(p *prColumn) {
	if p.status == prClosed {
		return
	}
	if err := p.in.err; err != nil {
		r.t.warn(quoteIfNeeded(p.in.name) + ": " + errText(err))
		r.dead = true
	}
	if !r.parallel {
		for i := range r.cols {
			q := &r.cols[i]
			q.status = prClosed
			if q.nStored == 0 {
				q.toPrint = 0
			}
		}
	} else {
		p.status = prClosed
		p.toPrint = 0
	}
	r.ready--
}

// hold is hold_file: a form feed holds the input until the next page.
func (r *prRun) hold(p *prColumn) {
	if !r.parallel {
		for i := range r.cols {
			if r.storing {
				r.cols[i].status = prFFFound
			} else {
				r.cols[i].status = prOnHold
			}
		}
	} else {
		p.status = prOnHold
	}
	p.toPrint = 0
	r.ready--
}

// resetStatus opens the held inputs again at the end of a page.
func (r *prRun) resetStatus() {
	for i := range r.cols {
		if r.cols[i].status == prOnHold {
			r.cols[i].status = prOpen
			r.ready++
		}
	}
	if r.storing {
		r.ready = 1
		if r.cols[0].status == prClosed {
			r.ready = 0
		}
	}
}

// readyToPrint counts the columns with input or stored lines left.
func (r *prRun) readyToPrint() int {
	n := 0
	for i := range r.cols {
		q := &r.cols[i]
		if q.status == prOpen || q.status == prFFFound || (r.storing && q.nStored > 0 && q.toPrint > 0) {
			n++
		}
	}
	return n
}

// skipToPage reads and drops the pages before page, counting their lines
// for -n.
func (r *prRun) skipToPage(page uint64) bool {
	for n := uint64(1); n < page; n++ {
		if r.over() {
			return false
		}
		for i := 1; i < r.linesPerBody; i++ {
			for j := range r.cols {
				if r.cols[j].status == prOpen {
					r.skipRead(&r.cols[j], j)
				}
			}
		}
		r.lastLine = true
		for j := range r.cols {
			if r.cols[j].status == prOpen {
				r.skipRead(&r.cols[j], j)
			}
		}
		if r.storing {
			for j := range r.cols {
				if r.cols[j].status != prClosed {
					r.cols[j].status = prOnHold
				}
			}
		}
		r.resetStatus()
		r.lastLine = false
		if r.ready < 1 {
			r.t.warn("starting page number " + strconv.FormatUint(page, 10) + " exceeds page count " + strconv.FormatUint(n, 10))
			break
		}
	}
	return r.ready > 0
}

// skipRead reads one line of a skipped page.
func (r *prRun) skipRead(p *prColumn, column int) {
	c := p.in.getc()
	if c == '\f' && p.fullPage {
		if c = p.in.getc(); c == '\n' {
			c = p.in.getc()
		}
	}
	p.fullPage = false
	singleFF := c == '\f'
	if r.lastLine {
		p.fullPage = true
	}
	for c != '\n' {
		if c == '\f' {
			if r.lastLine {
				if !r.parallel {
					for i := range r.cols {
						r.cols[i].fullPage = false
					}
				} else {
					p.fullPage = false
				}
			}
			if p.in.getc() != '\n' {
				p.in.ungetc()
			}
			r.hold(p)
			break
		}
		if c < 0 {
			r.closeInput(p)
			break
		}
		c = p.in.getc()
	}
	if r.skipCount && (!r.parallel || column == 0) && !singleFF {
		r.lineCount++
	}
}
