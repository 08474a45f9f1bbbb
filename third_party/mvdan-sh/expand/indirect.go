// Added to this copy by gatehouse (see PATCHES.md); under the same licence.

package expand

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ParamError is a parameter expansion bash refuses when it runs, such as
// ${!ref} where ref is unset, or holds no parameter's name. Like a bad
// substitution, it aborts the line.
type ParamError struct {
	Text string // what the expansion named
	Msg  string
}

func (e ParamError) Error() string { return e.Text + ": " + e.Msg }

// indirect returns the parameter expansion that an indirect one means:
// ${!ref…}, whose reference (a variable or an element) holds the name of
// another parameter — a variable, name[subscript], a positional or special
// parameter — is that parameter expanded with the same operators.
// Other expansions are returned as they are: ${!prefix*}, the keys of an
// array (${!a[@]} with no operator), and ${!ref} of a nameref (its target's
// name).
func (cfg *Config) indirect(pe *syntax.ParamExp) (*syntax.ParamExp, error) {
	if pe == nil || !pe.Excl || pe.Names != 0 || pe.Param == nil {
		return pe, nil
	}
	switch nodeLit(pe.Index) {
	case "@", "*":
		if pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && !pe.Length {
			return pe, nil // the keys of an array
		}
	}
	name := pe.Param.Value
	if pe.Index == nil && cfg.Env.Get(name).Kind == NameRef {
		return pe, nil
	}
	if pe.Index == nil && cfg.NoUnset && syntax.ValidName(name) {
		// An unset reference names nothing, set -u or not (patch 123).
		vr := cfg.Env.Get(name)
		if _, v := vr.Resolve(cfg.Env); v.IsSet() {
			vr = v
		}
		if !vr.IsSet() {
			return nil, ParamError{Text: name, Msg: "invalid indirect expansion"}
		}
	}
	base := &syntax.ParamExp{Dollar: pe.Dollar, Param: pe.Param, Index: pe.Index}
	text, err := cfg.paramExp(base)
	if err != nil {
		return nil, err
	}
	np := *pe
	np.Excl = false
	if text == "" {
		vr := cfg.Env.Get(name)
		if _, v := vr.Resolve(cfg.Env); v.IsSet() {
			vr = v
		}
		switch {
		case !vr.IsSet():
			return nil, ParamError{Text: name, Msg: "invalid indirect expansion"}
		case vr.Kind == Indexed || vr.Kind == Associative:
			// A missing element names nothing: no parameter, as bash
			// treats it (a name no variable can have).
			np.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: " "}
			np.Index = nil
			return &np, nil
		}
	}
	target, index, ok := parseParamRef(text)
	if !ok {
		return nil, ParamError{Text: text, Msg: "invalid variable name"}
	}
	np.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: target}
	np.Index = index
	if cfg.NoUnset && index == nil && syntax.ValidName(target) && !overridingUnset(pe) {
		// bash names the expansion, not its target, when the target
		// is unset under set -u.
		vr := cfg.Env.Get(target)
		if _, v := vr.Resolve(cfg.Env); v.IsSet() {
			vr = v
		}
		if !vr.IsSet() {
			return nil, UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: "!" + name}}, Message: "unbound variable"}
		}
	}
	return &np, nil
}

// parseParamRef reads the text an indirect expansion names: a variable's
// name, name[subscript], or a positional or special parameter.
func parseParamRef(text string) (string, syntax.ArithmExpr, bool) {
	switch text {
	case "":
		return "", nil, false
	case "@", "*", "#", "?", "-", "$", "!", "0":
		return text, nil, true
	}
	if strings.Trim(text, "0123456789") == "" {
		return text, nil, true
	}
	if syntax.ValidName(text) {
		return text, nil, true
	}
	open := strings.IndexByte(text, '[')
	if open <= 0 || !strings.HasSuffix(text, "]") || !syntax.ValidName(text[:open]) {
		return "", nil, false
	}
	sub := text[open+1 : len(text)-1]
	if sub == "@" || sub == "*" {
		return text[:open], &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}}, true
	}
	expr, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
	if err != nil || expr == nil {
		return "", nil, false
	}
	return text[:open], expr, true
}
