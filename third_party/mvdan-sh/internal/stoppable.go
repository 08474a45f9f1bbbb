// Added to this copy by gatehouse (see PATCHES.md); under the same licence.

package internal

import (
	"io"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// A pattern matched against a large value can run for many seconds inside
// one call of the regexp package, which has no way to be stopped. A
// Matcher gives such work, and only such work, to the package through a
// reader that asks now and then whether the program is being stopped and,
// if so, ends the input early: the caller then learns that the answer is
// arbitrary and must not be used.

// heavyWork is the matching work (input bytes times program instructions)
// from which a match reads its input through a stoppable reader: below it
// a match takes at most a tenth of a second or so. The reader's
// indirection costs about twice the time of matching the string directly.
const heavyWork = 1 << 24

// largeInput is the input length below which no match is heavy.
const largeInput = 1 << 20

// stopEvery is how many runes the reader hands out between two questions.
const stopEvery = 1 << 16

// A Matcher runs a regular expression over values, stoppably when they are
// large. Stop may be nil (never stop).
type Matcher struct {
	Rx   *regexp.Regexp
	Stop func() bool
	// insts is the size of the expression's program, measured the first
	// time a large input comes; 0 until then.
	insts int
}

// heavy reports whether matching s would be long enough to read it
// stoppably.
func (m *Matcher) heavy(s string) bool {
	if m.Stop == nil || len(s) < largeInput {
		return false
	}
	if _, complete := m.Rx.LiteralPrefix(); complete {
		return false // a plain substring search, fast at any length
	}
	if m.insts == 0 {
		m.insts = 1 << 10 // unknown: assume a large program
		if re, err := syntax.Parse(m.Rx.String(), syntax.Perl); err == nil {
			if prog, err := syntax.Compile(re.Simplify()); err == nil {
				m.insts = max(len(prog.Inst), 1)
			}
		}
	}
	return int64(len(s))*int64(m.insts) >= heavyWork
}

// Match is [regexp.Regexp.MatchString]; stopped means the answer is
// arbitrary.
func (m *Matcher) Match(s string) (matched, stopped bool) {
	if !m.heavy(s) {
		return m.Rx.MatchString(s), false
	}
	r := &stopReader{s: s, stop: m.Stop}
	matched = m.Rx.MatchReader(r)
	return matched, r.stopped
}

// Index is [regexp.Regexp.FindStringIndex]; stopped means the answer is
// arbitrary.
func (m *Matcher) Index(s string) (loc []int, stopped bool) {
	if !m.heavy(s) {
		return m.Rx.FindStringIndex(s), false
	}
	r := &stopReader{s: s, stop: m.Stop}
	loc = m.Rx.FindReaderIndex(r)
	return loc, r.stopped
}

// SubmatchIndex is [regexp.Regexp.FindStringSubmatchIndex]; stopped means
// the answer is arbitrary.
func (m *Matcher) SubmatchIndex(s string) (loc []int, stopped bool) {
	if !m.heavy(s) {
		return m.Rx.FindStringSubmatchIndex(s), false
	}
	r := &stopReader{s: s, stop: m.Stop}
	loc = m.Rx.FindReaderSubmatchIndex(r)
	return loc, r.stopped
}

// stopReader reads a string rune by rune, ending it early once stop says
// so. Offsets the regexp package reports over it are byte offsets in s.
type stopReader struct {
	s       string
	i, n    int
	stop    func() bool
	stopped bool
}

func (r *stopReader) ReadRune() (rune, int, error) {
	if r.i >= len(r.s) {
		return 0, 0, io.EOF
	}
	if r.n++; r.n%stopEvery == 0 && r.stop() {
		r.stopped = true
		r.i = len(r.s)
		return 0, 0, io.EOF
	}
	if c := r.s[r.i]; c < utf8.RuneSelf {
		r.i++
		return rune(c), 1, nil
	}
	c, w := utf8.DecodeRuneInString(r.s[r.i:])
	r.i += w
	return c, w, nil
}
