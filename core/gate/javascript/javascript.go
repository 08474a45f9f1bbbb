// Package javascript is the gate's JavaScript policy engine (G-8.3): a
// profile's program written in JavaScript (goja), its hooks preCommand,
// preOps and preSession, their ctx a plain object with the keys of the
// Starlark engine's dict. The gate links it only when its caller passes
// Engine (gate.WithEngines).
package javascript

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/dop251/goja"

	"gatehouse/core/gate"
	"gatehouse/core/gate/internal/policyrun"
)

// Engine is the JavaScript engine, as gate.WithEngines takes it.
type Engine struct{}

// Name is "javascript", as a policy block names the engine.
func (Engine) Name() string { return "javascript" }

// Load compiles code and runs its top level (see gate.Engine).
func (Engine) Load(code string, env *gate.ProgramEnv) (gate.Program, gate.Hooks, error) {
	return newJavaScriptEngine(code, env)
}

// hookNames are the hooks as JavaScript programs define them.
var hookNames = [gate.NumHooks]string{"preCommand", "preOps", "preSession"}

// javascriptEngine runs a JavaScript policy program (G-8.3). A goja
// Runtime is not safe for concurrent use, so the engine keeps a pool of
// runtimes, each with the program already loaded; a call borrows one.
type javascriptEngine struct {
	env      *gate.ProgramEnv
	budget   policyrun.Budget
	compiled *goja.Program
	runtimes sync.Pool // *jsRuntime
}

// jsRuntime is one loaded interpreter with its hooks and the slot its
// calls run through (core/gate/internal/policyrun).
type jsRuntime struct {
	vm     *goja.Runtime
	hooks  [gate.NumHooks]goja.Callable // nil where the program defines none
	mounts *goja.Object                 // frozen, shared by every ctx of this runtime
	slot   *policyrun.Slot
	cwd    string // the calling command's cwd, for open() of a relative path
	err    error  // the program failed to load into this runtime
}

func newJavaScriptEngine(code string, env *gate.ProgramEnv) (gate.Program, gate.Hooks, error) {
	var hooks gate.Hooks
	compiled, err := goja.Compile(env.Name, code, false)
	if err != nil {
		return nil, hooks, err
	}
	keepRegexpClock()
	e := &javascriptEngine{env: env, budget: policyrun.NewBudget(env.Timeout), compiled: compiled}
	e.runtimes.New = func() any { return e.load() }
	rt := e.load()
	if rt.err != nil {
		return nil, hooks, rt.err
	}
	for h := range hooks {
		hooks[h] = rt.hooks[h] != nil
	}
	e.runtimes.Put(rt)
	return e, hooks, nil
}

// load makes a runtime and runs the program's top level in it, under the
// hook time-out.
func (e *javascriptEngine) load() *jsRuntime {
	vm := goja.New()
	rt := &jsRuntime{vm: vm, slot: policyrun.NewSlot()}
	limitJavaScript(vm)
	freeze, _ := goja.AssertFunction(vm.Get("Object").ToObject(vm).Get("freeze"))
	rt.mounts = vm.NewObject()
	for _, prefix := range slices.Sorted(maps.Keys(e.env.Mounts)) {
		_ = rt.mounts.Set(prefix, e.env.Mounts[prefix])
	}
	_, _ = freeze(goja.Undefined(), rt.mounts)
	_ = vm.Set("open", rt.open(e))
	_ = vm.Set("isFile", rt.isFile(e))

	var err error
	timedOut, panicked := rt.slot.Run(e.budget,
		func() { _, err = vm.RunProgram(e.compiled) },
		func() { vm.Interrupt(policyrun.ErrStopped) },
		func() {}) // an abandoned runtime is never used again
	switch {
	case timedOut:
		rt.err = fmt.Errorf("the top level timed out after %v", e.env.Timeout)
		return rt
	case panicked != nil:
		rt.err = fmt.Errorf("the top level panicked: %v", panicked)
		return rt
	case err != nil:
		rt.err = errors.New(javascriptErrorText(err))
		return rt
	}
	for h, name := range hookNames {
		v := vm.Get(name)
		if v == nil || goja.IsUndefined(v) {
			continue
		}
		fn, ok := goja.AssertFunction(v)
		if !ok {
			rt.err = fmt.Errorf("%s is not a function", name)
			return rt
		}
		rt.hooks[h] = fn
	}
	return rt
}

// Call runs hook h (see gate.Program).
func (e *javascriptEngine) Call(h gate.Hook, in *gate.HookInput) (d gate.Decision, err error) {
	rt := e.runtimes.Get().(*jsRuntime)
	if rt.err != nil {
		return gate.Decision{}, fmt.Errorf("%s: %v", hookNames[h], rt.err)
	}
	if rt.hooks[h] == nil {
		// Top-level code that defines hooks conditionally can differ between
		// runtimes; a runtime without this hook has no opinion to give.
		e.runtimes.Put(rt)
		return gate.NoOpinion(), nil
	}
	rt.cwd = in.Facts.Cwd
	ctx := rt.ctx(in)
	var v goja.Value
	var callErr error
	timedOut, panicked := rt.slot.Run(e.budget,
		func() { v, callErr = rt.hooks[h](goja.Undefined(), ctx) },
		func() { rt.vm.Interrupt(policyrun.ErrStopped) },
		func() {
			// The abandoned call has returned: the runtime is whole again.
			rt.vm.ClearInterrupt()
			e.runtimes.Put(rt)
		})
	switch {
	case timedOut:
		return gate.Decision{}, e.env.TimedOut(hookNames[h])
	case panicked != nil:
		// A runtime that panicked mid-call is dropped rather than reused.
		return gate.Decision{}, fmt.Errorf("%s panicked: %v", hookNames[h], panicked)
	}
	defer e.runtimes.Put(rt)
	if callErr != nil {
		return gate.Decision{}, fmt.Errorf("%s: %s", hookNames[h], javascriptErrorText(callErr))
	}
	return decodeJavaScript(rt.vm, h, v)
}

// ctx builds the hook's argument (G-8.2) as a native object, afresh per
// call so nothing one call does to it reaches the next; the keys are those
// of the Starlark dict, so one program reads the same in both engines.
func (rt *jsRuntime) ctx(in *gate.HookInput) *goja.Object {
	vm, f := rt.vm, in.Facts
	o := vm.NewObject()
	session := vm.NewObject()
	_ = session.Set("id", f.Session.ID)
	_ = session.Set("agent_id", f.Session.AgentID)
	_ = session.Set("profile", f.Session.Profile)
	_ = o.Set("command", f.Command)
	_ = o.Set("argv", jsStrings(vm, f.Argv))
	_ = o.Set("line", f.Line)
	_ = o.Set("paths", jsStrings(vm, f.Paths))
	_ = o.Set("cwd", f.Cwd)
	_ = o.Set("session", session)
	_ = o.Set("mounts", rt.mounts)
	if op := in.Op; op != nil {
		opObj := vm.NewObject()
		_ = opObj.Set("name", op.Name)
		_ = opObj.Set("path", op.Path)
		_ = opObj.Set("write", op.Write)
		_ = opObj.Set("prefix", op.Prefix)
		_ = o.Set("op", opObj)
	}
	if w := in.Write; w != nil {
		wObj := vm.NewObject()
		_ = wObj.Set("key", w.Key)
		_ = wObj.Set("value", w.Value)
		_ = wObj.Set("verb", w.Verb)
		_ = o.Set("write", wObj)
	}
	return o
}

func jsStrings(vm *goja.Runtime, list []string) *goja.Object {
	items := make([]any, len(list))
	for i, s := range list {
		items[i] = s
	}
	return vm.NewArray(items...)
}

// decodeJavaScript reads a hook's return value (G-8.1): undefined, null,
// "allow", "deny", "ask", {deny: reason} or {ask: reason}.
func decodeJavaScript(vm *goja.Runtime, h gate.Hook, v goja.Value) (gate.Decision, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return gate.NoOpinion(), nil
	}
	switch x := v.Export().(type) {
	case string:
		if d, ok := gate.Answer(h, x, ""); ok {
			return d, nil
		}
	case map[string]any:
		if obj, isObj := v.(*goja.Object); isObj {
			if keys := obj.Keys(); len(keys) == 1 && (keys[0] == "deny" || keys[0] == "ask") {
				if reason, ok := obj.Get(keys[0]).Export().(string); ok {
					if d, ok := gate.Answer(h, keys[0], reason); ok {
						return d, nil
					}
				}
			}
		}
	}
	return gate.Decision{}, gate.UnknownAnswer(hookNames[h], h, describeJavaScript(v), "undefined, null")
}

// describeJavaScript shows an unknown answer as JSON where it can.
func describeJavaScript(v goja.Value) string {
	if data, err := json.Marshal(v.Export()); err == nil {
		return string(data)
	}
	return v.String()
}

// javascriptErrorText is what was thrown, without goja's stack positions:
// "Error: boom" for `throw new Error("boom")`.
func javascriptErrorText(err error) string {
	var overflow *goja.StackOverflowError
	if errors.As(err, &overflow) {
		return "RangeError: Maximum call stack size exceeded"
	}
	var ex *goja.Exception
	if errors.As(err, &ex) && ex.Value() != nil {
		return ex.Value().String()
	}
	return err.Error()
}

// open(path) returns a file's text, read through the op door's rules but
// not the program's own pre_ops (G-8.3); a failure throws an Error whose
// message is the same for a hidden path as for a missing one.
func (rt *jsRuntime) open(e *javascriptEngine) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		data, err := e.env.ReadFile(rt.cwd, call.Argument(0).String())
		if err != nil {
			panic(rt.jsError(err.Error()))
		}
		return rt.vm.ToValue(string(data))
	}
}

// isFile(path) reports whether path is a regular file the program may see.
func (rt *jsRuntime) isFile(e *javascriptEngine) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		return rt.vm.ToValue(e.env.IsFile(rt.cwd, call.Argument(0).String()))
	}
}

// jsError makes a plain Error, so `catch (e) { e.message }` reads as in any
// JavaScript program.
func (rt *jsRuntime) jsError(msg string) goja.Value {
	ctor := rt.vm.Get("Error")
	if obj, err := rt.vm.New(ctor, rt.vm.ToValue(msg)); err == nil {
		return obj
	}
	return rt.vm.ToValue(msg)
}
