package git

import "bytes"

// Word diff (--word-diff, git's plain mode): a hunk's unchanged lines are
// printed as they are; each run of removed and added lines is compared
// word by word (a word is a run of characters other than blanks) and
// printed as the added text with the removed words in [-...-] and the
// added ones in {+...+}. Text between changed words comes from the new
// side, so a change of blanks alone does not show.

// writeWordHunk prints a hunk's lines as a word diff.
func writeWordHunk(out lineWriter, a, b [][]byte, h []edit) {
	var minus, plus []byte
	flush := func() {
		if len(minus) > 0 || len(plus) > 0 {
			writeWordDiff(out, minus, plus)
		}
		minus, plus = minus[:0], plus[:0]
	}
	for _, e := range h {
		switch e.op {
		case opDel:
			minus = append(minus, a[e.a]...)
		case opAdd:
			plus = append(plus, b[e.b]...)
		default:
			flush()
			out.Write(a[e.a])
		}
	}
	flush()
}

// wordSpan is a word's place in its text: [begin, end).
type wordSpan struct{ begin, end int }

// splitWords finds the words of a text: runs of characters other than
// space, tab, newline and carriage return.
func splitWords(text []byte) []wordSpan {
	var out []wordSpan
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for i := 0; i < len(text); {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		if i == len(text) {
			break
		}
		j := i
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		out = append(out, wordSpan{i, j})
		i = j
	}
	return out
}

// writeWordDiff prints removed text against added text word by word.
func writeWordDiff(out lineWriter, minus, plus []byte) {
	if len(plus) == 0 {
		writeWordPart(out, "[-", "-]", minus)
		return
	}
	mw, pw := splitWords(minus), splitWords(plus)
	words := func(text []byte, spans []wordSpan) [][]byte {
		ws := make([][]byte, len(spans))
		for i, s := range spans {
			ws[i] = text[s.begin:s.end]
		}
		return ws
	}
	// at is where the text ends after the first n words (its start for 0).
	at := func(spans []wordSpan, n int) int {
		if n == 0 {
			return 0
		}
		return spans[n-1].end
	}
	edits := diffLines(words(minus, mw), words(plus, pw))
	cur := 0       // the next byte of plus not yet printed
	mi, pi := 0, 0 // the words of each side before edits[k]
	for k := 0; k < len(edits); {
		if edits[k].op == opEqual {
			mi, pi, k = mi+1, pi+1, k+1
			continue
		}
		m0, p0 := mi, pi
		for ; k < len(edits) && edits[k].op != opEqual; k++ {
			if edits[k].op == opDel {
				mi++
			} else {
				pi++
			}
		}
		pBegin, pEnd := at(pw, p0), at(pw, p0)
		if pi > p0 {
			pBegin, pEnd = pw[p0].begin, pw[pi-1].end
		}
		if cur != pBegin {
			writeWordPart(out, "", "", plus[cur:pBegin])
		}
		if mi > m0 {
			writeWordPart(out, "[-", "-]", minus[mw[m0].begin:mw[mi-1].end])
		}
		if pEnd > pBegin {
			writeWordPart(out, "{+", "+}", plus[pBegin:pEnd])
		}
		cur = pEnd
	}
	if cur < len(plus) {
		writeWordPart(out, "", "", plus[cur:])
	}
}

// writeWordPart prints text line by line, each non-empty piece between
// the markers, as git wraps a change that spans lines.
func writeWordPart(out lineWriter, open, close string, text []byte) {
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		piece := text
		if i >= 0 {
			piece = text[:i]
		}
		if len(piece) > 0 {
			out.WriteString(open)
			out.Write(piece)
			out.WriteString(close)
		}
		if i < 0 {
			return
		}
		out.WriteString("\n")
		text = text[i+1:]
	}
}
