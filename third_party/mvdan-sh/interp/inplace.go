// Added to this copy by gatehouse (see PATCHES.md, patch 120); under the
// same licence.

package interp

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/internal"
	"mvdan.cc/sh/v3/syntax"
)

// Element writes in place.
//
// A variable's value is shared freely: lookups hand out its slices and
// map, subshells read their parent's, background jobs copy the headers.
// So a write that builds a new value copies the old one first, and a loop
// that fills an array one element at a time (a[i]=v, A[k]=v, a+=(v),
// ((A[k]++)), s+=x) would take time in the square of its length. Instead
// the entry that holds a variable copies the value once, for itself, and
// is then "owned": later element writes change that private storage, and
// the memory handler is charged by exactly what each write adds, the same
// total [varBytes] would count. Any other write replaces the entry, which
// clears the mark; starting a background copy of the variables clears it
// everywhere up the chain, since both shells go on running.
//
// The var handler sees whole values (a write it judges must show what the
// variable would become), so with a handler every write still builds a
// new value.

// writeTarget returns the overlay an assignment to name writes, as Set
// decides it, and the entry it holds there, if any.
func (o *overlayEnviron) writeTarget(name string) (*overlayEnviron, namedVariable, bool) {
	for {
		nv, in := o.values[o.normalize(name)]
		if !o.funcScope || (in && nv.Local) {
			return o, nv, in
		}
		parent, ok := o.parent.(*overlayEnviron)
		if !ok {
			return nil, namedVariable{}, false
		}
		o = parent
	}
}

// disown clears the owned mark of every entry in o and its parents.
func (o *overlayEnviron) disown() {
	for o != nil {
		for key, nv := range o.values {
			if nv.owned {
				nv.owned = false
				o.values[key] = nv
			}
		}
		o, _ = o.parent.(*overlayEnviron)
	}
}

// inPlaceTarget returns the entry an element write to name may change in
// place: a set, writable variable of the given kind held by the overlay
// the write goes to, made private to that entry if it was not yet.
func (r *Runner) inPlaceTarget(name string, kind expand.ValueKind) (*overlayEnviron, namedVariable, bool) {
	if r.varHandler != nil && !r.varBookkeeping {
		return nil, namedVariable{}, false
	}
	env, ok := r.writeEnv.(*overlayEnviron)
	if !ok {
		return nil, namedVariable{}, false
	}
	o, nv, ok := env.writeTarget(name)
	if !ok || nv.Kind != kind || !nv.IsSet() || nv.ReadOnly {
		return nil, namedVariable{}, false
	}
	if !nv.owned && kind != expand.String {
		vr := &nv.Variable
		vr.List = slices.Clone(vr.List)
		vr.Indexes = slices.Clone(vr.Indexes)
		if kind == expand.Associative {
			vr.Keys = slices.Clone(expand.AssocOrder(*vr))
			vr.Map = maps.Clone(vr.Map)
			if vr.Map == nil {
				vr.Map = map[string]string{}
			}
		}
		nv.owned = true
	}
	return o, nv, true
}

// chargeInPlace asks the memory handler for what an in-place write adds;
// the error names the variable, as a refused write of a whole value does.
func (r *Runner) chargeInPlace(name string, delta int64) error {
	if r.memHandler == nil || delta <= 0 {
		return nil
	}
	if err := r.memHandler(r.memCtx(), delta); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// storeInPlace keeps an entry changed in place, and what it added to or
// gave back from the memory the runner holds.
func (r *Runner) storeInPlace(o *overlayEnviron, nv namedVariable, delta int64) {
	if r.opts[optAllExport] {
		nv.Exported = true
	}
	o.values[o.normalize(nv.Name)] = nv
	if r.memHandler == nil || delta == 0 {
		return
	}
	r.memHeld += delta
	if delta < 0 {
		r.memHandler(r.memCtx(), delta)
	}
}

// putElem sets element k of an indexed array, or key of an associative
// one, in the owned storage of nv, charging what the write adds.
func (r *Runner) putElem(o *overlayEnviron, nv namedVariable, k int, key, val string) (expand.Variable, error) {
	vr := &nv.Variable
	var delta int64
	if vr.Kind == expand.Associative {
		old, had := vr.Map[key]
		delta = int64(len(val) - len(old))
		if !had {
			delta += int64(len(key)) + 48
		}
		if err := r.chargeInPlace(nv.Name, delta); err != nil {
			return *vr, err
		}
		vr.Map[key] = val
		if !had {
			vr.Keys = append(vr.Keys, key)
		}
	} else {
		old, had := indexedElem(*vr, k)
		delta = int64(len(val) - len(old))
		if !had {
			delta += 16 + 8*int64(sparseLenAfter(vr.List, vr.Indexes, k)-len(vr.Indexes))
		}
		if err := r.chargeInPlace(nv.Name, delta); err != nil {
			return *vr, err
		}
		vr.List, vr.Indexes = internal.SetIndexedElem(vr.List, vr.Indexes, k, val)
	}
	r.storeInPlace(o, nv, delta)
	return *vr, nil
}

// sparseLenAfter is how many indexes an indexed array records once a new
// element k is added: none while it stays dense.
func sparseLenAfter(list []string, indexes []int, k int) int {
	n := len(list)
	if indexes == nil && k == n {
		return 0
	}
	if indexes != nil && max(k, indexes[len(indexes)-1]) == n {
		return 0 // the new element fills the last hole
	}
	return n + 1
}

// assignInPlace runs the assignment statement as to name, whose value is
// prev, when it writes one element of an array, appends elements to an
// indexed array or appends to a string. It reports false, having
// evaluated nothing, for any other assignment, which builds a new value.
// Otherwise the value and subscript are expanded as [Runner.assignNew]
// would, the write goes to the variable's own storage when it can, and a
// failure is reported with r.exit set.
func (r *Runner) assignInPlace(name string, prev expand.Variable, as *syntax.Assign) (expand.Variable, bool) {
	if !prev.IsSet() || (r.varHandler != nil && !r.varBookkeeping) {
		return prev, false
	}
	if _, ok := r.writeEnv.(*overlayEnviron); !ok || computedVar(name) {
		return prev, false
	}
	switch {
	case as.Index != nil && as.Array == nil:
		if w, ok := as.Index.(*syntax.Word); ok && blankWord(w) {
			return prev, false // assignElem reports it
		}
		switch prev.Kind {
		case expand.Associative:
			return r.assocElemInPlace(name, as), true
		case expand.Indexed:
			return r.indexedElemInPlace(name, as), true
		}
	case as.Index == nil && as.Array != nil && as.Append:
		if prev.Kind != expand.Indexed || prev.Integer {
			return prev, false
		}
		for _, elem := range as.Array.Elems {
			if elem.Index != nil {
				return prev, false
			}
		}
		return r.appendElemsInPlace(name, as.Array.Elems), true
	case as.Index == nil && as.Array == nil && as.Append:
		if prev.Kind != expand.String || prev.Integer || prev.Lower || prev.Upper {
			return prev, false
		}
		return r.appendTextInPlace(name, as.Value), true
	}
	return prev, false
}

// computedVar reports whether lookups of name compute its value rather
// than read the variable stored under that name.
func computedVar(name string) bool {
	switch name {
	case "PPID", "BASHPID", "RANDOM", "SRANDOM", "DIRSTACK", "PIPESTATUS", "FUNCNAME", "BASH_SOURCE", "BASH_LINENO", "BASH_COMMAND":
		return true
	}
	return false
}

// writableVar is name's value for a write that replaces it: not a
// caller's local to be shadowed, as the assignment statement takes it.
func (r *Runner) writableVar(name string) expand.Variable {
	vr := r.lookupVar(name)
	vr.Local = false
	return vr
}

// failInPlace reports a refused write as setVar does.
func (r *Runner) failInPlace(err error) {
	r.errf("%v\n", err)
	r.exit.code = 1
}

// assocElemInPlace is A[k]=v or A[k]+=v.
func (r *Runner) assocElemInPlace(name string, as *syntax.Assign) expand.Variable {
	val := ""
	if as.Value != nil {
		val = r.assignLiteral(as.Value)
	}
	key := r.literal(as.Index.(*syntax.Word))
	cur := r.writableVar(name)
	if r.exit.exiting {
		return cur
	}
	val = r.attrValue(cur, cur.Map[key], val, as.Append)
	if r.exit.exiting {
		return cur
	}
	o, nv, ok := r.inPlaceTarget(name, expand.Associative)
	if !ok {
		// The subscript changed what the name holds.
		vr := expand.AssocSet(cur, key, val)
		r.setVar(name, vr)
		return vr
	}
	vr, err := r.putElem(o, nv, 0, key, val)
	if err != nil {
		r.failInPlace(err)
	}
	return vr
}

// indexedElemInPlace is a[i]=v or a[i]+=v.
func (r *Runner) indexedElemInPlace(name string, as *syntax.Assign) expand.Variable {
	val := ""
	if as.Value != nil {
		val = r.assignLiteral(as.Value)
	}
	cur := r.writableVar(name)
	if r.exit.exiting {
		return cur
	}
	refusals := r.varRefusals
	k := r.arithm(as.Index)
	if r.varRefusals != refusals || r.exit.exiting {
		return cur // the subscript's own write was refused, or it failed
	}
	// The subscript may have written the array: take it as it is now.
	cur = r.writableVar(name)
	if cur.Kind != expand.Indexed {
		vr := r.assignElem(name, cur, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: fmt.Sprint(k)}}}, val, as.Append)
		if r.exit.ok() {
			r.setVar(name, vr)
		}
		return vr
	}
	if k < 0 {
		// Negative indices count from one past the maximum index.
		if k += internal.IndexedMax(cur.List, cur.Indexes) + 1; k < 0 || len(cur.List) == 0 {
			r.errf("bash: %s[%s]: bad array subscript\n", name, nodeText(as.Index))
			r.exit.code = 1
			return cur
		}
	}
	old, _ := indexedElem(cur, k)
	val = r.attrValue(cur, old, val, as.Append)
	if r.exit.exiting {
		return cur
	}
	o, nv, ok := r.inPlaceTarget(name, expand.Indexed)
	if !ok {
		list, indexes := internal.SetIndexedElem(slices.Clone(cur.List), slices.Clone(cur.Indexes), k, val)
		cur.List, cur.Indexes = list, indexes
		r.setVar(name, cur)
		return cur
	}
	vr, err := r.putElem(o, nv, k, "", val)
	if err != nil {
		r.failInPlace(err)
	}
	return vr
}

// appendElemsInPlace is a+=(v …) without subscripts: the values go at the
// indexes after the highest one.
func (r *Runner) appendElemsInPlace(name string, elems []*syntax.ArrayElem) expand.Variable {
	var vals []string
	for _, elem := range elems {
		vals = append(vals, r.fields(elem.Value)...)
		if r.exit.exiting {
			return r.writableVar(name)
		}
	}
	cur := r.writableVar(name)
	for i, val := range vals {
		vals[i] = r.attrValue(cur, "", val, false)
	}
	o, nv, ok := r.inPlaceTarget(name, expand.Indexed)
	if !ok {
		if cur.Kind == expand.String && cur.IsSet() {
			cur.List, cur.Indexes = []string{cur.Str}, nil
		}
		cur.Kind, cur.Str, cur.Set = expand.Indexed, "", true
		cur.List, cur.Indexes = appendElems(slices.Clone(cur.List), slices.Clone(cur.Indexes), vals)
		r.setVar(name, cur)
		return cur
	}
	vr := &nv.Variable
	var delta int64
	for _, val := range vals {
		delta += int64(len(val)) + 16
	}
	if vr.Indexes != nil {
		delta += 8 * int64(len(vals))
	}
	if err := r.chargeInPlace(name, delta); err != nil {
		r.failInPlace(err)
		return *vr
	}
	vr.List, vr.Indexes = appendElems(vr.List, vr.Indexes, vals)
	r.storeInPlace(o, nv, delta)
	return *vr
}

// appendElems adds vals at the indexes after an indexed array's highest.
func appendElems(list []string, indexes []int, vals []string) ([]string, []int) {
	if indexes != nil {
		next := indexes[len(indexes)-1] + 1
		for i := range vals {
			indexes = append(indexes, next+i)
		}
	}
	if list == nil {
		list = []string{} // an array of nothing still expands to no fields
	}
	return append(list, vals...), indexes
}

// appendTextInPlace is s+=v for a string without case or integer
// attributes: the text grows in a buffer the entry keeps.
func (r *Runner) appendTextInPlace(name string, word *syntax.Word) expand.Variable {
	val := ""
	if word != nil {
		val = r.assignLiteral(word)
	}
	cur := r.writableVar(name)
	if r.exit.exiting {
		return cur
	}
	o, nv, ok := r.inPlaceTarget(name, expand.String)
	if !ok || nv.Integer || nv.Lower || nv.Upper {
		vr := r.assignNew(name, cur, &syntax.Assign{Append: true, Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}}})
		r.setVar(name, vr)
		return vr
	}
	delta := int64(len(val))
	if err := r.chargeInPlace(name, delta); err != nil {
		r.failInPlace(err)
		return nv.Variable
	}
	if nv.text == nil {
		nv.text = new(strings.Builder)
		nv.text.Grow(len(nv.Str) + len(val))
		nv.text.WriteString(nv.Str)
	}
	nv.text.WriteString(val)
	nv.Str = nv.text.String()
	r.storeInPlace(o, nv, delta)
	return nv.Variable
}

// SetElem lets arithmetic (((A[k]++)), let, a[i]=…) write one element in
// place; see the expand package's elemSetter.
func (e expandEnv) SetElem(name string, kind expand.ValueKind, index int, key, val string) (bool, error) {
	r := e.r
	if computedVar(name) {
		return false, nil
	}
	o, nv, ok := r.inPlaceTarget(name, kind)
	if !ok {
		return false, nil
	}
	_, err := r.putElem(o, nv, index, key, val)
	return true, err
}
