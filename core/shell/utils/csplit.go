package utils

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
)

const csplitHelp = `Usage: csplit [OPTION]... FILE PATTERN...
Output pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,
and output byte counts of each piece to standard output.

Read standard input if FILE is -

Mandatory arguments to long options are mandatory for short options too.
  -b, --suffix-format=FORMAT  use sprintf FORMAT instead of %02d
  -f, --prefix=PREFIX        use PREFIX instead of 'xx'
  -k, --keep-files           do not remove output files on errors
      --suppress-matched     suppress the lines matching PATTERN
  -n, --digits=DIGITS        use specified number of digits instead of 2
  -s, --quiet, --silent      do not print counts of output file sizes
  -z, --elide-empty-files    remove empty output files
      --help        display this help and exit
      --version     output version information and exit

Each PATTERN may be:
  INTEGER            copy up to but not including specified line number
  /REGEXP/[OFFSET]   copy up to but not including a matching line
  %REGEXP%[OFFSET]   skip to, but not including a matching line
  {INTEGER}          repeat the previous pattern specified number of times
  {*}                repeat the previous pattern as many times as possible

A line OFFSET is an integer optionally preceded by '+' or '-'
`

var csplitOpts = []optDef{
	{short: 'b', long: "suffix-format", arg: needArg},
	{short: 'f', long: "prefix", arg: needArg},
	{short: 'k', long: "keep-files"},
	{long: "suppress-matched"},
	{short: 'n', long: "digits", arg: needArg},
	{short: 's', long: "quiet"},
	{short: 'q', long: "silent"},
	{short: 'z', long: "elide-empty-files"},
}

// csplitUtility makes csplit (see builtins). FILE is read; the pieces are
// PREFIX followed by a number, judged by the door as each is created (the
// prefix given with -f is judged as a write before anything runs).
func csplitUtility(string) *Utility {
	return &Utility{
		Name:        "csplit",
		Run:         runCsplit,
		Keeps:       KeepsNothing, // read whole by readAllCtx, charged there
		Operands:    csplitOperands,
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			return "csplit: cannot open " + quoteAlways(arg) + " for reading: " + msg + "\n"
		},
		Help: csplitHelp,
	}
}

func csplitOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, csplitOpts, parseMode{})
	if err != nil {
		return nil
	}
	var refs []OperandRef
	if len(args.operands) > 0 && argv[args.operands[0]] != "-" {
		refs = append(refs, OperandRef{Index: args.operands[0], Kind: Read})
	}
	for _, o := range args.opts {
		if o.name == "prefix" {
			refs = append(refs, optionOperand(o, Write))
		}
	}
	return refs
}

// csplitControl is one PATTERN with its repeat count.
type csplitControl struct {
	arg           string // as given, for messages
	re            *regexp.Regexp
	ignore        bool // %REGEXP%
	offset, lines int64
	repeat        int64
	forever       bool
}

// csplitRun is GNU csplit's state: the input's lines, the first one not
// yet written (head), the last one searched (current), and the piece
// being written.
type csplitRun struct {
	t                       *tool
	lines                   [][]byte
	head, current           int64 // head is 0-based, current 1-based
	prefix, format          string
	digits                  int
	keep, quiet, elide      bool
	suppress                bool
	created                 []string // names made, for removal on error
	out                     *bufio.Writer
	outFile                 io.Closer
	outName                 string
	bytesWritten, fileCount int64
	died                    bool // "input disappeared": GNU exits without cleaning up
}

func runCsplit(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "csplit", defs: csplitOpts, usageExit: 1, help: csplitHelp})
	if done {
		return status, nil
	}
	r := &csplitRun{t: t, prefix: "xx", digits: 2}
	for _, o := range args.opts {
		switch o.name {
		case "suffix-format":
			r.format = o.value
		case "prefix":
			r.prefix = o.value
		case "keep-files":
			r.keep = true
		case "suppress-matched":
			r.suppress = true
		case "digits":
			n, err := strconv.Atoi(o.value)
			if err != nil || n < 0 {
				t.warn("invalid number: " + quoteLocale(o.value))
				return t.end(1)
			}
			r.digits = n
		case "quiet", "silent":
			r.quiet = true
		case "elide-empty-files":
			r.elide = true
		}
	}
	ops := args.operandStrings(e.Args)
	switch len(ops) {
	case 0:
		return t.end(t.usage("missing operand"))
	case 1:
		return t.end(t.usage("missing operand after " + quoteLocale(ops[0])))
	}
	if r.format != "" {
		if msg := csplitCheckFormat(r.format); msg != "" {
			t.warn(msg)
			return t.end(1)
		}
	}
	controls, msg := csplitParse(t, ops[1:])
	if msg != "" {
		t.warn(msg)
		return t.end(1)
	}
	in, closeIn, err := openOperand(t, ops[0])
	if err != nil {
		t.warn("cannot open " + quoteAlways(ops[0]) + " for reading: " + errText(err))
		return t.end(1)
	}
	data, err := readAllCtx(t, in)
	closeIn()
	if err != nil {
		t.warn(quoteIfNeeded(ops[0]) + ": " + errText(err))
		return t.end(1)
	}
	// Each line is a slice header beside its bytes (charged as read).
	if t.env.Grow(24*int64(bytes.Count(data, []byte{'\n'})+1)) != nil {
		return t.end(1)
	}
	r.lines = csplitLines(data)
	return t.end(r.run(controls))
}

// csplitLines cuts data into lines that keep their newlines.
func csplitLines(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data) - 1
		}
		lines = append(lines, data[:i+1])
		data = data[i+1:]
	}
	return lines
}

// csplitCheckFormat checks -b: one %d, %i, %u, %o, %x or %X conversion,
// with flags and a width.
func csplitCheckFormat(f string) string {
	count := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			i++
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-#0'", f[j]) >= 0 {
			j++
		}
		for j < len(f) && (f[j] >= '0' && f[j] <= '9' || f[j] == '.') {
			j++
		}
		if j == len(f) {
			return "missing conversion specifier in suffix"
		}
		if strings.IndexByte("diuoxX", f[j]) < 0 {
			return "invalid conversion specifier in suffix: " + string(f[j])
		}
		count++
		i = j
	}
	switch {
	case count == 0:
		return "missing % conversion specification in suffix"
	case count > 1:
		return "too many % conversion specifications in suffix"
	}
	return ""
}

// csplitParse reads the PATTERNs.
func csplitParse(t *tool, args []string) ([]*csplitControl, string) {
	var controls []*csplitControl
	var lastLine int64
	for i := 0; i < len(args); i++ {
		a := args[i]
		c := &csplitControl{arg: a}
		if a != "" && (a[0] == '/' || a[0] == '%') {
			delim := a[0]
			end := strings.LastIndexByte(a, delim)
			if end == 0 {
				return nil, a + ": closing delimiter '" + string(delim) + "' missing"
			}
			src, err := TranslateRegex(a[1:end], RegexOptions{Dialect: BasicRegex})
			var re *regexp.Regexp
			if err == nil {
				re, err = regexp.Compile(src)
			}
			if err != nil {
				return nil, quoteLocale(a) + ": invalid regular expression: " + csplitRegexError(err)
			}
			c.re, c.ignore = re, delim == '%'
			if rest := a[end+1:]; rest != "" {
				n, err := strconv.ParseInt(rest, 10, 64)
				if err != nil {
					return nil, quoteLocale(a) + ": integer expected after delimiter"
				}
				c.offset = n
			}
		} else {
			n, err := strconv.ParseInt(a, 10, 64)
			switch {
			case err != nil:
				return nil, quoteLocale(a) + ": invalid pattern"
			case n <= 0:
				return nil, a + ": line number must be greater than zero"
			case n < lastLine:
				return nil, "line number " + quoteLocale(a) + " is smaller than preceding line number, " + strconv.FormatInt(lastLine, 10)
			case n == lastLine:
				t.warn("warning: line number " + quoteLocale(a) + " is the same as preceding line number")
			}
			c.lines, lastLine = n, n
		}
		if i+1 < len(args) && strings.HasPrefix(args[i+1], "{") {
			i++
			r := args[i]
			if !strings.HasSuffix(r, "}") {
				return nil, quoteLocale(r) + ": '}' is required in repeat count"
			}
			body := r[1 : len(r)-1]
			if body == "*" {
				c.forever = true
			} else if n, err := strconv.ParseInt(body, 10, 64); err == nil && n >= 0 {
				c.repeat = n
			} else {
				return nil, quoteLocale(r[:len(r)-1]) + "}: integer required between '{' and '}'"
			}
		}
		controls = append(controls, c)
	}
	return controls, ""
}

func csplitRegexError(err error) string {
	if e, ok := err.(*RegexError); ok {
		return e.Msg
	}
	return "Invalid regular expression"
}
