package utils

import (
	"bytes"
	"io"
	"io/fs"
	"strconv"
	"strings"
)

const wcHelp = `Usage: wc [OPTION]... [FILE]...
  or:  wc [OPTION]... --files0-from=F
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a nonempty sequence of non white
space delimited by white space characters or by start or end of input.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
      --files0-from=F    read input from the files specified by
                           NUL-terminated names in file F;
                           If F is - then read names from standard input
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --total=WHEN       when to print a line with total counts;
                           WHEN can be: auto, always, only, never
      --help        display this help and exit
      --version     output version information and exit
`

var wcOpts = []optDef{
	{short: 'c', long: "bytes"},
	{short: 'm', long: "chars"},
	{short: 'l', long: "lines"},
	{long: "files0-from", arg: needArg},
	{short: 'L', long: "max-line-length"},
	{short: 'w', long: "words"},
	{long: "total", arg: needArg},
}

// wcUtility makes the wc utility (see builtins).
func wcUtility(string) *Utility {
	return &Utility{
		Name:  "wc",
		Keeps: KeepsNothing,
		Run:   runWc,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, wcOpts, parseMode{})
			if err != nil {
				return nil
			}
			refs := fileRefs(argv, args.operands, Read)
			for _, o := range args.opts {
				if o.name == "files0-from" && o.value != "-" {
					refs = append(refs, optionOperand(o, Read))
				}
			}
			return refs
		},
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "wc: " + quoteIfNeeded(arg) + ": " + msg + "\n" },
		Help:        wcHelp,
	}
}

// wcCounts are the five numbers wc can print.
type wcCounts struct {
	lines, words, chars, bytes, maxLine int64
}

// wcCounter counts a stream in pieces, remembering state across them.
type wcCounter struct {
	wcCounts
	inWord bool
	col    int64 // display column of the current line
}

func (c *wcCounter) add(p []byte, needWords, needWidth bool) {
	c.bytes += int64(len(p))
	c.chars += int64(len(p)) // C locale: one byte, one character
	if !needWords && !needWidth {
		c.lines += int64(bytes.Count(p, []byte{'\n'}))
		return
	}
	for _, b := range p {
		switch b {
		case '\n':
			c.lines++
			c.maxLine = max(c.maxLine, c.col)
			c.col = 0
			c.inWord = false
			continue
		case '\r', '\f':
			c.maxLine = max(c.maxLine, c.col)
			c.col = 0
		case '\t':
			c.col += 8 - c.col%8
		case ' ':
			c.col++
		default:
			if b >= 0x20 && b < 0x7f {
				c.col++
			}
		}
		// GNU wc in the C locale: white space ends a word, a printable byte
		// starts one, and any other byte (NUL, control, >= 0x80) does
		// neither, so a file of NULs has no words.
		space := b == ' ' || (b >= '\t' && b <= '\r')
		if space {
			c.inWord = false
		} else if !c.inWord && b > ' ' && b < 0x7f {
			c.inWord = true
			c.words++
		}
	}
}

func (c *wcCounter) finish() { c.maxLine = max(c.maxLine, c.col) }

// wcShow is which counts wc prints, in its fixed column order.
type wcShow struct{ lines, words, chars, bytes, maxLine bool }

// columns is how many counts a row has.
func (s wcShow) columns() int {
	n := 0
	for _, on := range []bool{s.lines, s.words, s.chars, s.bytes, s.maxLine} {
		if on {
			n++
		}
	}
	return n
}

// wcConfig is a parsed wc command line.
type wcConfig struct {
	show      wcShow
	total     string // auto, always, only or never
	files     []string
	fromStdin bool // no operand: the one input is stdin, printed without a name
}

func runWc(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "wc", defs: wcOpts, usageExit: 1, help: wcHelp})
	if done {
		return status, nil
	}
	c, ok := wcConfigure(t, args)
	if !ok {
		return t.end(1)
	}
	width := c.width(t)
	var sum wcCounts
	buf := make([]byte, 64*1024) // shared by every file of the run
	for _, name := range c.files {
		if t.stopped() {
			break
		}
		counts, ok := c.count(t, name, buf, width)
		if !ok {
			status = 1
		}
		sum.lines += counts.lines
		sum.words += counts.words
		sum.chars += counts.chars
		sum.bytes += counts.bytes
		sum.maxLine = max(sum.maxLine, counts.maxLine)
	}
	if c.total == "always" || (c.total == "auto" && len(c.files) > 1) {
		wcLine(t, sum, c.show, width, "total")
	} else if c.total == "only" {
		wcLine(t, sum, c.show, 1, "")
	}
	return t.end(status)
}

// wcConfigure reads wc's options and operands; it has warned when ok is
// false.
func wcConfigure(t *tool, args *parsedArgs) (*wcConfig, bool) {
	c := &wcConfig{total: "auto"}
	var files0 string
	for _, o := range args.opts {
		switch o.name {
		case "bytes":
			c.show.bytes = true
		case "chars":
			c.show.chars = true
		case "lines":
			c.show.lines = true
		case "max-line-length":
			c.show.maxLine = true
		case "words":
			c.show.words = true
		case "total":
			switch o.value {
			case "auto", "always", "only", "never":
				c.total = o.value
			default:
				t.warn("invalid argument " + quoteAlways(o.value) + " for '--total'")
				return nil, false
			}
		case "files0-from":
			files0 = o.value
		}
	}
	if c.show.columns() == 0 {
		c.show.lines, c.show.words, c.show.bytes = true, true, true
	}
	c.files = args.operandStrings(t.env.Args)
	if files0 != "" {
		if len(c.files) > 0 {
			t.warn("extra operand " + quoteAlways(c.files[0]))
			t.rawStderr("file operands cannot be combined with --files0-from\nTry 'wc --help' for more information.\n")
			return nil, false
		}
		names, err := readFiles0(t, files0)
		if err != nil {
			t.warn("cannot open " + quoteAlways(files0) + " for reading: " + errText(err))
			return nil, false
		}
		c.files = names
	}
	c.fromStdin = len(c.files) == 0
	if c.fromStdin {
		c.files = []string{"-"}
	}
	return c, true
}

// width sizes the columns as GNU does, before reading: from the total size
// of the regular files, at least 7 wide when a pipe or terminal is
// involved, and 1 for a single count of a single input.
func (c *wcConfig) width(t *tool) int {
	if c.show.columns() == 1 && len(c.files) == 1 {
		return 1
	}
	minWidth := 1
	var regularTotal int64
	for _, name := range c.files {
		if name == "-" {
			if size, ok := regularSize(t.env.Stdin); ok {
				regularTotal += size
			} else {
				minWidth = 7
			}
			continue
		}
		info, err := t.env.FS.Stat(t.abs(name))
		if err == nil {
			if info.Mode().IsRegular() {
				regularTotal += info.Size()
			} else {
				minWidth = 7
			}
		}
	}
	width := 1
	for n := regularTotal; n >= 10; n /= 10 {
		width++
	}
	return max(width, minWidth)
}

// count reads one input through buf, prints its row (unless --total=only)
// at width and returns its counts; ok is false when it could not be read
// whole.
func (c *wcConfig) count(t *tool, name string, buf []byte, width int) (wcCounts, bool) {
	r, closeIn, err := t.openInput(name)
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return wcCounts{}, false
	}
	defer closeIn()
	ok := true
	var n wcCounter
	for {
		k, rerr := r.Read(buf)
		n.add(buf[:k], c.show.words, c.show.maxLine)
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			t.warn(quoteIfNeeded(name) + ": " + errText(rerr))
			ok = false
			break
		}
		if t.ctx.Err() != nil {
			break
		}
	}
	n.finish()
	if c.total != "only" {
		shown := name
		if c.fromStdin {
			shown = ""
		}
		wcLine(t, n.wcCounts, c.show, width, shown)
	}
	return n.wcCounts, ok
}

// wcLine prints one row of counts, right-aligned to width.
func wcLine(t *tool, c wcCounts, show wcShow, width int, name string) {
	var fields []string
	if show.lines {
		fields = append(fields, padLeft(strconv.FormatInt(c.lines, 10), width))
	}
	if show.words {
		fields = append(fields, padLeft(strconv.FormatInt(c.words, 10), width))
	}
	if show.chars {
		fields = append(fields, padLeft(strconv.FormatInt(c.chars, 10), width))
	}
	if show.bytes {
		fields = append(fields, padLeft(strconv.FormatInt(c.bytes, 10), width))
	}
	if show.maxLine {
		fields = append(fields, padLeft(strconv.FormatInt(c.maxLine, 10), width))
	}
	line := strings.Join(fields, " ")
	if name != "" {
		line += " " + name
	}
	t.writeString(line + "\n")
}

// regularSize reports the size of a standard input that is a regular file
// (a redirection), as fstat would.
func regularSize(r io.Reader) (int64, bool) {
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return 0, false
	}
	info, err := st.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return 0, false
	}
	return info.Size(), true
}

// readFiles0 reads NUL-separated names for --files0-from.
func readFiles0(t *tool, from string) ([]string, error) {
	in, closeIn, err := t.openInput(from)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	data, err := readAllCtx(t, in)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range strings.Split(string(data), "\x00") {
		if n != "" {
			names = append(names, n)
		}
	}
	return names, nil
}
