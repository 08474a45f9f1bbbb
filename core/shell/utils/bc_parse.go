package utils

import "strings"

// bc's language: a lexer and a recursive-descent parser building a small
// syntax tree that bc_eval.go runs.

type bcTokKind int

const (
	bcEOF bcTokKind = iota
	bcNewline
	bcNumber
	bcName
	bcString
	bcOp
)

type bcTok struct {
	kind bcTokKind
	text string
	line int
}

// bcLex splits a program; a bad character is reported as a token "?".
func bcLex(src string) []bcTok {
	var toks []bcTok
	line := 1
	ops := []string{"++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "&&", "||",
		"+", "-", "*", "/", "%", "^", "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ";"}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			toks = append(toks, bcTok{bcNewline, "\n", line})
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
			line++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case c == '"':
			end := strings.IndexByte(src[i+1:], '"')
			if end < 0 {
				end = len(src) - i - 1
			}
			text := src[i+1 : i+1+end]
			toks = append(toks, bcTok{bcString, text, line})
			line += strings.Count(text, "\n")
			i += end + 2
		case c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c == '.':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] >= 'A' && src[j] <= 'F' || src[j] == '.' || src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n') {
				if src[j] == '\\' {
					j++
					line++
				}
				j++
			}
			text := strings.ReplaceAll(src[i:j], "\\\n", "")
			if text == "." {
				toks = append(toks, bcTok{bcName, "last", line})
			} else {
				toks = append(toks, bcTok{bcNumber, text, line})
			}
			i = j
		case c >= 'a' && c <= 'z':
			j := i
			for j < len(src) && (src[j] >= 'a' && src[j] <= 'z' || src[j] >= '0' && src[j] <= '9' || src[j] == '_') {
				j++
			}
			toks = append(toks, bcTok{bcName, src[i:j], line})
			i = j
		default:
			op := ""
			for _, o := range ops {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				toks = append(toks, bcTok{bcOp, "?" + string(c), line})
				i++
				continue
			}
			toks = append(toks, bcTok{bcOp, op, line})
			i += len(op)
		}
	}
	return append(toks, bcTok{bcEOF, "", line})
}

// bcNode is an expression or statement.
type bcNode struct {
	kind  string // "num", "var", "elem", "call", "bin", "un", "assign", "pre", "post", "not", "str", "print", "block", "if", "while", "for", "break", "continue", "return", "quit", "halt", "define", "expr", "empty"
	text  string // number text, name, operator, string
	kids  []*bcNode
	names []string // define: params; then autos after autoAt
	at    int      // define: where the autos start in names
	line  int
}

// bcParser builds nodes from tokens.
type bcParser struct {
	toks  []bcTok
	pos   int
	depth int // how many nested constructs are being parsed
}

// bcMaxNesting bounds how deeply a program's constructs nest, in the
// parser's recursion and in the tree it builds, which every evaluation
// walks recursively: a few million "(" or "1+1+…" would exhaust the
// goroutine's stack, which ends the whole process (G-12.3).
const bcMaxNesting = 2000

const bcNestingMsg = "nesting too deep (limit 2000)"

// enter counts one more nested construct; leave undoes it.
func (p *bcParser) enter() *bcSyntaxError {
	if p.depth++; p.depth > bcMaxNesting {
		return &bcSyntaxError{p.peek().line, bcNestingMsg}
	}
	return nil
}

func (p *bcParser) leave() { p.depth-- }

// bcTreeDepth is how deep a parsed statement's tree is, measured without
// recursion (a chain of left-associative operators is as deep as long).
func bcTreeDepth(n *bcNode) int {
	type item struct {
		n *bcNode
		d int
	}
	deepest := 0
	stack := []item{{n, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		deepest = max(deepest, it.d)
		for _, k := range it.n.kids {
			stack = append(stack, item{k, it.d + 1})
		}
	}
	return deepest
}

// bcSyntaxError carries the line of a parse failure.
type bcSyntaxError struct {
	line int
	msg  string
}

func (p *bcParser) peek() bcTok { return p.toks[p.pos] }

func (p *bcParser) next() bcTok {
	t := p.toks[p.pos]
	if t.kind != bcEOF {
		p.pos++
	}
	return t
}

func (p *bcParser) is(text string) bool {
	t := p.peek()
	return (t.kind == bcOp || t.kind == bcName) && t.text == text
}

func (p *bcParser) fail() *bcSyntaxError {
	t := p.peek()
	if t.kind == bcOp && strings.HasPrefix(t.text, "?") {
		return &bcSyntaxError{t.line, "illegal character: " + t.text[1:]}
	}
	return &bcSyntaxError{t.line, "syntax error"}
}

func (p *bcParser) expect(text string) *bcSyntaxError {
	if !p.is(text) {
		return p.fail()
	}
	p.next()
	return nil
}

// skipNewlines passes blank lines where the grammar allows them.
func (p *bcParser) skipNewlines() {
	for p.peek().kind == bcNewline || p.is(";") {
		p.next()
	}
}

// statement parses one statement; nil means an empty one.
func (p *bcParser) statement() (*bcNode, *bcSyntaxError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.peek()
	line := t.line
	switch {
	case t.kind == bcNewline || p.is(";") || t.kind == bcEOF:
		return &bcNode{kind: "empty", line: line}, nil
	case t.kind == bcString:
		p.next()
		return &bcNode{kind: "str", text: t.text, line: line}, nil
	case p.is("{"):
		p.next()
		return p.blockBody(line)
	case t.kind == bcName:
		if s, err, ok := p.keywordStatement(); ok {
			return s, err
		}
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &bcNode{kind: "expr", kids: []*bcNode{e}, line: line}, nil
}

// blockBody parses statements up to the "}" closing a block whose "{"
// was read.
func (p *bcParser) blockBody(line int) (*bcNode, *bcSyntaxError) {
	block := &bcNode{kind: "block", line: line}
	for {
		p.skipNewlines()
		if p.is("}") {
			p.next()
			return block, nil
		}
		if p.peek().kind == bcEOF {
			return nil, p.fail()
		}
		s, err := p.statement()
		if err != nil {
			return nil, err
		}
		block.kids = append(block.kids, s)
	}
}

// keywordStatement parses the statements that start with a keyword; ok
// is false for any other name.
func (p *bcParser) keywordStatement() (s *bcNode, err *bcSyntaxError, ok bool) {
	t := p.peek()
	line := t.line
	switch t.text {
	case "if", "while":
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err, true
		}
		cond, err := p.expr()
		if err != nil {
			return nil, err, true
		}
		if err := p.expect(")"); err != nil {
			return nil, err, true
		}
		p.skipNewlines()
		body, err := p.statement()
		if err != nil {
			return nil, err, true
		}
		n := &bcNode{kind: t.text, kids: []*bcNode{cond, body}, line: line}
		if t.text == "if" {
			save := p.pos
			for p.peek().kind == bcNewline {
				p.next()
			}
			if p.is("else") {
				p.next()
				p.skipNewlines()
				alt, err := p.statement()
				if err != nil {
					return nil, err, true
				}
				n.kids = append(n.kids, alt)
			} else {
				p.pos = save
			}
		}
		return n, nil, true
	case "for":
		return p.forStatement()
	case "break", "continue", "quit", "halt":
		p.next()
		return &bcNode{kind: t.text, line: line}, nil, true
	case "return":
		p.next()
		n := &bcNode{kind: "return", line: line}
		if pt := p.peek(); pt.kind != bcNewline && !p.is(";") && !p.is("}") && pt.kind != bcEOF {
			e, err := p.expr()
			if err != nil {
				return nil, err, true
			}
			n.kids = []*bcNode{e}
		}
		return n, nil, true
	case "print":
		p.next()
		n := &bcNode{kind: "print", line: line}
		for {
			if p.peek().kind == bcString {
				n.kids = append(n.kids, &bcNode{kind: "str", text: p.next().text})
			} else {
				e, err := p.expr()
				if err != nil {
					return nil, err, true
				}
				n.kids = append(n.kids, e)
			}
			if !p.is(",") {
				return n, nil, true
			}
			p.next()
		}
	case "define":
		return p.define()
	}
	return nil, nil, false
}

// forStatement parses for (init; cond; step) body.
func (p *bcParser) forStatement() (*bcNode, *bcSyntaxError, bool) {
	line := p.next().line
	if err := p.expect("("); err != nil {
		return nil, err, true
	}
	n := &bcNode{kind: "for", line: line}
	for _, end := range []string{";", ";", ")"} {
		if p.is(end) {
			n.kids = append(n.kids, &bcNode{kind: "empty"})
		} else {
			e, err := p.expr()
			if err != nil {
				return nil, err, true
			}
			n.kids = append(n.kids, e)
		}
		if err := p.expect(end); err != nil {
			return nil, err, true
		}
	}
	p.skipNewlines()
	body, err := p.statement()
	if err != nil {
		return nil, err, true
	}
	n.kids = append(n.kids, body)
	return n, nil, true
}

// define parses a function definition.
func (p *bcParser) define() (*bcNode, *bcSyntaxError, bool) {
	line := p.next().line
	name := p.next()
	if name.kind != bcName {
		return nil, p.fail(), true
	}
	n := &bcNode{kind: "define", text: name.text, line: line}
	if err := p.expect("("); err != nil {
		return nil, err, true
	}
	for !p.is(")") {
		t := p.next()
		if t.kind != bcName {
			return nil, p.fail(), true
		}
		param := t.text
		if p.is("[") {
			p.next()
			if err := p.expect("]"); err != nil {
				return nil, err, true
			}
			param += "[]"
		}
		n.names = append(n.names, param)
		if p.is(",") {
			p.next()
		}
	}
	p.next()
	p.skipNewlinesOnly()
	if err := p.expect("{"); err != nil {
		return nil, err, true
	}
	n.at = len(n.names)
	p.skipNewlines()
	if p.is("auto") {
		p.next()
		for {
			t := p.next()
			if t.kind != bcName {
				return nil, p.fail(), true
			}
			name := t.text
			if p.is("[") {
				p.next()
				if err := p.expect("]"); err != nil {
					return nil, err, true
				}
				name += "[]"
			}
			n.names = append(n.names, name)
			if !p.is(",") {
				break
			}
			p.next()
		}
	}
	body, err := p.blockBody(line)
	if err != nil {
		return nil, err, true
	}
	n.kids = []*bcNode{body}
	return n, nil, true
}

func (p *bcParser) skipNewlinesOnly() {
	for p.peek().kind == bcNewline {
		p.next()
	}
}

// expr parses an expression, loosest operators first.
func (p *bcParser) expr() (*bcNode, *bcSyntaxError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	return p.binaryLevel([][]string{{"||"}, {"&&"}}, 0)
}

// binaryLevel parses the left-associative logical levels, then the rest.
func (p *bcParser) binaryLevel(levels [][]string, i int) (*bcNode, *bcSyntaxError) {
	if i == len(levels) {
		return p.notExpr()
	}
	left, err := p.binaryLevel(levels, i+1)
	if err != nil {
		return nil, err
	}
	for {
		found := ""
		for _, op := range levels[i] {
			if p.is(op) {
				found = op
			}
		}
		if found == "" {
			return left, nil
		}
		p.next()
		right, err := p.binaryLevel(levels, i+1)
		if err != nil {
			return nil, err
		}
		left = &bcNode{kind: "bin", text: found, kids: []*bcNode{left, right}}
	}
}

func (p *bcParser) notExpr() (*bcNode, *bcSyntaxError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if p.is("!") {
		p.next()
		e, err := p.notExpr()
		if err != nil {
			return nil, err
		}
		return &bcNode{kind: "not", kids: []*bcNode{e}}, nil
	}
	left, err := p.assignExpr()
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"==", "<=", ">=", "!=", "<", ">"} {
		if p.is(op) {
			p.next()
			right, err := p.assignExpr()
			if err != nil {
				return nil, err
			}
			return &bcNode{kind: "bin", text: op, kids: []*bcNode{left, right}}, nil
		}
	}
	return left, nil
}

// assignExpr parses LVALUE OP= EXPR (right associative) or a sum.
func (p *bcParser) assignExpr() (*bcNode, *bcSyntaxError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	left, err := p.sumExpr()
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"=", "+=", "-=", "*=", "/=", "%=", "^="} {
		if p.is(op) {
			if left.kind != "var" && left.kind != "elem" {
				return nil, p.fail()
			}
			p.next()
			right, err := p.assignExpr()
			if err != nil {
				return nil, err
			}
			return &bcNode{kind: "assign", text: op, kids: []*bcNode{left, right}}, nil
		}
	}
	return left, nil
}

func (p *bcParser) sumExpr() (*bcNode, *bcSyntaxError) {
	return p.leftOps([]string{"+", "-"}, p.productExpr)
}

func (p *bcParser) productExpr() (*bcNode, *bcSyntaxError) {
	return p.leftOps([]string{"*", "/", "%"}, p.powExpr)
}

func (p *bcParser) leftOps(ops []string, next func() (*bcNode, *bcSyntaxError)) (*bcNode, *bcSyntaxError) {
	left, err := next()
	if err != nil {
		return nil, err
	}
	for {
		found := ""
		for _, op := range ops {
			if p.is(op) {
				found = op
			}
		}
		if found == "" {
			return left, nil
		}
		p.next()
		right, err := next()
		if err != nil {
			return nil, err
		}
		left = &bcNode{kind: "bin", text: found, kids: []*bcNode{left, right}}
	}
}

// powExpr: ^ is right associative and binds looser than unary minus.
func (p *bcParser) powExpr() (*bcNode, *bcSyntaxError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	base, err := p.unaryExpr()
	if err != nil {
		return nil, err
	}
	if p.is("^") {
		p.next()
		exp, err := p.powExpr()
		if err != nil {
			return nil, err
		}
		return &bcNode{kind: "bin", text: "^", kids: []*bcNode{base, exp}}, nil
	}
	return base, nil
}

func (p *bcParser) unaryExpr() (*bcNode, *bcSyntaxError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	switch {
	case p.is("-"):
		p.next()
		e, err := p.unaryExpr()
		if err != nil {
			return nil, err
		}
		return &bcNode{kind: "un", text: "-", kids: []*bcNode{e}}, nil
	case p.is("++"), p.is("--"):
		op := p.next().text
		e, err := p.primary()
		if err != nil {
			return nil, err
		}
		if e.kind != "var" && e.kind != "elem" {
			return nil, p.fail()
		}
		return &bcNode{kind: "pre", text: op, kids: []*bcNode{e}}, nil
	}
	e, err := p.primary()
	if err != nil {
		return nil, err
	}
	if (p.is("++") || p.is("--")) && (e.kind == "var" || e.kind == "elem") {
		return &bcNode{kind: "post", text: p.next().text, kids: []*bcNode{e}}, nil
	}
	return e, nil
}

// primary parses a number, a name (variable, array element, call or
// built-in) or a parenthesised expression.
func (p *bcParser) primary() (*bcNode, *bcSyntaxError) {
	t := p.next()
	switch t.kind {
	case bcNumber:
		return &bcNode{kind: "num", text: t.text}, nil
	case bcOp:
		if t.text != "(" {
			p.pos--
			return nil, p.fail()
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		return e, p.expect(")")
	case bcName:
		switch t.text {
		case "if", "while", "for", "define", "auto", "else", "print", "return", "break", "continue", "quit", "halt":
			p.pos--
			return nil, p.fail()
		}
		if p.is("(") {
			p.next()
			call := &bcNode{kind: "call", text: t.text}
			for !p.is(")") {
				if p.peek().kind == bcName && p.toks[p.pos+1].text == "[" && p.toks[p.pos+2].text == "]" {
					call.kids = append(call.kids, &bcNode{kind: "array", text: p.next().text})
					p.pos += 2
				} else {
					e, err := p.expr()
					if err != nil {
						return nil, err
					}
					call.kids = append(call.kids, e)
				}
				if !p.is(",") {
					break
				}
				p.next()
			}
			return call, p.expect(")")
		}
		if p.is("[") {
			p.next()
			idx, err := p.expr()
			if err != nil {
				return nil, err
			}
			return &bcNode{kind: "elem", text: t.text, kids: []*bcNode{idx}}, p.expect("]")
		}
		return &bcNode{kind: "var", text: t.text}, nil
	}
	p.pos--
	return nil, p.fail()
}
