package utils

import (
	"bytes"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// sedRun is the state of one sed execution: pattern and hold space, the
// line counter, the append queue and the open w/R files.
type sedRun struct {
	t    *tool
	cfg  *sedConfig
	prog []*sedCmd
	in   *sedInput

	stdout *sedOutput // the command's stdout
	out    *sedOutput // where the script prints: stdout, or the -i buffer

	ps      []byte
	psNL    bool // the current line ended with a newline
	hs      []byte
	lineNo  int
	appends [][]byte
	tflag   bool
	lastRe  regexEngine

	quit     bool
	quitCode int
	status   int
	// held is what the pattern and hold spaces are charged beyond the
	// input line they started from (whose bytes the input charged).
	held, lineLen int64

	wfiles map[string]*sedOutput
	rfiles map[string]*sedReadLineFile
}

func newSedRun(t *tool, cfg *sedConfig, prog []*sedCmd) *sedRun {
	r := &sedRun{t: t, cfg: cfg, prog: prog, wfiles: map[string]*sedOutput{}, rfiles: map[string]*sedReadLineFile{}}
	r.stdout = &sedOutput{w: toolWriter{t}, delim: r.delim()}
	r.out = r.stdout
	// w files are created when the script is read, even if never written.
	for _, c := range prog {
		if c.name == 'w' || c.name == 'W' {
			r.openWriteFile(c.text)
		}
		if c.sub != nil && c.sub.wfile != "" {
			r.openWriteFile(c.sub.wfile)
		}
	}
	return r
}

func (r *sedRun) run() int {
	if !r.cfg.separate {
		r.in = &sedInput{r: r, files: r.cfg.files}
		r.process()
	} else {
		for _, name := range r.cfg.files {
			if r.quit || r.t.stopped() {
				break
			}
			r.runSeparate(name)
		}
	}
	if r.quit && r.quitCode != 0 {
		return r.quitCode
	}
	if r.stdout.err != nil && r.status == 0 {
		// The reader of our stdout went away (a closed pipe).
		return 1
	}
	return r.status
}

// runSeparate processes one file on its own (-s, -i): its own line
// numbers and its own last line.
func (r *sedRun) runSeparate(name string) {
	if r.cfg.inPlace && name == "-" {
		r.t.warn("couldn't edit -: not a regular file")
		r.status = 4
		return
	}
	r.in = &sedInput{r: r, files: []string{name}}
	if !r.in.open() {
		return
	}
	r.lineNo = 0
	var buf bytes.Buffer
	if r.cfg.inPlace {
		r.out = &sedOutput{w: &buf, delim: r.delim()}
	}
	r.process()
	r.in.close()
	if r.cfg.inPlace {
		r.writeInPlace(name, buf.Bytes())
		r.out = r.stdout
	}
}

func (r *sedRun) process() {
	for !r.quit {
		if r.t.ctx.Err() != nil || r.stdout.err != nil {
			return
		}
		line, nl, ok := r.in.read()
		if !ok {
			return
		}
		r.lineNo++
		r.ps, r.psNL, r.tflag = line, nl, false
		r.lineLen = int64(len(line))
		r.cycle()
	}
}

// cycle runs the script over the pattern space once, restarting without
// reading input after D.
func (r *sedRun) cycle() {
	for {
		restart, autoprint := r.execute()
		if autoprint && !r.cfg.quiet {
			r.out.writeLine(r.ps, r.psNL)
		}
		r.flushAppends()
		if !restart || r.quit {
			return
		}
	}
}

// execute runs the commands; it reports whether D asked for a restart
// and whether the cycle ends with the automatic print.
func (r *sedRun) execute() (restart, autoprint bool) {
	pc := 0
	for pc < len(r.prog) {
		if r.t.ctx.Err() != nil {
			r.quit = true
			return false, false
		}
		if !r.hold(int64(cap(r.ps) + cap(r.hs))) {
			return false, false
		}
		cmd := r.prog[pc]
		if !r.selected(cmd) {
			if cmd.name == '{' {
				pc = cmd.jump
			} else {
				pc++
			}
			continue
		}
		pc++
		switch cmd.name {
		case '{', '}', ':':
		case '=':
			r.out.writeRaw([]byte(strconv.Itoa(r.lineNo) + "\n"))
		case 'a':
			r.appends = append(r.appends, []byte(cmd.text+"\n"))
		case 'i':
			r.out.writeRaw([]byte(cmd.text + "\n"))
		case 'c':
			if cmd.a2 == nil || !cmd.inRange {
				r.out.writeRaw([]byte(cmd.text + "\n"))
			}
			return false, false
		case 'd':
			return false, false
		case 'D':
			i := bytes.IndexByte(r.ps, r.delim())
			if i < 0 {
				return false, false
			}
			r.ps = append([]byte(nil), r.ps[i+1:]...)
			return true, false
		case 'g':
			r.ps = append([]byte(nil), r.hs...)
		case 'G':
			r.ps = append(append(r.ps, r.delim()), r.hs...)
		case 'h':
			r.hs = append([]byte(nil), r.ps...)
		case 'H':
			r.hs = append(append(r.hs, r.delim()), r.ps...)
		case 'x':
			r.ps, r.hs = r.hs, r.ps
		case 'l':
			r.list(cmd.intArg)
		case 'n':
			if r.in.atLast() {
				return false, true
			}
			if !r.cfg.quiet {
				r.out.writeLine(r.ps, r.psNL)
			}
			r.flushAppends()
			line, nl, _ := r.in.read()
			r.lineNo++
			r.ps, r.psNL = line, nl
		case 'N':
			if r.in.atLast() {
				return false, true
			}
			r.flushAppends()
			line, nl, _ := r.in.read()
			r.lineNo++
			r.ps = append(append(r.ps, r.delim()), line...)
			r.psNL = nl
		case 'p':
			r.out.writeLine(r.ps, r.psNL)
		case 'P':
			first := r.ps
			if i := bytes.IndexByte(r.ps, r.delim()); i >= 0 {
				first = r.ps[:i]
			}
			r.out.writeLine(first, true)
		case 'q':
			r.quit, r.quitCode = true, cmd.intArg
			return false, true
		case 'Q':
			r.quit, r.quitCode = true, cmd.intArg
			r.appends = nil
			return false, false
		case 'r':
			if data := r.readWholeFile(cmd.text); len(data) > 0 {
				r.appends = append(r.appends, data)
			}
		case 'R':
			if line, ok := r.readOneLine(cmd.text); ok {
				if len(line) == 0 || line[len(line)-1] != r.delim() {
					line = append(line, r.delim())
				}
				r.appends = append(r.appends, line)
			}
		case 's':
			if !r.substitute(cmd.sub) {
				return false, false
			}
		case 't':
			if r.tflag {
				r.tflag = false
				pc = cmd.jump
			}
		case 'T':
			if !r.tflag {
				pc = cmd.jump
			} else {
				r.tflag = false
			}
		case 'b':
			pc = cmd.jump
		case 'w':
			r.openWriteFile(cmd.text).writeLine(r.ps, true)
		case 'W':
			first := r.ps
			if i := bytes.IndexByte(r.ps, r.delim()); i >= 0 {
				first = r.ps[:i]
			}
			r.openWriteFile(cmd.text).writeLine(first, true)
		case 'y':
			for i, c := range r.ps {
				r.ps[i] = cmd.ymap[c]
			}
		case 'z':
			r.ps = r.ps[:0]
		case 'F':
			r.out.writeRaw([]byte(r.in.name + "\n"))
		}
	}
	return false, true
}

func (r *sedRun) flushAppends() {
	for _, a := range r.appends {
		r.out.writeRaw(a)
	}
	r.appends = r.appends[:0]
}

// selected reports whether cmd's address selects the current line,
// updating its range state.
func (r *sedRun) selected(cmd *sedCmd) bool {
	if cmd.a1 == nil {
		return true
	}
	var m bool
	if cmd.a2 == nil {
		m = r.matchAddr(cmd.a1)
	} else {
		m = r.matchRange(cmd)
	}
	return m != cmd.negate
}

func (r *sedRun) matchRange(cmd *sedCmd) bool {
	a2 := cmd.a2
	if !cmd.inRange {
		if cmd.a1.kind == sedAddrLine && cmd.a1.n == 0 {
			// 0,/re/: the range is open before line 1, so the regex
			// may end it on the very first line.
			if r.lineNo != 1 {
				return false
			}
			if !r.matchAddr(a2) {
				cmd.inRange = true
			}
			return true
		}
		if !r.matchAddr(cmd.a1) {
			return false
		}
		switch a2.kind {
		case sedAddrLine:
			if a2.n > r.lineNo {
				cmd.inRange, cmd.rangeEnd = true, a2.n
			}
		case sedAddrPlus:
			if a2.n > 0 {
				cmd.inRange, cmd.rangeEnd = true, r.lineNo+a2.n
			}
		case sedAddrMult:
			if a2.n > 0 && r.lineNo%a2.n != 0 {
				cmd.inRange, cmd.rangeEnd = true, (r.lineNo/a2.n+1)*a2.n
			}
		case sedAddrLast:
			cmd.inRange = !r.in.atLast()
		default:
			cmd.inRange = true
		}
		return true
	}
	switch a2.kind {
	case sedAddrLine, sedAddrPlus, sedAddrMult:
		if r.lineNo > cmd.rangeEnd {
			cmd.inRange = false
			return r.matchAddr(cmd.a1) && r.matchRange(cmd)
		}
		if r.lineNo == cmd.rangeEnd {
			cmd.inRange = false
		}
	case sedAddrLast:
		if r.in.atLast() {
			cmd.inRange = false
		}
	default:
		if r.matchAddr(a2) {
			cmd.inRange = false
		}
	}
	return true
}

func (r *sedRun) matchAddr(a *sedAddr) bool {
	switch a.kind {
	case sedAddrLine:
		return r.lineNo == a.n
	case sedAddrLast:
		return r.in.atLast()
	case sedAddrStep:
		if a.step <= 0 {
			return r.lineNo == a.n
		}
		return r.lineNo >= a.n && (r.lineNo-a.n)%a.step == 0
	case sedAddrRegex:
		re := r.regex(a.re)
		return re != nil && re.Match(r.ps)
	}
	return false
}

// regex resolves the empty regex to the last one applied.
func (r *sedRun) regex(s *sedRegex) regexEngine {
	if s.re != nil {
		r.lastRe = s.re
		return s.re
	}
	if r.lastRe == nil {
		r.t.warn("no previous regular expression")
		r.status, r.quit = 1, true
	}
	return r.lastRe
}

// hold charges the line's memory budget for n bytes of pattern and hold
// space (G-12.3), less the input line they started from: G, H, N and s
// grow them without reading. Past the budget the line ends, and so does
// the script.
func (r *sedRun) hold(n int64) bool {
	n -= r.lineLen
	switch {
	case n > r.held:
		step := max(n-r.held, 64<<10)
		if r.t.env.Grow(step) != nil {
			r.quit = true
			return false
		}
		r.held += step
	case r.held > 1<<20 && n < r.held/2:
		r.t.env.Grow(max(n, 0) - r.held)
		r.held = max(n, 0)
	}
	return true
}

// substitute runs an s command; it returns false when the line must end
// (no previous regex).
func (r *sedRun) substitute(sub *sedSubst) bool {
	re := r.regex(sub.re)
	if re == nil {
		return false
	}
	limit := -1
	if !sub.global {
		limit = sub.nth
	}
	var out []byte
	last, k, stopped := 0, 0, false
	goOn := func() bool {
		if r.t.ctx.Err() != nil {
			stopped = true
		}
		return !stopped
	}
	sedMatches(re, r.ps, limit, goOn, func(m []int) bool {
		if k++; k < sub.nth {
			return true
		}
		out = append(out, r.ps[last:m[0]]...)
		out = sedExpand(out, r.ps, m, sub.repl)
		last = m[1]
		if k&1023 == 0 && (!r.hold(int64(cap(r.ps)+cap(r.hs)+cap(out))) || r.t.ctx.Err() != nil) {
			stopped = true
			return false
		}
		return true
	})
	if stopped {
		return false
	}
	if k < sub.nth {
		return true
	}
	out = append(out, r.ps[last:]...)
	r.ps = out
	r.tflag = true
	if sub.print > 0 {
		r.out.writeLine(r.ps, r.psNL)
	}
	if sub.wfile != "" {
		r.openWriteFile(sub.wfile).writeLine(r.ps, true)
	}
	return true
}

// sedMatchChunk is how many matches sedMatches lists at once.
const sedMatchChunk = 4096

// sedMatches calls each with the successive matches of re in b (at most
// limit, all when limit < 0), as FindAllSubmatchIndex lists them, until
// each returns false, or goOn (called before each search of a long line)
// does. Over a long line the matches are searched a few
// thousand at a time (a backreference's pattern one at a time), so the
// list never holds one match per byte of the line (G-12.3). A pattern that looks behind must be leftmost-longest, as
// sed compiles every pattern.
func sedMatches(re regexEngine, b []byte, limit int, goOn func() bool, each func(m []int) bool) {
	if bt, ok := re.(*Backtrack); ok {
		bt.eachMatch(b, limit, each)
		return
	}
	gre, ok := re.(*regexp.Regexp)
	if !ok || limit >= 0 || len(b) < 1<<16 {
		for _, m := range re.FindAllSubmatchIndex(b, limit) {
			if !each(m) {
				return
			}
		}
		return
	}
	// A search of b[pos:] takes pos for the start of the text, which only
	// a match starting at pos can tell (^, \b, \B, \A look behind): for a
	// pattern that does, the first match of each chunk is checked against
	// one found knowing what precedes pos.
	var resume *sedResume
	if sedLooksBehind(gre.String()) {
		resume = newSedResume(gre)
	}
	// As regexp's own loop: after an empty match the search moves one
	// character on, and an empty match where the previous match ended
	// is not one.
	pos, prevEnd, chunk := 0, -1, 16
	for pos <= len(b) {
		if goOn != nil && !goOn() {
			return
		}
		start := time.Now()
		ms := gre.FindAllSubmatchIndex(b[pos:], chunk)
		took := time.Since(start)
		more := len(ms) == chunk // the chunk was full: there may be more
		for _, m := range ms {
			for j := range m {
				if m[j] >= 0 {
					m[j] += pos
				}
			}
		}
		if len(ms) > 0 && ms[0][0] == ms[0][1] && ms[0][0] == prevEnd {
			ms = ms[1:]
		}
		if resume != nil && pos > 0 {
			first := resume.first(b, pos, prevEnd)
			if first == nil {
				return
			}
			if len(ms) == 0 || !slices.Equal(ms[0], first) {
				if rest, ok := sedAfterFirst(b, first, ms); ok {
					ms = append([][]int{first}, rest...)
				} else {
					// Only the first is known: take it and search on from
					// its end, a few matches at a time until chunks agree.
					ms, chunk, more = [][]int{first}, 1, true
				}
			}
		}
		for _, m := range ms {
			if !each(m) {
				return
			}
		}
		if len(ms) == 0 || !more {
			return
		}
		lastM := ms[len(ms)-1]
		prevEnd, pos = lastM[1], lastM[1]
		if lastM[0] == lastM[1] {
			if pos == len(b) {
				return
			}
			_, w := utf8.DecodeRune(b[pos:])
			pos += w
		}
		chunk = sedNextChunk(chunk, took)
	}
}

// sedNextChunk is how many matches the next search takes: more while they
// come quickly, fewer when each scans far ahead (a*b\|a over a long line
// of a's scans the rest of it for every match), so that each returns,
// and the line's end is looked at, every few tens of milliseconds either way.
func sedNextChunk(chunk int, took time.Duration) int {
	switch {
	case took > 50*time.Millisecond:
		return max(chunk/2, 1)
	case took < 10*time.Millisecond:
		return min(2*chunk, sedMatchChunk)
	}
	return chunk
}

// sedAfterFirst returns the matches of a chunk that follow first, the
// true first match, when the chunk's first was a match after pos that
// the search from first's end also reaches: none starts between, as the
// chunk's search from pos saw the same text there. \B over "aaa…" misses
// the match at pos every chunk, and would otherwise go one at a time.
func sedAfterFirst(b []byte, first []int, ms [][]int) ([][]int, bool) {
	if len(ms) == 0 {
		return nil, false
	}
	next := first[1]
	if first[0] == first[1] {
		if next == len(b) {
			return nil, false
		}
		_, w := utf8.DecodeRune(b[next:])
		next += w
	}
	if ms[0][0] < next {
		return nil, false
	}
	if ms[0][0] == ms[0][1] && ms[0][0] == first[1] {
		ms = ms[1:] // empty where first ended: regexp's loop skips it
	}
	return ms, true
}

// sedResume finds the first match of a pattern at or after pos knowing
// the character before pos: leftmost by a search anchored one character
// back that skips as little as it can, then longest from there.
type sedResume struct {
	start, at *regexp.Regexp
}

func newSedResume(re *regexp.Regexp) *sedResume {
	start := regexp.MustCompile(`\A(?s:.)(?s:.*?)(` + re.String() + `)`)
	at := regexp.MustCompile(`\A(?s:.)(` + re.String() + `)`)
	at.Longest()
	return &sedResume{start, at}
}

// first is the first match at or after pos > 0 that regexp's loop would
// take after a match ending at prevEnd; nil when there is none.
func (r *sedResume) first(b []byte, pos, prevEnd int) []int {
	for pos <= len(b) {
		_, w := utf8.DecodeLastRune(b[:pos])
		s := r.start.FindSubmatchIndex(b[pos-w:])
		if s == nil {
			return nil
		}
		from := pos - w + s[2]
		_, w = utf8.DecodeLastRune(b[:from])
		m := r.at.FindSubmatchIndex(b[from-w:])[2:]
		for j := range m {
			if m[j] >= 0 {
				m[j] += from - w
			}
		}
		if m[0] != m[1] || m[0] != prevEnd {
			return m
		}
		if pos == len(b) {
			return nil
		}
		_, w = utf8.DecodeRune(b[pos:])
		pos += w
	}
	return nil
}

// sedLooksBehind reports whether a compiled pattern reads what comes
// before where a search starts.
func sedLooksBehind(expr string) bool {
	return strings.ContainsAny(expr, "^") || strings.Contains(expr, `\b`) || strings.Contains(expr, `\B`) || strings.Contains(expr, `\A`)
}

// sedExpand appends one replacement, applying GNU's \L \U \l \u \E case
// conversions to both literal text and groups.
func sedExpand(out, src []byte, m []int, repl []sedReplPart) []byte {
	var mode, once byte
	add := func(text []byte) {
		for _, c := range text {
			switch {
			case once == 'u':
				c = upperASCII(c)
				once = 0
			case once == 'l':
				c = lowerASCII(c)
				once = 0
			case mode == 'U':
				c = upperASCII(c)
			case mode == 'L':
				c = lowerASCII(c)
			}
			out = append(out, c)
		}
	}
	for _, part := range repl {
		switch {
		case part.caseOp == 'L' || part.caseOp == 'U':
			mode, once = part.caseOp, 0
		case part.caseOp == 'E':
			mode, once = 0, 0
		case part.caseOp != 0:
			once = part.caseOp
		case part.group >= 0:
			if 2*part.group+1 < len(m) && m[2*part.group] >= 0 {
				add(src[m[2*part.group]:m[2*part.group+1]])
			}
		default:
			add([]byte(part.literal))
		}
	}
	return out
}

// list prints the pattern space unambiguously (the l command), wrapping
// lines at the width GNU uses.
func (r *sedRun) list(width int) {
	if width < 0 {
		width = r.cfg.lineLength
	}
	var b bytes.Buffer
	col := 0
	for _, c := range r.ps {
		var piece string
		switch c {
		case '\\':
			piece = `\\`
		case '\a':
			piece = `\a`
		case '\b':
			piece = `\b`
		case '\f':
			piece = `\f`
		case '\n':
			piece = `\n`
		case '\r':
			piece = `\r`
		case '\t':
			piece = `\t`
		case '\v':
			piece = `\v`
		default:
			if c >= 0x20 && c < 0x7f {
				piece = string(c)
			} else {
				o := strconv.FormatInt(int64(c), 8)
				for len(o) < 3 {
					o = "0" + o
				}
				piece = `\` + o
			}
		}
		if width > 1 && col+len(piece) > width-1 {
			b.WriteString("\\\n")
			col = 0
		}
		b.WriteString(piece)
		col += len(piece)
	}
	b.WriteString("$\n")
	r.out.writeRaw(b.Bytes())
}

var _ io.Writer = toolWriter{}
