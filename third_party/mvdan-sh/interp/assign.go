// Added to this copy by gatehouse (see PATCHES.md); under the same licence.

package interp

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/internal"
	"mvdan.cc/sh/v3/syntax"
)

// assignNew returns what vr becomes after the assignment as: a scalar
// (to element zero of an array), an element (a[i]=v), or an array literal,
// each with += appending and with vr's attributes applied. A failure is
// reported and leaves r.exit set; vr is then returned unchanged.
func (r *Runner) assignNew(name string, vr expand.Variable, as *syntax.Assign) expand.Variable {
	switch {
	case as.Array != nil && as.Index != nil:
		r.errf("bash: %s[%s]: cannot assign list to array member\n", name, nodeText(as.Index))
		r.exit.code = 1
		r.exit.exiting = true
		r.exit.discard = true
		return vr
	case as.Array != nil:
		return r.arrayLiteral(name, vr, as.Array.Elems, as.Append)
	case as.Index != nil:
		val := ""
		if as.Value != nil {
			val = r.assignLiteral(as.Value)
		}
		return r.assignElem(name, vr, as.Index, val, as.Append)
	}
	val := ""
	if as.Value != nil {
		val = r.assignLiteral(as.Value)
	}
	switch vr.Kind {
	case expand.Indexed:
		old, _ := indexedElem(vr, 0)
		vr.List, vr.Indexes = internal.SetIndexedElem(slices.Clone(vr.List), slices.Clone(vr.Indexes), 0, r.attrValue(vr, old, val, as.Append))
	case expand.Associative:
		vr = expand.AssocSet(vr, "0", r.attrValue(vr, vr.Map["0"], val, as.Append))
	case expand.NameRef:
		vr.Str = val
	default:
		vr.Kind = expand.String
		vr.Str = r.attrValue(vr, vr.Str, val, as.Append && vr.IsSet())
	}
	vr.Set = true
	return vr
}

// indexedElem returns element i of an indexed array.
func indexedElem(vr expand.Variable, i int) (string, bool) {
	if vr.Indexes != nil {
		if pos, ok := slices.BinarySearch(vr.Indexes, i); ok {
			return vr.List[pos], true
		}
		return "", false
	}
	if i >= 0 && i < len(vr.List) {
		return vr.List[i], true
	}
	return "", false
}

// assignElem sets one element, a[i]=val or a[i]+=val; a scalar becomes an
// indexed array holding it at index zero.
func (r *Runner) assignElem(name string, vr expand.Variable, index syntax.ArithmExpr, val string, app bool) expand.Variable {
	if w, ok := index.(*syntax.Word); ok && blankWord(w) {
		r.errf("bash: %s[%s]: bad array subscript\n", name, w.Lit())
		r.exit.code = 1
		return vr
	}
	if vr.Kind == expand.Associative {
		k := r.literal(index.(*syntax.Word))
		return expand.AssocSet(vr, k, r.attrValue(vr, vr.Map[k], val, app))
	}
	var list []string
	var indexes []int
	switch vr.Kind {
	case expand.String:
		if vr.IsSet() {
			list = []string{vr.Str}
		}
	case expand.Indexed:
		list, indexes = slices.Clone(vr.List), slices.Clone(vr.Indexes)
	}
	refusals := r.varRefusals
	k := r.arithm(index)
	if r.varRefusals != refusals || r.exit.exiting {
		return vr // the subscript's own write was refused, or it failed
	}
	if k < 0 {
		// Negative indices count from one past the maximum index.
		if k += internal.IndexedMax(list, indexes) + 1; k < 0 || len(list) == 0 {
			r.errf("bash: %s[%s]: bad array subscript\n", name, nodeText(index))
			r.exit.code = 1
			return vr
		}
	}
	probe := expand.Variable{Kind: expand.Indexed, List: list, Indexes: indexes}
	old, _ := indexedElem(probe, k)
	list, indexes = internal.SetIndexedElem(list, indexes, k, r.attrValue(vr, old, val, app))
	vr.Kind, vr.Str, vr.List, vr.Indexes, vr.Set = expand.Indexed, "", list, indexes, true
	return vr
}

// nodeText prints a node as the program spelled it, for messages.
func nodeText(n syntax.Node) string {
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, n)
	return sb.String()
}

// literalElem is an element of an array literal after its values were
// expanded: a subscript still to evaluate, or values for the next indexes.
type literalElem struct {
	index syntax.ArithmExpr
	key   string
	app   bool
	vals  []string
}

// arrayLiteral assigns a=(…) or a+=(…). As bash does, the values are all
// expanded first; then, for an indexed array, each subscript is evaluated
// in turn against the array as far as it is built.
func (r *Runner) arrayLiteral(name string, vr expand.Variable, elems []*syntax.ArrayElem, app bool) expand.Variable {
	if vr.Kind == expand.Associative {
		return r.assocLiteral(name, vr, elems, app)
	}
	expanded := make([]literalElem, 0, len(elems))
	for _, elem := range elems {
		le := literalElem{index: elem.Index, app: elem.Append}
		if elem.Index != nil {
			val := ""
			if elem.Value != nil {
				val = r.assignLiteral(elem.Value)
			}
			le.vals = []string{val}
		} else {
			le.vals = r.fields(elem.Value)
		}
		if r.exit.exiting {
			return vr
		}
		expanded = append(expanded, le)
	}
	var list []string
	var indexes []int
	if app {
		switch vr.Kind {
		case expand.String:
			if vr.IsSet() {
				list = []string{vr.Str}
			}
		case expand.Indexed:
			list, indexes = slices.Clone(vr.List), slices.Clone(vr.Indexes)
		}
	}
	next := internal.IndexedMax(list, indexes) + 1
	if len(list) == 0 {
		next = 0
	}
	building := vr
	building.Kind, building.Str, building.Set = expand.Indexed, "", true
	for _, le := range expanded {
		if le.index != nil {
			if _, literal := smallIndex(le.index); !literal {
				// The subscript may read the array being built: it
				// is written, as any write, through the handlers.
				building.List, building.Indexes = list, indexes
				refusals := r.varRefusals
				r.setVar(name, building)
				if r.varRefusals != refusals {
					return vr
				}
			}
			k := r.arithm(le.index)
			if r.exit.exiting {
				return vr
			}
			if k < 0 {
				if k += internal.IndexedMax(list, indexes) + 1; k < 0 || len(list) == 0 {
					r.errf("bash: %s: [%s]=%s: bad array subscript\n", name, nodeText(le.index), le.vals[0])
					r.exit.code = 1
					continue
				}
			}
			next = k
		}
		for _, val := range le.vals {
			old, _ := indexedElem(expand.Variable{List: list, Indexes: indexes}, next)
			list, indexes = internal.SetIndexedElem(list, indexes, next, r.attrValue(vr, old, val, le.app))
			next++
		}
	}
	if list == nil {
		// An empty array like a=() must still expand to zero fields.
		list = []string{}
	}
	vr.Kind, vr.Str, vr.List, vr.Indexes, vr.Set = expand.Indexed, "", list, indexes, true
	vr.Map, vr.Keys = nil, nil
	return vr
}

// smallIndex reports the number a subscript spells as a plain literal.
func smallIndex(index syntax.ArithmExpr) (int, bool) {
	w, ok := index.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return 0, false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(lit.Value)
	return n, err == nil && n >= 0
}

// assocLiteral assigns A=([k]=v …) or A+=(…) to an associative array. A
// literal whose first element has no subscript lists keys and values in
// turn. As in bash 5.2, [k]+=v appends to the value k had before a
// literal that replaces the array.
func (r *Runner) assocLiteral(name string, vr expand.Variable, elems []*syntax.ArrayElem, app bool) expand.Variable {
	var keys, vals []string
	var apps []bool
	if len(elems) > 0 && elems[0].Index == nil {
		var words []string
		for _, elem := range elems {
			if elem.Index != nil {
				text := "[" + r.literal(elem.Index.(*syntax.Word)) + "]="
				if elem.Value != nil {
					text += r.assignLiteral(elem.Value)
				}
				words = append(words, text)
				continue
			}
			words = append(words, r.fields(elem.Value)...)
		}
		for i := 0; i < len(words); i += 2 {
			val := ""
			if i+1 < len(words) {
				val = words[i+1]
			}
			keys, vals, apps = append(keys, words[i]), append(vals, val), append(apps, false)
		}
	} else {
		for _, elem := range elems {
			if elem.Index == nil {
				for _, w := range r.fields(elem.Value) {
					r.errf("bash: %s: '%s': must use subscript when assigning associative array\n", name, w)
				}
				continue
			}
			val := ""
			if elem.Value != nil {
				val = r.assignLiteral(elem.Value)
			}
			keys = append(keys, r.literal(elem.Index.(*syntax.Word)))
			vals, apps = append(vals, val), append(apps, elem.Append)
		}
	}
	if r.exit.exiting {
		return vr
	}
	m := make(map[string]string, len(keys))
	var order []string
	if app {
		m = maps.Clone(vr.Map)
		if m == nil {
			m = map[string]string{}
		}
		order = slices.Clone(expand.AssocOrder(vr))
	}
	for i, k := range keys {
		base, ok := m[k]
		if !app {
			base = vr.Map[k]
		}
		if !ok {
			order = append(order, k)
		}
		m[k] = r.attrValue(vr, base, vals[i], apps[i])
	}
	vr.Kind, vr.Set, vr.Map, vr.Keys = expand.Associative, true, m, order
	vr.Str, vr.List, vr.Indexes = "", nil, nil
	return vr
}
