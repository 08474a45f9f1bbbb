package utils

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// The 128-bit Montgomery product agrees with big.Int's: a·b·2^-128 mod n
// for odd moduli of every size up to 2^128 - 1.
func TestMont128AgainstBig(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	r := new(big.Int).Lsh(big.NewInt(1), 128)
	for i := range 2000 {
		n := u128{rng.Uint64() >> (i % 64), rng.Uint64() | 1}
		if i%5 == 0 {
			n = u128{^uint64(0), ^uint64(0) - uint64(2*i)}
		}
		if n == (u128{0, 1}) {
			continue
		}
		m, bn := newMont(n), n.big()
		a := u128Of(new(big.Int).Mod(u128{rng.Uint64(), rng.Uint64()}.big(), bn))
		b := u128Of(new(big.Int).Mod(u128{rng.Uint64(), rng.Uint64()}.big(), bn))
		got := new(big.Int).Mul(m.mul(a, b).big(), r)
		got.Mod(got, bn)
		want := new(big.Int).Mul(a.big(), b.big())
		want.Mod(want, bn)
		if got.Cmp(want) != 0 {
			t.Fatalf("n=%v a=%v b=%v: mul·2^128 = %v, want %v", bn, a.big(), b.big(), got, want)
		}
		if one := new(big.Int).Mod(r, bn); m.one.big().Cmp(one) != 0 {
			t.Fatalf("n=%v: one %v, want %v", bn, m.one.big(), one)
		}
	}
}
