package gate

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// A name glob matches one path component or one variable name (G-4.1, G-5.5):
// `*` is any run of characters, `?` is one character, `[…]` is a class
// (`[!…]` or `[^…]` negated, `a-z` ranges) and `\` escapes the next character.
// It is compiled once into tokens so matching never re-parses or allocates.

type globTokKind uint8

const (
	tokLiteral globTokKind = iota // a run of literal text
	tokStar                       // any run of characters
	tokAnyChar                    // exactly one character
	tokClass                      // one character from (or not from) a class
)

type runeRange struct{ lo, hi rune }

type globTok struct {
	kind   globTokKind
	lit    string
	ranges []runeRange
	negate bool
}

// nameGlob is a compiled glob over one name. A name without metacharacters is
// kept as a literal so the common case is a string comparison.
type nameGlob struct {
	literal string // the whole pattern when isLit; the literal part for a simple shape
	toks    []globTok
	isLit   bool
	shape   globShape
}

// globShape marks the common globs that reduce to one string test, so a
// pattern like `*.bak` costs a suffix comparison on the door's hot path.
type globShape uint8

const (
	shapeGeneral  globShape = iota
	shapeSuffix             // *LIT
	shapePrefix             // LIT*
	shapeContains           // *LIT*
)

var errBadGlob = errors.New("syntax error in glob")

// hasGlobMeta reports whether s contains a character that makes it a glob.
func hasGlobMeta(s string) bool {
	return strings.ContainsAny(s, `*?[\`)
}

// compileNameGlob parses one component (no '/') into a nameGlob.
func compileNameGlob(pattern string) (nameGlob, error) {
	if !hasGlobMeta(pattern) {
		return nameGlob{literal: pattern, isLit: true}, nil
	}
	var toks []globTok
	var lit strings.Builder
	flushLit := func() {
		if lit.Len() > 0 {
			toks = append(toks, globTok{kind: tokLiteral, lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch c {
		case '*':
			flushLit()
			// Consecutive stars mean the same as one.
			if len(toks) == 0 || toks[len(toks)-1].kind != tokStar {
				toks = append(toks, globTok{kind: tokStar})
			}
			i++
		case '?':
			flushLit()
			toks = append(toks, globTok{kind: tokAnyChar})
			i++
		case '\\':
			if i+1 >= len(pattern) {
				return nameGlob{}, errBadGlob
			}
			r, size := utf8.DecodeRuneInString(pattern[i+1:])
			lit.WriteRune(r)
			i += 1 + size
		case '[':
			flushLit()
			tok, n, err := parseClass(pattern[i:])
			if err != nil {
				return nameGlob{}, err
			}
			toks = append(toks, tok)
			i += n
		default:
			r, size := utf8.DecodeRuneInString(pattern[i:])
			lit.WriteRune(r)
			i += size
		}
	}
	flushLit()
	// A pattern that was only escapes is a literal after all.
	if len(toks) == 1 && toks[0].kind == tokLiteral {
		return nameGlob{literal: toks[0].lit, isLit: true}, nil
	}
	if len(toks) == 0 {
		return nameGlob{isLit: true}, nil
	}
	g := nameGlob{toks: toks}
	switch {
	case len(toks) == 2 && toks[0].kind == tokStar && toks[1].kind == tokLiteral:
		g.shape, g.literal = shapeSuffix, toks[1].lit
	case len(toks) == 2 && toks[0].kind == tokLiteral && toks[1].kind == tokStar:
		g.shape, g.literal = shapePrefix, toks[0].lit
	case len(toks) == 3 && toks[0].kind == tokStar && toks[1].kind == tokLiteral && toks[2].kind == tokStar:
		g.shape, g.literal = shapeContains, toks[1].lit
	}
	return g, nil
}

// parseClass parses "[...]" at the start of s and returns the token and the
// number of bytes consumed.
func parseClass(s string) (globTok, int, error) {
	tok := globTok{kind: tokClass}
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		tok.negate = true
		i++
	}
	first := true
	for {
		if i >= len(s) {
			return globTok{}, 0, errBadGlob
		}
		// A ']' right after the opening bracket is a member, as in bash.
		if s[i] == ']' && !first {
			i++
			break
		}
		first = false
		lo, n, err := classRune(s[i:])
		if err != nil {
			return globTok{}, 0, err
		}
		i += n
		hi := lo
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			var m int
			hi, m, err = classRune(s[i+1:])
			if err != nil {
				return globTok{}, 0, err
			}
			if hi < lo {
				return globTok{}, 0, errBadGlob
			}
			i += 1 + m
		}
		tok.ranges = append(tok.ranges, runeRange{lo, hi})
	}
	return tok, i, nil
}

func classRune(s string) (rune, int, error) {
	if s[0] == '\\' {
		if len(s) < 2 {
			return 0, 0, errBadGlob
		}
		r, size := utf8.DecodeRuneInString(s[1:])
		return r, 1 + size, nil
	}
	r, size := utf8.DecodeRuneInString(s)
	return r, size, nil
}

func (t *globTok) classMatches(r rune) bool {
	in := false
	for _, rr := range t.ranges {
		if rr.lo <= r && r <= rr.hi {
			in = true
			break
		}
	}
	return in != t.negate
}

// match reports whether name matches the glob. Stars backtrack to the most
// recent star only, which is exact for patterns within a single name.
func (g *nameGlob) match(name string) bool {
	switch {
	case g.isLit:
		return g.literal == name
	case g.shape == shapeSuffix:
		return strings.HasSuffix(name, g.literal)
	case g.shape == shapePrefix:
		return strings.HasPrefix(name, g.literal)
	case g.shape == shapeContains:
		return strings.Contains(name, g.literal)
	}
	toks := g.toks
	ti, ni := 0, 0
	starTok, starName := -1, 0
	for {
		if ti < len(toks) {
			t := &toks[ti]
			switch t.kind {
			case tokStar:
				starTok, starName = ti, ni
				ti++
				continue
			case tokLiteral:
				if strings.HasPrefix(name[ni:], t.lit) {
					ti++
					ni += len(t.lit)
					continue
				}
			case tokAnyChar:
				if ni < len(name) {
					_, size := utf8.DecodeRuneInString(name[ni:])
					ti++
					ni += size
					continue
				}
			case tokClass:
				if ni < len(name) {
					r, size := utf8.DecodeRuneInString(name[ni:])
					if t.classMatches(r) {
						ti++
						ni += size
						continue
					}
				}
			}
		} else if ni == len(name) {
			return true
		}
		// Mismatch: let the last star swallow one more character.
		if starTok < 0 || starName >= len(name) {
			return false
		}
		_, size := utf8.DecodeRuneInString(name[starName:])
		starName += size
		ti, ni = starTok+1, starName
	}
}
