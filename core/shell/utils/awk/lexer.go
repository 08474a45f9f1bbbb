package awk

import (
	"strconv"
	"strings"

	"gatehouse/internal/lazy"
)

// tok is a token kind.
type tok int

const (
	tEOF tok = iota
	tNewline
	tLbrace
	tRbrace
	tLparen
	tRparen
	tLbracket
	tRbracket
	tSemi
	tComma
	tAdd
	tSub
	tMul
	tDiv
	tMod
	tPow
	tNot
	tGT
	tLT
	tPipe
	tPipeAmp
	tQuestion
	tColon
	tMatch
	tNoMatch
	tDollar
	tAssign
	tAddAssign
	tSubAssign
	tMulAssign
	tDivAssign
	tModAssign
	tPowAssign
	tEQ
	tLE
	tGE
	tNE
	tIncr
	tDecr
	tAnd
	tOr
	tAppend
	tNumber
	tString
	tRegex
	tName
	tFuncName // a name directly followed by '(' (a user function call)
	tBuiltin
	// keywords
	tBEGIN
	tEND
	tBEGINFILE
	tENDFILE
	tFunction
	tIf
	tElse
	tWhile
	tFor
	tDo
	tBreak
	tContinue
	tNext
	tNextfile
	tExit
	tReturn
	tDelete
	tIn
	tGetline
	tPrint
	tPrintf
	tSwitch
	tCase
	tDefault
)

var keywords = lazy.Value[map[string]tok]{New: func() map[string]tok {
	return map[string]tok{
		"BEGIN": tBEGIN, "END": tEND, "BEGINFILE": tBEGINFILE, "ENDFILE": tENDFILE,
		"function": tFunction, "func": tFunction, "if": tIf, "else": tElse,
		"while": tWhile, "for": tFor, "do": tDo, "break": tBreak,
		"continue": tContinue, "next": tNext, "nextfile": tNextfile,
		"exit": tExit, "return": tReturn, "delete": tDelete, "in": tIn,
		"getline": tGetline, "print": tPrint, "printf": tPrintf,
		"switch": tSwitch, "case": tCase, "default": tDefault,
	}
}}

// token is one lexeme; pos is its byte offset in the program text.
type token struct {
	kind tok
	pos  int
	text string  // names, string values, regex sources
	num  float64 // number literals
}

// lexer turns program text into tokens. The parser asks it to read a
// regex where a '/' starts an operand.
type lexer struct {
	src      string
	pos      int
	warnings []lexWarning
	err      *syntaxError
}

// lexWarning is a diagnostic gawk prints while reading the program.
type lexWarning struct {
	pos int
	msg string
}

func (l *lexer) fail(pos int, msg string) token {
	if l.err == nil {
		l.err = &syntaxError{pos: pos, msg: msg}
	}
	return token{kind: tEOF, pos: pos}
}

// next scans one token; blanks, comments and backslash-newlines are skipped.
func (l *lexer) next() token {
	l.skipBlank()
	if l.pos >= len(l.src) {
		return token{kind: tEOF, pos: len(l.src)}
	}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case c == '\n':
		l.pos++
		return token{kind: tNewline, pos: start}
	case isDigit(c) || c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1]):
		return l.number()
	case isNameStart(c):
		return l.name()
	case c == '"':
		return l.str()
	}
	return l.operator()
}

func (l *lexer) skipBlank() {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.pos += 2
		case c == '\\' && l.pos+2 < len(l.src) && l.src[l.pos+1] == '\r' && l.src[l.pos+2] == '\n':
			l.pos += 3
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		default:
			return
		}
	}
}

func isDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || isDigit(c) }

// operators lists the punctuation, longest spellings first.
var operators = []struct {
	text string
	kind tok
}{
	{"**=", tPowAssign}, {"&&", tAnd}, {"||", tOr}, {"|&", tPipeAmp}, {"==", tEQ},
	{"<=", tLE}, {">=", tGE}, {"!=", tNE}, {"!~", tNoMatch}, {"++", tIncr},
	{"--", tDecr}, {"+=", tAddAssign}, {"-=", tSubAssign}, {"*=", tMulAssign},
	{"/=", tDivAssign}, {"%=", tModAssign}, {"^=", tPowAssign}, {"**", tPow},
	{">>", tAppend}, {"{", tLbrace}, {"}", tRbrace}, {"(", tLparen},
	{")", tRparen}, {"[", tLbracket}, {"]", tRbracket}, {";", tSemi},
	{",", tComma}, {"+", tAdd}, {"-", tSub}, {"*", tMul}, {"/", tDiv},
	{"%", tMod}, {"^", tPow}, {"!", tNot}, {">", tGT}, {"<", tLT},
	{"|", tPipe}, {"?", tQuestion}, {":", tColon}, {"~", tMatch},
	{"$", tDollar}, {"=", tAssign},
}

func (l *lexer) operator() token {
	start := l.pos
	rest := l.src[l.pos:]
	for _, op := range operators {
		if strings.HasPrefix(rest, op.text) {
			l.pos += len(op.text)
			return token{kind: op.kind, pos: start, text: op.text}
		}
	}
	return l.fail(start, "syntax error")
}

// number reads a decimal, hexadecimal (0x1F) or octal (017) constant, as
// gawk reads them in program text.
func (l *lexer) number() token {
	start := l.pos
	s := l.src
	if s[l.pos] == '0' && l.pos+2 < len(s) && (s[l.pos+1] == 'x' || s[l.pos+1] == 'X') && isHex(s[l.pos+2]) {
		l.pos += 2
		for l.pos < len(s) && isHex(s[l.pos]) {
			l.pos++
		}
		n, _ := strconv.ParseUint(s[start+2:l.pos], 16, 64)
		return token{kind: tNumber, pos: start, num: float64(n)}
	}
	end, _ := numericPrefix(s[l.pos:])
	l.pos += end
	text := s[start:l.pos]
	if len(text) > 1 && text[0] == '0' && isOctal(text) {
		n, _ := strconv.ParseUint(text, 8, 64)
		return token{kind: tNumber, pos: start, num: float64(n)}
	}
	f, _ := strconv.ParseFloat(text, 64)
	return token{kind: tNumber, pos: start, num: f}
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isOctal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}

func (l *lexer) name() token {
	start := l.pos
	for l.pos < len(l.src) && isNameChar(l.src[l.pos]) {
		l.pos++
	}
	word := l.src[start:l.pos]
	if k, ok := keywords.Get()[word]; ok {
		return token{kind: k, pos: start, text: word}
	}
	if _, ok := builtinNames.Get()[word]; ok {
		return token{kind: tBuiltin, pos: start, text: word}
	}
	if l.pos < len(l.src) && l.src[l.pos] == '(' {
		return token{kind: tFuncName, pos: start, text: word}
	}
	return token{kind: tName, pos: start, text: word}
}

// str reads a string constant and processes its escapes.
func (l *lexer) str() token {
	start := l.pos
	l.pos++
	var b strings.Builder
	for {
		if l.pos >= len(l.src) || l.src[l.pos] == '\n' {
			return l.fail(start, "unterminated string")
		}
		c := l.src[l.pos]
		if c == '"' {
			l.pos++
			return token{kind: tString, pos: start, text: b.String()}
		}
		if c != '\\' {
			b.WriteByte(c)
			l.pos++
			continue
		}
		if l.pos+1 >= len(l.src) {
			return l.fail(start, "unterminated string")
		}
		if l.src[l.pos+1] == '\n' {
			l.pos += 2
			continue
		}
		l.pos = l.escape(&b, l.pos, false)
	}
}

// escape decodes the escape sequence at src[i] (a backslash) into b and
// returns the position after it. In a regex, unknown escapes keep their
// backslash for the regex translator.
func (l *lexer) escape(b *strings.Builder, i int, inRegex bool) int {
	s := l.src
	c := s[i+1]
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '\\':
		b.WriteByte('\\')
	case '"':
		b.WriteByte('"')
	case '/':
		if inRegex {
			b.WriteByte('/')
		} else {
			l.warn(i, "escape sequence `\\/' treated as plain `/'")
			b.WriteByte('/')
		}
	case 'a':
		b.WriteByte(7)
	case 'b':
		b.WriteByte(8)
	case 'f':
		b.WriteByte(12)
	case 'v':
		b.WriteByte(11)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n, j := 0, i+1
		for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' {
			n = n*8 + int(s[j]-'0')
			j++
		}
		b.WriteByte(byte(n))
		return j
	case 'x':
		n, j := 0, i+2
		for j < len(s) && j < i+4 && isHex(s[j]) {
			n = n*16 + hexVal(s[j])
			j++
		}
		if j == i+2 {
			l.warn(i, "no hex digits in `\\x' escape sequence")
			b.WriteString("x")
			return j
		}
		b.WriteByte(byte(n))
		return j
	default:
		l.warn(i, "escape sequence `\\"+string(c)+"' treated as plain `"+string(c)+"'")
		b.WriteByte(c)
	}
	return i + 2
}

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

func (l *lexer) warn(pos int, msg string) {
	for _, w := range l.warnings {
		if w.pos == pos && w.msg == msg {
			return // the parser re-read this token after a rewind
		}
	}
	l.warnings = append(l.warnings, lexWarning{pos: pos, msg: msg})
}

// regex reads a regex constant whose opening '/' is at start. The text is
// kept raw (escapes are the regex translator's job); a '/' inside a
// bracket expression does not end it.
func (l *lexer) regex(start int) token {
	l.pos = start + 1
	s := l.src
	inBracket := false
	for {
		if l.pos >= len(s) || s[l.pos] == '\n' {
			return l.fail(start+1, "unterminated regexp")
		}
		c := s[l.pos]
		switch {
		case c == '\\' && l.pos+1 < len(s):
			if s[l.pos+1] == '\n' {
				l.pos += 2
				continue
			}
			l.pos += 2
			continue
		case c == '[' && !inBracket:
			inBracket = true
			l.pos++
			// A ']' (after an optional '^') right after '[' is a member.
			if l.pos < len(s) && s[l.pos] == '^' {
				l.pos++
			}
			if l.pos < len(s) && s[l.pos] == ']' {
				l.pos++
			}
			continue
		case c == '[' && inBracket && l.pos+1 < len(s) && s[l.pos+1] == ':':
			if end := strings.Index(s[l.pos+2:], ":]"); end >= 0 && !strings.Contains(s[l.pos+2:l.pos+2+end], "\n") {
				l.pos += end + 4
				continue
			}
		case c == ']' && inBracket:
			inBracket = false
		case c == '/' && !inBracket:
			text := strings.ReplaceAll(s[start+1:l.pos], "\\\n", "")
			l.pos++
			return token{kind: tRegex, pos: start, text: text}
		}
		l.pos++
	}
}
