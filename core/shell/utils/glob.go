package utils

// fnmatch matches shell wildcards the way the C library's fnmatch does in
// the C locale: find -name/-path, grep --include/--exclude. Unlike
// path.Match it knows [!...], POSIX classes, and (without matchPathname)
// lets * cross slashes.

type fnmatchFlags struct {
	pathname bool // * ? and [] never match '/'
	casefold bool // ASCII case-insensitive (find -iname)
}

func fnmatch(pattern, name string, flags fnmatchFlags) bool {
	p, n := 0, 0
	starP, starN := -1, -1
	for n < len(name) {
		if p < len(pattern) {
			switch c := pattern[p]; c {
			case '*':
				starP, starN = p, n
				p++
				continue
			case '?':
				if !(flags.pathname && name[n] == '/') {
					p++
					n++
					continue
				}
			case '[':
				if matched, width, ok := matchBracket(pattern[p:], name[n], flags); ok {
					if matched && !(flags.pathname && name[n] == '/') {
						p += width
						n++
						continue
					}
				} else if foldEq('[', name[n], flags.casefold) {
					p++
					n++
					continue
				}
			case '\\':
				if p+1 < len(pattern) {
					if foldEq(pattern[p+1], name[n], flags.casefold) {
						p += 2
						n++
						continue
					}
				} else if name[n] == '\\' {
					p++
					n++
					continue
				}
			default:
				if foldEq(c, name[n], flags.casefold) {
					p++
					n++
					continue
				}
			}
		}
		// Mismatch: let the last * swallow one more byte, if it may.
		if starP < 0 || (flags.pathname && name[starN] == '/') {
			return false
		}
		starN++
		p, n = starP+1, starN
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

func foldEq(a, b byte, fold bool) bool {
	if a == b {
		return true
	}
	return fold && lowerASCII(a) == lowerASCII(b)
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// matchBracket matches c against the bracket expression opening pattern.
// ok is false when the bracket is not closed (then '[' is a literal).
func matchBracket(pattern string, c byte, flags fnmatchFlags) (matched bool, width int, ok bool) {
	i := 1
	negate := false
	if i < len(pattern) && (pattern[i] == '!' || pattern[i] == '^') {
		negate = true
		i++
	}
	first := true
	for {
		if i >= len(pattern) {
			return false, 0, false
		}
		ch := pattern[i]
		if ch == ']' && !first {
			i++
			break
		}
		first = false
		if ch == '[' && i+1 < len(pattern) && pattern[i+1] == ':' {
			end := indexFrom(pattern, ":]", i+2)
			if end >= 0 {
				if classHas(pattern[i+2:end], c, flags.casefold) {
					matched = true
				}
				i = end + 2
				continue
			}
		}
		lo := ch
		if ch == '\\' && i+1 < len(pattern) {
			i++
			lo = pattern[i]
		}
		i++
		hi := lo
		if i+1 < len(pattern) && pattern[i] == '-' && pattern[i+1] != ']' {
			hi = pattern[i+1]
			i += 2
			if hi == '\\' && i < len(pattern) {
				hi = pattern[i]
				i++
			}
		}
		if inRange(c, lo, hi) || (flags.casefold && (inRange(lowerASCII(c), lo, hi) || inRange(upperASCII(c), lo, hi))) {
			matched = true
		}
	}
	return matched != negate, i, true
}

func inRange(c, lo, hi byte) bool { return lo <= c && c <= hi }

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func indexFrom(s, sub string, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// classHas reports membership in a POSIX class, ASCII only (C locale).
func classHas(class string, c byte, fold bool) bool {
	isUpper := c >= 'A' && c <= 'Z'
	isLower := c >= 'a' && c <= 'z'
	isDigit := c >= '0' && c <= '9'
	switch class {
	case "alpha":
		return isUpper || isLower
	case "digit":
		return isDigit
	case "alnum":
		return isUpper || isLower || isDigit
	case "upper":
		return isUpper || (fold && isLower)
	case "lower":
		return isLower || (fold && isUpper)
	case "space":
		return c == ' ' || (c >= '\t' && c <= '\r')
	case "blank":
		return c == ' ' || c == '\t'
	case "punct":
		return c > ' ' && c < 0x7f && !(isUpper || isLower || isDigit)
	case "print":
		return c >= ' ' && c < 0x7f
	case "graph":
		return c > ' ' && c < 0x7f
	case "cntrl":
		return c < ' ' || c == 0x7f
	case "xdigit":
		return isDigit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	}
	return false
}
