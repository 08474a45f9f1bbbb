// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package syntax

// Bash does not parse arithmetic when it parses a program: it keeps the
// text of $((…)), ((…)), for ((…;…;…)) and subscripts, expands it when it
// runs, and only then parses and evaluates the result. So `$(( ${base}#a ))`
// and `(( x$n = 1 ))` are valid programs, a variable may hold an operator,
// and an error in the expression is a run-time error. In the bash dialect
// the parser reads those texts as a [Word] in the [arithmRaw] state: its
// parts are literal text, parameter expansions, command and arithmetic
// substitutions, and double-quoted strings. The expand package evaluates
// such a word as bash does.

// rawArithm is the lexer's state while it reads arithmetic text.
type rawArithm struct {
	stop   byte // ')', ']' or '}': the byte that ends the text at depth zero
	semis  bool // whether ';' also ends it at depth zero, as in for ((;;))
	colons bool // whether ':' also ends it at depth zero, as in ${a:i:n}
	depth  int  // of the parentheses or brackets open within the text
	quests int  // of the ?: conditionals whose ':' is still to come
}

// rawArithmToken lexes one token of arithmetic text: an expansion or a
// double quote, the closing ')' or ']' (as [rightParen] or [rightBrack]),
// a ';' ending a part of a for loop, or literal text.
func (p *Parser) rawArithmToken(r rune) {
	switch {
	case r == '`' || r == '"' || r == '$':
		p.tok = p.dqToken(r)
	case r == '\'' && p.raw.stop == ']':
		// A subscript may be a quoted key of an associative array.
		p.rune()
		p.tok = sglQuote
	case r == runeEOF:
		p.tok = _EOF
	case p.raw.depth == 0 && r == rune(p.raw.stop):
		p.rune()
		switch r {
		case ']':
			p.tok = rightBrack
		case '}':
			p.tok = rightBrace
		default:
			p.tok = rightParen
		}
	case p.raw.depth == 0 && r == ';' && p.raw.semis:
		p.rune()
		p.tok = semicolon
	case p.raw.depth == 0 && r == ':' && p.raw.colons && p.raw.quests == 0:
		p.rune()
		p.tok = colon
	default:
		p.advanceLitArithmRaw(r)
	}
}

func (p *Parser) advanceLitArithmRaw(r rune) {
	tok := _LitWord
	open, close := rune('('), rune(')')
	if p.raw.stop == ']' {
		open, close = '[', ']'
	}
loop:
	for p.newLit(r); r != runeEOF; r = p.rune() {
		switch r {
		case '\\': // escaped byte follows
			p.rune()
		case escNewl, '`', '"', '$':
			tok = _Lit
			break loop
		case '\'':
			if p.raw.stop == ']' {
				tok = _Lit
				break loop
			}
		case open:
			p.raw.depth++
		case close:
			if p.raw.depth == 0 {
				break loop
			}
			p.raw.depth--
		case '}':
			if p.raw.stop == '}' && p.raw.depth == 0 {
				break loop
			}
		case ';':
			if p.raw.semis && p.raw.depth == 0 {
				break loop
			}
		case '?':
			if p.raw.colons && p.raw.depth == 0 {
				p.raw.quests++
			}
		case ':':
			if p.raw.colons && p.raw.depth == 0 {
				if p.raw.quests == 0 {
					break loop
				}
				p.raw.quests--
			}
		}
	}
	p.tok, p.val = tok, p.endLit()
}

// arithmRawWord reads arithmetic text up to the token that ends it, which
// is left in [Parser.tok]. The caller has entered the [arithmRaw] state
// and set [Parser.raw]. An empty text is a word with one empty literal, so
// that every node keeps a position.
func (p *Parser) arithmRawWord() *Word {
	pos := p.pos
	parts := p.wordParts(nil)
	if len(parts) == 0 {
		return p.wordOne(p.lit(pos, ""))
	}
	return &Word{Parts: parts}
}

// rawArithmExp reads the text of $((…)) or ((…)) after its opening token,
// with [Parser.tok] at that token, up to and including the closing "))".
// It returns the text and the position of the closing parentheses.
func (p *Parser) rawArithmExp(ltok token, lpos Pos) (*Word, Pos) {
	old := p.preNested(arithmRaw)
	p.raw.stop = ')'
	p.next()
	w := p.arithmRawWord()
	return w, p.arithmEnd(ltok, lpos, old)
}

// rawCStyleLoop reads the header of a bash for ((init; cond; post)) loop.
func (p *Parser) rawCStyleLoop(cl *CStyleLoop) {
	old := p.preNested(arithmRaw)
	p.raw.stop, p.raw.semis = ')', true
	p.next()
	part := func() ArithmExpr {
		w := p.arithmRawWord()
		if lit, ok := w.Parts[0].(*Lit); ok && len(w.Parts) == 1 && isBlank(lit.Value) {
			return nil
		}
		return w
	}
	cl.Init = part()
	p.follow(p.pos, "expr", semicolon)
	cl.Cond = part()
	p.follow(p.pos, "expr", semicolon)
	p.raw.semis = false
	cl.Post = part()
	cl.Rparen = p.arithmEnd(dblLeftParen, cl.Lparen, old)
}

// rawIndex reads a subscript after its '[', up to and including the
// closing ']', and leaves the lexer in the state it was in.
func (p *Parser) rawIndex() ArithmExpr {
	lpos := p.pos
	old := p.quote
	oldRaw := p.raw
	p.quote, p.raw = arithmRaw, rawArithm{stop: ']'}
	p.next()
	w := p.arithmRawWord()
	if p.tok != rightBrack {
		p.matchingErr(lpos, leftBrack, rightBrack)
	}
	p.quote, p.raw = old, oldRaw
	p.next()
	return w
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n':
		default:
			return false
		}
	}
	return true
}

// rawSlice reads the offset and length of ${name:offset:length}, from the
// first ':' (the current token) to the closing '}', and restores the quote
// state old.
func (p *Parser) rawSlice(pe *ParamExp, old quoteState) {
	oldRaw := p.raw
	p.quote, p.raw = arithmRaw, rawArithm{stop: '}', colons: true}
	p.next()
	pe.Slice.Offset = p.arithmRawWord()
	if p.tok == colon {
		p.raw.colons = false
		p.next()
		pe.Slice.Length = p.arithmRawWord()
	}
	p.quote, p.raw = old, oldRaw
	pe.Rbrace = p.pos
	if p.tok != rightBrace {
		p.matchingErr(pe.Dollar, dollBrace, rightBrace)
		return
	}
	p.next()
}

// rawLetParens reads the rest of a let argument like x=( 1 + 2 ), whose
// parentheses bash keeps in the word: w is the part before the '('.
func (p *Parser) rawLetParens(w *Word) *Word {
	lpos := p.pos
	old := p.preNested(arithmRaw)
	p.raw.stop = ')'
	p.next()
	inner := p.arithmRawWord()
	if p.tok != rightParen {
		p.matchingErr(lpos, leftParen, rightParen)
	}
	p.postNested(old)
	parts := append(w.Parts, p.lit(lpos, "("))
	parts = append(parts, inner.Parts...)
	parts = append(parts, p.lit(p.pos, ")"))
	p.next()
	return &Word{Parts: parts}
}
