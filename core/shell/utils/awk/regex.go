package awk

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gatehouse/internal/lazy"
)

// regex is a compiled awk regular expression. Patterns without operators
// are matched with strings.Index, which is much faster than RE2.
type regex struct {
	re      *regexp.Regexp
	literal string
	isLit   bool
	// anchored literal forms: ^lit and lit$
	prefix, suffix bool
	// warnings are gawk's complaints about unknown escapes.
	warnings []string
}

// regexCompileError is a pattern gawk's matcher would reject, in its words.
type regexCompileError struct{ msg string }

func (e *regexCompileError) Error() string { return e.msg }

// compileRegex translates a POSIX ERE with gawk's escapes to RE2 and
// compiles it for leftmost-longest matching.
func compileRegex(src string, literal bool) (*regex, error) {
	if lit, ok := plainLiteral(src); ok && lit != "" {
		return &regex{literal: lit, isLit: true}, nil
	}
	if len(src) > 1 && src[0] == '^' {
		if lit, ok := plainLiteral(src[1:]); ok {
			return &regex{literal: lit, isLit: true, prefix: true}, nil
		}
	}
	if len(src) > 1 && src[len(src)-1] == '$' && !strings.HasSuffix(src, `\$`) {
		if lit, ok := plainLiteral(src[:len(src)-1]); ok {
			return &regex{literal: lit, isLit: true, suffix: true}, nil
		}
	}
	t := &ereTranslator{src: src}
	if err := t.run(); err != nil {
		return nil, err
	}
	re, cerr := regexp.Compile(t.out.String())
	if cerr != nil {
		return nil, &regexCompileError{reMessage(cerr)}
	}
	re.Longest()
	return &regex{re: re, warnings: t.warnings}, nil
}

// plainLiteral reports a pattern with no regex operators (escaped
// punctuation counts as literal).
func plainLiteral(src string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '.', '[', ']', '(', ')', '*', '+', '?', '{', '}', '|', '^', '$':
			return "", false
		case '\\':
			if i+1 >= len(src) {
				return "", false
			}
			n := src[i+1]
			if strings.IndexByte(`.[]()*+?{}|^$\/"`, n) < 0 {
				return "", false
			}
			b.WriteByte(n)
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// reMessage maps RE2's complaint to the GNU matcher's wording.
func reMessage(err error) string {
	if se, ok := err.(*syntax.Error); ok {
		switch se.Code {
		case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
			return "Unmatched ( or \\("
		case syntax.ErrMissingBracket:
			return "Unmatched [, [^, [:, [., or [="
		case syntax.ErrInvalidRepeatSize:
			return "Invalid content of \\{\\}"
		case syntax.ErrInvalidCharRange:
			return "Invalid range end"
		case syntax.ErrInvalidRepeatOp, syntax.ErrMissingRepeatArgument:
			return "Invalid preceding regular expression"
		}
	}
	return err.Error()
}

// MatchString reports whether s matches.
func (r *regex) MatchString(s string) bool {
	if r.isLit {
		switch {
		case r.prefix:
			return strings.HasPrefix(s, r.literal)
		case r.suffix:
			return strings.HasSuffix(s, r.literal)
		}
		return strings.Contains(s, r.literal)
	}
	if !isASCII(s) {
		t, _ := latin1(s, false)
		return r.re.MatchString(t)
	}
	return r.re.MatchString(s)
}

func isASCIIBytes(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// latin1 spells every byte of s as the rune of the same number, so RE2
// (which matches UTF-8 runes) sees one character per byte: `.` is one
// byte, as in gawk under LC_ALL=C. back maps an offset in the result to
// the offset in s (filled when asked).
func latin1(s string, wantBack bool) (string, []int) {
	b := make([]byte, 0, len(s)+len(s)/4)
	var back []int
	if wantBack {
		back = make([]int, 0, len(s)+len(s)/4+1)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if wantBack {
			back = append(back, i)
			if c >= utf8.RuneSelf {
				back = append(back, i)
			}
		}
		b = utf8.AppendRune(b, rune(c))
	}
	if wantBack {
		back = append(back, len(s))
	}
	return string(b), back
}

// mapBack turns index pairs found in the Latin-1 spelling into offsets of
// the original string (-1 stays -1).
func mapBack(m []int, back []int) []int {
	for i, x := range m {
		if x >= 0 {
			m[i] = back[x]
		}
	}
	return m
}

// index returns the leftmost-longest match in s, or nil.
func (r *regex) index(s string) []int {
	if r.isLit {
		switch {
		case r.prefix:
			if strings.HasPrefix(s, r.literal) {
				return []int{0, len(r.literal)}
			}
			return nil
		case r.suffix:
			if strings.HasSuffix(s, r.literal) {
				return []int{len(s) - len(r.literal), len(s)}
			}
			return nil
		}
		i := strings.Index(s, r.literal)
		if i < 0 {
			return nil
		}
		return []int{i, i + len(r.literal)}
	}
	if !isASCII(s) {
		t, back := latin1(s, true)
		if m := r.re.FindStringIndex(t); m != nil {
			return mapBack(m, back)
		}
		return nil
	}
	return r.re.FindStringIndex(s)
}

// allIndex returns every non-overlapping match; an empty match right
// after a match is skipped, as awk's gsub wants. check is called between
// searches (see findAll).
func (r *regex) allIndex(s string, check func()) [][]int {
	if !r.isLit {
		if !isASCII(s) {
			t, back := latin1(s, true)
			all := findAll(r.re, t, false, check)
			for _, m := range all {
				mapBack(m, back)
			}
			return all
		}
		return findAll(r.re, s, false, check)
	}
	if r.prefix || r.suffix {
		if m := r.index(s); m != nil {
			return [][]int{m}
		}
		return nil
	}
	var out [][]int
	for pos := 0; ; {
		i := strings.Index(s[pos:], r.literal)
		if i < 0 {
			return out
		}
		out = append(out, []int{pos + i, pos + i + len(r.literal)})
		pos += i + len(r.literal)
	}
}

// allSubmatch is allIndex with groups.
func (r *regex) allSubmatch(s string, check func()) [][]int {
	if !r.isLit {
		if !isASCII(s) {
			t, back := latin1(s, true)
			all := findAll(r.re, t, true, check)
			for _, m := range all {
				mapBack(m, back)
			}
			return all
		}
		return findAll(r.re, s, true, check)
	}
	return r.allIndex(s, check)
}

// findAll is re's FindAllString(Submatch)Index(s, -1), searched a growing
// number of matches at a time from where the last one ended, with check
// called between searches: a pattern whose every match scans the rest of
// the string (a*b|a over a line of a's) made one uninterruptible call of
// minutes, which ran on after its line was over. A pattern that looks
// behind (^, \b, \B) is searched whole: a search from inside the string
// would take that place for its start.
func findAll(re *regexp.Regexp, s string, groups bool, check func()) [][]int {
	find := re.FindAllStringIndex
	if groups {
		find = re.FindAllStringSubmatchIndex
	}
	expr := re.String()
	if len(s) < 1<<12 || strings.ContainsAny(expr, "^") || strings.Contains(expr, `\b`) || strings.Contains(expr, `\B`) || strings.Contains(expr, `\A`) {
		return find(s, -1)
	}
	var out [][]int
	pos, prevEnd, chunk := 0, -1, 16
	for pos <= len(s) {
		check()
		start := time.Now()
		ms := find(s[pos:], chunk)
		took := time.Since(start)
		more := len(ms) == chunk
		for _, m := range ms {
			for j := range m {
				if m[j] >= 0 {
					m[j] += pos
				}
			}
		}
		// As regexp's own loop: an empty match where the last one ended
		// is not one, and after an empty match the search moves a
		// character on.
		if len(ms) > 0 && ms[0][0] == ms[0][1] && ms[0][0] == prevEnd {
			ms = ms[1:]
		}
		out = append(out, ms...)
		if len(ms) == 0 || !more {
			return out
		}
		last := ms[len(ms)-1]
		prevEnd, pos = last[1], last[1]
		if last[0] == last[1] {
			if pos == len(s) {
				return out
			}
			_, w := utf8.DecodeRuneInString(s[pos:])
			pos += w
		}
		// The next search takes more matches while they come quickly and
		// fewer when each scans far ahead (a*b|a over a long line of a's
		// scans the rest of it for every match), so the line's end is
		// looked at every few tens of milliseconds either way.
		switch {
		case took > 50*time.Millisecond:
			chunk = max(chunk/2, 1)
		case took < 10*time.Millisecond:
			chunk = min(2*chunk, 4096)
		}
	}
	return out
}

// indexBytes is index over a byte slice (regex record separators).
func (r *regex) indexBytes(b []byte) []int {
	if r.isLit && !r.prefix && !r.suffix {
		i := bytes.Index(b, []byte(r.literal))
		if i < 0 {
			return nil
		}
		return []int{i, i + len(r.literal)}
	}
	if r.isLit || !isASCIIBytes(b) {
		return r.index(string(b))
	}
	return r.re.FindIndex(b)
}

// submatches returns the match with its groups (gensub, match's array).
func (r *regex) submatches(s string) []int {
	if r.isLit {
		return r.index(s)
	}
	if !isASCII(s) {
		t, back := latin1(s, true)
		if m := r.re.FindStringSubmatchIndex(t); m != nil {
			return mapBack(m, back)
		}
		return nil
	}
	return r.re.FindStringSubmatchIndex(s)
}

// ereTranslator rewrites a POSIX ERE with gawk's extensions in RE2 syntax.
// gawk reads escapes inside bracket expressions too (`[\]\/]`).
type ereTranslator struct {
	src       string
	pos       int
	out       strings.Builder
	atomStart int  // out offset of the last repeatable atom, -1 if none
	repeated  bool // the last atom already carries a repetition
	depth     int
	// groupStarts are the out offsets of the open groups.
	groupStarts []int
	warnings    []string
}

func (t *ereTranslator) run() error {
	t.atomStart = -1
	t.out.WriteString("(?s)")
	for t.pos < len(t.src) {
		if err := t.step(); err != nil {
			return err
		}
	}
	if t.depth > 0 {
		return &regexCompileError{"Unmatched ( or \\("}
	}
	return nil
}

func (t *ereTranslator) atom(s string) {
	t.atomStart = t.out.Len()
	t.repeated = false
	t.out.WriteString(s)
}

func (t *ereTranslator) noAtom(s string) {
	t.atomStart = -1
	t.out.WriteString(s)
}

func (t *ereTranslator) step() error {
	c := t.src[t.pos]
	t.pos++
	switch c {
	case '\\':
		return t.escape()
	case '[':
		return t.bracket()
	case '.':
		t.atom(`.`)
	case '(':
		t.depth++
		t.noAtom("(")
		t.groupStarts = append(t.groupStarts, t.out.Len()-1)
	case ')':
		if t.depth == 0 {
			return &regexCompileError{"Unmatched ) or \\)"}
		}
		t.depth--
		start := t.groupStarts[len(t.groupStarts)-1]
		t.groupStarts = t.groupStarts[:len(t.groupStarts)-1]
		t.out.WriteByte(')')
		t.atomStart, t.repeated = start, false
	case '|':
		t.noAtom("|")
	case '^':
		t.noAtom("^")
	case '$':
		t.noAtom("$")
	case '*', '+', '?':
		t.repeat(string(c))
	case '{':
		return t.interval()
	default:
		t.atom(quoteByte(c))
	}
	return nil
}

// repeat applies a repetition operator; with nothing to repeat it is a
// literal, and a second operator wraps the first (RE2 rejects `a**`).
func (t *ereTranslator) repeat(op string) {
	if t.atomStart < 0 {
		t.atom(regexp.QuoteMeta(op))
		return
	}
	if t.repeated {
		s := t.out.String()
		t.out.Reset()
		t.out.WriteString(s[:t.atomStart] + "(?:" + s[t.atomStart:] + ")")
	}
	t.out.WriteString(op)
	t.repeated = true
}

// interval reads {n}, {n,}, {n,m} (or {,m}); anything else is a literal '{'.
func (t *ereTranslator) interval() error {
	end := strings.IndexByte(t.src[t.pos:], '}')
	if end < 0 || t.atomStart < 0 {
		t.atom(`\{`)
		return nil
	}
	body := t.src[t.pos : t.pos+end]
	lo, hi, comma := body, "", false
	if i := strings.IndexByte(body, ','); i >= 0 {
		lo, hi, comma = body[:i], body[i+1:], true
	}
	if !allDigits(lo) || !allDigits(hi) || (lo == "" && !comma) {
		t.atom(`\{`)
		return nil
	}
	if lo == "" {
		lo = "0"
	}
	n, _ := strconv.Atoi(lo)
	m := n
	if hi != "" {
		m, _ = strconv.Atoi(hi)
	}
	if n > 1000 || m > 1000 || (comma && hi != "" && m < n) {
		return &regexCompileError{"Invalid content of \\{\\}"}
	}
	t.pos += end + 1
	spec := "{" + lo
	if comma {
		spec += "," + hi
	}
	t.repeat(spec + "}")
	return nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// escape handles a backslash outside brackets.
func (t *ereTranslator) escape() error {
	if t.pos >= len(t.src) {
		t.atom(`\\`)
		return nil
	}
	c := t.src[t.pos]
	t.pos++
	switch c {
	case 'y':
		t.noAtom(`\b`)
	case 'B':
		t.noAtom(`\B`)
	case '<', '>':
		t.noAtom(`\b`)
	case '`':
		t.noAtom(`\A`)
	case '\'':
		t.noAtom(`\z`)
	case 'w', 'W', 's', 'S':
		t.atom(`\` + string(c))
	default:
		b, ok := t.escapedByte(c)
		if !ok {
			b = c
			if strings.IndexByte(`.[]()*+?{}|^$\/"-`, c) < 0 {
				t.warnings = append(t.warnings, "regexp escape sequence `\\"+string(c)+"' is not a known regexp operator")
			}
		}
		t.atom(quoteByte(b))
	}
	return nil
}

// escapedByte decodes a C escape (the backslash and c already read).
func (t *ereTranslator) escapedByte(c byte) (byte, bool) {
	switch c {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case 'f':
		return '\f', true
	case 'v':
		return '\v', true
	case 'a':
		return 7, true
	case 'b':
		return 8, true
	case 'x':
		n, digits := 0, 0
		for digits < 2 && t.pos < len(t.src) && isHex(t.src[t.pos]) {
			n = n*16 + hexVal(t.src[t.pos])
			t.pos++
			digits++
		}
		if digits == 0 {
			return 'x', true
		}
		return byte(n), true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n := int(c - '0')
		for i := 0; i < 2 && t.pos < len(t.src) && t.src[t.pos] >= '0' && t.src[t.pos] <= '7'; i++ {
			n = n*8 + int(t.src[t.pos]-'0')
			t.pos++
		}
		return byte(n), true
	}
	return c, false
}

// quoteByte spells one byte literally for RE2. A byte from 0x80 up is the
// rune of the same number: patterns match the Latin-1 spelling of the
// input (see latin1), which gives the C locale's byte semantics.
func quoteByte(c byte) string {
	if c < 0x80 && strings.IndexByte(`\.+*?()|[]{}^$`, c) >= 0 {
		return `\` + string(c)
	}
	if c < 0x20 || c >= 0x7f {
		return `\x{` + strconv.FormatUint(uint64(c), 16) + `}`
	}
	return string(c)
}

// bracket translates a bracket expression; t.pos is just past '['.
func (t *ereTranslator) bracket() error {
	var cls strings.Builder
	cls.WriteByte('[')
	if t.pos < len(t.src) && t.src[t.pos] == '^' {
		cls.WriteByte('^')
		t.pos++
	}
	first := true
	for {
		if t.pos >= len(t.src) {
			return &regexCompileError{"Unmatched [, [^, [:, [., or [="}
		}
		c := t.src[t.pos]
		if c == ']' && !first {
			t.pos++
			break
		}
		first = false
		if c == '[' && t.pos+1 < len(t.src) && (t.src[t.pos+1] == ':' || t.src[t.pos+1] == '.' || t.src[t.pos+1] == '=') {
			kind := t.src[t.pos+1]
			end := strings.Index(t.src[t.pos+2:], string(kind)+"]")
			if end < 0 {
				return &regexCompileError{"Unmatched [, [^, [:, [., or [="}
			}
			name := t.src[t.pos+2 : t.pos+2+end]
			t.pos += end + 4
			if kind == ':' {
				if !validClass.Get()[name] {
					return &regexCompileError{"Invalid character class name"}
				}
				cls.WriteString("[:" + name + ":]")
			} else {
				cls.WriteString(classRune(rune(name[0])))
			}
			continue
		}
		lo := t.bracketRune()
		if t.pos+1 < len(t.src) && t.src[t.pos] == '-' && t.src[t.pos+1] != ']' {
			t.pos++
			hi := t.bracketRune()
			if hi < lo {
				return &regexCompileError{"Invalid range end"}
			}
			cls.WriteString(classRune(lo) + "-" + classRune(hi))
			continue
		}
		cls.WriteString(classRune(lo))
	}
	cls.WriteByte(']')
	t.atom(cls.String())
	return nil
}

// bracketRune reads one member, decoding gawk's escapes; a UTF-8
// sequence is one member.
func (t *ereTranslator) bracketRune() rune {
	c := t.src[t.pos]
	t.pos++
	if c != '\\' || t.pos >= len(t.src) {
		return rune(c)
	}
	e := t.src[t.pos]
	t.pos++
	b, _ := t.escapedByte(e)
	return rune(b)
}

var validClass = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true,
		"space": true, "blank": true, "punct": true, "print": true, "graph": true,
		"cntrl": true, "xdigit": true,
	}
}}

// classRune spells a member literally inside an RE2 class.
func classRune(r rune) string {
	if r < 0x80 && strings.ContainsRune(`\[]^-`, r) {
		return `\` + string(r)
	}
	if r < 0x20 || r == 0x7f {
		return `\x` + strconv.FormatUint(uint64(r)|0x100, 16)[1:]
	}
	if r >= 0x80 && r < 0x100 {
		return `\x{` + strconv.FormatUint(uint64(r), 16) + `}`
	}
	return string(r)
}
