package utils

import (
	"errors"
	"io"
	"math/big"
	"strconv"
	"strings"
)

const bcHelp = `usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -l  --mathlib      use the predefined math routines (scale 20; s c a l e j)
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
`

var bcOpts = []optDef{
	{short: 'h', long: "help"},
	{short: 'i', long: "interactive"},
	{short: 'l', long: "mathlib"},
	{short: 'q', long: "quiet"},
	{short: 's', long: "standard"},
	{short: 'w', long: "warn"},
	{short: 'v', long: "version"},
}

// bcUtility makes the bc utility (see builtins).
func bcUtility(string) *Utility {
	return &Utility{
		Name:        "bc",
		Run:         runBc,
		Operands:    inputOperands(bcOpts, parseMode{}),
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "File " + arg + " is unavailable.\n" },
		Help:        bcHelp,
	}
}

// Control flow inside bc programs.
var (
	errBcBreak    = errors.New("break")
	errBcContinue = errors.New("continue")
	errBcQuit     = errors.New("quit")
)

type bcReturn struct{ v bcNum }

func (bcReturn) Error() string { return "return" }

// bcRuntimeError is a run-time failure; bc reports it and goes on with
// the next statement.
type bcRuntimeError struct{ msg string }

func (e *bcRuntimeError) Error() string { return e.msg }

// bcSourceCost is what parsing takes per byte of a program's text, at
// most: a token of 32 bytes a byte, slices grown by doubling, the nodes.
const bcSourceCost = 160

// bcVM is the state of one bc run.
type bcVM struct {
	t                   *tool
	vars                map[string]bcNum
	arrays              map[string]map[int64]bcNum
	funcs               map[string]*bcNode
	scale, ibase, obase int
	last                bcNum
	mathlib             bool
	standard            bool // -s: strings do not count towards the line length
	lineLen             int
	col                 int
	source              string
	calls               int // functions running within each other
}

func runBc(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "bc", defs: bcOpts, usageExit: 1, help: bcHelp, version: "bc 1.07.1\n"})
	if done {
		return t.end(status)
	}
	vm := &bcVM{t: t, vars: map[string]bcNum{}, arrays: map[string]map[int64]bcNum{}, funcs: map[string]*bcNode{},
		ibase: 10, obase: 10, last: bcInt(0), lineLen: 70}
	if n, err := strconv.Atoi(e.Getenv("BC_LINE_LENGTH")); err == nil && n >= 0 {
		vm.lineLen = n
	}
	if args.has("mathlib") {
		vm.mathlib, vm.scale = true, 20
	}
	vm.standard = args.has("standard") || e.Getenv("POSIXLY_CORRECT") != ""
	for _, name := range args.operandStrings(e.Args) {
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.rawStderr("File " + name + " is unavailable.\n")
			return t.end(1)
		}
		data, err := io.ReadAll(in)
		closeIn()
		if err != nil {
			t.rawStderr("File " + name + " is unavailable.\n")
			return t.end(1)
		}
		vm.source = name
		if vm.run(string(data)) {
			return t.end(0)
		}
	}
	data, _ := io.ReadAll(t.stdin())
	vm.source = "(standard_in)"
	vm.run(string(data))
	return t.end(0)
}

// run parses and runs a program statement by statement; it reports
// whether the program quit.
func (vm *bcVM) run(src string) bool {
	// The program's tokens and trees take up to bcSourceCost bytes for
	// each byte of its text (3 MB of "1+1+…" held 800 MB).
	hold := int64(len(src)) * bcSourceCost
	if vm.t.env.Grow(hold) != nil {
		return true // the line has ended with the budget's error
	}
	defer vm.t.env.Grow(-hold)
	p := &bcParser{toks: bcLex(src)}
	for !vm.t.stopped() {
		p.skipNewlines()
		if p.peek().kind == bcEOF {
			return false
		}
		s, serr := p.statement()
		if serr == nil && bcTreeDepth(s) > bcMaxNesting {
			serr = &bcSyntaxError{p.peek().line, bcNestingMsg}
		}
		if serr != nil {
			line := serr.line
			if p.peek().kind == bcNewline {
				line++ // bc has counted the newline it stopped at
			}
			vm.t.rawStderr(vm.source + " " + strconv.Itoa(line) + ": " + serr.msg + "\n")
			for p.peek().kind != bcNewline && p.peek().kind != bcEOF {
				p.next()
			}
			continue
		}
		if s.kind == "quit" {
			return true
		}
		if s.kind == "define" {
			vm.funcs[s.text] = s
			continue
		}
		err := vm.exec(s)
		var rt *bcRuntimeError
		switch {
		case errors.Is(err, errBcQuit):
			return true
		case errors.As(err, &rt):
			vm.t.rawStderr("Runtime error (func=(main), adr=" + strconv.Itoa(vm.adr(s)) + "): " + rt.msg + "\n")
			// The rest of the line is abandoned, as bc abandons it.
			for p.peek().kind != bcNewline && p.peek().kind != bcEOF {
				p.next()
			}
		}
	}
	return false
}

// adr approximates the code address GNU bc names in a run-time error.
func (vm *bcVM) adr(s *bcNode) int {
	n := 0
	var walk func(*bcNode)
	walk = func(x *bcNode) {
		n++
		for _, k := range x.kids {
			walk(k)
		}
	}
	walk(s)
	return n
}

// exec runs one statement.
func (vm *bcVM) exec(s *bcNode) error {
	if vm.t.stopped() {
		return errBcQuit
	}
	switch s.kind {
	case "empty":
		return nil
	case "str":
		vm.writeText(s.text)
		return nil
	case "expr":
		v, err := vm.eval(s.kids[0])
		if err != nil {
			return err
		}
		if s.kids[0].kind != "assign" {
			vm.printNum(v)
			vm.t.writeByte('\n')
			vm.col = 0
			vm.last = v
		}
		return nil
	case "print":
		return vm.print(s)
	case "block":
		for _, k := range s.kids {
			if err := vm.exec(k); err != nil {
				return err
			}
		}
		return nil
	case "if":
		return vm.execIf(s)
	case "while", "for":
		return vm.loop(s)
	case "break":
		return errBcBreak
	case "continue":
		return errBcContinue
	case "return":
		v := bcInt(0)
		if len(s.kids) > 0 {
			var err error
			if v, err = vm.eval(s.kids[0]); err != nil {
				return err
			}
		}
		return bcReturn{v}
	case "halt", "quit":
		return errBcQuit
	case "define":
		vm.funcs[s.text] = s
	}
	return nil
}

func (vm *bcVM) execIf(s *bcNode) error {
	c, err := vm.eval(s.kids[0])
	if err != nil {
		return err
	}
	if !c.isZero() {
		return vm.exec(s.kids[1])
	}
	if len(s.kids) > 2 {
		return vm.exec(s.kids[2])
	}
	return nil
}

// loop runs while and for.
func (vm *bcVM) loop(s *bcNode) error {
	cond, body := s.kids[0], s.kids[1]
	var step *bcNode
	if s.kind == "for" {
		if s.kids[0].kind != "empty" {
			if _, err := vm.eval(s.kids[0]); err != nil {
				return err
			}
		}
		cond, step, body = s.kids[1], s.kids[2], s.kids[3]
	}
	for !vm.t.stopped() {
		if cond.kind != "empty" {
			c, err := vm.eval(cond)
			if err != nil {
				return err
			}
			if c.isZero() {
				return nil
			}
		}
		err := vm.exec(body)
		switch {
		case errors.Is(err, errBcBreak):
			return nil
		case err != nil && !errors.Is(err, errBcContinue):
			return err
		}
		if step != nil && step.kind != "empty" {
			if _, err := vm.eval(step); err != nil {
				return err
			}
		}
	}
	return errBcQuit
}

// print runs a print statement: strings with their escapes, numbers.
func (vm *bcVM) print(s *bcNode) error {
	for _, k := range s.kids {
		if k.kind == "str" {
			vm.writeText(bcEscapes(k.text))
			continue
		}
		v, err := vm.eval(k)
		if err != nil {
			return err
		}
		vm.printNum(v)
		vm.last = v
	}
	return nil
}

// bcEscapes applies print's backslash escapes.
func bcEscapes(s string) string {
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\a`, "\a", `\b`, "\b", `\f`, "\f", `\r`, "\r", `\q`, `"`, `\e`, `\`)
	return r.Replace(s)
}

// printNum writes a number, breaking lines at the line length as bc
// does (a backslash, then a newline).
func (vm *bcVM) printNum(v bcNum) {
	text := bcFormat(v, vm.obase, vm.t.stopped)
	for _, c := range []byte(text) {
		vm.writeChar(c)
	}
}

// writeText writes a string of a print or string statement. Its
// characters count towards the line length like a number's, so a long
// line of strings and numbers breaks too; with -s (or POSIXLY_CORRECT)
// strings are written as they are and count for nothing, as GNU bc does.
func (vm *bcVM) writeText(s string) {
	for _, c := range []byte(s) {
		switch {
		case c == '\n':
			vm.t.writeByte(c)
			vm.col = 0
		case vm.standard:
			vm.t.writeByte(c)
		default:
			vm.writeChar(c)
		}
	}
}

// writeChar writes one character of a line, breaking the line first (a
// backslash, then a newline) when it is full.
func (vm *bcVM) writeChar(c byte) {
	if vm.lineLen > 2 && vm.col >= vm.lineLen-2 {
		vm.t.writeString("\\\n")
		vm.col = 0
	}
	vm.t.writeByte(c)
	vm.col++
}

// eval computes an expression.
func (vm *bcVM) eval(n *bcNode) (bcNum, error) {
	switch n.kind {
	case "num":
		return bcParseNum(n.text, vm.ibase), nil
	case "var", "elem":
		return vm.load(n)
	case "un":
		v, err := vm.eval(n.kids[0])
		if err != nil {
			return v, err
		}
		return bcNum{v: new(big.Int).Neg(v.v), scale: v.scale}, nil
	case "not":
		v, err := vm.eval(n.kids[0])
		return bcBool(err == nil && v.isZero()), err
	case "bin":
		return vm.binary(n)
	case "assign":
		return vm.assign(n)
	case "pre", "post":
		return vm.incdec(n)
	case "call":
		return vm.call(n)
	}
	return bcInt(0), nil
}

func bcBool(b bool) bcNum {
	if b {
		return bcInt(1)
	}
	return bcInt(0)
}

// binary evaluates a two-operand expression.
func (vm *bcVM) binary(n *bcNode) (bcNum, error) {
	a, err := vm.eval(n.kids[0])
	if err != nil {
		return a, err
	}
	if n.text == "&&" && a.isZero() {
		return bcInt(0), nil
	}
	if n.text == "||" && !a.isZero() {
		return bcInt(1), nil
	}
	b, err := vm.eval(n.kids[1])
	if err != nil {
		return b, err
	}
	return vm.apply(n.text, a, b)
}

// apply computes one operator.
func (vm *bcVM) apply(op string, a, b bcNum) (bcNum, error) {
	switch op {
	case "+", "-":
		return bcAdd(a, b, op == "-"), nil
	case "*":
		if err := vm.room(bcBits(a) + bcBits(b)); err != nil {
			return bcNum{}, err
		}
		return bcMul(a, b, vm.scale), nil
	case "/", "%":
		if err := vm.room(bcBits(a) + bcBits(b) + bcDigitBits(vm.scale+b.scale)); err != nil {
			return bcNum{}, err
		}
	}
	switch op {
	case "/":
		if r, ok := bcDiv(a, b, vm.scale); ok {
			return r, nil
		}
		return bcNum{}, &bcRuntimeError{"Divide by zero"}
	case "%":
		if r, ok := bcMod(a, b, vm.scale); ok {
			return r, nil
		}
		return bcNum{}, &bcRuntimeError{"Modulo by zero"}
	case "^":
		if b.scale > 0 {
			vm.t.rawStderr("Runtime warning (func=(main), adr=0): non-zero scale in exponent\n")
		}
		e := b.rescale(0)
		if !e.v.IsInt64() {
			return bcNum{}, &bcRuntimeError{"exponent too large in raise"}
		}
		if err := vm.room(bcPowBits(a, e.v.Int64(), vm.scale)); err != nil {
			return bcNum{}, err
		}
		if r, ok := bcPow(a, e.v.Int64(), vm.scale); ok {
			return r, nil
		}
		return bcNum{}, &bcRuntimeError{"Divide by zero"}
	case "&&", "||":
		return bcBool(!b.isZero()), nil
	}
	c := bcCmp(a, b)
	return bcBool(map[string]bool{"==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]), nil
}

// load reads a variable, array element or special variable.
func (vm *bcVM) load(n *bcNode) (bcNum, error) {
	if n.kind == "elem" {
		idx, err := vm.index(n)
		if err != nil {
			return bcNum{}, err
		}
		if v, ok := vm.arrays[n.text][idx]; ok {
			return v, nil
		}
		return bcInt(0), nil
	}
	switch n.text {
	case "scale":
		return bcInt(int64(vm.scale)), nil
	case "ibase":
		return bcInt(int64(vm.ibase)), nil
	case "obase":
		return bcInt(int64(vm.obase)), nil
	case "last":
		return vm.last, nil
	}
	if v, ok := vm.vars[n.text]; ok {
		return v, nil
	}
	return bcInt(0), nil
}

// index evaluates an array subscript.
func (vm *bcVM) index(n *bcNode) (int64, error) {
	v, err := vm.eval(n.kids[0])
	if err != nil {
		return 0, err
	}
	i := v.rescale(0).v
	if i.Sign() < 0 || !i.IsInt64() || i.Int64() > 16777215 {
		return 0, &bcRuntimeError{"Array " + n.text + " subscript out of bounds."}
	}
	return i.Int64(), nil
}

// store writes a variable, element or special variable.
func (vm *bcVM) store(n *bcNode, v bcNum) error {
	if n.kind == "elem" {
		idx, err := vm.index(n)
		if err != nil {
			return err
		}
		if vm.arrays[n.text] == nil {
			vm.arrays[n.text] = map[int64]bcNum{}
		}
		vm.arrays[n.text][idx] = v
		return nil
	}
	iv := v.rescale(0).v
	small := func(lo, hi int64) int {
		if !iv.IsInt64() || iv.Int64() > hi {
			return int(hi)
		}
		return int(max(iv.Int64(), lo))
	}
	switch n.text {
	case "scale":
		vm.scale = small(0, 2147483647)
	case "ibase":
		vm.ibase = small(2, 16)
	case "obase":
		vm.obase = small(2, 999)
	case "last":
		vm.last = v
	default:
		vm.vars[n.text] = v
	}
	return nil
}

// assign runs = and the compound assignments.
func (vm *bcVM) assign(n *bcNode) (bcNum, error) {
	v, err := vm.eval(n.kids[1])
	if err != nil {
		return v, err
	}
	if n.text != "=" {
		cur, err := vm.load(n.kids[0])
		if err != nil {
			return cur, err
		}
		if v, err = vm.apply(strings.TrimSuffix(n.text, "="), cur, v); err != nil {
			return v, err
		}
	}
	return v, vm.store(n.kids[0], v)
}

// incdec runs ++ and -- (before or after the value is taken).
func (vm *bcVM) incdec(n *bcNode) (bcNum, error) {
	cur, err := vm.load(n.kids[0])
	if err != nil {
		return cur, err
	}
	next := bcAdd(cur, bcInt(1), n.text == "--")
	if err := vm.store(n.kids[0], next); err != nil {
		return cur, err
	}
	if n.kind == "pre" {
		return next, nil
	}
	return cur, nil
}
