package utils

import (
	"bytes"
	"sync/atomic"
)

// regexEngine is what grep and sed need of a compiled pattern: Go's RE2
// (*regexp.Regexp) or the backtracking matcher.
type regexEngine interface {
	Match(b []byte) bool
	FindAllIndex(b []byte, n int) [][]int
	FindAllSubmatchIndex(b []byte, n int) [][]int
	NumSubexp() int
}

// btStepLimit bounds the work of one search, as PCRE's match limit does,
// so a pattern like (a+)+$ cannot hang a line; btDepthLimit bounds its
// recursion (each repetition of a multi-byte body nests), so a long line
// cannot exhaust the goroutine's stack.
const (
	btStepLimit  = 10_000_000
	btDepthLimit = 50_000
)

// Backtrack is a compiled backtracking pattern. It is safe for concurrent
// use.
type Backtrack struct {
	root   *btNode
	groups int
	// first holds the bytes a match can start with; nil when a match
	// may be empty or start anywhere, so every position is tried.
	first *[256]bool
	// exceeded counts searches that hit the step limit.
	exceeded atomic.Int64
	// stepLimit is the step limit of this pattern's searches: btStepLimit,
	// lowered only by tests that prove the limit works under -race,
	// where ten million steps take seconds.
	stepLimit int
}

// CompileBacktrack compiles PCRE syntax; fold makes it case-insensitive.
func CompileBacktrack(pattern string, fold bool) (*Backtrack, error) {
	root, groups, err := parseBacktrack(pattern, fold)
	if err != nil {
		return nil, err
	}
	re := &Backtrack{root: root, groups: groups, stepLimit: btStepLimit}
	if set, nullable := btFirst(root); !nullable {
		re.first = set
	}
	return re, nil
}

// btFirst computes the bytes a node's match can begin with, and whether
// it can match without consuming any (then the set says nothing).
func btFirst(n *btNode) (*[256]bool, bool) {
	switch n.kind {
	case btLit:
		set := &[256]bool{}
		set[n.text[0]] = true
		return set, false
	case btSet:
		return n.set, false
	case btGroup, btAtomic:
		return btFirst(n.kids[0])
	case btRepeat:
		set, nullable := btFirst(n.kids[0])
		return set, nullable || n.n == 0
	case btConcat:
		set := &[256]bool{}
		for _, k := range n.kids {
			ks, nullable := btFirst(k)
			for i := range set {
				set[i] = set[i] || ks[i]
			}
			if !nullable {
				return set, false
			}
		}
		return set, true
	case btAlt:
		set, any := &[256]bool{}, false
		for _, k := range n.kids {
			ks, nullable := btFirst(k)
			for i := range set {
				set[i] = set[i] || ks[i]
			}
			any = any || nullable
		}
		return set, any
	case btBackref:
		return &[256]bool{}, true
	}
	return &[256]bool{}, true // zero-width assertions
}

// Exceeded reports (and clears) whether a search gave up at the step
// limit since the last call.
func (re *Backtrack) Exceeded() bool { return re.exceeded.Swap(0) > 0 }

// NumSubexp is the number of capture groups.
func (re *Backtrack) NumSubexp() int { return re.groups }

// Match reports whether b contains a match.
func (re *Backtrack) Match(b []byte) bool { return re.find(b, 0) != nil }

// FindAllIndex returns up to n (all if n < 0) successive matches.
func (re *Backtrack) FindAllIndex(b []byte, n int) [][]int {
	var out [][]int
	for _, m := range re.FindAllSubmatchIndex(b, n) {
		out = append(out, m[:2])
	}
	return out
}

// FindAllSubmatchIndex returns successive matches with their groups, as
// regexp does: an empty match right after a match is skipped.
func (re *Backtrack) FindAllSubmatchIndex(b []byte, n int) [][]int {
	var out [][]int
	re.eachMatch(b, n, func(m []int) bool {
		out = append(out, m)
		return true
	})
	return out
}

// eachMatch calls each with the matches FindAllSubmatchIndex lists, one
// at a time, until each returns false.
func (re *Backtrack) eachMatch(b []byte, n int, each func(m []int) bool) {
	pos, prevEnd, k := 0, -1, 0
	for pos <= len(b) && (n < 0 || k < n) {
		m := re.find(b, pos)
		if m == nil {
			return
		}
		if m[1] == m[0] && m[0] == prevEnd {
			pos = m[0] + 1
			continue
		}
		if k++; !each(m) {
			return
		}
		prevEnd = m[1]
		if m[1] > m[0] {
			pos = m[1]
		} else {
			pos = m[1] + 1
		}
	}
}

// btState is one search.
type btState struct {
	in    []byte
	caps  []int
	keep  int
	steps int
	depth int
	// stepLimit is the pattern's step limit.
	stepLimit int
}

// btStop ends a search that ran out of steps.
type btStop struct{}

// find returns the leftmost match starting at or after from, with its
// groups ([start, end, g1s, g1e, …]; -1 for unset), or nil.
func (re *Backtrack) find(in []byte, from int) (result []int) {
	s := &btState{in: in, caps: make([]int, 2*(re.groups+1)), stepLimit: re.stepLimit}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(btStop); !ok {
				panic(r)
			}
			re.exceeded.Add(1)
			result = nil
		}
	}()
	for start := from; start <= len(in); start++ {
		if re.first != nil {
			// Skip to a byte a match can begin with.
			for start < len(in) && !re.first[in[start]] {
				start++
			}
			if start == len(in) {
				return nil
			}
		}
		for i := range s.caps {
			s.caps[i] = -1
		}
		s.keep = start
		end := -1
		if s.match(re.root, start, func(p int) bool { end = p; return true }) {
			s.caps[0], s.caps[1] = s.keep, end
			return append([]int(nil), s.caps...)
		}
	}
	return nil
}

func (s *btState) tick() {
	s.steps++
	if s.steps > s.stepLimit {
		panic(btStop{})
	}
}

func btIsWord(in []byte, i int) bool { return i >= 0 && i < len(in) && isWordByte(in[i]) }

// match tries n at pos and calls k with where it ended; it reports
// whether k (and so the rest of the pattern) succeeded.
func (s *btState) match(n *btNode, pos int, k func(int) bool) bool {
	s.tick()
	s.depth++
	if s.depth > btDepthLimit {
		panic(btStop{})
	}
	defer func() { s.depth-- }()
	in := s.in
	switch n.kind {
	case btLit:
		if pos+len(n.text) <= len(in) && bytes.Equal(in[pos:pos+len(n.text)], n.text) {
			return k(pos + len(n.text))
		}
		return false
	case btSet:
		if pos < len(in) && n.set[in[pos]] {
			return k(pos + 1)
		}
		return false
	case btBol:
		return (pos == 0 || n.multiline && in[pos-1] == '\n') && k(pos)
	case btEol:
		return (pos == len(in) || pos == len(in)-1 && in[pos] == '\n' || n.multiline && in[pos] == '\n') && k(pos)
	case btStart:
		return pos == 0 && k(pos)
	case btEnd:
		return pos == len(in) && k(pos)
	case btEndNL:
		return (pos == len(in) || pos == len(in)-1 && in[pos] == '\n') && k(pos)
	case btWordB, btNotWordB:
		at := btIsWord(in, pos-1) != btIsWord(in, pos)
		return at == (n.kind == btWordB) && k(pos)
	case btKeep:
		old := s.keep
		s.keep = pos
		if k(pos) {
			return true
		}
		s.keep = old
		return false
	case btConcat:
		return s.seq(n.kids, pos, k)
	case btAlt:
		for _, kid := range n.kids {
			if s.match(kid, pos, k) {
				return true
			}
		}
		return false
	case btGroup:
		return s.group(n, pos, k)
	case btRepeat:
		return s.repeat(n, pos, k)
	case btBackref:
		return s.backref(n, pos, k)
	case btLook:
		return s.look(n, pos, k)
	case btAtomic:
		end := -1
		if !s.match(n.kids[0], pos, func(p int) bool { end = p; return true }) {
			return false
		}
		return k(end)
	}
	return false
}

// seq matches nodes one after another.
func (s *btState) seq(nodes []*btNode, pos int, k func(int) bool) bool {
	if len(nodes) == 0 {
		return k(pos)
	}
	return s.match(nodes[0], pos, func(p int) bool { return s.seq(nodes[1:], p, k) })
}

// group records a capture around its body, undoing it on failure.
func (s *btState) group(n *btNode, pos int, k func(int) bool) bool {
	if n.n == 0 {
		return s.match(n.kids[0], pos, k)
	}
	i := 2 * n.n
	oldStart, oldEnd := s.caps[i], s.caps[i+1]
	ok := s.match(n.kids[0], pos, func(p int) bool {
		prevStart, prevEnd := s.caps[i], s.caps[i+1]
		s.caps[i], s.caps[i+1] = pos, p
		if k(p) {
			return true
		}
		s.caps[i], s.caps[i+1] = prevStart, prevEnd
		return false
	})
	if !ok {
		s.caps[i], s.caps[i+1] = oldStart, oldEnd
	}
	return ok
}

// backref matches the text a group captured (case-folded under (?i)).
func (s *btState) backref(n *btNode, pos int, k func(int) bool) bool {
	i := 2 * n.n
	if i >= len(s.caps) || s.caps[i] < 0 {
		return false
	}
	want := s.in[s.caps[i]:s.caps[i+1]]
	if pos+len(want) > len(s.in) {
		return false
	}
	got := s.in[pos : pos+len(want)]
	if !bytes.Equal(got, want) && !(n.fold && bytes.EqualFold(got, want)) {
		return false
	}
	return k(pos + len(want))
}

// look runs a lookahead or lookbehind; captures made inside a positive
// one stay, as in Perl.
func (s *btState) look(n *btNode, pos int, k func(int) bool) bool {
	body := n.kids[0]
	found := false
	if n.behind {
		branches := []*btNode{body}
		if body.kind == btAlt {
			branches = body.kids
		}
		for _, b := range branches {
			w, _ := btWidth(b)
			if pos-w >= 0 && s.match(b, pos-w, func(p int) bool { return p == pos }) {
				found = true
				break
			}
		}
	} else {
		found = s.match(body, pos, func(int) bool { return true })
	}
	if found == n.negate {
		return false
	}
	return k(pos)
}

// repeat runs a quantifier: greedy, lazy or possessive. A single-byte
// body is counted in a loop, so long runs need no deep recursion.
func (s *btState) repeat(n *btNode, pos int, k func(int) bool) bool {
	body := n.kids[0]
	if body.kind == btSet || body.kind == btLit && len(body.text) == 1 {
		return s.repeatByte(n, body, pos, k)
	}
	if n.possessive {
		end := pos
		for count := 0; n.max < 0 || count < n.max; count++ {
			next := -1
			if !s.match(body, end, func(p int) bool { next = p; return true }) || next == end {
				break
			}
			end = next
		}
		return k(end)
	}
	var rep func(count, at int) bool
	rep = func(count, at int) bool {
		more := func() bool {
			if n.max >= 0 && count >= n.max {
				return false
			}
			return s.match(body, at, func(p int) bool {
				if p == at && count >= n.n {
					return false // an empty pass would loop forever
				}
				return rep(count+1, p)
			})
		}
		if count < n.n {
			return more()
		}
		if n.lazy {
			return k(at) || more()
		}
		return more() || k(at)
	}
	return rep(0, pos)
}

// repeatByte is repeat over a one-byte body.
func (s *btState) repeatByte(n, body *btNode, pos int, k func(int) bool) bool {
	ok := func(b byte) bool {
		if body.kind == btSet {
			return body.set[b]
		}
		return b == body.text[0]
	}
	limit := len(s.in) - pos
	if n.max >= 0 && n.max < limit {
		limit = n.max
	}
	run := 0
	for run < limit && ok(s.in[pos+run]) {
		run++
	}
	if run < n.n {
		return false
	}
	switch {
	case n.possessive:
		return k(pos + run)
	case n.lazy:
		for c := n.n; c <= run; c++ {
			s.tick()
			if k(pos + c) {
				return true
			}
		}
	default:
		for c := run; c >= n.n; c-- {
			s.tick()
			if k(pos + c) {
				return true
			}
		}
	}
	return false
}
