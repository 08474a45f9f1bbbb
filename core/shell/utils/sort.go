package utils

import (
	"bytes"
	"context"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"

	"gatehouse/internal/lazy"
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

// sortUtility makes the sort utility (see builtins).
func sortUtility(string) *Utility {
	return &Utility{
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
	}
}

// sorter holds the comparison rules of one sort run.
type sorter struct {
	keys    []*sortKey
	tab     int // -1: fields are separated by blank runs
	stable  bool
	unique  bool
	reverse bool // global -r, which also reverses the last-resort comparison
}

// sortConfig is a parsed sort command line.
type sortConfig struct {
	s                        *sorter
	global                   sortKeyOrder // the ordering options given outside -k
	globalBlanks             bool         // -b outside -k
	check, quietCheck, merge bool
	output                   string
	hasOutput                bool
	delim                    byte
	files0                   string
	files                    []string
}

func runSort(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "sort", defs: sortOpts, usageExit: 2, help: sortHelp})
	if done {
		return status, nil
	}
	c, msg := sortConfigure(t, args)
	if msg != "" {
		t.warn(msg)
		return t.end(2)
	}
	if c.check {
		if len(c.files) > 1 {
			t.warn("extra operand " + quoteAlways(c.files[1]) + " not allowed with -c")
			return t.end(2)
		}
		return t.end(c.s.check(t, c.files[0], c.delim, c.quietCheck))
	}
	lines, msg := c.sorted(t)
	if msg != "" {
		t.warn(msg)
	}
	if msg != "" || t.ctx.Err() != nil {
		return t.end(2)
	}
	return t.end(c.write(t, lines))
}

// sortConfigure reads sort's options and operands; msg is a fatal message
// (exit 2) when they do not make a command.
func sortConfigure(t *tool, args *parsedArgs) (*sortConfig, string) {
	c := &sortConfig{s: &sorter{tab: -1}, delim: '\n'}
	for _, o := range args.opts {
		if msg := c.option(o); msg != "" {
			return nil, msg
		}
	}
	if msg := c.finishKeys(); msg != "" {
		return nil, msg
	}
	c.files = args.operandStrings(t.env.Args)
	if c.files0 != "" {
		names, err := readFiles0(t, c.files0)
		if err != nil {
			return nil, "cannot open " + quoteAlways(c.files0) + " for reading: " + errText(err)
		}
		c.files = append(c.files, names...)
	}
	if len(c.files) == 0 {
		c.files = []string{"-"}
	}
	return c, ""
}

// sortOrderLetters are the ordering options' letters, by long name and by
// --sort=WORD.
var (
	sortOrderLetters = lazy.Value[map[string]string]{New: func() map[string]string {
		return map[string]string{"dictionary-order": "d", "ignore-case": "f", "general-numeric-sort": "g",
			"ignore-nonprinting": "i", "month-sort": "M", "human-numeric-sort": "h", "numeric-sort": "n",
			"random-sort": "R", "reverse": "r", "version-sort": "V"}
	}}
	sortWordLetters = lazy.Value[map[string]string]{New: func() map[string]string {
		return map[string]string{"general-numeric": "g", "human-numeric": "h", "month": "M", "numeric": "n",
			"random": "R", "version": "V"}
	}}
)

// option applies one option; msg is a fatal message.
func (c *sortConfig) option(o parsedOpt) string {
	s := c.s
	switch o.name {
	case "ignore-leading-blanks":
		c.globalBlanks = true
	case "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort",
		"human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort":
		c.global.applyOrderLetters(sortOrderLetters.Get()[o.name], nil, nil)
	case "sort":
		letter := sortWordLetters.Get()[o.value]
		if letter == "" {
			return "invalid argument " + quoteAlways(o.value) + " for '--sort'"
		}
		c.global.applyOrderLetters(letter, nil, nil)
	case "check":
		switch o.value {
		case "", "diagnose-first":
			c.check = true
		case "quiet", "silent":
			c.check, c.quietCheck = true, true
		default:
			return "invalid argument " + quoteAlways(o.value) + " for '--check'"
		}
	case "c":
		c.check = true
	case "C":
		c.check, c.quietCheck = true, true
	case "key":
		k, msg := parseSortKey(o.value)
		if msg != "" {
			return msg
		}
		s.keys = append(s.keys, k)
	case "output":
		if c.hasOutput && c.output != o.value {
			return "multiple output files specified"
		}
		c.output, c.hasOutput = o.value, true
	case "stable":
		s.stable = true
	case "merge":
		c.merge = true
	case "field-separator":
		return c.fieldSeparator(o.value)
	case "unique":
		s.unique = true
	case "zero-terminated":
		c.delim = 0
	case "files0-from":
		c.files0 = o.value
	}
	return ""
}

// fieldSeparator applies -t SEP.
func (c *sortConfig) fieldSeparator(sep string) string {
	switch {
	case sep == "":
		return "empty tab"
	case sep == `\0`:
		c.s.tab = 0
	case len(sep) > 1:
		return "multi-character tab " + quoteAlways(sep)
	default:
		if c.s.tab >= 0 && c.s.tab != int(sep[0]) {
			return "incompatible tabs"
		}
		c.s.tab = int(sep[0])
	}
	return ""
}

// finishKeys gives keys without ordering options of their own the global
// ones (or makes the whole line the key), and checks each key's options
// go together.
func (c *sortConfig) finishKeys() string {
	s := c.s
	s.reverse = c.global.reverse
	if len(s.keys) == 0 && (!c.global.isZero() || c.globalBlanks) {
		s.keys = []*sortKey{{endField: -1, skipStartBlanks: c.globalBlanks, skipEndBlanks: c.globalBlanks}}
	}
	for _, k := range s.keys {
		if k.sortKeyOrder.isZero() && !k.skipStartBlanks && !k.skipEndBlanks {
			k.sortKeyOrder = c.global
			k.skipStartBlanks, k.skipEndBlanks = c.globalBlanks, c.globalBlanks
		}
		if bad := k.sortKeyOrder.incompatible(k.skipStartBlanks || k.skipEndBlanks); bad != "" {
			return "options '-" + bad + "' are incompatible"
		}
	}
	if bad := c.global.incompatible(c.globalBlanks); bad != "" && len(s.keys) == 0 {
		return "options '-" + bad + "' are incompatible"
	}
	return ""
}

// sorted reads every input and returns its lines sorted (or merged, with
// -m) and, with -u, without repeats; msg is a fatal message.
func (c *sortConfig) sorted(t *tool) ([][]byte, string) {
	var runs [][][]byte // one run of lines per input, for -m
	for _, f := range c.files {
		data, msg := readSortInput(t, f)
		if msg != "" {
			return nil, msg
		}
		// Each line is a slice header beside its bytes (the bytes are
		// charged as read), and sorting copies the list once.
		if t.env.Grow(48*int64(bytes.Count(data, []byte{c.delim})+1)) != nil {
			return nil, ""
		}
		runs = append(runs, appendLines(nil, data, c.delim))
		if t.ctx.Err() != nil {
			return nil, ""
		}
	}
	var lines [][]byte
	if c.merge {
		lines = c.s.mergeRuns(runs)
	} else {
		for _, r := range runs {
			lines = append(lines, r...)
		}
		c.s.sortLines(t.ctx, lines)
	}
	if c.s.unique {
		lines = c.s.dedupe(lines)
	}
	return lines, ""
}

// write prints the lines to stdout or the -o file, and returns the status.
func (c *sortConfig) write(t *tool, lines [][]byte) int {
	var w io.Writer = t.out
	if c.hasOutput && c.output != "-" {
		f, err := t.env.FS.OpenFile(t.abs(c.output), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			t.warn("open failed: " + quoteIfNeeded(c.output) + ": " + errText(err))
			return 2
		}
		defer f.Close()
		w = f
	}
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte(c.delim)
		if buf.Len() > 64*1024 {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return sortWriteFailed(t, c.hasOutput, c.output, err)
			}
			buf.Reset()
		}
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return sortWriteFailed(t, c.hasOutput, c.output, err)
	}
	return 0
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

func (s *sorter) sortLines(ctx context.Context, lines [][]byte) {
	// Sorting millions of lines takes seconds: the comparison looks at the
	// line's context now and then, and a stopped line unwinds the sort
	// (G-12.3: wall time ends every line).
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(sortStopped); !ok {
				panic(r)
			}
		}
	}()
	calls := 0
	compare := func(a, b []byte) int {
		if calls++; calls&0xffff == 0 && ctx.Err() != nil {
			panic(sortStopped{})
		}
		return s.compare(a, b)
	}
	if !s.stable && !s.unique {
		// The last-resort whole-line comparison leaves only identical lines
		// equal, so an unstable sort cannot show, and it is much faster.
		slices.SortFunc(lines, compare)
		return
	}
	sort.SliceStable(lines, func(i, j int) bool { return compare(lines[i], lines[j]) < 0 })
}

// sortStopped unwinds a sort whose line was stopped.
type sortStopped struct{}

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
