package utils

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strconv"
)

const uniqHelp = `Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, but allow separating groups
                                 with an empty line;
                                 METHOD={none(default),prepend,separate}
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups with an empty line;
                          METHOD={separate(default),prepend,append,both}
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help        display this help and exit
      --version     output version information and exit

A field is a run of blanks (usually spaces and/or TABs), then non-blank
characters.  Fields are skipped before chars.
`

var uniqOpts = []optDef{
	{short: 'c', long: "count"},
	{short: 'd', long: "repeated"},
	{short: 'D'},
	{long: "all-repeated", arg: maybeArg},
	{short: 'f', long: "skip-fields", arg: needArg},
	{long: "group", arg: maybeArg},
	{short: 'i', long: "ignore-case"},
	{short: 's', long: "skip-chars", arg: needArg},
	{short: 'u', long: "unique"},
	{short: 'z', long: "zero-terminated"},
	{short: 'w', long: "check-chars", arg: needArg},
}

// uniqUtility makes the uniq utility (see builtins).
func uniqUtility(string) *Utility {
	return &Utility{
		Name: "uniq",
		Run:  runUniq,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, uniqOpts, parseMode{})
			if err != nil {
				return nil
			}
			var refs []OperandRef
			for n, i := range args.operands {
				if argv[i] == "-" || n > 1 {
					continue
				}
				kind := Read
				if n == 1 {
					kind = Write
				}
				refs = append(refs, OperandRef{Index: i, Kind: kind})
			}
			return refs
		},
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "uniq: " + quoteIfNeeded(arg) + ": " + msg + "\n" },
		Help:        uniqHelp,
	}
}

// uniqConfig is the parsed command line.
type uniqConfig struct {
	count, repeated, unique, allRepeated bool
	method                               string // -D / --group separation
	group                                bool
	skipFields, skipChars, checkChars    int64
	ignoreCase                           bool
	delim                                byte
}

func runUniq(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "uniq", defs: uniqOpts, usageExit: 1, help: uniqHelp})
	if done {
		return status, nil
	}
	cfg := &uniqConfig{checkChars: -1, delim: '\n', method: "none"}
	number := func(v, what string) (int64, bool) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			t.warn(v + ": invalid number of " + what + " to skip")
			return 0, false
		}
		return n, true
	}
	for _, o := range args.opts {
		ok := true
		switch o.name {
		case "count":
			cfg.count = true
		case "repeated":
			cfg.repeated = true
		case "D":
			cfg.allRepeated = true
		case "all-repeated":
			cfg.allRepeated = true
			if o.hasValue {
				switch o.value {
				case "none", "prepend", "separate":
					cfg.method = o.value
				default:
					return t.end(t.usage("invalid argument " + quoteAlways(o.value) + " for '--all-repeated'"))
				}
			}
		case "group":
			cfg.group, cfg.method = true, "separate"
			if o.hasValue {
				cfg.method = o.value
			}
		case "skip-fields":
			cfg.skipFields, ok = number(o.value, "fields")
		case "skip-chars":
			cfg.skipChars, ok = number(o.value, "bytes")
		case "check-chars":
			var err error
			cfg.checkChars, err = strconv.ParseInt(o.value, 10, 64)
			if err != nil || cfg.checkChars < 0 {
				t.warn(o.value + ": invalid number of bytes to compare")
				ok = false
			}
		case "ignore-case":
			cfg.ignoreCase = true
		case "unique":
			cfg.unique = true
		case "zero-terminated":
			cfg.delim = 0
		}
		if !ok {
			return t.end(1)
		}
	}
	if cfg.count && (cfg.allRepeated || cfg.group) {
		return t.end(t.usage("printing all duplicated lines and repeat counts is meaningless"))
	}
	operands := args.operandStrings(e.Args)
	if len(operands) > 2 {
		return t.end(t.usage("extra operand " + quoteAlways(operands[2])))
	}
	input := "-"
	if len(operands) > 0 {
		input = operands[0]
	}
	in, closeIn, err := t.openInput(input)
	if err != nil {
		t.warn(quoteIfNeeded(input) + ": " + errText(err))
		return t.end(1)
	}
	defer closeIn()
	var out io.Writer = t.out
	if len(operands) == 2 && operands[1] != "-" {
		f, err := t.env.FS.OpenFile(t.abs(operands[1]), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			t.warn(quoteIfNeeded(operands[1]) + ": " + errText(err))
			return t.end(1)
		}
		defer f.Close()
		bw := bufio.NewWriter(f)
		defer bw.Flush()
		out = bw
	}
	if err := uniqStream(t, cfg, in, out); err != nil {
		t.warn(quoteIfNeeded(input) + ": " + errText(err))
		return t.end(1)
	}
	return t.end(0)
}

// uniqKey is the part of a line uniq compares.
func (cfg *uniqConfig) key(line []byte) []byte {
	i := 0
	for f := int64(0); f < cfg.skipFields && i < len(line); f++ {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
	}
	i = int(min(int64(len(line)), int64(i)+cfg.skipChars))
	k := line[i:]
	if cfg.checkChars >= 0 && int64(len(k)) > cfg.checkChars {
		k = k[:cfg.checkChars]
	}
	return k
}

func (cfg *uniqConfig) same(a, b []byte) bool {
	ka, kb := cfg.key(a), cfg.key(b)
	if cfg.ignoreCase {
		return bytes.EqualFold(ka, kb)
	}
	return bytes.Equal(ka, kb)
}

// uniqStream reads groups of equal adjacent lines and prints each group as
// the options ask.
func uniqStream(t *tool, cfg *uniqConfig, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64*1024)
	var group [][]byte
	groupsPrinted := 0
	emit := func(line []byte) {
		out.Write(line)
		out.Write([]byte{cfg.delim})
	}
	blank := func() { out.Write([]byte{cfg.delim}) }
	flushGroup := func() {
		n := len(group)
		defer func() { group = group[:0] }()
		switch {
		case n == 0:
		case cfg.group:
			if cfg.method == "prepend" || cfg.method == "both" || groupsPrinted > 0 {
				blank()
			}
			for _, l := range group {
				emit(l)
			}
			groupsPrinted++
		case cfg.allRepeated:
			if n < 2 {
				return
			}
			if (groupsPrinted > 0 && cfg.method != "none") || (groupsPrinted == 0 && cfg.method == "prepend") {
				blank()
			}
			for _, l := range group {
				emit(l)
			}
			groupsPrinted++
		case (cfg.repeated && n < 2) || (cfg.unique && n > 1):
		default:
			if cfg.count {
				out.Write([]byte(padLeft(strconv.Itoa(n), 7) + " "))
			}
			emit(group[0])
		}
	}
	for {
		if t.stopped() {
			return nil
		}
		line, err := r.ReadBytes(cfg.delim)
		if len(line) > 0 {
			if line[len(line)-1] == cfg.delim {
				line = line[:len(line)-1]
			}
			if len(group) > 0 && !cfg.same(group[0], line) {
				flushGroup()
			}
			group = append(group, line)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	flushGroup()
	if cfg.group && (cfg.method == "append" || cfg.method == "both") && groupsPrinted > 0 {
		blank()
	}
	return nil
}
