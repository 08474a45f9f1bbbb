// Added to this copy by gatehouse (patch 70, see PATCHES.md); under the same licence.

package interp

import (
	"strings"
	"unicode/utf8"
)

// echoOptions reads echo's leading options as bash does: each word that is
// a dash followed only by the letters n, e and E is an option word, and
// the letters may run together (-en, -nE).
func echoOptions(args []string) (rest []string, newline, escapes bool) {
	newline = true
	for len(args) > 0 {
		arg := args[0]
		if len(arg) < 2 || arg[0] != '-' || strings.Trim(arg[1:], "neE") != "" {
			break
		}
		for _, c := range arg[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	return args, newline, escapes
}

// echoEscapes decodes the backslash escapes of echo -e as bash does: octal
// needs a leading zero (\0NNN, up to three digits after it), \xHH takes one
// or two hex digits, \uHHHH and \UHHHHHHHH up to four and eight, and \c
// stops all output. An unknown escape is kept as written.
func echoEscapes(s string) (out string, stop bool) {
	if !strings.Contains(s, "\\") {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'c':
			return b.String(), true
		case 'e', 'E':
			b.WriteByte('\x1b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\':
			b.WriteByte('\\')
		case '0':
			v, n := digitsValue(s[i+1:], 8, 3)
			b.WriteByte(byte(v))
			i += n
		case 'x', 'u', 'U':
			limit := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			v, n := digitsValue(s[i+1:], 16, limit)
			switch {
			case n == 0:
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == 'x' || v < utf8.RuneSelf:
				b.WriteByte(byte(v))
			default:
				b.WriteRune(rune(v))
			}
			i += n
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), false
}

// digitsValue reads up to limit digits of base 8 or 16 at the start of s.
func digitsValue(s string, base, limit int) (value, n int) {
	for n < limit && n < len(s) {
		d := strings.IndexByte("0123456789abcdef"[:base], lowerHex(s[n]))
		if d < 0 {
			break
		}
		value = value*base + d
		n++
	}
	return value, n
}

func lowerHex(c byte) byte {
	if c >= 'A' && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}
