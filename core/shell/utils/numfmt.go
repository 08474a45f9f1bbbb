package utils

import (
	"bufio"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
)

const numfmtHelp = `Usage: numfmt [OPTION]... [NUMBER]...
Reformat NUMBER(s), or the numbers from standard input if none are specified.

Mandatory arguments to long options are mandatory for short options too.
      --debug          print warnings about invalid input
  -d, --delimiter=X    use X instead of whitespace for field delimiter
      --field=FIELDS   replace the numbers in these input fields (default=1);
                         see FIELDS below
      --format=FORMAT  use printf style floating-point FORMAT;
                         see FORMAT below for details
      --from=UNIT      auto-scale input numbers to UNITs; default is 'none';
                         see UNIT below
      --from-unit=N    specify the input unit size (instead of the default 1)
      --grouping       use locale-defined grouping of digits, e.g. 1,000,000
                         (which means it has no effect in the C/POSIX locale)
      --header[=N]     print (without converting) the first N header lines;
                         N defaults to 1 if not specified
      --invalid=MODE   failure mode for invalid numbers: MODE can be:
                         abort (default), fail, warn, ignore
      --padding=N      pad the output to N characters; positive N will
                         right-align; negative N will left-align;
                         padding is ignored if the output is wider than N;
                         the default is to automatically pad if a whitespace
                         is found
      --round=METHOD   use METHOD for rounding when scaling; METHOD can be:
                         up, down, from-zero (default), towards-zero, nearest
      --suffix=SUFFIX  add SUFFIX to output numbers, and accept optional
                         SUFFIX in input numbers
      --to=UNIT        auto-scale output numbers to UNITs; see UNIT below
      --to-unit=N      the output unit size (instead of the default 1)
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

UNIT options:
  none       no auto-scaling is done; suffixes will trigger an error
  auto       accept optional single/two letter suffix:
               1K = 1000,
               1Ki = 1024,
               1M = 1000000,
               1Mi = 1048576,
  si         accept optional single letter suffix:
               1K = 1000,
               1M = 1000000,
               ...
  iec        accept optional single letter suffix:
               1K = 1024,
               1M = 1048576,
               ...
  iec-i      accept optional two-letter suffix:
               1Ki = 1024,
               1Mi = 1048576,
               ...

FIELDS supports cut(1) style field ranges:
  N    N'th field, counted from 1
  N-   from N'th field, to end of line
  N-M  from N'th to M'th field (inclusive)
  -M   from first to M'th field (inclusive)
  -    all fields
Multiple fields/ranges can be separated with commas

FORMAT must be suitable for printing one floating-point argument '%f'.
Optional quote (%'f) will enable --grouping (if supported by current locale).
Optional width value (%10f) will pad output. Optional zero (%010f) width
will zero pad the number. Optional negative values (%-10f) will left align.
Optional precision (%.1f) will override the input determined precision.

Exit status is 0 if all input numbers were successfully converted.
By default, numfmt will stop at the first conversion error with exit status 2.
With --invalid='fail' a warning is printed for each conversion error
and the exit status is 2.  With --invalid='warn' each conversion error is
diagnosed, but the exit status is 0.  With --invalid='ignore' conversion
errors are not diagnosed and the exit status is 0.

Examples:
  $ numfmt --to=si 1000
            -> "1.0K"
  $ numfmt --to=iec 2048
           -> "2.0K"
  $ numfmt --to=iec-i 4096
           -> "4.0Ki"
  $ echo 1K | numfmt --from=si
           -> "1000"
  $ echo 1K | numfmt --from=iec
           -> "1024"
  $ df -B1 | numfmt --header --field 2-4 --to=si
  $ ls -l  | numfmt --header --field 5 --to=iec
  $ ls -lh | numfmt --header --field 5 --from=iec --padding=10
  $ ls -lh | numfmt --header --field 5 --from=iec --format %10f
`

var numfmtOpts = []optDef{
	{long: "debug"},
	{short: 'd', long: "delimiter", arg: needArg},
	{long: "field", arg: needArg},
	{long: "format", arg: needArg},
	{long: "from", arg: needArg},
	{long: "from-unit", arg: needArg},
	{long: "grouping"},
	{long: "header", arg: maybeArg},
	{long: "invalid", arg: needArg},
	{long: "padding", arg: needArg},
	{long: "round", arg: needArg},
	{long: "suffix", arg: needArg},
	{long: "to", arg: needArg},
	{long: "to-unit", arg: needArg},
	{short: 'z', long: "zero-terminated"},
}

// numfmtUtility makes the numfmt utility (see builtins). It reads only its
// operands and standard input: no path operands.
func numfmtUtility(string) *Utility {
	return &Utility{Name: "numfmt", Run: runNumfmt, OperandExit: 1, Help: numfmtHelp}
}

// numfmt computes as GNU's does, in long double: numbers are big.Floats
// of 64 bits of mantissa (x87's extended precision), so rounding at the
// edges (1.15 * 100, 27-digit inputs) comes out the same.
const numfmtPrec = 64

func nfNew(x float64) *big.Float { return new(big.Float).SetPrec(numfmtPrec).SetFloat64(x) }

func nfMul(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(numfmtPrec).Mul(a, b) }

func nfQuo(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(numfmtPrec).Quo(a, b) }

func nfAdd(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(numfmtPrec).Add(a, b) }

// nfPow is base**n by repeated multiplication, as numfmt's powerld.
func nfPow(base float64, n int) *big.Float {
	r, b := nfNew(1), nfNew(base)
	for range n {
		r = nfMul(r, b)
	}
	return r
}

// nfExp divides val by base until it is below base, counting the steps.
func nfExp(val *big.Float, base float64) (*big.Float, int) {
	b, power := nfNew(base), 0
	for new(big.Float).Abs(val).Cmp(b) >= 0 {
		val = nfQuo(val, b)
		power++
	}
	return val, power
}

type numfmtConfig struct {
	from, to        string // none auto si iec iec-i
	fromUnit        *big.Float
	toUnit          *big.Float
	round           string
	invalid         string
	padding         int
	left            bool // padding aligns left
	autoPad         bool
	zeroPad         int
	precision       int // the format's, -1 for none
	suffix          string
	prefix, fsuffix string // around the format's directive
	delim           int    // -1: whitespace
	fields          []cutRange
	header          int
	lineEnd         byte
}

// numfmtError is a conversion failure: its message ("" for none); fatal
// ends numfmt at once with status 1, whatever --invalid says.
type numfmtError struct {
	msg   string
	fatal bool
}

func runNumfmt(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "numfmt", defs: numfmtOpts, usageExit: 1, help: numfmtHelp})
	if done {
		return status, nil
	}
	cfg, ok := numfmtConfigure(t, args)
	if !ok {
		return t.end(1)
	}
	nf := &numfmtRun{t: t, cfg: cfg}
	operands := args.operandStrings(e.Args)
	if len(operands) > 0 {
		for _, op := range operands {
			if !nf.line(op, true) || t.stopped() {
				break
			}
		}
	} else {
		nf.stream(t.stdin())
	}
	if nf.died {
		return t.end(1)
	}
	if nf.aborted {
		return t.end(2)
	}
	if nf.failed && cfg.invalid == "fail" {
		return t.end(2)
	}
	return t.end(0)
}

// numfmtChoice is XARGMATCH's complaint about an argument not in choices.
func numfmtChoice(t *tool, opt, value string, choices []string) bool {
	for _, c := range choices {
		if c == value {
			return true
		}
	}
	msg := "invalid argument " + quoteLocale(value) + " for " + quoteLocale("--"+opt) + "\nValid arguments are:\n"
	for _, c := range choices {
		msg += "  - " + quoteLocale(c) + "\n"
	}
	t.flush()
	if t.env.Stderr != nil {
		io.WriteString(t.env.Stderr, "numfmt: "+msg+"Try 'numfmt --help' for more information.\n")
	}
	return false
}

// numfmtConfigure reads the options as numfmt's main does, complaining as
// it does; false means exit 1.
func numfmtConfigure(t *tool, args *parsedArgs) (*numfmtConfig, bool) {
	cfg := &numfmtConfig{from: "none", to: "none", fromUnit: nfNew(1), toUnit: nfNew(1), round: "from-zero",
		invalid: "abort", precision: -1, delim: -1, fields: []cutRange{{1, 1}}, lineEnd: '\n'}
	format, grouping, fieldsSet := "", false, false
	units := []string{"none", "auto", "si", "iec", "iec-i"}
	for _, o := range args.opts {
		ok := true
		switch o.name {
		case "from":
			ok, cfg.from = numfmtChoice(t, "from", o.value, units), o.value
		case "to":
			ok, cfg.to = numfmtChoice(t, "to", o.value, []string{"none", "si", "iec", "iec-i"}), o.value
		case "round":
			ok, cfg.round = numfmtChoice(t, "round", o.value, []string{"up", "down", "from-zero", "towards-zero", "nearest"}), o.value
		case "invalid":
			ok, cfg.invalid = numfmtChoice(t, "invalid", o.value, []string{"abort", "fail", "warn", "ignore"}), o.value
		case "from-unit", "to-unit":
			u, good := numfmtUnitSize(o.value)
			if !good {
				t.warn("invalid unit size: " + quoteLocale(o.value))
				return nil, false
			}
			if o.name == "from-unit" {
				cfg.fromUnit = u
			} else {
				cfg.toUnit = u
			}
		case "padding":
			n, err := strconv.ParseInt(o.value, 10, 64)
			if err != nil || n == 0 || n < math.MinInt32 || n > math.MaxInt32 {
				t.warn("invalid padding value " + quoteLocale(o.value))
				return nil, false
			}
			cfg.padding, cfg.left = int(n), n < 0
			if n < 0 {
				cfg.padding = int(-n)
			}
		case "field":
			if fieldsSet {
				t.warn("multiple field specifications")
				return nil, false
			}
			fields, msg := numfmtFields(o.value)
			if msg != "" {
				t.usage(msg)
				return nil, false
			}
			cfg.fields, fieldsSet = fields, true
		case "delimiter":
			if len(o.value) > 1 {
				t.warn("the delimiter must be a single character")
				return nil, false
			}
			cfg.delim = 0
			if o.value != "" {
				cfg.delim = int(o.value[0])
			}
		case "header":
			cfg.header = 1
			if o.hasValue {
				n, err := strconv.ParseUint(o.value, 10, 63)
				if err != nil || n == 0 {
					t.warn("invalid header value " + quoteLocale(o.value))
					return nil, false
				}
				cfg.header = int(min(n, math.MaxInt32))
			}
		case "suffix":
			cfg.suffix = o.value
		case "format":
			format = o.value
		case "grouping":
			grouping = true
		case "zero-terminated":
			cfg.lineEnd = 0
		}
		if !ok {
			return nil, false
		}
	}
	if format != "" && grouping {
		t.warn("--grouping cannot be combined with --format")
		return nil, false
	}
	if format != "" {
		msg, fmtGrouping := numfmtParseFormat(cfg, format)
		if msg != "" {
			t.warn(msg)
			return nil, false
		}
		grouping = grouping || fmtGrouping
	}
	if grouping && cfg.to != "none" {
		t.warn("grouping cannot be combined with --to")
		return nil, false
	}
	cfg.autoPad = cfg.padding == 0 && cfg.delim < 0
	return cfg, true
}

// numfmtUnitSize reads --from-unit and --to-unit: a positive integer with
// an optional K..Y (powers of 1000) or Ki..Yi (powers of 1024).
func numfmtUnitSize(s string) (*big.Float, bool) {
	digits := strings.TrimRight(s, "KMGTPEZYi")
	rest := s[len(digits):]
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || n == 0 {
		return nil, false
	}
	mult := uint64(1)
	if rest != "" {
		base := uint64(1000)
		if strings.HasSuffix(rest, "i") {
			base, rest = 1024, rest[:len(rest)-1]
		}
		if len(rest) != 1 {
			return nil, false
		}
		for range strings.IndexByte("KMGTPEZY", rest[0]) + 1 {
			if mult > math.MaxUint64/base {
				return nil, false
			}
			mult *= base
		}
	}
	if n > math.MaxUint64/mult {
		return nil, false
	}
	return new(big.Float).SetPrec(numfmtPrec).SetUint64(n * mult), true
}

// numfmtFields parses --field as coreutils' set_fields does (a lone "-"
// is every field); the message is "" when the list is good.
func numfmtFields(list string) ([]cutRange, string) {
	if list == "-" {
		return []cutRange{{1, math.MaxInt}}, ""
	}
	var out []cutRange
	initial, value := 1, 0
	lhs, rhs, dash := false, false, false
	numStart := -1
	for i := 0; ; i++ {
		c := byte(0)
		if i < len(list) {
			c = list[i]
		}
		switch {
		case c == '-':
			numStart = -1
			if dash {
				return nil, "invalid field range"
			}
			dash = true
			if lhs && value == 0 {
				return nil, "fields are numbered from 1"
			}
			initial = 1
			if lhs {
				initial = value
			}
			value = 0
		case c == ',' || c == ' ' || c == '\t' || c == 0:
			numStart = -1
			if dash {
				dash = false
				if !rhs {
					out = append(out, cutRange{initial, math.MaxInt})
				} else {
					if value < initial {
						return nil, "invalid decreasing range"
					}
					out = append(out, cutRange{initial, value})
				}
			} else {
				if value == 0 {
					return nil, "fields are numbered from 1"
				}
				out = append(out, cutRange{value, value})
			}
			value = 0
			if c == 0 {
				return out, ""
			}
			lhs, rhs = false, false
		case c >= '0' && c <= '9':
			if numStart < 0 {
				numStart = i
			}
			if dash {
				rhs = true
			} else {
				lhs = true
			}
			if value > (math.MaxInt-9)/10 {
				end := numStart
				for end < len(list) && list[end] >= '0' && list[end] <= '9' {
					end++
				}
				return nil, "field number " + quoteLocale(list[numStart:end]) + " is too large"
			}
			value = value*10 + int(c-'0')
		default:
			return nil, "invalid field value " + quoteLocale(list[i:])
		}
	}
}

// numfmtParseFormat reads --format as numfmt does: a prefix, one
// %[0]['][-][N][.][N]f directive and a suffix. It returns a message for
// a bad format, and whether the format asks for grouping.
func numfmtParseFormat(cfg *numfmtConfig, f string) (string, bool) {
	q := quoteLocale(f)
	i, prefixLen := 0, 0
	for ; !(i < len(f) && f[i] == '%' && (i+1 >= len(f) || f[i+1] != '%')); i++ {
		if i >= len(f) {
			return "format " + q + " has no % directive", false
		}
		if f[i] == '%' {
			i++
		}
		prefixLen++
	}
	i++
	grouping, zero := false, false
	for {
		skip := 0
		for i+skip < len(f) && f[i+skip] == ' ' {
			skip++
		}
		i += skip
		if i < len(f) && f[i] == '\'' {
			grouping = true
			i++
		} else if i < len(f) && f[i] == '0' {
			zero = true
			i++
		} else if skip == 0 {
			break
		}
	}
	n, end := numfmtStrtol(f, i)
	if end < 0 {
		return "invalid format " + q + " (width overflow)", false
	}
	if end != i && n != 0 {
		switch {
		case n < 0:
			cfg.left, cfg.padding = true, -n
		case zero:
			cfg.zeroPad = n
		default:
			cfg.padding = n
		}
	}
	i = end
	if i >= len(f) {
		return "format " + q + " ends in %", false
	}
	if f[i] == '.' {
		i++
		p, pend := numfmtStrtol(f, i)
		if pend < 0 || p < 0 || i < len(f) && (f[i] == ' ' || f[i] == '\t' || f[i] == '+') {
			return "invalid precision in format " + q, false
		}
		cfg.precision, i = p, pend
	}
	if i >= len(f) || f[i] != 'f' {
		return "invalid format " + q + ", directive must be %[0]['][-][N][.][N]f", false
	}
	i++
	suffixPos := i
	for ; i < len(f); i++ {
		if f[i] == '%' {
			if i+1 >= len(f) || f[i+1] != '%' {
				return "format " + q + " has too many % directives", false
			}
			i++
		}
	}
	// numfmt counts "%%" once but copies that many bytes of the format.
	cfg.prefix, cfg.fsuffix = f[:prefixLen], f[suffixPos:]
	return "", grouping
}

// numfmtStrtol is strtol(s+i, &end, 10): leading blanks, a sign, digits.
// end is i when nothing was read, -1 on overflow.
func numfmtStrtol(s string, i int) (int, int) {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\v' || s[j] == '\f' || s[j] == '\r') {
		j++
	}
	neg := false
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		neg = s[j] == '-'
		j++
	}
	start := j
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == start {
		return 0, i
	}
	n, err := strconv.ParseInt(s[start:j], 10, 32)
	if err != nil {
		return 0, -1
	}
	if neg {
		n = -n
	}
	return int(n), j
}

// quoteLocale is gnulib's quote() in the C locale: 'x', with a quote,
// a backslash and unprintable bytes escaped as C does.
func quoteLocale(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(cEscape(c))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// numfmtRun is one run's state.
type numfmtRun struct {
	t       *tool
	cfg     *numfmtConfig
	failed  bool // some field did not convert
	aborted bool // --invalid=abort stopped the run
	died    bool // a number too long to print stopped it (status 1)
}

// stream converts standard input line by line after the header lines.
func (nf *numfmtRun) stream(in io.Reader) {
	br := bufio.NewReader(in)
	for n := 0; !nf.t.stopped(); n++ {
		line, err := br.ReadString(nf.cfg.lineEnd)
		if line == "" {
			return
		}
		if n < nf.cfg.header {
			nf.t.writeString(line)
			continue
		}
		ended := line[len(line)-1] == nf.cfg.lineEnd
		if ended {
			line = line[:len(line)-1]
		}
		if !nf.line(line, ended) || err != nil {
			return
		}
	}
}

// line converts the chosen fields of one line; false means the run
// stopped (--invalid=abort).
func (nf *numfmtRun) line(line string, ended bool) bool {
	cfg := nf.cfg
	pos := 0
	for field := 1; ; field++ {
		start := pos
		if cfg.delim >= 0 {
			for pos < len(line) && int(line[pos]) != cfg.delim {
				pos++
			}
		} else {
			for pos < len(line) && numfmtBlank(line[pos]) {
				pos++
			}
			for pos < len(line) && !numfmtBlank(line[pos]) {
				pos++
			}
		}
		if !nf.field(line[start:pos], field) {
			return false
		}
		if pos >= len(line) {
			break
		}
		if cfg.delim >= 0 {
			nf.t.writeByte(byte(cfg.delim))
		} else {
			nf.t.writeByte(' ')
		}
		pos++
	}
	if ended {
		nf.t.writeByte(cfg.lineEnd)
	}
	return true
}

func numfmtBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// field converts one field when it is chosen, else copies it.
func (nf *numfmtRun) field(text string, field int) bool {
	chosen := false
	for _, r := range nf.cfg.fields {
		if field >= r.lo && field <= r.hi {
			chosen = true
			break
		}
	}
	if !chosen {
		nf.t.writeString(text)
		return true
	}
	out, text, err := nf.convert(text, field)
	if err != nil && err.fatal {
		if err.msg != "" {
			nf.t.warn(err.msg)
		}
		nf.died = true
		return false
	}
	if err != nil {
		nf.failed = true
		if nf.cfg.invalid != "ignore" {
			nf.t.warn(err.msg)
		}
		if nf.cfg.invalid == "abort" {
			nf.aborted = true
			return false
		}
		nf.t.writeString(text)
		return true
	}
	nf.t.writeString(out)
	return true
}
