package shell

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Aliases are expanded in the text of a line before it is parsed, as bash
// expands them while it reads (G-2.3): the preflight, explain and the run
// all read the expanded text, so a command an alias spells is judged as if
// the line had spelled it, and the interpreter itself never expands one
// (mvdan-sh patch 130). An alias's text may hold any shell syntax (lists,
// pipes, redirections, comments).

// aliasTable is the set of aliases a text is read with.
type aliasTable struct {
	on bool // shopt expand_aliases
	m  map[string]string
}

func tableOf(a interp.Aliases) aliasTable {
	return aliasTable{on: a.Expanded(), m: a.Table()}
}

// Bounds on one text's expansion: an alias table can be built to grow a
// line exponentially, which bash would follow until it ran out of memory.
const (
	maxAliasExpansions = 100000
	maxAliasWork       = 64 << 20 // bytes parsed, over all rounds
	maxAliasText       = 256 << 10
)

var errAliasBound = errors.New("alias expansion exceeded its bound")

// aliasSpan is text an alias expansion produced: a word inside it that
// names one of the aliases being expanded is not expanded again, as bash
// does not.
type aliasSpan struct {
	start, end int
	names      []string
}

// expandAliasText returns src with its aliases expanded as bash reads it:
// a word in command position, unquoted, that names an alias is replaced by
// the alias's text, which is read again (its own command words expand,
// except an alias being expanded); after a text ending in a blank, the next
// word is read as a command word too. bash reads one complete command at a
// time (everything up to the newline that ends a top-level list), so an
// alias or unalias a top-level command of src runs with literal words
// takes effect from the next complete command on, and never within its
// own. A src that does not parse is returned as it is, for the reader to
// report.
func expandAliasText(src string, tbl aliasTable) (string, error) {
	text, _, err := expandAliases(src, tbl, false)
	return text, err
}

// expandAliases is expandAliasText; with mapped, it also returns the pieces
// of the result copied from src (see textReader).
func expandAliases(src string, tbl aliasTable, mapped bool) (string, []aliasSeg, error) {
	var segs []aliasSeg
	if mapped {
		segs = []aliasSeg{{start: 0, end: len(src), orig: 0}}
	}
	if len(tbl.m) == 0 && !strings.Contains(src, "alias") {
		return src, segs, nil
	}
	var spans aliasSpans
	// checks are offsets where bash checks the next unquoted word for an
	// alias though it is not a command word: after a text ending in a
	// blank, and the first word of a text that replaced such a word.
	var checks []int
	pos, n, work := 0, 0, 0
	// The bounds grow with the text, so a long line is read as it is.
	textLimit, workLimit := max(maxAliasText, 2*len(src)), max(maxAliasWork, 16*len(src))
	for {
		var hits []aliasHit
		if f, err := parse(src); err == nil {
			hits = nextAliasWords(f, src, tbl, pos, checks, spans)
		} else if ws, we, text, ok := fallbackAliasWord(src, tbl, pos, checks, spans); ok {
			// Text that parses only once an alias is expanded (an alias
			// opening a loop or a group): the command word found by its
			// tokens. What comes of it is parsed and judged all the same.
			hits = []aliasHit{{ws: ws, we: we, text: text}}
		}
		if len(hits) == 0 {
			return src, segs, nil
		}
		work += len(src)
		if n += len(hits); n > maxAliasExpansions || work > workLimit || len(src) > textLimit {
			return "", nil, errAliasBound
		}
		slices.SortFunc(hits, func(a, b aliasHit) int { return a.ws - b.ws })
		if mapped {
			segs = moveSegs(segs, hits)
		}
		src, spans, checks = replaceAliases(src, hits, spans, checks)
		pos = hits[0].ws
		kept := checks[:0]
		for _, c := range checks {
			if c >= pos {
				kept = append(kept, c)
			}
		}
		checks = kept
	}
}

// aliasHit is a word an alias replaces: its offsets, the alias's text, and
// whether bash read it as a command word only because of a check (see
// expandAliasText).
type aliasHit struct {
	ws, we int
	text   string
	check  bool
}

// replaceAliases puts each hit's text in place of its word (hits in
// order, apart), in one pass, and moves the spans and checks with them.
func replaceAliases(src string, hits []aliasHit, spans aliasSpans, checks []int) (string, aliasSpans, []int) {
	// ends[i], shifts[i]: where hit i's word ends, and how far text from
	// there on moves.
	ends, shifts := make([]int, len(hits)), make([]int, len(hits))
	var b strings.Builder
	b.Grow(len(src))
	last, shift := 0, 0
	var made []aliasSpan
	var newChecks []int
	for i, h := range hits {
		b.WriteString(src[last:h.ws])
		start := b.Len()
		b.WriteString(h.text)
		name := src[h.ws:h.we]
		guard := spans.around(h.ws, h.we)
		made = append(made, aliasSpan{start: start, end: start + len(h.text), names: append(guard, name)})
		if h.check {
			newChecks = append(newChecks, start)
		}
		if h.text != "" && strings.ContainsRune(" \t\n", rune(h.text[len(h.text)-1])) {
			newChecks = append(newChecks, start+len(h.text))
		}
		shift += len(h.text) - (h.we - h.ws)
		ends[i], shifts[i] = h.we, shift
		last = h.we
	}
	b.WriteString(src[last:])
	// moved is where old offset p lies now: after every word that ends
	// at or before it.
	moved := func(p int) int {
		k, _ := slices.BinarySearch(ends, p+1)
		if k == 0 {
			return p
		}
		return p + shifts[k-1]
	}
	inWord := func(p int) bool {
		k, _ := slices.BinarySearch(ends, p+1)
		return k < len(hits) && hits[k].ws <= p && p < hits[k].we
	}
	for _, round := range spans {
		for i := range round {
			round[i].start, round[i].end = moved(round[i].start), moved(round[i].end)
		}
	}
	kept := checks[:0]
	for _, c := range checks {
		if !inWord(c) {
			kept = append(kept, moved(c))
		}
	}
	return b.String(), append(spans, made), append(kept, newChecks...)
}

// nextAliasWords finds the words at or after pos that aliases expand, each
// with the aliases its complete command reads (the definitions of a
// complete command count from the next one on), up to a complete command
// that both expands aliases and defines some.
func nextAliasWords(f *syntax.File, src string, tbl aliasTable, pos int, checks []int, spans aliasSpans) []aliasHit {
	t := aliasTable{on: tbl.on, m: maps.Clone(tbl.m)}
	var hits []aliasHit
	for _, unit := range completeCommands(f.Stmts) {
		var found []aliasHit
		if last := unit[len(unit)-1]; t.on && len(t.m) > 0 && int(last.End().Offset()) >= pos {
			found = unitAliasWords(unit, src, t, pos, checks, spans)
		}
		hits = append(hits, found...)
		// A complete command with aliases to expand that defines others
		// is read again once expanded, before the ones after it.
		var before aliasTable
		watch := len(found) > 0 && slices.ContainsFunc(unit, touchesAliases)
		if watch {
			before = aliasTable{on: t.on, m: maps.Clone(t.m)}
		}
		for _, st := range unit {
			t.apply(st)
		}
		if watch && (t.on != before.on || !maps.Equal(t.m, before.m)) {
			break
		}
	}
	return hits
}

// fallbackAliasWord finds the next alias word of text that does not parse:
// in the longest run of whole lines that does parse, as nextAliasWord does,
// else in the rest by its tokens, with the aliases that run defined.
func fallbackAliasWord(src string, tbl aliasTable, pos int, checks []int, spans aliasSpans) (int, int, string, bool) {
	cut := 0
	var head *syntax.File
	for i := 0; i < len(src); i++ {
		if src[i] != '\n' {
			continue
		}
		f, err := parse(src[:i+1])
		if err != nil {
			break
		}
		cut, head = i+1, f
	}
	t := aliasTable{on: tbl.on, m: maps.Clone(tbl.m)}
	if head != nil {
		if hits := nextAliasWords(head, src[:cut], tbl, pos, checks, spans); len(hits) > 0 {
			return hits[0].ws, hits[0].we, hits[0].text, true
		}
		for _, st := range head.Stmts {
			t.apply(st)
		}
	}
	ws, we, text, ok := scanAliasWord(src[cut:], t, max(pos-cut, 0), shiftSpans(spans, -cut))
	return ws + cut, we + cut, text, ok
}

// aliasSpans are the spans of text alias expansions made, a list per round
// of expansion: those of one round are apart and in order, so finding the
// ones around an offset takes a search per round.
type aliasSpans [][]aliasSpan

// shiftSpans moves spans by d, for a scan of text that starts later.
func shiftSpans(spans aliasSpans, d int) aliasSpans {
	out := make(aliasSpans, len(spans))
	for r, round := range spans {
		out[r] = make([]aliasSpan, len(round))
		for i, sp := range round {
			out[r][i] = aliasSpan{start: sp.start + d, end: sp.end + d, names: sp.names}
		}
	}
	return out
}

// around is the names of the aliases whose text holds [ws, we): those of
// the innermost span, which holds the names of the spans around it.
func (spans aliasSpans) around(ws, we int) []string {
	for r := len(spans) - 1; r >= 0; r-- {
		round := spans[r]
		k, _ := slices.BinarySearchFunc(round, ws+1, func(sp aliasSpan, t int) int { return sp.start - t })
		if k > 0 && round[k-1].start <= ws && round[k-1].end >= we {
			return slices.Clone(round[k-1].names)
		}
	}
	return nil
}

// scanAliasWord finds the first unquoted command word at or after pos
// that names an alias, in text that does not parse: a word at the start,
// after an operator, a newline, ( or {, a reserved word that a command
// follows, or an assignment.
func scanAliasWord(src string, t aliasTable, pos int, spans aliasSpans) (int, int, string, bool) {
	if !t.on {
		return 0, 0, "", false
	}
	cmdPos := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case strings.IndexByte("\n;&|(){}", c) >= 0:
			cmdPos = true
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '<' || c == '>':
			for i < len(src) && strings.IndexByte("<>&|-", src[i]) >= 0 {
				i++
			}
			for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
				i++
			}
			i, _ = scanWord(src, i)
		default:
			start := i
			var quoted bool
			i, quoted = scanWord(src, i)
			word := src[start:i]
			if cmdPos && !quoted && start >= pos {
				if text, ok := t.m[word]; ok && !guarded(spans, start, word) {
					return start, i, text, true
				}
			}
			switch word {
			case "if", "then", "else", "elif", "do", "while", "until", "!", "time":
			default:
				cmdPos = cmdPos && strings.Contains(word, "=") && !quoted
			}
		}
	}
	return 0, 0, "", false
}

// scanWord reads a word from i: its end, and whether any of it was quoted
// or expanded (such a word is never an alias).
func scanWord(src string, i int) (int, bool) {
	quoted := false
	for i < len(src) && strings.IndexByte(" \t\n;&|()<>", src[i]) < 0 {
		switch src[i] {
		case '\'':
			quoted = true
			if j := strings.IndexByte(src[i+1:], '\''); j >= 0 {
				i += j + 2
				continue
			}
			return len(src), true
		case '"':
			quoted = true
			i++
			for i < len(src) && src[i] != '"' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
			continue
		case '\\':
			quoted = true
			i += 2
			continue
		case '$', '`':
			quoted = true
		}
		i++
	}
	return min(i, len(src)), quoted
}

// guarded: the word at off lies in text an alias of the same name made.
func guarded(spans aliasSpans, off int, name string) bool {
	return slices.Contains(spans.around(off, off+1), name)
}

// completeCommands groups top-level statements as bash reads them: a
// statement that begins on the line where the previous one ends belongs to
// the same complete command.
func completeCommands(stmts []*syntax.Stmt) [][]*syntax.Stmt {
	var units [][]*syntax.Stmt
	endLine := uint(0)
	for _, st := range stmts {
		if len(units) > 0 && st.Pos().Line() <= endLine {
			units[len(units)-1] = append(units[len(units)-1], st)
		} else {
			units = append(units, []*syntax.Stmt{st})
		}
		endLine = max(endLine, st.End().Line())
	}
	return units
}

// unitAliasWords is nextAliasWords within one complete command.
func unitAliasWords(unit []*syntax.Stmt, src string, t aliasTable, pos int, checks []int, spans aliasSpans) []aliasHit {
	var hits []aliasHit
	seen := map[int]bool{}
	consider := func(w *syntax.Word, check bool) {
		off, end := int(w.Pos().Offset()), int(w.End().Offset())
		if off < pos || seen[off] {
			return
		}
		name := w.Lit()
		text, ok := t.m[name]
		if !ok || end > len(src) || src[off:end] != name || guarded(spans, off, name) {
			return
		}
		seen[off] = true
		hits = append(hits, aliasHit{ws: off, we: end, text: text, check: check})
	}
	for _, st := range unit {
		syntax.Walk(st, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			consider(call.Args[0], false)
			for _, c := range checks {
				if c < int(call.Pos().Offset()) || c > int(call.End().Offset()) {
					continue
				}
				// The first unquoted word at or after c: bash's check
				// passes over quoted words.
				for _, a := range call.Args {
					if int(a.Pos().Offset()) >= c && !quotedWord(a) {
						consider(a, true)
						break
					}
				}
			}
			return true
		})
	}
	return hits
}

// quotedWord: a word with any quoting, which bash never reads as an alias.
func quotedWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				return true
			}
		}
	}
	return false
}

// apply follows what a top-level statement spelled with literal words does
// to the aliases: alias, unalias, shopt expand_aliases and an eval string
// holding them, also as parts of an && or || list.
func (t *aliasTable) apply(st *syntax.Stmt) {
	if st.Background || st.Negated {
		return
	}
	switch cm := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if cm.Op == syntax.AndStmt || cm.Op == syntax.OrStmt {
			t.apply(cm.X)
			t.apply(cm.Y)
		}
	case *syntax.CallExpr:
		var argv []string
		for _, w := range cm.Args {
			v, ok := literalWord(w)
			if !ok {
				return
			}
			argv = append(argv, v)
		}
		if len(argv) > 0 {
			t.run(argv)
		}
	}
}

// touchesAliases: apply may change the table for st.
func touchesAliases(st *syntax.Stmt) bool {
	switch cm := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		return touchesAliases(cm.X) || touchesAliases(cm.Y)
	case *syntax.CallExpr:
		if len(cm.Args) > 0 {
			name, _ := literalWord(cm.Args[0])
			switch name {
			case "alias", "unalias", "eval", "shopt":
				return true
			}
		}
	}
	return false
}

// run is the effect of one literal alias, unalias or shopt call.
func (t *aliasTable) run(argv []string) {
	switch argv[0] {
	case "alias":
		for _, a := range argv[1:] {
			if name, text, ok := strings.Cut(a, "="); ok && name != "" && !strings.ContainsAny(name, " \t\n|&;()<>'\"`\\$/") {
				if t.m == nil {
					t.m = map[string]string{}
				}
				t.m[name] = text
			}
		}
	case "unalias":
		for _, a := range argv[1:] {
			if a == "-a" {
				clear(t.m)
			}
			delete(t.m, a)
		}
	case "eval":
		// An eval string's own top-level definitions count too.
		if f, err := parse(strings.Join(argv[1:], " ")); err == nil {
			for _, st := range f.Stmts {
				t.apply(st)
			}
		}
	case "shopt":
		if len(argv) >= 3 && (argv[1] == "-s" || argv[1] == "-u") {
			for _, o := range argv[2:] {
				if o == "expand_aliases" {
					t.on = argv[1] == "-s"
				}
			}
		}
	}
}
