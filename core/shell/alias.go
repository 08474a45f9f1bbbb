package shell

import (
	"errors"
	"maps"
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
	maxAliasExpansions = 2000
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
	if len(tbl.m) == 0 && !strings.Contains(src, "alias") {
		return src, nil
	}
	var spans []aliasSpan
	// checks are offsets where bash checks the next unquoted word for an
	// alias though it is not a command word: after a text ending in a
	// blank, and the first word of a text that replaced such a word.
	var checks []int
	pos := 0
	for n := 0; ; n++ {
		var ws, we int
		var text string
		if f, err := parse(src); err == nil {
			w, t, ok := nextAliasWord(f, src, tbl, pos, checks, spans)
			if !ok {
				return src, nil
			}
			ws, we, text = int(w.Pos().Offset()), int(w.End().Offset()), t
		} else {
			// Text that parses only once an alias is expanded (an alias
			// opening a loop or a group): find the command word by its
			// tokens. What comes of it is parsed and judged all the same.
			var ok bool
			if ws, we, text, ok = fallbackAliasWord(src, tbl, pos, checks, spans); !ok {
				return src, nil
			}
		}
		if n == maxAliasExpansions || len(src) > maxAliasText {
			return "", errAliasBound
		}
		name := src[ws:we]
		src = src[:ws] + text + src[we:]
		d := len(text) - (we - ws)
		var guard []string
		for i := range spans {
			sp := &spans[i]
			switch {
			case sp.start >= we:
				sp.start += d
				sp.end += d
			case sp.start <= ws && sp.end >= we:
				guard = append(guard, sp.names...)
				sp.end += d
			}
		}
		spans = append(spans, aliasSpan{start: ws, end: ws + len(text), names: append(guard, name)})
		kept := checks[:0]
		for _, c := range checks {
			if c >= we {
				kept = append(kept, c+d)
			} else if c < ws {
				kept = append(kept, c)
			}
		}
		checks = append(kept, ws)
		if text != "" && strings.ContainsRune(" \t\n", rune(text[len(text)-1])) {
			checks = append(checks, ws+len(text))
		}
		pos = ws
	}
}

// nextAliasWord finds the first word at or after pos that an alias
// expands, with the text to put in its place.
func nextAliasWord(f *syntax.File, src string, tbl aliasTable, pos int, checks []int, spans []aliasSpan) (*syntax.Word, string, bool) {
	t := aliasTable{on: tbl.on, m: maps.Clone(tbl.m)}
	for _, unit := range completeCommands(f.Stmts) {
		if last := unit[len(unit)-1]; t.on && len(t.m) > 0 && int(last.End().Offset()) >= pos {
			if w, text, ok := unitAliasWord(unit, src, t, pos, checks, spans); ok {
				return w, text, true
			}
		}
		for _, st := range unit {
			t.apply(st)
		}
	}
	return nil, "", false
}

// fallbackAliasWord finds the next alias word of text that does not parse:
// in the longest run of whole lines that does parse, as nextAliasWord does,
// else in the rest by its tokens, with the aliases that run defined.
func fallbackAliasWord(src string, tbl aliasTable, pos int, checks []int, spans []aliasSpan) (int, int, string, bool) {
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
		if w, text, ok := nextAliasWord(head, src[:cut], tbl, pos, checks, spans); ok {
			return int(w.Pos().Offset()), int(w.End().Offset()), text, true
		}
		for _, st := range head.Stmts {
			t.apply(st)
		}
	}
	ws, we, text, ok := scanAliasWord(src[cut:], t, max(pos-cut, 0), shiftSpans(spans, -cut))
	return ws + cut, we + cut, text, ok
}

// shiftSpans moves spans by d, for a scan of text that starts later.
func shiftSpans(spans []aliasSpan, d int) []aliasSpan {
	out := make([]aliasSpan, len(spans))
	for i, sp := range spans {
		out[i] = aliasSpan{start: sp.start + d, end: sp.end + d, names: sp.names}
	}
	return out
}

// scanAliasWord finds the first unquoted command word at or after pos
// that names an alias, in text that does not parse: a word at the start,
// after an operator, a newline, ( or {, a reserved word that a command
// follows, or an assignment.
func scanAliasWord(src string, t aliasTable, pos int, spans []aliasSpan) (int, int, string, bool) {
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
func guarded(spans []aliasSpan, off int, name string) bool {
	for _, sp := range spans {
		if sp.start <= off && off < sp.end {
			for _, n := range sp.names {
				if n == name {
					return true
				}
			}
		}
	}
	return false
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

// unitAliasWord is nextAliasWord within one complete command.
func unitAliasWord(unit []*syntax.Stmt, src string, t aliasTable, pos int, checks []int, spans []aliasSpan) (*syntax.Word, string, bool) {
	var best *syntax.Word
	bestText := ""
	consider := func(w *syntax.Word) {
		off := int(w.Pos().Offset())
		if off < pos || (best != nil && off >= int(best.Pos().Offset())) {
			return
		}
		name := w.Lit()
		text, ok := t.m[name]
		if !ok || int(w.End().Offset()) > len(src) || src[off:int(w.End().Offset())] != name {
			return
		}
		if guarded(spans, off, name) {
			return
		}
		best, bestText = w, text
	}
	for _, st := range unit {
		syntax.Walk(st, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			consider(call.Args[0])
			for _, c := range checks {
				if c < pos || c < int(call.Pos().Offset()) || c > int(call.End().Offset()) {
					continue
				}
				// The first unquoted word at or after c: bash's check
				// passes over quoted words.
				for _, a := range call.Args {
					if int(a.Pos().Offset()) >= c && !quotedWord(a) {
						consider(a)
						break
					}
				}
			}
			return true
		})
	}
	return best, bestText, best != nil
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
