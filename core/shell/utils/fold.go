package utils

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

const foldHelp = `Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE (standard input by default), writing to
standard output.

  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
      --help        display this help and exit
      --version     output version information and exit
`

var foldOpts = []optDef{
	{short: 'b', long: "bytes"},
	{short: 's', long: "spaces"},
	{short: 'w', long: "width", arg: needArg},
}

// foldUtility makes the fold utility (see builtins).
func foldUtility(string) *Utility {
	return &Utility{
		Name:        "fold",
		Run:         runFold,
		Operands:    inputOperands(foldOpts, parseMode{digitsAs: "width"}),
		OperandExit: 1,
		Help:        foldHelp,
	}
}

func runFold(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "fold", defs: foldOpts, mode: parseMode{digitsAs: "width"}, usageExit: 1, help: foldHelp})
	if done {
		return t.end(status)
	}
	width, bytes, spaces := 80, false, false
	for _, o := range args.opts {
		switch o.name {
		case "bytes":
			bytes = true
		case "spaces":
			spaces = true
		case "width":
			n, err := strconv.Atoi(o.value)
			switch {
			case err != nil || n < 0:
				t.warn("invalid number of columns: '" + o.value + "'")
				return t.end(1)
			case n == 0:
				t.warn("invalid number of columns: '" + o.value + "': Numerical result out of range")
				return t.end(1)
			}
			width = n
		}
	}
	return t.end(eachInput(t, args.operandStrings(e.Args), func(in io.Reader) error {
		return foldStream(t, in, width, bytes, spaces)
	}))
}

// eachInput runs fn over every operand in turn ("-" or none: standard
// input), reporting unreadable ones as "NAME: FILE: ERROR"; it returns
// the exit status.
func eachInput(t *tool, files []string, fn func(io.Reader) error) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, name := range files {
		if t.stopped() {
			break
		}
		in, closeIn, err := openOperand(t, name)
		if err == nil {
			err = fn(in)
			closeIn()
		}
		if err != nil && !t.broken() {
			t.warn(name + ": " + errText(err))
			status = 1
		}
	}
	return status
}

// foldStream wraps each line: a column counts as GNU fold counts it (a tab
// to the next multiple of 8, a backspace back one, a carriage return to
// zero) unless -b counts bytes.
func foldStream(t *tool, in io.Reader, width int, bytes, spaces bool) error {
	br := bufio.NewReader(in)
	var line []byte
	for !t.stopped() {
		chunk, err := br.ReadSlice('\n')
		line = append(line[:0], chunk...)
		for err == bufio.ErrBufferFull {
			chunk, err = br.ReadSlice('\n')
			line = append(line, chunk...)
		}
		if len(line) > 0 {
			foldLine(t, line, width, bytes, spaces)
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

// foldLine prints one line (with its newline, if any) wrapped to width.
func foldLine(t *tool, line []byte, width int, bytes, spaces bool) {
	var out strings.Builder
	col, start := 0, 0
	advance := func(c byte, col int) int {
		if bytes {
			return col + 1
		}
		switch c {
		case '\t':
			return col + 8 - col%8
		case '\b':
			return max(col-1, 0)
		case '\r':
			return 0
		}
		return col + 1
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '\n' {
			break
		}
		next := advance(c, col)
		if next > width && i > start {
			end := i
			if spaces {
				if sp := strings.LastIndexAny(string(line[start:i]), " \t"); sp >= 0 {
					end = start + sp + 1
				}
			}
			out.Write(line[start:end])
			out.WriteByte('\n')
			start = end
			col = 0
			for j := start; j < i; j++ {
				col = advance(line[j], col)
			}
			next = advance(c, col)
		}
		col = next
	}
	out.Write(line[start:])
	t.writeString(out.String())
}
