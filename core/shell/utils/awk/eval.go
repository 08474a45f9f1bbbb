package awk

import (
	"math"
	"strconv"
	"strings"
)

// maxCallDepth bounds user-function recursion well below what Go's stack
// takes, so runaway recursion fails in awk's voice instead of the process.
const maxCallDepth = 20000

// eval evaluates an expression.
func (in *interp) eval(e expr) value {
	switch e := e.(type) {
	case *numExpr:
		return e.v
	case *strExpr:
		return e.v
	case *varExpr:
		return in.readVar(e)
	case *fieldExpr:
		return in.readField(e)
	case *indexExpr:
		arr := in.array(e.arr)
		k := in.subscript(e.subs)
		return *in.element(arr, k)
	case *assignExpr:
		return in.evalAssign(e)
	case *binaryExpr:
		return in.evalBinary(e)
	case *concatExpr:
		return in.concat(e)
	case *unaryExpr:
		switch e.op {
		case tNot:
			return boolean(!in.cond(e.e))
		case tSub:
			return num(-in.eval(e.e).toNum())
		}
		return num(in.eval(e.e).toNum())
	case *condExpr:
		if in.cond(e.cond) {
			return in.eval(e.yes)
		}
		return in.eval(e.no)
	case *regexExpr:
		return boolean(e.re.MatchString(in.rec.get0(in)))
	case *matchExpr:
		s := in.toStr(in.eval(e.l))
		return boolean(in.regexOf(e.re).MatchString(s) != e.neg)
	case *incDecExpr:
		return in.incDec(e)
	case *inExpr:
		_, ok := in.array(e.arr).get(in.subscript(e.subs))
		return boolean(ok)
	case *parenExpr:
		return in.eval(e.e)
	case *groupExpr:
		return str(in.subscript(e.list))
	case *callExpr:
		return in.call(e)
	case *builtinExpr:
		return in.callBuiltin(e)
	case *getlineExpr:
		return in.getline(e)
	}
	in.fatal("internal error: unknown expression")
	return value{}
}

// cellOf returns a variable's storage.
func (in *interp) cellOf(v *varExpr) *cell {
	if v.scope == global {
		return &in.globals[v.idx]
	}
	return &in.frame[v.idx]
}

func (in *interp) readVar(v *varExpr) value {
	if v.scope == global && v.idx < numSpecials {
		return in.readSpecial(v.idx)
	}
	c := in.cellOf(v)
	if c.arr != nil {
		in.fatal("attempt to use array `" + in.arrayName(v, c) + "' in a scalar context")
	}
	return c.v
}

// arrayName is how gawk names an array in messages: a parameter that
// refers to a caller's array is "a (from b)".
func (in *interp) arrayName(v *varExpr, c *cell) string {
	if c.from != "" {
		return v.name + " (from " + c.from + ")"
	}
	return v.name
}

// array returns the array a variable names, creating it on first use.
func (in *interp) array(v *varExpr) *array {
	c := in.cellOf(v)
	if c.arr != nil {
		return c.arr
	}
	if c.v.k != kUninit || v.scope == global && v.idx < numSpecials && v.idx != idxENVIRON && v.idx != idxARGV && v.idx != idxPROCINFO {
		if v.scope == local {
			in.fatal("attempt to use scalar parameter `" + v.name + "' as an array")
		}
		in.fatal("attempt to use scalar `" + v.name + "' as an array")
	}
	if c.ref != nil {
		r := c.ref
		if r.arr == nil {
			if r.v.k != kUninit {
				in.fatal("attempt to use scalar `" + v.name + "' as an array")
			}
			r.arr = newArray()
		}
		c.arr, c.ref = r.arr, nil
		return c.arr
	}
	c.arr = newArray()
	return c.arr
}

// subscript joins subscripts with SUBSEP.
func (in *interp) subscript(subs []expr) string {
	if len(subs) == 1 {
		return in.key(in.eval(subs[0]))
	}
	var b strings.Builder
	for i, s := range subs {
		if i > 0 {
			b.WriteString(in.subsep)
		}
		b.WriteString(in.key(in.eval(s)))
	}
	return b.String()
}

// key is a value as an array subscript: integers print as integers.
func (in *interp) key(v value) string {
	if v.k == kNum && v.n == math.Trunc(v.n) && v.n >= -1e15 && v.n <= 1e15 {
		return strconv.FormatInt(int64(v.n), 10)
	}
	return in.toStr(v)
}

// toStr converts with CONVFMT.
func (in *interp) toStr(v value) string {
	switch v.k {
	case kStr, kMaybe:
		return v.s
	case kNum:
		return numToString(v.n, in.convfmt)
	}
	return ""
}

// toOutStr converts for print, with OFMT.
func (in *interp) toOutStr(v value) string {
	if v.k == kNum {
		return numToString(v.n, in.ofmt)
	}
	return in.toStr(v)
}

// numericView says whether a value compares as a number.
func numericView(v value) (float64, bool) {
	switch v.k {
	case kNum:
		return v.n, true
	case kUninit:
		return 0, true
	case kMaybe:
		return looksNumeric(v.s)
	}
	return 0, false
}

// compare orders two values by POSIX's rules: numerically when both are
// numbers or numeric-looking input, else as strings (byte order).
func (in *interp) compare(a, b value) int {
	if an, ok := numericView(a); ok {
		if bn, ok := numericView(b); ok {
			switch {
			case an < bn:
				return -1
			case an > bn:
				return 1
			case an == bn:
				return 0
			}
			// NaN: gawk orders it after everything.
			if math.IsNaN(an) && !math.IsNaN(bn) {
				return 1
			}
			if math.IsNaN(bn) && !math.IsNaN(an) {
				return -1
			}
			return 0
		}
	}
	return strings.Compare(in.toStr(a), in.toStr(b))
}

func (in *interp) evalBinary(e *binaryExpr) value {
	switch e.op {
	case tAnd:
		return boolean(in.cond(e.l) && in.cond(e.r))
	case tOr:
		return boolean(in.cond(e.l) || in.cond(e.r))
	case tLT:
		return boolean(in.compare(in.eval(e.l), in.eval(e.r)) < 0)
	case tLE:
		return boolean(in.compare(in.eval(e.l), in.eval(e.r)) <= 0)
	case tGT:
		return boolean(in.compare(in.eval(e.l), in.eval(e.r)) > 0)
	case tGE:
		return boolean(in.compare(in.eval(e.l), in.eval(e.r)) >= 0)
	case tEQ:
		return boolean(in.compare(in.eval(e.l), in.eval(e.r)) == 0)
	case tNE:
		return boolean(in.compare(in.eval(e.l), in.eval(e.r)) != 0)
	}
	l := in.eval(e.l).toNum()
	r := in.eval(e.r).toNum()
	return num(in.arith(e.op, l, r))
}

// cNaN gives a NaN made by an invalid operation the sign glibc gives it
// (gawk prints "-nan"); NaNs read from input keep theirs.
func cNaN(result, l, r float64) float64 {
	if math.IsNaN(result) && !math.IsNaN(l) && !math.IsNaN(r) {
		return math.Copysign(math.NaN(), -1)
	}
	return result
}

// arith applies an arithmetic operator (also for op-assignments).
func (in *interp) arith(op tok, l, r float64) float64 {
	switch op {
	case tAdd, tAddAssign:
		return cNaN(l+r, l, r)
	case tSub, tSubAssign:
		return cNaN(l-r, l, r)
	case tMul, tMulAssign:
		return cNaN(l*r, l, r)
	case tDiv, tDivAssign:
		if r == 0 {
			in.fatal("division by zero attempted")
		}
		return l / r
	case tMod, tModAssign:
		if r == 0 {
			in.fatal("division by zero attempted in `%'")
		}
		return cNaN(math.Mod(l, r), l, r)
	case tPow, tPowAssign:
		return cNaN(power(l, r), l, r)
	}
	return 0
}

// power computes integer powers by repeated multiplication, as gawk does,
// so 3^40 is exact where pow() may round.
func power(x, y float64) float64 {
	if y == math.Trunc(y) && math.Abs(y) <= 1024 {
		n := int64(y)
		neg := n < 0
		if neg {
			n = -n
		}
		result, base := 1.0, x
		for n > 0 {
			if n&1 == 1 {
				result *= base
			}
			base *= base
			n >>= 1
		}
		if neg {
			return 1 / result
		}
		return result
	}
	return math.Pow(x, y)
}

func (in *interp) concat(e *concatExpr) value {
	if len(e.parts) == 2 {
		l, r := in.toStr(in.eval(e.parts[0])), in.toStr(in.eval(e.parts[1]))
		in.checkString(len(l) + len(r))
		return str(l + r)
	}
	var b strings.Builder
	for _, p := range e.parts {
		b.WriteString(in.toStr(in.eval(p)))
		in.checkString(b.Len())
	}
	return str(b.String())
}

func (in *interp) evalAssign(e *assignExpr) value {
	var v value
	if e.op == tAssign {
		v = in.eval(e.rhs)
		if v.k == kUninit {
			v = value{k: kUninit}
		}
	} else {
		// The right side is evaluated first, as gawk does for `x += x++`.
		r := in.eval(e.rhs).toNum()
		l := in.eval(e.lhs).toNum()
		v = num(in.arith(e.op, l, r))
	}
	in.assign(e.lhs, v)
	return v
}

// assign stores v into a variable, field or array element.
func (in *interp) assign(lhs expr, v value) {
	switch l := lhs.(type) {
	case *varExpr:
		if l.scope == global && l.idx < numSpecials {
			in.setSpecial(l.idx, v)
			return
		}
		c := in.cellOf(l)
		if c.arr != nil {
			in.fatal("attempt to use array `" + in.arrayName(l, c) + "' in a scalar context")
		}
		in.holdScalar(c, v.s)
		c.v = v
	case *fieldExpr:
		in.rec.setField(in, in.fieldIndex(l), in.toStr(v))
	case *indexExpr:
		arr := in.array(l.arr)
		in.put(arr, in.subscript(l.subs), v)
	case *parenExpr:
		in.assign(l.e, v)
	}
}

func (in *interp) incDec(e *incDecExpr) value {
	// Array elements are updated in place: one lookup for c[$1]++.
	if ix, ok := e.lhs.(*indexExpr); ok {
		arr := in.array(ix.arr)
		k := in.subscript(ix.subs)
		p := in.element(arr, k)
		in.release(len(p.s))
		old := p.toNum()
		n := old + 1
		if e.op == tDecr {
			n = old - 1
		}
		*p = num(n)
		if e.pre {
			return num(n)
		}
		return num(old)
	}
	old := in.eval(e.lhs).toNum()
	n := old + 1
	if e.op == tDecr {
		n = old - 1
	}
	in.assign(e.lhs, num(n))
	if e.pre {
		return num(n)
	}
	return num(old)
}

// fieldIndex evaluates $'s operand.
func (in *interp) fieldIndex(f *fieldExpr) int {
	if f.fixed >= 0 {
		return f.fixed
	}
	n := in.eval(f.index).toNum()
	if n < 0 {
		in.fatal("attempt to access field " + strconv.Itoa(int(n)))
	}
	if n > 1e7 {
		in.fatal("attempt to access field " + numToString(n, "%.6g") + ": too large")
	}
	return int(n)
}

func (in *interp) readField(f *fieldExpr) value {
	i := in.fieldIndex(f)
	if i == 0 {
		return maybe(in.rec.get0(in))
	}
	return maybe(in.rec.field(in, i))
}

// regexOf returns the regex of a regex position: a constant, or a
// dynamic string compiled once and cached.
func (in *interp) regexOf(e expr) *regex {
	if r, ok := e.(*regexExpr); ok {
		return r.re
	}
	return in.dynRegex(in.toStr(in.eval(e)))
}

func (in *interp) dynRegex(src string) *regex {
	if re, ok := in.reCache[src]; ok {
		return re
	}
	re, err := compileRegex(src, false)
	if err != nil {
		in.fatal("invalid regexp: " + err.Error() + ": /" + src + "/")
	}
	for _, w := range re.warnings {
		in.warn(w)
	}
	if len(in.reCache) > 500 {
		clear(in.reCache)
	}
	in.reCache[src] = re
	return re
}

// call runs a user function. Arrays (and untyped variables, which may
// become arrays) pass by reference, scalars by value.
func (in *interp) call(c *callExpr) value {
	fn := c.fn
	if in.depth >= maxCallDepth {
		in.fatal("function `" + fn.name + "': call nesting too deep")
	}
	frame := make([]cell, len(fn.params))
	for i, a := range c.args {
		v, ok := a.(*varExpr)
		if !ok || v.scope == global && v.idx < numSpecials && v.idx != idxENVIRON && v.idx != idxARGV && v.idx != idxPROCINFO {
			frame[i].v = in.eval(a)
			continue
		}
		cc := in.cellOf(v)
		frame[i].from = v.name
		if cc.from != "" {
			frame[i].from = v.name + ", from " + cc.from
		}
		switch {
		case cc.arr != nil:
			frame[i].arr = cc.arr
		case cc.ref != nil && cc.v.k == kUninit:
			frame[i].ref = cc.ref
		case cc.v.k == kUninit:
			frame[i].ref = cc
		default:
			frame[i].v, frame[i].from = cc.v, ""
		}
	}
	saved := in.frame
	in.frame = frame
	defer in.releaseFrame(frame)
	in.depth++
	in.ret = value{}
	r := in.execBlock(fn.body)
	in.frame = saved
	in.depth--
	switch r {
	case ctlExit:
		panic(exitError{})
	case ctlNext:
		panic(nextSignal{ctlNext})
	case ctlNextFile:
		panic(nextSignal{ctlNextFile})
	}
	v := in.ret
	in.ret = value{}
	return v
}

// scalarFree is the length below which a scalar's string is not charged:
// a program has a bounded number of variables, and charging every short
// assignment would cost more than it tells.
const scalarFree = 256

// holdScalar charges the line's budget (G-12.3) for the string a scalar
// variable is about to keep, giving back what its previous one was
// charged: strings built in a loop (x = x x, s = s sprintf(…), getline
// var) are held by variables, not only arrays.
func (in *interp) holdScalar(c *cell, s string) {
	n := len(s)
	if n < scalarFree {
		n = 0
	}
	if n != c.held {
		d := n - c.held
		c.held = n
		in.grow(d)
	}
}

// releaseFrame gives back what a function's locals were charged, its
// scalars and the arrays it made (not a caller's it was passed), as it
// returns or a next, exit or error leaves it.
func (in *interp) releaseFrame(frame []cell) {
	for i := range frame {
		c := &frame[i]
		if c.held != 0 {
			in.release(c.held)
			c.held = 0
		}
		if c.arr != nil && c.from == "" {
			in.clearArray(c.arr)
		}
	}
}

// nextSignal carries next/nextfile out of a function to the record loop.
type nextSignal struct{ c ctl }

// evalReturn evaluates a return value; `return arr` is an error.
func (in *interp) evalReturn(e expr) value {
	return in.eval(e)
}
