package gojq

// Patch 2 (gatehouse): a program's memory, as its host can ask for it.

import (
	"context"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"unsafe"
)

// Measurer is told what a running program holds. A host that shares one
// heap among several programs cannot tell from the heap which of them
// grew; it asks each of them instead.
type Measurer interface {
	// MeasureWanted reports whether the host asks for a measurement; the
	// program answers with Measured between two of its steps.
	MeasureWanted() bool
	// Measured is the size in bytes of the values the program holds, or
	// a number past limit when it holds more than limit.
	Measured(bytes int64)
	// Limit is the most a program may hold.
	Limit() int64
	// Reserve is asked before a builtin makes one value of n bytes at
	// once (a repeated string, an array extended to a far index, a
	// product of big integers); false refuses it.
	Reserve(n int64) bool
}

type measurerKey struct{}

// WithMeasurer returns a context under which a program run with
// RunWithContext answers m.
func WithMeasurer(ctx context.Context, m Measurer) context.Context {
	return context.WithValue(ctx, measurerKey{}, m)
}

func measurerOf(ctx context.Context) Measurer {
	m, _ := ctx.Value(measurerKey{}).(Measurer)
	return m
}

// memoryLimitError refuses a value too large for the host.
type memoryLimitError struct{ n int64 }

func (err *memoryLimitError) Error() string {
	return "memory limit exceeded: a value of " + strconv.FormatInt(err.n, 10) + " bytes"
}

// MeasureIter is the size in bytes of what a program run with
// RunWithContext holds, counted up to a little past limit, while its Next
// is not running (the caller makes sure of that). 0 for other iterators.
func MeasureIter(it Iter, limit int64) int64 {
	env, ok := it.(*env)
	if !ok {
		return 0
	}
	return env.size(limit)
}

// measure answers the measurer with the size of what env holds.
func (env *env) measure() {
	env.measurer.Measured(env.size(env.measurer.Limit()))
}

// size adds up what env holds: its stack (every block, as the collector
// keeps them), paths, variables and arguments. It stops past limit.
func (env *env) size(limit int64) int64 {
	w := &sizeWalk{limit: limit, seen: map[uintptr]struct{}{}, ctx: env.ctx}
	for _, b := range env.stack.data {
		w.add(b.value)
	}
	for _, b := range env.paths.data {
		w.add(b.value.path)
		w.add(b.value.value)
	}
	for _, v := range env.values {
		w.add(v)
	}
	for _, v := range env.args {
		w.add(v)
	}
	return w.n + env.stacksSize()
}

// stacksSize is what the program's stacks take (patch 6: with the scopes
// and forks, which a runaway recursion grows).
func (env *env) stacksSize() int64 {
	return int64(cap(env.stack.data))*32 + int64(cap(env.paths.data))*40 + int64(cap(env.values))*16 +
		int64(cap(env.scopes.data))*48 + int64(cap(env.forks))*72
}

// sizeWalk adds up the sizes of values, each array, object and string
// that is not small once however often it is referred to (a small one
// shared many times is counted each time: the set of those seen would
// cost more than they do).
type sizeWalk struct {
	n, limit int64
	seen     map[uintptr]struct{}
	stack    []sizeFrame // patch 5
	// Patch 6: the value lists of small objects, reused; the context
	// that stops the walk, and how many values it added.
	free  [][]any
	ctx   context.Context
	count int
}

// sizeFrame is an array or object being walked: what is left of it.
type sizeFrame struct {
	vs  []any
	it  *reflect.MapIter
	own []any // patch 6: a small object's values, vs being what is left
}

func (w *sizeWalk) once(p unsafe.Pointer) bool {
	if p == nil {
		return true
	}
	if _, ok := w.seen[uintptr(p)]; ok {
		return false
	}
	w.seen[uintptr(p)] = struct{}{}
	return true
}

// add adds v and everything in it, without recursion (patch 5: a value
// nested millions deep overflowed the goroutine's stack here): the stack
// holds a frame per array or object being walked.
func (w *sizeWalk) add(v any) {
	base := len(w.stack)
	w.one(v)
	for len(w.stack) > base && w.n <= w.limit {
		// Patch 6: a walk of a large value stops with its program.
		if w.count++; w.count&(1<<14-1) == 0 && w.ctx != nil && w.ctx.Err() != nil {
			w.n = w.limit + 1
			break
		}
		f := &w.stack[len(w.stack)-1]
		switch {
		case f.it != nil && f.it.Next():
			k, x := f.it.Key().String(), f.it.Value().Interface()
			w.one(k)
			w.one(x)
		case f.it == nil && len(f.vs) > 0:
			x := f.vs[0]
			f.vs = f.vs[1:]
			w.one(x)
		default:
			if f.own != nil { // patch 6
				w.free = append(w.free, f.own[:0])
			}
			w.stack = w.stack[:len(w.stack)-1]
		}
	}
	w.stack = w.stack[:base]
}

// one adds v itself, and pushes the frame of its parts.
func (w *sizeWalk) one(v any) {
	if w.n > w.limit {
		return
	}
	switch v := v.(type) {
	case nil, bool:
	case int, float64:
		w.n += 8
	case string:
		if len(v) < 64 || w.once(unsafe.Pointer(unsafe.StringData(v))) {
			w.n += int64(len(v)) + 16
		}
	case *big.Int:
		if w.once(unsafe.Pointer(v)) {
			w.n += int64(cap(v.Bits()))*8 + 32
		}
	case []any:
		if cap(v) == 0 || cap(v) >= 8 && !w.once(unsafe.Pointer(unsafe.SliceData(v[:cap(v)]))) {
			return
		}
		w.n += int64(cap(v))*16 + 24 + 32 // and its frame
		w.stack = append(w.stack, sizeFrame{vs: v})
	case map[string]any:
		if len(v) >= 8 && !w.once(reflect.ValueOf(v).UnsafePointer()) {
			return
		}
		w.n += int64(len(v))*48 + 48 + 32 // and its frame
		if len(v) <= 64 {
			// Patch 6: a small object's values are listed at once, in a
			// list the walk reuses: reflect's iterator allocated for every
			// key and value, and walked a million small objects in 2 s.
			var vs []any
			if n := len(w.free); n > 0 {
				vs, w.free = w.free[n-1], w.free[:n-1]
			}
			for k, x := range v {
				if len(k) < 64 || w.once(unsafe.Pointer(unsafe.StringData(k))) {
					w.n += int64(len(k)) + 16
				}
				vs = append(vs, x)
			}
			w.stack = append(w.stack, sizeFrame{vs: vs, own: vs})
			return
		}
		w.stack = append(w.stack, sizeFrame{it: reflect.ValueOf(v).MapRange()})
	case []pathValue:
		w.n += int64(cap(v)) * 32
		for _, x := range v {
			w.add(x.path)
			w.add(x.value)
		}
	default:
		w.n += 16
	}
}

// reserve asks the measurer before a builtin named name makes a large
// value from x and args; an error when it refuses.
func (env *env) reserve(name string, x any, args []any) error {
	var n float64
	switch name {
	case "_multiply":
		l, r := args[0], args[1]
		if _, ok := r.(string); ok {
			l, r = r, l
		}
		if s, ok := l.(string); ok {
			if f, ok := ToFloat64(r); ok && f > 0 {
				n = float64(len(s)) * math.Min(f, math.MaxInt32)
			}
		} else if a, ok := l.(*big.Int); ok {
			if b, ok := r.(*big.Int); ok {
				n = float64(a.BitLen()+b.BitLen()) / 8
			}
		}
	case "_subjoin": // patch 4
		n = subjoinSize(x, args)
	case "setpath", "_setpath":
		if p, ok := args[0].([]any); ok {
			for _, k := range p {
				if f, ok := ToFloat64(k); ok && f > 0 {
					n += math.Min(f, 1<<40) * 16
				}
			}
		}
	}
	if n < 1<<20 || env.measurer.Reserve(int64(n)) {
		return nil
	}
	return &memoryLimitError{int64(n)}
}

// maxMatches bounds the matches match, test, sub, gsub, scan and splits
// list over one string (patch 3).
const maxMatches = 1 << 20

type tooManyMatchesError struct{ re string }

func (err *tooManyMatchesError) Error() string {
	return "more than " + strconv.Itoa(maxMatches) + " matches of " + Preview(err.re)
}
