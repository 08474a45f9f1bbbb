// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// splitFields splits a word's expanded parts into fields as bash does.
// Only the text of unquoted expansions (parts marked split) is split, by
// the characters of IFS: a run of IFS whitespace separates fields and is
// dropped at the start and end of the word; any other IFS character
// separates fields, with the IFS whitespace around it, so two of them in a
// row delimit an empty field (a trailing one does not). A field made of
// quoted parts only ("" or "$empty") stays as an empty field; a field with
// nothing at all is dropped. A brk part ends a field as the elements of
// "$@" do (patch 26).
func (cfg *Config) splitFields(parts []fieldPart) ([][]fieldPart, error) {
	fields := cfg.fieldsAlloc[:0]
	if !cfg.needsSplit(parts) {
		// The common case: one field, or none.
		for _, part := range parts {
			if part.val != "" || part.quote > quoteNone {
				return append(fields, parts), nil
			}
		}
		return fields, nil
	}
	var cur []fieldPart
	quoted := false // cur holds a quoted part, even an empty one
	// Splitting a large value makes a field per word before any is
	// yielded: ask [Config.Alloc] for what they take now and then.
	var allocErr error
	emit := func(always bool) {
		if len(cur) == 0 && !quoted && !always {
			return
		}
		fields = append(fields, cur)
		cur, quoted = nil, false
		if cfg.Alloc != nil && len(fields)&0xffff == 0 && allocErr == nil {
			allocErr = cfg.Alloc(int64(len(fields)) * 64)
		}
	}
	const (
		inText     = iota // in a field, or before the first
		afterWhite        // in a separator that began with IFS whitespace
		afterOther        // in a separator past its non-whitespace character
	)
	state, atStart := inText, true
	for _, part := range parts {
		if allocErr != nil {
			return nil, allocErr
		}
		switch {
		case part.brk:
			emit(false)
			state = inText
			continue
		case !part.split || cfg.ifs == "":
			if part.val == "" && part.quote == quoteNone {
				continue
			}
			if part.quote > quoteNone {
				quoted = true
			}
			if part.val != "" || len(cur) > 0 {
				cur = append(cur, fieldPart{val: part.val, quote: part.quote})
			}
			state, atStart = inText, false
			continue
		}
		text := -1 // where a run of the field's text began in part.val
		for i, r := range part.val {
			if !cfg.ifsRune(r) {
				if text < 0 {
					text = i
				}
				state, atStart = inText, false
				continue
			}
			if text >= 0 {
				cur = append(cur, fieldPart{val: part.val[text:i]})
				text = -1
			}
			white := r == ' ' || r == '\t' || r == '\n'
			switch {
			case atStart && white:
				// IFS whitespace at the start of the word is dropped.
			case state == inText:
				// A separator ends the field; one that is not
				// whitespace ends it even when it is empty.
				emit(!white)
				atStart = false
				state = afterWhite
				if !white {
					state = afterOther
				}
			case white:
				// Whitespace around a separator belongs to it.
			case state == afterWhite:
				state = afterOther
			default:
				// A second separator that is not whitespace: an
				// empty field between the two.
				emit(true)
			}
		}
		if text >= 0 {
			cur = append(cur, fieldPart{val: part.val[text:]})
		}
	}
	emit(false)
	if allocErr != nil {
		return nil, allocErr
	}
	return fields, nil
}

// needsSplit reports whether parts have a field boundary or an IFS
// character in the text of an unquoted expansion.
func (cfg *Config) needsSplit(parts []fieldPart) bool {
	for _, part := range parts {
		if part.brk {
			return true
		}
		if part.split && cfg.ifs != "" && strings.ContainsAny(part.val, cfg.ifs) {
			return true
		}
	}
	return false
}

// brkPart is the boundary between two elements of "$@".
var brkPart = fieldPart{val: " ", brk: true}

// listParam returns the elements of an expansion of a list: $@ and $*,
// ${a[@]} and ${a[*]} (an unset a is an empty list, a string a list of
// one), ${!prefix@} and ${!prefix*}, ${!a[@]} and ${!a[*]}; star is set
// for the forms that join into one field when quoted. ok is false for any
// other expansion, and for the length ${#a[@]}.
func (cfg *Config) listParam(pe *syntax.ParamExp) (elems []string, star, ok bool, err error) {
	if pe.Param == nil || pe.Length || pe.Width || pe.IsSet {
		return nil, false, false, nil
	}
	name := pe.Param.Value
	if pe.Excl {
		switch pe.Names {
		case syntax.NamesPrefixWords:
			return cfg.namesByPrefix(name), false, true, nil
		case syntax.NamesPrefix:
			return cfg.namesByPrefix(name), true, true, nil
		}
		switch lit := nodeLit(pe.Index); lit {
		case "@", "*":
			vr := cfg.Env.Get(name)
			if _, v := vr.Resolve(cfg.Env); v.Kind != Unknown || v.Set {
				vr = v
			}
			switch vr.Kind {
			case Indexed:
				return vr.indexedKeys(), lit == "*", true, nil
			case Associative:
				return AssocKeys(vr), lit == "*", true, nil
			}
			if !vr.IsSet() {
				// An unset array has no keys, even under set -u (patch 123).
				return nil, lit == "*", true, nil
			}
			if vr.Kind == String {
				return []string{"0"}, lit == "*", true, nil
			}
		}
		return nil, false, false, nil
	}
	switch name {
	case "*", "@":
		elems, err := cfg.sliceElems(pe, cfg.Env.Get(name).List, nil, true)
		return elems, name == "*", true, err
	}
	switch lit := nodeLit(pe.Index); lit {
	case "@", "*":
		vr := cfg.Env.Get(name)
		if _, v := vr.Resolve(cfg.Env); v.Kind != Unknown || v.Set {
			vr = v
		}
		switch vr.Kind {
		case Indexed:
			elems, err := cfg.sliceElems(pe, vr.List, vr.Indexes, false)
			return elems, lit == "*", true, err
		case Associative:
			elems, err := cfg.sliceElems(pe, AssocValues(vr), nil, false)
			return elems, lit == "*", true, err
		case String:
			elems, err := cfg.sliceElems(pe, []string{vr.Str}, nil, false)
			return elems, lit == "*", true, err
		}
		return nil, lit == "*", true, nil
	}
	return nil, false, false, nil
}

// listParts expands a list's elements (see [Config.listParam]) with the
// expansion's operators, each applied to every element, and the operators
// that test the list: it is set when it has elements, null when its
// elements joined are empty. Quoted (or where the word is not split), the
// @ forms give a field per element and the * forms one field, joined by
// the first character of IFS; unquoted, the elements joined by that
// character are split again, and with an empty IFS each element is a
// field of its own (bash joins ${!prefix*} with nothing and ${!a[*]} with
// spaces there).
func (cfg *Config) listParts(pe *syntax.ParamExp, ql quoteLevel, fields bool) (parts []fieldPart, ok bool, err error) {
	elems, star, ok, err := cfg.listParam(pe)
	if !ok || err != nil {
		return nil, ok, err
	}
	if pe.Repl != nil || (pe.Exp != nil && !wordOp(pe.Exp.Op)) {
		if elems, err = cfg.perElemOps(pe, elems); err != nil {
			return nil, true, err
		}
	}
	if pe.Exp != nil && wordOp(pe.Exp.Op) {
		// bash tests an unquoted * list joined by spaces, whatever
		// IFS is.
		sep := " "
		if star && (ql != quoteNone || !fields) {
			sep = cfg.ifsSep()
		}
		set := len(elems) > 0
		null := !set || (len(elems) == 1 && elems[0] == "") || strings.Join(elems, sep) == ""
		use, err := cfg.testOp(pe, set, null)
		if err != nil {
			return nil, true, err
		}
		if use {
			parts, err := cfg.opWordParts(pe, ql, fields)
			return parts, true, err
		}
	}
	split := fields && ql == quoteNone
	switch {
	case !split && star:
		return []fieldPart{{val: cfg.ifsJoin(elems)}}, true, nil
	case split && cfg.ifs != "":
		return []fieldPart{{val: cfg.ifsJoin(elems), split: true}}, true, nil
	case split && star && pe.Names == syntax.NamesPrefix:
		return []fieldPart{{val: cfg.ifsJoin(elems), split: true}}, true, nil
	case split && star && pe.Excl:
		return []fieldPart{{val: strings.Join(elems, " "), split: true}}, true, nil
	}
	parts = make([]fieldPart, 0, 2*len(elems))
	for i, elem := range elems {
		if i > 0 {
			parts = append(parts, brkPart)
		}
		parts = append(parts, fieldPart{val: elem, split: split})
	}
	return parts, true, nil
}

// ifsSep is the first character of IFS, which joins the elements of $*.
func (cfg *Config) ifsSep() string {
	return cfg.ifsJoin([]string{"", ""})
}

// wordOp reports whether op takes its word as a value rather than as a
// pattern or a name: ${x-word}, ${x+word}, ${x=word}, ${x?word} and their
// colon forms.
func wordOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
		syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

// testOp decides whether a ${x-word}-style operator expands its word,
// given whether the parameter is set and whether it is null. ${x?word}
// fails here when it would; ${x=word} on a list is bash's error.
func (cfg *Config) testOp(pe *syntax.ParamExp, set, null bool) (bool, error) {
	switch pe.Exp.Op {
	case syntax.AlternateUnset:
		return set, nil
	case syntax.AlternateUnsetOrNull:
		return set && !null, nil
	case syntax.DefaultUnset, syntax.AssignUnset:
		return !set, nil
	case syntax.DefaultUnsetOrNull, syntax.AssignUnsetOrNull:
		return !set || null, nil
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		if !set || (pe.Exp.Op == syntax.ErrorUnsetOrNull && null) {
			msg, err := cfg.opWordString(pe, quoteNone)
			if err != nil {
				return false, err
			}
			if msg == "" {
				msg = "parameter null or not set"
			}
			return false, UnsetParameterError{Node: pe, Message: msg}
		}
	}
	return false, nil
}

// opWordParts expands the word of ${x-word}-style operators. Where the
// expansion is not quoted, its word is too: quoted parts stay whole and
// the rest is split. Within double quotes (or a here-document) it is
// expanded as there: the parser has kept its single quotes as text.
func (cfg *Config) opWordParts(pe *syntax.ParamExp, ql quoteLevel, fields bool) ([]fieldPart, error) {
	if pe.Exp.Word == nil {
		return []fieldPart{{}}, nil
	}
	if ql == quoteNone && fields {
		parts, err := cfg.wordParts(nil, pe.Exp.Word.Parts, true)
		if err != nil {
			return nil, err
		}
		if len(parts) == 0 {
			parts = append(parts, fieldPart{})
		}
		return parts, nil
	}
	if ql == quoteNone {
		parts, err := cfg.wordField(pe.Exp.Word.Parts, quoteNone)
		if err != nil {
			return nil, err
		}
		// Quote removal: a backslash in unquoted text escapes the
		// next character.
		for i, part := range parts {
			if part.quote == quoteNone && strings.Contains(part.val, "\\") {
				parts[i].val = unescapeBackslashes(part.val)
			}
		}
		return parts, nil
	}
	old := cfg.dqOpWord
	cfg.dqOpWord = ql == quoteDouble
	defer func() { cfg.dqOpWord = old }()
	return cfg.wordField(pe.Exp.Word.Parts, ql)
}

// opWordString is the word of a ${x-word}-style operator as one string.
func (cfg *Config) opWordString(pe *syntax.ParamExp, ql quoteLevel) (string, error) {
	parts, err := cfg.opWordParts(pe, ql, false)
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(parts), nil
}

// unescapeBackslashes removes the backslashes of unquoted text: `\X` is
// X, a backslash-newline nothing, a trailing backslash stays.
func unescapeBackslashes(s string) string {
	var sb strings.Builder
	for j := 0; j < len(s); j++ {
		if s[j] == '\\' && j+1 < len(s) {
			j++
			if s[j] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[j])
	}
	return sb.String()
}

// transform applies the operator of ${x@OP} to one value; vr is the
// variable expanded, for its attributes.
func (cfg *Config) transform(pe *syntax.ParamExp, op, str string, vr Variable) (string, error) {
	switch op {
	case "Q", "K", "k":
		return bashQuote(str), nil
	case "E":
		val, _, _ := Format(cfg, strings.ReplaceAll(str, "%", "%%"), nil)
		val, _, _ = strings.Cut(val, "\x00")
		return val, nil
	case "a":
		return vr.Flags(), nil
	case "A":
		assign := pe.Param.Value + "=" + bashQuote(str)
		if flags := vr.Flags(); flags != "" {
			return "declare -" + flags + " " + assign, nil
		}
		return assign, nil
	case "U":
		return strings.ToUpper(str), nil
	case "u":
		r, size := utf8.DecodeRuneInString(str)
		if size == 0 || r == utf8.RuneError {
			return str, nil
		}
		return string(unicode.ToUpper(r)) + str[size:], nil
	case "L":
		return strings.ToLower(str), nil
	}
	// P: prompt escapes are not expanded.
	return str, nil
}

// bashQuote quotes s as bash's ${x@Q} and printf %q-style declarations
// do: in single quotes, or in $'…' with escapes when s has a character
// that does not print.
func bashQuote(s string) string {
	plain := true
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				plain = false
				break
			}
		}
		if !unicode.IsPrint(r) && r != ' ' {
			plain = false
			break
		}
	}
	if plain {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var sb strings.Builder
	sb.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&sb, "\\%03o", s[i])
		case r == '\'' || r == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r == '\a':
			sb.WriteString(`\a`)
		case r == '\b':
			sb.WriteString(`\b`)
		case r == '\f':
			sb.WriteString(`\f`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\v':
			sb.WriteString(`\v`)
		case r == 0x1b:
			sb.WriteString(`\E`)
		case r < 0x80 && !unicode.IsPrint(r) && r != ' ':
			fmt.Fprintf(&sb, "\\%03o", r)
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	sb.WriteByte('\'')
	return sb.String()
}
