// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/internal"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

func nodeLit(node syntax.Node) string {
	if word, ok := node.(*syntax.Word); ok {
		return word.Lit()
	}
	return ""
}

// UnsetParameterError is returned when a parameter expansion encounters an
// unset variable and [Config.NoUnset] has been set.
type UnsetParameterError struct {
	Node    *syntax.ParamExp
	Message string
}

func (u UnsetParameterError) Error() string {
	return fmt.Sprintf("%s: %s", u.Node.Param.Value, u.Message)
}

// BadSubstitutionError is a parameter expansion bash refuses when it
// runs, such as ${a[]}: like an error in arithmetic, it aborts the line.
type BadSubstitutionError struct {
	Node *syntax.ParamExp
}

func (b BadSubstitutionError) Error() string {
	return nodeText(b.Node) + ": bad substitution"
}

// nodeText prints a node as the program spelled it, for messages.
func nodeText(n syntax.Node) string {
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, n)
	return sb.String()
}

// blankIndex reports whether a subscript is empty or blanks only, which
// bash refuses.
func blankIndex(idx syntax.ArithmExpr) bool {
	w, ok := idx.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.Trim(lit.Value, " \t\n") == ""
}

func overridingUnset(pe *syntax.ParamExp) bool {
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
		syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

func (cfg *Config) paramExp(pe *syntax.ParamExp) (string, error) {
	parts, err := cfg.paramExpParts(pe, quoteNone, false)
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(parts), nil
}

// paramExpParts expands a parameter expansion into parts: where it is
// split (fields, and not quoted), its value is marked for splitting, the
// elements of a list are separated as bash separates them, and the word of
// ${x-word} keeps its quoted parts whole (patch 26).
func (cfg *Config) paramExpParts(pe *syntax.ParamExp, ql quoteLevel, fields bool) ([]fieldPart, error) {
	pe, err := cfg.indirect(pe)
	if err != nil {
		return nil, err
	}
	oldParam := cfg.curParam
	cfg.curParam = pe
	defer func() { cfg.curParam = oldParam }()

	if pe.Slice != nil && pe.Slice.Length == nil && emptyArithm(pe.Slice.Offset) {
		return nil, BadSubstitutionError{Node: pe} // ${x:}
	}
	if pe.Length && (pe.Slice != nil || pe.Repl != nil || pe.Exp != nil) {
		return nil, BadSubstitutionError{Node: pe} // ${#x:1}, ${#x-word}
	}
	if parts, ok, err := cfg.listParts(pe, ql, fields); ok || err != nil {
		return parts, err
	}
	str, useWord, err := cfg.paramValue(pe, ql)
	if err != nil {
		return nil, err
	}
	if useWord {
		return cfg.opWordParts(pe, ql, fields)
	}
	return []fieldPart{{val: str, split: fields && ql == quoteNone}}, nil
}

// runeOffset returns the byte offset of the n-th character of s (an
// invalid byte counts as one).
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// emptyArithm reports whether x is missing or has no text at all.
func emptyArithm(x syntax.ArithmExpr) bool {
	if x == nil {
		return true
	}
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); !ok || lit.Value != "" {
			return false
		}
	}
	return true
}

// paramValue expands a parameter expansion that is not a list into its
// value; useWord is set when the word of ${x-word} or ${x+word} is the
// result instead.
func (cfg *Config) paramValue(pe *syntax.ParamExp, ql quoteLevel) (str string, useWord bool, err error) {
	if pe.Param == nil { // e.g. zsh's ${}
		return "", false, fmt.Errorf("unsupported")
	}
	name := pe.Param.Value
	index := pe.Index
	if index != nil && blankIndex(index) {
		return "", false, BadSubstitutionError{Node: pe}
	}
	switch name {
	case "@", "*":
		index = &syntax.Word{Parts: []syntax.WordPart{
			&syntax.Lit{Value: name},
		}}
	}
	// "*" expansions like ${*}, ${arr[*]}, or ${!prefix*} join their
	// elements with the first IFS character; others use a space.
	join := func(elems []string) string {
		if nodeLit(index) == "*" || pe.Names == syntax.NamesPrefix {
			return cfg.ifsJoin(elems)
		}
		return strings.Join(elems, " ")
	}
	var vr Variable
	switch name {
	case "LINENO":
		// This is the only parameter expansion that the environment
		// interface cannot satisfy.
		line := uint64(cfg.curParam.Pos().Line())
		if cfg.LineNo != 0 {
			line = uint64(cfg.LineNo)
		}
		vr = Variable{Set: true, Kind: String, Str: strconv.FormatUint(line, 10)}
	default:
		vr = cfg.Env.Get(name)
	}
	orig := vr
	if n, v := vr.Resolve(cfg.Env); n != "" {
		name, vr = n, v
	}
	if cfg.NoUnset && !vr.IsSet() && !overridingUnset(pe) {
		return "", false, UnsetParameterError{
			Node:    pe,
			Message: "unbound variable",
		}
	}

	var sliceOffset, sliceLen int
	if pe.Slice != nil {
		var err error
		if pe.Slice.Offset != nil {
			sliceOffset, err = Arithm(cfg, pe.Slice.Offset)
			if err != nil {
				return "", false, err
			}
		}
		if pe.Slice.Length != nil {
			sliceLen, err = Arithm(cfg, pe.Slice.Length)
			if err != nil {
				return "", false, err
			}
		}
	}

	var (
		elems []string

		indexAllElements bool // true if var has been accessed with * or @ index
		callVarInd       = true
		set              = vr.IsSet()
	)

	switch nodeLit(index) {
	case "@", "*":
		switch vr.Kind {
		case Unknown:
			elems = nil
			indexAllElements = true
		case Indexed:
			indexAllElements = true
			callVarInd = false
			var err error
			elems, err = cfg.sliceElems(pe, vr.List, vr.Indexes, name == "@" || name == "*")
			if err != nil {
				return "", false, err
			}
			str = join(elems)
		}
	}
	if callVarInd {
		var err error
		str, set, err = cfg.varInd(vr, index)
		if err != nil {
			return "", false, err
		}
	}
	if !indexAllElements {
		elems = []string{str}
	}

	switch {
	case pe.Length:
		n := len(elems)
		switch nodeLit(index) {
		case "@", "*":
			if vr.Kind == Associative {
				n = len(vr.Map)
			}
		default:
			n = utf8.RuneCountInString(str)
		}
		str = strconv.Itoa(n)
	case pe.Excl:
		var strs []string
		switch {
		case pe.Names != 0:
			strs = cfg.namesByPrefix(pe.Param.Value)
		case orig.Kind == NameRef:
			strs = append(strs, orig.Str)
		case pe.Index != nil && vr.Kind == Indexed:
			strs = vr.indexedKeys()
		case pe.Index != nil && vr.Kind == Associative:
			strs = AssocKeys(vr)
		case !vr.IsSet():
			return "", false, fmt.Errorf("invalid indirect expansion")
		case str == "":
			return "", false, nil
		default:
			vr = cfg.Env.Get(str)
			strs = append(strs, vr.String())
		}
		str = join(strs)
	case pe.Width:
		return "", false, fmt.Errorf("unsupported")
	case pe.IsSet:
		return "", false, fmt.Errorf("unsupported")
	case pe.Slice != nil:
		if callVarInd {
			// The offset and length are in characters, not bytes;
			// the result shares the value's bytes, without a copy.
			count := utf8.RuneCountInString(str)
			slicePos := func(n int) int {
				if n < 0 {
					n = count + n
					if n < 0 {
						n = count
					}
				} else if n > count {
					n = count
				}
				return n
			}
			if pe.Slice.Offset != nil {
				start := slicePos(sliceOffset)
				str = str[runeOffset(str, start):]
				count -= start
			}
			if pe.Slice.Length != nil {
				str = str[:runeOffset(str, slicePos(sliceLen))]
			}
		} // else, elems are already sliced
	case pe.Repl != nil:
		elems, err := cfg.replaceElems(pe.Repl, elems)
		if err != nil {
			return "", false, err
		}
		str = join(elems)
	case pe.Exp != nil && wordOp(pe.Exp.Op):
		use, err := cfg.testOp(pe, set, str == "")
		if err != nil || !use {
			return str, false, err
		}
		switch pe.Exp.Op {
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			arg, err := cfg.opWordString(pe, ql)
			if err != nil {
				return "", false, err
			}
			if err := cfg.assignElem(name, vr, index, arg); err != nil {
				return "", false, err
			}
			str = arg
		default:
			return "", true, nil
		}
	case pe.Exp != nil:
		if pe.Exp.Op == syntax.OtherParamOps && !set && nodeLit(pe.Exp.Word) != "a" {
			return "", false, nil
		}
		converted, err := cfg.elemOps(pe, elems, orig)
		if err != nil {
			return "", false, err
		}
		str = join(converted)
	}
	return str, false, nil
}

func (cfg *Config) removePattern(str, pat string, fromEnd, shortest bool) (string, error) {
	mode := cfg.globMode()
	if shortest {
		mode |= pattern.Shortest
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		if _, ok := errors.AsType[*pattern.NegExtGlobError](err); ok {
			return cfg.removeNegated(str, pat, fromEnd, shortest)
		}
		return str, nil
	}
	switch {
	case fromEnd && shortest:
		// use .* to get the right-most shortest match
		expr = "(?s).*(" + expr + ")$"
	case fromEnd:
		// simple suffix
		expr = "(" + expr + ")$"
	default:
		// simple prefix
		expr = "^(" + expr + ")"
	}
	// A pattern too large or deep for the regexp engine matches nothing.
	rx, err := regexp.Compile(expr)
	if err != nil {
		return str, nil
	}
	m := internal.Matcher{Rx: rx, Stop: cfg.Stop}
	loc, stopped := m.SubmatchIndex(str)
	if stopped {
		return "", errStopped
	}
	if loc != nil {
		// remove the original pattern (the submatch)
		str = str[:loc[2]] + str[loc[3]:]
	}
	return str, nil
}

// removeNegated is removePattern for a pattern holding !(…), which no
// regular expression can say: each prefix (or suffix) is matched whole,
// from the shortest or the longest, as bash does (gatehouse, patch 123).
func (cfg *Config) removeNegated(str, pat string, fromEnd, shortest bool) (string, error) {
	match, err := internal.StoppablePatternMatcher(pat, cfg.globMode()|pattern.EntireString, cfg.Stop)
	if err != nil {
		return str, nil
	}
	// The places a prefix may end or a suffix begin: character boundaries.
	cuts := make([]int, 0, len(str)+1)
	for i := range str {
		cuts = append(cuts, i)
	}
	cuts = append(cuts, len(str))
	for n := range cuts {
		// Prefixes grow with the cut, suffixes shrink: walk so that the
		// shortest or the longest comes first.
		i := n
		if shortest == fromEnd {
			i = len(cuts) - 1 - n
		}
		cut := cuts[i]
		part := str[:cut]
		if fromEnd {
			part = str[cut:]
		}
		matched, stopped := match(part)
		if stopped {
			return "", errStopped
		}
		if matched {
			if fromEnd {
				return str[:cut], nil
			}
			return str[cut:], nil
		}
	}
	return str, nil
}

// The helpers below never modify elems in place, as it may alias a
// variable's list of elements.

// perElemOps applies pattern removal, replacement, case conversion or an
// @ operator to each element of a list expansion.
func (cfg *Config) perElemOps(pe *syntax.ParamExp, elems []string) ([]string, error) {
	switch {
	case pe.Repl != nil:
		return cfg.replaceElems(pe.Repl, elems)
	case pe.Exp != nil:
		var vr Variable // names, keys and $@ have no attributes
		if !pe.Excl {
			switch pe.Param.Value {
			case "@", "*":
			default:
				vr = cfg.Env.Get(pe.Param.Value)
			}
		}
		return cfg.elemOps(pe, elems, vr)
	}
	return elems, nil
}

// elemOps applies an operator that takes a pattern or names a
// transformation (${x#pat}, ${x^^pat}, ${x@Q}) to each element; vr is
// the variable expanded, before any name reference is followed.
func (cfg *Config) elemOps(pe *syntax.ParamExp, elems []string, vr Variable) ([]string, error) {
	switch op := pe.Exp.Op; op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix,
		syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		pat, err := Pattern(cfg, pe.Exp.Word)
		if err != nil {
			return nil, err
		}
		return cfg.removePatternElems(op, pat, elems)
	case syntax.UpperFirst, syntax.UpperAll,
		syntax.LowerFirst, syntax.LowerAll:
		pat, err := Pattern(cfg, pe.Exp.Word)
		if err != nil {
			return nil, err
		}
		return cfg.caseConvElems(op, pat, elems)
	case syntax.OtherParamOps:
		arg, err := Literal(cfg, pe.Exp.Word)
		if err != nil {
			return nil, err
		}
		if cfg.Alloc != nil {
			// The results are held together; quoting can make a
			// character four bytes (\001).
			var size int64
			for _, elem := range elems {
				size += 5 * int64(len(elem))
			}
			if err := cfg.Alloc(size); err != nil {
				return nil, err
			}
		}
		out := make([]string, len(elems))
		for i, elem := range elems {
			if out[i], err = cfg.transform(pe, arg, elem, vr); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return elems, nil
}

// replaceElems applies a ${var/pattern/repl} replacement to each element.
// A pattern beginning with an unquoted # or % must match at the start or
// the end of the element (an empty one then inserts the replacement
// there: ${a[@]/#/x}).
func (cfg *Config) replaceElems(repl *syntax.Replace, elems []string) ([]string, error) {
	origWord, anchor := replAnchor(repl.Orig)
	orig, err := Pattern(cfg, origWord)
	if err != nil {
		return nil, err
	}
	if orig == "" && anchor == 0 {
		return elems, nil // nothing to replace
	}
	with, err := cfg.replacement(repl.With)
	if err != nil {
		return nil, err
	}
	n := 1
	if repl.All && anchor == 0 {
		n = -1
	}
	out := make([]string, len(elems))
	// held is what the elements replaced so far take: every element's
	// result is held until the last is built, so each question counts them
	// all (a short element replaced by a long text, many times over, adds up).
	var held int64
	for i, elem := range elems {
		if i > 0 {
			held += int64(len(out[i-1]))
		}
		if cfg.Alloc != nil && n < 0 && len(elem) > 1<<16 {
			// Every match of a large value, held at once, could take many
			// times its size: build the result as the matches come.
			s, err := cfg.replaceAllBounded(orig, elem, with, held)
			if err != nil {
				return nil, err
			}
			out[i] = s
			continue
		}
		var locs [][]int
		if anchor != 0 {
			locs, err = cfg.anchoredIndex(orig, elem, anchor)
		} else {
			locs, err = cfg.findAllIndex(orig, elem, n)
		}
		if err != nil {
			return nil, err
		}
		if cfg.Alloc != nil {
			// Replacing every match can multiply the value's size.
			size := held + int64(len(elem))
			for _, loc := range locs {
				size += int64(with.size(loc[1] - loc[0]))
			}
			if err := cfg.Alloc(size); err != nil {
				return nil, err
			}
		}
		sb := cfg.strBuilder()
		last := 0
		for _, loc := range locs {
			sb.WriteString(elem[last:loc[0]])
			with.write(sb, elem[loc[0]:loc[1]])
			last = loc[1]
		}
		sb.WriteString(elem[last:])
		out[i] = sb.String()
	}
	return out, nil
}

// replAnchor returns the pattern word of ${x/pattern/repl} without a
// leading unquoted # or %, and which it was: 1 for #, 2 for %.
func replAnchor(word *syntax.Word) (*syntax.Word, int) {
	if word == nil || len(word.Parts) == 0 {
		return word, 0
	}
	lit, ok := word.Parts[0].(*syntax.Lit)
	if !ok || lit.Value == "" {
		return word, 0
	}
	anchor := 0
	switch lit.Value[0] {
	case '#':
		anchor = 1
	case '%':
		anchor = 2
	default:
		return word, 0
	}
	lit2 := *lit
	lit2.Value = lit.Value[1:]
	parts := append([]syntax.WordPart{&lit2}, word.Parts[1:]...)
	return &syntax.Word{Parts: parts}, anchor
}

// anchoredIndex finds the longest match of pat at the start (anchor 1)
// or at the end (anchor 2) of s.
func (cfg *Config) anchoredIndex(pat, s string, anchor int) ([][]int, error) {
	expr, err := pattern.Regexp(pat, cfg.globMode())
	if err != nil {
		return nil, nil
	}
	if anchor == 1 {
		expr = "^(?:" + expr + ")"
	} else {
		expr = "(?:" + expr + ")$"
	}
	rx, err := regexp.Compile(expr)
	if err != nil {
		return nil, nil
	}
	m := internal.Matcher{Rx: rx, Stop: cfg.Stop}
	loc, stopped := m.Index(s)
	if stopped {
		return nil, errStopped
	}
	if loc == nil {
		return nil, nil
	}
	return [][]int{loc}, nil
}

// replText is the replacement of ${x/pattern/repl}: text, in which (as in
// bash 5.2, patsub_replacement) each unquoted & stands for the matched
// text; texts holds the pieces between them.
type replText struct {
	texts []string
}

func (t replText) write(sb *strings.Builder, match string) {
	for i, text := range t.texts {
		if i > 0 {
			sb.WriteString(match)
		}
		sb.WriteString(text)
	}
}

// size is the length of the replacement of a match n bytes long.
func (t replText) size(n int) int {
	size := (len(t.texts) - 1) * n
	for _, text := range t.texts {
		size += len(text)
	}
	return size
}

// replacement expands the replacement word of ${x/pattern/repl}: quotes
// are removed, an unquoted & stands for the match and \& is a plain &.
func (cfg *Config) replacement(word *syntax.Word) (replText, error) {
	if word == nil {
		return replText{texts: []string{""}}, nil
	}
	parts, err := cfg.wordParts(nil, word.Parts, false)
	if err != nil {
		return replText{}, err
	}
	var texts []string
	var sb strings.Builder
	for _, part := range parts {
		if part.quote > quoteNone || !strings.Contains(part.val, "&") {
			sb.WriteString(part.val)
			continue
		}
		s := part.val
		for i := 0; i < len(s); i++ {
			switch {
			case s[i] == '\\' && i+1 < len(s) && s[i+1] == '&':
				sb.WriteByte('&')
				i++
			case s[i] == '&':
				texts = append(texts, sb.String())
				sb.Reset()
			default:
				sb.WriteByte(s[i])
			}
		}
	}
	return replText{texts: append(texts, sb.String())}, nil
}

// replaceAllBounded replaces every match of the pattern pat in s by with,
// one match at a time, asking [Config.Alloc] for the result as it grows
// (on top of held, what the caller already holds). Matches are found as [regexp.Regexp.FindAllStringIndex] finds them (an
// empty match right after a match is skipped); the patterns carry no
// anchors, so searching from an offset finds what a search of the whole
// string would.
func (cfg *Config) replaceAllBounded(pat, s string, with replText, held int64) (string, error) {
	expr, err := pattern.Regexp(pat, cfg.globMode())
	if err != nil {
		return s, nil
	}
	rx, err := regexp.Compile(expr)
	if err != nil {
		return s, nil
	}
	m := internal.Matcher{Rx: rx, Stop: cfg.Stop}
	var sb strings.Builder
	last, prevEnd, matches := 0, -1, 0
	// asked is what Alloc last allowed: the result so far and the rest of
	// s, twice over for the builder's growth. Every write that passes it
	// asks again, so a long replacement (${x//?/$x}) is refused before it
	// is built rather than after thousands of matches.
	asked := int64(0)
	reserve := func(more int) error {
		need := int64(sb.Len()+more) + int64(len(s)-last)
		if need <= asked {
			return nil
		}
		asked = 2 * need
		return cfg.Alloc(held + asked)
	}
	for pos := 0; pos <= len(s); {
		loc, stopped := m.Index(s[pos:])
		if stopped {
			return "", errStopped
		}
		if loc == nil {
			break
		}
		start, end := pos+loc[0], pos+loc[1]
		accept := true
		if end == start {
			accept = start != prevEnd
			_, width := utf8.DecodeRuneInString(s[end:])
			pos = end + max(width, 1)
		} else {
			pos = end
		}
		prevEnd = end
		if !accept {
			continue
		}
		if err := reserve(start - last + with.size(end-start)); err != nil {
			return "", err
		}
		sb.WriteString(s[last:start])
		with.write(&sb, s[start:end])
		last = end
		if matches++; matches&0xffff == 0 && cfg.Stop != nil && cfg.Stop() {
			return "", errStopped
		}
	}
	sb.WriteString(s[last:])
	return sb.String(), nil
}

// removePatternElems applies a pattern removal operator to each element.
func (cfg *Config) removePatternElems(op syntax.ParExpOperator, arg string, elems []string) ([]string, error) {
	suffix := op == syntax.RemSmallSuffix || op == syntax.RemLargeSuffix
	small := op == syntax.RemSmallPrefix || op == syntax.RemSmallSuffix
	out := make([]string, len(elems))
	for i, elem := range elems {
		var err error
		if out[i], err = cfg.removePattern(elem, arg, suffix, small); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// caseConvElems applies a case conversion operator to each element.
func (cfg *Config) caseConvElems(op syntax.ParExpOperator, arg string, elems []string) ([]string, error) {
	caseFunc := unicode.ToLower
	if op == syntax.UpperFirst || op == syntax.UpperAll {
		caseFunc = unicode.ToUpper
	}
	all := op == syntax.UpperAll || op == syntax.LowerAll

	// empty string means '?'; nothing to do there
	expr, err := pattern.Regexp(arg, 0)
	if err != nil {
		return elems, nil
	}
	rx, err := regexp.Compile(expr)
	if err != nil {
		return elems, nil
	}

	out := make([]string, len(elems))
	var held int64 // the elements converted so far, held together
	for i, elem := range elems {
		if cfg.Alloc != nil {
			// The result is built beside the value, in a buffer that
			// may double as it grows.
			if err := cfg.Alloc(held + 2*int64(len(elem))); err != nil {
				return nil, err
			}
		}
		var sb strings.Builder
		sb.Grow(len(elem))
		n := 0
		for j, r := range elem {
			if n++; n&0xffff == 0 && cfg.Stop != nil && cfg.Stop() {
				return nil, errStopped
			}
			_, size := utf8.DecodeRuneInString(elem[j:])
			if r == utf8.RuneError && size == 1 || !rx.MatchString(string(r)) {
				sb.WriteString(elem[j : j+size]) // invalid bytes stay as they are
			} else {
				sb.WriteRune(caseFunc(r))
			}
			if !all {
				sb.WriteString(elem[j+size:]) // only the first character is considered
				break
			}
		}
		out[i] = sb.String()
		held += int64(len(out[i]))
	}
	return out, nil
}

// varInd expands an indexed variable expansion like ${a[i]}, also reporting
// whether the resulting element is set, which may be false for missing array
// elements such as the holes in a sparse array.
func (cfg *Config) varInd(vr Variable, idx syntax.ArithmExpr) (string, bool, error) {
	if idx == nil {
		switch vr.Kind {
		case Indexed:
			// A bare $a is the element at index zero, which may be unset.
			str, ok := vr.indexedVal(0)
			return str, ok, nil
		case Associative:
			str, ok := vr.Map["0"]
			return str, ok, nil
		}
		return vr.String(), vr.IsSet(), nil
	}
	switch vr.Kind {
	case String:
		switch nodeLit(idx) {
		case "*", "@":
			return vr.Str, vr.IsSet(), nil
		}
		n, err := Arithm(cfg, idx)
		if err != nil {
			return "", false, err
		}
		if n == 0 {
			return vr.Str, vr.IsSet(), nil
		}
	case Indexed:
		switch nodeLit(idx) {
		case "*", "@":
			return strings.Join(vr.List, " "), vr.IsSet(), nil
		}
		i, err := Arithm(cfg, idx)
		if err != nil {
			return "", false, err
		}
		if i < 0 {
			// Negative indices count from one past the maximum index.
			if i += internal.IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
				if cfg.Warn != nil {
					cfg.Warn(cfg.curParam.Param.Value + ": bad array subscript")
				}
				return "", false, nil
			}
		}
		if str, ok := vr.indexedVal(i); ok {
			return str, true, nil
		}
	case Associative:
		switch lit := nodeLit(idx); lit {
		case "@", "*":
			strs := AssocValues(vr)
			if lit == "*" {
				return cfg.ifsJoin(strs), vr.IsSet(), nil
			}
			return strings.Join(strs, " "), vr.IsSet(), nil
		}
		val, err := Literal(cfg, idx.(*syntax.Word))
		if err != nil {
			return "", false, err
		}
		str, ok := vr.Map[val]
		return str, ok, nil
	}
	return "", false, nil
}

// assignElem assigns a variable via an expansion like ${a=val} or
// ${a[i]=val}, setting a single element when the variable is an array or is
// indexed, like Bash. ${a[i]=val} on a whole scalar converts it to an array.
func (cfg *Config) assignElem(name string, vr Variable, idx syntax.ArithmExpr, val string) error {
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	arrayWise := false
	switch nodeLit(idx) {
	case "@", "*":
		// ${a[@]=val} assigns the element at index zero.
		arrayWise = true
		idx = nil
	}
	if idx == nil && !arrayWise && vr.Kind != Indexed && vr.Kind != Associative {
		// A plain scalar assignment like ${x=val}.
		return wenv.Set(name, Variable{Set: true, Kind: String, Str: val})
	}
	switch vr.Kind {
	case Associative:
		key := "0"
		if idx != nil {
			var err error
			if key, err = Literal(cfg, idx.(*syntax.Word)); err != nil {
				return err
			}
		}
		vr = AssocSet(vr, key, val)
	default: // assign a single indexed element
		i := 0
		if idx != nil {
			var err error
			if i, err = Arithm(cfg, idx); err != nil {
				return err
			}
			if i < 0 {
				// Negative indices count from one past the maximum index.
				if i += internal.IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
					return fmt.Errorf("negative array index")
				}
			}
		}
		list, indexes := slices.Clone(vr.List), slices.Clone(vr.Indexes)
		if vr.Kind == String {
			list, indexes = []string{vr.Str}, nil
		}
		list, indexes = internal.SetIndexedElem(list, indexes, i, val)
		vr.Kind, vr.Str, vr.List, vr.Indexes = Indexed, "", list, indexes
	}
	vr.Set = true
	return wenv.Set(name, vr)
}

func (cfg *Config) namesByPrefix(prefix string) []string {
	var names []string
	for name := range cfg.Env.Each {
		if strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
