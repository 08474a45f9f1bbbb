package utils

import (
	"strconv"
	"strings"
)

// The patch format side of patch: unified diffs (plain or git-style),
// with the leading text patch ignores.

// patchLine is one body line of a hunk: ' ', '-' or '+' and its text.
type patchLine struct {
	op   byte
	text string
}

// patchHunk is one "@@ -a,b +c,d @@" section.
type patchHunk struct {
	oldStart, oldLen int
	newStart, newLen int
	header           string // the @@ line, verbatim
	lines            []patchLine
	oldNoEOL         bool // "\ No newline at end of file" after the old side's last line
	newNoEOL         bool
}

// oldSide and newSide are the lines a hunk expects and leaves.
func (h *patchHunk) oldSide() []string { return h.side('-') }
func (h *patchHunk) newSide() []string { return h.side('+') }

func (h *patchHunk) side(op byte) []string {
	var out []string
	for _, l := range h.lines {
		if l.op == ' ' || l.op == op {
			out = append(out, l.text)
		}
	}
	return out
}

// reversed swaps a hunk's sides, for -R.
func (h *patchHunk) reversed() *patchHunk {
	r := &patchHunk{oldStart: h.newStart, oldLen: h.newLen, newStart: h.oldStart, newLen: h.oldLen,
		header: h.header, oldNoEOL: h.newNoEOL, newNoEOL: h.oldNoEOL}
	// Swap each change's sides, deletions first as a diff writes them.
	var minus, plus []patchLine
	flush := func() {
		r.lines = append(append(r.lines, minus...), plus...)
		minus, plus = nil, nil
	}
	for _, l := range h.lines {
		switch l.op {
		case '-':
			plus = append(plus, patchLine{'+', l.text})
		case '+':
			minus = append(minus, patchLine{'-', l.text})
		default:
			flush()
			r.lines = append(r.lines, l)
		}
	}
	flush()
	return r
}

// filePatch is the patch of one file.
type filePatch struct {
	oldName, newName   string
	oldStamp, newStamp string
	headerAt           int      // line of the "---" header, for messages
	leading            []string // the text between the previous patch and this one
	hunks              []*patchHunk
}

// parsePatchText splits patch input into file patches.
func parsePatchText(text string) []*filePatch {
	lines := strings.SplitAfter(text, "\n")
	var patches []*filePatch
	var leading []string
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSuffix(lines[i], "\n")
		if !strings.HasPrefix(line, "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			leading = append(leading, line)
			continue
		}
		fp := &filePatch{headerAt: i + 1, leading: leading}
		leading = nil
		fp.oldName, fp.oldStamp = patchHeaderName(line[4:])
		fp.newName, fp.newStamp = patchHeaderName(strings.TrimSuffix(lines[i+1], "\n")[4:])
		i += 2
		for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
			h, next, ok := parseHunk(lines, i)
			if !ok {
				break
			}
			fp.hunks = append(fp.hunks, h)
			i = next
		}
		i--
		patches = append(patches, fp)
	}
	return patches
}

// patchHeaderName splits "NAME\tSTAMP" (a tab before the time stamp).
func patchHeaderName(s string) (name, stamp string) {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		return s[:i], s[i:]
	}
	return strings.TrimRight(s, " \r"), ""
}

// parseHunk reads the hunk whose @@ line is lines[i]; next is the line
// after it.
func parseHunk(lines []string, i int) (h *patchHunk, next int, ok bool) {
	header := strings.TrimSuffix(lines[i], "\n")
	body, _, found := strings.Cut(strings.TrimPrefix(header, "@@ "), " @@")
	if !found {
		return nil, i, false
	}
	old, nw, found := strings.Cut(body, " ")
	if !found || !strings.HasPrefix(old, "-") || !strings.HasPrefix(nw, "+") {
		return nil, i, false
	}
	h = &patchHunk{header: header}
	var ok1, ok2 bool
	h.oldStart, h.oldLen, ok1 = patchRange(old[1:])
	h.newStart, h.newLen, ok2 = patchRange(nw[1:])
	if !ok1 || !ok2 {
		return nil, i, false
	}
	oldLeft, newLeft := h.oldLen, h.newLen
	j := i + 1
	for ; j < len(lines) && (oldLeft > 0 || newLeft > 0 || strings.HasPrefix(lines[j], `\`)); j++ {
		l := strings.TrimSuffix(lines[j], "\n")
		if strings.HasPrefix(l, `\`) {
			if n := len(h.lines); n > 0 {
				switch h.lines[n-1].op {
				case '-':
					h.oldNoEOL = true
				case '+':
					h.newNoEOL = true
				default:
					h.oldNoEOL, h.newNoEOL = true, true
				}
			}
			continue
		}
		op, text := byte(' '), ""
		if l != "" {
			op, text = l[0], l[1:]
		}
		switch op {
		case ' ':
			oldLeft--
			newLeft--
		case '-':
			oldLeft--
		case '+':
			newLeft--
		default:
			return nil, i, false
		}
		h.lines = append(h.lines, patchLine{op, text})
	}
	if oldLeft != 0 || newLeft != 0 {
		return nil, i, false
	}
	return h, j, true
}

// patchRange reads "START,LEN" or "START" (length 1).
func patchRange(s string) (start, length int, ok bool) {
	a, b, hasLen := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	length = 1
	if hasLen {
		if length, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, length, true
}

// stripPath removes n leading components (-p N); n < 0 keeps the
// basename unless the whole relative path's directories exist.
func stripPath(name string, n int) string {
	if n < 0 {
		return name
	}
	rest := name
	for ; n > 0; n-- {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			return ""
		}
		rest = strings.TrimLeft(rest[i+1:], "/")
	}
	return rest
}
