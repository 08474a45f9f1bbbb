package awk

import (
	"strings"
)

// fsMode is how records are split into fields.
type fsMode uint8

const (
	fsSpace fsMode = iota // runs of blanks and newlines; ends trimmed
	fsChar                // one literal byte
	fsRegex               // a regular expression
	fsEmpty               // every byte is a field
)

// splitter holds the field separator in force.
type splitter struct {
	mode fsMode
	c    byte
	re   *regex
}

// record is $0 and its fields. Fields are split on first use and $0 is
// rebuilt from the fields only when one was assigned.
type record struct {
	line   string
	fields []string
	nf     int
	split  bool
	stale  bool
	nr     int
	fnr    int
	sp     splitter
	// grow, when set, makes room for more fields, charging the line's
	// budget for the list (G-12.3).
	grow func([]string) []string
}

// set0 replaces the record.
func (r *record) set0(s string) {
	r.line = s
	r.split = false
	r.stale = false
}

// get0 returns $0, rebuilding it with OFS after a field changed.
func (r *record) get0(in *interp) string {
	if r.stale {
		ofs := in.toStr(in.globals[idxOFS].v)
		var b strings.Builder
		for i := 0; i < r.nf; i++ {
			if i > 0 {
				b.WriteString(ofs)
			}
			b.WriteString(r.fields[i])
		}
		r.line = b.String()
		r.stale = false
		in.checkString(len(r.line))
	}
	return r.line
}

func (r *record) ensureSplit() {
	if r.split {
		return
	}
	r.split = true
	r.fields = r.sp.split(r.line, r.fields[:0], r.grow)
	r.nf = len(r.fields)
}

// field returns $i for i >= 1.
func (r *record) field(in *interp, i int) string {
	r.ensureSplit()
	if i > r.nf {
		return ""
	}
	return r.fields[i-1]
}

func (r *record) numFields() int {
	r.ensureSplit()
	return r.nf
}

// setField assigns $i; past NF the record grows with empty fields.
func (r *record) setField(in *interp, i int, s string) {
	if i == 0 {
		r.set0(s)
		return
	}
	r.ensureSplit()
	if i > r.nf {
		r.setNF(i)
	}
	r.fields[i-1] = s
	r.stale = true
}

// setNF truncates or extends the record.
func (r *record) setNF(n int) {
	r.ensureSplit()
	for len(r.fields) < n {
		r.fields = append(r.fields, "")
	}
	for i := r.nf; i < n; i++ {
		r.fields[i] = ""
	}
	r.fields = r.fields[:n]
	r.nf = n
	r.stale = true
}

// split appends s's fields to dst; grow, when not nil, is asked for a
// larger list when dst is full (a 20 MB record split into one-byte fields
// held 950 MB of list nothing charged).
func (sp *splitter) split(s string, dst []string, grow func([]string) []string) []string {
	add := func(f string) {
		if len(dst) == cap(dst) && grow != nil {
			dst = grow(dst)
		}
		dst = append(dst, f)
	}
	switch sp.mode {
	case fsSpace:
		splitSpace(s, add)
		return dst
	case fsChar:
		if s == "" {
			return dst
		}
		for {
			i := strings.IndexByte(s, sp.c)
			if i < 0 {
				add(s)
				return dst
			}
			add(s[:i])
			s = s[i+1:]
		}
	case fsEmpty:
		for i := 0; i < len(s); i++ {
			add(s[i : i+1])
		}
		return dst
	}
	splitRegex(s, sp.re, add)
	return dst
}

// growFields is a record's or split()'s grow: past 4096 fields it doubles
// the list itself, charging the budget for the new list and giving back
// the old once copied; held, when not nil, adds up what it still charges.
func (in *interp) growFields(held *int) func([]string) []string {
	return func(dst []string) []string {
		if cap(dst) < 4096 {
			return dst
		}
		n := 2 * cap(dst)
		in.grow(16 * n)
		out := make([]string, len(dst), n)
		copy(out, dst)
		in.release(16 * cap(dst))
		if held != nil {
			*held += 16 * (n - cap(dst))
		}
		return out
	}
}

// splitSpace splits on runs of blanks, tabs and newlines.
func splitSpace(s string, add func(string)) {
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i >= len(s) {
			return
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
			j++
		}
		add(s[i:j])
		i = j
	}
}

// splitRegex splits on the regex's non-empty matches.
func splitRegex(s string, re *regex, add func(string)) {
	if s == "" {
		return
	}
	start := 0
	for pos := 0; pos <= len(s); {
		m := re.index(s[pos:])
		if m == nil {
			break
		}
		a, b := pos+m[0], pos+m[1]
		if a == b {
			// An empty match separates nothing; look one byte further.
			pos = a + 1
			continue
		}
		add(s[start:a])
		start, pos = b, b
	}
	add(s[start:])
}

// newSplitter reads FS; paragraph mode (RS "") also splits at newlines.
func newSplitter(fs string, paragraph bool) (splitter, error) {
	switch {
	case fs == " ":
		return splitter{mode: fsSpace}, nil
	case fs == "":
		return splitter{mode: fsEmpty}, nil
	case len(fs) == 1 && fs != "\\" && !paragraph:
		return splitter{mode: fsChar, c: fs[0]}, nil
	}
	src := fs
	if len(fs) == 1 {
		src = quoteByte(fs[0])
		if fs == "\\" {
			src = `\\`
		}
	}
	if paragraph {
		src = "(" + src + ")|\n"
	}
	re, err := compileRegex(src, false)
	if err != nil {
		return splitter{}, err
	}
	return splitter{mode: fsRegex, re: re}, nil
}
