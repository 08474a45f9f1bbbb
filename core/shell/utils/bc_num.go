package utils

import (
	"math/big"
	"strings"
)

// bc's numbers: decimal fixed point of any size, value = v / 10^scale,
// every operation truncating toward zero as bc does.

type bcNum struct {
	v     *big.Int
	scale int
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

func bcInt(n int64) bcNum { return bcNum{v: big.NewInt(n)} }

// rescale changes the scale, truncating when it shrinks.
func (a bcNum) rescale(s int) bcNum {
	switch {
	case s == a.scale:
		return a
	case s > a.scale:
		return bcNum{v: new(big.Int).Mul(a.v, pow10(s-a.scale)), scale: s}
	}
	return bcNum{v: new(big.Int).Quo(a.v, pow10(a.scale-s)), scale: s}
}

func (a bcNum) isZero() bool { return a.v.Sign() == 0 }

func bcAdd(a, b bcNum, sub bool) bcNum {
	s := max(a.scale, b.scale)
	x, y := a.rescale(s), b.rescale(s)
	r := new(big.Int)
	if sub {
		r.Sub(x.v, y.v)
	} else {
		r.Add(x.v, y.v)
	}
	return bcNum{v: r, scale: s}
}

func bcMul(a, b bcNum, scale int) bcNum {
	full := bcNum{v: new(big.Int).Mul(a.v, b.v), scale: a.scale + b.scale}
	return full.rescale(min(a.scale+b.scale, max(scale, a.scale, b.scale)))
}

// bcDiv divides to scale digits; ok is false for a zero divisor.
func bcDiv(a, b bcNum, scale int) (bcNum, bool) {
	if b.isZero() {
		return bcNum{}, false
	}
	// a/b = (a.v * 10^(scale + b.scale - a.scale)) / b.v at scale.
	shift := scale + b.scale - a.scale
	num := new(big.Int).Set(a.v)
	den := new(big.Int).Set(b.v)
	if shift >= 0 {
		num.Mul(num, pow10(shift))
	} else {
		den.Mul(den, pow10(-shift))
	}
	return bcNum{v: num.Quo(num, den), scale: scale}, true
}

func bcMod(a, b bcNum, scale int) (bcNum, bool) {
	q, ok := bcDiv(a, b, scale)
	if !ok {
		return bcNum{}, false
	}
	prod := bcNum{v: new(big.Int).Mul(q.v, b.v), scale: q.scale + b.scale}
	s := max(scale+b.scale, a.scale)
	return bcAdd(a.rescale(s), prod.rescale(s), true), true
}

// bcPow raises to an integer power.
func bcPow(a bcNum, e int64, scale int) (bcNum, bool) {
	if e < 0 {
		p, _ := bcPow(a, -e, scale)
		return bcDiv(bcInt(1), p, scale)
	}
	r := bcNum{v: new(big.Int).Exp(a.v, big.NewInt(e), nil), scale: a.scale * int(e)}
	return r.rescale(min(a.scale*int(e), max(scale, a.scale))), true
}

// bcSqrt is the square root at max(scale, a's scale); ok is false for
// a negative number.
func bcSqrt(a bcNum, scale int) (bcNum, bool) {
	if a.v.Sign() < 0 {
		return bcNum{}, false
	}
	s := max(scale, a.scale)
	x := a.rescale(2 * s)
	return bcNum{v: new(big.Int).Sqrt(x.v), scale: s}, true
}

func bcCmp(a, b bcNum) int {
	s := max(a.scale, b.scale)
	return a.rescale(s).v.Cmp(b.rescale(s).v)
}

// bcLength is length(): significant digits, fraction included.
func bcLength(a bcNum) int {
	intPart := new(big.Int).Abs(new(big.Int).Quo(a.v, pow10(a.scale)))
	n := 0
	if intPart.Sign() != 0 {
		n = len(intPart.String())
	}
	if n == 0 && a.scale == 0 {
		return 1
	}
	return n + a.scale
}

// bcParseNum reads a constant in base ibase (digits 0-9 and A-F, each
// worth its face value even past the base, as bc reads them).
func bcParseNum(text string, ibase int) bcNum {
	intText, frac, _ := strings.Cut(text, ".")
	digit := func(c byte) int64 {
		if c >= 'A' {
			return int64(c-'A') + 10
		}
		return int64(c - '0')
	}
	base := big.NewInt(int64(ibase))
	v := new(big.Int)
	if len(text) == 1 && text != "." {
		return bcInt(digit(text[0]))
	}
	for i := 0; i < len(intText); i++ {
		v.Mul(v, base).Add(v, big.NewInt(digit(intText[i])))
	}
	r := bcNum{v: v}
	if frac == "" {
		return r
	}
	if ibase == 10 {
		f, _ := new(big.Int).SetString(frac, 10)
		return bcAdd(r, bcNum{v: f, scale: len(frac)}, false)
	}
	// A fraction in another base keeps as many decimal digits as it has
	// digits, like bc.
	num, den := new(big.Int), big.NewInt(1)
	for i := 0; i < len(frac); i++ {
		num.Mul(num, base).Add(num, big.NewInt(digit(frac[i])))
		den.Mul(den, base)
	}
	f, _ := bcDiv(bcNum{v: num}, bcNum{v: den}, len(frac))
	return bcAdd(r, f, false)
}

// bcFormat renders a number in obase, as bc prints it; a conversion to
// another base than 10 takes a division a digit, and ends early once
// stopped says the line has.
func bcFormat(a bcNum, obase int, stopped func() bool) string {
	neg := a.v.Sign() < 0
	abs := bcNum{v: new(big.Int).Abs(a.v), scale: a.scale}
	intPart := new(big.Int).Quo(abs.v, pow10(abs.scale))
	fracPart := bcNum{v: new(big.Int).Sub(abs.v, new(big.Int).Mul(intPart, pow10(abs.scale))), scale: abs.scale}
	var b strings.Builder
	if neg && (intPart.Sign() != 0 || fracPart.v.Sign() != 0) {
		b.WriteByte('-')
	}
	if obase == 10 {
		if intPart.Sign() != 0 || abs.scale == 0 {
			b.WriteString(intPart.String())
		}
		if abs.scale > 0 {
			s := fracPart.v.String()
			b.WriteString("." + strings.Repeat("0", abs.scale-len(s)) + s)
		}
		return b.String()
	}
	if intPart.Sign() != 0 || abs.scale == 0 {
		b.WriteString(bcDigits(intPart, obase, stopped))
	}
	if abs.scale > 0 {
		b.WriteString(".")
		b.WriteString(bcFraction(fracPart, obase, stopped))
	}
	return b.String()
}

// bcDigitWidth is how many decimal digits one obase digit takes when
// obase is over 16.
func bcDigitWidth(obase int) int { return len(big.NewInt(int64(obase - 1)).String()) }

// bcDigit renders one digit of an integer in obase.
func bcDigit(d int64, obase int) string {
	if obase <= 16 {
		return string("0123456789ABCDEF"[d])
	}
	s := big.NewInt(d).String()
	return " " + strings.Repeat("0", bcDigitWidth(obase)-len(s)) + s
}

func bcDigits(n *big.Int, obase int, stopped func() bool) string {
	if n.Sign() == 0 {
		return bcDigit(0, obase)
	}
	base := big.NewInt(int64(obase))
	var digits []string
	x := new(big.Int).Set(n)
	m := new(big.Int)
	for x.Sign() > 0 && !stopped() {
		x.QuoRem(x, base, m)
		digits = append(digits, bcDigit(m.Int64(), obase))
	}
	var b strings.Builder
	for i := len(digits) - 1; i >= 0; i-- {
		b.WriteString(digits[i])
	}
	return b.String()
}

// bcFraction renders a fraction in obase with as many digits as it takes
// to reach 10^-scale, truncated.
func bcFraction(f bcNum, obase int, stopped func() bool) string {
	need := pow10(f.scale)
	base := big.NewInt(int64(obase))
	var b strings.Builder
	x := new(big.Int).Set(f.v)
	for p := big.NewInt(1); p.Cmp(need) < 0 && !stopped(); p.Mul(p, base) {
		x.Mul(x, base)
		d := new(big.Int).Quo(x, need)
		x.Sub(x, new(big.Int).Mul(d, need))
		b.WriteString(bcDigit(d.Int64(), obase))
	}
	return b.String()
}
