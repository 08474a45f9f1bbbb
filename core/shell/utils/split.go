package utils

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

const splitHelp = `Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\0' (zero) specifies the NUL character
      --verbose           print a diagnostic just before each
                            output file is opened
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records

--filter is not available: gatehouse runs no shell commands for split.
`

var splitOpts = []optDef{
	{short: 'a', long: "suffix-length", arg: needArg},
	{long: "additional-suffix", arg: needArg},
	{short: 'b', long: "bytes", arg: needArg},
	{short: 'C', long: "line-bytes", arg: needArg},
	{short: 'd'},
	{long: "numeric-suffixes", arg: maybeArg},
	{short: 'x'},
	{long: "hex-suffixes", arg: maybeArg},
	{short: 'e', long: "elide-empty-files"},
	{long: "filter", arg: needArg},
	{short: 'l', long: "lines", arg: needArg},
	{short: 'n', long: "number", arg: needArg},
	{short: 't', long: "separator", arg: needArg},
	{short: 'u', long: "unbuffered"},
	{long: "verbose"},
}

// splitUtility makes the split utility (see builtins).
func splitUtility(string) *Utility {
	return &Utility{
		Name:        "split",
		Keeps:       KeepsNothing,
		Run:         runSplit,
		Operands:    splitOperands,
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			return "split: cannot open " + quoteAlways(arg) + " for reading: " + msg + "\n"
		},
		WriteVoice: func(arg, msg string) string { return "split: " + quoteIfNeeded(arg) + ": " + msg + "\n" },
		Help:       splitHelp,
	}
}

// splitOperands: FILE is read; PREFIX names the files written.
func splitOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, splitOpts, parseMode{})
	if err != nil {
		return nil
	}
	var refs []OperandRef
	for k, i := range args.operands {
		switch {
		case k == 0 && argv[i] != "-":
			refs = append(refs, OperandRef{Index: i, Kind: Read})
		case k == 1:
			refs = append(refs, OperandRef{Index: i, Kind: Write})
		}
	}
	return refs
}

// splitNamer generates output names: PREFIX + suffix + extra.
type splitNamer struct {
	prefix, extra string
	digits        string
	length        int
	auto          bool // widen the suffix when it runs out, as GNU does by default
}

// name returns the i-th output name, or false when suffixes ran out.
func (n *splitNamer) name(i int64) (string, bool) {
	base := int64(len(n.digits))
	if !n.auto {
		var total int64 = 1
		for range n.length {
			total *= base
			if total > 1<<40 {
				break
			}
		}
		if i >= total {
			return "", false
		}
		return n.prefix + n.spell(i, n.length) + n.extra, true
	}
	// Widening: level k names are the last digit repeated k times, then
	// length+k digits whose first one is not the last digit.
	lead := ""
	width := n.length
	for {
		var count int64 = base - 1
		for range width - 1 {
			count *= base
		}
		if i < count {
			return n.prefix + lead + n.spell(i, width) + n.extra, true
		}
		i -= count
		lead += n.digits[len(n.digits)-1:]
		width++
	}
}

func (n *splitNamer) spell(i int64, width int) string {
	base := int64(len(n.digits))
	out := make([]byte, width)
	for k := width - 1; k >= 0; k-- {
		out[k] = n.digits[i%base]
		i /= base
	}
	return string(out)
}

// splitSize parses SIZE with GNU's units.
func splitSize(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	unit := s[i:]
	if unit == "" {
		return n, true
	}
	powers := "KMGTPEZY"
	p := strings.IndexByte(powers, strings.ToUpper(unit[:1])[0])
	if unit == "b" {
		return n * 512, true
	}
	if p < 0 {
		return 0, false
	}
	var mult int64 = 1024
	switch unit[1:] {
	case "", "iB":
	case "B":
		mult = 1000
	default:
		return 0, false
	}
	for range p + 1 {
		n *= mult
	}
	return n, true
}

type splitRun struct {
	t       *tool
	namer   *splitNamer
	next    int64
	verbose bool
	status  int
}

func runSplit(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "split", defs: splitOpts, usageExit: 1, help: splitHelp})
	if done {
		return status, nil
	}
	namer := &splitNamer{prefix: "x", digits: "abcdefghijklmnopqrstuvwxyz", length: 2, auto: true}
	mode, amount := "lines", int64(1000)
	chunks, sep, elide, verbose := "", byte('\n'), false, false
	var from int64
	for _, o := range args.opts {
		switch o.name {
		case "suffix-length":
			n, err := strconv.Atoi(o.value)
			if err != nil || n < 0 {
				t.warn("invalid suffix length: " + quoteAlways(o.value))
				return t.end(1)
			}
			namer.length, namer.auto = n, false
		case "additional-suffix":
			if strings.Contains(o.value, "/") {
				return t.end(t.usage("invalid suffix " + quoteAlways(o.value) + ", contains directory separator"))
			}
			namer.extra = o.value
		case "lines", "bytes", "line-bytes":
			what := map[string]string{"lines": "lines", "bytes": "bytes", "line-bytes": "bytes"}[o.name]
			n, ok := splitSize(o.value)
			if o.name == "lines" {
				v, err := strconv.ParseInt(o.value, 10, 64)
				n, ok = v, err == nil
			}
			if !ok || n <= 0 {
				msg := "invalid number of " + what + ": " + quoteAlways(o.value)
				if ok {
					msg += ": Numerical result out of range"
				}
				t.warn(msg)
				return t.end(1)
			}
			mode, amount = o.name, n
		case "d", "numeric-suffixes", "x", "hex-suffixes":
			namer.digits = "0123456789"
			if o.name == "x" || o.name == "hex-suffixes" {
				namer.digits = "0123456789abcdef"
			}
			if o.value != "" {
				v, err := strconv.ParseInt(o.value, 10, 64)
				if err != nil || v < 0 {
					t.warn("invalid start value for numerical suffix: " + quoteAlways(o.value))
					return t.end(1)
				}
				from = v
				namer.auto = false
			}
		case "elide-empty-files":
			elide = true
		case "filter":
			t.warn("--filter is not supported: gatehouse runs no shell commands")
			return t.end(1)
		case "number":
			chunks, mode = o.value, "number"
		case "separator":
			switch {
			case o.value == `\0`:
				sep = 0
			case len(o.value) == 1:
				sep = o.value[0]
			default:
				t.warn("multi-character separator " + quoteAlways(o.value))
				return t.end(1)
			}
		case "verbose":
			verbose = true
		}
	}
	ops := args.operandStrings(e.Args)
	if len(ops) > 2 {
		return t.end(t.usage("extra operand " + quoteAlways(ops[2])))
	}
	input := "-"
	if len(ops) >= 1 {
		input = ops[0]
	}
	if len(ops) == 2 {
		namer.prefix = ops[1]
	}
	in, closeIn, err := openOperand(t, input)
	if err != nil {
		t.warn("cannot open " + quoteAlways(input) + " for reading: " + errText(err))
		return t.end(1)
	}
	data, err := readAllCtx(t, in)
	closeIn()
	if err != nil {
		t.warn("read error: " + errText(err))
		return t.end(1)
	}
	s := &splitRun{t: t, namer: namer, next: from, verbose: verbose}
	// next cuts the next piece off data; the pieces are cut as they are
	// written, never listed: split -b 1 of 50 MB listed 50 million, and
	// -n 3/100000000000 a hundred billion empty ones, before writing any.
	var next func() ([]byte, bool)
	switch mode {
	case "lines":
		next = func() ([]byte, bool) { return splitRecord(&data, sep, amount) }
	case "bytes":
		next = func() ([]byte, bool) {
			if len(data) == 0 {
				return nil, false
			}
			k := min(int64(len(data)), amount)
			piece := data[:k]
			data = data[k:]
			return piece, true
		}
	case "line-bytes":
		next = func() ([]byte, bool) { return splitLineByte(&data, sep, amount) }
	case "number":
		c, err := newSplitChunks(data, sep, chunks)
		if err != nil {
			t.warn(err.Error())
			return t.end(1)
		}
		if c.toStdout > 0 {
			t.write(c.chunk(c.toStdout))
			return t.end(0)
		}
		namer.auto = false
		next = c.next
	}
	for piece, ok := next(); ok; piece, ok = next() {
		if t.stopped() {
			break
		}
		if elide && len(piece) == 0 {
			continue
		}
		if !s.write(piece) {
			break
		}
	}
	return t.end(s.status)
}

// write creates the next output file with piece as its content.
func (s *splitRun) write(piece []byte) bool {
	name, ok := s.namer.name(s.next)
	s.next++
	if !ok {
		s.t.warn("output file suffixes exhausted")
		s.status = 1
		return false
	}
	if s.verbose {
		s.t.writeString("creating file " + quoteAlways(name) + "\n")
	}
	f, err := s.t.env.FS.OpenFile(s.t.abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err == nil {
		_, err = f.Write(piece)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		s.t.warn(quoteIfNeeded(name) + ": " + errText(err))
		s.status = 1
		return false
	}
	return true
}

// splitRecord cuts the next n records off *data.
func splitRecord(data *[]byte, sep byte, n int64) ([]byte, bool) {
	d := *data
	if len(d) == 0 {
		return nil, false
	}
	end, count := 0, int64(0)
	for count < n && end < len(d) {
		i := bytes.IndexByte(d[end:], sep)
		if i < 0 {
			end = len(d)
			break
		}
		end += i + 1
		count++
	}
	*data = d[end:]
	return d[:end], true
}

// splitLineByte cuts the next piece off *data: whole records up to n
// bytes, a record cut only when it alone is longer.
func splitLineByte(data *[]byte, sep byte, n int64) ([]byte, bool) {
	d := *data
	if len(d) == 0 {
		return nil, false
	}
	end := 0
	for end < len(d) {
		i := bytes.IndexByte(d[end:], sep)
		recEnd := len(d)
		if i >= 0 {
			recEnd = end + i + 1
		}
		if int64(recEnd) > n {
			if end == 0 {
				end = int(min(n, int64(len(d))))
			}
			break
		}
		end = recEnd
	}
	*data = d[end:]
	return d[:end], true
}

// splitChunks is -n: N, K/N, l/N and l/K/N; toStdout is K when only that
// chunk is wanted on stdout.
type splitChunks struct {
	data     []byte
	sep      byte
	byLines  bool
	n, k     int64 // the chunks, and the next one
	toStdout int64
}

func newSplitChunks(data []byte, sep byte, spec string) (*splitChunks, error) {
	parts := strings.Split(spec, "/")
	c := &splitChunks{data: data, sep: sep, k: 1}
	if parts[0] == "l" {
		c.byLines, parts = true, parts[1:]
	} else if parts[0] == "r" {
		return nil, &splitError{"round-robin chunks (-n r/N) are not supported"}
	}
	nums := make([]int64, len(parts))
	for i, p := range parts {
		v, perr := strconv.ParseInt(p, 10, 64)
		if perr != nil || v <= 0 || len(parts) > 2 {
			msg := "invalid number of chunks: " + quoteAlways(spec)
			if perr == nil && v == 0 {
				msg += ": Numerical result out of range"
			}
			return nil, &splitError{msg}
		}
		nums[i] = v
	}
	c.n = nums[len(nums)-1]
	if len(nums) == 2 {
		c.toStdout = nums[0]
		if c.toStdout > c.n {
			return nil, &splitError{"invalid chunk number: " + quoteAlways(parts[0])}
		}
	}
	return c, nil
}

// end is where chunk k ends (0 for k = 0): the remainder of the size goes
// one byte each to the first chunks, and by lines a boundary moves to the
// end of the record that holds it, so each end depends on k alone.
func (c *splitChunks) end(k int64) int64 {
	size := int64(len(c.data))
	q, r := size/c.n, size%c.n
	end := k*q + min(k, r)
	if c.byLines && end < size && end > 0 {
		if i := bytes.IndexByte(c.data[end-1:], c.sep); i >= 0 {
			end += int64(i)
		} else {
			end = size
		}
	}
	return end
}

// chunk is chunk k (1-based).
func (c *splitChunks) chunk(k int64) []byte {
	start, end := c.end(k-1), c.end(k)
	return c.data[start:max(start, end)]
}

func (c *splitChunks) next() ([]byte, bool) {
	if c.k > c.n {
		return nil, false
	}
	c.k++
	return c.chunk(c.k - 1), true
}

type splitError struct{ msg string }

func (e *splitError) Error() string { return e.msg }
