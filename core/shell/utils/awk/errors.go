package awk

import (
	"sort"
	"strconv"
	"strings"
)

// sourceMap maps a position in the joined program text back to the
// source it came from (`cmd. line` for program text on the command line
// or -e, the file name for -f) and a line within it.
type sourceMap struct {
	text   string
	starts []int    // offset where each source begins in text
	names  []string // its name in messages
	lines  []int    // offsets of every line start in text
}

func newSourceMap() *sourceMap { return &sourceMap{} }

// add appends one source; sources are joined with newlines.
func (m *sourceMap) add(name, text string) {
	if m.text != "" {
		m.text += "\n"
	}
	m.starts = append(m.starts, len(m.text))
	m.names = append(m.names, name)
	m.text += text
}

func (m *sourceMap) index() {
	m.lines = []int{0}
	for i := 0; i < len(m.text); i++ {
		if m.text[i] == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
}

// source returns the index of the source holding pos.
func (m *sourceMap) source(pos int) int {
	i := sort.SearchInts(m.starts, pos+1) - 1
	if i < 0 {
		i = 0
	}
	return i
}

// line is the 1-based line of pos within its own source.
func (m *sourceMap) line(pos int) int {
	if m.lines == nil {
		m.index()
	}
	abs := sort.SearchInts(m.lines, pos+1) - 1
	src := m.source(pos)
	first := sort.SearchInts(m.lines, m.starts[src]+1) - 1
	return abs - first + 1
}

// where is gawk's "NAME:LINE" for a position.
func (m *sourceMap) where(pos int) string {
	if len(m.names) == 0 {
		return "cmd. line:1"
	}
	return m.names[m.source(pos)] + ":" + strconv.Itoa(m.line(pos))
}

// excerpt returns the text of the line holding pos and pos's column.
func (m *sourceMap) excerpt(pos int) (string, int) {
	if pos > len(m.text) {
		pos = len(m.text)
	}
	start := strings.LastIndexByte(m.text[:pos], '\n') + 1
	end := strings.IndexByte(m.text[pos:], '\n')
	if end < 0 {
		end = len(m.text)
	} else {
		end += pos
	}
	return m.text[start:end], pos - start
}

// syntaxError is a problem found while reading the program.
type syntaxError struct {
	pos     int
	msg     string
	newline bool // the offending token is a newline or the end
	plain   bool // printed as "error: MSG" without the excerpt
	fatal   bool // printed as "fatal: MSG", exit 2
	bare    bool // printed as "MSG" after the place
	twice   bool // gawk prints this one twice
}

func (e *syntaxError) Error() string { return e.msg }

// render prints the error as gawk does: the source line, then a caret
// under the offending token.
func (e *syntaxError) render(prog string, m *sourceMap) string {
	where := prog + ": " + m.where(e.pos) + ": "
	if e.fatal {
		return where + "fatal: " + e.msg + "\n"
	}
	if e.bare {
		return where + e.msg + "\n"
	}
	if e.plain {
		line := where + "error: " + e.msg + "\n"
		if e.twice {
			line += line
		}
		return line
	}
	msg := e.msg
	pos := e.pos
	if e.newline {
		if msg == "syntax error" {
			msg = "unexpected newline or end of string"
		}
		// gawk has counted the newline already: it names the next line
		// but shows the one the newline ends.
		if pos < len(m.text) && m.text[pos] == '\n' {
			where = prog + ": " + m.where(pos+1) + ": "
		}
	}
	line, col := m.excerpt(pos)
	return where + line + "\n" + where + strings.Repeat(" ", col) + "^ " + msg + "\n"
}

// fatalError stops the program at run time with gawk's "fatal:" line.
type fatalError struct{ msg string }

// exitError carries `exit` out of nested evaluation.
type exitError struct{}
