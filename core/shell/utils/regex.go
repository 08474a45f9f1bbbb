package utils

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"gatehouse/internal/lazy"
)

// POSIX regular expressions (grep, sed, find -regex) are translated to RE2
// syntax for Go's regexp package. The translation keeps capture groups in
// order, so \1 in a sed replacement names the same group; it rejects what
// RE2 cannot do (backreferences inside the pattern) with a clear message.
// Callers should compile with Longest() to get POSIX leftmost-longest
// matches.

// RegexDialect selects the syntax a pattern is written in.
type RegexDialect int

const (
	// BasicRegex is POSIX BRE with GNU extensions: \( \) \{ \} \| \+ \? are
	// operators, bare ( ) { } | + ? are literals (grep -G, sed).
	BasicRegex RegexDialect = iota
	// ExtendedRegex is POSIX ERE (grep -E, sed -E).
	ExtendedRegex
	// EmacsRegex is find's default -regex syntax: like BRE, but bare + and ?
	// are operators.
	EmacsRegex
)

// RegexOptions tunes the translation.
type RegexOptions struct {
	Dialect RegexDialect
	// Backrefs lets \1..\9 through as backreferences, for the
	// backtracking matcher (RE2 has none).
	Backrefs bool
	// CEscapes reads \n \t \r \f \v \a as the control characters they
	// name (sed); grep reads them as the letters.
	CEscapes bool
}

// RegexError is a pattern the translator rejects; Msg is GNU's wording.
type RegexError struct{ Msg string }

func (e *RegexError) Error() string { return e.Msg }

// ErrBackreference is the message for \1..\9 in a pattern.
const ErrBackreference = "backreferences are not supported"

const errUnmatchedBracket = "Unmatched [, [^, [:, [., or [="

// TranslateRegex rewrites a POSIX pattern as an RE2 pattern. A backslash
// before an ordinary character leaves the character itself (\d is d), as
// GNU's matchers do.
func TranslateRegex(pattern string, opts RegexOptions) (string, error) {
	t := &regexTranslator{src: pattern, opts: opts, lastAtom: -1}
	if err := t.run(); err != nil {
		return "", err
	}
	return string(t.out), nil
}

type regexTranslator struct {
	src  string
	pos  int
	opts RegexOptions
	out  []byte
	// lastAtom is where the last repeatable atom starts in out (-1: none,
	// so a repetition operator there is a literal); lastRepeated says it
	// already carries an operator and must be wrapped before another.
	lastAtom     int
	lastRepeated bool
	groups       []int // out offsets of open groups
	closedGroups int   // groups closed so far, for backreference checks
}

func (t *regexTranslator) run() error {
	for t.pos < len(t.src) {
		if err := t.step(); err != nil {
			return err
		}
	}
	if len(t.groups) > 0 {
		return &RegexError{"Unmatched ( or \\("}
	}
	return nil
}

// atStart reports a position where BRE reads ^ as an anchor and * as a
// literal: the start of the pattern, a group or an alternative.
func (t *regexTranslator) atStart() bool {
	n := len(t.out)
	if n == 0 {
		return true
	}
	last := t.out[n-1]
	return (last == '(' || last == '|') && !escapedAt(t.out, n-1)
}

// escapedAt reports whether out[i] is preceded by an odd run of backslashes.
func escapedAt(out []byte, i int) bool {
	k := 0
	for j := i - 1; j >= 0 && out[j] == '\\'; j-- {
		k++
	}
	return k%2 == 1
}

func (t *regexTranslator) step() error {
	c := t.src[t.pos]
	ere := t.opts.Dialect == ExtendedRegex
	switch {
	case c == '\\':
		return t.escape()
	case c == '[':
		t.pos++
		return t.bracket()
	case c == '.':
		t.pos++
		t.atom([]byte{'.'})
	case c == '*':
		t.pos++
		if t.lastAtom < 0 {
			t.literal('*')
			return nil
		}
		t.repeat("*")
	case (c == '+' || c == '?') && (ere || t.opts.Dialect == EmacsRegex):
		t.pos++
		if t.lastAtom < 0 {
			t.literal(c)
			return nil
		}
		t.repeat(string(c))
	case c == '{' && ere:
		if t.lastAtom < 0 {
			t.pos++
			t.literal('{')
			return nil
		}
		ok, err := t.interval(false)
		if err != nil {
			return err
		}
		if !ok {
			t.pos++
			t.literal('{')
		}
	case c == '(' && ere:
		t.pos++
		t.openGroup()
	case c == ')' && ere:
		t.pos++
		return t.closeGroup()
	case c == '|' && ere:
		t.pos++
		t.alternate()
	case c == '^':
		t.pos++
		if ere || t.atStart() {
			t.anchor("^")
		} else {
			t.literal('^')
		}
	case c == '$':
		t.pos++
		if ere || t.atEndOfBranch() {
			t.anchor("$")
		} else {
			t.literal('$')
		}
	default:
		r, size := utf8.DecodeRuneInString(t.src[t.pos:])
		t.pos += size
		t.atom(literalRune(r))
	}
	return nil
}

// atEndOfBranch reports a BRE $ that anchors: at the end of the pattern or
// before \) or \|.
func (t *regexTranslator) atEndOfBranch() bool {
	rest := t.src[t.pos:]
	return rest == "" || strings.HasPrefix(rest, `\)`) || strings.HasPrefix(rest, `\|`)
}

func (t *regexTranslator) escape() error {
	if t.pos+1 >= len(t.src) {
		return &RegexError{"Trailing backslash"}
	}
	c := t.src[t.pos+1]
	t.pos += 2
	bre := t.opts.Dialect != ExtendedRegex
	switch {
	case c >= '1' && c <= '9':
		if !t.opts.Backrefs {
			return &RegexError{ErrBackreference}
		}
		if int(c-'0') > t.closedGroups {
			return &RegexError{"Invalid back reference"}
		}
		t.atom([]byte{'\\', c})
	case bre && c == '(':
		t.openGroup()
	case bre && c == ')':
		return t.closeGroup()
	case bre && c == '|':
		t.alternate()
	case bre && c == '{':
		if t.lastAtom < 0 {
			return &RegexError{"Invalid preceding regular expression"}
		}
		ok, err := t.interval(true)
		if err != nil {
			return err
		}
		if !ok {
			return &RegexError{"Unmatched \\{"}
		}
	case t.opts.Dialect == BasicRegex && (c == '+' || c == '?'):
		if t.lastAtom < 0 {
			t.literal(c)
			return nil
		}
		t.repeat(string(c))
	case c == 'w' || c == 'W' || c == 's' || c == 'S':
		t.atom([]byte{'\\', c})
	case c == 'b' || c == 'B':
		t.anchor(`\` + string(c))
	case c == '<' || c == '>':
		// RE2 has no one-sided word edges; a word boundary is the nearest.
		t.anchor(`\b`)
	case c == '`':
		t.anchor(`\A`)
	case c == '\'':
		t.anchor(`\z`)
	case t.opts.CEscapes && strings.IndexByte("ntrfva", c) >= 0:
		// GNU sed's C escapes: newline, tab, carriage return, form feed,
		// vertical tab, bell.
		t.atom([]byte{'\\', c})
	default:
		t.pos -= 1
		r, size := utf8.DecodeRuneInString(t.src[t.pos:])
		t.pos += size
		t.atom(literalRune(r))
	}
	return nil
}

// atom appends a repeatable unit.
func (t *regexTranslator) atom(b []byte) {
	t.lastAtom = len(t.out)
	t.lastRepeated = false
	t.out = append(t.out, b...)
}

func (t *regexTranslator) literal(c byte) { t.atom(literalRune(rune(c))) }

// anchor appends a zero-width assertion; it cannot be repeated.
func (t *regexTranslator) anchor(s string) {
	t.out = append(t.out, s...)
	t.lastAtom = -1
}

func (t *regexTranslator) repeat(op string) {
	if t.lastRepeated {
		// POSIX allows a** and a*\{2\}; RE2 wants the inner one grouped.
		inner := append([]byte(nil), t.out[t.lastAtom:]...)
		t.out = append(append(append(t.out[:t.lastAtom], "(?:"...), inner...), ')')
	}
	t.out = append(t.out, op...)
	t.lastRepeated = true
}

func (t *regexTranslator) openGroup() {
	t.groups = append(t.groups, len(t.out))
	t.out = append(t.out, '(')
	t.lastAtom = -1
}

func (t *regexTranslator) closeGroup() error {
	if len(t.groups) == 0 {
		return &RegexError{"Unmatched ) or \\)"}
	}
	start := t.groups[len(t.groups)-1]
	t.groups = t.groups[:len(t.groups)-1]
	t.out = append(t.out, ')')
	t.closedGroups++
	t.lastAtom = start
	t.lastRepeated = false
	return nil
}

func (t *regexTranslator) alternate() {
	t.out = append(t.out, '|')
	t.lastAtom = -1
}

// interval parses {m}, {m,}, {m,n} or {,n} at t.pos (the brace, or the
// backslash of \{ when escaped). ok is false when an ERE brace does not
// start a valid interval, which makes it a literal.
func (t *regexTranslator) interval(escaped bool) (ok bool, err error) {
	i := t.pos + 1 // past '{' (the caller consumed "\" and "{" for BRE)
	if escaped {
		i = t.pos
	}
	readNum := func() (int, bool) {
		j := i
		for i < len(t.src) && t.src[i] >= '0' && t.src[i] <= '9' {
			i++
		}
		if j == i {
			return -1, false
		}
		n, err := strconv.Atoi(t.src[j:i])
		if err != nil || n > 32767 {
			return 32768, true
		}
		return n, true
	}
	minN, hasMin := readNum()
	maxN := minN
	if i < len(t.src) && t.src[i] == ',' {
		i++
		var hasMax bool
		maxN, hasMax = readNum()
		if !hasMax {
			maxN = -1
		}
		if !hasMin {
			minN = 0
		}
	} else if !hasMin {
		if escaped {
			return false, &RegexError{"Invalid content of \\{\\}"}
		}
		return false, nil
	}
	closer := "}"
	if escaped {
		closer = `\}`
	}
	if !strings.HasPrefix(t.src[i:], closer) {
		if escaped {
			if i >= len(t.src) {
				return false, &RegexError{"Unmatched \\{"}
			}
			return false, &RegexError{"Invalid content of \\{\\}"}
		}
		return false, nil
	}
	if maxN >= 0 && maxN < minN {
		return false, &RegexError{"Invalid content of \\{\\}"}
	}
	if minN > 1000 || maxN > 1000 {
		return false, &RegexError{"Regular expression too big"}
	}
	t.pos = i + len(closer)
	op := "{" + strconv.Itoa(minN)
	switch {
	case maxN < 0:
		op += ",}"
	case maxN != minN:
		op += "," + strconv.Itoa(maxN) + "}"
	default:
		op += "}"
	}
	t.repeat(op)
	return true, nil
}

// posixClasses are the class names RE2 shares with POSIX.
var posixClasses = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"alnum": true, "alpha": true, "blank": true, "cntrl": true, "digit": true, "graph": true,
		"lower": true, "print": true, "punct": true, "space": true, "upper": true, "xdigit": true,
	}
}}

// bracket translates a bracket expression; t.pos is just past '['.
func (t *regexTranslator) bracket() error {
	start := t.pos - 1
	var cls []byte
	cls = append(cls, '[')
	if t.pos < len(t.src) && t.src[t.pos] == '^' {
		cls = append(cls, '^')
		t.pos++
	}
	if t.pos >= len(t.src) {
		// glibc's regcomp: a pattern that ends right after "[" or "[^" is
		// REG_BADPAT, not an unmatched bracket.
		return &RegexError{"Invalid regular expression"}
	}
	first := true
	for {
		if t.pos >= len(t.src) {
			return &RegexError{errUnmatchedBracket}
		}
		c := t.src[t.pos]
		if c == ']' && !first {
			t.pos++
			break
		}
		first = false
		if c == '[' && t.pos+1 < len(t.src) && strings.IndexByte(":=.", t.src[t.pos+1]) >= 0 {
			kind := t.src[t.pos+1]
			end := strings.Index(t.src[t.pos+2:], string(kind)+"]")
			if end < 0 {
				return &RegexError{errUnmatchedBracket}
			}
			name := t.src[t.pos+2 : t.pos+2+end]
			t.pos += 2 + end + 2
			if kind == ':' {
				if !posixClasses.Get()[name] {
					return &RegexError{"Invalid character class name"}
				}
				cls = append(cls, "[:"+name+":]"...)
				continue
			}
			r, size := utf8.DecodeRuneInString(name)
			if size != len(name) || size == 0 {
				return &RegexError{"Invalid collation character"}
			}
			if err := t.rangeOrChar(&cls, r); err != nil {
				return err
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(t.src[t.pos:])
		t.pos += size
		if err := t.rangeOrChar(&cls, r); err != nil {
			return err
		}
	}
	body := t.src[start:t.pos]
	if len(body) >= 4 && body[1] == ':' && body[len(body)-2] == ':' {
		// "[:space:]" written where "[[:space:]]" was meant.
		return &RegexError{"character class syntax is [[:space:]], not [:space:]"}
	}
	t.atom(append(cls, ']'))
	return nil
}

// rangeOrChar adds r to a class, or the range r-END when a '-' follows.
func (t *regexTranslator) rangeOrChar(cls *[]byte, lo rune) error {
	if t.pos+1 < len(t.src) && t.src[t.pos] == '-' && t.src[t.pos+1] != ']' {
		t.pos++
		var hi rune
		if strings.HasPrefix(t.src[t.pos:], "[.") {
			end := strings.Index(t.src[t.pos+2:], ".]")
			if end < 0 {
				return &RegexError{errUnmatchedBracket}
			}
			name := t.src[t.pos+2 : t.pos+2+end]
			r, size := utf8.DecodeRuneInString(name)
			if size != len(name) || size == 0 {
				return &RegexError{"Invalid collation character"}
			}
			hi = r
			t.pos += 2 + end + 2
		} else {
			r, size := utf8.DecodeRuneInString(t.src[t.pos:])
			hi = r
			t.pos += size
		}
		if hi < lo {
			return &RegexError{"Invalid range end"}
		}
		*cls = append(*cls, classRune(lo)...)
		*cls = append(*cls, '-')
		*cls = append(*cls, classRune(hi)...)
		return nil
	}
	*cls = append(*cls, classRune(lo)...)
	return nil
}

// literalRune spells r so RE2 reads it literally outside a class.
func literalRune(r rune) []byte {
	if r < utf8.RuneSelf {
		if r < 0x20 || r == 0x7f {
			return []byte(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
		}
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			return []byte{'\\', byte(r)}
		}
		return []byte{byte(r)}
	}
	return utf8.AppendRune(nil, r)
}

// classRune spells r so RE2 reads it literally inside a class.
func classRune(r rune) []byte {
	if r < utf8.RuneSelf {
		if r < 0x20 || r == 0x7f {
			return []byte(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
		}
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return []byte{'\\', byte(r)}
		}
		return []byte{byte(r)}
	}
	return utf8.AppendRune(nil, r)
}
