package utils

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

const seqHelp = `Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

Mandatory arguments to long options are mandatory for short options too.
  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help        display this help and exit
      --version     output version information and exit

If FIRST or INCREMENT is omitted, it defaults to 1.  That is, an
omitted INCREMENT defaults to 1 even when LAST is smaller than FIRST.
The sequence of numbers ends when the sum of the current number and
INCREMENT would become greater than LAST.
FIRST, INCREMENT, and LAST are interpreted as floating point values.
INCREMENT is usually positive if FIRST is smaller than LAST, and
INCREMENT is usually negative if FIRST is greater than LAST.
INCREMENT must not be 0; none of FIRST, INCREMENT and LAST may be NaN.
FORMAT must be suitable for printing one argument of type 'double';
it defaults to %.PRECf if FIRST, INCREMENT, and LAST are all fixed point
decimal numbers with maximum precision PREC, and to %g otherwise.
`

var seqOpts = []optDef{
	{short: 'f', long: "format", arg: needArg},
	{short: 's', long: "separator", arg: needArg},
	{short: 'w', long: "equal-width"},
}

// seqUtility makes the seq utility (see builtins).
func seqUtility(string) *Utility {
	return &Utility{Name: "seq", Run: runSeq, OperandExit: 1, Help: seqHelp}
}

// seqNumber is one parsed operand with the precision it was written in.
type seqNumber struct {
	value     float64
	text      string
	precision int  // digits after the point
	exponent  bool // written with an exponent: print with %g
	integer   bool
}

func parseSeqNumber(s string) (seqNumber, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || strings.ContainsAny(s, "xX_") {
		return seqNumber{}, false
	}
	n := seqNumber{value: v, text: s}
	mant := s
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		n.exponent, mant = true, s[:i]
	}
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		n.precision = len(mant) - i - 1
	}
	n.integer = !n.exponent && n.precision == 0 && !strings.ContainsAny(s, "iInN")
	return n, true
}

func runSeq(e *Env) (int, error) {
	// Negative numbers are operands, not options: stop at the first
	// argument that parses as a number.
	argv := seqProtectNegatives(e.Args)
	t, args, status, done := begin(&Env{Ctx: e.Ctx, Args: argv, Stdin: e.Stdin, Stdout: e.Stdout, Stderr: e.Stderr}, spec{name: "seq", defs: seqOpts, usageExit: 1, help: seqHelp})
	if done {
		return status, nil
	}
	format, sep, equal := "", "\n", false
	for _, o := range args.opts {
		switch o.name {
		case "format":
			format = o.value
		case "separator":
			sep = o.value
		case "equal-width":
			equal = true
		}
	}
	ops := args.operandStrings(argv)
	switch {
	case len(ops) == 0:
		return t.end(t.usage("missing operand"))
	case len(ops) > 3:
		return t.end(t.usage("extra operand " + quoteAlways(ops[3])))
	}
	nums := make([]seqNumber, len(ops))
	for i, op := range ops {
		n, ok := parseSeqNumber(op)
		if !ok {
			return t.end(t.usage("invalid floating point argument: " + quoteAlways(op)))
		}
		nums[i] = n
	}
	one := seqNumber{value: 1, text: "1", integer: true}
	first, step, last := one, one, nums[len(nums)-1]
	if len(nums) >= 2 {
		first = nums[0]
	}
	if len(nums) == 3 {
		step = nums[1]
	}
	if step.value == 0 {
		return t.end(t.usage("invalid Zero increment value: " + quoteAlways(step.text)))
	}
	if format != "" {
		if msg := seqCheckFormat(format); msg != "" {
			t.warn(msg)
			return t.end(1)
		}
		if equal {
			return t.end(t.usage("format string may not be specified when printing equal width strings"))
		}
	}
	if format == "" && first.integer && step.integer && last.integer &&
		math.Abs(first.value) < 1e15 && math.Abs(step.value) < 1e15 && math.Abs(last.value) < 1e15 {
		return t.end(seqIntegers(t, int64(first.value), int64(step.value), int64(last.value), sep, equal))
	}
	render := func(v float64) string {
		if format != "" {
			return seqFormat(format, v)
		}
		if first.exponent || step.exponent || last.exponent {
			return printfFloat(fmt.Sprintf("%g", v))
		}
		return strconv.FormatFloat(v, 'f', max(first.precision, step.precision), 64)
	}
	width := 0
	if equal {
		width = max(len(render(first.value)), len(render(last.value)))
	}
	// Fixed-point operands step in exact decimal, so 0.1 0.1 0.3 reaches
	// 0.3 as GNU's long doubles do.
	value := func(i int) float64 { return first.value + float64(i)*step.value }
	if format == "" && !first.exponent && !step.exponent && !last.exponent {
		scale := math.Pow10(max(first.precision, step.precision, last.precision))
		f, s, l := math.Round(first.value*scale), math.Round(step.value*scale), math.Round(last.value*scale)
		if math.Abs(f)+math.Abs(l) < 1e15 {
			value = func(i int) float64 {
				v := f + float64(i)*s
				if (s > 0 && v > l) || (s < 0 && v < l) {
					return math.Inf(int(s))
				}
				return v / scale
			}
		}
	}
	var b strings.Builder
	printed := false
	for i := 0; ; i++ {
		v := value(i)
		if math.IsInf(v, 0) || (step.value > 0 && v > last.value) || (step.value < 0 && v < last.value) {
			break
		}
		if printed {
			b.WriteString(sep)
		}
		printed = true
		b.WriteString(zeroPadNumber(render(v), width))
		if b.Len() > 32*1024 {
			if !t.writeString(b.String()) || t.stopped() {
				return t.end(1)
			}
			b.Reset()
		}
	}
	if printed {
		b.WriteByte('\n')
	}
	t.writeString(b.String())
	return t.end(0)
}

// seqIntegers is the fast path for whole numbers (seq 1 1000000).
func seqIntegers(t *tool, first, step, last int64, sep string, equal bool) int {
	width := 0
	if equal {
		width = max(len(strconv.FormatInt(first, 10)), len(strconv.FormatInt(last, 10)))
	}
	buf := make([]byte, 0, 64*1024)
	printed := false
	for v := first; (step > 0 && v <= last) || (step < 0 && v >= last); v += step {
		if printed {
			buf = append(buf, sep...)
		}
		printed = true
		if width > 0 {
			buf = append(buf, zeroPadNumber(strconv.FormatInt(v, 10), width)...)
		} else {
			buf = strconv.AppendInt(buf, v, 10)
		}
		if len(buf) > 60*1024 {
			if !t.write(buf) || t.ctx.Err() != nil {
				return 1
			}
			buf = buf[:0]
		}
	}
	if printed {
		buf = append(buf, '\n')
	}
	if !t.write(buf) {
		return 1
	}
	return 0
}

// zeroPadNumber pads a number with zeros after any sign, to width
// (seq -w, numfmt --format=%0N).
func zeroPadNumber(s string, width int) string {
	if len(s) >= width {
		return s
	}
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	return sign + strings.Repeat("0", width-len(s)-len(sign)) + s
}

// seqCheckFormat accepts a FORMAT with exactly one floating conversion.
func seqCheckFormat(format string) string {
	count := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			i++
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0'.123456789", format[j]) >= 0 {
			j++
		}
		if j < len(format) && format[j] == 'L' {
			j++
		}
		if j >= len(format) || strings.IndexByte("aAeEfFgG", format[j]) < 0 {
			return "format " + quoteAlways(format) + " has unknown %" + format[j:min(j+1, len(format))] + " directive"
		}
		count++
		i = j
	}
	switch {
	case count == 0:
		return "format " + quoteAlways(format) + " has no % directive"
	case count > 1:
		return "format " + quoteAlways(format) + " has too many % directives"
	}
	return ""
}

// seqFormat renders one value with a checked FORMAT.
func seqFormat(format string, v float64) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for strings.IndexByte("aAeEfFgG", format[j]) < 0 {
			j++
		}
		spec := strings.ReplaceAll(strings.ReplaceAll(format[i:j], "L", ""), "'", "")
		if !strings.Contains(spec, ".") {
			spec += ".6"
		}
		verb := format[j]
		if verb == 'a' || verb == 'A' {
			verb = 'g'
		}
		b.WriteString(printfFloat(fmt.Sprintf(spec+string(verb), v)))
		i = j
	}
	return b.String()
}

// seqProtectNegatives inserts "--" before the first operand that looks
// like a negative number, so "seq -5 -1 -10" reads as numbers.
func seqProtectNegatives(argv []string) []string {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			return argv
		}
		if len(a) > 1 && a[0] == '-' && (a[1] == '.' || (a[1] >= '0' && a[1] <= '9')) {
			out := append([]string{}, argv[:i]...)
			out = append(out, "--")
			return append(out, argv[i:]...)
		}
		if a == "-f" || a == "-s" || a == "--format" || a == "--separator" {
			i++
		}
	}
	return argv
}
