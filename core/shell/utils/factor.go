package utils

import (
	"bufio"
	"io"
	"math/big"
	"sort"
	"strings"
)

const factorHelp = `Usage: factor [NUMBER]...
  or:  factor OPTION
Print the prime factors of each specified integer NUMBER.  If none
are specified on the command line, read them from standard input.

      --help        display this help and exit
      --version     output version information and exit
`

// factorUtility makes factor (see builtins).
func factorUtility(string) *Utility {
	return &Utility{Name: "factor", Run: runFactor, OperandExit: 1, Help: factorHelp}
}

func runFactor(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "factor", usageExit: 1, help: factorHelp})
	if done {
		return status, nil
	}
	ok := true
	operands := args.operandStrings(e.Args)
	if len(operands) > 0 {
		for _, op := range operands {
			if t.stopped() {
				break
			}
			ok = factorOne(t, op) && ok
		}
		return t.end(factorStatus(ok))
	}
	br := bufio.NewReader(t.stdin())
	for !t.stopped() {
		line, err := br.ReadString('\n')
		for _, tok := range strings.Fields(line) {
			if t.stopped() {
				break
			}
			ok = factorOne(t, tok) && ok
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.warn(errText(err))
			return t.end(1)
		}
	}
	return t.end(factorStatus(ok))
}

func factorStatus(ok bool) int {
	if ok {
		return 0
	}
	return 1
}

// factorOne prints "N: p1 p2 ..." for one token, or complains.
func factorOne(t *tool, tok string) bool {
	s := strings.TrimLeft(tok, " \t\n\v\f\r")
	s = strings.TrimPrefix(s, "+")
	n, good := new(big.Int).SetString(s, 10)
	if !good || s == "" || strings.ContainsAny(s, "+-_") || n.Sign() < 0 {
		t.warn(quoteAlways(tok) + " is not a valid positive integer")
		return false
	}
	// The factors of a number are held while it is factored.
	if t.env.Grow(int64(len(s))*8) != nil {
		return false
	}
	factors := factorize(t, n)
	var b strings.Builder
	b.WriteString(n.String() + ":")
	for _, f := range factors {
		b.WriteString(" " + f.String())
	}
	b.WriteByte('\n')
	t.writeString(b.String())
	return true
}

// factorize returns n's prime factors in ascending order: small primes by
// trial division, the rest by Pollard's rho (Brent's variant; in 128-bit
// arithmetic below 2^128) with Baillie-PSW primality tests (exact below
// 2^64), stopping when the line does.
func factorize(t *tool, n *big.Int) []*big.Int {
	var out []*big.Int
	n = new(big.Int).Set(n)
	if n.Cmp(big.NewInt(2)) < 0 {
		return nil
	}
	r := new(big.Int)
	for p := int64(2); p < 1000; p++ {
		bp := big.NewInt(p)
		if p > 2 && p%2 == 0 {
			continue
		}
		for {
			q, m := new(big.Int).QuoRem(n, bp, r)
			if m.Sign() != 0 {
				break
			}
			out = append(out, bp)
			n = q
		}
	}
	stack := []*big.Int{n}
	for len(stack) > 0 && !t.stopped() {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case m.Cmp(big.NewInt(1)) == 0:
		case m.ProbablyPrime(25):
			out = append(out, m)
		default:
			var d *big.Int
			if m.BitLen() <= 128 {
				d = rho128(t, m)
			} else {
				d = factorRho(t, m)
			}
			if d == nil {
				out = append(out, m) // the line stopped
				continue
			}
			stack = append(stack, d, new(big.Int).Quo(m, d))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Cmp(out[j]) < 0 })
	return out
}

// factorRho finds a non-trivial divisor of the composite n: Pollard's
// rho with Floyd's cycle finding, the differences multiplied together and
// one GCD taken per batch (a batch that overshoots is walked again one
// step at a time).
func factorRho(t *tool, n *big.Int) *big.Int {
	one := big.NewInt(1)
	const batch = 128
	for c := int64(1); ; c++ {
		cc := big.NewInt(c)
		f := func(v *big.Int) {
			v.Mul(v, v).Add(v, cc).Mod(v, n)
		}
		x, y := big.NewInt(2), big.NewInt(2)
		q, g, diff := big.NewInt(1), big.NewInt(1), new(big.Int)
		for round := 0; g.Cmp(one) == 0; round++ {
			if round%32 == 0 && t.stopped() {
				return nil
			}
			sx, sy := new(big.Int).Set(x), new(big.Int).Set(y)
			for range batch {
				f(x)
				f(y)
				f(y)
				q.Mul(q, diff.Abs(diff.Sub(x, y))).Mod(q, n)
			}
			g.GCD(nil, nil, q, n)
			if g.Cmp(n) == 0 {
				// Overshot: walk the batch again one step at a time.
				x, y = sx, sy
				g.SetInt64(1)
				for range batch {
					f(x)
					f(y)
					f(y)
					g.GCD(nil, nil, diff.Abs(diff.Sub(x, y)), n)
					if g.Cmp(one) != 0 {
						break
					}
				}
			}
		}
		if g.Cmp(n) != 0 {
			return g
		}
	}
}
