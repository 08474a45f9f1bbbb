// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	cryptorand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/internal"
	"mvdan.cc/sh/v3/syntax"
)

func newOverlayEnviron(parent expand.Environ, background bool) *overlayEnviron {
	oenv := &overlayEnviron{}
	if !background {
		oenv.parent = parent
	} else {
		// We could do better here if the parent is also an overlayEnviron;
		// measure with profiles or benchmarks before we choose to do so.
		for name, vr := range parent.Each {
			oenv.Set(name, vr)
		}
		// The copy shares the values' storage with a shell that goes on
		// running: neither may change it in place any more (patch 120).
		if p, ok := parent.(*overlayEnviron); ok {
			p.disown()
		}
	}
	return oenv
}

// overlayEnviron is our main implementation of [expand.WriteEnviron].
type overlayEnviron struct {
	// parent is non-nil if [values] is an overlay over a parent environment
	// which we can safely reuse without data races, such as non-background subshells
	// or function calls.
	parent expand.Environ

	// values maps normalized variable names, per [overlayEnviron.normalize].
	values map[string]namedVariable

	// We need to know if the current scope is a function's scope, because
	// functions can modify global variables. When true, [parent] must not be nil.
	funcScope bool
}

// namedVariable records the original name of a variable for platforms
// where variable names are matched in a case-insensitive way.
type namedVariable struct {
	// TODO(v4): consider adding this field to [expand.Variable],
	// as a general way for a variable to report its original name.
	// This can be useful for GOOS=windows with case insensitive env vars,
	// as otherwise it's not possible to Environ.Get a var
	// and know what was its original name without looping over Environ.Each.
	Name string
	expand.Variable

	// owned says the value's storage (List, Indexes, Map, Keys) was
	// copied for this entry and is held by nothing else, so an element
	// write may change it in place (gatehouse, patch 120). Any Set
	// replaces the entry and so clears it.
	owned bool

	// text, when not nil, holds Str with room to grow, so that s+=x
	// appends in place; Str is always text.String() (patch 120).
	text *strings.Builder
}

func (o *overlayEnviron) normalize(name string) string {
	if runtime.GOOS == "windows" {
		return strings.ToUpper(name)
	}
	return name
}

func (o *overlayEnviron) Get(name string) expand.Variable {
	normalized := o.normalize(name)
	if vr, ok := o.values[normalized]; ok {
		return vr.Variable
	}
	if o.parent != nil {
		return o.parent.Get(name)
	}
	return expand.Variable{}
}

func (o *overlayEnviron) Set(name string, vr expand.Variable) error {
	normalized := o.normalize(name)
	prev, inOverlay := o.values[normalized]
	// Manipulation of a global var inside a function.
	// A caller's local is the caller's to change (gatehouse).
	if o.funcScope && !vr.Local && !(inOverlay && prev.Local) {
		// In a function, the parent environment is ours, so it's always read-write.
		return o.parent.(expand.WriteEnviron).Set(name, vr)
	}
	if !inOverlay && o.parent != nil {
		prev.Variable = o.parent.Get(name)
	}

	if o.values == nil {
		o.values = make(map[string]namedVariable)
	}
	if vr.Kind == expand.KeepValue {
		vr.Kind = prev.Kind
		vr.Str = prev.Str
		vr.List = prev.List
		vr.Indexes = prev.Indexes
		vr.Map = prev.Map
		vr.Keys = prev.Keys
	} else if prev.ReadOnly {
		return errReadOnly
	}
	if !vr.IsSet() { // unsetting
		if prev.Local {
			vr.Local = true
			o.values[normalized] = namedVariable{Name: name, Variable: vr}
			return nil
		}
		delete(o.values, normalized)
	}
	// modifying the entire variable
	vr.Local = prev.Local || vr.Local
	o.values[normalized] = namedVariable{Name: name, Variable: vr}
	return nil
}

func (o *overlayEnviron) Each(f func(name string, vr expand.Variable) bool) {
	if o.parent != nil {
		o.parent.Each(f)
	}
	for _, vr := range o.values {
		if !f(vr.Name, vr.Variable) {
			return
		}
	}
}

func execEnv(env expand.Environ) []string {
	list := make([]string, 0, 64)
	for name, vr := range env.Each {
		if !vr.IsSet() {
			// If a variable is set globally but unset in the
			// runner, we need to ensure it's not part of the final
			// list. Seems like zeroing the element is enough.
			// This is a linear search, but this scenario should be
			// rare, and the number of variables shouldn't be large.
			for i, kv := range list {
				if strings.HasPrefix(kv, name+"=") {
					list[i] = ""
				}
			}
		}
		if vr.Exported && vr.Kind == expand.String {
			list = append(list, name+"="+vr.String())
		}
	}
	return list
}

func (r *Runner) lookupVar(name string) expand.Variable {
	if name == "" {
		panic("variable name must not be empty")
	}
	var vr expand.Variable
	switch name {
	case "#":
		vr.Kind, vr.Str = expand.String, strconv.Itoa(len(r.Params))
	case "@", "*":
		vr.Kind = expand.Indexed
		if r.Params == nil {
			// r.Params may be nil but positional parameters always exist
			vr.List = []string{}
		} else {
			vr.List = r.Params
		}
	case "!":
		if n := len(r.bgProcs); n > 0 {
			vr.Kind, vr.Str = expand.String, "g"+strconv.Itoa(n)
			if pid := r.bgProcs[n-1].pid; pid != 0 {
				vr.Str = strconv.Itoa(pid)
			}
		}
	case "?":
		vr.Kind, vr.Str = expand.String, strconv.Itoa(int(r.lastExit.code))
	case "-":
		// Note that we don't support some of Bash's flags, such as h or B.
		vr.Kind, vr.Str = expand.String, r.posixOptFlags()
	case "$":
		if r.procIDs != nil {
			vr.Kind, vr.Str = expand.String, strconv.Itoa(r.procIDs.pid)
			break
		}
		vr.Kind, vr.Str = expand.String, strconv.Itoa(os.Getpid())
	case "PPID":
		if r.procIDs != nil {
			vr.Kind, vr.Str = expand.String, strconv.Itoa(r.procIDs.ppid)
			break
		}
		vr.Kind, vr.Str = expand.String, strconv.Itoa(os.Getppid())
	case "BASHPID":
		if r.procIDs != nil {
			vr.Kind, vr.Str = expand.String, strconv.Itoa(r.ownPID())
		}
	case "RANDOM": // not for cryptographic use
		// Without a seed we use the global generator, which is seeded randomly
		// and also uses ChaCha8. Note that [Runner.subshell] does not copy the
		// seeded generator, so subshells start afresh like in bash.
		var n int
		if r.rand != nil {
			n = r.rand.IntN(randomMax)
		} else {
			n = mathrand.IntN(randomMax)
		}
		vr.Kind, vr.Str = expand.String, strconv.Itoa(n)
	case "SRANDOM": // pseudo-random generator from the system
		var p [4]byte
		cryptorand.Read(p[:])
		n := binary.NativeEndian.Uint32(p[:])
		vr.Kind, vr.Str = expand.String, strconv.FormatUint(uint64(n), 10)
	case "DIRSTACK":
		vr.Kind, vr.List = expand.Indexed, r.dirStack
	case "BASH_COMMAND":
		vr.Kind, vr.Str = expand.String, r.commandText()
	case "FUNCNAME", "BASH_SOURCE", "BASH_LINENO":
		if list := r.frameList(name); list != nil {
			vr.Kind, vr.List = expand.Indexed, list
		}
	case "PIPESTATUS":
		vr.Kind, vr.List = expand.Indexed, make([]string, len(r.pipeStatus))
		for i, code := range r.pipeStatus {
			vr.List[i] = strconv.Itoa(int(code))
		}
	case "0":
		vr.Kind = expand.String
		if r.filename != "" {
			vr.Str = r.filename
		} else {
			vr.Str = "bash" // gatehouse: the shell it presents, as bash -c sets $0 (patch 96)
		}
	case "1", "2", "3", "4", "5", "6", "7", "8", "9":
		if i := int(name[0] - '1'); i < len(r.Params) {
			vr.Kind = expand.String
			vr.Str = r.Params[i]
		}
	}
	if vr.Kind != expand.Unknown {
		vr.Set = true
		return vr
	}
	if vr := r.writeEnv.Get(name); vr.Declared() {
		return vr
	}
	return expand.Variable{}
}

func (r *Runner) envGet(name string) string {
	return r.lookupVar(name).String()
}

func (r *Runner) delVar(name string) {
	if err := r.checkVarWrite(name, expand.Variable{}); err != nil {
		r.errf("%v\n", err)
		r.exit.code = 1
		return
	}
	var delta int64
	if r.memHandler != nil {
		delta, _ = r.chargeVar(r.writeEnv.Get(name), expand.Variable{})
	}
	if err := r.writeEnv.Set(name, expand.Variable{}); err != nil {
		r.errf("%s: %v\n", name, err)
		r.exit.code = 1
		return
	}
	r.settleVar(delta, true)
}

func (r *Runner) setVarString(name, value string) {
	r.setVar(name, expand.Variable{Set: true, Kind: expand.String, Str: value})
}

func (r *Runner) setVar(name string, vr expand.Variable) {
	if err := r.setVarErr(name, vr); err != nil {
		if errors.Is(err, errReadOnly) {
			r.errf("bash: ")
			// Callers that end what they were doing when a write is
			// refused end it for a read-only variable too.
			r.varRefusals++
		}
		r.errf("%v\n", err)
		r.exit.code = 1
	}
}

// errReadOnly is returned when trying to modify a read-only variable.
var errReadOnly = errors.New("readonly variable")

// randomMax is one past the highest value that RANDOM expands to, like in Bash.
const randomMax = 32768

// setVarErr is like [Runner.setVar], but it returns any error rather than
// reporting it, for the sake of the expand package.
func (r *Runner) setVarErr(name string, vr expand.Variable) error {
	if r.opts[optAllExport] {
		vr.Exported = true
	}
	if err := r.checkVarWrite(name, vr); err != nil {
		return err
	}
	var delta int64
	if r.memHandler != nil {
		var err error
		if delta, err = r.chargeVar(r.writeEnv.Get(name), vr); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := r.writeEnv.Set(name, vr); err != nil {
		r.settleVar(delta, false)
		return fmt.Errorf("%s: %w", name, err)
	}
	r.settleVar(delta, true)
	if name == "RANDOM" && vr.Kind == expand.String {
		// Assigning to RANDOM seeds its generator; the stored value is never
		// read, as [Runner.lookupVar] always computes a new number. We only
		// seed once the assignment succeeds so that attributes such as
		// read-only still apply. We use ChaCha8 rather than PCG, whose only
		// edge is speed, which is irrelevant next to expanding a variable.
		var seed [32]byte
		binary.LittleEndian.PutUint64(seed[:], uint64(atoi(vr.Str)))
		r.rand = mathrand.New(mathrand.NewChaCha8(seed))
	}
	return nil
}

// setVarWithIndex assigns vr's string to name, or to its element index
// when index is not nil (printf -v 'a[i]').
func (r *Runner) setVarWithIndex(prev expand.Variable, name string, index syntax.ArithmExpr, vr expand.Variable) {
	if n, v := prev.Resolve(r.writeEnv); n != "" {
		name, prev = n, v
	}
	prev.Local = false
	if index == nil {
		r.setVar(name, r.assignNew(name, prev, &syntax.Assign{Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: vr.Str}}}}))
		return
	}
	vr = r.assignElem(name, prev, index, vr.Str, false)
	if r.exit.ok() {
		r.setVar(name, vr)
	}
}

// blankWord reports whether a word is one literal of blanks or nothing.
func blankWord(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.Trim(lit.Value, " \t\n") == ""
}

// cutElemSubscript splits an array element argument like `a[3]`, as used by
// the unset builtin, into the array name and the subscript between brackets.
func cutElemSubscript(arg string) (name, sub string, ok bool) {
	i := strings.IndexByte(arg, '[')
	if i > 0 && strings.HasSuffix(arg, "]") && syntax.ValidName(arg[:i]) {
		return arg[:i], arg[i+1 : len(arg)-1], true
	}
	return "", "", false
}

// subscriptKey expands an associative array's subscript given as text, as
// in unset 'A[$k]' or test -v 'A["k"]': expansions and quotes as in a
// word, no splitting.
func (r *Runner) subscriptKey(sub string) string {
	expr, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
	if err != nil {
		return sub
	}
	w, ok := expr.(*syntax.Word)
	if !ok {
		return sub
	}
	return r.literal(w)
}

// elemIsSet reports whether the element a subscripted name such as a[3]
// or A[k] names is set, for test -v.
func (r *Runner) elemIsSet(name, sub string) bool {
	vr := r.lookupVar(name)
	if _, v := vr.Resolve(r.writeEnv); v.Kind != expand.Unknown {
		vr = v
	}
	switch vr.Kind {
	case expand.Associative:
		if sub == "@" || sub == "*" {
			return len(vr.Map) > 0
		}
		_, ok := vr.Map[r.subscriptKey(sub)]
		return ok
	case expand.Indexed, expand.String:
		if sub == "@" || sub == "*" {
			return vr.IsSet() && (vr.Kind == expand.String || len(vr.List) > 0)
		}
		expr, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
		if err != nil || expr == nil {
			return false
		}
		k := r.arithm(expr)
		if vr.Kind == expand.String {
			return vr.IsSet() && (k == 0 || k == -1)
		}
		if k < 0 {
			k += internal.IndexedMax(vr.List, vr.Indexes) + 1
		}
		_, ok := indexedElem(vr, k)
		return ok
	}
	return false
}

// unsetElem unsets a single element of an indexed or associative array, like
// `unset 'a[3]'`. Unsetting an indexed array element may leave a hole.
func (r *Runner) unsetElem(name, sub string) {
	vr := r.lookupVar(name)
	if n, v := vr.Resolve(r.writeEnv); n != "" {
		name, vr = n, v
	}
	switch vr.Kind {
	case expand.Indexed:
		if sub == "@" || sub == "*" {
			r.delVar(name)
			return
		}
		expr, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
		if err != nil {
			r.errf("unset: %s[%s]: bad array subscript\n", name, sub)
			r.exit.code = 1
			return
		}
		if expr == nil {
			return // an empty subscript like `unset 'a[]'` is a no-op
		}
		k := r.arithm(expr)
		if k < 0 {
			// Negative indices count from one past the maximum index.
			if k += internal.IndexedMax(vr.List, vr.Indexes) + 1; k < 0 {
				r.errf("unset: %s[%s]: bad array subscript\n", name, sub)
				r.exit.code = 1
				return
			}
		}
		// TODO: only clone when inside a subshell and getting a var from outside for the first time
		vr.List = slices.Clone(vr.List)
		vr.Indexes = slices.Clone(vr.Indexes)
		vr.List, vr.Indexes = internal.DeleteIndexedElem(vr.List, vr.Indexes, k)
		r.setVar(name, vr)
	case expand.Associative:
		if sub == "@" || sub == "*" {
			r.delVar(name)
			return
		}
		vr = expand.AssocDelete(vr, r.subscriptKey(sub))
		r.setVar(name, vr)
	case expand.String:
		// A scalar can be unset via subscript zero.
		if sub == "0" {
			r.delVar(name)
		} else {
			r.errf("unset: %s: not an array variable\n", name)
			r.exit.code = 1
		}
	}
}

func (r *Runner) setFunc(name string, body *syntax.Stmt) {
	if r.Funcs == nil {
		r.Funcs = make(map[string]*syntax.Stmt, 4)
	}
	r.Funcs[name] = body
}
