package utils

import (
	"math/big"
	"math/bits"
)

// Numbers below 2^128 are factored in fixed-width arithmetic: Pollard's
// rho (Brent's variant) over Montgomery residues of two 64-bit words, as
// GNU factor does without GMP. With big.Int, a product of two primes near
// 1e15 took longer than a line's 30 s; here it takes about a second.

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

func (a u128) less(b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

func (a u128) isZero() bool { return a.hi|a.lo == 0 }

func (a u128) sub(b u128) u128 {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return u128{hi, lo}
}

func (a u128) add(b u128) (u128, uint64) {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	hi, carry := bits.Add64(a.hi, b.hi, carry)
	return u128{hi, lo}, carry
}

// mulLow is a*b mod 2^128.
func (a u128) mulLow(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	hi += a.hi*b.lo + a.lo*b.hi
	return u128{hi, lo}
}

// mulFull is a*b as four words, least significant first.
func (a u128) mulFull(b u128) [4]uint64 {
	h00, l00 := bits.Mul64(a.lo, b.lo)
	h01, l01 := bits.Mul64(a.lo, b.hi)
	h10, l10 := bits.Mul64(a.hi, b.lo)
	h11, l11 := bits.Mul64(a.hi, b.hi)
	var r [4]uint64
	var c, c2 uint64
	r[0] = l00
	r[1], c = bits.Add64(h00, l01, 0)
	r[2], c = bits.Add64(h01, l11, c)
	r[3], _ = bits.Add64(h11, 0, c)
	r[1], c2 = bits.Add64(r[1], l10, 0)
	r[2], c2 = bits.Add64(r[2], h10, c2)
	r[3], _ = bits.Add64(r[3], 0, c2)
	return r
}

func u128Of(n *big.Int) u128 {
	var lo, hi big.Int
	lo.And(n, new(big.Int).SetUint64(^uint64(0)))
	hi.Rsh(n, 64)
	return u128{hi.Uint64(), lo.Uint64()}
}

func (a u128) big() *big.Int {
	n := new(big.Int).SetUint64(a.hi)
	return n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(a.lo))
}

// mont is arithmetic modulo an odd n > 1 on Montgomery residues (x·2^128
// mod n).
type mont struct {
	n, ninv u128 // ninv·n ≡ -1 (mod 2^128)
	one     u128 // 2^128 mod n
}

func newMont(n u128) *mont {
	// Newton's iteration for n⁻¹ mod 2^128: each step doubles the bits
	// that are right (n is its own inverse mod 8).
	inv := n
	for range 7 {
		inv = inv.mulLow(u128{0, 2}.sub(n.mulLow(inv)))
	}
	m := &mont{n: n, ninv: u128{}.sub(inv)}
	r := new(big.Int).Lsh(big.NewInt(1), 128)
	m.one = u128Of(r.Mod(r, n.big()))
	return m
}

// mul is a·b·2^-128 mod n, for a, b < n.
func (m *mont) mul(a, b u128) u128 {
	t := a.mulFull(b)
	q := u128{t[1], t[0]}.mulLow(m.ninv)
	qn := q.mulFull(m.n)
	// t + qn ≡ 0 (mod 2^128): only its carry out of the low half counts.
	_, c := bits.Add64(t[0], qn[0], 0)
	_, c = bits.Add64(t[1], qn[1], c)
	lo, c := bits.Add64(t[2], qn[2], c)
	hi, c := bits.Add64(t[3], qn[3], c)
	r := u128{hi, lo}
	if c != 0 || !r.less(m.n) {
		r = r.sub(m.n)
	}
	return r
}

// diff is |a - b|.
func diff(a, b u128) u128 {
	if a.less(b) {
		return b.sub(a)
	}
	return a.sub(b)
}

func gcd128(a, b u128) u128 {
	return u128Of(new(big.Int).GCD(nil, nil, a.big(), b.big()))
}

// rho128 finds a non-trivial divisor of the odd composite n < 2^128 by
// Pollard's rho with Brent's cycle finding (the differences multiplied
// together, one GCD per batch); nil when the line stops first.
func rho128(t *tool, bn *big.Int) *big.Int {
	n := u128Of(bn)
	m := newMont(n)
	one := u128{0, 1}
	const batch = 128
	for c := m.one; ; c, _ = c.add(m.one) {
		if !c.less(n) {
			c = c.sub(n)
		}
		f := func(x u128) u128 {
			x = m.mul(x, x)
			x, carry := x.add(c)
			if carry != 0 || !x.less(n) {
				x = x.sub(n)
			}
			return x
		}
		y, x, ys, q, g := m.one, m.one, m.one, m.one, one
		for r := 1; g == one; r *= 2 {
			if t.stopped() {
				return nil
			}
			x = y
			for range r {
				y = f(y)
			}
			for k := 0; k < r && g == one; k += batch {
				ys = y
				for range min(batch, r-k) {
					y = f(y)
					q = m.mul(q, diff(x, y))
				}
				g = gcd128(q, n)
			}
		}
		if g == n || g.isZero() {
			// Overshot: walk the last batch again one step at a time.
			for g = one; g == one; {
				ys = f(ys)
				g = gcd128(diff(x, ys), n)
			}
		}
		if g != n && !g.isZero() {
			return g.big()
		}
	}
}
