// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/internal"
	"mvdan.cc/sh/v3/syntax"
)

// This file evaluates arithmetic text the way bash does: the text of
// $((…)), ((…)), let and subscripts has been expanded already, and is
// parsed and evaluated only now. A variable's value is itself arithmetic
// text, evaluated when the variable is read. Errors read as bash's.

// ArithmError is an error in arithmetic text, worded as bash words it:
// "EXPR: MESSAGE (error token is "TOKEN")".
type ArithmError struct {
	Expr  string // the expression, without its leading blanks
	Msg   string
	Token string // the text from the token at fault to the end
	// NoToken leaves the "(error token is …)" part out.
	NoToken bool
}

func (e *ArithmError) Error() string {
	if e.NoToken {
		return e.Expr + ": " + e.Msg
	}
	return fmt.Sprintf("%s: %s (error token is \"%s\")", e.Expr, e.Msg, e.Token)
}

// maxArithmRecursion bounds how deeply variable values may be evaluated
// within one another, as bash's own limit does.
const maxArithmRecursion = 1024

// ArithmString evaluates arithmetic text that has already been expanded,
// as bash evaluates the argument of let.
func ArithmString(cfg *Config, text string) (int, error) {
	cfg = prepareConfig(cfg)
	n, err := cfg.arithmText(text, 0)
	return int(n), err
}

// arithmWord expands a word of arithmetic text, as in double quotes, and
// evaluates the result.
func (cfg *Config) arithmWord(w *syntax.Word) (int, error) {
	if lit, ok := singleLit(w); ok {
		if n, ok := smallDecimal(lit); ok {
			return n, nil // the common "1" or "i" needs no parsing
		}
	}
	field, err := cfg.wordField(w.Parts, quoteDouble)
	if err != nil {
		return 0, err
	}
	n, err := cfg.arithmText(cfg.fieldJoin(field), 0)
	return int(n), err
}

func singleLit(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return lit.Value, true
}

// smallDecimal parses a short decimal constant without leading zeros.
func smallDecimal(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 9 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// arithmText parses and evaluates text at a recursion depth.
func (cfg *Config) arithmText(text string, depth int) (int64, error) {
	if depth > maxArithmRecursion {
		return 0, &ArithmError{Expr: trimBlanks(text), Msg: "expression recursion level exceeded", Token: trimBlanks(text)}
	}
	if trimBlanks(text) == "" {
		return 0, nil
	}
	// The depth carries on into the parse: values evaluated within values
	// and the parentheses within each share one bound.
	p := &arithParser{src: text, depth: depth, maxDepth: depth}
	p.next()
	node, err := p.parse()
	if err != nil {
		return 0, err
	}
	ev := &arithEval{cfg: cfg, src: text, depth: p.maxDepth}
	return ev.eval(node)
}

func trimBlanks(s string) string {
	return strings.TrimLeft(s, " \t\n")
}

// Tokens of arithmetic text.
type arithTokKind int

const (
	atEOF arithTokKind = iota
	atNum
	atVar
	atOp
	atLParen
	atRParen
	atBad
)

type arithTok struct {
	kind arithTokKind
	text string // the operator, number or variable (with its subscript)
	pos  int    // where it starts in the source
}

// arithParser reads arithmetic text into a tree: bash's grammar, parsed
// before evaluation so that the branch a short-circuit skips is parsed but
// never evaluated.
type arithParser struct {
	src string
	i   int // next byte to read
	tok arithTok
	// last is where the last token that was not the end started: bash
	// reports errors from there.
	last int
	// prevVar says the token before tok was a variable, which makes "++"
	// a postfix increment.
	prevVar bool
	err     error
	// depth counts the nested parentheses, unary operators and
	// right-associative operators being parsed, which recurse, on top of
	// the depth of the value being evaluated; maxDepth is the deepest.
	depth, maxDepth int
}

// enter counts one level of recursion, failing past bash's limit: a
// deeply nested expression must not exhaust the stack.
func (p *arithParser) enter() bool {
	p.depth++
	p.maxDepth = max(p.maxDepth, p.depth)
	if p.depth > maxArithmRecursion {
		p.fail("expression recursion level exceeded")
		return false
	}
	return true
}

func (p *arithParser) leave() { p.depth-- }

func (p *arithParser) fail(msg string) {
	if p.err == nil {
		p.err = &ArithmError{Expr: trimBlanks(p.src), Msg: msg, Token: p.src[p.last:]}
	}
}

func (p *arithParser) failAt(msg, token string) {
	if p.err == nil {
		p.err = &ArithmError{Expr: token, Msg: msg, Token: token}
	}
}

func isArithBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func isNameStart(b byte) bool {
	return b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

func isNameByte(b byte) bool { return isNameStart(b) || (b >= '0' && b <= '9') }

// arithOps lists the operators, longest first.
var arithOps = []string{
	"<<=", ">>=", "**",
	"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
	"*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=",
	"+", "-", "*", "/", "%", "<", ">", "&", "^", "|", "!", "~", "?", ":", "=", ",",
}

func (p *arithParser) next() {
	wasVar := p.tok.kind == atVar
	for p.i < len(p.src) && isArithBlank(p.src[p.i]) {
		p.i++
	}
	if p.i >= len(p.src) {
		p.tok = arithTok{kind: atEOF, pos: p.i}
		p.prevVar = wasVar
		return
	}
	start := p.i
	p.last = start
	p.prevVar = wasVar
	c := p.src[p.i]
	switch {
	case c >= '0' && c <= '9':
		for p.i < len(p.src) && (isNameByte(p.src[p.i]) || p.src[p.i] == '#' || p.src[p.i] == '@') {
			p.i++
		}
		p.tok = arithTok{kind: atNum, text: p.src[start:p.i], pos: start}
	case isNameStart(c):
		for p.i < len(p.src) && isNameByte(p.src[p.i]) {
			p.i++
		}
		if p.i < len(p.src) && p.src[p.i] == '[' {
			end := matchingBracket(p.src, p.i)
			if end < 0 {
				p.tok = arithTok{kind: atVar, text: p.src[start:], pos: start}
				p.i = len(p.src)
				p.fail("bad array subscript")
				return
			}
			p.i = end + 1
		}
		p.tok = arithTok{kind: atVar, text: p.src[start:p.i], pos: start}
	case c == '(':
		p.i++
		p.tok = arithTok{kind: atLParen, text: "(", pos: start}
	case c == ')':
		p.i++
		p.tok = arithTok{kind: atRParen, text: ")", pos: start}
	default:
		for _, op := range arithOps {
			if strings.HasPrefix(p.src[p.i:], op) {
				if (op == "++" || op == "--") && !wasVar && !p.nameFollows(p.i+2) {
					op = op[:1] // not an increment: a sign
				}
				p.i += len(op)
				p.tok = arithTok{kind: atOp, text: op, pos: start}
				return
			}
		}
		// A byte that is no operator: where an operand is expected bash
		// says so, elsewhere it is an invalid operator.
		p.i++
		p.tok = arithTok{kind: atBad, text: string(c), pos: start}
	}
}

// nameFollows reports whether a variable name starts at i, after blanks.
func (p *arithParser) nameFollows(i int) bool {
	for i < len(p.src) && isArithBlank(p.src[i]) {
		i++
	}
	return i < len(p.src) && isNameStart(p.src[i])
}

// matchingBracket finds the ']' closing the '[' at i, or -1.
func matchingBracket(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// Nodes of the tree.
type (
	arithNode any
	arithNum  struct{ n int64 }
	arithVar  struct {
		name, sub string
		hasSub    bool
		text      string
		pos       int
	}
	arithUnary struct {
		op string
		x  arithNode
	}
	arithIncDec struct {
		op   string // "++" or "--"
		post bool
		v    *arithVar
	}
	// arithChain is first, then each link's operator and operand.
	arithChain struct {
		first arithNode
		rest  []arithLink
	}
	arithLink struct {
		op  string
		y   arithNode
		pos int // where an error in this link points
	}
	arithAssign struct {
		op string // "=", "+=", …
		v  *arithVar
		y  arithNode
	}
	arithCond struct{ c, t, f arithNode }
)

func (p *arithParser) parse() (arithNode, error) {
	n := p.comma()
	switch {
	case p.err != nil:
	case p.tok.kind == atBad:
		p.fail("syntax error: invalid arithmetic operator")
	case p.tok.kind != atEOF:
		p.fail("syntax error in expression")
	}
	return n, p.err
}

func (p *arithParser) isOp(ops ...string) bool {
	return p.tok.kind == atOp && slices.Contains(ops, p.tok.text)
}

func (p *arithParser) comma() arithNode {
	x := p.assign()
	if p.err != nil || !p.isOp(",") {
		return x
	}
	chain := &arithChain{first: x}
	for p.err == nil && p.isOp(",") {
		p.next()
		chain.rest = append(chain.rest, arithLink{op: ",", y: p.assign()})
	}
	return chain
}

func (p *arithParser) assign() arithNode {
	x := p.cond()
	if p.err != nil || !p.isOp("=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=") {
		return x
	}
	v, ok := x.(*arithVar)
	if !ok {
		p.fail("attempted assignment to non-variable")
		return nil
	}
	if !p.enter() {
		return nil
	}
	defer p.leave()
	op := p.tok.text
	p.next()
	y := p.assign()
	return &arithAssign{op: op, v: v, y: y}
}

func (p *arithParser) cond() arithNode {
	c := p.binary(0)
	if p.err != nil || !p.isOp("?") {
		return c
	}
	if !p.enter() {
		return nil
	}
	defer p.leave()
	p.next()
	if p.tok.kind == atEOF || p.isOp(":") {
		p.fail("expression expected")
		return nil
	}
	t := p.comma()
	if p.err != nil {
		return nil
	}
	if !p.isOp(":") {
		p.fail("`:' expected for conditional expression")
		return nil
	}
	p.next()
	if p.tok.kind == atEOF {
		p.fail("expression expected")
		return nil
	}
	f := p.cond()
	return &arithCond{c: c, t: t, f: f}
}

// binaryLevels are the binary operators from the loosest to the tightest.
var binaryLevels = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
	{"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}

// binary parses the left-associative operators of a level and tighter
// ones. A chain like 1+2+…+n is one node with a list, evaluated in a loop,
// however long it is.
func (p *arithParser) binary(level int) arithNode {
	if level == len(binaryLevels) {
		return p.power()
	}
	x := p.binary(level + 1)
	if p.err != nil || !p.isOp(binaryLevels[level]...) {
		return x
	}
	chain := &arithChain{first: x}
	for p.err == nil && p.isOp(binaryLevels[level]...) {
		op := p.tok.text
		p.next()
		y := p.binary(level + 1)
		chain.rest = append(chain.rest, arithLink{op: op, y: y, pos: p.last})
	}
	return chain
}

func (p *arithParser) power() arithNode {
	x := p.unary()
	if p.err == nil && p.isOp("**") {
		if !p.enter() {
			return nil
		}
		defer p.leave()
		p.next()
		y := p.power()
		return &arithChain{first: x, rest: []arithLink{{op: "**", y: y, pos: p.last}}}
	}
	return x
}

func (p *arithParser) unary() arithNode {
	if p.err != nil {
		return nil
	}
	switch {
	case p.isOp("!", "~", "-", "+"):
		if !p.enter() {
			return nil
		}
		defer p.leave()
		op := p.tok.text
		p.next()
		return &arithUnary{op: op, x: p.unary()}
	case p.isOp("++", "--"):
		op := p.tok.text
		p.next()
		if p.tok.kind != atVar {
			p.fail("syntax error: operand expected")
			return nil
		}
		v := p.variable()
		return &arithIncDec{op: op, v: v}
	}
	return p.primary()
}

func (p *arithParser) variable() *arithVar {
	text := p.tok.text
	v := &arithVar{name: text, text: text, pos: p.tok.pos}
	if i := strings.IndexByte(text, '['); i > 0 {
		v.name, v.sub, v.hasSub = text[:i], text[i+1:len(text)-1], true
	}
	p.next()
	return v
}

func (p *arithParser) primary() arithNode {
	switch p.tok.kind {
	case atNum:
		text := p.tok.text
		n, msg := parseArithNum(text)
		if msg != "" {
			p.failAt(msg, text)
			return nil
		}
		p.next()
		return &arithNum{n: n}
	case atVar:
		v := p.variable()
		if p.err == nil && p.isOp("++", "--") && p.prevVar {
			op := p.tok.text
			p.next()
			return &arithIncDec{op: op, post: true, v: v}
		}
		return v
	case atLParen:
		if !p.enter() {
			return nil
		}
		defer p.leave()
		p.next()
		x := p.comma()
		if p.err != nil {
			return nil
		}
		if p.tok.kind != atRParen {
			p.fail("missing `)'")
			return nil
		}
		p.next()
		return x
	}
	p.fail("syntax error: operand expected")
	return nil
}

// parseArithNum reads an integer constant as bash does: decimal, 0x hex,
// 0 octal, or BASE#DIGITS for bases 2 to 64, the base itself read in the
// base so far. msg is bash's complaint.
func parseArithNum(s string) (int64, string) {
	base, foundBase := int64(10), false
	if s[0] == '0' {
		s = s[1:]
		if s == "" {
			return 0, ""
		}
		base, foundBase = 8, true
		if s[0] == 'x' || s[0] == 'X' {
			base, s = 16, s[1:]
		}
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '#' {
			if foundBase {
				return 0, "invalid number"
			}
			if n < 2 || n > 64 {
				return 0, "invalid arithmetic base"
			}
			base, n, foundBase = n, 0, true
			if i+1 == len(s) || !isNumberByte(s[i+1]) {
				return 0, "invalid integer constant"
			}
			continue
		}
		var d int64
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c - 'A')
			if base > 36 {
				d += 36
			} else {
				d += 10
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		}
		if d >= base {
			return 0, "value too great for base"
		}
		n = n*base + d
	}
	return n, ""
}

func isNumberByte(c byte) bool { return isNameByte(c) || c == '@' }

// arithEval evaluates a tree.
type arithEval struct {
	cfg   *Config
	src   string
	depth int
}

func (e *arithEval) fail(msg, token string) error {
	return &ArithmError{Expr: trimBlanks(e.src), Msg: msg, Token: token}
}

func (e *arithEval) eval(n arithNode) (int64, error) {
	switch n := n.(type) {
	case *arithNum:
		return n.n, nil
	case *arithVar:
		return e.readVar(n)
	case *arithUnary:
		x, err := e.eval(n.x)
		if err != nil {
			return 0, err
		}
		switch n.op {
		case "!":
			return b2i(x == 0), nil
		case "~":
			return ^x, nil
		case "-":
			return -x, nil
		}
		return x, nil
	case *arithIncDec:
		old, err := e.readVar(n.v)
		if err != nil {
			return 0, err
		}
		val := old + 1
		if n.op == "--" {
			val = old - 1
		}
		if err := e.writeVar(n.v, val); err != nil {
			return 0, err
		}
		if n.post {
			return old, nil
		}
		return val, nil
	case *arithAssign:
		y, err := e.eval(n.y)
		if err != nil {
			return 0, err
		}
		val := y
		if n.op != "=" {
			x, err := e.readVar(n.v)
			if err != nil {
				return 0, err
			}
			if val, err = e.binop(strings.TrimSuffix(n.op, "="), x, y, n.v.text); err != nil {
				return 0, err
			}
		}
		return val, e.writeVar(n.v, val)
	case *arithCond:
		c, err := e.eval(n.c)
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return e.eval(n.t)
		}
		return e.eval(n.f)
	case *arithChain:
		x, err := e.eval(n.first)
		if err != nil {
			return 0, err
		}
		for _, l := range n.rest {
			switch l.op {
			case "&&":
				if x == 0 {
					continue // short-circuit: the operand is not evaluated
				}
			case "||":
				if x != 0 {
					x = 1
					continue
				}
			}
			y, err := e.eval(l.y)
			if err != nil {
				return 0, err
			}
			switch l.op {
			case "&&", "||":
				x = b2i(y != 0)
			case ",":
				x = y
			default:
				if x, err = e.binop(l.op, x, y, e.src[l.pos:]); err != nil {
					return 0, err
				}
			}
		}
		return x, nil
	}
	return 0, nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// binop applies a binary operator; token is where an error points.
func (e *arithEval) binop(op string, x, y int64, token string) (int64, error) {
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/", "%":
		if y == 0 {
			return 0, e.fail("division by 0", token)
		}
		if x == math.MinInt64 && y == -1 {
			if op == "/" {
				return x, nil
			}
			return 0, nil
		}
		if op == "/" {
			return x / y, nil
		}
		return x % y, nil
	case "**":
		if y < 0 {
			return 0, e.fail("exponent less than 0", token)
		}
		p := int64(1)
		for ; y > 0; y >>= 1 {
			if y&1 != 0 {
				p *= x
			}
			x *= x
		}
		return p, nil
	case "<<":
		return x << (uint64(y) & 63), nil
	case ">>":
		return x >> (uint64(y) & 63), nil
	case "<":
		return b2i(x < y), nil
	case ">":
		return b2i(x > y), nil
	case "<=":
		return b2i(x <= y), nil
	case ">=":
		return b2i(x >= y), nil
	case "==":
		return b2i(x == y), nil
	case "!=":
		return b2i(x != y), nil
	case "&":
		return x & y, nil
	case "^":
		return x ^ y, nil
	case "|":
		return x | y, nil
	}
	return 0, e.fail("syntax error: invalid arithmetic operator", token)
}

// lookup finds the variable a reference names, following namerefs.
func (e *arithEval) lookup(name string) (string, Variable) {
	vr := e.cfg.Env.Get(name)
	if n, v := vr.Resolve(e.cfg.Env); n != "" {
		return n, v
	}
	return name, vr
}

// readVar reads a variable or an element, and evaluates its value.
func (e *arithEval) readVar(v *arithVar) (int64, error) {
	_, vr := e.lookup(v.name)
	var val string
	var set bool
	switch {
	case !v.hasSub:
		switch vr.Kind {
		case Associative:
			val, set = vr.Map["0"]
		case Indexed:
			val, set = vr.indexedVal(0)
		default:
			val, set = vr.Str, vr.IsSet()
		}
	case vr.Kind == Associative:
		key, err := e.assocKey(v)
		if err != nil {
			return 0, err
		}
		val, set = vr.Map[key]
	default:
		i, err := e.index(v, vr)
		if err != nil {
			return 0, err
		}
		if vr.Kind == Indexed {
			val, set = vr.indexedVal(i)
		} else if i == 0 && vr.Kind != Unknown {
			val, set = vr.Str, vr.IsSet()
		}
	}
	if !set {
		if e.cfg.NoUnset {
			return 0, UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: v.text}}, Message: "unbound variable"}
		}
		return 0, nil
	}
	if n, ok := smallDecimal(val); ok {
		return int64(n), nil
	}
	if e.depth+1 > maxArithmRecursion {
		return 0, e.fail("expression recursion level exceeded", e.src[v.pos:])
	}
	return e.cfg.arithmText(val, e.depth+1)
}

// assocKey is the key a subscript names in an associative array: its text.
func (e *arithEval) assocKey(v *arithVar) (string, error) {
	if v.sub == "" {
		return "", e.badSubscript(v)
	}
	return unquoteKey(v.sub), nil
}

// unquoteKey removes the quotes of a key written in arithmetic text, as
// in A['key'] or A["a b"]; its expansions were made with the text's.
func unquoteKey(s string) string {
	if !strings.ContainsAny(s, `'"\`) {
		return s
	}
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'' && c != '\'':
			b.WriteByte(c)
		case c == '\'' && quote != '"':
			quote ^= '\''
		case c == '"' && quote != '\'':
			quote ^= '"'
		case c == '\\' && i+1 < len(s) && (quote == 0 || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0):
			i++
			b.WriteByte(s[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (e *arithEval) badSubscript(v *arithVar) error {
	return &ArithmError{Expr: v.text, Msg: "bad array subscript", NoToken: true}
}

// index evaluates an indexed array's subscript; a negative one counts
// back from the end.
func (e *arithEval) index(v *arithVar, vr Variable) (int, error) {
	if strings.TrimSpace(v.sub) == "" {
		return 0, e.badSubscript(v)
	}
	i, err := e.cfg.arithmText(v.sub, e.depth+1)
	if err != nil {
		return 0, err
	}
	if i < 0 {
		if vr.Kind == Indexed {
			i += int64(internal.IndexedMax(vr.List, vr.Indexes)) + 1
		} else if vr.IsSet() {
			i++
		}
		if i < 0 {
			return 0, e.badSubscript(v)
		}
	}
	return int(i), nil
}

// elemSetter is a [WriteEnviron] that can set one element of an array
// without building the array anew (gatehouse): SetElem sets element
// index of an indexed array, or key of an associative one, and reports
// false, having done nothing, when the write must go through Set.
type elemSetter interface {
	SetElem(name string, kind ValueKind, index int, key, val string) (bool, error)
}

// writeVar stores a number in a variable or an element.
func (e *arithEval) writeVar(v *arithVar, val int64) error {
	wenv, ok := e.cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	name, vr := e.lookup(v.name)
	str := strconv.FormatInt(val, 10)
	if !v.hasSub {
		switch vr.Kind {
		case Indexed:
			vr.List, vr.Indexes = internal.SetIndexedElem(slices.Clone(vr.List), slices.Clone(vr.Indexes), 0, str)
		case Associative:
			vr = AssocSet(vr, "0", str)
		default:
			vr.Kind, vr.Str = String, str
		}
		vr.Set = true
		return wenv.Set(name, vr)
	}
	switch vr.Kind {
	case Associative:
		key, err := e.assocKey(v)
		if err != nil {
			return err
		}
		if es, ok := wenv.(elemSetter); ok {
			if done, err := es.SetElem(name, Associative, 0, key, str); done {
				return err
			}
		}
		vr = AssocSet(vr, key, str)
	default:
		i, err := e.index(v, vr)
		if err != nil {
			return err
		}
		if es, ok := wenv.(elemSetter); ok && vr.Kind == Indexed {
			if done, err := es.SetElem(name, Indexed, i, "", str); done {
				return err
			}
		}
		var list []string
		var indexes []int
		switch vr.Kind {
		case Indexed:
			list, indexes = slices.Clone(vr.List), slices.Clone(vr.Indexes)
		case String:
			list = []string{vr.Str}
		}
		vr.Kind = Indexed
		vr.List, vr.Indexes = internal.SetIndexedElem(list, indexes, i, str)
	}
	vr.Set = true
	return wenv.Set(name, vr)
}
