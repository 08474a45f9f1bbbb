// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package syntax

import "strings"

// Bash reads the pattern list of an extended glob such as @(a|b) as part
// of the word around it: quotes, parameter expansions and command
// substitutions inside it are parsed, expanded when the word is and
// quoted where they were quoted, and everything else (blanks, '|', nested
// parentheses) is pattern text. In the bash dialect the parser reads such a
// list in the [extGlobRaw] state into [ExtGlob.Parts].

// rawExtGlobToken lexes one token of an extended glob's pattern list: a
// quote or an expansion, a nested extended glob's opening, the closing ')'
// (as [rightParen]) or literal text.
func (p *Parser) rawExtGlobToken(r rune) {
	switch {
	case r == runeEOF:
		p.tok = _EOF
	case r == '\'' || r == '"' || r == '`' || r == '$':
		p.tok = p.regToken(r)
	case p.raw.depth == 0 && r == ')':
		p.rune()
		p.tok = rightParen
	case isExtGlobOp(r) && p.peek() == '(':
		p.tok = extGlobOpToken(r)
		p.rune()
		p.rune()
	default:
		p.advanceLitExtGlobRaw(r)
	}
}

func isExtGlobOp(r rune) bool {
	return r == '?' || r == '*' || r == '+' || r == '@' || r == '!'
}

func extGlobOpToken(r rune) token {
	switch r {
	case '?':
		return globQuest
	case '*':
		return globStar
	case '+':
		return globPlus
	case '@':
		return globAt
	}
	return globExcl
}

func (p *Parser) advanceLitExtGlobRaw(r rune) {
	tok := _LitWord
loop:
	for p.newLit(r); r != runeEOF; r = p.rune() {
		switch r {
		case '\\': // escaped byte follows, kept for the pattern
			p.rune()
		case escNewl, '\'', '"', '`', '$':
			tok = _Lit
			break loop
		case '(':
			p.raw.depth++
		case ')':
			if p.raw.depth == 0 {
				break loop
			}
			p.raw.depth--
		case '?', '*', '+', '@', '!':
			if p.peek() == '(' {
				tok = _Lit
				break loop
			}
		}
	}
	p.tok, p.val = tok, p.endLit()
}

// extGlobParts reads an extended glob in the bash dialect, from its opening
// token (the current one) to its closing ')'.
func (p *Parser) extGlobParts() *ExtGlob {
	eg := &ExtGlob{Op: GlobOperator(p.tok), OpPos: p.pos}
	old := p.preNested(extGlobRaw)
	p.next()
	eg.Parts = p.wordParts(nil)
	if p.tok != rightParen {
		p.matchingErr(eg.OpPos, token(eg.Op), rightParen)
	}
	eg.Rparen = posAddCol(p.pos, 0)
	p.postNested(old)
	var sb strings.Builder
	pr := NewPrinter()
	for _, part := range eg.Parts {
		if lit, ok := part.(*Lit); ok {
			sb.WriteString(lit.Value)
			continue
		}
		pr.Print(&sb, part)
	}
	eg.Pattern = &Lit{ValuePos: posAddCol(eg.OpPos, 2), ValueEnd: eg.Rparen, Value: sb.String()}
	p.next()
	return eg
}
