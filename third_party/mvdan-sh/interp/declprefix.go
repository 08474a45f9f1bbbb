// Copyright (c) 2026, gatehouse authors
// See LICENSE for licensing information

package interp

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// declValuesFirst expands the values of a declaration's assignments before
// its prefix bindings take hold: bash expands a command's words before its
// bindings, so "x=2 declare y=$x" gives y the x from before (gatehouse
// patch 129). Array literals are left to the declaration itself.
func (r *Runner) declValuesFirst(args []*syntax.Assign) []*syntax.Assign {
	out := slices.Clone(args)
	for i, as := range out {
		if as.Naked || as.Array != nil || as.Value == nil {
			continue
		}
		val := r.assignLiteral(as.Value)
		if r.exit.exiting {
			return out
		}
		cp := *as
		cp.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}}
		out[i] = &cp
	}
	return out
}

// bindDeclPrefix applies a declaration's prefix bindings, exported, for the
// time the builtin runs, and returns what undoes them (patch 129). A
// binding named stays the declaration's from then on ("FOO=bar export
// FOO" keeps FOO), unless the declaration made locals, which leaves the
// binding's scope to be put back. false means a binding was refused: the
// builtin does not run.
func (r *Runner) bindDeclPrefix(assigns []*syntax.Assign, named map[string]bool, local bool) (undo func(), ok bool) {
	type restore struct {
		env  expand.WriteEnviron
		name string
		vr   expand.Variable
	}
	var restores []restore
	undo = func() {
		r.varBookkeeping = true
		for _, rs := range slices.Backward(restores) {
			if named[rs.name] && !local {
				continue
			}
			r.setVarIn(rs.env, rs.name, rs.vr)
		}
		r.varBookkeeping = false
	}
	refusals := r.varRefusals
	for _, as := range assigns {
		name, ok := r.prefixBindable(as)
		if !ok {
			continue
		}
		prev := r.lookupVar(name)
		if n, v := prev.Resolve(r.writeEnv); n != "" {
			name, prev = n, v
		}
		if prev.ReadOnly {
			r.errf("bash: %s: readonly variable\n", name)
			continue
		}
		// Where the binding lands: in a function, a name that is not
		// the function's own local is written to the scope outside.
		env := r.writeEnv
		if o, isOverlay := env.(*overlayEnviron); isOverlay && o.funcScope && !r.ownLocal(name) {
			env = o.parent.(expand.WriteEnviron)
		}
		vr := r.assignNew(name, prev, as)
		vr.Exported = true
		if r.varRefusals == refusals {
			r.setVar(name, vr)
		}
		if r.varRefusals != refusals || r.exit.exiting {
			undo()
			return func() {}, false
		}
		prev.Local = false
		restores = append(restores, restore{env, name, prev})
	}
	return undo, true
}

// prefixBindable reports whether a binding written before a command may be
// bound: bash refuses an element (a[1]=x cmd) as not a valid identifier and
// skips an array literal (a=(1 2) cmd) silently, running the command all
// the same (patch 129).
func (r *Runner) prefixBindable(as *syntax.Assign) (string, bool) {
	switch {
	case as.Index != nil:
		r.errf("bash: `%s[%s]': not a valid identifier\n", as.Name.Value, nodeText(as.Index))
		return "", false
	case as.Array != nil:
		return "", false
	}
	return as.Name.Value, true
}

// declKeeps names the prefix bindings a declaration keeps, as bash
// propagates them: the names it assigns (B=1 export B=2) and those it
// exports or makes read-only (FOO=bar export FOO); printing or a bare
// "declare FOO" keeps nothing.
func declKeeps(o declOpts, args []*syntax.Assign) map[string]bool {
	keep := map[string]bool{}
	if o.print || o.funcs || o.funcName {
		return keep
	}
	attrs := strings.ContainsAny(o.on, "xr")
	for _, as := range args {
		if as.Name != nil && (!as.Naked || attrs) {
			keep[as.Name.Value] = true
		}
	}
	return keep
}

// splitAssignField splits a declaration's argument that an expansion
// produced ("a=b", "a[i + 1]=b", "a[k]+=b") at its '=': a subscript, which
// may hold '=' itself ("a[a[0]=1]=X"), runs to its matching bracket. The
// name keeps a '+' before the '='; ok is false without an '='.
func splitAssignField(field string) (name string, index *string, val string, ok bool) {
	open := strings.IndexByte(field, '[')
	eq := strings.IndexByte(field, '=')
	if open <= 0 || (eq >= 0 && eq < open) || !syntax.ValidName(field[:open]) {
		name, val, ok = strings.Cut(field, "=")
		return name, nil, val, ok
	}
	depth := 0
	for i := open; i < len(field); i++ {
		switch field[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth > 0 {
				continue
			}
			sub := field[open+1 : i]
			rest := field[i+1:]
			name = field[:open]
			if strings.HasPrefix(rest, "+=") {
				name, rest = name+"+", rest[1:]
			}
			if rest == "" {
				return name, &sub, "", false
			}
			if rest[0] != '=' {
				break
			}
			return name, &sub, rest[1:], true
		}
		if depth == 0 {
			break
		}
	}
	name, val, ok = strings.Cut(field, "=")
	return name, nil, val, ok
}
