package utils

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
)

const headHelp = `Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E.
`

const tailHelp = `Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow             accepted; a workspace file does not grow while
                             tail reads it, so tail prints and exits
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
  -q, --quiet, --silent    never output headers giving file names
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E.
`

var headOpts = []optDef{
	{short: 'c', long: "bytes", arg: needArg},
	{short: 'n', long: "lines", arg: needArg},
	{short: 'q', long: "quiet"},
	{long: "silent"},
	{short: 'v', long: "verbose"},
	{short: 'z', long: "zero-terminated"},
}

var tailOpts = []optDef{
	{short: 'c', long: "bytes", arg: needArg},
	{short: 'f', long: "follow", arg: maybeArg},
	{short: 'F'},
	{short: 'n', long: "lines", arg: needArg},
	{long: "pid", arg: needArg},
	{short: 'q', long: "quiet"},
	{long: "silent"},
	{long: "retry"},
	{short: 's', long: "sleep-interval", arg: needArg},
	{short: 'v', long: "verbose"},
	{short: 'z', long: "zero-terminated"},
}

// headTailUtility makes head or tail (see builtins).
func headTailUtility(name string) *Utility {
	defs := headOpts
	help := headHelp
	run := runHead
	if name == "tail" {
		defs, help, run = tailOpts, tailHelp, runTail
	}
	return &Utility{
		Name: name,
		// head streams; what tail (and head -n -N) keeps it reads
		// with readWindowCtx, which charges it.
		Keeps: KeepsNothing,
		Run:   run,
		Operands: func(argv []string) []OperandRef {
			argv, shift := rewriteObsoleteCount(name, argv)
			args, err := parseArgs(argv, defs, parseMode{})
			if err != nil {
				return nil
			}
			var refs []OperandRef
			for _, i := range args.operands {
				if argv[i] != "-" {
					refs = append(refs, OperandRef{Index: i - shift, Kind: Read})
				}
			}
			return refs
		},
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			return name + ": cannot open " + quoteAlways(arg) + " for reading: " + msg + "\n"
		},
		Help: help,
	}
}

// rewriteObsoleteCount turns the historical "head -5", "tail -5", "tail
// +5" and "-5c" spellings into -n/-c options. shift is how many argv
// elements were inserted before the operands (so operand indexes can be
// mapped back).
func rewriteObsoleteCount(name string, argv []string) ([]string, int) {
	if len(argv) < 2 {
		return argv, 0
	}
	a := argv[1]
	if len(a) < 2 || (a[0] != '-' && !(name == "tail" && a[0] == '+')) || a[1] < '0' || a[1] > '9' {
		return argv, 0
	}
	if name == "tail" {
		// tail takes the old form only with at most one file after it.
		rest := argv[2:]
		if len(rest) > 1 && !(len(rest) == 2 && rest[0] == "--") {
			return argv, 0
		}
		if a[0] == '+' && len(rest) == 1 && strings.HasPrefix(rest[0], "-") && rest[0] != "-" {
			return argv, 0
		}
	}
	digits := 1
	for digits < len(a) && a[digits] >= '0' && a[digits] <= '9' {
		digits++
	}
	count, suffix := a[1:digits], a[digits:]
	unit := "-n"
	var extra []string
	for _, c := range suffix {
		switch c {
		case 'c':
			unit = "-c"
		case 'l':
			unit = "-n"
		case 'b', 'k', 'm':
			count += string(c)
		case 'q', 'v', 'z', 'f':
			extra = append(extra, "-"+string(c))
		default:
			return argv, 0
		}
	}
	if a[0] == '+' {
		count = "+" + count
	}
	out := []string{argv[0], unit, count}
	out = append(out, extra...)
	out = append(out, argv[2:]...)
	return out, len(out) - len(argv)
}

// isObsoleteCount reports the "-5" / "+5" spelling of a count (a "+5"
// the old form cannot take is a file name).
func isObsoleteCount(a string) bool {
	return len(a) > 1 && (a[0] == '-' || a[0] == '+') && a[1] >= '0' && a[1] <= '9'
}

// parseCount reads head/tail's NUM with GNU's multiplier suffixes.
func parseCount(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		// Larger than any file: GNU clamps to the maximum.
		n = 1<<63 - 1
	}
	mult, ok := countSuffix(s[i:])
	if !ok {
		return 0, false
	}
	if mult > 1 && n > (1<<63-1)/mult {
		return 1<<63 - 1, true
	}
	return n * mult, true
}

func countSuffix(suffix string) (int64, bool) {
	if suffix == "" {
		return 1, true
	}
	if suffix == "b" {
		return 512, true
	}
	const letters = "KMGTPEZY"
	letter := strings.ToUpper(suffix[:1])
	if suffix[0] == 'k' {
		letter = "K"
	}
	pos := strings.Index(letters, letter)
	if pos < 0 || pos > 5 {
		return 0, false
	}
	var base int64
	switch suffix[1:] {
	case "":
		base = 1024
	case "iB":
		base = 1024
	case "B":
		base = 1000
	default:
		return 0, false
	}
	mult := int64(1)
	for i := 0; i <= pos; i++ {
		mult *= base
	}
	return mult, true
}

// countSpec is -n or -c as given.
type countSpec struct {
	bytes bool
	n     int64
	// fromEnd: head -n -N (all but the last N) / tail -n N (last N).
	// fromStart: tail -n +N.
	sign byte // 0, '-' or '+'
}

// headTailArgs is what head and tail share after parsing.
type headTailArgs struct {
	count   countSpec
	headers int // -1 never, 0 auto, 1 always
	delim   byte
	files   []string
}

func parseHeadTail(t *tool, args *parsedArgs, argv []string, defaultSign byte) (*headTailArgs, bool) {
	h := &headTailArgs{count: countSpec{n: 10, sign: defaultSign}, delim: '\n'}
	for _, o := range args.opts {
		switch o.name {
		case "bytes", "lines":
			v := o.value
			sign := defaultSign
			if v != "" && (v[0] == '-' || v[0] == '+') {
				sign = v[0]
				v = v[1:]
				if t.name == "head" && sign == '+' {
					sign = defaultSign
				}
			}
			n, ok := parseCount(v)
			if !ok {
				what := "lines"
				if o.name == "bytes" {
					what = "bytes"
				}
				t.warn("invalid number of " + what + ": " + quoteAlways(o.value))
				return nil, false
			}
			h.count = countSpec{bytes: o.name == "bytes", n: n, sign: sign}
		case "quiet", "silent":
			h.headers = -1
		case "verbose":
			h.headers = 1
		case "zero-terminated":
			h.delim = 0
		}
	}
	h.files = args.operandStrings(argv)
	if len(h.files) == 0 {
		h.files = []string{"-"}
	}
	if h.headers == 0 && len(h.files) > 1 {
		h.headers = 1
	}
	return h, true
}

func runHead(e *Env) (int, error) { return runHeadTail(e, "head") }

func runTail(e *Env) (int, error) { return runHeadTail(e, "tail") }

func runHeadTail(e *Env, name string) (int, error) {
	argv, _ := rewriteObsoleteCount(name, e.Args)
	if name == "tail" && len(argv) > 1 && len(e.Args) > 1 && argv[1] == e.Args[1] && isObsoleteCount(e.Args[1]) && e.Args[1][0] == '-' {
		// "tail -1 a b": the old form takes one file at most, and the
		// digits are no option of the new one.
		t := newTool(e, name, tailHelp, 1)
		t.warn("option used in invalid context -- " + e.Args[1][1:2])
		return t.end(1)
	}
	shadow := *e
	shadow.Args = argv
	defs, help, sign := headOpts, headHelp, byte(0)
	if name == "tail" {
		defs, help, sign = tailOpts, tailHelp, '-'
	}
	t, args, status, done := begin(&shadow, spec{name: name, defs: defs, usageExit: 1, help: help})
	if done {
		return status, nil
	}
	h, ok := parseHeadTail(t, args, argv, sign)
	if !ok {
		return t.end(1)
	}
	firstHeader := true
	for _, file := range h.files {
		if t.stopped() {
			break
		}
		shown := file
		if file == "-" {
			shown = "standard input"
		}
		in, closeIn, err := t.openInput(file)
		if err != nil {
			t.warn("cannot open " + quoteAlways(shown) + " for reading: " + errText(err))
			status = 1
			continue
		}
		if h.headers > 0 {
			if !firstHeader {
				t.writeByte('\n')
			}
			firstHeader = false
			t.writeString("==> " + shown + " <==\n")
		}
		if name == "head" {
			err = headOne(t, in, h)
		} else {
			err = tailOne(t, in, h)
		}
		closeIn()
		if err != nil {
			t.warn("error reading " + quoteAlways(shown) + ": " + errText(err))
			status = 1
		}
	}
	if t.broken() {
		status = 1
	}
	return t.end(status)
}

// headOne prints the start of one input; it stops reading as soon as it
// has what it needs.
func headOne(t *tool, in io.Reader, h *headTailArgs) error {
	c := h.count
	if c.sign == '-' {
		return headAllBut(t, in, h)
	}
	if c.bytes {
		_, err := copyN(t, in, c.n)
		return err
	}
	if c.n == 0 {
		return nil
	}
	r := bufio.NewReaderSize(in, 32*1024)
	// What was read past the last line printed goes back (GNU head on
	// a seekable input).
	defer func() { unread(in, int64(r.Buffered())) }()
	lines := int64(0)
	for lines < c.n {
		chunk, err := r.ReadSlice(h.delim)
		if len(chunk) > 0 {
			if !t.write(chunk) {
				return nil
			}
			if chunk[len(chunk)-1] == h.delim {
				lines++
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// copyN copies at most n bytes to stdout.
func copyN(t *tool, in io.Reader, n int64) (int64, error) {
	buf := make([]byte, 32*1024)
	var done int64
	for done < n && !t.stopped() {
		want := int64(len(buf))
		if n-done < want {
			want = n - done
		}
		k, err := in.Read(buf[:want])
		if k > 0 {
			if !t.write(buf[:k]) {
				return done, nil
			}
			done += int64(k)
		}
		if err == io.EOF {
			return done, nil
		}
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// headAllBut is head -n -N / -c -N: everything except the last N units,
// written as soon as more input shows they are not among the last.
func headAllBut(t *tool, in io.Reader, h *headTailArgs) error {
	keep := lastUnits(h.count.n, h.count.bytes, h.delim)
	data, err := readWindowCtx(t, in, keep, t.write)
	if err != nil {
		return err
	}
	t.write(data[:keep(data)])
	return nil
}

// startOfLastLines returns the offset where the last n lines of data begin.
func startOfLastLines(data []byte, n int64, delim byte) int {
	end := len(data)
	if end > 0 && data[end-1] == delim {
		end-- // the final terminator belongs to the last line
	}
	for end > 0 {
		i := bytes.LastIndexByte(data[:end], delim)
		n--
		if n == 0 || i < 0 {
			if n == 0 {
				return i + 1
			}
			return 0
		}
		end = i
	}
	return 0
}

// readAllCtx reads everything, giving up when the line is cancelled. What
// it holds is charged to the line's memory budget (G-12.3).
func readAllCtx(t *tool, in io.Reader) ([]byte, error) {
	return readWindowCtx(t, in, nil, nil)
}

// readWindowCtx reads everything like readAllCtx but, when keepFrom is
// set, holds only the end of the input: whenever the buffer is full it asks
// keepFrom where what must still be kept begins, hands what comes before to
// drop (when set; reading ends when it says the output is gone) and reuses
// the room. tail -n N holds its last N lines and
// head -n -N streams all but them, whatever the input's length (G-12.3).
//
// The charge is the buffer's capacity; while it grows, the old buffer is
// charged too until the copy is done.
func readWindowCtx(t *tool, in io.Reader, keepFrom func([]byte) int, drop func([]byte) bool) ([]byte, error) {
	var buf []byte
	chunk := make([]byte, 64*1024)
	defer func() { t.env.Grow(-int64(len(chunk))) }()
	if err := t.env.Grow(int64(len(chunk))); err != nil {
		return nil, err
	}
	for {
		if err := t.ctx.Err(); err != nil {
			return buf, nil
		}
		k, err := in.Read(chunk)
		if k > 0 && len(buf)+k > cap(buf) {
			if keepFrom != nil {
				var open bool
				if buf, open = slideWindow(buf, keepFrom(buf), drop); !open {
					return buf[:0], nil
				}
			}
			// Grow only when what is kept fills half the buffer, so
			// that sliding stays rare next to reading.
			if len(buf)+k > cap(buf) || (keepFrom != nil && len(buf) > cap(buf)/2) {
				grown, merr := growHeld(t, buf, k)
				if merr != nil {
					return buf, merr
				}
				buf = grown
			}
		}
		buf = append(buf, chunk[:k]...)
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// slideWindow drops buf[:from] (handing it to drop first) and moves the
// rest to the front; it reports false when drop said the output is gone.
func slideWindow(buf []byte, from int, drop func([]byte) bool) ([]byte, bool) {
	if from <= 0 {
		return buf, true
	}
	if drop != nil && !drop(buf[:from]) {
		return buf, false
	}
	return buf[:copy(buf, buf[from:])], true
}

// growHeld returns a copy of buf with room for k more bytes, at least
// twice its capacity, charging the new buffer before it is made and giving
// the old one back after the copy.
func growHeld(t *tool, buf []byte, k int) ([]byte, error) {
	size := max(2*cap(buf), len(buf)+k, 64*1024)
	if err := t.env.Grow(int64(size)); err != nil {
		return buf, err
	}
	grown := make([]byte, len(buf), size)
	copy(grown, buf)
	t.env.Grow(-int64(cap(buf)))
	return grown, nil
}

// tailOne prints the end of one input (or, with +N, from unit N on).
func tailOne(t *tool, in io.Reader, h *headTailArgs) error {
	c := h.count
	if c.sign == '+' {
		skip := c.n - 1
		if skip < 0 {
			skip = 0
		}
		r := bufio.NewReaderSize(in, 32*1024)
		if c.bytes {
			if _, err := io.CopyN(io.Discard, r, skip); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		} else {
			for skip > 0 {
				chunk, err := r.ReadSlice(h.delim)
				if len(chunk) > 0 && chunk[len(chunk)-1] == h.delim {
					skip--
				}
				if err == bufio.ErrBufferFull {
					continue
				}
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return err
				}
			}
		}
		_, err := copyN(t, r, 1<<63-1)
		return err
	}
	keep := lastUnits(c.n, c.bytes, h.delim)
	data, err := readWindowCtx(t, in, keep, nil)
	if err != nil {
		return err
	}
	t.write(data[keep(data):])
	return nil
}

// lastUnits returns where the last n bytes (or lines ending in delim, the
// last one maybe unfinished) of data begin.
func lastUnits(n int64, bytes bool, delim byte) func([]byte) int {
	return func(data []byte) int {
		switch {
		case bytes:
			return int(max(int64(len(data))-n, 0))
		case n == 0:
			return len(data)
		default:
			return startOfLastLines(data, n, delim)
		}
	}
}
