package shell

import (
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// A text (a line, an eval string, a sourced file) is expanded whole before
// it runs, with the aliases its own top-level `alias` commands define
// counted from their next line on (alias.go). bash reads a text one
// complete command at a time and expands each with the aliases defined by
// then, so an alias a function, a sourced file or an `alias` inside a
// compound command defined applies from the next line read too. A
// textReader watches the run for that: before each complete command, if
// the aliases the run has are not those the expansion assumed, it reads
// the rest of the text again, as written, with the aliases the run has
// (G-2.3). What it reads again is judged as it runs, command by command,
// like any command preflight could not read.

// Bounds on reading one text again: each reading costs the rest of the
// text, and a line that defines an alias in a function on each of its
// lines would otherwise cost its length squared. Past them the rest runs
// as first read.
const (
	maxRereads     = 32
	maxRereadBytes = 1 << 20
)

// aliasSeg is a piece of an expanded text copied from the text as written:
// [start, end) of the expansion is [orig, orig+end-start) of the text.
type aliasSeg struct{ start, end, orig int }

// moveSegs is segs after one round of expansion replaced hits (in order,
// apart) in the text segs describe: what a hit replaced is no longer the
// written text, and what follows it moves.
func moveSegs(segs []aliasSeg, hits []aliasHit) []aliasSeg {
	out := make([]aliasSeg, 0, len(segs)+len(hits))
	shift, h := 0, 0
	for _, sg := range segs {
		for cur := sg.start; cur < sg.end; {
			for h < len(hits) && hits[h].we <= cur {
				shift += len(hits[h].text) - (hits[h].we - hits[h].ws)
				h++
			}
			if h < len(hits) && hits[h].ws <= cur {
				cur = hits[h].we // within a replaced word
				continue
			}
			end := sg.end
			if h < len(hits) && hits[h].ws < end {
				end = hits[h].ws
			}
			out = append(out, aliasSeg{start: cur + shift, end: end + shift, orig: sg.orig + cur - sg.start})
			cur = end
		}
	}
	return out
}

// origin is where offset e of the expansion lies in the written text, if
// it was copied from it.
func origin(segs []aliasSeg, e int) (int, bool) {
	k, _ := slices.BinarySearchFunc(segs, e+1, func(sg aliasSeg, t int) int { return sg.start - t })
	if k == 0 || e >= segs[k-1].end {
		return 0, false
	}
	sg := segs[k-1]
	return sg.orig + e - sg.start, true
}

// textReader reads the rest of a text again when the run's aliases differ
// from those its expansion assumed.
type textReader struct {
	s     *Shell
	text  string // as written (blank before what was read again last)
	exp   string // as expanded
	segs  []aliasSeg
	stmts []*syntax.Stmt // the statements of exp
	// next is the first statement whose effect on the aliases table does
	// not count yet; endLine the last line the statements before it reach.
	next    int
	endLine uint
	table   aliasTable // the aliases the expansion assumed before stmts[next]
	// rereads and rereadBytes are how often and how many bytes the text was
	// read again.
	rereads, rereadBytes int
}

// readText reads text as bash reads it with the aliases tbl: expanded,
// parsed, and rewritten (rewrite.go, envwrites.go); the reader re-reads its rest as the
// run's aliases change. An error is the expansion's bound or the parser's.
func (s *Shell) readText(text string, tbl aliasTable) (*syntax.File, *textReader, error) {
	exp, segs, err := expandAliases(text, tbl, true)
	if err != nil {
		return nil, nil, err
	}
	f, err := parse(exp)
	if err != nil {
		return nil, nil, err
	}
	s.rewriteProcSubst(f)
	s.rewriteEnvWrites(f)
	rd := &textReader{s: s, text: text, exp: exp, segs: segs, stmts: f.Stmts, table: copyTable(tbl)}
	return f, rd, nil
}

func copyTable(t aliasTable) aliasTable {
	return aliasTable{on: t.on, m: maps.Clone(t.m)}
}

// sameAliases: nothing the two tables would expand differs.
func sameAliases(a, b aliasTable) bool {
	if !a.on && !b.on {
		return true
	}
	return a.on == b.on && maps.Equal(a.m, b.m)
}

// reread is an interp.Reread: before next, if it starts a complete command
// and the run's aliases are not those the expansion assumed, the rest of
// the text from next's line, read again with them.
func (rd *textReader) reread(next *syntax.Stmt, r *interp.Runner) ([]*syntax.Stmt, bool) {
	return rd.readAgain(next, func() aliasTable { return tableOf(r.Aliases()) })
}

// readAgain is reread with live giving the run's aliases.
func (rd *textReader) readAgain(next *syntax.Stmt, live func() aliasTable) ([]*syntax.Stmt, bool) {
	j := rd.next
	for j < len(rd.stmts) && rd.stmts[j] != next {
		j++
	}
	if j == len(rd.stmts) {
		return nil, false
	}
	for ; rd.next < j; rd.next++ {
		st := rd.stmts[rd.next]
		rd.table.apply(st)
		rd.endLine = max(rd.endLine, st.End().Line())
	}
	if next.Pos().Line() <= rd.endLine || rd.rereads >= maxRereads || rd.rereadBytes > maxRereadBytes {
		return nil, false // within a complete command
	}
	tbl := live()
	if sameAliases(rd.table, tbl) {
		return nil, false
	}
	// From the start of next's line, if the newline before it is written
	// text (a statement on a later line than another has one).
	e0 := strings.LastIndexByte(rd.exp[:next.Pos().Offset()], '\n') + 1
	nl, ok := origin(rd.segs, e0-1)
	if e0 == 0 || !ok {
		return nil, false
	}
	o := nl + 1
	// Blanks keep the offsets and lines before it: places and line
	// numbers stay those of the first reading.
	blank := []byte(rd.exp[:e0])
	for i, c := range blank {
		if c != '\n' {
			blank[i] = ' '
		}
	}
	text := string(blank) + rd.text[o:]
	f, nrd, err := rd.s.readText(text, tbl)
	rd.rereads++
	rd.rereadBytes += len(text)
	if err != nil {
		return nil, false // the rest runs as first read
	}
	rd.s.noteFuncs(f)
	nrd.rereads, nrd.rereadBytes = rd.rereads, rd.rereadBytes
	*rd = *nrd
	return f.Stmts, true
}
