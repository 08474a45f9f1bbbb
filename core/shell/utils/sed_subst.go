package utils

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// The pattern side of sed: s and y commands, regex translation to RE2
// (through the shared POSIX translator) and replacement parsing.

// compileRegex translates a sed pattern to RE2.
func (p *sedParser) compileRegex(body string, fold, multiline bool) (*sedRegex, error) {
	if body == "" {
		return &sedRegex{}, nil
	}
	dialect := BasicRegex
	if p.cfg.extended {
		dialect = ExtendedRegex
	}
	translated, err := TranslateRegex(sedRegexEscapes(body), RegexOptions{Dialect: dialect, CEscapes: true})
	var rerr *RegexError
	if errors.As(err, &rerr) && rerr.Msg == ErrBackreference {
		// RE2 has no backreferences: the backtracking matcher does.
		if translated, err = TranslateRegex(sedRegexEscapes(body), RegexOptions{Dialect: dialect, CEscapes: true, Backrefs: true}); err == nil {
			return p.compileBacktrack(translated, fold, multiline)
		}
	}
	if err != nil {
		var rerr *RegexError
		if errors.As(err, &rerr) {
			return nil, p.fail(rerr.Msg)
		}
		return nil, p.fail(err.Error())
	}
	prefix := "(?s"
	if fold {
		prefix += "i"
	}
	if multiline {
		prefix += "m"
	}
	re, cerr := regexp.Compile(prefix + ")" + translated)
	if cerr != nil {
		return nil, p.fail("Invalid regular expression")
	}
	re.Longest()
	return &sedRegex{re: re}, nil
}

// compileBacktrack compiles a translated pattern with backreferences.
func (p *sedParser) compileBacktrack(translated string, fold, multiline bool) (*sedRegex, error) {
	prefix := "(?s"
	if multiline {
		prefix += "m"
	}
	re, err := CompileBacktrack(prefix+")"+translated, fold)
	if err != nil {
		return nil, p.fail("Invalid regular expression")
	}
	return &sedRegex{re: re}, nil
}

// sedRegexEscapes prepares GNU sed's escapes for the shared POSIX
// translator: inside bracket expressions \n and \t become the characters
// (POSIX brackets read a backslash literally), and everywhere \xHH, \oNNN,
// \dNNN and \cX become the character they name.
func sedRegexEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			if ch, n, ok := sedNumericEscape(s[i:]); ok {
				b.WriteString(sedEscapedChar(ch))
				i += n - 1
				continue
			}
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c != '[' {
			b.WriteByte(c)
			continue
		}
		end := sedBracketEnd(s, i)
		if end == 0 {
			b.WriteString(s[i:])
			break
		}
		inner := s[i:end]
		inner = strings.ReplaceAll(inner, `\n`, "\n")
		inner = strings.ReplaceAll(inner, `\t`, "\t")
		b.WriteString(inner)
		i = end - 1
	}
	return b.String()
}

// sedNumericEscape decodes \xHH, \oNNN, \dNNN or \cX at s[0]; n is its
// length.
func sedNumericEscape(s string) (ch byte, n int, ok bool) {
	if len(s) < 3 {
		return 0, 0, false
	}
	base, width := 0, 0
	switch s[1] {
	case 'x':
		base, width = 16, 2
	case 'o':
		base, width = 8, 3
	case 'd':
		base, width = 10, 3
	case 'c':
		return upperASCII(s[2]) ^ 0x40, 3, true
	default:
		return 0, 0, false
	}
	digits := map[int]string{8: "01234567", 10: "0123456789", 16: "0123456789abcdefABCDEF"}[base]
	j := 2
	for j < len(s) && j < 2+width && strings.IndexByte(digits, s[j]) >= 0 {
		j++
	}
	if j == 2 {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(s[2:j], base, 8)
	if err != nil {
		return 0, 0, false
	}
	return byte(v), j, true
}

// sedEscapedChar spells the character an escape produced. GNU sed puts
// it into the pattern as if typed, so \x2e is the '.' that matches any
// character; only a backslash is doubled to stay one character.
func sedEscapedChar(c byte) string {
	if c == '\\' {
		return `\\`
	}
	return string(c)
}

func (p *sedParser) substitute() (*sedSubst, error) {
	if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
		p.pos++
		return nil, p.fail("unterminated `s' command")
	}
	delim := p.next()
	pattern, ok := p.delimited(delim, true)
	if !ok {
		return nil, p.fail("unterminated `s' command")
	}
	replText, ok := p.delimited(delim, false)
	if !ok {
		return nil, p.fail("unterminated `s' command")
	}
	sub := &sedSubst{nth: 1}
	fold, multiline, sawNumber := false, false, false
flags:
	for {
		c := p.peek()
		switch {
		case c == 'g':
			if sub.global {
				p.pos++
				return nil, p.fail("multiple `g' options to `s' command")
			}
			sub.global = true
		case c == 'p':
			if sub.print > 0 {
				p.pos++
				return nil, p.fail("multiple `p' options to `s' command")
			}
			sub.print++
		case c == 'i' || c == 'I':
			fold = true
		case c == 'm' || c == 'M':
			multiline = true
		case c >= '0' && c <= '9':
			if sawNumber {
				p.pos++
				return nil, p.fail("multiple number options to `s' command")
			}
			n, _ := p.number()
			if n == 0 {
				return nil, p.fail("number option to `s' command may not be zero")
			}
			sub.nth, sawNumber = n, true
			continue
		case c == 'e':
			p.pos++
			return nil, p.fail("e flag is not supported: gatehouse runs no host commands")
		case c == 'w':
			p.pos++
			if p.cfg.sandbox {
				return nil, p.fail("e/r/w commands disabled in sandbox mode")
			}
			sub.wfile = p.fileName()
			if sub.wfile == "" {
				return nil, p.fail("missing filename in r/R/w/W commands")
			}
			break flags
		case c == 0 || c == ';' || c == '\n' || c == '}' || c == '#' || c == ' ' || c == '\t':
			if err := p.endOfCommand(); err != nil {
				return nil, err
			}
			break flags
		default:
			p.pos++
			return nil, p.fail("unknown option to `s'")
		}
		p.pos++
	}
	re, err := p.compileRegex(pattern, fold, multiline)
	if err != nil {
		return nil, err
	}
	sub.re = re
	sub.repl, sub.maxGroup = sedParseReplacement(replText)
	if re.re != nil && sub.maxGroup > re.re.NumSubexp() {
		return nil, p.fail("invalid reference \\" + strconv.Itoa(sub.maxGroup) + " on `s' command's RHS")
	}
	return sub, nil
}

// sedParseReplacement splits a replacement into literal text, group
// references and case conversions.
func sedParseReplacement(s string) ([]sedReplPart, int) {
	var parts []sedReplPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, sedReplPart{literal: lit.String(), group: -1})
			lit.Reset()
		}
	}
	maxGroup := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '&' {
			flush()
			parts = append(parts, sedReplPart{group: 0})
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			lit.WriteByte(c)
			continue
		}
		i++
		d := s[i]
		switch {
		case d >= '0' && d <= '9':
			flush()
			n := int(d - '0')
			maxGroup = max(maxGroup, n)
			parts = append(parts, sedReplPart{group: n})
		case d == 'L' || d == 'U' || d == 'l' || d == 'u' || d == 'E':
			flush()
			parts = append(parts, sedReplPart{group: -1, caseOp: d})
		case d == 'n':
			lit.WriteByte('\n')
		case d == 't':
			lit.WriteByte('\t')
		case d == 'r':
			lit.WriteByte('\r')
		case d == 'a':
			lit.WriteByte('\a')
		case d == 'f':
			lit.WriteByte('\f')
		case d == 'v':
			lit.WriteByte('\v')
		default:
			if ch, n, ok := sedNumericEscape(s[i-1:]); ok {
				lit.WriteByte(ch)
				i += n - 2
				continue
			}
			lit.WriteByte(d)
		}
	}
	flush()
	return parts, maxGroup
}

// transliterate parses y/src/dst/.
func (p *sedParser) transliterate() (*[256]byte, error) {
	if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
		p.pos++
		return nil, p.fail("unterminated `y' command")
	}
	delim := p.next()
	read := func() (string, bool) {
		var b strings.Builder
		for !p.eof() {
			c := p.next()
			if c == delim {
				return b.String(), true
			}
			if c == '\n' {
				return "", false
			}
			if c == '\\' && !p.eof() {
				d := p.next()
				switch d {
				case delim:
					b.WriteByte(d)
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '\\':
					b.WriteByte('\\')
				case '\n':
					b.WriteByte('\n')
				default:
					b.WriteByte('\\')
					b.WriteByte(d)
				}
				continue
			}
			b.WriteByte(c)
		}
		return "", false
	}
	src, ok := read()
	if !ok {
		return nil, p.fail("unterminated `y' command")
	}
	dst, ok := read()
	if !ok {
		return nil, p.fail("unterminated `y' command")
	}
	if len(src) != len(dst) {
		return nil, p.fail("strings for `y' command are different lengths")
	}
	var m [256]byte
	for i := range m {
		m[i] = byte(i)
	}
	for i := 0; i < len(src); i++ {
		m[src[i]] = dst[i]
	}
	return &m, nil
}
