package awk

// stmt parses one statement, including its terminator when it is simple.
func (p *parser) stmt() stmt {
	p.enter()
	defer p.leave()
	line := p.tok.pos
	switch p.tok.kind {
	case tLbrace:
		return p.block()
	case tIf:
		return p.ifStmt(line)
	case tWhile:
		p.advance()
		p.expect(tLparen)
		cond := p.expr()
		p.expect(tRparen)
		if p.tok.kind == tSemi {
			p.advance()
			return &whileStmt{cond: cond, body: &blockStmt{}, pos: line}
		}
		p.optNewlines()
		return &whileStmt{cond: cond, body: p.loopBody(), pos: line}
	case tDo:
		p.advance()
		p.optNewlines()
		body := p.loopBody()
		p.skipTerminators()
		p.expect(tWhile)
		p.expect(tLparen)
		cond := p.expr()
		p.expect(tRparen)
		p.endSimple()
		return &doStmt{body: body, cond: cond, pos: line}
	case tFor:
		return p.forStmt(line)
	case tSwitch:
		return p.switchStmt(line)
	case tSemi:
		p.advance()
		return &blockStmt{}
	}
	s := p.simpleStmt(line)
	p.endSimple()
	return s
}

// loopBody parses a loop's body with break and continue allowed.
func (p *parser) loopBody() stmt {
	p.loops++
	defer func() { p.loops-- }()
	return p.stmt()
}

// endSimple consumes a simple statement's terminator: ';', a newline, or
// nothing before '}' and the end of the program.
func (p *parser) endSimple() {
	switch p.tok.kind {
	case tSemi, tNewline:
		p.advance()
	case tRbrace, tEOF:
	default:
		p.fail("syntax error")
	}
}

func (p *parser) ifStmt(line int) stmt {
	p.advance()
	p.expect(tLparen)
	cond := p.expr()
	p.expect(tRparen)
	p.optNewlines()
	s := &ifStmt{cond: cond, pos: line}
	if p.tok.kind == tSemi {
		p.advance()
		s.yes = &blockStmt{}
	} else {
		s.yes = p.stmt()
	}
	// `if (c) x; else y` and an else on a later line both belong here.
	snap := p.save()
	p.skipTerminators()
	if p.tok.kind == tElse {
		p.advance()
		p.optNewlines()
		if p.tok.kind == tSemi {
			p.advance()
			s.no = &blockStmt{}
		} else {
			s.no = p.stmt()
		}
	} else {
		p.restore(snap)
	}
	return s
}

func (p *parser) forStmt(line int) stmt {
	p.advance()
	p.expect(tLparen)
	if s := p.tryForIn(line); s != nil {
		return s
	}
	f := &forStmt{pos: line}
	if p.tok.kind != tSemi {
		f.init = p.simpleStmt(line)
	}
	p.expect(tSemi)
	p.optNewlines()
	if p.tok.kind != tSemi {
		f.cond = p.expr()
	}
	p.expect(tSemi)
	p.optNewlines()
	if p.tok.kind != tRparen {
		f.post = p.simpleStmt(line)
	}
	p.expect(tRparen)
	if p.tok.kind == tSemi {
		p.advance()
		f.body = &blockStmt{}
		return f
	}
	p.optNewlines()
	f.body = p.loopBody()
	return f
}

// tryForIn parses `(key in arr)` after `for (`, or rewinds and returns nil.
func (p *parser) tryForIn(line int) stmt {
	snap := p.save()
	paren := false
	if p.tok.kind == tLparen {
		paren = true
		p.advance()
	}
	if p.tok.kind != tName {
		p.restore(snap)
		return nil
	}
	name := p.tok.text
	p.advance()
	if paren {
		if p.tok.kind != tRparen {
			p.restore(snap)
			return nil
		}
		p.advance()
	}
	if p.tok.kind != tIn {
		p.restore(snap)
		return nil
	}
	p.advance()
	if p.tok.kind != tName {
		p.restore(snap)
		return nil
	}
	arrName := p.tok.text
	p.advance()
	if p.tok.kind != tRparen {
		p.restore(snap)
		return nil
	}
	p.advance()
	s := &forInStmt{key: p.varRef(name), arr: p.varRef(arrName), pos: line}
	if p.tok.kind == tSemi {
		p.advance()
		s.body = &blockStmt{}
		return s
	}
	p.optNewlines()
	s.body = p.loopBody()
	return s
}

func (p *parser) switchStmt(line int) stmt {
	p.advance()
	p.expect(tLparen)
	s := &switchStmt{e: p.expr(), pos: line}
	p.expect(tRparen)
	p.optNewlines()
	p.expect(tLbrace)
	p.skipTerminators()
	p.loops++ // break leaves a switch
	defer func() { p.loops-- }()
	for p.tok.kind != tRbrace {
		var c switchCase
		switch p.tok.kind {
		case tCase:
			p.advance()
			if p.tok.kind == tDiv || p.tok.kind == tDivAssign {
				c.match = p.regexLiteral()
			} else {
				c.match = p.primary()
			}
		case tDefault:
			p.advance()
		default:
			p.fail("syntax error")
		}
		p.expect(tColon)
		p.skipTerminators()
		for p.tok.kind != tCase && p.tok.kind != tDefault && p.tok.kind != tRbrace {
			if p.tok.kind == tEOF {
				p.fail("syntax error")
			}
			c.body = append(c.body, p.stmt())
			p.skipTerminators()
		}
		s.cases = append(s.cases, c)
	}
	p.advance()
	return s
}

// simpleStmt parses a statement that ends at a terminator.
func (p *parser) simpleStmt(line int) stmt {
	switch p.tok.kind {
	case tPrint, tPrintf:
		return p.printStmt(line)
	case tNext:
		if p.rule != "" {
			p.plainError("`next' used in " + p.rule + " action")
		}
		p.advance()
		return &nextStmt{pos: line}
	case tNextfile:
		if p.rule == "BEGIN" || p.rule == "END" {
			p.plainError("`nextfile' used in " + p.rule + " action")
		}
		p.advance()
		return &nextfileStmt{pos: line}
	case tBreak:
		if p.loops == 0 {
			p.doubledError("`break' is not allowed outside a loop or switch")
		}
		p.advance()
		return &breakStmt{pos: line}
	case tContinue:
		if p.loops == 0 {
			p.doubledError("`continue' is not allowed outside a loop")
		}
		p.advance()
		return &continueStmt{pos: line}
	case tExit:
		p.advance()
		s := &exitStmt{pos: line}
		if !p.atTerminator() {
			s.e = p.expr()
		}
		return s
	case tReturn:
		if !p.inFunc {
			p.fail("`return' used outside function context")
		}
		p.advance()
		s := &returnStmt{pos: line}
		if !p.atTerminator() {
			s.e = p.expr()
		}
		return s
	case tDelete:
		return p.deleteStmt(line)
	}
	return &exprStmt{e: p.expr(), pos: line}
}

// plainError stops with a gawk "error:" line (no source excerpt).
func (p *parser) plainError(msg string) {
	panic(&syntaxError{pos: p.tok.pos, msg: msg, plain: true})
}

// doubledError is plainError for the two messages gawk prints twice.
func (p *parser) doubledError(msg string) {
	panic(&syntaxError{pos: p.tok.pos, msg: msg, plain: true, twice: true})
}

func (p *parser) atTerminator() bool {
	switch p.tok.kind {
	case tSemi, tNewline, tRbrace, tEOF:
		return true
	}
	return false
}

func (p *parser) deleteStmt(line int) stmt {
	p.advance()
	paren := false
	if p.tok.kind == tLparen {
		paren = true
		p.advance()
	}
	if p.tok.kind != tName {
		p.fail("syntax error")
	}
	s := &deleteStmt{arr: p.varRef(p.tok.text), pos: line}
	p.advance()
	if p.tok.kind == tLbracket {
		p.advance()
		s.subs = p.exprList(tRbracket)
		p.expect(tRbracket)
	}
	if paren {
		p.expect(tRparen)
	}
	return s
}

func (p *parser) printStmt(line int) stmt {
	s := &printStmt{printf: p.tok.kind == tPrintf, pos: line}
	p.advance()
	if !p.atTerminator() && p.tok.kind != tGT && p.tok.kind != tAppend && p.tok.kind != tPipe {
		saved := p.noGT
		p.noGT = true
		first := p.expr()
		if g, ok := first.(*groupExpr); ok && p.atPrintEnd() {
			s.args = g.list
		} else {
			s.args = append(s.args, first)
			for p.tok.kind == tComma {
				p.advance()
				p.optNewlines()
				s.args = append(s.args, p.expr())
			}
		}
		p.noGT = saved
	}
	switch p.tok.kind {
	case tGT, tAppend, tPipe:
		s.redir = p.tok.kind
		p.advance()
		saved := p.noGT
		p.noGT = true
		s.dest = p.concat()
		p.noGT = saved
	case tPipeAmp:
		p.fail("syntax error")
	}
	return s
}

func (p *parser) atPrintEnd() bool {
	switch p.tok.kind {
	case tGT, tAppend, tPipe:
		return true
	}
	return p.atTerminator()
}
