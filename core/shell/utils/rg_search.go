package utils

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"
	"unicode"

	"gatehouse/core/vfs"
)

// rgMatcher is the compiled pattern list.
type rgMatcher struct {
	re regexEngine
	// newline says the pattern can match a newline: only then does -U
	// search a file whole; otherwise ripgrep searches line by line.
	newline bool
}

// newRgMatcher compiles -e patterns, -f pattern files and the positional
// pattern into one expression. On failure it returns ripgrep's message.
func newRgMatcher(t *tool, cfg *rgConfig) (*rgMatcher, string) {
	patterns := append([]string(nil), cfg.patterns...)
	for _, f := range cfg.patternFiles {
		var data []byte
		in, closeIn, err := openOperand(t, f)
		if err == nil {
			data, err = io.ReadAll(in)
			closeIn()
		}
		if err != nil {
			return nil, f + ": " + rgErrText(errText(err)) + "\n"
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			patterns = append(patterns, strings.TrimSuffix(line, "\r"))
		}
	}
	parts := make([]string, len(patterns))
	for i, p := range patterns {
		if cfg.fixed {
			p = regexp.QuoteMeta(p)
		} else if _, err := syntax.Parse(p, syntax.Perl); err != nil && !cfg.pcre {
			return nil, rgRegexError(p, err)
		}
		parts[i] = p
	}
	expr := strings.Join(parts, "|")
	if len(parts) > 1 {
		expr = "(?:" + strings.Join(parts, ")|(?:") + ")"
	}
	if cfg.word {
		expr = `\b(?:` + expr + `)\b`
	}
	if cfg.line {
		expr = "^(?:" + expr + ")$"
	}
	fold := cfg.caseMode == 'i' || (cfg.caseMode == 'S' && !rgHasUpper(patterns, cfg.fixed))
	if fold {
		expr = "(?i)" + expr
	}
	if cfg.multiline {
		// ripgrep's regex is in multi-line mode: ^ and $ match at line
		// boundaries of the whole buffer; -U's dotall lets . match \n.
		flags := "(?m)"
		if cfg.dotall {
			flags = "(?ms)"
		}
		expr = flags + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil && cfg.pcre {
		// -P: what RE2 cannot do, the backtracking matcher does.
		bt, berr := CompileBacktrack(expr, false)
		if berr != nil {
			return nil, "PCRE2: error compiling pattern at offset " + strconv.Itoa(len(expr)-strings.Count(expr, "(?i)")*4) + ": " + berr.Error() + "\n"
		}
		return &rgMatcher{re: bt, newline: cfg.multiline && rgCanMatchNewline(expr)}, ""
	}
	if err != nil {
		return nil, rgRegexError(expr, err)
	}
	return &rgMatcher{re: re, newline: cfg.multiline && rgCanMatchNewline(expr)}, ""
}

// rgHasUpper is smart case's test: a literal upper-case letter in some
// pattern (escapes like \W or \S do not count).
func rgHasUpper(patterns []string, fixed bool) bool {
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			if p[i] == '\\' && !fixed {
				i++
				continue
			}
			if unicode.IsUpper(rune(p[i])) {
				return true
			}
		}
	}
	return false
}

// rgRegexError words a pattern error as ripgrep's regex crate does.
func rgRegexError(pattern string, err error) string {
	msg := err.Error()
	var serr *syntax.Error
	caret := 0
	if e, ok := err.(*syntax.Error); ok {
		serr = e
	}
	if serr != nil {
		switch serr.Code {
		case syntax.ErrMissingParen:
			msg = "unclosed group"
			caret = strings.LastIndexByte(pattern, '(')
		case syntax.ErrUnexpectedParen:
			msg = "unopened group"
			caret = strings.IndexByte(pattern, ')')
		case syntax.ErrMissingBracket:
			msg = "unclosed character class"
			caret = strings.LastIndexByte(pattern, '[')
		case syntax.ErrMissingRepeatArgument:
			msg = "repetition operator missing expression"
			caret = strings.IndexAny(pattern, "*+?")
		case syntax.ErrInvalidEscape:
			msg = "unrecognized escape sequence"
			caret = strings.IndexByte(pattern, '\\')
		default:
			msg = string(serr.Code)
		}
	}
	caret = max(caret, 0)
	return "regex parse error:\n    " + pattern + "\n    " + strings.Repeat(" ", caret) + "^\nerror: " + msg + "\n"
}

// rgLine is a line kept for before-context.
type rgLine struct {
	no, off int64
	text    []byte
}

// rgFile is the state of one file's search.
type rgFile struct {
	shown         string
	no, off       int64 // the current line's number and byte offset
	count         int64 // matching lines (or matches, --count-matches)
	afterLeft     int
	before        []rgLine
	lastPrinted   int64 // line number of the last printed line, 0: none
	headed        bool  // --heading's path line is out
	maxReached    bool
	binaryExplain bool // an explicit binary file: say so instead of lines
	nulAt         int64

	raw      []byte // the current line with its newline (--json)
	searched int64  // bytes read
	json     rgJSONFile
	multi    *rgBlocks // -U: the blocks of lines matches cover
	maxUntil int64     // -U -m: the last counted block ends here
}

// searchFile opens and searches one file.
func (r *rgRun) searchFile(abs, shown string, explicit bool) {
	flag := os.O_RDONLY
	if !explicit {
		flag |= vfs.OListedRegular
	}
	f, err := r.t.env.FS.OpenFile(abs, flag, 0)
	if err != nil {
		r.fail(shown, err)
		return
	}
	defer f.Close()
	r.searchReader(f, shown, explicit)
}

// rgChunk is how much of a file binary detection looks at first.
const rgChunk = 64 << 10

// searchReader searches one stream line by line.
func (r *rgRun) searchReader(in io.Reader, shown string, explicit bool) {
	cfg := r.cfg
	if r.br == nil {
		r.br = bufio.NewReaderSize(in, rgChunk)
	} else {
		r.br.Reset(in)
	}
	br := r.br
	head, _ := br.Peek(rgChunk)
	s := &rgFile{shown: shown, nulAt: -1}
	s.json.started = time.Now()
	if i := bytes.IndexByte(head, 0); i >= 0 && !cfg.text {
		if !explicit {
			return // ripgrep skips binary files it finds by itself
		}
		s.binaryExplain, s.nulAt = true, int64(i)
	}
	if cfg.multiline && r.m.newline {
		data, err := io.ReadAll(br)
		if err != nil {
			r.fail(shown, err)
			return
		}
		if i := bytes.IndexByte(data, 0); i >= 0 && !cfg.text && !s.binaryExplain {
			data = data[:bytes.LastIndexByte(data[:i], '\n')+1] // a binary tail: stop before it
		}
		s.multi = r.multilineBlocks(data)
		br = bufio.NewReaderSize(bytes.NewReader(data), rgChunk)
	}
	for !r.quit && !r.t.stopped() {
		line, err := rgReadLine(br, &r.long)
		if len(line) > 0 {
			s.no++
			if !cfg.text && !s.binaryExplain && bytes.IndexByte(line, 0) >= 0 {
				break // a binary tail: stop, as ripgrep does
			}
			if r.line(s, line) {
				s.searched += int64(len(line))
				break
			}
			s.off += int64(len(line))
			s.searched = s.off
		}
		if err != nil {
			if err != io.EOF {
				r.fail(shown, err)
			}
			break
		}
	}
	r.finishFile(s)
}

// rgReadLine returns the next line with its newline, however long.
func rgReadLine(br *bufio.Reader, buf *[]byte) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	*buf = append((*buf)[:0], line...)
	for err == bufio.ErrBufferFull {
		line, err = br.ReadSlice('\n')
		*buf = append(*buf, line...)
	}
	return *buf, err
}

// line handles one line; it returns true when the file is done.
func (r *rgRun) line(s *rgFile, raw []byte) bool {
	cfg := r.cfg
	text := bytes.TrimSuffix(raw, []byte{'\n'})
	s.raw = raw
	isMatch := r.isMatch(s, text)
	if !isMatch {
		if cfg.passthru {
			r.printLine(s, text, '-')
		} else if s.afterLeft > 0 {
			s.afterLeft--
			r.printLine(s, text, '-')
		} else if cfg.before > 0 {
			r.remember(s, text)
		}
		return s.maxReached && s.afterLeft == 0
	}
	r.matched = true
	switch {
	case cfg.quiet:
		r.quit = true
		return true
	case cfg.filesWith:
		r.printPath(s.shown)
		return true
	case cfg.filesWithout:
		s.count++
		return true
	case cfg.count || cfg.countMatches:
		s.count += r.matchCount(s, text)
		return r.countDone(s)
	case s.binaryExplain:
		if !cfg.json {
			r.binaryNotice(s)
		}
		return true
	}
	// With -U a block of lines is one match, counted on its first line.
	first, blockEnd := true, int64(0)
	if s.multi != nil && !cfg.invert {
		b := s.multi.at(s.off)
		first, blockEnd = b.start == s.off, b.end
	}
	if first {
		s.count++
	}
	r.flushBefore(s)
	r.printMatch(s, text)
	s.afterLeft = cfg.after
	if first && cfg.maxCount >= 0 && s.count >= cfg.maxCount {
		s.maxReached, s.maxUntil = true, blockEnd
	}
	if s.maxReached {
		return s.afterLeft == 0 && s.off+int64(len(raw)) >= s.maxUntil
	}
	return false
}

// isMatch decides whether a line is printed as a match: the pattern
// matches it (-v: does not), or with -U a match's block covers it.
func (r *rgRun) isMatch(s *rgFile, text []byte) bool {
	if s.multi == nil {
		return !s.maxReached && r.m.re.Match(text) != r.cfg.invert
	}
	covered := s.multi.at(s.off) != nil
	if s.maxReached && !(covered && s.off < s.maxUntil) {
		return false
	}
	return covered != r.cfg.invert
}

// matchCount is what one matching line adds to -c or --count-matches;
// with -U, a block's first line counts its matches.
func (r *rgRun) matchCount(s *rgFile, text []byte) int64 {
	if s.multi != nil && !r.cfg.invert {
		b := s.multi.at(s.off)
		if b.start != s.off {
			return 0
		}
		// ripgrep's summary printer counts a block's matches, -c or not.
		return int64(len(b.matches))
	}
	if !r.cfg.countMatches || r.cfg.invert {
		return 1
	}
	var n int64
	if !eachMatch(r.t, r.m.re, text, false, func([]int) bool { n++; return true }) {
		r.quit = true
	}
	return n
}

// countDone applies -m to counting.
func (r *rgRun) countDone(s *rgFile) bool {
	return r.cfg.maxCount >= 0 && s.count >= r.cfg.maxCount
}

// finishFile prints what a file's end settles: counts, names of files
// without matches.
func (r *rgRun) finishFile(s *rgFile) {
	cfg := r.cfg
	switch {
	case cfg.json:
		r.jsonEnd(s)
	case cfg.quiet:
	case cfg.filesWithout:
		if s.count == 0 {
			r.matched = true
			r.printPath(s.shown)
		}
	case (cfg.count || cfg.countMatches) && (s.count > 0 || cfg.includeZero):
		if r.showName {
			r.t.writeString(s.shown)
			if cfg.null {
				r.t.writeByte(0)
			} else {
				r.t.writeByte(':')
			}
		}
		r.t.writeString(strconv.FormatInt(s.count, 10) + "\n")
	}
}

// printPath prints a path for -l and --files-without-match.
func (r *rgRun) printPath(shown string) {
	r.t.writeString(shown)
	if r.cfg.null {
		r.t.writeByte(0)
	} else {
		r.t.writeByte('\n')
	}
}

// binaryNotice replaces an explicit binary file's matches.
func (r *rgRun) binaryNotice(s *rgFile) {
	if r.showName {
		r.t.writeString(s.shown + ": ")
	}
	r.t.writeString("binary file matches (found \"\\0\" byte around offset " + strconv.FormatInt(s.nulAt, 10) + ")\n")
}

// remember keeps a line for before-context.
func (r *rgRun) remember(s *rgFile, text []byte) {
	if len(s.before) == r.cfg.before {
		copy(s.before, s.before[1:])
		s.before = s.before[:len(s.before)-1]
	}
	s.before = append(s.before, rgLine{no: s.no, off: s.off, text: append([]byte(nil), text...)})
}

// flushBefore prints the remembered context before a match.
func (r *rgRun) flushBefore(s *rgFile) {
	no, off, raw := s.no, s.off, s.raw
	for _, l := range s.before {
		if l.no <= s.lastPrinted {
			continue
		}
		s.no, s.off, s.raw = l.no, l.off, nil
		r.printLine(s, l.text, '-')
	}
	s.no, s.off, s.raw = no, off, raw
	s.before = s.before[:0]
}

// separate prints what comes before a printed line: the heading, the
// blank line between files, the "--" between distant context groups.
func (r *rgRun) separate(s *rgFile) {
	cfg := r.cfg
	contextOn := (cfg.after > 0 || cfg.before > 0) && !cfg.passthru
	if !s.headed {
		if r.printedFile {
			if r.heading {
				r.t.writeByte('\n')
			} else if contextOn {
				r.t.writeString(cfg.contextSep + "\n")
			}
		}
		if r.heading && r.showName {
			r.t.writeString(s.shown + "\n")
		}
		s.headed, r.printedFile = true, true
	} else if contextOn && s.lastPrinted > 0 && s.no > s.lastPrinted+1 {
		r.t.writeString(cfg.contextSep + "\n")
	}
	s.lastPrinted = s.no
}

// prefix prints the path, line number, column and byte offset a line
// carries; sep is ':' for a match and '-' for context.
func (r *rgRun) prefix(s *rgFile, sep byte, col int) {
	cfg := r.cfg
	if r.showName && !r.heading {
		r.t.writeString(s.shown)
		if cfg.null {
			r.t.writeByte(0)
		} else {
			r.t.writeByte(sep)
		}
	}
	if r.lineNumber {
		r.t.writeString(strconv.FormatInt(s.no, 10))
		r.t.writeByte(sep)
	}
	if col > 0 && (cfg.column || cfg.vimgrep) {
		r.t.writeString(strconv.Itoa(col))
		r.t.writeByte(sep)
	}
	if cfg.byteOff {
		r.t.writeString(strconv.FormatInt(s.off, 10))
		r.t.writeByte(sep)
	}
}

// printLine prints a context (or passthru) line.
func (r *rgRun) printLine(s *rgFile, text []byte, sep byte) {
	if r.cfg.json {
		r.jsonContext(s, text)
		return
	}
	r.separate(s)
	r.prefix(s, sep, 0)
	r.body(text, "[Omitted long context line]")
}

// body prints a line's text, trimmed or omitted as asked.
func (r *rgRun) body(text []byte, omitted string) {
	if r.cfg.trim {
		text = bytes.TrimLeft(text, " \t")
	}
	if r.cfg.maxColumns > 0 && len(text) > r.cfg.maxColumns {
		r.t.writeString(omitted + "\n")
		return
	}
	r.t.write(text)
	r.t.writeByte('\n')
}

// printMatch prints a matching line in the form asked: whole, with
// replacements, only the matches, or vimgrep's one line per match.
func (r *rgRun) printMatch(s *rgFile, text []byte) {
	cfg := r.cfg
	if cfg.json {
		r.jsonMatch(s, text)
		return
	}
	// each calls fn with the line's matches in order (with their groups),
	// as long as it returns true; false when the line is ending. A long
	// line's matches are found as they are printed, never listed whole.
	each := func(fn func(sp []int) bool) bool {
		switch {
		case cfg.invert:
		case s.multi != nil:
			for _, sp := range s.multi.lineSpans(s.off, len(text)) {
				if !fn(sp) {
					break
				}
			}
		default:
			return eachMatch(r.t, r.m.re, text, false, fn)
		}
		return true
	}
	var first []int
	each(func(sp []int) bool { first = sp; return false })
	var ok bool
	switch {
	case (cfg.vimgrep || cfg.onlyMatching) && first != nil:
		ok = each(func(sp []int) bool {
			r.separate(s)
			r.prefix(s, ':', sp[0]+1)
			if cfg.vimgrep {
				r.body(text, "[Omitted long matching line]")
			} else {
				r.body(r.replaced(text, sp), "[Omitted long matching line]")
			}
			return true
		})
	default:
		col := 1
		if first != nil {
			col = first[0] + 1
		}
		r.separate(s)
		r.prefix(s, ':', col)
		ok = true
		if cfg.replace != nil && first != nil {
			var out []byte
			last, charged := 0, 0
			ok = each(func(sp []int) bool {
				out = append(out, text[last:sp[0]]...)
				out = append(out, r.replaced(text, sp)...)
				last = sp[1]
				// A replacement longer than its match grows the line.
				for ; len(out) > charged; charged += 1 << 20 {
					if r.t.env.Grow(1<<20) != nil {
						return false
					}
				}
				return true
			})
			text = append(out, text[last:]...)
		}
		if ok {
			r.body(text, "[Omitted long matching line]")
		}
	}
	if !ok {
		r.quit = true
	}
}

// replaced is one match, or its -r replacement.
func (r *rgRun) replaced(text []byte, span []int) []byte {
	if r.cfg.replace == nil {
		return text[span[0]:span[1]]
	}
	if re, ok := r.m.re.(*regexp.Regexp); ok {
		return re.Expand(nil, []byte(*r.cfg.replace), text, span)
	}
	return expandNumbered(*r.cfg.replace, text, span)
}

// expandNumbered expands $N and ${N} in a replacement from a match's
// groups (the backtracking matcher has no names to offer).
func expandNumbered(template string, src []byte, span []int) []byte {
	var out []byte
	for i := 0; i < len(template); i++ {
		c := template[i]
		if c != '$' || i+1 >= len(template) {
			out = append(out, c)
			continue
		}
		if template[i+1] == '$' {
			out = append(out, '$')
			i++
			continue
		}
		j, name := i+1, ""
		if template[j] == '{' {
			end := strings.IndexByte(template[j:], '}')
			if end < 0 {
				out = append(out, c)
				continue
			}
			name, j = template[j+1:j+end], j+end+1
		} else {
			for j < len(template) && template[j] >= '0' && template[j] <= '9' {
				j++
			}
			name = template[i+1 : j]
		}
		n, err := strconv.Atoi(name)
		if err != nil {
			out = append(out, c)
			continue
		}
		if 2*n+1 < len(span) && span[2*n] >= 0 {
			out = append(out, src[span[2*n]:span[2*n+1]]...)
		}
		i = j - 1
	}
	return out
}
