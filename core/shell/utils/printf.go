package utils

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

const printfHelp = `Usage: printf FORMAT [ARGUMENT]...
  or:  printf OPTION
Print ARGUMENT(s) according to FORMAT, or execute according to OPTION:

      --help        display this help and exit
      --version     output version information and exit

FORMAT controls the output as in C printf.  Interpreted sequences are:

  \"      double quote
  \\      backslash
  \a      alert (BEL)
  \b      backspace
  \c      produce no further output
  \e      escape
  \f      form feed
  \n      new line
  \r      carriage return
  \t      horizontal tab
  \v      vertical tab
  \NNN    byte with octal value NNN (1 to 3 digits)
  \xHH    byte with hexadecimal value HH (1 to 2 digits)
  \uHHHH  Unicode (ISO/IEC 10646) character with hex value HHHH (4 digits)
  \UHHHHHHHH  Unicode character with hex value HHHHHHHH (8 digits)
  %%      a single %
  %b      ARGUMENT as a string with '\' escapes interpreted,
          except that octal escapes are of the form \0 or \0NNN
  %q      ARGUMENT is printed in a format that can be reused as shell input,
          escaping non-printable characters with the proposed POSIX $'' syntax.

and all C format specifications ending with one of diouxXfeEgGcs, with
ARGUMENTs converted to proper type first.  Variable widths are handled.
`

const echoHelp = `Usage: echo [SHORT-OPTION]... [STRING]...
  or:  echo LONG-OPTION
Echo the STRING(s) to standard output.

  -n             do not output the trailing newline
  -e             enable interpretation of backslash escapes
  -E             disable interpretation of backslash escapes (default)
      --help     display this help and exit
      --version  output version information and exit

If -e is in effect, the following sequences are recognized:

  \\      backslash
  \a      alert (BEL)
  \b      backspace
  \c      produce no further output
  \e      escape
  \f      form feed
  \n      new line
  \r      carriage return
  \t      horizontal tab
  \v      vertical tab
  \0NNN   byte with octal value NNN (1 to 3 digits)
  \xHH    byte with hexadecimal value HH (1 to 2 digits)
`

// printfUtility makes the printf utility (see builtins).
//
// printf and echo are the coreutils programs xargs and find -exec run; a
// line's plain printf or echo is the shell's builtin. Neither names paths.
func printfUtility(string) *Utility {
	return &Utility{Name: "printf", Run: runPrintf, OperandExit: 1, Help: printfHelp}
}

// echoUtility makes the echo utility (see builtins).
func echoUtility(string) *Utility {
	return &Utility{Name: "echo", Run: runEcho, OperandExit: 1, Help: echoHelp}
}

func runPrintf(e *Env) (int, error) {
	t := newTool(e, "printf", printfHelp, 1)
	args := e.Args[1:]
	if e.Builtin {
		return runBashPrintf(t, args)
	}
	if len(args) == 1 && args[0] == "--help" {
		t.writeString(printfHelp)
		return t.end(0)
	}
	if len(args) == 1 && args[0] == "--version" {
		t.writeString("printf (GNU coreutils) 9.4\n")
		return t.end(0)
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return t.end(t.usage("missing operand"))
	}
	p := &printfRun{t: t}
	format, rest := args[0], args[1:]
	for {
		used := p.formatOnce(format, rest)
		if p.stop {
			break
		}
		rest = rest[used:]
		if len(rest) == 0 {
			break
		}
		if used == 0 {
			t.warn("warning: ignoring excess arguments, starting with " + quoteAlways(rest[0]))
			break
		}
	}
	return t.end(p.status)
}

type printfRun struct {
	t      *tool
	status int
	stop   bool // \c was met
	bash   bool // the shell's builtin, not coreutils' printf
}

// runBashPrintf is bash's printf builtin (printf -v is the shell's).
func runBashPrintf(t *tool, args []string) (int, error) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		io.WriteString(t.env.Stderr, "bash: printf: "+args[0][:2]+": invalid option\n"+bashPrintfUsage)
		return t.end(2)
	}
	if len(args) == 0 {
		io.WriteString(t.env.Stderr, bashPrintfUsage)
		return t.end(2)
	}
	p := &printfRun{t: t, bash: true}
	format, rest := args[0], args[1:]
	for {
		used := p.formatOnce(format, rest)
		rest = rest[used:]
		if p.stop || used == 0 || len(rest) == 0 {
			break
		}
	}
	return t.end(p.status)
}

// formatOnce prints format once and returns how many args it used.
func (p *printfRun) formatOnce(format string, args []string) int {
	used := 0
	next := func() (string, bool) {
		if used < len(args) {
			used++
			return args[used-1], true
		}
		return "", false
	}
	var out strings.Builder
	defer func() { p.t.writeString(out.String()) }()
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\':
			text, n, stop := printfEscape(format[i:], octalFormat)
			out.WriteString(text)
			i += n - 1
			if stop {
				p.stop = true
				return used
			}
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			out.WriteByte('%')
			i++
		case c == '%':
			n, ok := p.conversion(&out, format[i:], next)
			if !ok {
				p.status = 1
				p.stop = true
				return used
			}
			i += n - 1
			if p.stop {
				return used
			}
		default:
			out.WriteByte(c)
		}
	}
	return used
}

// conversion handles one %... directive at the start of spec and returns
// its length.
func (p *printfRun) conversion(out *strings.Builder, spec string, next func() (string, bool)) (int, bool) {
	i := 1
	flags := ""
	for i < len(spec) && strings.IndexByte("-+ #0'", spec[i]) >= 0 {
		if spec[i] != '\'' {
			flags += string(spec[i])
		}
		i++
	}
	width, prec := "", ""
	hasPrec := false
	readNum := func() string {
		if i < len(spec) && spec[i] == '*' {
			i++
			arg, _ := next()
			return strconv.FormatInt(p.signed(arg), 10)
		}
		start := i
		for i < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
			i++
		}
		return spec[start:i]
	}
	width = readNum()
	if strings.HasPrefix(width, "-") {
		flags += "-"
		width = width[1:]
	}
	if w, err := strconv.ParseInt(width, 10, 64); (err == nil && w > 1<<16) || len(width) > 18 {
		// A padded field is built whole: `printf '%*s' 2000000000 x`
		// must ask the line's memory budget first (G-12.3).
		if err != nil {
			w = math.MaxInt64
		}
		if merr := p.t.env.Grow(w); merr != nil {
			p.stop, p.status = true, 1
			return i, false
		}
	}
	if i < len(spec) && spec[i] == '.' {
		i++
		hasPrec = true
		prec = readNum()
		if strings.HasPrefix(prec, "-") {
			hasPrec, prec = false, ""
		}
	}
	for i < len(spec) && strings.IndexByte("hlLjzt", spec[i]) >= 0 {
		i++
	}
	timeFormat, hasTime := "", false
	if p.bash && i < len(spec) && spec[i] == '(' {
		// %(fmt)T: strftime's format in parentheses.
		end := strings.IndexByte(spec[i:], ')')
		if end < 0 || i+end+1 >= len(spec) || spec[i+end+1] != 'T' {
			p.bashWarn("`(': invalid format character")
			return len(spec), false
		}
		timeFormat, hasTime = spec[i+1:i+end], true
		i += end + 1
	}
	if i >= len(spec) {
		if p.bash {
			p.bashWarn("`" + spec + "': missing format character")
		} else {
			p.t.warn(quoteAlways(spec) + ": missing conversion specifier")
		}
		return i, false
	}
	verb := spec[i]
	i++
	// Go's fmt refuses widths past a million (%!(NOVERB)): a wider
	// number is formatted bare and padded here, under the budget asked
	// above.
	numWidth := 0
	if w, err := strconv.Atoi(width); err == nil && w > 1<<16 && strings.IndexByte("diouxXfFeEgG", verb) >= 0 {
		numWidth, width = w, ""
	}
	goSpec := "%" + flags + width
	if hasPrec {
		goSpec += "." + prec
		if prec == "" {
			goSpec += "0"
		}
	}
	arg, _ := next()
	start := out.Len()
	switch verb {
	case 'd', 'i', 'o', 'u', 'x', 'X', 'f', 'F', 'e', 'E', 'g', 'G':
		p.number(out, verb, goSpec, hasPrec, arg)
	case 'c':
		s := ""
		if arg != "" {
			s = arg[:1]
		} else if p.bash {
			s = "\x00" // bash's %c of nothing is a NUL byte
		}
		out.WriteString(printfPad(s, flags, width, "", false))
	case 's':
		out.WriteString(printfPad(arg, flags, width, prec, hasPrec))
	case 'T':
		if !hasTime {
			if p.bash {
				p.bashWarn("`T': invalid format character")
			} else {
				p.t.warn(spec[:i] + ": invalid conversion specification")
			}
			return i, false
		}
		out.WriteString(printfPad(p.bashTime(timeFormat, arg), flags, width, prec, hasPrec))
	case 'b':
		style := octalZero
		if p.bash {
			style = octalBash
		}
		text, stop := printfEscapes(arg, style)
		out.WriteString(printfPad(text, flags, width, prec, hasPrec))
		if stop {
			p.stop = true
		}
	case 'q':
		if p.bash {
			out.WriteString(printfPad(bashQuote(arg), flags, width, "", false))
			break
		}
		out.WriteString(printfPad(quoteIfNeeded(arg), flags, width, "", false))
	default:
		if p.bash {
			p.bashWarn("`" + string(verb) + "': invalid format character")
			return i, false
		}
		p.t.warn(spec[:i] + ": invalid conversion specification")
		return i, false
	}
	if numWidth > 0 {
		padWide(out, start, flags, numWidth, hasPrec && strings.IndexByte("diouxX", verb) >= 0)
	}
	return i, true
}

// number writes a numeric conversion of arg with Go's fmt, spelled goSpec
// without its verb.
func (p *printfRun) number(out *strings.Builder, verb byte, goSpec string, hasPrec bool, arg string) {
	switch verb {
	case 'd', 'i':
		out.WriteString(fmt.Sprintf(goSpec+"d", p.signed(arg)))
	case 'o', 'u', 'x', 'X':
		// Negative values wrap around as C's unsigned conversions do.
		var v uint64
		if p.bash {
			v = p.bashInteger(arg, true)
		} else {
			v = uint64(p.integer(arg))
		}
		if v == 0 && verb != 'o' {
			goSpec = strings.Replace(goSpec, "#", "", 1) // C's %#x of 0 is 0
		}
		goVerb := string(verb)
		if verb == 'u' {
			goVerb = "d"
		}
		out.WriteString(fmt.Sprintf(goSpec+goVerb, v))
	default:
		if !hasPrec {
			goSpec += ".6"
		}
		out.WriteString(printfFloat(fmt.Sprintf(goSpec+string(verb), p.float(arg))))
	}
}

// signed converts a signed integer argument, as bash or coreutils does.
func (p *printfRun) signed(arg string) int64 {
	if p.bash {
		return int64(p.bashInteger(arg, false))
	}
	return p.integer(arg)
}

// padWide pads the number written to out from start to width, as C's
// printf does: spaces before it, zeros after its sign or 0x with the 0
// flag (not for an integer with a precision), spaces after it with -.
func padWide(out *strings.Builder, start int, flags string, width int, intPrec bool) {
	text := out.String()[start:]
	if len(text) >= width {
		return
	}
	fill := width - len(text)
	head := out.String()[:start]
	out.Reset()
	out.Grow(len(head) + width)
	out.WriteString(head)
	switch {
	case strings.Contains(flags, "-"):
		out.WriteString(text)
		out.WriteString(strings.Repeat(" ", fill))
	case strings.Contains(flags, "0") && !intPrec && !strings.ContainsAny(text, "IN"):
		sign := 0
		if len(text) > 0 && strings.IndexByte("+- ", text[0]) >= 0 {
			sign = 1
		}
		if len(text) > sign+1 && text[sign] == '0' && (text[sign+1] == 'x' || text[sign+1] == 'X') {
			sign += 2
		}
		out.WriteString(text[:sign])
		out.WriteString(strings.Repeat("0", fill))
		out.WriteString(text[sign:])
	default:
		out.WriteString(strings.Repeat(" ", fill))
		out.WriteString(text)
	}
}

// printfPad applies a string conversion's precision and width in bytes,
// as C's printf does (Go's fmt would count runes).
func printfPad(s, flags, width, prec string, hasPrec bool) string {
	if hasPrec {
		n, _ := strconv.Atoi(prec)
		if n < len(s) {
			s = s[:n]
		}
	}
	w, _ := strconv.Atoi(width)
	if len(s) >= w {
		return s
	}
	fill := strings.Repeat(" ", w-len(s))
	if strings.Contains(flags, "-") {
		return s + fill
	}
	return fill + s
}

// printfFloat spells Go's infinities and NaN as C does.
func printfFloat(s string) string {
	r := strings.NewReplacer("+Inf", "inf", "-Inf", "-inf", "Inf", "inf", "NaN", "nan")
	if strings.ContainsAny(s, "IN") {
		s = r.Replace(s)
	}
	return s
}

// numericOperand reads what every printf number starts with: leading
// blanks are skipped, and an operand that opens with a quote stands for
// the code of the character after it (0 when there is none).
func numericOperand(arg string) (s string, code rune, quoted bool) {
	s = strings.TrimLeft(arg, " \t\n")
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return s, 0, false
	}
	if len(s) > 1 {
		code, _ = utf8.DecodeRuneInString(s[1:])
	}
	return s, code, true
}

// integer converts a numeric argument as printf does: 'c gives the
// character's code, 0x and 0 prefixes give hex and octal.
func (p *printfRun) integer(arg string) int64 {
	s, code, quoted := numericOperand(arg)
	if quoted || s == "" {
		return int64(code)
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err == nil {
		return v
	}
	if u, uerr := strconv.ParseUint(s, 0, 64); uerr == nil {
		return int64(u)
	}
	var ne *strconv.NumError
	if e, ok := err.(*strconv.NumError); ok {
		ne = e
	}
	if ne != nil && ne.Err == strconv.ErrRange {
		p.t.warn(quoteAlways(arg) + ": Numerical result out of range")
		p.status = 1
		if strings.HasPrefix(s, "-") {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	// Convert the longest numeric prefix, as strtoimax does.
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	prefix, _ := strconv.ParseInt(s[:end], 10, 64)
	if end == 0 || (end == 1 && (s[0] == '-' || s[0] == '+')) {
		p.t.warn(quoteAlways(arg) + ": expected a numeric value")
	} else {
		p.t.warn(quoteAlways(arg) + ": value not completely converted")
	}
	p.status = 1
	return prefix
}

func (p *printfRun) float(arg string) float64 {
	s := strings.TrimSpace(arg)
	if s == "" {
		return 0
	}
	if s[0] == '\'' || s[0] == '"' {
		return float64(p.integer(arg))
	}
	v, err := strconv.ParseFloat(s, 64)
	if err == nil {
		return v
	}
	if iv, ierr := strconv.ParseInt(s, 0, 64); ierr == nil {
		return float64(iv)
	}
	if p.bash {
		p.bashWarn(arg + ": invalid number")
	} else {
		p.t.warn(quoteAlways(arg) + ": expected a numeric value")
	}
	p.status = 1
	// Convert the longest prefix that reads as a number, as strtod does.
	// It ends within the run of characters a number is made of, at most a
	// few characters (an exponent's e and sign) before the run's end.
	run := len(s)
	if k := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789+-.eE", r) }); k >= 0 {
		run = k
	}
	for end := run; end > 0 && end >= run-3; end-- {
		if v, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return v
		}
	}
	return 0
}

// octalStyle is how a backslash sequence spells an octal byte.
type octalStyle int

const (
	octalFormat octalStyle = iota // printf's FORMAT: \NNN, one to three digits
	octalZero                     // coreutils' %b and echo -e: \0NNN only
	octalBash                     // bash's %b: \0NNN or \NNN
)

// printfEscape decodes one backslash sequence of a FORMAT at s[0]; it
// returns the text, the length consumed, and whether it was \c.
func printfEscape(s string, octal octalStyle) (string, int, bool) {
	if len(s) < 2 {
		return "\\", 1, false
	}
	c := s[1]
	switch c {
	case '"':
		return "\"", 2, false
	case '\\':
		return "\\", 2, false
	case 'a':
		return "\a", 2, false
	case 'b':
		return "\b", 2, false
	case 'c':
		return "", 2, true
	case 'e':
		return "\x1b", 2, false
	case 'f':
		return "\f", 2, false
	case 'n':
		return "\n", 2, false
	case 'r':
		return "\r", 2, false
	case 't':
		return "\t", 2, false
	case 'v':
		return "\v", 2, false
	case 'x':
		n, v := 2, 0
		for n < 4 && n < len(s) && isHexDigit(s[n]) {
			v = v*16 + hexValue(s[n])
			n++
		}
		if n == 2 {
			return "\\x", 2, false
		}
		return string([]byte{byte(v)}), n, false
	case 'u', 'U':
		want := 4
		if c == 'U' {
			want = 8
		}
		n, v := 2, 0
		for n < 2+want && n < len(s) && isHexDigit(s[n]) {
			v = v*16 + hexValue(s[n])
			n++
		}
		if n == 2 {
			return "\\" + string(c), 2, false
		}
		return string(rune(v)), n, false
	}
	if c >= '0' && c <= '7' {
		n, v, limit := 1, 0, 3
		if octal != octalFormat {
			// %b and echo -e: \0NNN, up to three digits after the zero;
			// bash's %b also takes \NNN.
			if c == '0' {
				n, limit = 2, 3
			} else if octal == octalZero {
				return "\\" + string(c), 2, false
			}
		}
		start := n
		for n < start+limit && n < len(s) && s[n] >= '0' && s[n] <= '7' {
			v = v*8 + int(s[n]-'0')
			n++
		}
		return string([]byte{byte(v)}), n, false
	}
	return "\\" + string(c), 2, false
}

// printfEscapes decodes a whole %b argument or echo -e string; stop is
// true after \c.
func printfEscapes(s string, octal octalStyle) (string, bool) {
	if !strings.Contains(s, "\\") {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		text, n, stop := printfEscape(s[i:], octal)
		if stop {
			return b.String(), true
		}
		b.WriteString(text)
		i += n - 1
	}
	return b.String(), false
}

func isHexDigit(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

func runEcho(e *Env) (int, error) {
	t := newTool(e, "echo", echoHelp, 1)
	args := e.Args[1:]
	if len(args) == 1 && args[0] == "--help" {
		t.writeString(echoHelp)
		return t.end(0)
	}
	if len(args) == 1 && args[0] == "--version" {
		t.writeString("echo (GNU coreutils) 9.4\n")
		return t.end(0)
	}
	newline, escapes := true, false
	for len(args) > 0 && echoIsOption(args[0]) {
		for _, c := range args[0][1:] {
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
	text := strings.Join(args, " ")
	if escapes {
		var stop bool
		text, stop = printfEscapes(text, octalZero)
		if stop {
			newline = false
		}
	}
	if newline {
		text += "\n"
	}
	t.writeString(text)
	return t.end(0)
}

// echoIsOption reports an argument echo reads as options: a dash and
// then only n, e and E.
func echoIsOption(arg string) bool {
	if len(arg) < 2 || arg[0] != '-' {
		return false
	}
	for _, c := range arg[1:] {
		if c != 'n' && c != 'e' && c != 'E' {
			return false
		}
	}
	return true
}
