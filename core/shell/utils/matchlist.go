package utils

import "regexp"

// Matching every piece of a long line. regexp's FindAll lists hold a
// []int per match, about 40 bytes, so one 50 MB line of a's under grep -o
// 'a' held two gigabytes nothing charged, and the list was complete
// before the first piece was printed, out of reach of the line's end
// (G-12.3).

// eachMatch calls each with the successive matches of re in b (groups
// included), as FindAllSubmatchIndex lists them, until each returns false,
// holding a few thousand at a time (sedMatches). longest says re is
// leftmost-longest, which sedMatches needs of a pattern that looks behind
// (^, \b): a leftmost-first one that does is listed whole, a growing number
// at a time, each list charged to the line's memory budget. false when the
// line is ending (its budget spent, its time up).
func eachMatch(t *tool, re regexEngine, b []byte, longest bool, each func(m []int) bool) bool {
	env, n, stopped := t.env, 0, false
	checked := func(m []int) bool {
		if n++; n%1024 == 0 && t.stopped() {
			stopped = true
			return false
		}
		return each(m)
	}
	gre, ok := re.(*regexp.Regexp)
	if !ok || longest || len(b) < 1<<16 || !sedLooksBehind(gre.String()) {
		goOn := func() bool {
			if t.stopped() {
				stopped = true
			}
			return !stopped
		}
		sedMatches(re, b, -1, goOn, checked)
		return !stopped
	}
	per := int64(24 + 16*(gre.NumSubexp()+1))
	for n := sedMatchChunk; ; n *= 2 {
		cost := int64(n) * per
		if t.stopped() || env.Grow(cost) != nil {
			return false
		}
		ms := gre.FindAllSubmatchIndex(b, n)
		if len(ms) == n && n <= len(b) {
			env.Grow(-cost)
			continue // there may be more: ask again for twice as many
		}
		for _, m := range ms {
			if !checked(m) {
				break
			}
		}
		env.Grow(-cost)
		return !stopped
	}
}

// matchSpans lists what eachMatch finds (only the whole match's offsets
// unless groups), the list charged to the line's memory budget as it
// grows; false when the line is ending.
func matchSpans(t *tool, re regexEngine, b []byte, longest, groups bool) ([][]int, bool) {
	var spans [][]int
	spent := false
	ok := eachMatch(t, re, b, longest, func(m []int) bool {
		if !groups {
			m = m[:2]
		}
		if len(spans)%1024 == 0 && t.env.Grow(1024*int64(48+8*len(m))) != nil {
			spent = true
			return false
		}
		spans = append(spans, m)
		return true
	})
	return spans, ok && !spent // what the run still holds is given back when it returns
}
