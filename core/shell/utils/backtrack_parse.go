package utils

import (
	"strconv"
	"strings"
)

// A backtracking matcher for what RE2 cannot do: grep -P's lookaround,
// backreferences, atomic groups, possessive quantifiers and \K, and the
// backreferences of POSIX patterns (grep -G/-E, sed). It works on bytes
// (the C locale), in Perl's leftmost-first order, under a step limit so
// no pattern can run away with a line.

// btKind is a node's kind.
type btKind int

const (
	btLit      btKind = iota // text (fold: case-insensitive)
	btSet                    // one byte from set
	btBol                    // ^
	btEol                    // $
	btStart                  // \A
	btEnd                    // \z
	btEndNL                  // \Z
	btWordB                  // \b
	btNotWordB               // \B
	btGroup                  // capture group n (0: a non-capturing group)
	btAlt                    // one of kids
	btConcat                 // kids in turn
	btRepeat                 // kid, min..max times
	btBackref                // the text group n matched
	btLook                   // lookaround: behind, negate
	btAtomic                 // kid, never re-entered
	btKeep                   // \K: the match starts here
)

type btNode struct {
	kind       btKind
	text       []byte
	fold       bool
	set        *[256]bool
	n          int // group number; repeat min
	max        int // repeat max, -1: unbounded
	lazy       bool
	possessive bool
	behind     bool
	negate     bool
	multiline  bool
	kids       []*btNode
}

// btParser reads PCRE syntax.
type btParser struct {
	src    string
	pos    int
	groups int
	names  map[string]int
	fold   bool // (?i)
	multi  bool // (?m)
	dotNL  bool // (?s)
	ext    bool // (?x)
	refs   []btRef
}

// btRef is a backreference to check once every group is known.
type btRef struct {
	node *btNode
	name string
}

// btSyntaxError is a pattern PCRE rejects, in its words.
type btSyntaxError struct{ msg string }

func (e *btSyntaxError) Error() string { return e.msg }

func btFail(msg string) *btSyntaxError { return &btSyntaxError{msg} }

// parseBacktrack parses a pattern; fold starts it case-insensitive.
func parseBacktrack(pattern string, fold bool) (*btNode, int, error) {
	p := &btParser{src: pattern, names: map[string]int{}, fold: fold}
	n, err := p.alt()
	if err != nil {
		return nil, 0, err
	}
	if p.pos < len(p.src) {
		return nil, 0, btFail("unmatched closing parenthesis")
	}
	for _, r := range p.refs {
		if r.name != "" {
			g, ok := p.names[r.name]
			if !ok {
				return nil, 0, btFail("reference to non-existent subpattern")
			}
			r.node.n = g
		}
		if r.node.n > p.groups {
			return nil, 0, btFail("reference to non-existent subpattern")
		}
	}
	return n, p.groups, nil
}

func (p *btParser) more() bool { return p.pos < len(p.src) }

// alt parses alternatives up to a ')' or the end.
func (p *btParser) alt() (*btNode, *btSyntaxError) {
	saved := [4]bool{p.fold, p.multi, p.dotNL, p.ext}
	defer func() { p.fold, p.multi, p.dotNL, p.ext = saved[0], saved[1], saved[2], saved[3] }()
	var branches []*btNode
	for {
		c, err := p.concat()
		if err != nil {
			return nil, err
		}
		branches = append(branches, c)
		if !p.more() || p.src[p.pos] != '|' {
			break
		}
		p.pos++
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return &btNode{kind: btAlt, kids: branches}, nil
}

// concat parses a sequence of quantified atoms.
func (p *btParser) concat() (*btNode, *btSyntaxError) {
	n := &btNode{kind: btConcat}
	for p.more() && p.src[p.pos] != '|' && p.src[p.pos] != ')' {
		if p.ext && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n') {
			p.pos++
			continue
		}
		if p.ext && p.src[p.pos] == '#' {
			for p.more() && p.src[p.pos] != '\n' {
				p.pos++
			}
			continue
		}
		atom, err := p.atom()
		if err != nil {
			return nil, err
		}
		if atom == nil {
			continue // an inline option: nothing to match
		}
		if atom, err = p.quantify(atom); err != nil {
			return nil, err
		}
		n.kids = append(n.kids, atom)
	}
	return n, nil
}

// quantify applies * + ? {n,m} (lazy ?, possessive +) to an atom.
func (p *btParser) quantify(atom *btNode) (*btNode, *btSyntaxError) {
	for p.more() {
		lo, hi, ok := 0, 0, true
		switch p.src[p.pos] {
		case '*':
			lo, hi = 0, -1
			p.pos++
		case '+':
			lo, hi = 1, -1
			p.pos++
		case '?':
			lo, hi = 0, 1
			p.pos++
		case '{':
			var err *btSyntaxError
			lo, hi, ok, err = p.braces()
			if err != nil {
				return nil, err
			}
		default:
			ok = false
		}
		if !ok {
			return atom, nil
		}
		if atom.kind >= btBol && atom.kind <= btNotWordB || atom.kind == btRepeat || atom.kind == btKeep {
			return nil, btFail("quantifier does not follow a repeatable item")
		}
		r := &btNode{kind: btRepeat, n: lo, max: hi, kids: []*btNode{atom}}
		if p.more() && p.src[p.pos] == '?' {
			r.lazy = true
			p.pos++
		} else if p.more() && p.src[p.pos] == '+' {
			r.possessive = true
			p.pos++
		}
		atom = r
	}
	return atom, nil
}

// braces reads {n}, {n,} or {n,m}; ok is false when the brace is a
// plain character.
func (p *btParser) braces() (lo, hi int, ok bool, err *btSyntaxError) {
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 0 {
		return 0, 0, false, nil
	}
	body := p.src[p.pos+1 : p.pos+end]
	a, b, comma := strings.Cut(body, ",")
	lo, e1 := strconv.Atoi(a)
	if e1 != nil {
		return 0, 0, false, nil
	}
	hi = lo
	if comma {
		hi = -1
		if b != "" {
			v, e2 := strconv.Atoi(b)
			if e2 != nil {
				return 0, 0, false, nil
			}
			hi = v
		}
	}
	if hi >= 0 && hi < lo {
		return 0, 0, false, btFail("numbers out of order in {} quantifier")
	}
	p.pos += end + 1
	return lo, hi, true, nil
}

// atom parses one item: a group, a class, an escape, a character.
func (p *btParser) atom() (*btNode, *btSyntaxError) {
	c := p.src[p.pos]
	switch c {
	case '(':
		return p.group()
	case '[':
		return p.class()
	case '.':
		p.pos++
		set := &[256]bool{}
		for i := range set {
			set[i] = i != '\n' || p.dotNL
		}
		return &btNode{kind: btSet, set: set}, nil
	case '^':
		p.pos++
		return &btNode{kind: btBol, multiline: p.multi}, nil
	case '$':
		p.pos++
		return &btNode{kind: btEol, multiline: p.multi}, nil
	case '\\':
		return p.escape()
	case '*', '+', '?':
		return nil, btFail("quantifier does not follow a repeatable item")
	}
	p.pos++
	return p.literal(c), nil
}

// literal is one character, folded when (?i) is on.
func (p *btParser) literal(c byte) *btNode {
	if p.fold && isASCIILetter(c) {
		set := &[256]bool{}
		set[lowerASCII(c)], set[upperASCII(c)] = true, true
		return &btNode{kind: btSet, set: set}
	}
	return &btNode{kind: btLit, text: []byte{c}}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// group parses ( … ) in all its kinds.
func (p *btParser) group() (*btNode, *btSyntaxError) {
	p.pos++
	if rest := p.src[p.pos:]; strings.HasPrefix(rest, "?P=") {
		// (?P=name): a backreference in Python's spelling.
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return nil, btFail("missing closing parenthesis")
		}
		ref := &btNode{kind: btBackref, fold: p.fold}
		p.refs = append(p.refs, btRef{node: ref, name: rest[3:end]})
		p.pos += end + 1
		return ref, nil
	}
	n := &btNode{kind: btGroup}
	if strings.HasPrefix(p.src[p.pos:], "?") {
		kind, name, done, err := p.groupKind(n)
		if err != nil || done {
			return nil, err
		}
		if kind == "capture" {
			p.groups++
			n.n = p.groups
			if name != "" {
				p.names[name] = n.n
			}
		}
	} else {
		p.groups++
		n.n = p.groups
	}
	body, err := p.alt()
	if err != nil {
		return nil, err
	}
	if !p.more() || p.src[p.pos] != ')' {
		return nil, btFail("missing closing parenthesis")
	}
	p.pos++
	n.kids = []*btNode{body}
	if n.kind == btLook && n.behind {
		if err := btFixedBehind(body); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// groupKind reads what follows "(?": a lookaround, an atomic or named
// group, or inline options. done means the options stood alone.
func (p *btParser) groupKind(n *btNode) (kind, name string, done bool, err *btSyntaxError) {
	rest := p.src[p.pos:]
	prefixes := []struct {
		s             string
		kind          btKind
		behind, negat bool
	}{{"?:", btGroup, false, false}, {"?=", btLook, false, false}, {"?!", btLook, false, true},
		{"?<=", btLook, true, false}, {"?<!", btLook, true, true}, {"?>", btAtomic, false, false}}
	for _, pr := range prefixes {
		if strings.HasPrefix(rest, pr.s) {
			p.pos += len(pr.s)
			n.kind, n.behind, n.negate = pr.kind, pr.behind, pr.negat
			return "", "", false, nil
		}
	}
	for _, open := range []string{"?P<", "?<", "?'"} {
		if strings.HasPrefix(rest, open) {
			closer := ">"
			if open == "?'" {
				closer = "'"
			}
			end := strings.Index(rest, closer)
			if end < 0 {
				return "", "", false, btFail("syntax error in subpattern name (missing terminator?)")
			}
			p.pos += end + 1
			return "capture", rest[len(open):end], false, nil
		}
	}
	// (?flags) or (?flags:…)
	i := 1
	on := true
	for i < len(rest) && rest[i] != ')' && rest[i] != ':' {
		switch rest[i] {
		case '-':
			on = false
		case 'i':
			p.fold = on
		case 'm':
			p.multi = on
		case 's':
			p.dotNL = on
		case 'x':
			p.ext = on
		default:
			return "", "", false, btFail("unrecognized character after (? or (?-")
		}
		i++
	}
	if i >= len(rest) {
		return "", "", false, btFail("missing closing parenthesis")
	}
	p.pos += i + 1
	if rest[i] == ')' {
		return "", "", true, nil
	}
	return "", "", false, nil
}

// btFixedBehind accepts a lookbehind whose alternatives each have a
// fixed width, as PCRE does.
func btFixedBehind(body *btNode) *btSyntaxError {
	branches := []*btNode{body}
	if body.kind == btAlt {
		branches = body.kids
	}
	for _, b := range branches {
		if lo, hi := btWidth(b); lo != hi {
			return btFail("lookbehind assertion is not fixed length")
		}
	}
	return nil
}

// btWidth is the least and most bytes a node matches (-1: unbounded).
func btWidth(n *btNode) (lo, hi int) {
	switch n.kind {
	case btLit:
		return len(n.text), len(n.text)
	case btSet:
		return 1, 1
	case btGroup, btAtomic:
		return btWidth(n.kids[0])
	case btConcat:
		for _, k := range n.kids {
			a, b := btWidth(k)
			lo += a
			if hi >= 0 && b >= 0 {
				hi += b
			} else {
				hi = -1
			}
		}
		return lo, hi
	case btAlt:
		lo, hi = -1, 0
		for _, k := range n.kids {
			a, b := btWidth(k)
			if lo < 0 || a < lo {
				lo = a
			}
			if hi >= 0 && (b < 0 || b > hi) {
				hi = b
			}
		}
		return lo, hi
	case btRepeat:
		a, b := btWidth(n.kids[0])
		lo = a * n.n
		if n.max < 0 || b < 0 {
			return lo, -1
		}
		return lo, b * n.max
	case btBackref:
		return 0, -1
	}
	return 0, 0
}
