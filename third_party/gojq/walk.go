package gojq

import (
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// Patch 5: the builtins written in Go that walk a value by recursion
// (comparisons and sorts, contains and inside, indices, flatten, object
// multiplication, setpath, getpath and delpaths, tojson, tostring and the
// @formats) are bounded before they start. A program builds values of any
// depth ([.] in a reduce), and shares arrays and objects without copying
// them (reduce range(40) as $i (0; [., ., ., ., ., ., ., .]) holds 40
// arrays but is 8^40 values deep-first), so unbounded, one call overflowed
// the goroutine's stack (which ends the process) or ran on for ever out of
// reach of the context.

// maxPrintDepth is jq's MAX_PRINT_DEPTH: a value inside more arrays and
// objects than that is printed as strippedText.
const maxPrintDepth = 256

// strippedText is what jq prints for a value nested past maxPrintDepth.
const strippedText = "<stripped: exceeds max depth>"

// maxWalkDepth bounds the nesting of a value (and the length of a path)
// a builtin walks.
const maxWalkDepth = 10000

// maxWalkParts bounds the parts of the values one builtin call walks,
// a part shared n times counted n times.
const maxWalkParts = 1 << 25

// maxBigBits bounds the product of two integers (about 1,260,000 decimal
// digits): math/big multiplies, and prints in decimal, in one call no
// context stops, so reduce range(30) as $i (2; . * .) (2^(2^30)) ran on
// for minutes after its line was over.
const maxBigBits = 1 << 22

// bigBits is the bits of an integer operand of a multiplication (0 for
// anything else: a float, a string, an object).
func bigBits(v any) int {
	switch v := v.(type) {
	case *big.Int:
		return v.BitLen()
	case int:
		return 64
	}
	return 0
}

type bigLimitError struct{}

func (*bigLimitError) Error() string {
	return "*: integer of more than " + strconv.Itoa(maxBigBits) + " bits"
}

type walkLimitError struct {
	name  string
	deep  bool
	pairs bool
}

// maxPairParts bounds the pairs of parts a builtin that looks for one
// value inside another may compare (a few seconds of work).
const maxPairParts = 1 << 30

func (err *walkLimitError) Error() string {
	name := err.name
	switch name {
	case "_equal", "_notequal", "_less", "_greater", "_lesseq", "_greatereq", "_subtract", "_multiply":
		name = map[string]string{"_equal": "==", "_notequal": "!=", "_less": "<", "_greater": ">",
			"_lesseq": "<=", "_greatereq": ">=", "_subtract": "-", "_multiply": "*"}[name]
	default:
		name = strings.TrimPrefix(name, "_")
	}
	if err.deep {
		return name + ": value nested deeper than " + strconv.Itoa(maxWalkDepth) + " levels"
	}
	if err.pairs {
		return name + ": values too large to look for one inside the other (more than " + strconv.Itoa(maxPairParts) + " pairs of parts)"
	}
	return name + ": value of more than " + strconv.Itoa(maxWalkParts) + " parts (a shared part counted each time)"
}

// walkGuard refuses a call of the builtin name that would walk a value
// deeper than maxWalkDepth or larger than maxWalkParts; for a builtin that
// encodes its input, it asks the measurer (if any) for the size of the text.
func (env *env) walkGuard(name string, x any, args []any) error {
	var vs []any
	var paths []any // paths whose length the builtin recurses on
	encode := false
	switch name {
	case "_multiply":
		if bigBits(args[0])+bigBits(args[1]) > maxBigBits {
			return &bigLimitError{}
		}
		vs = args[:2]
	case "_equal", "_notequal", "_less", "_greater", "_lesseq", "_greatereq", "_subtract":
		vs = args[:2]
	case "contains", "inside", "indices", "index", "rindex", "_sort_by", "_group_by", "_unique_by", "_min_by", "_max_by":
		vs = []any{x, args[0]}
	case "sort", "unique", "min", "max", "flatten":
		vs = []any{x}
	case "_index":
		if _, ok := args[1].([]any); !ok {
			return nil
		}
		vs = args[:2]
	case "setpath", "_setpath", "getpath":
		vs, paths = args[:1], args[:1]
	case "delpaths", "_delpaths":
		vs = []any{args[0], x}
		if ps, ok := args[0].([]any); ok {
			paths = ps
		}
	case "tojson", "tostring", "format":
		vs, encode = []any{x}, true
	default:
		return nil
	}
	for _, p := range paths {
		if p, ok := p.([]any); ok && len(p) > maxWalkDepth {
			return &walkLimitError{name: name, deep: true}
		}
	}
	w := valueWalk{encode: encode}
	var parts [2]int64
	for i, v := range vs {
		before := w.parts
		if !w.walk(v) {
			return &walkLimitError{name: name, deep: w.deep}
		}
		parts[min(i, 1)] = w.parts - before
	}
	switch name {
	case "contains", "inside", "indices", "index", "rindex":
		// Each part of one may be compared with each part of the other:
		// [range(1e6)] | inside([range(1e6)]) ran for hours in one call.
		if parts[0]*parts[1] > maxPairParts {
			return &walkLimitError{name: name, pairs: true}
		}
	}
	if encode && env.measurer != nil && w.bytes >= 1<<20 && !env.measurer.Reserve(w.bytes) {
		return &memoryLimitError{w.bytes}
	}
	return nil
}

// valueWalk counts the parts of values without recursion, and for an
// encoding the bytes of their text (a lower bound: no escapes, no floats'
// exponents); past maxPrintDepth an encoding prints strippedText. Its
// stack holds one frame per level, never the parts themselves.
type valueWalk struct {
	encode bool
	parts  int64
	bytes  int64
	deep   bool
	stack  []walkFrame
}

// walkFrame is an array or object being walked: its next element.
type walkFrame struct {
	vs []any
	it *reflect.MapIter
}

// walk adds v; false when v is too deep or the parts too many.
func (w *valueWalk) walk(v any) bool {
	w.stack = w.stack[:0]
	for {
		if !w.add(v) {
			return false
		}
		// The next part: the first one left in the innermost frame.
		for {
			if len(w.stack) == 0 {
				return true
			}
			f := &w.stack[len(w.stack)-1]
			if f.it != nil && f.it.Next() {
				w.bytes += int64(len(f.it.Key().String())) + 4
				v = f.it.Value().Interface()
				break
			}
			if f.it == nil && len(f.vs) > 0 {
				v, f.vs = f.vs[0], f.vs[1:]
				break
			}
			w.stack = w.stack[:len(w.stack)-1]
		}
	}
}

// add counts v at the depth of the stack, and pushes its frame.
func (w *valueWalk) add(v any) bool {
	if w.parts++; w.parts > maxWalkParts {
		return false
	}
	depth := len(w.stack)
	if w.encode && depth > maxPrintDepth {
		w.bytes += int64(len(strippedText))
		return true
	}
	switch v := v.(type) {
	case string:
		w.bytes += int64(len(v)) + 2
	case *big.Int:
		w.bytes += int64(v.BitLen()/3) + 1
	case []any:
		w.bytes += int64(len(v)) + 2
		if len(v) > 0 {
			return w.push(walkFrame{vs: v})
		}
	case map[string]any:
		w.bytes += 2
		if len(v) > 0 {
			return w.push(walkFrame{it: reflect.ValueOf(v).MapRange()})
		}
	default:
		w.bytes++
	}
	return true
}

func (w *valueWalk) push(f walkFrame) bool {
	if len(w.stack) >= maxWalkDepth {
		w.deep = true
		return false
	}
	w.stack = append(w.stack, f)
	return true
}
