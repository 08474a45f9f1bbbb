package utils

import (
	"errors"
	"math/big"
	"strings"
)

// call evaluates a function call: the built-ins, the -l library, and the
// program's own functions (dynamic scope: parameters and autos shadow
// globals of the same name until the call returns, as in bc).
func (vm *bcVM) call(n *bcNode) (bcNum, error) {
	if f, ok := vm.funcs[n.text]; ok {
		return vm.callUser(f, n)
	}
	args := make([]bcNum, 0, len(n.kids))
	for _, k := range n.kids {
		if k.kind == "array" {
			return bcNum{}, &bcRuntimeError{"Function " + n.text + " not defined."}
		}
		v, err := vm.eval(k)
		if err != nil {
			return v, err
		}
		args = append(args, v)
	}
	switch {
	case n.text == "length" && len(args) == 1:
		return bcInt(int64(bcLength(args[0]))), nil
	case n.text == "scale" && len(args) == 1:
		return bcInt(int64(args[0].scale)), nil
	case n.text == "sqrt" && len(args) == 1:
		if err := vm.room(bcBits(args[0]) + 2*bcDigitBits(max(vm.scale, args[0].scale))); err != nil {
			return bcNum{}, err
		}
		if r, ok := bcSqrt(args[0], vm.scale); ok {
			return r, nil
		}
		return bcNum{}, &bcRuntimeError{"Square root of a negative number"}
	case n.text == "read":
		return bcNum{}, &bcRuntimeError{"read() is not supported: a bc program has no terminal to read from"}
	case vm.mathlib && len(n.text) == 1 && strings.Contains("scalej", n.text):
		return vm.mathFunc(n.text, args)
	}
	return bcNum{}, &bcRuntimeError{"Function " + n.text + " not defined."}
}

// callUser runs a function the program defined.
func (vm *bcVM) callUser(f *bcNode, n *bcNode) (bcNum, error) {
	params := f.names[:f.at]
	if len(n.kids) != len(params) {
		return bcNum{}, &bcRuntimeError{"Parameter number mismatch"}
	}
	// Each call nests Go calls: an endless recursion must end before the
	// goroutine's stack does, or the whole process ends (G-12.3).
	if vm.calls >= bcMaxCalls {
		return bcNum{}, &bcRuntimeError{"function calls nested too deep (limit 10000)"}
	}
	vm.calls++
	defer func() { vm.calls-- }()
	type saved struct {
		name  string
		v     bcNum
		had   bool
		array map[int64]bcNum
	}
	var restore []saved
	bind := func(name string, v bcNum, arr map[int64]bcNum) {
		if base, isArr := strings.CutSuffix(name, "[]"); isArr {
			restore = append(restore, saved{name: name, array: vm.arrays[base]})
			vm.arrays[base] = arr
			return
		}
		old, had := vm.vars[name]
		restore = append(restore, saved{name: name, v: old, had: had})
		vm.vars[name] = v
	}
	// Arguments are evaluated before any binding, in the caller's scope.
	vals := make([]bcNum, len(params))
	arrs := make([]map[int64]bcNum, len(params))
	for i, k := range n.kids {
		if k.kind == "array" {
			copyArr := map[int64]bcNum{}
			for idx, v := range vm.arrays[k.text] {
				copyArr[idx] = v
			}
			arrs[i] = copyArr
			continue
		}
		v, err := vm.eval(k)
		if err != nil {
			return v, err
		}
		vals[i] = v
	}
	for i, p := range params {
		bind(p, vals[i], arrs[i])
	}
	for _, a := range f.names[f.at:] {
		bind(a, bcInt(0), map[int64]bcNum{})
	}
	defer func() {
		for i := len(restore) - 1; i >= 0; i-- {
			r := restore[i]
			if base, isArr := strings.CutSuffix(r.name, "[]"); isArr {
				vm.arrays[base] = r.array
			} else if r.had {
				vm.vars[r.name] = r.v
			} else {
				delete(vm.vars, r.name)
			}
		}
	}()
	err := vm.exec(f.kids[0])
	var ret bcReturn
	switch {
	case errors.As(err, &ret):
		return ret.v, nil
	case err != nil:
		return bcNum{}, err
	}
	return bcInt(0), nil
}

// bcMaxCalls bounds how many calls of the program's functions run within
// each other.
const bcMaxCalls = 10000

// bcMaxBits bounds a number bc computes, about 1.25 million decimal
// digits: past that one multiplication, square root or conversion
// outlasts any line and, being one call into math/big, would not stop
// with it.
const bcMaxBits = 1 << 22

// room refuses a result of about bits bits before it is computed: past
// bcMaxBits, or past what the line's memory budget may still hold.
func (vm *bcVM) room(bits int64) error {
	if bits <= 1<<16 {
		return nil
	}
	if bits > bcMaxBits {
		return &bcRuntimeError{"number too large (the limit is about 1,250,000 digits)"}
	}
	if vm.t.env.Grow(bits/8) != nil {
		return errBcQuit // the line has ended with the budget's error
	}
	vm.t.env.Grow(-bits / 8)
	return nil
}

// bcBits is the size of a number's digits, in bits.
func bcBits(a bcNum) int64 { return int64(a.v.BitLen()) + bcDigitBits(a.scale) }

// bcDigitBits is the size of n decimal digits, in bits (rounded up).
func bcDigitBits(n int) int64 { return (int64(max(n, 0))*10 + 2) / 3 }

// bcPowBits is the size of a raised to e, in bits, at most past
// bcMaxBits; a base of 0 or ±1 stays small.
func bcPowBits(a bcNum, e int64, scale int) int64 {
	if e < 0 {
		e = -e
	}
	b := bcBits(a)
	if a.scale == 0 && a.v.CmpAbs(big.NewInt(1)) <= 0 || e == 0 {
		return bcDigitBits(scale)
	}
	if e > bcMaxBits/max(b, 1) {
		return bcMaxBits + 1
	}
	return b*e + bcDigitBits(scale)
}
