package utils

import (
	"math/big"
)

// bc -l's library (s c a l e j), computed here in fixed point with guard
// digits and truncated to scale, which is what bc's own library aims at.

// bcFixed is fixed-point arithmetic at p decimal digits: a value x is the
// integer x * 10^p.
type bcFixed struct {
	p   int
	one *big.Int
	// stopped reports that the line has ended: every product is then 0,
	// so each series ends at its next term.
	stopped func() bool
}

func newBcFixed(p int) *bcFixed { return &bcFixed{p: p, one: pow10(p)} }

func (f *bcFixed) from(a bcNum) *big.Int { return a.rescale(f.p).v }

func (f *bcFixed) mul(a, b *big.Int) *big.Int {
	if f.stopped != nil && f.stopped() {
		return new(big.Int)
	}
	r := new(big.Int).Mul(a, b)
	return r.Quo(r, f.one)
}

func (f *bcFixed) div(a, b *big.Int) *big.Int {
	r := new(big.Int).Mul(a, f.one)
	return r.Quo(r, b)
}

func (f *bcFixed) sqrt(a *big.Int) *big.Int {
	return new(big.Int).Sqrt(new(big.Int).Mul(a, f.one))
}

// exp is e^x by halving into the series' fast range and squaring back.
func (f *bcFixed) exp(x *big.Int) *big.Int {
	if x.Sign() < 0 {
		return f.div(f.one, f.exp(new(big.Int).Neg(x)))
	}
	k := 0
	for x.Cmp(f.one) > 0 {
		x = new(big.Int).Quo(x, big.NewInt(2))
		k++
	}
	sum, term := new(big.Int).Set(f.one), new(big.Int).Set(f.one)
	for n := int64(1); term.Sign() != 0; n++ {
		term = f.mul(term, x)
		term.Quo(term, big.NewInt(n))
		sum.Add(sum, term)
	}
	for ; k > 0; k-- {
		sum = f.mul(sum, sum)
	}
	return sum
}

// atanh is the series y + y^3/3 + y^5/5 + … for |y| well below 1.
func (f *bcFixed) atanh(y *big.Int) *big.Int {
	sum, pow := new(big.Int).Set(y), new(big.Int).Set(y)
	y2 := f.mul(y, y)
	for n := int64(3); ; n += 2 {
		pow = f.mul(pow, y2)
		term := new(big.Int).Quo(pow, big.NewInt(n))
		if term.Sign() == 0 {
			return sum
		}
		sum.Add(sum, term)
	}
}

// ln is the natural logarithm of x > 0: x = m·2^k with m near 1.
func (f *bcFixed) ln(x *big.Int) *big.Int {
	two := new(big.Int).Mul(f.one, big.NewInt(2))
	half := new(big.Int).Quo(f.one, big.NewInt(2))
	k := int64(0)
	m := new(big.Int).Set(x)
	for m.Cmp(two) >= 0 {
		m.Quo(m, big.NewInt(2))
		k++
	}
	for m.Cmp(half) < 0 {
		m.Mul(m, big.NewInt(2))
		k--
	}
	y := f.div(new(big.Int).Sub(m, f.one), new(big.Int).Add(m, f.one))
	r := new(big.Int).Mul(f.atanh(y), big.NewInt(2))
	ln2 := new(big.Int).Mul(f.atanh(new(big.Int).Quo(f.one, big.NewInt(3))), big.NewInt(2))
	return r.Add(r, new(big.Int).Mul(ln2, big.NewInt(k)))
}

// atan reduces x to a small argument (by 1/x and halving) for the series.
func (f *bcFixed) atan(x *big.Int) *big.Int {
	if x.Sign() < 0 {
		return new(big.Int).Neg(f.atan(new(big.Int).Neg(x)))
	}
	if x.Cmp(f.one) > 0 {
		halfPi := new(big.Int).Mul(f.atan(f.one), big.NewInt(2))
		return halfPi.Sub(halfPi, f.atan(f.div(f.one, x)))
	}
	doublings := int64(0)
	limit := new(big.Int).Quo(f.one, big.NewInt(5))
	for x.Cmp(limit) > 0 {
		root := f.sqrt(new(big.Int).Add(f.one, f.mul(x, x)))
		x = f.div(x, root.Add(root, f.one))
		doublings++
	}
	sum, pow := new(big.Int).Set(x), new(big.Int).Set(x)
	x2 := f.mul(x, x)
	for n := int64(3); ; n += 2 {
		pow = f.mul(pow, x2)
		term := new(big.Int).Quo(pow, big.NewInt(n))
		if term.Sign() == 0 {
			break
		}
		if n%4 == 3 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
	return sum.Lsh(sum, uint(doublings))
}

// sin is the series after reducing x into (-π, π].
func (f *bcFixed) sin(x *big.Int) *big.Int {
	twoPi := new(big.Int).Mul(f.atan(f.one), big.NewInt(8))
	x = new(big.Int).Rem(x, twoPi)
	pi := new(big.Int).Quo(twoPi, big.NewInt(2))
	if x.Cmp(pi) > 0 {
		x.Sub(x, twoPi)
	} else if x.Cmp(new(big.Int).Neg(pi)) <= 0 {
		x.Add(x, twoPi)
	}
	sum, term := new(big.Int).Set(x), new(big.Int).Set(x)
	x2 := f.mul(x, x)
	for n := int64(2); term.Sign() != 0; n += 2 {
		term = f.mul(term, x2)
		term.Quo(term, big.NewInt(n*(n+1)))
		term.Neg(term)
		sum.Add(sum, term)
	}
	return sum
}

// bessel is J_n(x) by its series.
func (f *bcFixed) bessel(n int64, x *big.Int) *big.Int {
	neg := false
	if n < 0 {
		n, neg = -n, n%2 != 0
	}
	half := new(big.Int).Quo(x, big.NewInt(2))
	term := new(big.Int).Set(f.one)
	for i := int64(1); i <= n; i++ {
		term = f.mul(term, half)
		term.Quo(term, big.NewInt(i))
	}
	sum := new(big.Int).Set(term)
	h2 := f.mul(half, half)
	for k := int64(1); term.Sign() != 0; k++ {
		term = f.mul(term, h2)
		term.Quo(term, big.NewInt(k*(k+n)))
		term.Neg(term)
		sum.Add(sum, term)
	}
	if neg {
		sum.Neg(sum)
	}
	return sum
}

// mathFunc runs one library function at the current scale.
func (vm *bcVM) mathFunc(name string, args []bcNum) (bcNum, error) {
	want := map[string]int{"s": 1, "c": 1, "a": 1, "l": 1, "e": 1, "j": 2}[name]
	if len(args) != want {
		return bcNum{}, &bcRuntimeError{"Parameter number mismatch"}
	}
	x := args[len(args)-1]
	guard := 30 + len(x.rescale(0).v.String())*2
	if err := vm.room(4*bcDigitBits(vm.scale+guard) + bcBits(x)); err != nil {
		return bcNum{}, err
	}
	f := newBcFixed(vm.scale + guard)
	f.stopped = vm.t.stopped
	var r *big.Int
	switch name {
	case "e":
		r = f.exp(f.from(x))
	case "l":
		if x.v.Sign() <= 0 {
			// bc's library answers -(10^scale - 1) for a logarithm of
			// nothing, an integer shown at scale.
			big := new(big.Int).Sub(pow10(vm.scale), big.NewInt(1))
			return bcNum{v: big.Neg(big)}.rescale(vm.scale), nil
		}
		if bcCmp(x, bcInt(1)) == 0 {
			return bcInt(0), nil
		}
		r = f.ln(f.from(x))
	case "s":
		r = f.sin(f.from(x))
	case "c":
		halfPi := new(big.Int).Mul(f.atan(f.one), big.NewInt(2))
		r = f.sin(new(big.Int).Add(f.from(x), halfPi))
	case "a":
		r = f.atan(f.from(x))
	case "j":
		r = f.bessel(args[0].rescale(0).v.Int64(), f.from(x))
	}
	return bcNum{v: r, scale: f.p}.rescale(vm.scale), nil
}
