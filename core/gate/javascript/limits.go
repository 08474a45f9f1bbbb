package javascript

import (
	"fmt"
	"sync"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/dop251/goja"

	"gatehouse/core/gate/internal/policyrun"
)

// What one JavaScript builtin may build is bounded (policyrun.MaxElements,
// MaxString, MaxNesting): the builtins whose work an argument or a length
// sets refuse past the bounds with a RangeError, like any other exception
// (G-8.4).

func init() {
	// A backtracking regular expression (lookaround, backreferences) runs
	// in regexp2, which no interrupt reaches; its own clock stops a match.
	// goja is the only user of regexp2 in the process.
	regexp2.DefaultMatchTimeout = policyrun.RegexpMatchCap
}

var regexpClock sync.Once

// keepRegexpClock keeps regexp2's clock running for the life of the
// process. regexp2 reads time from a goroutine that it stops when no match
// has a deadline; a match that starts while the clock is stopped takes its
// deadline from the last reading, so after a quiet spell it times out at
// the clock's first tick, a tenth of a second in, and reads as "no match":
// a program would answer as if a pattern had not matched. One match with a
// deadline a century away keeps the clock ticking (ten times a second).
func keepRegexpClock() {
	regexpClock.Do(func() {
		re := regexp2.MustCompile("x", regexp2.None)
		re.MatchTimeout = 100 * 365 * 24 * time.Hour
		_, _ = re.MatchString("x")
	})
}

// limitJavaScript applies the bounds to a fresh runtime, before the
// program's top level runs. Binary buffers (ArrayBuffer, typed arrays,
// DataView) are removed: a policy has no use for them, and their
// constructors allocate whatever length they are given.
func limitJavaScript(vm *goja.Runtime) {
	vm.SetMaxCallStackSize(policyrun.MaxNesting)
	global := vm.GlobalObject()
	for _, name := range []string{"ArrayBuffer", "SharedArrayBuffer", "DataView", "Atomics",
		"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
		"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"} {
		_ = global.Delete(name)
	}
	array := global.Get("Array").ToObject(vm)
	arrayProto := array.Get("prototype").ToObject(vm)
	for _, name := range arrayProto.GetOwnPropertyNames() {
		if name == "constructor" {
			continue
		}
		guard(vm, arrayProto, name, func(call goja.FunctionCall) string {
			return lengthWithin(call.This, "Array.prototype."+name)
		})
	}
	guard(vm, array, "from", func(call goja.FunctionCall) string {
		return lengthWithin(call.Argument(0), "Array.from")
	})
	strProto := global.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	guard(vm, strProto, "repeat", func(call goja.FunctionCall) string {
		n := call.Argument(0).ToFloat()
		if float64(len(call.This.String()))*n > policyrun.MaxString {
			return fmt.Sprintf("String.prototype.repeat: the result would be over %d characters", policyrun.MaxString)
		}
		return ""
	})
	for _, name := range []string{"padStart", "padEnd"} {
		guard(vm, strProto, name, func(call goja.FunctionCall) string {
			if call.Argument(0).ToFloat() > policyrun.MaxString {
				return fmt.Sprintf("String.prototype.%s: the result would be over %d characters", name, policyrun.MaxString)
			}
			return ""
		})
	}
	json := global.Get("JSON").ToObject(vm)
	guard(vm, json, "parse", func(call goja.FunctionCall) string {
		if jsonNesting(call.Argument(0).String()) > policyrun.MaxNesting {
			return fmt.Sprintf("JSON.parse: nested deeper than %d", policyrun.MaxNesting)
		}
		return ""
	})
}

// guard replaces obj[name] with a function that runs check first and
// throws what it says as a RangeError ("" lets the call through), then
// calls the original.
func guard(vm *goja.Runtime, obj *goja.Object, name string, check func(goja.FunctionCall) string) {
	orig, ok := goja.AssertFunction(obj.Get(name))
	if !ok {
		return
	}
	fn := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		if refusal := check(call); refusal != "" {
			panic(newRangeError(vm, refusal))
		}
		v, err := orig(call.This, call.Arguments...)
		if err != nil {
			panic(err) // rethrown as it was: an exception, or an interrupt
		}
		return v
	})
	_ = obj.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// newRangeError makes a RangeError, so `catch (e) { e.message }` reads a
// bound's refusal as it would any other.
func newRangeError(vm *goja.Runtime, msg string) goja.Value {
	if obj, err := vm.New(vm.Get("RangeError"), vm.ToValue(msg)); err == nil {
		return obj
	}
	return vm.ToValue(msg)
}

// lengthWithin refuses an array-like whose length is past the bound.
func lengthWithin(v goja.Value, who string) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		return ""
	}
	if n := obj.Get("length"); n != nil && n.ToFloat() > policyrun.MaxElements {
		return fmt.Sprintf("%s: a length over %d elements", who, policyrun.MaxElements)
	}
	return ""
}

// jsonNesting is the deepest nesting of arrays and objects in a JSON text
// (brackets inside strings do not count).
func jsonNesting(text string) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
