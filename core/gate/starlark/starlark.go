// Package starlark is the gate's Starlark policy engine (G-8.3): a
// profile's program written in Starlark, its hooks pre_command, pre_ops and
// pre_session, their ctx a frozen dict. The gate links it only when its
// caller passes Engine (gate.WithEngines).
package starlark

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gatehouse/core/gate"
	"gatehouse/core/gate/internal/policyrun"
)

// Engine is the Starlark engine, as gate.WithEngines takes it.
type Engine struct{}

// Name is "starlark", as a policy block names the engine.
func (Engine) Name() string { return "starlark" }

// Load compiles code and runs its top level (see gate.Engine).
func (Engine) Load(code string, env *gate.ProgramEnv) (gate.Program, gate.Hooks, error) {
	return newStarlarkEngine(code, env)
}

// hookNames are the hooks as Starlark programs define them.
var hookNames = [gate.NumHooks]string{"pre_command", "pre_ops", "pre_session"}

// starlarkEngine runs a Starlark policy program (G-8.3). Its globals are
// frozen after the top level ran, so every goroutine may call the hooks at
// once; each call runs on a thread of its own, taken from a pool.
type starlarkEngine struct {
	env     *gate.ProgramEnv
	budget  policyrun.Budget
	hooks   [gate.NumHooks]starlark.Callable
	mounts  *starlark.Dict // frozen, shared by every ctx
	threads sync.Pool      // *starlarkThread
}

// starlarkThread is a reusable interpreter thread with the watch that
// bounds its calls (core/gate/internal/policyrun).
type starlarkThread struct {
	thread *starlark.Thread
	watch  *policyrun.Watch
	// locked: the running call holds its OS thread, so its clock can be
	// read (see onSteps).
	locked bool
	cwd    string // the calling command's cwd, for open() of a relative path
	facts  starlarkFacts
	// The ctx dicts are the thread's own, cleared and refilled per call:
	// building fresh ones per op was most of pre_ops' cost (G-6.3). A hook
	// sees exactly this call's facts; one call cannot leave anything for
	// the next, since every key is reset.
	ctxDict, opDict, writeDict *starlark.Dict
	// op is ctx["op"], which records the fields a call reads (gate.OpMemo).
	op trackedOp
	// ctx is the hook's argument over ctxDict, filling argv and paths
	// only when the hook looks at them.
	ctx lazyCtx
	// usedFiles: the call read a file, so its answer is not remembered.
	usedFiles bool
}

// starlarkFacts are a command's facts as frozen Starlark values. A command
// makes many ops, so a thread keeps the last command's values and builds
// only the op's part of ctx per call (G-6.3).
type starlarkFacts struct {
	of                 *gate.CommandContext
	command, line, cwd starlark.Value
	// argv and paths are built when a hook first reads them: xargs hands
	// a command thousands of operands, and most hooks never look.
	argv, paths *starlark.List
	session     *starlark.Dict
}

// lists returns argv and paths, building them on first use.
func (f *starlarkFacts) lists() (argv, paths *starlark.List) {
	if f.argv == nil {
		f.argv, f.paths = starlarkStrings(f.of.Argv), starlarkStrings(f.of.Paths)
		f.argv.Freeze()
		f.paths.Freeze()
	}
	return f.argv, f.paths
}

// starlarkOptions are the dialect programs are written in: the Python-like
// conveniences (while, recursion, sets, top-level if/for) are on, because
// the time-out bounds whatever they cost.
var starlarkOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, Recursion: true}

const starlarkThreadKey = "gatehouse.thread"

func newStarlarkEngine(code string, env *gate.ProgramEnv) (gate.Program, gate.Hooks, error) {
	e := &starlarkEngine{env: env, budget: policyrun.NewBudget(env.Timeout), mounts: starlark.NewDict(len(env.Mounts))}
	for _, prefix := range slices.Sorted(maps.Keys(env.Mounts)) {
		_ = e.mounts.SetKey(starlark.String(prefix), starlark.String(env.Mounts[prefix]))
	}
	e.mounts.Freeze()
	e.threads.New = func() any { return e.newThread() }

	predeclared := starlark.StringDict{
		"open":    starlark.NewBuiltin("open", e.open),
		"is_file": starlark.NewBuiltin("is_file", e.isFile),
		"range":   starlark.NewBuiltin("range", boundedRange),
	}
	t := e.newThread()
	var globals starlark.StringDict
	var err error
	timedOut, panicked := t.bounded(e.budget, func() {
		globals, err = starlark.ExecFileOptions(starlarkOptions, t.thread, env.Name, code, predeclared)
	})
	var hooks gate.Hooks
	switch {
	case timedOut:
		return nil, hooks, fmt.Errorf("the top level timed out after %v", env.Timeout)
	case panicked != nil:
		return nil, hooks, fmt.Errorf("the top level panicked: %v", panicked)
	case err != nil:
		return nil, hooks, errors.New(starlarkErrorText(err))
	}
	globals.Freeze()
	for h, name := range hookNames {
		v, ok := globals[name]
		if !ok {
			continue
		}
		fn, callable := v.(starlark.Callable)
		if !callable {
			return nil, hooks, fmt.Errorf("%s is a %s, not a function", name, v.Type())
		}
		e.hooks[h], hooks[h] = fn, true
	}
	e.threads.Put(t)
	return e, hooks, nil
}

func (e *starlarkEngine) newThread() *starlarkThread {
	t := &starlarkThread{thread: &starlark.Thread{
		Name:  e.env.Name,
		Print: func(*starlark.Thread, string) {}, // print() must not reach the host's stderr
	}}
	t.watch = policyrun.NewWatch(func() { t.thread.Cancel(policyrun.ErrStopped.Error()) })
	t.thread.OnMaxSteps = t.onSteps
	t.thread.SetLocal(starlarkThreadKey, t)
	return t
}

// clockSteps is how many steps a call runs before its thread's CPU clock
// is made readable: a call shorter than that (most are) pays for no lock
// and no system call, and cannot have run long.
const clockSteps = 10_000

// bounded runs call on this goroutine within b (inlineWatch). A panic is
// returned, not raised.
func (t *starlarkThread) bounded(b policyrun.Budget, call func()) (timedOut bool, panicked any) {
	t.thread.SetMaxExecutionSteps(t.thread.ExecutionSteps() + clockSteps)
	t.watch.Arm(b)
	func() {
		defer func() { panicked = recover() }()
		call()
	}()
	timedOut = t.watch.Disarm()
	if t.locked {
		runtime.UnlockOSThread()
		t.locked = false
	}
	t.thread.Uncancel()
	return timedOut, panicked
}

// onSteps runs on the call's goroutine once the call has run clockSteps
// steps: it locks the goroutine to its OS thread for the rest of the call
// and hands the thread's clock to the watch.
func (t *starlarkThread) onSteps(thread *starlark.Thread) {
	thread.SetMaxExecutionSteps(math.MaxUint64)
	if !t.locked {
		runtime.LockOSThread()
		t.locked = true
		t.watch.BeginClock()
	}
}

// Call runs hook h (see gate.Program).
func (e *starlarkEngine) Call(h gate.Hook, in *gate.HookInput) (d gate.Decision, err error) {
	t := e.threads.Get().(*starlarkThread)
	t.cwd = in.Facts.Cwd
	ctx := e.ctx(t, in)
	t.usedFiles = false
	var v starlark.Value
	var callErr error
	timedOut, panicked := t.bounded(e.budget, func() {
		v, callErr = starlark.Call(t.thread, e.hooks[h], starlark.Tuple{ctx}, nil)
	})
	switch {
	case panicked != nil:
		// A thread that panicked mid-call is dropped rather than reused.
		return gate.Decision{}, fmt.Errorf("%s: %v", hookNames[h], panicked)
	case timedOut:
		e.threads.Put(t)
		return gate.Decision{}, e.env.TimedOut(hookNames[h])
	}
	defer e.threads.Put(t)
	if callErr != nil {
		return gate.Decision{}, fmt.Errorf("%s: %s", hookNames[h], starlarkErrorText(callErr))
	}
	d, err = decodeStarlark(h, v)
	if err == nil && in.Memo != nil && in.Op != nil && !t.op.opaque && !t.usedFiles {
		in.Memo.Remember(t.op.read, in.Op, d)
	}
	return d, err
}

// ctx builds the hook's argument (G-8.2) as a native dict, frozen: a hook
// reads the facts, it does not change them.
func (e *starlarkEngine) ctx(t *starlarkThread, in *gate.HookInput) *lazyCtx {
	f := &t.facts
	if f.of != in.Facts {
		*f = newStarlarkFacts(in.Facts)
	}

	if t.ctxDict == nil {
		t.ctxDict, t.opDict, t.writeDict = starlark.NewDict(8), starlark.NewDict(4), starlark.NewDict(3)
	}
	d := t.ctxDict
	_ = d.Clear()
	_ = d.SetKey(keyCommand, f.command)
	_ = d.SetKey(keyLine, f.line)
	_ = d.SetKey(keyCwd, f.cwd)
	_ = d.SetKey(keySession, f.session)
	_ = d.SetKey(keyMounts, e.mounts)
	if op := in.Op; op != nil {
		o := t.opDict
		_ = o.Clear()
		_ = o.SetKey(keyName, starlark.String(op.Name))
		_ = o.SetKey(keyPath, starlark.String(op.Path))
		_ = o.SetKey(keyWrite, starlark.Bool(op.Write))
		_ = o.SetKey(keyPrefix, starlark.String(op.Prefix))
		t.op = trackedOp{d: o}
		_ = d.SetKey(keyOp, &t.op)
	}
	if w := in.Write; w != nil {
		o := t.writeDict
		_ = o.Clear()
		_ = o.SetKey(keyKey, starlark.String(w.Key))
		_ = o.SetKey(keyValue, starlark.String(w.Value))
		_ = o.SetKey(keyVerb, starlark.String(w.Verb))
		_ = d.SetKey(keyWrite, o)
	}
	t.ctx = lazyCtx{d: d, f: f}
	return &t.ctx
}

func newStarlarkFacts(c *gate.CommandContext) starlarkFacts {
	session := starlark.NewDict(3)
	_ = session.SetKey(keyID, starlark.String(c.Session.ID))
	_ = session.SetKey(keyAgentID, starlark.String(c.Session.AgentID))
	_ = session.SetKey(keyProfile, starlark.String(c.Session.Profile))
	f := starlarkFacts{
		of:      c,
		command: starlark.String(c.Command), line: starlark.String(c.Line), cwd: starlark.String(c.Cwd),
		session: session,
	}
	session.Freeze()
	return f
}

// The ctx keys, as Values once rather than per call.
var (
	keyCommand starlark.Value = starlark.String("command")
	keyArgv    starlark.Value = starlark.String("argv")
	keyLine    starlark.Value = starlark.String("line")
	keyPaths   starlark.Value = starlark.String("paths")
	keyCwd     starlark.Value = starlark.String("cwd")
	keySession starlark.Value = starlark.String("session")
	keyMounts  starlark.Value = starlark.String("mounts")
	keyID      starlark.Value = starlark.String("id")
	keyAgentID starlark.Value = starlark.String("agent_id")
	keyProfile starlark.Value = starlark.String("profile")
	keyOp      starlark.Value = starlark.String("op")
	keyName    starlark.Value = starlark.String("name")
	keyPath    starlark.Value = starlark.String("path")
	keyWrite   starlark.Value = starlark.String("write")
	keyPrefix  starlark.Value = starlark.String("prefix")
	keyKey     starlark.Value = starlark.String("key")
	keyValue   starlark.Value = starlark.String("value")
	keyVerb    starlark.Value = starlark.String("verb")
)

func starlarkStrings(list []string) *starlark.List {
	elems := make([]starlark.Value, len(list))
	for i, s := range list {
		elems[i] = starlark.String(s)
	}
	return starlark.NewList(elems)
}

// decodeStarlark reads a hook's return value (G-8.1): None, "allow",
// "deny", "ask", {"deny": reason} or {"ask": reason}.
func decodeStarlark(h gate.Hook, v starlark.Value) (gate.Decision, error) {
	switch r := v.(type) {
	case starlark.NoneType:
		return gate.NoOpinion(), nil
	case starlark.String:
		if d, ok := gate.Answer(h, string(r), ""); ok {
			return d, nil
		}
	case *starlark.Dict:
		if r.Len() == 1 {
			item := r.Items()[0]
			word, wordOK := item[0].(starlark.String)
			reason, reasonOK := item[1].(starlark.String)
			if wordOK && reasonOK && (word == "deny" || word == "ask") {
				if d, ok := gate.Answer(h, string(word), string(reason)); ok {
					return d, nil
				}
			}
		}
	}
	return gate.Decision{}, gate.UnknownAnswer(hookNames[h], h, v.String(), "None")
}

// starlarkErrorText is an error's message without Starlark's backtrace.
func starlarkErrorText(err error) string {
	var evalErr *starlark.EvalError
	if errors.As(err, &evalErr) {
		return evalErr.Msg
	}
	return err.Error()
}

// open(path) returns a file's text, read through the op door's rules but
// not the program's own pre_ops (G-8.3). A hidden path fails exactly like a
// missing one: "open: PATH: No such file or directory".
func (e *starlarkEngine) open(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &name); err != nil {
		return nil, err
	}
	markFileUse(thread)
	data, err := e.env.ReadFile(threadCwd(thread), name)
	if err != nil {
		return nil, err
	}
	return starlark.String(data), nil
}

// is_file(path) reports whether path is a regular file the program may
// see, so a program can skip what open() would fail on.
func (e *starlarkEngine) isFile(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &name); err != nil {
		return nil, err
	}
	markFileUse(thread)
	return starlark.Bool(e.env.IsFile(threadCwd(thread), name)), nil
}

func markFileUse(thread *starlark.Thread) {
	if t, ok := thread.Local(starlarkThreadKey).(*starlarkThread); ok {
		t.usedFiles = true
	}
}

// lazyCtx is the hook's ctx: a read-only dict whose argv and paths are
// put in only when the hook reads them or looks at ctx whole. It keeps
// dict's face (type "dict", ctx[k], k in ctx, get/keys/items/values, len,
// iteration, str) so hooks cannot tell it from the dict it fills.
type lazyCtx struct {
	d      *starlark.Dict
	f      *starlarkFacts
	filled bool
}

var (
	_ starlark.IterableMapping = (*lazyCtx)(nil)
	_ starlark.HasAttrs        = (*lazyCtx)(nil)
	_ starlark.Sequence        = (*lazyCtx)(nil)
)

// full puts argv and paths in, once per call, in the order G-8.2 lists
// the keys (command, argv, line, paths, then the rest as they were).
func (c *lazyCtx) full() *starlark.Dict {
	if !c.filled {
		c.filled = true
		argv, paths := c.f.lists()
		items := c.d.Items()
		_ = c.d.Clear()
		_ = c.d.SetKey(keyCommand, c.f.command)
		_ = c.d.SetKey(keyArgv, argv)
		_ = c.d.SetKey(keyLine, c.f.line)
		_ = c.d.SetKey(keyPaths, paths)
		for _, kv := range items {
			if kv[0] != keyCommand && kv[0] != keyLine {
				_ = c.d.SetKey(kv[0], kv[1])
			}
		}
	}
	return c.d
}

func (c *lazyCtx) String() string        { return c.full().String() }
func (c *lazyCtx) Type() string          { return "dict" }
func (c *lazyCtx) Freeze()               {}
func (c *lazyCtx) Truth() starlark.Bool  { return starlark.True }
func (c *lazyCtx) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: dict") }
func (c *lazyCtx) Len() int              { return c.full().Len() }
func (c *lazyCtx) Iterate() starlark.Iterator {
	return c.full().Iterate()
}
func (c *lazyCtx) Items() []starlark.Tuple { return c.full().Items() }
func (c *lazyCtx) Attr(name string) (starlark.Value, error) {
	return c.full().Attr(name)
}
func (c *lazyCtx) AttrNames() []string { return c.full().AttrNames() }

func (c *lazyCtx) Get(k starlark.Value) (starlark.Value, bool, error) {
	if k == keyArgv || k == keyPaths {
		return c.full().Get(k)
	}
	return c.d.Get(k)
}

// trackedOp is ctx["op"]: a read-only mapping over the op's fields that
// records which fields a call reads by key, so its answer can be
// remembered for ops that agree on them (gate.OpMemo). Anything that sees the
// op whole (iteration, str, methods such as get or keys) makes the call
// opaque, and an opaque call is never remembered.
type trackedOp struct {
	d      *starlark.Dict
	read   gate.OpFields
	opaque bool
}

var (
	_ starlark.Mapping  = (*trackedOp)(nil)
	_ starlark.HasAttrs = (*trackedOp)(nil)
	_ starlark.Iterable = (*trackedOp)(nil)
	_ starlark.Sequence = (*trackedOp)(nil)
)

func (o *trackedOp) String() string        { o.opaque = true; return o.d.String() }
func (o *trackedOp) Type() string          { return "dict" }
func (o *trackedOp) Freeze()               {}
func (o *trackedOp) Truth() starlark.Bool  { return starlark.True }
func (o *trackedOp) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: dict") }
func (o *trackedOp) Len() int              { o.opaque = true; return o.d.Len() }
func (o *trackedOp) Iterate() starlark.Iterator {
	o.opaque = true
	return o.d.Iterate()
}
func (o *trackedOp) Attr(name string) (starlark.Value, error) {
	o.opaque = true
	return o.d.Attr(name)
}
func (o *trackedOp) AttrNames() []string { o.opaque = true; return o.d.AttrNames() }

func (o *trackedOp) Get(k starlark.Value) (starlark.Value, bool, error) {
	switch k {
	case keyName:
		o.read |= gate.FieldName
	case keyPath:
		o.read |= gate.FieldPath
	case keyWrite:
		o.read |= gate.FieldWrite
	case keyPrefix:
		o.read |= gate.FieldPrefix
	default:
		// Another key is absent whatever the op: reading it tells nothing.
	}
	return o.d.Get(k)
}

func threadCwd(thread *starlark.Thread) string {
	if t, ok := thread.Local(starlarkThreadKey).(*starlarkThread); ok {
		return t.cwd
	}
	return "/"
}
