// Copyright (c) 2026, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package internal

import (
	"regexp"
	"unicode"

	"mvdan.cc/sh/v3/pattern"
)

// A regular expression cannot say "anything but", so a pattern with a
// !(pattern-list) group is matched by a small matcher of its own: the
// pattern becomes a tree of nodes, and matching walks it carrying the set
// of positions of the string the pattern so far can end at. !(list) at a
// position ends at every position that @(list) does not reach from it, as
// in bash, wherever the group sits and however groups nest.

type egKind uint8

const (
	egLit   egKind = iota // one rune
	egAny                 // ?
	egStar                // *
	egClass               // [...]
	egGroup               // ?( *( +( @( !(
)

type egNode struct {
	kind  egKind
	r     rune
	class *regexp.Regexp
	op    byte
	alts  [][]egNode
}

// egMatcher matches whole strings against one parsed pattern.
type egMatcher struct {
	nodes     []egNode
	fold      bool // nocaseglob
	filenames bool // * and ? do not match '/', a leading dot is matched literally
	leadDot   bool // dotglob
	stop      func() bool
	steps     int
	stopped   bool
}

// negationMatcher returns a matcher for a pattern in extended mode that
// has a !(…) group.
func negationMatcher(pat string, mode pattern.Mode, stop func() bool) (func(string) (bool, bool), error) {
	m := &egMatcher{
		fold:      mode&pattern.NoGlobCase != 0,
		filenames: mode&pattern.Filenames != 0,
		leadDot:   mode&pattern.GlobLeadingDot != 0,
		stop:      stop,
	}
	rs := []rune(pat)
	nodes, _, err := m.parseSeq(rs, 0, 0, false)
	if err != nil {
		return nil, err
	}
	m.nodes = nodes
	return m.match, nil
}

// parseSeq parses nodes from rs[i:] up to the end, or, in a group, up to
// the '|' or ')' that ends one alternative (not consumed).
func (m *egMatcher) parseSeq(rs []rune, i, depth int, inGroup bool) ([]egNode, int, error) {
	var nodes []egNode
	for i < len(rs) {
		r := rs[i]
		switch {
		case inGroup && (r == '|' || r == ')'):
			return nodes, i, nil
		case r == '\\' && i+1 < len(rs):
			nodes = append(nodes, egNode{kind: egLit, r: rs[i+1]})
			i += 2
			continue
		case (r == '?' || r == '*' || r == '+' || r == '@' || r == '!') && i+1 < len(rs) && rs[i+1] == '(':
			if depth >= 100 {
				return nil, 0, &pattern.SyntaxError{}
			}
			g, next, ok, err := m.parseGroup(rs, i, depth)
			if err != nil {
				return nil, 0, err
			}
			if ok {
				nodes = append(nodes, g)
				i = next
				continue
			}
		case r == '?':
			nodes = append(nodes, egNode{kind: egAny})
			i++
			continue
		case r == '*':
			nodes = append(nodes, egNode{kind: egStar})
			i++
			continue
		case r == '[':
			if n, next, ok := m.parseClass(rs, i); ok {
				nodes = append(nodes, n)
				i = next
				continue
			}
		}
		nodes = append(nodes, egNode{kind: egLit, r: r})
		i++
	}
	return nodes, i, nil
}

// parseGroup parses an extended group at rs[i] (its operator); ok is false
// when it is not closed, and then its operator is a literal character.
func (m *egMatcher) parseGroup(rs []rune, i, depth int) (egNode, int, bool, error) {
	g := egNode{kind: egGroup, op: byte(rs[i])}
	j := i + 2
	for {
		alt, next, err := m.parseSeq(rs, j, depth+1, true)
		if err != nil {
			return g, 0, false, err
		}
		if next >= len(rs) {
			return g, 0, false, nil
		}
		g.alts = append(g.alts, alt)
		if rs[next] == ')' {
			return g, next + 1, true, nil
		}
		j = next + 1 // past '|'
	}
}

// parseClass parses a bracket expression at rs[i] into a one-rune regular
// expression; ok is false when it is not closed.
func (m *egMatcher) parseClass(rs []rune, i int) (egNode, int, bool) {
	j := i + 1
	if j < len(rs) && (rs[j] == '!' || rs[j] == '^') {
		j++
	}
	if j < len(rs) && rs[j] == ']' {
		j++
	}
	for j < len(rs) && rs[j] != ']' {
		if rs[j] == '[' && j+1 < len(rs) && (rs[j+1] == ':' || rs[j+1] == '.' || rs[j+1] == '=') {
			end := j + 2
			for end+1 < len(rs) && !(rs[end] == rs[j+1] && rs[end+1] == ']') {
				end++
			}
			if end+1 < len(rs) {
				j = end + 2
				continue
			}
		}
		if rs[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(rs) {
		return egNode{}, 0, false
	}
	expr, err := pattern.Regexp(string(rs[i:j+1]), pattern.EntireString)
	if err != nil {
		return egNode{}, 0, false
	}
	if m.fold {
		expr = "(?i)" + expr
	}
	rx, err := regexp.Compile(expr)
	if err != nil {
		return egNode{}, 0, false
	}
	return egNode{kind: egClass, class: rx}, j + 1, true
}

// match reports whether name matches the whole pattern; stopped says the
// stop function ended the match early, and then matched is arbitrary.
func (m *egMatcher) match(name string) (matched, stopped bool) {
	rs := []rune(name)
	m.steps, m.stopped = 0, false
	if m.filenames && !m.leadDot && len(rs) > 0 && rs[0] == '.' {
		if len(m.nodes) == 0 || m.nodes[0].kind != egLit || m.nodes[0].r != '.' {
			return false, false
		}
	}
	start := make([]bool, len(rs)+1)
	start[0] = true
	ends := m.seq(rs, m.nodes, start)
	return ends[len(rs)] && !m.stopped, m.stopped
}

// tick counts work, asking the stop function now and then.
func (m *egMatcher) tick(n int) bool {
	m.steps += n
	if m.steps >= 1<<16 {
		m.steps = 0
		if m.stop != nil && m.stop() {
			m.stopped = true
		}
	}
	return m.stopped
}

// seq returns the positions nodes can end at, starting from those in from.
func (m *egMatcher) seq(rs []rune, nodes []egNode, from []bool) []bool {
	cur := from
	for _, n := range nodes {
		if m.tick(len(rs)) {
			return make([]bool, len(rs)+1)
		}
		cur = m.step(rs, n, cur)
	}
	return cur
}

func (m *egMatcher) step(rs []rune, n egNode, from []bool) []bool {
	out := make([]bool, len(rs)+1)
	switch n.kind {
	case egGroup:
		return m.group(rs, n, from)
	case egStar:
		reach := false
		for i := range out {
			if from[i] {
				reach = true
			}
			if reach {
				out[i] = true
			}
			if i < len(rs) && m.filenames && rs[i] == '/' {
				reach = false
			}
		}
		return out
	}
	for i := 0; i < len(rs); i++ {
		if !from[i] {
			continue
		}
		r := rs[i]
		switch n.kind {
		case egLit:
			out[i+1] = r == n.r || m.fold && unicode.ToLower(r) == unicode.ToLower(n.r)
		case egAny:
			out[i+1] = !m.filenames || r != '/'
		case egClass:
			out[i+1] = n.class.MatchString(string(r))
		}
	}
	return out
}

// group returns where an extended group can end, starting from from.
func (m *egMatcher) group(rs []rune, n egNode, from []bool) []bool {
	once := func(starts []bool) []bool {
		out := make([]bool, len(rs)+1)
		for _, alt := range n.alts {
			for i, ok := range m.seq(rs, alt, starts) {
				out[i] = out[i] || ok
			}
		}
		return out
	}
	switch n.op {
	case '@':
		return once(from)
	case '?':
		out := once(from)
		for i, ok := range from {
			out[i] = out[i] || ok
		}
		return out
	case '+', '*':
		acc := make([]bool, len(rs)+1)
		if n.op == '*' {
			copy(acc, from)
		}
		frontier := from
		for !m.stopped {
			next := once(frontier)
			grew := false
			for i, ok := range next {
				if ok && !acc[i] {
					acc[i], grew = true, true
				} else {
					next[i] = false
				}
			}
			if !grew {
				break
			}
			frontier = next
		}
		return acc
	}
	// '!': every end that the list does not reach from the same start.
	out := make([]bool, len(rs)+1)
	single := make([]bool, len(rs)+1)
	for i, ok := range from {
		if !ok {
			continue
		}
		single[i] = true
		in := once(single)
		single[i] = false
		for j := i; j <= len(rs); j++ {
			if !in[j] {
				out[j] = true
			}
		}
		if m.stopped {
			break
		}
	}
	return out
}
