package utils

import (
	"bytes"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
)

const sortHelp = `Usage: sort [OPTION]... [FILE]...
  or:  sort [OPTION]... --files0-from=F
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Ordering options:
  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys
  -r, --reverse               reverse the result of comparisons
  -V, --version-sort          natural sort of (version) numbers within text

Other options:
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -S, --buffer-size=SIZE    accepted and ignored
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  accepted and ignored
      --parallel=N          accepted and ignored
  -u, --unique              output only the first of lines with equal keys
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.  OPTS is one or more
single-letter ordering options [bdfgiMhnRrV], which override global ordering
options for that key.  If no key is given, use the entire line as the key.

Comparisons use the C locale: plain byte values.
`

var sortOpts = []optDef{
	{short: 'b', long: "ignore-leading-blanks"},
	{short: 'd', long: "dictionary-order"},
	{short: 'f', long: "ignore-case"},
	{short: 'g', long: "general-numeric-sort"},
	{short: 'i', long: "ignore-nonprinting"},
	{short: 'M', long: "month-sort"},
	{short: 'h', long: "human-numeric-sort"},
	{short: 'n', long: "numeric-sort"},
	{short: 'R', long: "random-sort"},
	{short: 'r', long: "reverse"},
	{short: 'V', long: "version-sort"},
	{long: "sort", arg: needArg},
	{short: 'c'},
	{long: "check", arg: maybeArg},
	{short: 'C'},
	{short: 'k', long: "key", arg: needArg},
	{short: 'm', long: "merge"},
	{short: 'o', long: "output", arg: needArg},
	{short: 's', long: "stable"},
	{short: 'S', long: "buffer-size", arg: needArg},
	{short: 't', long: "field-separator", arg: needArg},
	{short: 'T', long: "temporary-directory", arg: needArg},
	{long: "parallel", arg: needArg},
	{long: "batch-size", arg: needArg},
	{long: "compress-program", arg: needArg},
	{long: "random-source", arg: needArg},
	{long: "files0-from", arg: needArg},
	{long: "debug"},
	{short: 'u', long: "unique"},
	{short: 'z', long: "zero-terminated"},
}

func init() {
	Register(&Utility{
		Name: "sort",
		Run:  runSort,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, sortOpts, parseMode{})
			if err != nil {
				return nil
			}
			refs := fileRefs(argv, args.operands, Read)
			for _, o := range args.opts {
				switch o.name {
				case "output":
					refs = append(refs, optionOperand(o, Write))
				case "files0-from":
					if o.value != "-" {
						refs = append(refs, optionOperand(o, Read))
					}
				}
			}
			return refs
		},
		OperandExit: 2,
		Voice:       func(arg, msg string) string { return "sort: cannot read: " + quoteIfNeeded(arg) + ": " + msg + "\n" },
		WriteVoice:  func(arg, msg string) string { return "sort: open failed: " + quoteIfNeeded(arg) + ": " + msg + "\n" },
		Help:        sortHelp,
	})
}

// sorter holds the comparison rules of one sort run.
type sorter struct {
	keys    []*sortKey
	tab     int // -1: fields are separated by blank runs
	stable  bool
	unique  bool
	reverse bool // global -r, which also reverses the last-resort comparison
}

func runSort(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "sort", defs: sortOpts, usageExit: 2, help: sortHelp})
	if done {
		return status, nil
	}
	s := &sorter{tab: -1}
	var global sortKeyOrder
	var globalBlanks bool
	check, quietCheck, merge := false, false, false
	var output string
	hasOutput := false
	delim := byte('\n')
	var files0 string
	for _, o := range args.opts {
		switch o.name {
		case "ignore-leading-blanks":
			globalBlanks = true
		case "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort",
			"human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort":
			letter := map[string]string{"dictionary-order": "d", "ignore-case": "f", "general-numeric-sort": "g",
				"ignore-nonprinting": "i", "month-sort": "M", "human-numeric-sort": "h", "numeric-sort": "n",
				"random-sort": "R", "reverse": "r", "version-sort": "V"}[o.name]
			global.applyOrderLetters(letter, nil, nil)
		case "sort":
			letter := map[string]string{"general-numeric": "g", "human-numeric": "h", "month": "M", "numeric": "n",
				"random": "R", "version": "V"}[o.value]
			if letter == "" {
				t.warn("invalid argument " + quoteAlways(o.value) + " for '--sort'")
				return t.end(2)
			}
			global.applyOrderLetters(letter, nil, nil)
		case "check":
			switch o.value {
			case "", "diagnose-first":
				check = true
			case "quiet", "silent":
				check, quietCheck = true, true
			default:
				t.warn("invalid argument " + quoteAlways(o.value) + " for '--check'")
				return t.end(2)
			}
		case "c":
			check = true
		case "C":
			check, quietCheck = true, true
		case "key":
			k, msg := parseSortKey(o.value)
			if msg != "" {
				t.warn(msg)
				return t.end(2)
			}
			s.keys = append(s.keys, k)
		case "output":
			if hasOutput && output != o.value {
				t.warn("multiple output files specified")
				return t.end(2)
			}
			output, hasOutput = o.value, true
		case "stable":
			s.stable = true
		case "merge":
			merge = true
		case "field-separator":
			sep := o.value
			switch {
			case sep == "":
				t.warn("empty tab")
				return t.end(2)
			case sep == `\0`:
				s.tab = 0
			case len(sep) > 1:
				t.warn("multi-character tab " + quoteAlways(sep))
				return t.end(2)
			default:
				if s.tab >= 0 && s.tab != int(sep[0]) {
					t.warn("incompatible tabs")
					return t.end(2)
				}
				s.tab = int(sep[0])
			}
		case "unique":
			s.unique = true
		case "zero-terminated":
			delim = 0
		case "files0-from":
			files0 = o.value
		}
	}
	s.reverse = global.reverse
	if len(s.keys) == 0 && (!global.isZero() || globalBlanks) {
		s.keys = []*sortKey{{endField: -1, skipStartBlanks: globalBlanks, skipEndBlanks: globalBlanks}}
	}
	for _, k := range s.keys {
		// A key without ordering options of its own takes the global ones.
		if k.sortKeyOrder.isZero() && !k.skipStartBlanks && !k.skipEndBlanks {
			k.sortKeyOrder = global
			k.skipStartBlanks, k.skipEndBlanks = globalBlanks, globalBlanks
		}
		if bad := k.sortKeyOrder.incompatible(k.skipStartBlanks || k.skipEndBlanks); bad != "" {
			t.warn("options '-" + bad + "' are incompatible")
			return t.end(2)
		}
	}
	if bad := global.incompatible(globalBlanks); bad != "" && len(s.keys) == 0 {
		t.warn("options '-" + bad + "' are incompatible")
		return t.end(2)
	}
	files := args.operandStrings(e.Args)
	if files0 != "" {
		names, err := readFiles0(t, files0)
		if err != nil {
			t.warn("cannot open " + quoteAlways(files0) + " for reading: " + errText(err))
			return t.end(2)
		}
		files = append(files, names...)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if check {
		if len(files) > 1 {
			t.warn("extra operand " + quoteAlways(files[1]) + " not allowed with -c")
			return t.end(2)
		}
		return t.end(s.check(t, files[0], delim, quietCheck))
	}
	var runs [][][]byte // one run of lines per input, for -m
	for _, f := range files {
		data, msg := readSortInput(t, f)
		if msg != "" {
			t.warn(msg)
			return t.end(2)
		}
		runs = append(runs, appendLines(nil, data, delim))
		if t.ctx.Err() != nil {
			return t.end(2)
		}
	}
	var lines [][]byte
	if merge {
		lines = s.mergeRuns(runs)
	} else {
		for _, r := range runs {
			lines = append(lines, r...)
		}
		s.sortLines(lines)
	}
	if s.unique {
		lines = s.dedupe(lines)
	}
	if t.ctx.Err() != nil {
		return t.end(2)
	}
	var w io.Writer = t.out
	if hasOutput && output != "-" {
		f, err := t.env.FS.OpenFile(t.abs(output), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			t.warn("open failed: " + quoteIfNeeded(output) + ": " + errText(err))
			return t.end(2)
		}
		defer f.Close()
		w = f
	}
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte(delim)
		if buf.Len() > 64*1024 {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return t.end(sortWriteFailed(t, hasOutput, output, err))
			}
			buf.Reset()
		}
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return t.end(sortWriteFailed(t, hasOutput, output, err))
	}
	return t.end(0)
}

func sortWriteFailed(t *tool, toFile bool, name string, err error) int {
	if toFile {
		t.warn("write failed: " + quoteIfNeeded(name) + ": " + errText(err))
	}
	return 2
}

// readSortInput reads one input whole; msg is sort's fatal message.
func readSortInput(t *tool, name string) ([]byte, string) {
	in, closeIn, err := t.openInput(name)
	if err != nil {
		return nil, "cannot read: " + quoteIfNeeded(name) + ": " + errText(err)
	}
	defer closeIn()
	data, err := readAllCtx(t, in)
	if err != nil {
		return nil, "read failed: " + quoteIfNeeded(name) + ": " + errText(err)
	}
	return data, ""
}

// appendLines splits data at delim; a last line without one still counts.
func appendLines(lines [][]byte, data []byte, delim byte) [][]byte {
	for len(data) > 0 {
		i := bytes.IndexByte(data, delim)
		if i < 0 {
			return append(lines, data)
		}
		lines = append(lines, data[:i])
		data = data[i+1:]
	}
	return lines
}

// compare orders two lines: keys first, then (unless -s or -u) the whole
// line byte by byte, reversed by a global -r.
func (s *sorter) compare(a, b []byte) int {
	for _, k := range s.keys {
		if c := k.sortKeyOrder.compareField(k.field(a, s.tab), k.field(b, s.tab)); c != 0 {
			return c
		}
	}
	if len(s.keys) > 0 && (s.stable || s.unique) {
		return 0
	}
	c := bytes.Compare(a, b)
	if s.reverse {
		c = -c
	}
	return c
}

// keysEqual is -u's notion of duplicate lines.
func (s *sorter) keysEqual(a, b []byte) bool {
	if len(s.keys) == 0 {
		return bytes.Equal(a, b)
	}
	for _, k := range s.keys {
		if k.sortKeyOrder.compareField(k.field(a, s.tab), k.field(b, s.tab)) != 0 {
			return false
		}
	}
	return true
}

func (s *sorter) sortLines(lines [][]byte) {
	if !s.stable && !s.unique {
		// The last-resort whole-line comparison leaves only identical lines
		// equal, so an unstable sort cannot show, and it is much faster.
		slices.SortFunc(lines, s.compare)
		return
	}
	sort.SliceStable(lines, func(i, j int) bool { return s.compare(lines[i], lines[j]) < 0 })
}

// mergeRuns is -m: the inputs are taken as already sorted and only
// interleaved, smallest head first (the earlier input on a tie), so an
// unsorted input comes out as GNU's does, not sorted.
func (s *sorter) mergeRuns(runs [][][]byte) [][]byte {
	var out [][]byte
	for {
		best := -1
		for i, r := range runs {
			if len(r) > 0 && (best < 0 || s.compare(r[0], runs[best][0]) < 0) {
				best = i
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, runs[best][0])
		runs[best] = runs[best][1:]
	}
}

func (s *sorter) dedupe(lines [][]byte) [][]byte {
	out := lines[:0]
	for i, l := range lines {
		if i > 0 && s.keysEqual(out[len(out)-1], l) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// check is -c/-C: report the first line out of order.
func (s *sorter) check(t *tool, name string, delim byte, quiet bool) int {
	data, msg := readSortInput(t, name)
	if msg != "" {
		t.warn(msg)
		return 2
	}
	lines := appendLines(nil, data, delim)
	for i := 1; i < len(lines); i++ {
		c := s.compare(lines[i-1], lines[i])
		if c > 0 || (s.unique && c == 0 && s.keysEqual(lines[i-1], lines[i])) {
			if !quiet {
				t.warn(name + ":" + strconv.Itoa(i+1) + ": disorder: " + string(lines[i]))
			}
			return 1
		}
	}
	return 0
}
