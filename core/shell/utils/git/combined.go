package git

import (
	"bytes"
	"fmt"
)

// A combined diff ("diff --cc") shows a conflicted file of the worktree
// against both sides of the merge at once: each line carries one column
// per side, '+' where the line is not in that side, '-' for a side's
// line the result lost. Only hunks where the result differs from both
// sides are shown (git's dense mode).

// cline is a result line of a combined diff: which sides lack it (bit n
// for side n), and the side lines lost just before it.
type cline struct {
	text  []byte // nil for the end, after the last line
	added int
	lost  []lostLine
	mark  bool // shown, as a change or as context
	quiet bool // context painted before a change: its lost lines are not repeated
	pos   [2]int
}

// lostLine is a side's line the result no longer has; sides is a mask.
type lostLine struct {
	text  []byte
	sides int
}

// combinedLines lines up result against the two sides.
func combinedLines(sides [2][][]byte, result [][]byte) []cline {
	cl := make([]cline, len(result)+1)
	for i, ln := range result {
		cl[i].text = ln
	}
	for n, side := range sides {
		bit := 1 << n
		for i := range cl {
			cl[i].added |= bit // until the diff says the side has it
		}
		cl[len(result)].added &^= bit
		var lost [][]byte
		flush := func(at int) {
			if len(lost) > 0 {
				cl[at].lost = coalesceLost(cl[at].lost, lost, bit)
				lost = nil
			}
		}
		for _, e := range diffLines(side, result) {
			switch e.op {
			case opEqual:
				flush(e.b)
				cl[e.b].added &^= bit
			case opDel:
				lost = append(lost, side[e.a])
			case opAdd:
				flush(e.b)
			}
		}
		flush(len(result))
		// Each result line's line number in this side, for the headers.
		p := 1
		for i := range cl {
			cl[i].pos[n] = p
			for _, l := range cl[i].lost {
				if l.sides&bit != 0 {
					p++
				}
			}
			if i < len(result) && cl[i].added&bit == 0 {
				p++
			}
		}
	}
	return cl
}

// maxCoalesce bounds the table lining up two sides' lost lines; longer
// runs are listed one after the other without being paired.
const maxCoalesce = 1 << 20

// coalesceLost adds one side's lost lines to those already lost at the
// same place, pairing equal lines (a longest common subsequence) so a
// line both sides lost is shown once with both marks.
func coalesceLost(have []lostLine, more [][]byte, bit int) []lostLine {
	if len(have) == 0 || len(have)*len(more) > maxCoalesce {
		for _, m := range more {
			have = append(have, lostLine{text: m, sides: bit})
		}
		return have
	}
	n, m := len(have), len(more)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			switch {
			case bytes.Equal(have[i-1].text, more[j-1]):
				lcs[i][j] = lcs[i-1][j-1] + 1
			case lcs[i][j-1] >= lcs[i-1][j]:
				lcs[i][j] = lcs[i][j-1]
			default:
				lcs[i][j] = lcs[i-1][j]
			}
		}
	}
	var rev []lostLine
	i, j := n, m
	for i > 0 || j > 0 {
		switch {
		case i > 0 && j > 0 && bytes.Equal(have[i-1].text, more[j-1]):
			l := have[i-1]
			l.sides |= bit
			rev = append(rev, l)
			i--
			j--
		case j > 0 && (i == 0 || lcs[i][j-1] >= lcs[i-1][j]):
			rev = append(rev, lostLine{text: more[j-1], sides: bit})
			j--
		default:
			rev = append(rev, have[i-1])
			i--
		}
	}
	out := make([]lostLine, len(rev))
	for k := range rev {
		out[k] = rev[len(rev)-1-k]
	}
	return out
}

// interesting is a line that differs from some side or follows lost lines.
func (c *cline) interesting() bool { return c.added != 0 || len(c.lost) > 0 }

// markHunks marks the lines the dense combined diff shows: runs of
// interesting lines, dropped where the result simply equals one side,
// then given context.
func markHunks(cl []cline) bool {
	const all = 3
	last := len(cl) - 1
	for i := range cl {
		cl[i].mark = cl[i].interesting()
	}
	for i := 0; i <= last; {
		for i <= last && !cl[i].mark {
			i++
		}
		if i > last {
			break
		}
		begin := i
		j := i + 1
		for ; j <= last; j++ {
			if cl[j].mark {
				continue
			}
			la := adjustTail(cl, begin, j) + hunkContext
			if la > last+1 {
				la = last + 1
			}
			cont := false
			for la > 0 && j <= la-1 {
				la--
				if cl[la].mark {
					cont = true
					break
				}
			}
			if !cont {
				break
			}
			j = la
		}
		end := j
		same, twoVersions := 0, true
		for k := begin; k < end && twoVersions; k++ {
			if d := cl[k].added; d != 0 {
				if same == 0 {
					same = d
				} else if same != d {
					twoVersions = false
				}
			}
			for _, l := range cl[k].lost {
				if same == 0 {
					same = l.sides
				} else if same != l.sides {
					twoVersions = false
				}
			}
		}
		if twoVersions && same != all {
			for k := begin; k < end; k++ {
				cl[k].mark = false
			}
		}
		i = end
	}
	return giveContext(cl)
}

// adjustTail steps back over a last line that was interesting only for
// the lines lost before it: it is shown anyway, as one line of context.
func adjustTail(cl []cline, begin, i int) int {
	if begin+1 <= i && cl[i-1].added == 0 {
		return i - 1
	}
	return i
}

// nextMarked is the first line from i on whose mark is want (len: none).
func nextMarked(cl []cline, i int, want bool) int {
	for ; i < len(cl); i++ {
		if cl[i].mark == want {
			return i
		}
	}
	return len(cl)
}

// giveContext paints context lines around the marked ones, joining
// groups closer than the context.
func giveContext(cl []cline) bool {
	n := len(cl)
	i := nextMarked(cl, 0, true)
	if i >= n {
		return false
	}
	for i < n {
		for j := max(i-hunkContext, 0); j < i; j++ {
			if !cl[j].mark {
				cl[j].quiet = true
			}
			cl[j].mark = true
		}
		for {
			j := nextMarked(cl, i, false)
			if j >= n {
				return true
			}
			k := nextMarked(cl, j, true)
			j = adjustTail(cl, i, j)
			if k < j+hunkContext {
				for ; j < k; j++ {
					cl[j].mark = true
				}
				i = k
				continue
			}
			i = k
			for end := min(j+hunkContext, n); j < end; j++ {
				cl[j].mark = true
			}
			break
		}
	}
	return true
}

// writeCombined prints the hunks of a combined diff.
func writeCombined(out lineWriter, cl []cline) {
	if !markHunks(cl) {
		return
	}
	last := len(cl) - 1
	comment := ""
	for lno := 0; ; {
		for lno <= last && !cl[lno].mark {
			if t := cl[lno].text; len(t) > 0 && (isAlpha(t[0]) || t[0] == '_' || t[0] == '$') {
				comment = funcComment(t)
			}
			lno++
		}
		if lno > last {
			return
		}
		end := lno + 1
		for end <= last && cl[end].mark {
			end++
		}
		rlines := end - lno
		if end > last {
			rlines--
		}
		trailer := func(n int) int {
			if end <= last {
				return cl[end].pos[n]
			}
			return cl[last].pos[n] + lostCount(cl[last], n)
		}
		fmt.Fprintf(out, "@@@ -%d,%d -%d,%d +%d,%d @@@", cl[lno].pos[0], trailer(0)-cl[lno].pos[0],
			cl[lno].pos[1], trailer(1)-cl[lno].pos[1], lno+1, rlines)
		if comment != "" {
			out.WriteString(" " + comment)
		}
		out.WriteString("\n")
		for ; lno < end; lno++ {
			c := &cl[lno]
			if !c.quiet {
				for _, l := range c.lost {
					out.WriteString(columns(l.sides, '-'))
					writeLine(out, l.text)
				}
			}
			if lno == last {
				break
			}
			out.WriteString(columns(c.added, '+'))
			writeLine(out, c.text)
		}
		lno = end
		comment = ""
	}
}

// lostCount is how many of a line's lost lines side n had.
func lostCount(c cline, n int) int {
	k := 0
	for _, l := range c.lost {
		if l.sides&(1<<n) != 0 {
			k++
		}
	}
	return k
}

// columns is the two marker columns for a mask of sides.
func columns(mask int, mark byte) string {
	b := []byte{' ', ' '}
	for n := 0; n < 2; n++ {
		if mask&(1<<n) != 0 {
			b[n] = mark
		}
	}
	return string(b)
}

// writeLine prints a line and a line end (a combined diff does not mark
// a missing one).
func writeLine(out lineWriter, ln []byte) {
	out.Write(ln)
	if !bytes.HasSuffix(ln, []byte("\n")) {
		out.WriteString("\n")
	}
}

// funcComment is a hunk header's function line as the combined diff
// prints it: of its first 40 bytes, those before the last non-blank one
// (git's own output drops that last character too).
func funcComment(t []byte) string {
	end := 0
	for i := 0; i < 40 && i < len(t) && t[i] != '\n'; i++ {
		if c := t[i]; c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f' {
			end = i
		}
	}
	return string(t[:end])
}
