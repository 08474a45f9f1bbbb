package awk

import (
	"strconv"
)

// Special variables hold the first global slots, so the interpreter finds
// them by index.
const (
	idxNF = iota
	idxNR
	idxFNR
	idxFS
	idxOFS
	idxORS
	idxRS
	idxFILENAME
	idxSUBSEP
	idxRSTART
	idxRLENGTH
	idxCONVFMT
	idxOFMT
	idxENVIRON
	idxARGC
	idxARGV
	idxRT
	idxERRNO
	idxPROCINFO
	idxIGNORECASE
	numSpecials
)

var specialNames = [numSpecials]string{
	"NF", "NR", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP",
	"RSTART", "RLENGTH", "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV", "RT",
	"ERRNO", "PROCINFO", "IGNORECASE",
}

// maxParseDepth bounds the parser's recursion, so a line of ten thousand
// '(' is a syntax error rather than a blown stack.
const maxParseDepth = 500

// parser is a recursive-descent parser over the lexer with one token of
// lookahead; it can snapshot and rewind for the few places awk's grammar
// needs more.
type parser struct {
	lex    *lexer
	tok    token
	prog   *program
	locals map[string]int // the parameters of the function being parsed
	fnName string
	srcs   *sourceMap
	depth  int
	// Context flags: inside print's arguments `>` redirects; inside a
	// for's init `in` is not an operator at the top level.
	noGT, noIn bool
	loops      int
	inFunc     bool
	rule       string // "BEGIN", "END", "BEGINFILE", "ENDFILE" or ""
	calls      []*callExpr
}

type snapshot struct {
	pos int
	tok token
}

func (p *parser) save() snapshot     { return snapshot{p.lex.pos, p.tok} }
func (p *parser) restore(s snapshot) { p.lex.pos, p.tok = s.pos, s.tok }

func (p *parser) advance() {
	p.tok = p.lex.next()
	if p.lex.err != nil {
		panic(p.lex.err)
	}
}

// fail stops parsing with gawk's message for the current token.
func (p *parser) fail(msg string) {
	panic(&syntaxError{pos: p.tok.pos, msg: msg, newline: p.tok.kind == tNewline || p.tok.kind == tEOF})
}

func (p *parser) expect(k tok) token {
	if p.tok.kind != k {
		p.fail("syntax error")
	}
	t := p.tok
	p.advance()
	return t
}

func (p *parser) optNewlines() {
	for p.tok.kind == tNewline {
		p.advance()
	}
}

// parse reads a whole program.
func parse(src string, srcs *sourceMap) (prog *program, warnings []lexWarning, err error) {
	prog = &program{funcs: map[string]*funcDef{}, globalIndex: map[string]int{}}
	for _, name := range specialNames {
		prog.globalIndex[name] = len(prog.globals)
		prog.globals = append(prog.globals, name)
	}
	p := &parser{lex: &lexer{src: src}, prog: prog, srcs: srcs}
	defer func() {
		warnings = p.lex.warnings
		if r := recover(); r != nil {
			se, ok := r.(*syntaxError)
			if !ok {
				panic(r)
			}
			err = se
		}
	}()
	p.advance()
	p.program()
	if err := p.resolveCalls(); err != nil {
		return nil, p.lex.warnings, err
	}
	return prog, p.lex.warnings, nil
}

func (p *parser) program() {
	p.skipTerminators()
	for p.tok.kind != tEOF {
		p.item()
		p.skipTerminators()
	}
}

func (p *parser) skipTerminators() {
	for p.tok.kind == tNewline || p.tok.kind == tSemi {
		p.advance()
	}
}

// item is one function definition or rule.
func (p *parser) item() {
	switch p.tok.kind {
	case tFunction:
		p.function()
	case tBEGIN, tEND, tBEGINFILE, tENDFILE:
		k, name := p.tok.kind, p.tok.text
		p.advance()
		if p.tok.kind != tLbrace {
			p.rule = ""
			panic(&syntaxError{pos: p.tok.pos, msg: name + " blocks must have an action part", bare: true})
		}
		p.rule = name
		body := p.block()
		p.rule = ""
		switch k {
		case tBEGIN:
			p.prog.begins = append(p.prog.begins, body)
		case tEND:
			p.prog.ends = append(p.prog.ends, body)
		case tBEGINFILE:
			p.prog.beginFiles = append(p.prog.beginFiles, body)
		default:
			p.prog.endFiles = append(p.prog.endFiles, body)
		}
	case tLbrace:
		p.prog.rules = append(p.prog.rules, &rule{pos: p.tok.pos, body: p.block()})
	default:
		r := &rule{pos: p.tok.pos, pattern: p.expr()}
		if p.tok.kind == tComma {
			p.advance()
			p.optNewlines()
			r.pattern2 = p.expr()
		}
		if p.tok.kind == tLbrace {
			r.body = p.block()
		}
		p.prog.rules = append(p.prog.rules, r)
	}
}

func (p *parser) function() {
	p.advance()
	if p.tok.kind != tName && p.tok.kind != tFuncName {
		p.fail("syntax error")
	}
	name, pos := p.tok.text, p.tok.pos
	if _, isSpecial := p.prog.globalIndex[name]; isSpecial && p.prog.globalIndex[name] < numSpecials {
		panic(&syntaxError{pos: p.tok.pos, msg: "function `" + name + "': cannot use special variable `" + name + "' as a function name", plain: true})
	}
	if _, dup := p.prog.funcs[name]; dup {
		panic(&syntaxError{pos: p.tok.pos, msg: "function name `" + name + "' previously defined", plain: true})
	}
	p.advance()
	p.expect(tLparen)
	fn := &funcDef{name: name, pos: pos}
	p.locals = map[string]int{}
	for p.tok.kind != tRparen {
		if p.tok.kind != tName {
			p.fail("syntax error")
		}
		if _, dup := p.locals[p.tok.text]; dup {
			panic(&syntaxError{pos: p.tok.pos, msg: "function `" + name + "': parameter #" + strconv.Itoa(len(fn.params)+1) + ", `" + p.tok.text + "', duplicates parameter #" + strconv.Itoa(p.locals[p.tok.text]+1), plain: true})
		}
		p.locals[p.tok.text] = len(fn.params)
		fn.params = append(fn.params, p.tok.text)
		p.advance()
		if p.tok.kind == tComma {
			p.advance()
			p.optNewlines()
		} else if p.tok.kind != tRparen {
			p.fail("syntax error")
		}
	}
	p.advance()
	p.optNewlines()
	p.prog.funcs[name] = fn
	p.inFunc, p.fnName = true, name
	fn.body = p.block()
	p.inFunc, p.locals, p.fnName = false, nil, ""
}

// resolveCalls binds each call to its function once all are defined.
func (p *parser) resolveCalls() error {
	for _, c := range p.calls {
		fn, ok := p.prog.funcs[c.name]
		if !ok {
			return &syntaxError{pos: c.pos, msg: "function `" + c.name + "' not defined", plain: true, fatal: true}
		}
		c.fn = fn
		if len(c.args) > len(fn.params) {
			p.lex.warn(c.pos, "function `"+c.name+"' called with more arguments than declared")
			c.args = c.args[:len(fn.params)]
		}
	}
	return nil
}

func (p *parser) block() *blockStmt {
	p.expect(tLbrace)
	b := &blockStmt{}
	p.skipTerminators()
	for p.tok.kind != tRbrace {
		if p.tok.kind == tEOF {
			p.fail("syntax error")
		}
		b.list = append(b.list, p.stmt())
		p.skipTerminators()
	}
	p.advance()
	return b
}

// varRef resolves a name to a local or global slot.
func (p *parser) varRef(name string) *varExpr {
	if p.locals != nil {
		if i, ok := p.locals[name]; ok {
			return &varExpr{scope: local, idx: i, name: name}
		}
	}
	i, ok := p.prog.globalIndex[name]
	if !ok {
		i = len(p.prog.globals)
		p.prog.globalIndex[name] = i
		p.prog.globals = append(p.prog.globals, name)
	}
	return &varExpr{scope: global, idx: i, name: name}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxParseDepth {
		panic(&syntaxError{pos: p.tok.pos, msg: "program nested too deeply", plain: true})
	}
}

func (p *parser) leave() { p.depth-- }
