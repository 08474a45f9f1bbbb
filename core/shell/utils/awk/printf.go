package awk

import (
	"math"
	"strconv"
	"strings"
)

// fmtSpec is one parsed conversion: %[flags][width][.prec]verb.
type fmtSpec struct {
	minus, plus, space, hash, zero bool
	width, prec                    int // prec -1: none
	verb                           byte
}

// argSource hands printf its arguments one at a time, evaluating each
// only when a conversion consumes it.
type argSource struct {
	in   *interp
	args []expr
	vals []value
	i    int
}

func (a *argSource) next() (value, bool) {
	if a.vals != nil {
		if a.i >= len(a.vals) {
			return value{}, false
		}
		a.i++
		return a.vals[a.i-1], true
	}
	if a.i >= len(a.args) {
		return value{}, false
	}
	a.i++
	return a.in.eval(a.args[a.i-1]), true
}

// sprintf formats printf's argument list (the format first).
func (in *interp) sprintf(a []expr) string {
	format := in.evalStr(a[0])
	src := &argSource{in: in, args: a[1:]}
	return in.format(format, src)
}

// format renders a printf format as gawk does in the C locale.
func (in *interp) format(format string, src *argSource) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		start := i
		spec, j, ok := in.parseSpec(format, i+1, src)
		if !ok {
			// An unknown conversion is printed as written.
			b.WriteString(format[start:j])
			i = j - 1
			continue
		}
		i = j
		if spec.verb == '%' {
			b.WriteByte('%')
			continue
		}
		v, have := src.next()
		if !have {
			in.fatal("not enough arguments to satisfy format string\n\t`" + format + "'\n\t" + strings.Repeat(" ", j) + "^ ran out for this one")
		}
		b.WriteString(in.convert(spec, v))
		in.checkString(b.Len())
	}
	return b.String()
}

// parseSpec reads flags, width, precision and verb after a '%'. It
// returns the verb's index; ok is false for an unknown verb (then the
// index is where literal copying resumes).
func (in *interp) parseSpec(f string, i int, src *argSource) (fmtSpec, int, bool) {
	s := fmtSpec{prec: -1}
	for ; i < len(f); i++ {
		switch f[i] {
		case '-':
			s.minus = true
		case '+':
			s.plus = true
		case ' ':
			s.space = true
		case '#':
			s.hash = true
		case '0':
			s.zero = true
		case '\'':
		default:
			goto width
		}
	}
width:
	if i < len(f) && f[i] == '*' {
		v, _ := src.next()
		n := v.toNum()
		if n != n { // NaN
			n = 0
		}
		if n < 0 {
			s.minus, n = true, -n
		}
		// A width given by argument meets the same bound as one
		// written in the format: it is a count of padding bytes built
		// whole (printf "%*d", 999999999, 1).
		if n > 1<<20 {
			in.fatal("printf: field width too large")
		}
		s.width = int(n)
		i++
	} else {
		for ; i < len(f) && isDigit(f[i]); i++ {
			s.width = s.width*10 + int(f[i]-'0')
			if s.width > 1<<20 {
				in.fatal("printf: field width too large")
			}
		}
	}
	if i < len(f) && f[i] == '.' {
		i++
		s.prec = 0
		if i < len(f) && f[i] == '*' {
			v, _ := src.next()
			n := v.toNum()
			if n != n { // NaN
				n = 0
			}
			if n > 1<<20 {
				in.fatal("printf: precision too large")
			}
			s.prec = int(n)
			if s.prec < 0 {
				s.prec = -1
			}
			i++
		} else {
			for ; i < len(f) && isDigit(f[i]); i++ {
				s.prec = s.prec*10 + int(f[i]-'0')
				if s.prec > 1<<20 {
					in.fatal("printf: precision too large")
				}
			}
		}
	}
	if i >= len(f) {
		return s, i, false
	}
	s.verb = f[i]
	switch s.verb {
	case 'd', 'i', 'o', 'x', 'X', 'u', 'c', 's', 'e', 'E', 'f', 'F', 'g', 'G', '%', 'a', 'A':
		return s, i, true
	}
	return s, i + 1, false
}

// convert renders one argument.
func (in *interp) convert(s fmtSpec, v value) string {
	switch s.verb {
	case 's':
		str := in.toStr(v)
		if s.prec >= 0 && s.prec < len(str) {
			str = str[:s.prec]
		}
		return pad(str, s.width, s.minus, false, 0)
	case 'c':
		var str string
		if v.k == kNum || v.k == kMaybe && isNumericMaybe(v) {
			str = string([]byte{byte(int64(v.toNum()))})
		} else if t := in.toStr(v); t != "" {
			str = t[:1]
		} else {
			str = "\x00" // gawk prints the string's terminating NUL
		}
		return pad(str, s.width, s.minus, false, 0)
	}
	return formatNumber(s, v.toNum())
}

func isNumericMaybe(v value) bool {
	_, ok := looksNumeric(v.s)
	return ok
}

// formatNumber renders a numeric conversion of n.
func formatNumber(s fmtSpec, n float64) string {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		word := specialString(n)
		if s.verb == 'E' || s.verb == 'F' || s.verb == 'G' || s.verb == 'X' {
			word = strings.ToUpper(word)
		}
		return pad(word, s.width, s.minus, false, 0)
	}
	switch s.verb {
	case 'd', 'i':
		return formatInt(s, n)
	case 'o', 'x', 'X', 'u':
		if n >= 18446744073709551616.0 || n < -9223372036854775808.0 {
			g := s
			g.verb = 'g'
			return formatFloat(g, n)
		}
		return formatUnsigned(s, n)
	}
	return formatFloat(s, n)
}

func formatInt(s fmtSpec, n float64) string {
	n = math.Trunc(n)
	neg := n < 0
	var digits string
	if math.Abs(n) < 1e18 {
		digits = strconv.FormatInt(int64(math.Abs(n)), 10)
	} else {
		digits = strconv.FormatFloat(math.Abs(n), 'f', 0, 64)
	}
	if s.prec >= 0 {
		if s.prec == 0 && n == 0 {
			digits = ""
		}
		for len(digits) < s.prec {
			digits = "0" + digits
		}
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case s.plus:
		sign = "+"
	case s.space:
		sign = " "
	}
	return pad(sign+digits, s.width, s.minus, s.zero && s.prec < 0, len(sign))
}

func formatUnsigned(s fmtSpec, n float64) string {
	var u uint64
	if n < 0 {
		u = uint64(int64(n))
	} else {
		u = uint64(n)
	}
	var digits, prefix string
	switch s.verb {
	case 'o':
		digits = strconv.FormatUint(u, 8)
		if s.hash && digits[0] != '0' {
			digits = "0" + digits
		}
	case 'x':
		digits = strconv.FormatUint(u, 16)
		if s.hash && u != 0 {
			prefix = "0x"
		}
	case 'X':
		digits = strings.ToUpper(strconv.FormatUint(u, 16))
		if s.hash && u != 0 {
			prefix = "0X"
		}
	default:
		digits = strconv.FormatUint(u, 10)
	}
	if s.prec >= 0 {
		if s.prec == 0 && u == 0 {
			digits = ""
		}
		for len(digits) < s.prec {
			digits = "0" + digits
		}
	}
	return pad(prefix+digits, s.width, s.minus, s.zero && s.prec < 0, len(prefix))
}

func formatFloat(s fmtSpec, n float64) string {
	prec := s.prec
	if prec < 0 {
		prec = 6
	}
	var body string
	switch s.verb {
	case 'e', 'E':
		body = strconv.FormatFloat(math.Abs(n), 'e', prec, 64)
		if s.hash && prec == 0 {
			body = strings.Replace(body, "e", ".e", 1)
		}
	case 'f', 'F':
		body = strconv.FormatFloat(math.Abs(n), 'f', prec, 64)
		if s.hash && prec == 0 {
			body += "."
		}
	case 'a', 'A':
		body = strconv.FormatFloat(math.Abs(n), 'x', s.prec, 64)
	default:
		body = formatG(math.Abs(n), prec, s.hash, false)
	}
	if s.verb == 'E' || s.verb == 'G' || s.verb == 'A' {
		body = strings.ToUpper(body)
	}
	sign := ""
	switch {
	case n < 0 || n == 0 && math.Signbit(n):
		sign = "-"
	case s.plus:
		sign = "+"
	case s.space:
		sign = " "
	}
	return pad(sign+body, s.width, s.minus, s.zero, len(sign))
}

// formatG is C's %g: %e when the exponent is below -4 or at least the
// precision, else %f; trailing zeros go unless '#'.
func formatG(n float64, prec int, hash, _ bool) string {
	if prec == 0 {
		prec = 1
	}
	neg := n < 0
	if neg {
		n = -n
	}
	e := strconv.FormatFloat(n, 'e', prec-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	var out string
	if exp < -4 || exp >= prec {
		out = e
		if !hash {
			mant, rest := e[:strings.IndexByte(e, 'e')], e[strings.IndexByte(e, 'e'):]
			out = trimZeros(mant) + rest
		}
	} else {
		out = strconv.FormatFloat(n, 'f', prec-1-exp, 64)
		if !hash {
			out = trimZeros(out)
		}
	}
	if neg {
		return "-" + out
	}
	return out
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// pad applies a width: spaces on the left (or right with '-'), or zeros
// after the sign or prefix of signLen bytes.
func pad(s string, width int, left, zero bool, signLen int) string {
	if len(s) >= width {
		return s
	}
	fill := width - len(s)
	switch {
	case left:
		return s + strings.Repeat(" ", fill)
	case zero:
		return s[:signLen] + strings.Repeat("0", fill) + s[signLen:]
	}
	return strings.Repeat(" ", fill) + s
}

// sprintfNum formats one number with a CONVFMT/OFMT format.
func sprintfNum(format string, n float64) (out string) {
	in := &interp{ofmt: "%.6g", convfmt: "%.6g", memLimit: defaultMemLimit}
	src := &argSource{in: in, vals: []value{num(n)}}
	defer func() {
		if recover() != nil {
			out = format
		}
	}()
	return in.format(format, src)
}
