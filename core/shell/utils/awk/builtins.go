package awk

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"gatehouse/core/shell/utils"
)

// callBuiltin evaluates a built-in function call.
func (in *interp) callBuiltin(e *builtinExpr) value {
	a := e.args
	switch e.fn {
	case bLength:
		return in.length(a)
	case bSubstr:
		return in.substr(a)
	case bIndex:
		s, t := in.evalStr(a[0]), in.evalStr(a[1])
		return num(float64(strings.Index(s, t) + 1))
	case bSplit:
		return in.split(a)
	case bSub, bGsub:
		return in.substitute(a, e.fn == bGsub)
	case bGensub:
		return in.gensub(a)
	case bMatch:
		return in.match(a)
	case bSprintf:
		return str(in.sprintf(a))
	case bSin, bCos, bExp, bLog, bSqrt, bInt, bAtan2:
		return in.math(e.fn, a)
	case bRand:
		return num(in.random())
	case bSrand:
		prev := in.seed
		if len(a) == 0 {
			in.seed = float64(time.Now().Unix())
		} else {
			in.seed = in.eval(a[0]).toNum()
		}
		in.reseed()
		return num(prev)
	case bTolower:
		return str(lowerASCII(in.evalStr(a[0])))
	case bToupper:
		return str(upperASCII(in.evalStr(a[0])))
	case bSystem:
		return num(float64(in.system(in.evalStr(a[0]))))
	case bClose:
		return num(float64(in.closeStream(in.evalStr(a[0]))))
	case bFflush:
		if len(a) == 0 {
			return num(float64(in.fflush("", true)))
		}
		name := in.evalStr(a[0])
		return num(float64(in.fflush(name, name == "")))
	}
	return in.callMoreBuiltin(e)
}

// callMoreBuiltin holds gawk's extensions: time, sorting, bits, types.
func (in *interp) callMoreBuiltin(e *builtinExpr) value {
	a := e.args
	switch e.fn {
	case bSystime:
		return num(float64(time.Now().Unix()))
	case bStrftime:
		return str(in.strftime(a))
	case bMktime:
		return num(in.mktime(in.evalStr(a[0])))
	case bAsort, bAsorti:
		return in.asort(a, e.fn == bAsorti)
	case bAnd, bOr, bXor:
		acc := toUint(in.eval(a[0]).toNum())
		for _, x := range a[1:] {
			v := toUint(in.eval(x).toNum())
			switch e.fn {
			case bAnd:
				acc &= v
			case bOr:
				acc |= v
			default:
				acc ^= v
			}
		}
		return num(float64(acc))
	case bLshift:
		return num(float64(toUint(in.eval(a[0]).toNum()) << toUint(in.eval(a[1]).toNum())))
	case bRshift:
		return num(float64(toUint(in.eval(a[0]).toNum()) >> toUint(in.eval(a[1]).toNum())))
	case bCompl:
		return num(float64(^toUint(in.eval(a[0]).toNum()) & (1<<53 - 1)))
	case bStrtonum:
		return num(strtonum(in.eval(a[0])))
	case bIsarray:
		if v, ok := a[0].(*varExpr); ok {
			return boolean(in.cellOf(v).arr != nil)
		}
		return boolean(false)
	case bTypeof:
		return str(in.typeOf(a[0]))
	}
	in.fatal("internal error: unknown builtin")
	return value{}
}

func (in *interp) evalStr(e expr) string { return in.toStr(in.eval(e)) }

// isScalar reports a variable that already holds a scalar value.
func (in *interp) isScalar(v *varExpr) bool {
	if v.scope == global && v.idx < numSpecials {
		return v.idx != idxENVIRON && v.idx != idxARGV && v.idx != idxPROCINFO
	}
	c := in.cellOf(v)
	return c.arr == nil && c.v.k != kUninit
}

func toUint(f float64) uint64 {
	if f < 0 {
		return uint64(int64(f))
	}
	return uint64(f)
}

func (in *interp) length(a []expr) value {
	if len(a) == 0 {
		return num(float64(len(in.rec.get0(in))))
	}
	if v, ok := a[0].(*varExpr); ok {
		c := in.cellOf(v)
		if c.arr != nil {
			return num(float64(c.arr.len()))
		}
		if c.ref != nil && c.ref.arr != nil {
			return num(float64(c.ref.arr.len()))
		}
	}
	return num(float64(len(in.evalStr(a[0]))))
}

// substr follows gawk: start and length are truncated, a start below one
// counts as one.
func (in *interp) substr(a []expr) value {
	s := in.evalStr(a[0])
	m := in.eval(a[1]).toNum()
	if math.IsNaN(m) {
		return str("")
	}
	start := 1
	if m > 1 {
		if m > float64(len(s)) {
			return str("")
		}
		start = int(m)
	}
	end := len(s)
	if len(a) == 3 {
		n := in.eval(a[2]).toNum()
		if !(n >= 1) {
			return str("")
		}
		if n < float64(len(s)) {
			end = min(start-1+int(n), len(s))
		}
	}
	if start-1 >= end {
		return str("")
	}
	return str(s[start-1 : end])
}

// split fills an array with the pieces of a string; gawk's fourth
// argument receives the separators.
func (in *interp) split(a []expr) value {
	s := in.evalStr(a[0])
	target, ok := a[1].(*varExpr)
	if !ok || in.isScalar(target) {
		in.fatal("split: second argument is not an array")
	}
	var sp splitter
	switch {
	case len(a) < 3:
		sp = in.rec.sp
	default:
		if re, isRe := a[2].(*regexExpr); isRe {
			sp = splitter{mode: fsRegex, re: re.re}
			if re.src == " " {
				sp = splitter{mode: fsRegex, re: re.re}
			}
		} else {
			var err error
			sp, err = newSplitter(in.evalStr(a[2]), false)
			if err != nil {
				in.fatal("invalid regexp: " + err.Error())
			}
		}
	}
	arr := in.array(target)
	in.clearArray(arr)
	held := 0
	parts := sp.split(s, nil, in.growFields(&held))
	defer in.release(held)
	for i, p := range parts {
		in.put(arr, strconv.Itoa(i+1), maybe(p))
	}
	if len(a) == 4 {
		in.fillSeps(a[3], s, parts)
	}
	return num(float64(len(parts)))
}

// fillSeps stores the separators between split's pieces (gawk).
func (in *interp) fillSeps(e expr, s string, parts []string) {
	v, ok := e.(*varExpr)
	if !ok {
		in.fatal("split: fourth argument is not an array")
	}
	seps := in.array(v)
	in.clearArray(seps)
	pos := 0
	for i, p := range parts {
		at := strings.Index(s[pos:], p)
		if at < 0 {
			break
		}
		if at > 0 || i > 0 {
			in.put(seps, strconv.Itoa(i), maybe(s[pos:pos+at]))
		}
		pos += at + len(p)
	}
	if pos < len(s) {
		in.put(seps, strconv.Itoa(len(parts)), maybe(s[pos:]))
	}
}

// substitute is sub and gsub: & in the replacement is the match, \& a
// literal ampersand, \\ a backslash.
func (in *interp) substitute(a []expr, global bool) value {
	re := in.regexOf(a[0])
	repl := in.evalStr(a[1])
	var target expr = &fieldExpr{fixed: 0}
	if len(a) == 3 {
		target = a[2]
	}
	s := in.toStr(in.eval(target))
	if re.isLit && !re.prefix && !re.suffix && !strings.ContainsAny(repl, "&\\") {
		// A literal pattern and a plain replacement: strings.Replace.
		n := strings.Count(s, re.literal)
		if n == 0 {
			return num(0)
		}
		if !global {
			n = 1
		}
		in.checkString(len(s) + n*(len(repl)-len(re.literal)))
		in.assign(target, str(strings.Replace(s, re.literal, repl, n)))
		return num(float64(n))
	}
	var matches [][]int
	if global {
		matches = re.allIndex(s, in.checkCtx)
	} else if m := re.index(s); m != nil {
		matches = [][]int{m}
	}
	if len(matches) == 0 {
		return num(0)
	}
	var b strings.Builder
	b.Grow(len(s) + len(matches)*len(repl))
	last := 0
	for _, m := range matches {
		b.WriteString(s[last:m[0]])
		expandReplacement(&b, repl, s[m[0]:m[1]])
		last = m[1]
		in.checkString(b.Len())
	}
	b.WriteString(s[last:])
	in.assign(target, str(b.String()))
	return num(float64(len(matches)))
}

func expandReplacement(b *strings.Builder, repl, matched string) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '\\' && i+1 < len(repl) && repl[i+1] == '&':
			b.WriteByte('&')
			i++
		case c == '\\' && i+2 < len(repl) && repl[i+1] == '\\' && repl[i+2] == '&':
			// "\\\\&" is a backslash, then the match.
			b.WriteByte('\\')
			i++
		case c == '&':
			b.WriteString(matched)
		default:
			b.WriteByte(c)
		}
	}
}

// gensub returns the target with the chosen matches replaced; \0 and &
// are the match, \1..\9 its groups.
func (in *interp) gensub(a []expr) value {
	re := in.regexOf(a[0])
	repl := in.evalStr(a[1])
	how := in.eval(a[2])
	var s string
	if len(a) == 4 {
		s = in.evalStr(a[3])
	} else {
		s = in.rec.get0(in)
	}
	all, which := false, 1
	hs := in.toStr(how)
	if how.k != kNum && len(hs) > 0 && (hs[0] == 'g' || hs[0] == 'G') {
		all = true
	} else if n := how.toNum(); n >= 1 {
		which = int(n)
	} else {
		in.warn("gensub: third argument `" + hs + "' treated as 1")
	}
	matches := re.allSubmatch(s, in.checkCtx)
	var b strings.Builder
	last := 0
	for i, m := range matches {
		if !all && i+1 != which {
			continue
		}
		b.WriteString(s[last:m[0]])
		expandGensub(&b, repl, s, m)
		last = m[1]
		in.checkString(b.Len())
	}
	b.WriteString(s[last:])
	return str(b.String())
}

func expandGensub(b *strings.Builder, repl, s string, m []int) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '\\' && i+1 < len(repl) && repl[i+1] >= '0' && repl[i+1] <= '9':
			g := int(repl[i+1] - '0')
			if 2*g+1 < len(m) && m[2*g] >= 0 {
				b.WriteString(s[m[2*g]:m[2*g+1]])
			}
			i++
		case c == '\\' && i+1 < len(repl) && (repl[i+1] == '&' || repl[i+1] == '\\'):
			b.WriteByte(repl[i+1])
			i++
		case c == '&':
			b.WriteString(s[m[0]:m[1]])
		default:
			b.WriteByte(c)
		}
	}
}

// match sets RSTART and RLENGTH; gawk's third argument gets the groups.
func (in *interp) match(a []expr) value {
	s := in.evalStr(a[0])
	re := in.regexOf(a[1])
	var arr *array
	if len(a) == 3 {
		v, ok := a[2].(*varExpr)
		if !ok || in.isScalar(v) {
			in.fatal("match: third argument is not an array")
		}
		arr = in.array(v)
		in.clearArray(arr)
	}
	m := re.submatches(s)
	if m == nil {
		in.globals[idxRSTART].v = num(0)
		in.globals[idxRLENGTH].v = num(-1)
		return num(0)
	}
	in.globals[idxRSTART].v = num(float64(m[0] + 1))
	in.globals[idxRLENGTH].v = num(float64(m[1] - m[0]))
	if arr != nil {
		for g := 0; 2*g+1 < len(m); g++ {
			if m[2*g] < 0 {
				continue
			}
			k := strconv.Itoa(g)
			in.put(arr, k, maybe(s[m[2*g]:m[2*g+1]]))
			in.put(arr, k+in.subsep+"start", num(float64(m[2*g]+1)))
			in.put(arr, k+in.subsep+"length", num(float64(m[2*g+1]-m[2*g])))
		}
	}
	return num(float64(m[0] + 1))
}

func (in *interp) math(fn builtin, a []expr) value {
	x := in.eval(a[0]).toNum()
	switch fn {
	case bSin:
		return num(math.Sin(x))
	case bCos:
		return num(math.Cos(x))
	case bAtan2:
		return num(math.Atan2(x, in.eval(a[1]).toNum()))
	case bExp:
		r := math.Exp(x)
		if math.IsInf(r, 0) {
			in.warn("exp: argument " + numToString(x, "%.6g") + " is out of range")
		}
		return num(r)
	case bLog:
		if x < 0 {
			in.warn("log: received negative argument " + numToString(x, "%.6g"))
			return num(math.Copysign(math.NaN(), -1))
		}
		return num(math.Log(x))
	case bSqrt:
		if x < 0 {
			in.warn("sqrt: called with negative argument " + numToString(x, "%.6g"))
			return num(math.Copysign(math.NaN(), -1))
		}
		return num(math.Sqrt(x))
	}
	return num(math.Trunc(x))
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func upperASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// strtonum reads hex (0x) and octal (leading 0) as gawk does.
func strtonum(v value) float64 {
	if v.k == kNum {
		return v.n
	}
	s, t := v.s, v.s
	var n float64
	switch {
	case len(t) > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'):
		for i := 2; i < len(t) && isHex(t[i]); i++ {
			n = n*16 + float64(hexVal(t[i]))
		}
	case len(t) > 1 && t[0] == '0' && isDigit(t[1]):
		for i := 1; i < len(t) && t[i] >= '0' && t[i] <= '7'; i++ {
			n = n*8 + float64(t[i]-'0')
		}
	default:
		return strToNum(s)
	}
	return n
}

func (in *interp) typeOf(e expr) string {
	if v, ok := e.(*varExpr); ok {
		c := in.cellOf(v)
		if c.arr != nil {
			return "array"
		}
		if c.v.k == kUninit && !(v.scope == global && v.idx < numSpecials) {
			if c.ref != nil && c.ref.arr != nil {
				return "array"
			}
			return "untyped"
		}
	}
	v := in.eval(e)
	switch v.k {
	case kNum:
		return "number"
	case kStr:
		return "string"
	case kMaybe:
		if _, ok := looksNumeric(v.s); ok {
			return "strnum"
		}
		return "string"
	}
	return "unassigned"
}

// asort sorts values (asorti: indices) into 1..n of the destination.
func (in *interp) asort(a []expr, indices bool) value {
	src, ok := a[0].(*varExpr)
	if !ok {
		in.fatal("asort: first argument not an array")
	}
	arr := in.array(src)
	vals := make([]value, 0, arr.len())
	for k, v := range arr.m {
		if indices {
			vals = append(vals, maybe(k))
		} else {
			vals = append(vals, *v)
		}
	}
	sort.SliceStable(vals, func(i, j int) bool { return in.sortLess(vals[i], vals[j], indices) })
	dst := arr
	if len(a) > 1 {
		d, ok := a[1].(*varExpr)
		if !ok {
			in.fatal("asort: second argument not an array")
		}
		dst = in.array(d)
	}
	in.clearArray(dst)
	for i, v := range vals {
		in.put(dst, strconv.Itoa(i+1), v)
	}
	return num(float64(len(vals)))
}

// sortLess is gawk's default ordering: numbers before strings, numbers
// numerically, strings by bytes; asorti compares indices as strings.
func (in *interp) sortLess(x, y value, asStrings bool) bool {
	if asStrings {
		return x.s < y.s
	}
	xn, xok := numericView(x)
	yn, yok := numericView(y)
	if x.k == kUninit {
		xok = true
	}
	switch {
	case xok && yok:
		if xn != yn {
			return xn < yn
		}
		return in.toStr(x) < in.toStr(y)
	case xok:
		return true
	case yok:
		return false
	}
	return in.toStr(x) < in.toStr(y)
}

func (in *interp) strftime(a []expr) string {
	format := "%a %b %e %H:%M:%S %Z %Y"
	t := time.Now()
	if len(a) > 0 {
		format = in.evalStr(a[0])
	}
	if len(a) > 1 {
		t = time.Unix(int64(in.eval(a[1]).toNum()), 0)
	}
	loc := utils.TimeZone(in.env.Getenv("TZ"))
	if len(a) > 2 && in.eval(a[2]).isTrue() {
		loc = time.UTC
	}
	// A field too wide for the line's memory budget gives no text: the
	// line is ending.
	out, _ := utils.Strftime(format, t.In(loc), in.env.Grow)
	return out
}

// mktime reads "YYYY MM DD HH MM SS [DST]" in the local zone.
func (in *interp) mktime(spec string) float64 {
	f := strings.Fields(spec)
	if len(f) < 6 {
		return -1
	}
	var n [6]int
	for i := 0; i < 6; i++ {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return -1
		}
		n[i] = v
	}
	loc := utils.TimeZone(in.env.Getenv("TZ"))
	t := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], 0, loc)
	return float64(t.Unix())
}
