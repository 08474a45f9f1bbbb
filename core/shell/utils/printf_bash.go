package utils

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// bash's printf builtin differs from coreutils' printf, which xargs and
// find -exec run: its messages ("bash: printf: x: invalid number"), %q's
// quoting (backslashes, $'...' for control characters), %b's octal
// escapes with or without a leading zero, %(fmt)T, integer conversions
// that clamp with a warning instead of failing, and no --help, --version
// or excess-argument warning. Env.Builtin selects it (G-12.1).

const bashPrintfUsage = "printf: usage: printf [-v var] format [arguments]\n"

// bashWarn prints a diagnostic in bash's voice.
func (p *printfRun) bashWarn(msg string) {
	p.t.flush()
	if p.t.env.Stderr != nil {
		p.t.env.Stderr.Write([]byte("bash: printf: " + msg + "\n"))
	}
}

// bashInteger converts an argument as bash's printf does with strtoimax or
// strtoumax: a leading quote gives the character's code; 0x and 0 prefixes
// give hex and octal; a value out of range clamps with a warning; a
// malformed one converts its numeric prefix and fails the printf.
func (p *printfRun) bashInteger(arg string, unsigned bool) uint64 {
	s, code, quoted := numericOperand(arg)
	if quoted || s == "" {
		return uint64(code)
	}
	neg := false
	body := s
	if body[0] == '-' || body[0] == '+' {
		neg, body = body[0] == '-', body[1:]
	}
	base, digits := 10, body
	switch {
	case strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X"):
		base, digits = 16, body[2:]
	case strings.HasPrefix(body, "0") && len(body) > 1:
		base, digits = 8, body[1:]
	}
	end := 0
	for end < len(digits) && digitValue(digits[end]) < base {
		end++
	}
	if end < len(digits) || (base == 16 && end == 0) {
		kind := map[int]string{8: "octal ", 16: "hex "}[base]
		p.bashWarn(arg + ": invalid " + kind + "number")
		p.status = 1
	}
	mag, err := strconv.ParseUint(digits[:end], base, 64)
	if end == 0 {
		mag, err = 0, nil
	}
	outOfRange := err != nil
	switch {
	case unsigned && !outOfRange:
		if neg {
			return -mag
		}
		return mag
	case unsigned:
		p.bashWarn("warning: " + arg + ": Numerical result out of range")
		return math.MaxUint64
	case neg && (outOfRange || mag > 1<<63):
		p.bashWarn("warning: " + arg + ": Numerical result out of range")
		return 1 << 63
	case !neg && (outOfRange || mag > math.MaxInt64):
		p.bashWarn("warning: " + arg + ": Numerical result out of range")
		return math.MaxInt64
	case neg:
		return -mag
	}
	return mag
}

func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

// bashQuote is bash's printf %q: a string with control characters in
// $'...' with C escapes, any other with a backslash before each character
// the shell would read specially (a ~ or # only where it starts a word).
func bashQuote(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7f || (r == utf8.RuneError && size == 1) {
			return bashANSIQuote(s)
		}
		i += size
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(" \t\n'\"\\|&;()<>!{}*[?]^$`,", c) >= 0:
			b.WriteByte('\\')
		case c == '~' && (i == 0 || s[i-1] == '=' || s[i-1] == ':'):
			b.WriteByte('\\')
		case c == '#' && i == 0:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// bashANSIQuote renders s as $'...', as bash's ansic_quote does.
func bashANSIQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		switch {
		case c == '\a':
			b.WriteString(`\a`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\v':
			b.WriteString(`\v`)
		case c == 0x1b:
			b.WriteString(`\E`)
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case r < 0x20 || r == 0x7f || (r == utf8.RuneError && size == 1):
			b.WriteString("\\" + strconv.FormatInt(int64(c)|0o1000, 8)[1:])
			size = 1
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// bashTime is %(fmt)T: the argument is seconds since the epoch (-1 or
// nothing: now; -2: when the shell started, here also now), rendered with
// strftime in the exported TZ. Like bash, a result that does not fit its
// 128-byte buffer is empty.
func (p *printfRun) bashTime(format, arg string) string {
	t := time.Now()
	if arg != "" {
		if secs := int64(p.bashInteger(arg, false)); secs >= 0 {
			t = time.Unix(secs, 0)
		}
	}
	tz := ""
	for _, kv := range p.t.env.Environ {
		if v, ok := strings.CutPrefix(kv, "TZ="); ok {
			tz = v
		}
	}
	if format == "" {
		format = "%X"
	}
	// bash's buffer holds 128 bytes: a wider field gives nothing, and
	// is never built.
	out, err := strftimeGrow(format, t.In(dateZone(tz)), refuseWideFields)
	if err != nil || len(out) >= 128 {
		return ""
	}
	return out
}
