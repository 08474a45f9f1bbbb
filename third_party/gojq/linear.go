package gojq

// Patch 4 (gatehouse): regular-expression builtins in time linear in the
// string. A match's offset is a count of code points from the start of the
// string: counting each from the start made `[match("a"; "g")]` over a
// string of n matches O(n²), and sub/gsub/splits sliced the string by
// those offsets once per match (each slice counts from the start again)
// and rebuilt the result by concatenation, so `"ab" * 20000 | gsub("a";
// "c")` took seconds and a hundred thousand matches minutes. Here the
// offsets are counted by one cursor moving forward, and sub's result and
// splits' pieces are cut from the string in one pass.

import (
	"strings"
	"unicode/utf8"
)

// runeCursor turns byte offsets of s, mostly increasing, into code point
// offsets, counting only what lies between two of them.
type runeCursor struct {
	s    string
	b, r int // a byte offset and its code point offset
}

// runes is the code point offset of byte offset b.
func (c *runeCursor) runes(b int) int {
	if b < c.b {
		c.b, c.r = 0, 0
	}
	c.r += utf8.RuneCountInString(c.s[c.b:b])
	c.b = b
	return c.r
}

// bytes is the byte offset of code point offset r (clamped to s).
func (c *runeCursor) bytes(r int) int {
	if r < c.r {
		c.b, c.r = 0, 0
	}
	for c.r < r && c.b < len(c.s) {
		_, n := utf8.DecodeRuneInString(c.s[c.b:])
		c.b += n
		c.r++
	}
	return c.b
}

// matchSpans are the byte spans of matches (as _match lists them, code
// point offsets and lengths) in s, in order; false when ms is not such a
// list.
func matchSpans(s string, ms any) ([][2]int, bool) {
	xs, ok := ms.([]any)
	if !ok {
		return nil, false
	}
	spans := make([][2]int, len(xs))
	c, end := runeCursor{s: s}, 0
	for i, x := range xs {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, false
		}
		off, ok1 := toIntFloor(m["offset"])
		n, ok2 := toIntFloor(m["length"])
		if !ok1 || !ok2 || off < 0 || n < 0 {
			return nil, false
		}
		b := c.bytes(off)
		e := c.bytes(off + n)
		if b < end {
			return nil, false
		}
		spans[i], end = [2]int{b, e}, e
	}
	return spans, true
}

// funcGaps is _gaps($ms): the pieces of the string between the matches
// $ms, before the first and after the last (splits).
func funcGaps(v, ms any) any {
	s, ok := v.(string)
	if !ok {
		return &func1TypeError{"_gaps", v, ms}
	}
	spans, ok := matchSpans(s, ms)
	if !ok {
		return &func1TypeError{"_gaps", v, ms}
	}
	gaps, next := make([]any, len(spans)+1), 0
	for i, sp := range spans {
		gaps[i], next = s[next:sp[0]], sp[1]
	}
	gaps[len(spans)] = s[next:]
	return gaps
}

// funcSubjoin is _subjoin($ms; $reps): the results of sub, where $reps
// lists, for each match of $ms, the outputs of the replacement. As the
// definition it replaces, the i-th result joins, for every match with an
// i-th output, the text since the match before and that output, then the
// rest of the string; no output at all leaves the string as it was.
func funcSubjoin(v, ms, reps any) any {
	s, ok := v.(string)
	if !ok {
		return &func2TypeError{"_subjoin", v, ms, reps}
	}
	spans, ok := matchSpans(s, ms)
	rs, ok2 := reps.([]any)
	if !ok || !ok2 || len(rs) != len(spans) {
		return &func2TypeError{"_subjoin", v, ms, reps}
	}
	outs, next := 0, 0
	for k, sp := range spans {
		xs, ok := rs[k].([]any)
		if !ok {
			return &func2TypeError{"_subjoin", v, ms, reps}
		}
		for _, x := range xs {
			switch x.(type) {
			case string, nil:
			default:
				return funcOpAdd(nil, s[next:sp[0]], x)
			}
		}
		outs, next = max(outs, len(xs)), sp[1]
	}
	if outs == 0 {
		return []any{s}
	}
	results := make([]any, outs)
	for i := range results {
		var sb strings.Builder
		next := 0
		for k, sp := range spans {
			if xs := rs[k].([]any); i < len(xs) {
				sb.WriteString(s[next:sp[0]])
				x, _ := xs[i].(string)
				sb.WriteString(x)
			}
			next = sp[1]
		}
		sb.WriteString(s[next:])
		results[i] = sb.String()
	}
	return results
}

// subjoinSize is about what _subjoin makes: each result is the string at
// most, with its replacements.
func subjoinSize(x any, args []any) float64 {
	s, _ := x.(string)
	rs, _ := args[1].([]any)
	var outs, reps float64
	for _, xs := range rs {
		xs, _ := xs.([]any)
		outs = max(outs, float64(len(xs)))
		for _, x := range xs {
			if x, ok := x.(string); ok {
				reps += float64(len(x))
			}
		}
	}
	return outs*float64(len(s)) + reps
}
