package utils

import (
	"regexp"
	"strconv"
	"strings"
)

// The context format (-c, -C NUM) and the function names of -p and -F
// shown on hunk headers of both context formats.

// context writes the changes in the context format: each hunk shows the
// first file's lines, then the second's, each side only when the hunk
// changes something in it; '!' marks lines of a change that both
// deletes and inserts, '-' and '+' the rest.
func (d *diffRun) context(out *strings.Builder, a, b *diffFile, changes []diffChange) {
	d.unifiedHeader(out, "***", a, 0)
	d.unifiedHeader(out, "---", b, 1)
	fn := d.functionFinder(a)
	for _, h := range diffHunks(changes, d.cfg.context, len(a.lines), len(b.lines)) {
		out.WriteString("***************" + fn(h.aStart) + "\n")
		deletes, inserts := false, false
		for _, c := range h.changes {
			deletes = deletes || c.aTo > c.aFrom
			inserts = inserts || c.bTo > c.bFrom
		}
		out.WriteString("*** " + contextRange(h.aStart, h.aEnd) + " ****\n")
		if deletes {
			contextSide(out, a.lines, h.aStart, h.aEnd, h.changes, false)
		}
		out.WriteString("--- " + contextRange(h.bStart, h.bEnd) + " ----\n")
		if inserts {
			contextSide(out, b.lines, h.bStart, h.bEnd, h.changes, true)
		}
	}
}

// contextSide writes one file's lines of a hunk.
func contextSide(out *strings.Builder, lines []string, from, to int, changes []diffChange, second bool) {
	pos := from
	for _, c := range changes {
		lo, hi := c.aFrom, c.aTo
		mark := "- "
		if second {
			lo, hi, mark = c.bFrom, c.bTo, "+ "
		}
		if c.aTo > c.aFrom && c.bTo > c.bFrom {
			mark = "! "
		}
		for _, line := range lines[pos:lo] {
			diffWriteLine(out, "  ", line)
		}
		for _, line := range lines[lo:hi] {
			diffWriteLine(out, mark, line)
		}
		pos = hi
	}
	for _, line := range lines[pos:to] {
		diffWriteLine(out, "  ", line)
	}
}

// contextRange spells a hunk's 1-based "first,last" line range; a single
// line is its number, and an empty range the number of the line before.
func contextRange(from, to int) string {
	if to-from > 1 {
		return strconv.Itoa(from+1) + "," + strconv.Itoa(to)
	}
	return strconv.Itoa(to)
}

// functionFinder returns what follows a hunk header: with -p or -F, a
// space and the last line before the hunk that matches (its leading
// blanks dropped, at most 40 bytes, trailing blanks dropped). Like GNU
// diff it searches back only to where the previous search started, and
// falls back on the line that search found.
func (d *diffRun) functionFinder(a *diffFile) func(int) string {
	re := d.cfg.function
	if re == nil {
		return func(int) string { return "" }
	}
	last, found := 0, -1
	return func(start int) string {
		for i := start - 1; i >= last; i-- {
			if re.MatchString(strings.TrimSuffix(a.lines[i], "\n")) {
				found = i
				break
			}
		}
		last = start
		if found < 0 {
			return ""
		}
		line := strings.TrimSuffix(a.lines[found], "\n")
		line = strings.TrimLeft(line, " \t\v\f\r")
		if len(line) > 40 {
			line = line[:40]
		}
		return " " + strings.TrimRight(line, " \t\v\f\r")
	}
}

// diffFunctionRegexp compiles the -F patterns (grep's basic syntax) and
// -p's, one alternative each.
func diffFunctionRegexp(patterns []string) (*regexp.Regexp, error) {
	var alts []string
	for _, p := range patterns {
		re, err := TranslateRegex(p, RegexOptions{Dialect: BasicRegex})
		if err != nil {
			return nil, err
		}
		alts = append(alts, "(?:"+re+")")
	}
	return regexp.Compile(strings.Join(alts, "|"))
}
