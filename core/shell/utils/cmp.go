package utils

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

const cmpHelp = `Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.

Report bugs to: bug-diffutils@gnu.org
GNU diffutils home page: <https://www.gnu.org/software/diffutils/>
General help using GNU software: <https://www.gnu.org/gethelp/>
`

var cmpOpts = []optDef{
	{short: 'b', long: "print-bytes"},
	{short: 'i', long: "ignore-initial", arg: needArg},
	{short: 'l', long: "verbose"},
	{short: 'n', long: "bytes", arg: needArg},
	{short: 's', long: "quiet"},
	{long: "silent"},
	{short: 'v', long: "version"},
}

// cmpUtility makes the cmp utility of GNU diffutils (see builtins).
func cmpUtility(string) *Utility {
	return &Utility{
		Name: "cmp",
		Run:  runCmp,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, cmpOpts, parseMode{})
			if err != nil {
				return nil
			}
			files := args.operands
			if len(files) > 2 {
				files = files[:2] // the rest are skip counts
			}
			return fileRefs(argv, files, Read)
		},
		OperandExit: 2,
		Voice:       func(arg, msg string) string { return "cmp: " + arg + ": " + msg + "\n" },
		Help:        cmpHelp,
	}
}

// cmpRequest is what the command line asks cmp for.
type cmpRequest struct {
	names              [2]string
	skip               [2]int64
	limit              int64 // -1: no limit
	printBytes, listed bool
	silent             bool
}

func runCmp(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "cmp", defs: cmpOpts, usageExit: 2, help: cmpHelp,
		usageLine: "cmp: ", version: "cmp (GNU diffutils) 3.8\n"})
	if done {
		return status, nil
	}
	req, msg := cmpParse(e, args)
	if msg != "" {
		return t.end(t.usage(msg))
	}
	var in [2]*bufio.Reader
	for i, name := range req.names {
		r, closer, err := t.openInput(name)
		if err != nil {
			if !req.silent {
				t.warn(name + ": " + errText(err))
			}
			return t.end(2)
		}
		defer closer()
		in[i] = bufio.NewReader(r)
		if _, err := io.CopyN(io.Discard, in[i], req.skip[i]); err != nil && err != io.EOF {
			t.warn(name + ": " + errText(err))
			return t.end(2)
		}
	}
	return t.end(cmpCompare(t, req, in))
}

// cmpParse reads options and operands: msg is a usage complaint.
func cmpParse(e *Env, args *parsedArgs) (req cmpRequest, msg string) {
	req.limit = -1
	for _, o := range args.opts {
		switch o.name {
		case "print-bytes":
			req.printBytes = true
		case "verbose":
			req.listed = true
		case "quiet", "silent":
			req.silent = true
		case "bytes":
			n, err := strconv.ParseInt(o.value, 10, 64)
			if err != nil || n < 0 {
				return req, "invalid --bytes value " + quoteAlways(o.value)
			}
			req.limit = n
		case "ignore-initial":
			a, b, ok := strings.Cut(o.value, ":")
			if !ok {
				b = a
			}
			for i, v := range []string{a, b} {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n < 0 {
					return req, "invalid --ignore-initial value " + quoteAlways(o.value)
				}
				req.skip[i] = n
			}
		}
	}
	ops := args.operandStrings(e.Args)
	switch {
	case len(ops) == 0:
		return req, "missing operand after 'cmp'"
	case len(ops) > 4:
		return req, "extra operand " + quoteAlways(ops[4])
	}
	req.names = [2]string{ops[0], "-"}
	if len(ops) > 1 {
		req.names[1] = ops[1]
	}
	for i := 2; i < len(ops); i++ {
		n, err := strconv.ParseInt(ops[i], 10, 64)
		if err != nil || n < 0 {
			return req, "invalid --ignore-initial value " + quoteAlways(ops[i])
		}
		req.skip[i-2] = n
	}
	if req.listed && req.silent {
		return req, "options -l and -s are incompatible"
	}
	return req, ""
}

// cmpCompare reads both inputs a byte at a time and reports as GNU cmp:
// the first difference (or every one with -l), or the input that ended
// first. It returns the exit status.
func cmpCompare(t *tool, req cmpRequest, in [2]*bufio.Reader) int {
	// line is the line of the last byte read: a newline counts from the
	// byte after it, as GNU cmp counts.
	var pos, line int64 = 0, 1
	afterNewline := false
	status := 0
	for req.limit < 0 || pos < req.limit {
		if pos%65536 == 0 && t.stopped() {
			return 2
		}
		a, errA := in[0].ReadByte()
		b, errB := in[1].ReadByte()
		if errA != nil || errB != nil {
			if errA != nil && errB != nil {
				return status
			}
			short := req.names[0]
			if errA == nil {
				short = req.names[1]
			}
			if !req.silent {
				switch {
				case pos == 0:
					t.warn("EOF on " + short + " which is empty")
				case req.listed:
					t.warn(fmt.Sprintf("EOF on %s after byte %d", short, pos))
				default:
					t.warn(fmt.Sprintf("EOF on %s after byte %d, line %d", short, pos, line))
				}
			}
			return 1
		}
		pos++
		if afterNewline {
			line++
		}
		afterNewline = a == '\n'
		if a != b {
			status = 1
			switch {
			case req.silent:
				return 1
			case req.listed && req.printBytes:
				t.writeString(fmt.Sprintf("%d %3o %-4s %3o %s\n", pos, a, cmpByte(a), b, cmpByte(b)))
			case req.listed:
				t.writeString(fmt.Sprintf("%d %3o %3o\n", pos, a, b))
			case req.printBytes:
				t.writeString(fmt.Sprintf("%s %s differ: byte %d, line %d is %3o %s %3o %s\n",
					req.names[0], req.names[1], pos, line, a, cmpByte(a), b, cmpByte(b)))
				return 1
			default:
				t.writeString(fmt.Sprintf("%s %s differ: char %d, line %d\n", req.names[0], req.names[1], pos, line))
				return 1
			}
		}
	}
	return status
}

// cmpByte shows a byte as cmp -b does: printable as itself, controls as
// ^X, bytes above 127 with M- before them.
func cmpByte(c byte) string {
	prefix := ""
	if c >= 128 {
		prefix, c = "M-", c-128
	}
	switch {
	case c < 32:
		return prefix + "^" + string(rune(c+64))
	case c == 127:
		return prefix + "^?"
	}
	return prefix + string(rune(c))
}
