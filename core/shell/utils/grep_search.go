package utils

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// grepMatcher decides whether a line matches and where.
type grepMatcher struct {
	nothing bool        // -f of an empty file: no pattern at all
	line    regexEngine // whole-line decision (with -w/-x folded in)
	// multi is line's pattern in multi-line mode, used to jump over
	// non-matching stretches of a buffer; nil when that is unsafe.
	multi *regexp.Regexp
	// parts finds the pieces -o prints; with -w its group 1 is the word.
	parts regexEngine
	// longest: parts is leftmost-longest (all but -P).
	longest bool
	word    bool
	// literal is the whole pattern when it is one string to find (grep
	// TODO, grep -F word): lines and buffers are searched with
	// bytes.Index, as GNU grep searches for a fixed string, instead of
	// setting up the regexp machine for each. nil otherwise.
	literal []byte
}

// newGrepMatcher compiles the patterns the way grep -G/-E/-F/-P reads
// them: with Go's RE2 when it can, else (lookaround, backreferences,
// atomic groups, \K) with the backtracking matcher.
func newGrepMatcher(cfg *grepConfig) (*grepMatcher, error) {
	if len(cfg.patterns) == 0 {
		return &grepMatcher{nothing: true}, nil
	}
	alts, backtrack, err := grepAlternatives(cfg)
	if err != nil {
		return nil, err
	}
	core := "(?:" + strings.Join(alts, ")|(?:") + ")"
	flags := ""
	if cfg.ignoreCase {
		flags += "i"
	}
	if cfg.nullData {
		flags += "s"
	}
	prefix := ""
	if flags != "" {
		prefix = "(?" + flags + ")"
	}
	if backtrack {
		return grepBacktrack(cfg, prefix, core)
	}
	var whole, parts string
	switch {
	case cfg.line:
		whole = "^(?:" + core + ")$"
		parts = whole
	case cfg.word:
		whole = `(?:^|\W)(?:` + core + `)(?:\W|$)`
		parts = `(?:^|\W)(` + core + `)`
	default:
		whole, parts = core, core
	}
	compile := func(s string) (*regexp.Regexp, error) {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, compileError(err)
		}
		if cfg.dialect != "P" {
			re.Longest()
		}
		return re, nil
	}
	m := &grepMatcher{word: cfg.word && !cfg.line, longest: cfg.dialect != "P"}
	if m.line, err = compile(prefix + whole); err != nil {
		return nil, err
	}
	if m.parts, err = compile(prefix + parts); err != nil {
		return nil, err
	}
	m.literal = literalOf(prefix + whole)
	// Jumping through a buffer is sound when the pattern cannot tell a
	// line from a buffer: no absolute anchors, no user-chosen flags.
	if cfg.dialect != "P" && !cfg.nullData && !strings.Contains(core, `\A`) && !strings.Contains(core, `\z`) {
		m.multi, _ = compile("(?m" + flags + ")" + whole)
	}
	return m, nil
}

// literalOf is the string expr matches when it matches exactly one
// string, case and all, and nil otherwise. The regexp matches that
// string's UTF-8 wherever it occurs, so bytes.Index finds the same
// matches, except for U+FFFD, which the regexp also matches at every
// invalid byte of the input.
func literalOf(expr string) []byte {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
		return nil
	}
	lit := make([]byte, 0, len(re.Rune))
	for _, r := range re.Rune {
		if r == utf8.RuneError || !utf8.ValidRune(r) {
			return nil
		}
		lit = utf8.AppendRune(lit, r)
	}
	return lit
}

// grepAlternatives translates each pattern; backtrack says some pattern
// needs the backtracking matcher (RE2 rejected it).
func grepAlternatives(cfg *grepConfig) (alts []string, backtrack bool, err error) {
	for _, p := range cfg.patterns {
		switch cfg.dialect {
		case "F":
			alts = append(alts, regexp.QuoteMeta(p))
		case "P":
			if _, rerr := regexp.Compile(p); rerr != nil {
				if _, berr := CompileBacktrack(p, false); berr != nil {
					return nil, false, berr // PCRE's words for the pattern alone
				}
				backtrack = true
			}
			alts = append(alts, p)
		default:
			dialect := BasicRegex
			if cfg.dialect == "E" {
				dialect = ExtendedRegex
			}
			re, terr := TranslateRegex(p, RegexOptions{Dialect: dialect})
			var rerr *RegexError
			if errors.As(terr, &rerr) && rerr.Msg == ErrBackreference {
				re, terr = TranslateRegex(p, RegexOptions{Dialect: dialect, Backrefs: true})
				backtrack = true
			}
			if terr != nil {
				return nil, false, terr
			}
			alts = append(alts, re)
		}
	}
	return alts, backtrack, nil
}

// grepBacktrack compiles for the backtracking matcher; -w and -x become
// lookarounds and anchors, so the pattern's own groups keep their
// numbers.
func grepBacktrack(cfg *grepConfig, prefix, core string) (*grepMatcher, error) {
	whole := core
	switch {
	case cfg.line:
		whole = "^(?:" + core + ")$"
	case cfg.word:
		whole = `(?<!\w)(?:` + core + `)(?!\w)`
	}
	re, err := CompileBacktrack(prefix+whole, false)
	if err != nil {
		return nil, err
	}
	return &grepMatcher{line: re, parts: re}, nil
}

// overLimit reports (once) a search that gave up at the backtracking
// matcher's step limit.
func (m *grepMatcher) overLimit() bool {
	bt, ok := m.line.(*Backtrack)
	return ok && bt.Exceeded()
}

// compileError words a Go regexp error for grep's stderr.
func compileError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
	if strings.Contains(msg, "invalid repeat count") {
		//lint:ignore ST1005 GNU grep's own wording, printed as is
		return errors.New("Regular expression too big")
	}
	return errors.New(msg)
}

func (m *grepMatcher) matches(line []byte) bool {
	if m.nothing {
		return false
	}
	if m.literal != nil {
		return bytes.Contains(line, m.literal)
	}
	return m.line.Match(line)
}

// jump is where the first match in a buffer of whole lines starts, or -1.
func (m *grepMatcher) jump(b []byte) int {
	if m.literal != nil {
		return bytes.Index(b, m.literal)
	}
	if loc := m.multi.FindIndex(b); loc != nil {
		return loc[0]
	}
	return -1
}

// eachPiece calls each with the non-empty matches -o prints, as [start,
// end) offsets, until it returns false; false when the line's memory
// budget is spent (see eachMatch).
func (m *grepMatcher) eachPiece(t *tool, line []byte, each func(s, e int) bool) bool {
	if m.nothing {
		return true
	}
	return eachMatch(t, m.parts, line, m.longest, func(loc []int) bool {
		s, e := loc[0], loc[1]
		if m.word {
			s, e = loc[2], loc[3]
			if e < len(line) && isWordByte(line[e]) {
				return true
			}
		}
		return s >= e || each(s, e)
	})
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// grepper is one grep run across all its inputs.
type grepper struct {
	t   *tool
	cfg *grepConfig
	m   *grepMatcher
	// showNames prints names everywhere; namesForRecursion only for files
	// found inside a directory operand (grep -r PATTERN DIR).
	showNames, namesForRecursion bool
	selected, failed             bool
	// printedAny and lastPrinted place "--" between context groups.
	printedAny bool
	done       bool
	buf        []byte // read buffer, reused from file to file
}

// finished reports that nothing more needs reading: -q found a line, or
// the line was cancelled, or stdout went away.
func (g *grepper) finished() bool {
	return g.done || g.t.stopped()
}

// pendingLine is a line kept for -B context.
type pendingLine struct {
	text   []byte
	number int64
	offset int64
}

// fileScan is the state of searching one input.
type fileScan struct {
	name      string
	showName  bool
	lineNo    int64
	offset    int64 // byte offset of the current line
	count     int64 // selected lines
	afterLeft int
	lastOut   int64 // number of the last line printed, 0 for none
	before    []pendingLine
	binary    bool
	stopAfter bool // -m reached: only trailing context remains
	// maxEnd is where the line that reached -m ends in the input: GNU
	// grep leaves a seekable standard input there.
	maxEnd      int64
	stopReading bool // nothing more of this input matters
	numberWidth int  // -T: line numbers and offsets are right-aligned to it
}

// searchStream searches one input and prints what the options ask for.
// size is the input's length when it is a regular file, else -1.
func (g *grepper) searchStream(in io.Reader, name string, showName bool, size int64) {
	cfg := g.cfg
	if cfg.maxCount == 0 {
		if cfg.filesWithout {
			g.printName(name)
		} else if cfg.count {
			g.printCount(name, showName, 0)
		}
		return
	}
	s := &fileScan{name: name, showName: showName, lineNo: 1, numberWidth: g.numberWidth(size)}
	delim := byte('\n')
	if cfg.nullData {
		delim = 0
	}
	listOnly := cfg.filesWith || cfg.filesWithout || cfg.quiet
	// One buffer serves every file of the run: xargs hands grep thousands.
	if g.buf == nil {
		g.buf = make([]byte, 0, 64*1024)
	}
	buf := g.buf[:0]
	defer func() { g.buf = buf[:0] }()
	eof := false
	var readErr error
	var read int64 // what was read of in, to give back past -m's last line
	defer func() {
		if s.stopAfter && !eof && s.maxEnd > 0 && read > s.maxEnd {
			unread(in, read-s.maxEnd)
		}
	}()
	for !eof && !g.finished() && !s.stopReading {
		// Fill until the buffer holds at least one whole line.
		for !eof {
			if len(buf) == cap(buf) {
				grown := make([]byte, len(buf), 2*cap(buf))
				copy(grown, buf)
				buf = grown
			}
			n, err := in.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			read += int64(n)
			if err != nil {
				eof = true
				if err != io.EOF {
					readErr = err
				}
			}
			if n > 0 && bytes.IndexByte(buf[len(buf)-n:], delim) >= 0 {
				break
			}
		}
		end := len(buf)
		if !eof {
			end = bytes.LastIndexByte(buf, delim) + 1
		}
		region := buf[:end]
		if !s.binary && cfg.binaryFiles != "text" && !cfg.nullData && bytes.IndexByte(region, 0) >= 0 {
			s.binary = true
			if cfg.binaryFiles == "without-match" {
				return
			}
		}
		g.scanRegion(s, region, delim, listOnly)
		rest := copy(buf, buf[end:])
		buf = buf[:rest]
	}
	if readErr != nil {
		g.fileError(name, readErr)
		if s.count == 0 {
			return
		}
	}
	switch {
	case cfg.count:
		if cfg.filesWith && s.count > 0 {
			g.printName(name)
			return
		}
		g.printCount(name, showName, s.count)
	case cfg.filesWith:
		if s.count > 0 {
			g.printName(name)
		}
	case cfg.filesWithout:
		if s.count == 0 {
			g.printName(name)
		}
	}
}

// scanRegion walks the whole lines of one buffer.
func (g *grepper) scanRegion(s *fileScan, region []byte, delim byte, listOnly bool) {
	cfg := g.cfg
	jump := g.m.multi != nil && !cfg.invert && cfg.before == 0 && !g.m.nothing
	pos := 0
	for pos < len(region) {
		if g.finished() || s.stopReading {
			return
		}
		if jump && s.afterLeft == 0 {
			at := g.m.jump(region[pos:])
			if at < 0 {
				skipped := region[pos:]
				s.lineNo += int64(bytes.Count(skipped, []byte{delim}))
				s.offset += int64(len(skipped))
				return
			}
			start := pos + at
			lineStart := bytes.LastIndexByte(region[pos:start], delim) + 1 + pos
			if lineStart > pos {
				s.lineNo += int64(bytes.Count(region[pos:lineStart], []byte{delim}))
				s.offset += int64(lineStart - pos)
				pos = lineStart
			}
		}
		lineEnd := bytes.IndexByte(region[pos:], delim)
		next := 0
		if lineEnd < 0 {
			lineEnd = len(region)
			next = len(region)
		} else {
			lineEnd += pos
			next = lineEnd + 1
		}
		line := region[pos:lineEnd]
		g.handleLine(s, line, listOnly)
		s.offset += int64(next - pos)
		s.lineNo++
		pos = next
	}
}

// handleLine decides one line and prints it as a selection or as context.
func (g *grepper) handleLine(s *fileScan, line []byte, listOnly bool) {
	cfg := g.cfg
	if s.stopAfter {
		if s.afterLeft > 0 && !s.binary {
			g.printLine(s, line, s.lineNo, s.offset, '-')
			s.afterLeft--
		}
		if s.afterLeft == 0 {
			s.stopReading = true
		}
		return
	}
	selected := g.m.matches(line) != cfg.invert
	if g.m.overLimit() {
		// PCRE gives up on the line; grep says so and fails the run.
		g.t.warn(s.name + ": exceeded PCRE's backtracking limit")
		g.failed = true
		selected = cfg.invert
	}
	if !selected {
		if s.afterLeft > 0 {
			if !s.binary {
				g.printLine(s, line, s.lineNo, s.offset, '-')
			}
			s.afterLeft--
		} else if cfg.before > 0 {
			s.before = append(s.before, pendingLine{append([]byte(nil), line...), s.lineNo, s.offset})
			if len(s.before) > cfg.before {
				s.before = s.before[1:]
			}
		}
		return
	}
	s.count++
	g.selected = true
	switch {
	case cfg.quiet:
		g.done = true
		return
	case listOnly, cfg.count:
		if !cfg.count && (cfg.filesWith || cfg.filesWithout) {
			s.stopReading = true
		}
	case s.binary:
		// The first selected line of a binary file ends its output.
		g.t.warn(s.name + ": binary file matches")
		s.stopAfter, s.stopReading = true, true
		return
	default:
		for _, p := range s.before {
			g.printLine(s, p.text, p.number, p.offset, '-')
		}
		s.before = s.before[:0]
		if cfg.onlyMatching {
			if !cfg.invert {
				if !g.m.eachPiece(g.t, line, func(from, to int) bool {
					g.printPiece(s, line[from:to], s.lineNo, s.offset+int64(from))
					return true
				}) || g.t.stopped() {
					s.stopReading = true
				}
			}
		} else {
			g.printLine(s, line, s.lineNo, s.offset, ':')
		}
		s.afterLeft = cfg.after
	}
	if cfg.maxCount > 0 && s.count >= cfg.maxCount {
		if !s.stopAfter {
			s.maxEnd = s.offset + int64(len(line)) + 1
		}
		s.stopAfter = true
		if s.afterLeft == 0 || listOnly || cfg.count {
			s.stopReading = true
		}
	}
}

// separate prints "--" before a context group that does not continue the
// previous output.
func (g *grepper) separate(s *fileScan, number int64) {
	cfg := g.cfg
	if !cfg.contextGiven {
		return
	}
	if g.printedAny && (s.lastOut == 0 || s.lastOut != number-1) && !cfg.noGroupSeparator {
		g.t.writeString(cfg.groupSeparator + "\n")
	}
}

func (g *grepper) prefix(s *fileScan, number, offset int64, sep byte) {
	cfg := g.cfg
	if s.showName {
		g.t.writeString(s.name)
		if cfg.nullAfterName {
			g.t.writeByte(0)
		} else {
			g.t.writeByte(sep)
		}
	}
	if cfg.lineNumber {
		g.t.writeString(padLeft(strconv.FormatInt(number, 10), s.numberWidth))
		g.t.writeByte(sep)
	}
	if cfg.byteOffset {
		g.t.writeString(padLeft(strconv.FormatInt(offset, 10), s.numberWidth))
		g.t.writeByte(sep)
	}
	if cfg.initialTab && (s.showName || cfg.lineNumber || cfg.byteOffset) {
		g.t.writeByte('\t')
	}
}

// numberWidth is GNU grep's -T alignment: as many digits as the largest
// number the input could need (its size, plus one with -n), and 20 digits
// (the largest uintmax_t) when the size is unknown, as for a pipe.
func (g *grepper) numberWidth(size int64) int {
	if !g.cfg.initialTab {
		return 0
	}
	if size < 0 {
		return 20
	}
	if g.cfg.lineNumber {
		size++
	}
	return len(strconv.FormatInt(size, 10))
}

func (g *grepper) printLine(s *fileScan, line []byte, number, offset int64, sep byte) {
	if s.lastOut >= number && s.lastOut != 0 {
		return
	}
	g.separate(s, number)
	g.prefix(s, number, offset, sep)
	g.t.write(line)
	g.endLine()
	s.lastOut = number
	g.printedAny = true
}

func (g *grepper) printPiece(s *fileScan, piece []byte, number, offset int64) {
	g.separate(s, number)
	g.prefix(s, number, offset, ':')
	g.t.write(piece)
	g.endLine()
	s.lastOut = number
	g.printedAny = true
}

func (g *grepper) endLine() {
	if g.cfg.nullData {
		g.t.writeByte(0)
	} else {
		g.t.writeByte('\n')
	}
}

func (g *grepper) printName(name string) {
	g.t.writeString(name)
	if g.cfg.nullAfterName {
		g.t.writeByte(0)
	} else {
		g.t.writeByte('\n')
	}
}

func (g *grepper) printCount(name string, showName bool, n int64) {
	if showName {
		g.t.writeString(name)
		if g.cfg.nullAfterName {
			g.t.writeByte(0)
		} else {
			g.t.writeByte(':')
		}
	}
	g.t.writeString(strconv.FormatInt(n, 10) + "\n")
}
