package utils

import (
	"strconv"
	"strings"

	"gatehouse/internal/lazy"
)

// Escapes and bracket classes of PCRE syntax.

// btClassOf fills a set for \d \w \s \h \v and their negations (ASCII).
func btClassOf(c byte) (*[256]bool, bool) {
	var test func(b byte) bool
	switch lowerASCII(c) {
	case 'd':
		test = func(b byte) bool { return b >= '0' && b <= '9' }
	case 'w':
		test = isWordByte
	case 's':
		test = func(b byte) bool { return b == ' ' || b >= '\t' && b <= '\r' }
	case 'h':
		test = func(b byte) bool { return b == ' ' || b == '\t' }
	case 'v':
		test = func(b byte) bool { return b >= '\n' && b <= '\r' }
	default:
		return nil, false
	}
	set := &[256]bool{}
	negate := c >= 'A' && c <= 'Z'
	for i := range set {
		set[i] = test(byte(i)) != negate
	}
	return set, true
}

// btSimpleEscape is the byte a character escape stands for, if it is one.
func btSimpleEscape(c byte) (byte, bool) {
	switch c {
	case 't':
		return '\t', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 'f':
		return '\f', true
	case 'e':
		return 0x1b, true
	case 'a':
		return 0x07, true
	}
	return 0, false
}

// escape parses a backslash sequence outside a class.
func (p *btParser) escape() (*btNode, *btSyntaxError) {
	if p.pos+1 >= len(p.src) {
		return nil, btFail("\\ at end of pattern")
	}
	c := p.src[p.pos+1]
	p.pos += 2
	if set, ok := btClassOf(c); ok {
		return &btNode{kind: btSet, set: set}, nil
	}
	switch c {
	case 'b':
		return &btNode{kind: btWordB}, nil
	case 'B':
		return &btNode{kind: btNotWordB}, nil
	case 'A':
		return &btNode{kind: btStart}, nil
	case 'z':
		return &btNode{kind: btEnd}, nil
	case 'Z':
		return &btNode{kind: btEndNL}, nil
	case 'G':
		return &btNode{kind: btStart}, nil
	case 'K':
		return &btNode{kind: btKeep}, nil
	case 'Q':
		end := strings.Index(p.src[p.pos:], `\E`)
		if end < 0 {
			end = len(p.src) - p.pos
		}
		n := &btNode{kind: btConcat}
		for i := 0; i < end; i++ {
			n.kids = append(n.kids, p.literal(p.src[p.pos+i]))
		}
		p.pos += end + 2
		return n, nil
	case 'E':
		return nil, nil
	case 'x', '0', 'c':
		return p.literal(p.codeEscape(c)), nil
	case 'g', 'k':
		return p.namedRef(c)
	}
	if b, ok := btSimpleEscape(c); ok {
		return p.literal(b), nil
	}
	if c >= '1' && c <= '9' {
		j := p.pos
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(p.src[p.pos-1 : j])
		p.pos = j
		ref := &btNode{kind: btBackref, n: n, fold: p.fold}
		p.refs = append(p.refs, btRef{node: ref})
		return ref, nil
	}
	if c == 'p' || c == 'P' {
		return p.property(c == 'P')
	}
	return p.literal(c), nil
}

// codeEscape reads \xHH, \x{H…}, \0oo and \cX (after the letter).
func (p *btParser) codeEscape(c byte) byte {
	switch c {
	case 'x':
		if strings.HasPrefix(p.src[p.pos:], "{") {
			end := strings.IndexByte(p.src[p.pos:], '}')
			if end > 0 {
				v, _ := strconv.ParseUint(p.src[p.pos+1:p.pos+end], 16, 8)
				p.pos += end + 1
				return byte(v)
			}
		}
		j := p.pos
		for j < len(p.src) && j < p.pos+2 && strings.IndexByte("0123456789abcdefABCDEF", p.src[j]) >= 0 {
			j++
		}
		v, _ := strconv.ParseUint("0"+p.src[p.pos:j], 16, 8)
		p.pos = j
		return byte(v)
	case '0':
		j := p.pos
		for j < len(p.src) && j < p.pos+2 && p.src[j] >= '0' && p.src[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint("0"+p.src[p.pos:j], 8, 8)
		p.pos = j
		return byte(v)
	}
	if p.pos < len(p.src) {
		b := upperASCII(p.src[p.pos]) ^ 0x40
		p.pos++
		return b
	}
	return 0
}

// namedRef reads \g{n}, \gN, \g{-n}, \k<name>, \k{name}, \k'name'.
func (p *btParser) namedRef(c byte) (*btNode, *btSyntaxError) {
	rest := p.src[p.pos:]
	var body string
	switch {
	case strings.HasPrefix(rest, "{"), strings.HasPrefix(rest, "<"), strings.HasPrefix(rest, "'"):
		closer := map[byte]string{'{': "}", '<': ">", '\'': "'"}[rest[0]]
		end := strings.Index(rest, closer)
		if end < 0 {
			return nil, btFail("\\k is not followed by a braced, angle-bracketed, or quoted name")
		}
		body = rest[1:end]
		p.pos += end + 1
	case c == 'g':
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		body = rest[:j]
		p.pos += j
	}
	ref := &btNode{kind: btBackref, fold: p.fold}
	if n, err := strconv.Atoi(body); err == nil {
		if n < 0 {
			n = p.groups + 1 + n
		}
		ref.n = n
		p.refs = append(p.refs, btRef{node: ref})
	} else {
		p.refs = append(p.refs, btRef{node: ref, name: body})
	}
	return ref, nil
}

// property reads \p{..}: ASCII approximations of the common properties.
func (p *btParser) property(negate bool) (*btNode, *btSyntaxError) {
	name := ""
	if strings.HasPrefix(p.src[p.pos:], "{") {
		end := strings.IndexByte(p.src[p.pos:], '}')
		if end < 0 {
			return nil, btFail("malformed \\P or \\p sequence")
		}
		name = p.src[p.pos+1 : p.pos+end]
		p.pos += end + 1
	} else if p.pos < len(p.src) {
		name = p.src[p.pos : p.pos+1]
		p.pos++
	}
	tests := map[string]func(byte) bool{
		"L": isASCIILetter, "Lu": func(b byte) bool { return b >= 'A' && b <= 'Z' },
		"Ll": func(b byte) bool { return b >= 'a' && b <= 'z' }, "N": func(b byte) bool { return b >= '0' && b <= '9' },
		"Nd": func(b byte) bool { return b >= '0' && b <= '9' }, "P": func(b byte) bool { return strings.IndexByte("!\"#%&'()*,-./:;?@[\\]_{}", b) >= 0 },
		"Z": func(b byte) bool { return b == ' ' }, "Zs": func(b byte) bool { return b == ' ' },
	}
	test, ok := tests[strings.TrimPrefix(name, "^")]
	if !ok {
		return nil, btFail("unknown property name after \\P or \\p")
	}
	set := &[256]bool{}
	for i := range set {
		set[i] = test(byte(i)) != negate
	}
	return &btNode{kind: btSet, set: set}, nil
}

// btPosixClasses are the [:name:] classes.
var btPosixClasses = lazy.Value[map[string]func(byte) bool]{New: func() map[string]func(byte) bool {
	return map[string]func(byte) bool{
		"alpha": isASCIILetter, "digit": func(b byte) bool { return b >= '0' && b <= '9' },
		"alnum": func(b byte) bool { return isASCIILetter(b) || b >= '0' && b <= '9' },
		"upper": func(b byte) bool { return b >= 'A' && b <= 'Z' }, "lower": func(b byte) bool { return b >= 'a' && b <= 'z' },
		"space": func(b byte) bool { return b == ' ' || b >= '\t' && b <= '\r' }, "blank": func(b byte) bool { return b == ' ' || b == '\t' },
		"punct": func(b byte) bool { return b > ' ' && b < 0x7f && !isASCIILetter(b) && !(b >= '0' && b <= '9') },
		"print": func(b byte) bool { return b >= ' ' && b < 0x7f }, "graph": func(b byte) bool { return b > ' ' && b < 0x7f },
		"cntrl": func(b byte) bool { return b < ' ' || b == 0x7f }, "xdigit": func(b byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", b) >= 0 },
		"word": isWordByte,
	}
}}

// class parses a bracket expression.
func (p *btParser) class() (*btNode, *btSyntaxError) {
	p.pos++
	set := &[256]bool{}
	negate := false
	if p.more() && p.src[p.pos] == '^' {
		negate = true
		p.pos++
	}
	first := true
	for {
		if !p.more() {
			return nil, btFail("missing terminating ] for character class")
		}
		c := p.src[p.pos]
		if c == ']' && !first {
			p.pos++
			break
		}
		first = false
		if c == '[' && strings.HasPrefix(p.src[p.pos:], "[:") {
			if end := strings.Index(p.src[p.pos:], ":]"); end > 0 {
				name := p.src[p.pos+2 : p.pos+end]
				neg := strings.HasPrefix(name, "^")
				test, ok := btPosixClasses.Get()[strings.TrimPrefix(name, "^")]
				if !ok {
					return nil, btFail("unknown POSIX class name")
				}
				for i := range set {
					if test(byte(i)) != neg {
						set[i] = true
					}
				}
				p.pos += end + 2
				continue
			}
		}
		lo, isSet, err := p.classChar(set)
		if err != nil {
			return nil, err
		}
		if isSet {
			continue
		}
		hi := lo
		if p.pos+1 < len(p.src) && p.src[p.pos] == '-' && p.src[p.pos+1] != ']' {
			p.pos++
			var isSet2 bool
			if hi, isSet2, err = p.classChar(set); err != nil {
				return nil, err
			}
			if isSet2 {
				set['-'] = true
				continue
			}
			if hi < lo {
				return nil, btFail("range out of order in character class")
			}
		}
		for b := int(lo); b <= int(hi); b++ {
			set[b] = true
			if p.fold && isASCIILetter(byte(b)) {
				set[lowerASCII(byte(b))], set[upperASCII(byte(b))] = true, true
			}
		}
	}
	if negate {
		for i := range set {
			set[i] = !set[i]
		}
	}
	return &btNode{kind: btSet, set: set}, nil
}

// classChar reads one member of a class: a byte, or (isSet) a class
// escape like \d that it adds to set itself.
func (p *btParser) classChar(set *[256]bool) (byte, bool, *btSyntaxError) {
	c := p.src[p.pos]
	p.pos++
	if c != '\\' {
		return c, false, nil
	}
	if !p.more() {
		return 0, false, btFail("\\ at end of pattern")
	}
	e := p.src[p.pos]
	p.pos++
	if sub, ok := btClassOf(e); ok {
		for i := range set {
			set[i] = set[i] || sub[i]
		}
		return 0, true, nil
	}
	if b, ok := btSimpleEscape(e); ok {
		return b, false, nil
	}
	switch e {
	case 'b':
		return '\b', false, nil
	case 'x', '0', 'c':
		return p.codeEscape(e), false, nil
	}
	return e, false, nil
}
