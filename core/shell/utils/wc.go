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

func init() {
	Register(&Utility{
		Name: "wc",
		Run:  runWc,
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
	})
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

type wcInput struct {
	name   string
	counts wcCounts
}

func runWc(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "wc", defs: wcOpts, usageExit: 1, help: wcHelp})
	if done {
		return status, nil
	}
	var show struct{ lines, words, chars, bytes, maxLine bool }
	total := "auto"
	var files0 string
	for _, o := range args.opts {
		switch o.name {
		case "bytes":
			show.bytes = true
		case "chars":
			show.chars = true
		case "lines":
			show.lines = true
		case "max-line-length":
			show.maxLine = true
		case "words":
			show.words = true
		case "total":
			switch o.value {
			case "auto", "always", "only", "never":
				total = o.value
			default:
				t.warn("invalid argument " + quoteAlways(o.value) + " for '--total'")
				return t.end(1)
			}
		case "files0-from":
			files0 = o.value
		}
	}
	if !show.lines && !show.words && !show.chars && !show.bytes && !show.maxLine {
		show.lines, show.words, show.bytes = true, true, true
	}
	files := args.operandStrings(e.Args)
	if files0 != "" {
		if len(files) > 0 {
			t.warn("extra operand " + quoteAlways(files[0]))
			t.rawStderr("file operands cannot be combined with --files0-from\nTry 'wc --help' for more information.\n")
			return t.end(1)
		}
		names, err := readFiles0(t, files0)
		if err != nil {
			t.warn("cannot open " + quoteAlways(files0) + " for reading: " + errText(err))
			return t.end(1)
		}
		files = names
	}
	fromStdin := len(files) == 0
	if fromStdin {
		files = []string{"-"}
	}
	needWords, needWidth := show.words, show.maxLine
	inputs := make([]wcInput, len(files))
	width := 1
	minWidth := 1
	var regularTotal int64
	// GNU sizes the columns before reading: from the total size of the
	// regular files, at least 7 wide when a pipe or terminal is involved.
	for i, name := range files {
		inputs[i].name = name
	}
	for _, name := range files {
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
	for n := regularTotal; n >= 10; n /= 10 {
		width++
	}
	width = max(width, minWidth)
	count := 0
	if show.lines {
		count++
	}
	if show.words {
		count++
	}
	if show.chars {
		count++
	}
	if show.bytes {
		count++
	}
	if show.maxLine {
		count++
	}
	if count == 1 && len(files) == 1 {
		width = 1
	}
	var sum wcCounts
	buf := make([]byte, 64*1024) // shared by every file of the run
	for i := range inputs {
		if t.stopped() {
			break
		}
		in := &inputs[i]
		r, closeIn, err := t.openInput(in.name)
		if err != nil {
			t.warn(quoteIfNeeded(in.name) + ": " + errText(err))
			status = 1
			continue
		}
		var c wcCounter
		for {
			k, rerr := r.Read(buf)
			c.add(buf[:k], needWords, needWidth)
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				t.warn(quoteIfNeeded(in.name) + ": " + errText(rerr))
				status = 1
				break
			}
			if t.ctx.Err() != nil {
				break
			}
		}
		closeIn()
		c.finish()
		in.counts = c.wcCounts
		sum.lines += c.lines
		sum.words += c.words
		sum.chars += c.chars
		sum.bytes += c.bytes
		sum.maxLine = max(sum.maxLine, c.maxLine)
		if total != "only" {
			name := in.name
			if fromStdin {
				name = ""
			}
			wcLine(t, c.wcCounts, show, width, name)
		}
	}
	if total == "always" || (total == "auto" && len(files) > 1) {
		wcLine(t, sum, show, width, "total")
	} else if total == "only" {
		wcLine(t, sum, show, 1, "")
	}
	return t.end(status)
}

// wcLine prints one row of counts, right-aligned to width.
func wcLine(t *tool, c wcCounts, show struct{ lines, words, chars, bytes, maxLine bool }, width int, name string) {
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
