package utils

import (
	"bytes"
	"regexp/syntax"
	"sort"
)

// rg -U searches a file whole: a match may cross lines (\n, \s, [^x] and,
// with --multiline-dotall, . match a newline; ^ and $ match at every line).
// Each match covers the lines from its first byte's to its last byte's;
// matches whose lines touch or overlap join into one block, which ripgrep
// reports as one match: its lines print with ':' and each its own number,
// -c counts blocks, and --json writes a block as one message.

// rgCanMatchNewline reports whether some match of expr can hold a
// newline; when none can, -U changes nothing, as in ripgrep, whose
// searcher then goes line by line. An expression it cannot read counts
// as one that can.
func rgCanMatchNewline(expr string) bool {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(re *syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpAnyChar:
			return true
		case syntax.OpLiteral:
			for _, c := range re.Rune {
				if c == '\n' {
					return true
				}
			}
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
					return true
				}
			}
		}
		for _, sub := range re.Sub {
			if walk(sub) {
				return true
			}
		}
		return false
	}
	return walk(re)
}

// rgBlock is a run of whole lines covered by matches: [start, end) in
// the file, end after the last line's newline; matches holds each match's
// submatch offsets in the file.
type rgBlock struct {
	start, end int64
	matches    [][]int
}

// rgBlocks is a file's blocks, in order, with the file itself.
type rgBlocks struct {
	data []byte
	list []rgBlock
}

// multilineBlocks finds every match in data and groups their lines. Each
// search starts where the last match ended, as ripgrep's does (so ^ can
// match there), one byte further after an empty match.
func (r *rgRun) multilineBlocks(data []byte) *rgBlocks {
	bl := &rgBlocks{data: data}
	per := 48 + 16*int64(r.m.re.NumSubexp()+1) // a match's offsets and its share of a block
	for pos, n := 0, 0; pos <= len(data); n++ {
		if n%1024 == 0 && (r.t.env.Grow(1024*per) != nil || r.t.stopped()) {
			r.quit = true
			return bl
		}
		found := r.m.re.FindAllSubmatchIndex(data[pos:], 1)
		if len(found) == 0 {
			break
		}
		m := found[0]
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		pos = m[1]
		if m[0] == m[1] {
			pos++
		}
		start, end := rgLocate(data, m[0], m[1])
		if start == end {
			continue // an empty match after the last newline: never reported
		}
		if k := len(bl.list); k > 0 && bl.list[k-1].end >= start {
			last := &bl.list[k-1]
			last.end = max(last.end, end)
			last.matches = append(last.matches, m)
			continue
		}
		bl.list = append(bl.list, rgBlock{start: start, end: end, matches: [][]int{m}})
	}
	return bl
}

// rgLocate widens a match to the whole lines it touches.
func rgLocate(data []byte, from, to int) (int64, int64) {
	start := bytes.LastIndexByte(data[:from], '\n') + 1
	end := len(data)
	switch {
	case to > start && data[to-1] == '\n':
		end = to
	default:
		if i := bytes.IndexByte(data[to:], '\n'); i >= 0 {
			end = to + i + 1
		}
	}
	return int64(start), int64(end)
}

// at returns the block covering the line that starts at off, or nil.
func (bl *rgBlocks) at(off int64) *rgBlock {
	i := sort.Search(len(bl.list), func(i int) bool { return bl.list[i].end > off })
	if i < len(bl.list) && bl.list[i].start <= off {
		return &bl.list[i]
	}
	return nil
}

// lineSpans is the part of each match of the line at off (n bytes without
// its newline) as offsets into that line.
func (bl *rgBlocks) lineSpans(off int64, n int) [][]int {
	b := bl.at(off)
	if b == nil {
		return nil
	}
	var spans [][]int
	lo, hi := int(off), int(off)+n
	for _, m := range b.matches {
		from, to := max(m[0], lo), min(m[1], hi)
		if from < to || m[0] == m[1] && m[0] >= lo && m[0] <= hi || from == to && m[0] < lo && m[1] > hi {
			spans = append(spans, []int{from - lo, max(from, to) - lo})
		}
	}
	return spans
}

// blockLines is the block's text and its matches' offsets into it, for
// --json, when the line at off starts the block; ok is false for the
// block's later lines, which its first line's message already holds.
func (bl *rgBlocks) blockLines(off int64) (lines []byte, spans [][]int, ok bool) {
	b := bl.at(off)
	if b == nil || b.start != off {
		return nil, nil, false
	}
	for _, m := range b.matches {
		spans = append(spans, []int{m[0] - int(b.start), m[1] - int(b.start)})
	}
	return bl.data[b.start:b.end], spans, true
}

// jsonMatch writes a matching line's (or block's) match message.
func (r *rgRun) jsonMatch(s *rgFile, text []byte) {
	s.lastPrinted = s.no
	if s.multi != nil && !r.cfg.invert {
		if lines, spans, ok := s.multi.blockLines(s.off); ok {
			r.jsonLines(s, "match", lines, spans)
		}
		return
	}
	var spans [][]int
	if !r.cfg.invert {
		var ok bool
		if spans, ok = matchSpans(r.t, r.m.re, text, false, false); !ok {
			r.quit = true
			return
		}
	}
	r.jsonLines(s, "match", s.raw, spans)
}

// jsonContext writes a context line's message; with -v the pattern's
// matches in it are its submatches.
func (r *rgRun) jsonContext(s *rgFile, text []byte) {
	s.lastPrinted = s.no
	lines := s.raw
	if lines == nil {
		lines = append(append([]byte(nil), text...), '\n')
	}
	var spans [][]int
	if r.cfg.invert {
		var ok bool
		if spans, ok = matchSpans(r.t, r.m.re, text, false, false); !ok {
			r.quit = true
			return
		}
	}
	r.jsonLines(s, "context", lines, spans)
}
