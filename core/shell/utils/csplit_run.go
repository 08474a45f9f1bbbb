package utils

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// run applies the controls in order, then writes the rest to a last
// piece; it returns the exit status. Any failure has removed the pieces
// (unless -k) when it returns 1.
func (r *csplitRun) run(controls []*csplitControl) int {
	for _, c := range controls {
		for j := int64(0); c.forever || j <= c.repeat; j++ {
			if r.t.stopped() {
				return r.fatal()
			}
			var ok, done bool
			if c.re != nil {
				ok, done = r.regexp(c, j)
			} else {
				ok = r.lineCount(c, j)
			}
			if !ok {
				return r.fatal()
			}
			if done {
				return 0
			}
		}
	}
	if !r.create() {
		return r.fatal()
	}
	r.dumpRest()
	if !r.close() {
		return r.fatal()
	}
	return 0
}

// fatal is GNU's cleanup_fatal: the piece being written is closed (its
// size still printed) and every piece removed unless -k.
func (r *csplitRun) fatal() int {
	if r.died {
		if r.out != nil {
			r.out.Flush()
			r.outFile.Close()
			r.out = nil
		}
		return 1
	}
	r.close()
	if !r.keep {
		for _, name := range r.created {
			r.t.env.FS.Remove(r.t.abs(name))
		}
	}
	return 1
}

// csplitMaxWidth bounds a piece name's number field: past it the name is
// refused as too long (as any name past PATH_MAX is) before it is built.
const csplitMaxWidth = 4096

// pieceName is the name of piece n; long says it is past what a file
// name may be.
func (r *csplitRun) pieceName(n int64) (string, bool) {
	if r.format == "" {
		d := min(r.digits, csplitMaxWidth+1)
		return r.prefix + csplitNumber("0", d, -1, 'd', uint64(n)), d > csplitMaxWidth
	}
	f := r.format
	var out strings.Builder
	out.WriteString(r.prefix)
	long := false
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			out.WriteByte(f[i])
			continue
		}
		if f[i+1] == '%' {
			out.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for strings.IndexByte("-#0'", f[j]) >= 0 {
			j++
		}
		flags := f[i+1 : j]
		width, j := csplitField(f, j)
		prec := -1
		if f[j] == '.' {
			prec, j = csplitField(f, j+1)
		}
		long = long || width > csplitMaxWidth || prec > csplitMaxWidth
		out.WriteString(csplitNumber(flags, min(width, csplitMaxWidth+1), min(prec, csplitMaxWidth+1), f[j], uint64(n)))
		i = j
	}
	return out.String(), long
}

// csplitField reads a decimal field at f[j:] (0 when there is none),
// saturating past csplitMaxWidth.
func csplitField(f string, j int) (int, int) {
	n := 0
	for ; j < len(f) && f[j] >= '0' && f[j] <= '9'; j++ {
		if n <= csplitMaxWidth {
			n = n*10 + int(f[j]-'0')
		}
	}
	return n, j
}

// csplitNumber is C's printf of the unsigned n with flags (of "-#0'"),
// width, precision (-1 for none) and verb (d i u o x X), as csplit's
// suffixes are made: %d and %i print unsigned.
func csplitNumber(flags string, width, prec int, verb byte, n uint64) string {
	base := 10
	switch verb {
	case 'o':
		base = 8
	case 'x', 'X':
		base = 16
	}
	digits := strconv.FormatUint(n, base)
	if verb == 'X' {
		digits = strings.ToUpper(digits)
	}
	if prec == 0 && n == 0 {
		digits = ""
	}
	if len(digits) < prec {
		digits = strings.Repeat("0", prec-len(digits)) + digits
	}
	alt := strings.IndexByte(flags, '#') >= 0
	lead := ""
	switch {
	case alt && verb == 'o' && (digits == "" || digits[0] != '0'):
		digits = "0" + digits
	case alt && n != 0 && (verb == 'x' || verb == 'X'):
		lead = "0" + string(verb)
	}
	pad := width - len(lead) - len(digits)
	switch {
	case pad <= 0:
		return lead + digits
	case strings.IndexByte(flags, '-') >= 0:
		return lead + digits + strings.Repeat(" ", pad)
	case strings.IndexByte(flags, '0') >= 0 && prec < 0:
		return lead + strings.Repeat("0", pad) + digits
	}
	return strings.Repeat(" ", pad) + lead + digits
}

// create opens the next piece.
func (r *csplitRun) create() bool {
	name, long := r.pieceName(r.fileCount)
	if long || len(name)-strings.LastIndexByte(name, '/')-1 > 255 {
		r.t.warn(quoteIfNeeded(name) + ": File name too long")
		return false
	}
	f, err := r.t.env.FS.OpenFile(r.t.abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		r.t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return false
	}
	r.created = append(r.created, name)
	r.fileCount++
	r.out, r.outFile, r.outName, r.bytesWritten = bufio.NewWriter(f), f, name, 0
	return true
}

// close ends the piece: an empty one goes under -z, else its size is
// printed (unless -s).
func (r *csplitRun) close() bool {
	if r.out == nil {
		return true
	}
	err := r.out.Flush()
	if cerr := r.outFile.Close(); err == nil {
		err = cerr
	}
	r.out = nil
	if err != nil {
		r.t.warn(quoteIfNeeded(r.outName) + ": " + errText(err))
		return false
	}
	if r.bytesWritten == 0 && r.elide {
		r.t.env.FS.Remove(r.t.abs(r.outName))
		r.created = r.created[:len(r.created)-1]
		r.fileCount--
		return true
	}
	if !r.quiet {
		r.t.writeString(strconv.FormatInt(r.bytesWritten, 10) + "\n")
	}
	return true
}

// save writes a line to the piece (none when skipping).
func (r *csplitRun) save(line []byte) {
	if r.out != nil {
		r.out.Write(line)
		r.bytesWritten += int64(len(line))
	}
}

// removeLine takes the first unwritten line, or nil at the end.
func (r *csplitRun) removeLine() []byte {
	if r.head >= int64(len(r.lines)) {
		return nil
	}
	// The search goes on after what was taken, as GNU's current_line
	// follows its buffer's first available line.
	r.current = max(r.current, r.head+1)
	r.head++
	return r.lines[r.head-1]
}

// findLine is line n (1-based), or nil past the end.
func (r *csplitRun) findLine(n int64) []byte {
	if n < 1 || n > int64(len(r.lines)) {
		return nil
	}
	return r.lines[n-1]
}

func (r *csplitRun) dumpRest() {
	for line := r.removeLine(); line != nil; line = r.removeLine() {
		r.save(line)
	}
}

// disappeared is GNU's answer when a pattern needs the first unwritten
// line and the input has none left.
func (r *csplitRun) disappeared() bool {
	r.t.warn("input disappeared")
	r.died = true
	return false
}

// lineError is "'N': line number out of range", with the repetition.
func (r *csplitRun) lineError(c *csplitControl, rep int64) bool {
	msg := quoteLocale(strconv.FormatInt(c.lines, 10)) + ": line number out of range"
	if rep > 0 {
		msg += " on repetition " + strconv.FormatInt(rep, 10)
	}
	r.t.warn(msg)
	return false
}

// lineCount is an INTEGER pattern: the lines before line N×(rep+1).
func (r *csplitRun) lineCount(c *csplitControl, rep int64) bool {
	last := c.lines * (rep + 1)
	if !r.create() {
		return false
	}
	if r.suppress && r.noMoreLines() {
		return r.lineError(c, rep)
	}
	if r.head >= int64(len(r.lines)) {
		return r.disappeared()
	}
	for n := r.head + 1; n < last; n++ {
		line := r.removeLine()
		if line == nil {
			return r.lineError(c, rep)
		}
		r.save(line)
	}
	if !r.close() {
		return false
	}
	if r.suppress {
		r.removeLine()
	}
	if !r.suppress && r.noMoreLines() {
		return r.lineError(c, rep)
	}
	return true
}

// noMoreLines is GNU's no_more_lines: nothing after the last line
// searched (a regexp's positive offset moves it past what was written).
func (r *csplitRun) noMoreLines() bool {
	return r.findLine(r.current+1) == nil
}

// regexp is a /REGEXP/ or %REGEXP% pattern; done says {*} ran out of
// input, which ends csplit successfully.
func (r *csplitRun) regexp(c *csplitControl, rep int64) (ok, done bool) {
	if !c.ignore && !r.create() {
		return false, false
	}
	for {
		r.current++
		line := r.findLine(r.current)
		if line == nil {
			if c.forever {
				if !c.ignore {
					r.dumpRest()
					return r.close(), true
				}
				return true, true
			}
			msg := quoteLocale(c.arg) + ": match not found"
			if rep > 0 {
				msg += " on repetition " + strconv.FormatInt(rep, 10)
			}
			r.t.warn(msg)
			if !c.ignore {
				r.dumpRest()
			}
			return false, false
		}
		if c.re.Match(trimNewline(line)) {
			break
		}
		if c.offset >= 0 {
			if l := r.removeLine(); !c.ignore {
				r.save(l)
			}
		}
	}
	breakLine := r.current + c.offset
	if r.head >= int64(len(r.lines)) {
		return r.disappeared(), false
	}
	if r.head+1 > breakLine {
		r.t.warn(quoteLocale(c.arg) + ": line number out of range")
		return false, false
	}
	for n := breakLine - (r.head + 1); n > 0; n-- {
		line := r.removeLine()
		if line == nil {
			r.t.warn(quoteLocale(c.arg) + ": line number out of range")
			return false, false
		}
		if !c.ignore {
			r.save(line)
		}
	}
	if !c.ignore && !r.close() {
		return false, false
	}
	if c.offset > 0 {
		r.current = breakLine
	}
	if r.suppress {
		r.removeLine()
	}
	return true, false
}

func trimNewline(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		return line[:n-1]
	}
	return line
}
