package mcp

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Tool results are capped (limits.tool_output, docs/agents.md): an agent
// reads a bounded amount, the head and the tail of what was too long, and
// a marker between them that says how much was cut and how to see it. The
// structured content carries the same capped text, so nothing is doubled
// beyond the cap.

// Hints for the cut marker: how the agent sees what was cut.
const (
	hintLine = "to see it, write the output to a file (LINE > /tmp/out.txt) and page through it with read_file's offset and limit, or narrow it with grep, head or tail"
	hintRead = "to see it, read_file with a smaller limit and the offset of the first line cut"
)

// markerRoom is what the marker line takes out of the budget, at most.
const markerRoom = 320

// capped is text within a budget of characters.
type capped struct {
	Text string
	// Cut counts the characters left out (0: the text is whole); Lines
	// counts the whole lines among them.
	Cut, Lines int
	// First is the number of the first line left out, from 1.
	First int
}

// capText keeps text within limit characters (runes, not bytes): half of
// the room from the head, half from the tail, each cut at a line boundary
// when one lies near, with a marker line between them. limit <= 0 keeps
// everything.
func capText(text string, limit int, hint string) capped {
	if limit <= 0 || len(text) <= limit || utf8.RuneCountInString(text) <= limit {
		return capped{Text: text}
	}
	keep := max(limit-markerRoom, 0)
	head := byteOffset(text, keep/2)
	tail := tailOffset(text, keep-keep/2)
	// Prefer whole lines, giving up at most a fifth of each part.
	if i := strings.LastIndexByte(text[:head], '\n'); i >= 0 && i+1 >= head-head/5 {
		head = i + 1
	}
	if i := strings.IndexByte(text[tail:], '\n'); i >= 0 && i < (len(text)-tail)/5 && tail+i+1 < len(text) {
		tail += i + 1
	}
	if tail < head {
		tail = head
	}
	cut := text[head:tail]
	c := capped{Cut: utf8.RuneCountInString(cut), Lines: strings.Count(cut, "\n"), First: strings.Count(text[:head], "\n") + 1}
	marker := fmt.Sprintf("[… %s characters cut here", thousands(c.Cut))
	if c.Lines > 0 {
		marker += fmt.Sprintf(" (lines %s to %s of %s)", thousands(c.First), thousands(c.First+c.Lines-1), thousands(strings.Count(text, "\n")+boolInt(!strings.HasSuffix(text, "\n"))))
	}
	marker += "; " + hint + " …]\n"
	sep := ""
	if head > 0 && text[head-1] != '\n' {
		sep = "\n"
	}
	c.Text = text[:head] + sep + marker + text[tail:]
	return c
}

// byteOffset is the byte offset of the n-th rune of s (len(s) past its end).
func byteOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// tailOffset is the byte offset where the last n runes of s begin.
func tailOffset(s string, n int) int {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return i
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// thousands writes n with commas: 1,234,567.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// capStreams caps stdout and stderr together within limit characters:
// stderr keeps what it needs up to a quarter of the room (more when stdout
// is short), stdout the rest.
func capStreams(stdout, stderr string, limit int, hint string) (capped, capped) {
	if limit <= 0 {
		return capped{Text: stdout}, capped{Text: stderr}
	}
	nOut, nErr := utf8.RuneCountInString(stdout), utf8.RuneCountInString(stderr)
	if nOut+nErr <= limit {
		return capped{Text: stdout}, capped{Text: stderr}
	}
	errRoom := min(nErr, max(limit/4, limit-nOut))
	return capText(stdout, limit-errRoom, hint), capText(stderr, errRoom, hint)
}
