package utils

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

const cutHelp = `Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
Each range is one of:

  N     N'th byte, character or field, counted from 1
  N-    from N'th byte, character or field, to end of line
  N-M   from N'th to M'th (included) byte, character or field
  -M    from first to M'th (included) byte, character or field
`

var cutOpts = []optDef{
	{short: 'b', long: "bytes", arg: needArg},
	{short: 'c', long: "characters", arg: needArg},
	{short: 'd', long: "delimiter", arg: needArg},
	{short: 'f', long: "fields", arg: needArg},
	{short: 'n'},
	{long: "complement"},
	{short: 's', long: "only-delimited"},
	{long: "output-delimiter", arg: needArg},
	{short: 'z', long: "zero-terminated"},
}

// cutUtility makes the cut utility (see builtins).
func cutUtility(string) *Utility {
	return &Utility{
		Name:        "cut",
		Run:         runCut,
		Operands:    plainOperands(cutOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("cut"),
		Help:        cutHelp,
	}
}

// cutRange is an inclusive range of positions counted from 1.
type cutRange struct{ lo, hi int }

type cutConfig struct {
	fields     bool
	ranges     []cutRange
	delim      byte
	outDelim   string
	hasOutDel  bool
	onlyDelim  bool
	complement bool
	eol        byte
}

func runCut(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "cut", defs: cutOpts, usageExit: 1, help: cutHelp})
	if done {
		return status, nil
	}
	cfg := &cutConfig{delim: '\t', eol: '\n'}
	list, kind := "", ""
	hasDelim := false
	for _, o := range args.opts {
		switch o.name {
		case "bytes", "characters", "fields":
			if kind != "" {
				return t.end(t.usage("only one list may be specified"))
			}
			kind, list = o.name, o.value
		case "delimiter":
			if len(o.value) > 1 {
				return t.end(t.usage("the delimiter must be a single character"))
			}
			cfg.delim, hasDelim = 0, true
			if o.value != "" {
				cfg.delim = o.value[0]
			}
		case "only-delimited":
			cfg.onlyDelim = true
		case "complement":
			cfg.complement = true
		case "output-delimiter":
			cfg.outDelim, cfg.hasOutDel = o.value, true
		case "zero-terminated":
			cfg.eol = 0
		}
	}
	if kind == "" {
		return t.end(t.usage("you must specify a list of bytes, characters, or fields"))
	}
	cfg.fields = kind == "fields"
	if !cfg.fields && hasDelim {
		return t.end(t.usage("an input delimiter may be specified only when operating on fields"))
	}
	if !cfg.fields && cfg.onlyDelim {
		return t.end(t.usage("suppressing non-delimited lines makes sense\n\tonly when operating on fields"))
	}
	ranges, msg := cutParseList(list, cfg.fields)
	if msg != "" {
		return t.end(t.usage(msg))
	}
	if cfg.complement {
		ranges = cutComplement(ranges)
	}
	cfg.ranges = ranges
	if !cfg.hasOutDel && cfg.fields {
		cfg.outDelim = string(cfg.delim)
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if t.stopped() {
			break
		}
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			status = 1
			continue
		}
		err = cutStream(t, cfg, in)
		closeIn()
		if err != nil && !t.broken() {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			status = 1
		}
	}
	return t.end(status)
}

// cutParseList parses LIST into sorted, merged ranges.
func cutParseList(list string, fields bool) ([]cutRange, string) {
	invalid := func(v string) string {
		if fields {
			return "invalid field value " + quoteAlways(v)
		}
		return "invalid byte/character position " + quoteAlways(v)
	}
	fromOne := "byte/character positions are numbered from 1"
	if fields {
		fromOne = "fields are numbered from 1"
	}
	var ranges []cutRange
	for _, part := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		lo, hi, isRange := part, part, false
		if i := strings.IndexByte(part, '-'); i >= 0 {
			lo, hi, isRange = part[:i], part[i+1:], true
		}
		if isRange && lo == "" && hi == "" {
			return nil, "invalid range with no endpoint: -"
		}
		r := cutRange{lo: 1, hi: math.MaxInt}
		if lo != "" {
			n, err := strconv.Atoi(lo)
			if err != nil || n < 0 {
				return nil, invalid(lo)
			}
			if n == 0 {
				return nil, fromOne
			}
			r.lo = n
		}
		if hi != "" {
			n, err := strconv.Atoi(hi)
			if err != nil || n < 0 {
				return nil, invalid(hi)
			}
			if n == 0 {
				return nil, fromOne
			}
			r.hi = n
		}
		if !isRange {
			r.hi = r.lo
		}
		if r.hi < r.lo {
			return nil, "invalid decreasing range"
		}
		ranges = append(ranges, r)
	}
	if len(ranges) == 0 {
		return nil, "missing list of positions"
	}
	sort.Slice(ranges, func(i, j int) bool { return ranges[i].lo < ranges[j].lo })
	merged := ranges[:1]
	for _, r := range ranges[1:] {
		last := &merged[len(merged)-1]
		// Overlapping ranges merge; adjacent ones stay apart so
		// --output-delimiter still separates them, as GNU does.
		if r.lo <= last.hi {
			last.hi = max(last.hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	return merged, ""
}

// cutComplement returns the positions the ranges leave out.
func cutComplement(ranges []cutRange) []cutRange {
	var out []cutRange
	next := 1
	for _, r := range ranges {
		if r.lo > next {
			out = append(out, cutRange{next, r.lo - 1})
		}
		if r.hi == math.MaxInt {
			return out
		}
		next = r.hi + 1
	}
	return append(out, cutRange{next, math.MaxInt})
}

func (cfg *cutConfig) selected(pos int) bool {
	for _, r := range cfg.ranges {
		if pos < r.lo {
			return false
		}
		if pos <= r.hi {
			return true
		}
	}
	return false
}

func cutStream(t *tool, cfg *cutConfig, in io.Reader) error {
	br := bufio.NewReaderSize(in, 64*1024)
	var out []byte
	for {
		if t.stopped() {
			return nil
		}
		line, err := br.ReadSlice(cfg.eol)
		if err == bufio.ErrBufferFull {
			// A very long line: gather it whole, its head copied before
			// the reads that follow reuse the buffer (they overwrote it:
			// cut -c1-5 of a 70,000-byte line printed bytes from past
			// its head).
			head := append([]byte(nil), line...)
			var rest []byte
			rest, err = br.ReadBytes(cfg.eol)
			line = append(head, rest...)
		}
		if len(line) > 0 {
			body := bytes.TrimSuffix(line, []byte{cfg.eol})
			out = out[:0]
			var keep bool
			if cfg.fields {
				out, keep = cutFields(cfg, body, out)
			} else {
				out, keep = cutBytes(cfg, body, out), true
			}
			if keep {
				out = append(out, cfg.eol)
				if !t.write(out) {
					return nil
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func cutBytes(cfg *cutConfig, line, out []byte) []byte {
	for i, r := range cfg.ranges {
		if r.lo > len(line) {
			break
		}
		if i > 0 && cfg.hasOutDel {
			out = append(out, cfg.outDelim...)
		}
		out = append(out, line[r.lo-1:min(r.hi, len(line))]...)
	}
	return out
}

// cutFields selects fields; keep is false for a line without the
// delimiter under -s.
func cutFields(cfg *cutConfig, line, out []byte) ([]byte, bool) {
	if bytes.IndexByte(line, cfg.delim) < 0 {
		if cfg.onlyDelim {
			return out, false
		}
		return append(out, line...), true
	}
	first := true
	pos := 1
	for start := 0; start <= len(line); pos++ {
		end := bytes.IndexByte(line[start:], cfg.delim)
		if end < 0 {
			end = len(line)
		} else {
			end += start
		}
		if cfg.selected(pos) {
			if !first {
				out = append(out, cfg.outDelim...)
			}
			out = append(out, line[start:end]...)
			first = false
		}
		start = end + 1
	}
	return out, true
}
