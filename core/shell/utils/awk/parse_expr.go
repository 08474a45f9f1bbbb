package awk

import "strconv"

// expr parses an expression, assignments included (right associative).
func (p *parser) expr() expr {
	p.enter()
	defer p.leave()
	left := p.ternary()
	if isAssignOp(p.tok.kind) && isLvalue(left) {
		op := p.tok.kind
		p.advance()
		p.optNewlines()
		return &assignExpr{lhs: left, op: op, rhs: p.expr()}
	}
	return left
}

func isAssignOp(k tok) bool {
	switch k {
	case tAssign, tAddAssign, tSubAssign, tMulAssign, tDivAssign, tModAssign, tPowAssign:
		return true
	}
	return false
}

func isLvalue(e expr) bool {
	switch e.(type) {
	case *varExpr, *fieldExpr, *indexExpr:
		return true
	}
	return false
}

func (p *parser) ternary() expr {
	cond := p.or()
	if p.tok.kind != tQuestion {
		return cond
	}
	p.advance()
	p.optNewlines()
	yes := p.expr()
	p.optNewlines()
	p.expect(tColon)
	p.optNewlines()
	no := p.expr()
	return &condExpr{cond: cond, yes: yes, no: no}
}

func (p *parser) or() expr {
	left := p.and()
	for p.tok.kind == tOr {
		p.advance()
		p.optNewlines()
		left = &binaryExpr{op: tOr, l: left, r: p.and()}
	}
	return left
}

func (p *parser) and() expr {
	left := p.in()
	for p.tok.kind == tAnd {
		p.advance()
		p.optNewlines()
		left = &binaryExpr{op: tAnd, l: left, r: p.in()}
	}
	return left
}

func (p *parser) in() expr {
	left := p.match()
	for p.tok.kind == tIn && !p.noIn {
		p.advance()
		if p.tok.kind != tName {
			p.fail("syntax error")
		}
		subs := []expr{left}
		if g, ok := left.(*groupExpr); ok {
			subs = g.list
		}
		left = &inExpr{subs: subs, arr: p.varRef(p.tok.text)}
		p.advance()
	}
	return left
}

func (p *parser) match() expr {
	left := p.comparison()
	for p.tok.kind == tMatch || p.tok.kind == tNoMatch {
		neg := p.tok.kind == tNoMatch
		p.advance()
		left = &matchExpr{l: left, re: p.comparison(), neg: neg}
	}
	return left
}

func (p *parser) comparison() expr {
	left := p.pipeGetline()
	switch p.tok.kind {
	case tLT, tLE, tNE, tEQ, tGE:
	case tGT:
		if p.noGT {
			return left
		}
	default:
		return left
	}
	op := p.tok.kind
	p.advance()
	return &binaryExpr{op: op, l: left, r: p.pipeGetline()}
}

// pipeGetline parses `cmd | getline [var]`; inside print's arguments a '|'
// not followed by getline is the output pipe.
func (p *parser) pipeGetline() expr {
	left := p.concat()
	for p.tok.kind == tPipe {
		snap := p.save()
		p.advance()
		if p.tok.kind != tGetline {
			p.restore(snap)
			if p.noGT {
				return left
			}
			p.fail("syntax error")
		}
		p.advance()
		g := &getlineExpr{mode: getCmd, src: left}
		g.lhs = p.optLvalue()
		left = g
	}
	return left
}

// startsConcatOperand reports a token that begins another operand of an
// implicit concatenation (never + or -: `a -1` is a subtraction).
func (p *parser) startsConcatOperand() bool {
	switch p.tok.kind {
	case tNumber, tString, tName, tFuncName, tBuiltin, tDollar, tLparen, tIncr, tDecr, tNot:
		return true
	}
	return false
}

func (p *parser) concat() expr {
	left := p.additive()
	if !p.startsConcatOperand() {
		return left
	}
	parts := []expr{left}
	for p.startsConcatOperand() {
		parts = append(parts, p.additive())
	}
	return &concatExpr{parts: parts}
}

func (p *parser) additive() expr {
	left := p.multiplicative()
	for p.tok.kind == tAdd || p.tok.kind == tSub {
		op := p.tok.kind
		p.advance()
		left = p.fold(&binaryExpr{op: op, l: left, r: p.multiplicative()})
	}
	return left
}

func (p *parser) multiplicative() expr {
	left := p.unary()
	for p.tok.kind == tMul || p.tok.kind == tDiv || p.tok.kind == tMod {
		op, pos := p.tok.kind, p.tok.pos
		p.advance()
		b := &binaryExpr{op: op, l: left, r: p.unary()}
		if r, ok := b.r.(*numExpr); ok && r.v.n == 0 {
			if op != tMul {
				msg := "division by zero attempted"
				if op == tMod {
					msg += " in `%'"
				}
				panic(&syntaxError{pos: pos, msg: msg, plain: true})
			}
		}
		left = p.fold(b)
	}
	return left
}

// fold evaluates arithmetic on two number constants at parse time.
func (p *parser) fold(b *binaryExpr) expr {
	l, lok := b.l.(*numExpr)
	r, rok := b.r.(*numExpr)
	if !lok || !rok {
		return b
	}
	switch b.op {
	case tAdd:
		return &numExpr{num(l.v.n + r.v.n)}
	case tSub:
		return &numExpr{num(l.v.n - r.v.n)}
	case tMul:
		return &numExpr{num(l.v.n * r.v.n)}
	}
	return b
}

func (p *parser) unary() expr {
	p.enter()
	defer p.leave()
	switch p.tok.kind {
	case tNot:
		p.advance()
		return &unaryExpr{op: tNot, e: p.unary()}
	case tSub, tAdd:
		op := p.tok.kind
		p.advance()
		e := p.unary()
		if n, ok := e.(*numExpr); ok {
			if op == tSub {
				return &numExpr{num(-n.v.n)}
			}
			return n
		}
		return &unaryExpr{op: op, e: e}
	}
	return p.power()
}

// power is right associative and binds tighter than unary minus:
// -2^2 is -4, 2^-1 is 0.5, 2^3^2 is 512.
func (p *parser) power() expr {
	base := p.postfix()
	if p.tok.kind != tPow {
		return base
	}
	p.advance()
	var exp expr
	switch p.tok.kind {
	case tSub, tAdd, tNot:
		exp = p.unary()
	default:
		exp = p.power()
	}
	return &binaryExpr{op: tPow, l: base, r: exp}
}

func (p *parser) postfix() expr {
	switch p.tok.kind {
	case tIncr, tDecr:
		op := p.tok.kind
		p.advance()
		lhs := p.postfix()
		if !isLvalue(lhs) {
			p.fail("syntax error")
		}
		return &incDecExpr{lhs: lhs, pre: true, op: op}
	}
	e := p.primary()
	if (p.tok.kind == tIncr || p.tok.kind == tDecr) && isLvalue(e) {
		op := p.tok.kind
		p.advance()
		return &incDecExpr{lhs: e, op: op}
	}
	return e
}

func (p *parser) primary() expr {
	p.enter()
	defer p.leave()
	t := p.tok
	switch t.kind {
	case tNumber:
		p.advance()
		return &numExpr{num(t.num)}
	case tString:
		p.advance()
		return &strExpr{str(t.text)}
	case tDiv, tDivAssign:
		return p.regexLiteral()
	case tDollar:
		p.advance()
		var index expr
		switch p.tok.kind {
		case tIncr, tDecr:
			index = p.postfix()
		case tSub, tAdd, tNot:
			index = p.unary()
		default:
			index = p.primary()
		}
		f := &fieldExpr{index: index, fixed: -1}
		if n, ok := index.(*numExpr); ok && n.v.n >= 0 && n.v.n == float64(int(n.v.n)) && n.v.n < 1e7 {
			f.fixed = int(n.v.n)
		}
		return f
	case tLparen:
		return p.group()
	case tName:
		p.advance()
		if p.tok.kind == tLbracket {
			p.advance()
			subs := p.exprList(tRbracket)
			p.expect(tRbracket)
			return &indexExpr{arr: p.varRef(t.text), subs: subs}
		}
		return p.varRef(t.text)
	case tFuncName:
		return p.userCall()
	case tBuiltin:
		return p.builtinCall()
	case tGetline:
		p.advance()
		g := &getlineExpr{mode: getPlain}
		g.lhs = p.optLvalue()
		if p.tok.kind == tLT {
			p.advance()
			g.mode = getFile
			g.src = p.getlineSource()
		}
		return g
	}
	p.fail("syntax error")
	return nil
}

// getlineSource is the file after `getline <`: a primary, so
// `getline < dir "/" f` reads dir (as gawk does).
func (p *parser) getlineSource() expr {
	if p.tok.kind == tSub || p.tok.kind == tAdd || p.tok.kind == tNot {
		return p.unary()
	}
	return p.postfix()
}

func (p *parser) regexLiteral() expr {
	t := p.lex.regex(p.tok.pos)
	if p.lex.err != nil {
		panic(p.lex.err)
	}
	p.advance()
	re, err := compileRegex(t.text, true)
	if re != nil {
		for _, w := range re.warnings {
			p.lex.warn(t.pos, w)
		}
	}
	if err != nil {
		panic(&syntaxError{pos: t.pos, msg: err.Error() + ": /" + t.text + "/", plain: true})
	}
	return &regexExpr{src: t.text, re: re}
}

// group parses `( expr )` or the list `( a, b )` that precedes `in`.
func (p *parser) group() expr {
	p.advance()
	savedGT, savedIn := p.noGT, p.noIn
	p.noGT, p.noIn = false, false
	list := p.exprList(tRparen)
	p.noGT, p.noIn = savedGT, savedIn
	p.expect(tRparen)
	if len(list) == 1 {
		return &parenExpr{e: list[0]}
	}
	return &groupExpr{list: list}
}

// exprList parses comma-separated expressions up to (not including) end.
func (p *parser) exprList(end tok) []expr {
	savedGT, savedIn := p.noGT, p.noIn
	p.noGT, p.noIn = false, false
	defer func() { p.noGT, p.noIn = savedGT, savedIn }()
	var list []expr
	if p.tok.kind == end {
		p.fail("syntax error")
	}
	for {
		list = append(list, p.expr())
		if p.tok.kind != tComma {
			break
		}
		p.advance()
		p.optNewlines()
	}
	return list
}

// optLvalue parses the variable after getline, if there is one.
func (p *parser) optLvalue() expr {
	switch p.tok.kind {
	case tDollar:
		return p.primary()
	case tName:
		t := p.tok
		p.advance()
		if p.tok.kind == tLbracket {
			p.advance()
			subs := p.exprList(tRbracket)
			p.expect(tRbracket)
			return &indexExpr{arr: p.varRef(t.text), subs: subs}
		}
		return p.varRef(t.text)
	}
	return nil
}

func (p *parser) userCall() expr {
	t := p.tok
	p.advance()
	p.expect(tLparen)
	c := &callExpr{name: t.text, pos: t.pos}
	if p.tok.kind != tRparen {
		c.args = p.exprList(tRparen)
	}
	p.expect(tRparen)
	p.calls = append(p.calls, c)
	return c
}

// arityError is gawk's complaint about a builtin's argument count.
func (p *parser) arityError(n int, name string) {
	p.fail(strconv.Itoa(n) + " is invalid as number of arguments for " + name)
}
