package utils

import (
	"io/fs"
	"strconv"
	"strings"
	"time"

	"gatehouse/internal/lazy"
)

// sixMonths is GNU ls's line between a "recent" time (shown with hours) and
// an old one (shown with the year): half a Gregorian year.
const sixMonths = 15778476 * time.Second

// printBlock prints one group of entries: the command-line files, or the
// contents of one directory (which adds the "total" line).
func (l *lister) printBlock(entries []lsEntry, dirListing bool) {
	cfg := l.cfg
	t := l.t
	if dirListing && (cfg.format == lsLong || cfg.showSize) {
		var total int64
		for i := range entries {
			total += diskBlocks(entries[i].info)
		}
		t.writeString("total " + l.blockText(total) + "\n")
	}
	switch cfg.format {
	case lsLong:
		l.printLong(entries)
	case lsColumns, lsAcross:
		l.printColumns(entries, cfg.format == lsAcross)
	case lsCommas:
		l.printCommas(entries)
	default:
		width := l.sizeWidth(entries)
		for i := range entries {
			if cfg.showSize {
				t.writeString(padLeft(l.blockText(diskBlocks(entries[i].info)), width) + " ")
			}
			t.writeString(l.displayName(&entries[i]) + "\n")
		}
	}
}

// sizeWidth is the width of the -s column.
func (l *lister) sizeWidth(entries []lsEntry) int {
	if !l.cfg.showSize {
		return 0
	}
	w := 0
	for i := range entries {
		w = max(w, len(l.blockText(diskBlocks(entries[i].info))))
	}
	return w
}

// blockText renders a count of 1K blocks (human readable with -h).
func (l *lister) blockText(kib int64) string {
	if l.cfg.human {
		return humanSize(kib*1024, l.cfg.si)
	}
	return strconv.FormatInt(kib, 10)
}

// diskBlocks estimates allocated 1K blocks as ext4 does: whole 4K blocks,
// none for symlinks and devices.
func diskBlocks(info fs.FileInfo) int64 {
	m := info.Mode()
	if m&(fs.ModeSymlink|fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0 {
		return 0
	}
	return (info.Size() + 4095) / 4096 * 4
}

// humanSize renders a byte count the way GNU -h does: rounded up, one
// decimal below 10, units K M G T P E (k for --si).
func humanSize(n int64, si bool) string {
	base := int64(1024)
	units := "KMGTPE"
	if si {
		base = 1000
		units = "kMGTPE"
	}
	if n < base {
		return strconv.FormatInt(n, 10)
	}
	div := base
	p := 0
	for p < len(units)-1 && n/div >= base {
		div *= base
		p++
	}
	for {
		if n < 10*div {
			tenths := (n*10 + div - 1) / div
			if tenths < 100 {
				return strconv.FormatInt(tenths/10, 10) + "." + strconv.FormatInt(tenths%10, 10) + string(units[p])
			}
			return "10" + string(units[p])
		}
		whole := (n + div - 1) / div
		if whole >= base && p < len(units)-1 {
			div *= base
			p++
			continue
		}
		return strconv.FormatInt(whole, 10) + string(units[p])
	}
}

// displayName is the name with -Q quoting and the -F/-p indicator.
func (l *lister) displayName(e *lsEntry) string {
	name := e.name
	if l.cfg.quoteNames {
		name = strconv.Quote(name)
	}
	return name + l.indicator(e)
}

// indicator is the -F/-p/--file-type suffix.
func (l *lister) indicator(e *lsEntry) string {
	cfg := l.cfg
	if !cfg.classify && !cfg.fileType && !cfg.slashOnly {
		return ""
	}
	m := e.info.Mode()
	switch {
	case m.IsDir():
		return "/"
	case cfg.slashOnly:
		return ""
	case m&fs.ModeSymlink != 0:
		if cfg.format == lsLong {
			return ""
		}
		return "@"
	case m&fs.ModeNamedPipe != 0:
		return "|"
	case m&fs.ModeSocket != 0:
		return "="
	case m.IsRegular() && cfg.classify && m&0o111 != 0:
		return "*"
	}
	return ""
}

// longRow is one line of -l output before alignment.
type longRow struct {
	blocks, mode, links, owner, group, size, date, name string
}

func (l *lister) printLong(entries []lsEntry) {
	cfg := l.cfg
	rows := make([]longRow, len(entries))
	var wBlocks, wLinks, wOwner, wGroup, wSize int
	for i := range entries {
		e := &entries[i]
		r := &rows[i]
		if cfg.showSize {
			r.blocks = l.blockText(diskBlocks(e.info))
		}
		r.mode = l.modeText(e.info.Mode())
		r.links = strconv.Itoa(e.nlink)
		r.owner, r.group = "root", "root"
		if cfg.numeric {
			r.owner, r.group = "0", "0"
		}
		r.size = l.sizeText(e)
		r.date = l.dateText(e.info.ModTime())
		r.name = l.displayName(e)
		if e.info.Mode()&fs.ModeSymlink != 0 {
			r.name += " -> " + e.target
			if e.targetInfo != nil && (cfg.classify || cfg.fileType || cfg.slashOnly) {
				target := lsEntry{info: e.targetInfo}
				r.name += l.indicator(&target)
			}
		}
		wBlocks = max(wBlocks, len(r.blocks))
		wLinks = max(wLinks, len(r.links))
		wOwner = max(wOwner, len(r.owner))
		wGroup = max(wGroup, len(r.group))
		wSize = max(wSize, len(r.size))
	}
	// Each line is laid out in one reused buffer: a listing of many
	// entries makes no string per column (issue 18).
	var b []byte
	for i := range rows {
		r := &rows[i]
		b = b[:0]
		if cfg.showSize {
			b = append(appendPadLeft(b, r.blocks, wBlocks), ' ')
		}
		b = append(append(b, r.mode...), ' ')
		b = append(appendPadLeft(b, r.links, wLinks), ' ')
		if !cfg.noOwner {
			b = append(appendPadRight(b, r.owner, wOwner), ' ')
		}
		if !cfg.noGroup {
			b = append(appendPadRight(b, r.group, wGroup), ' ')
		}
		b = append(appendPadLeft(b, r.size, wSize), ' ')
		b = append(append(b, r.date...), ' ')
		b = append(append(b, r.name...), '\n')
		if !l.t.write(b) {
			return
		}
	}
}

// appendPadLeft appends s right-aligned in w columns.
func appendPadLeft(b []byte, s string, w int) []byte {
	for n := len(s); n < w; n++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

// appendPadRight appends s left-aligned in w columns.
func appendPadRight(b []byte, s string, w int) []byte {
	b = append(b, s...)
	for n := len(s); n < w; n++ {
		b = append(b, ' ')
	}
	return b
}

// devNumbers are the major, minor pairs Linux gives the devices a
// workspace has.
var devNumbers = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{"null": "1, 3", "zero": "1, 5", "random": "1, 8", "urandom": "1, 9", "tty": "5, 0"}
}}

func (l *lister) sizeText(e *lsEntry) string {
	m := e.info.Mode()
	if m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0 {
		if n, ok := devNumbers.Get()[e.info.Name()]; ok {
			return n
		}
		return "0, 0"
	}
	if l.cfg.human {
		return humanSize(e.info.Size(), l.cfg.si)
	}
	return strconv.FormatInt(e.info.Size(), 10)
}

func (l *lister) dateText(mt time.Time) string {
	cfg := l.cfg
	mt = mt.In(cfg.loc)
	recent := mt.After(cfg.now.Add(-sixMonths)) && !mt.After(cfg.now)
	switch cfg.timeStyle {
	case "+":
		format := cfg.timeFormatOld
		if recent {
			format = cfg.timeFormatRecent
		}
		// A wide field asks the line's memory budget; when it is spent
		// the line is ending, and what ls prints no longer matters.
		text, _ := strftimeGrow(format, mt, l.t.env.Grow)
		return text
	case "full-iso":
		return mt.Format("2006-01-02 15:04:05.000000000 -0700")
	case "long-iso":
		return mt.Format("2006-01-02 15:04")
	case "iso":
		if recent {
			return mt.Format("01-02 15:04")
		}
		return mt.Format("2006-01-02 ")
	}
	key := lsDateKey{minute: mt.Unix() / 60, recent: recent}
	if text, ok := l.dates[key]; ok && mt.Unix() >= 0 {
		return text
	}
	text := mt.Format("Jan _2  2006")
	if recent {
		text = mt.Format("Jan _2 15:04")
	}
	if l.dates == nil {
		l.dates = map[lsDateKey]string{}
	}
	l.dates[key] = text
	return text
}

// modeText is modeString, remembered per mode for the run.
func (l *lister) modeText(m fs.FileMode) string {
	if text, ok := l.modes[m]; ok {
		return text
	}
	if l.modes == nil {
		l.modes = map[fs.FileMode]string{}
	}
	text := modeString(m)
	l.modes[m] = text
	return text
}

// modeString renders permissions as ls -l does (drwxr-xr-x, with s/t).
func modeString(m fs.FileMode) string {
	var b [10]byte
	switch {
	case m&fs.ModeDir != 0:
		b[0] = 'd'
	case m&fs.ModeSymlink != 0:
		b[0] = 'l'
	case m&fs.ModeNamedPipe != 0:
		b[0] = 'p'
	case m&fs.ModeSocket != 0:
		b[0] = 's'
	case m&fs.ModeCharDevice != 0:
		b[0] = 'c'
	case m&fs.ModeDevice != 0:
		b[0] = 'b'
	default:
		b[0] = '-'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		} else {
			b[i+1] = '-'
		}
	}
	special := func(pos int, set bool, on, off byte) {
		if !set {
			return
		}
		if b[pos] == 'x' {
			b[pos] = on
		} else {
			b[pos] = off
		}
	}
	special(3, m&fs.ModeSetuid != 0, 's', 'S')
	special(6, m&fs.ModeSetgid != 0, 's', 'S')
	special(9, m&fs.ModeSticky != 0, 't', 'T')
	return string(b[:])
}

func padLeft(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}

func padRight(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return s + strings.Repeat(" ", w-len(s))
}

// lsMinColumnWidth is GNU ls's narrowest column: one character and two
// spaces.
const lsMinColumnWidth = 3

// printColumns is -C (down the columns) and -x (across the rows), laid
// out the way GNU ls does: as many columns as keep a line shorter than
// the width, padded with tabs at tab stops.
func (l *lister) printColumns(entries []lsEntry, across bool) {
	n := len(entries)
	if n == 0 {
		return
	}
	names := make([]string, n)
	sw := l.sizeWidth(entries)
	for i := range entries {
		names[i] = l.displayName(&entries[i])
		if l.cfg.showSize {
			names[i] = padLeft(l.blockText(diskBlocks(entries[i].info)), sw) + " " + names[i]
		}
	}
	widths := l.columnWidths(names, across)
	cols := len(widths)
	rows := (n + cols - 1) / cols
	var b strings.Builder
	if across {
		pos, nameLen, colWidth := 0, len(names[0]), widths[0]
		b.WriteString(names[0])
		for i := 1; i < n; i++ {
			col := i % cols
			if col == 0 {
				b.WriteByte('\n')
				pos = 0
			} else {
				l.indent(&b, pos+nameLen, pos+colWidth)
				pos += colWidth
			}
			b.WriteString(names[i])
			nameLen, colWidth = len(names[i]), widths[col]
		}
		b.WriteByte('\n')
		l.t.writeString(b.String())
		return
	}
	for row := 0; row < rows; row++ {
		pos := 0
		for col, i := 0, row; ; col++ {
			b.WriteString(names[i])
			next := i + rows
			if next >= n {
				break
			}
			l.indent(&b, pos+len(names[i]), pos+widths[col])
			pos += widths[col]
			i = next
		}
		b.WriteByte('\n')
	}
	l.t.writeString(b.String())
}

// columnWidths picks the most columns whose line stays shorter than the
// width and returns each column's width (name plus two spaces, the last
// column without them).
func (l *lister) columnWidths(names []string, across bool) []int {
	n := len(names)
	maxCols := n
	if l.cfg.width > 0 {
		maxCols = min(n, max(1, l.cfg.width/lsMinColumnWidth))
	}
	best := []int{0}
	for _, name := range names {
		best[0] = max(best[0], len(name))
	}
	for cols := maxCols; cols > 1; cols-- {
		rows := (n + cols - 1) / cols
		widths := make([]int, cols)
		for c := range widths {
			widths[c] = lsMinColumnWidth
		}
		for i, name := range names {
			c := i / rows
			if across {
				c = i % cols
			}
			if c >= cols {
				continue
			}
			w := len(name)
			if c != cols-1 {
				w += 2
			}
			widths[c] = max(widths[c], w)
		}
		total := 0
		for _, w := range widths {
			total += w
		}
		if l.cfg.width <= 0 || total < l.cfg.width {
			return widths
		}
	}
	return best
}

// indent pads from column from to column to, with tabs where a tab stop
// lies in between (ls's default tab size of 8; -T 0 means spaces only).
func (l *lister) indent(b *strings.Builder, from, to int) {
	tab := l.cfg.tabSize
	for from < to {
		if tab > 0 && to/tab > (from+1)/tab {
			b.WriteByte('\t')
			from += tab - from%tab
		} else {
			b.WriteByte(' ')
			from++
		}
	}
}

// printCommas is -m: names separated by ", ", a line broken before a name
// that would reach the width.
func (l *lister) printCommas(entries []lsEntry) {
	var b strings.Builder
	pos := 0
	for i := range entries {
		name := l.displayName(&entries[i])
		if i > 0 {
			b.WriteByte(',')
			if l.cfg.width == 0 || pos+len(name)+2 < l.cfg.width {
				b.WriteByte(' ')
				pos += 2
			} else {
				b.WriteByte('\n')
				pos = 0
			}
		}
		b.WriteString(name)
		pos += len(name)
	}
	if len(entries) > 0 {
		b.WriteByte('\n')
	}
	l.t.writeString(b.String())
}
