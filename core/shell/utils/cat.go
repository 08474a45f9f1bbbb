package utils

import (
	"bufio"
	"io"
	"strconv"
)

const catHelp = `Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help        display this help and exit
      --version     output version information and exit
`

var catOpts = []optDef{
	{short: 'A', long: "show-all"},
	{short: 'b', long: "number-nonblank"},
	{short: 'e'},
	{short: 'E', long: "show-ends"},
	{short: 'n', long: "number"},
	{short: 's', long: "squeeze-blank"},
	{short: 't'},
	{short: 'T', long: "show-tabs"},
	{short: 'u'},
	{short: 'v', long: "show-nonprinting"},
}

// catUtility makes the cat utility (see builtins).
func catUtility(string) *Utility {
	return &Utility{
		Name:        "cat",
		Keeps:       KeepsNothing,
		Run:         runCat,
		Operands:    inputOperands(catOpts, parseMode{}),
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "cat: " + quoteIfNeeded(arg) + ": " + msg + "\n" },
		Help:        catHelp,
	}
}

// catFormat is what cat does to each line; the zero value copies bytes.
type catFormat struct {
	numberAll, numberNonblank, squeeze, showEnds, showTabs, showNonprinting bool
}

func (f catFormat) plain() bool { return f == catFormat{} }

// catState carries line numbering and blank squeezing across files, as
// GNU cat does.
type catState struct {
	lineNo      int
	atLineStart bool
	blankRun    int
}

func runCat(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "cat", defs: catOpts, usageExit: 1, help: catHelp})
	if done {
		return status, nil
	}
	var f catFormat
	for _, o := range args.opts {
		switch o.name {
		case "show-all":
			f.showNonprinting, f.showEnds, f.showTabs = true, true, true
		case "number-nonblank":
			f.numberNonblank = true
		case "e":
			f.showNonprinting, f.showEnds = true, true
		case "show-ends":
			f.showEnds = true
		case "number":
			f.numberAll = true
		case "squeeze-blank":
			f.squeeze = true
		case "t":
			f.showNonprinting, f.showTabs = true, true
		case "show-tabs":
			f.showTabs = true
		case "show-nonprinting":
			f.showNonprinting = true
		}
	}
	if f.numberNonblank {
		f.numberAll = false
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		files = []string{"-"}
	}
	st := &catState{atLineStart: true}
	buf := make([]byte, 32*1024) // shared by every file of the run; catCopy grows it
	for _, name := range files {
		if t.stopped() {
			break
		}
		in, closeIn, err := t.openInput(name)
		if err != nil {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			status = 1
			continue
		}
		if f.plain() {
			buf, err = catCopy(t, in, buf)
		} else {
			err = catFormatted(t, in, f, st)
		}
		closeIn()
		if err != nil && !t.broken() {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			status = 1
		}
	}
	if t.broken() {
		status = 1
	}
	return t.end(status)
}

// catMaxBuffer is how far catCopy grows its buffer for a large input, as
// GNU cat reads 128 KiB at a time: a quarter of the reads of 32 KiB.
const catMaxBuffer = 128 * 1024

// catCopy streams in to stdout and returns the buffer, grown when a read
// filled it (small files never pay for a large one). It returns read
// errors only; a failed write shows in t.broken().
func catCopy(t *tool, in io.Reader, buf []byte) ([]byte, error) {
	for {
		n, err := in.Read(buf)
		if n > 0 && !t.write(buf[:n]) {
			return buf, nil
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if t.ctx.Err() != nil {
			return buf, nil
		}
		if n == len(buf) && len(buf) < catMaxBuffer {
			buf = make([]byte, catMaxBuffer)
		}
	}
}

func catFormatted(t *tool, in io.Reader, f catFormat, st *catState) error {
	r := bufio.NewReaderSize(in, 32*1024)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			if !catLine(t, line, f, st) {
				return nil
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
		if t.ctx.Err() != nil {
			return nil
		}
	}
}

// catLine writes one line (or a piece of a long one) with cat's options.
func catLine(t *tool, line []byte, f catFormat, st *catState) bool {
	blank := st.atLineStart && len(line) == 1 && line[0] == '\n'
	if st.atLineStart {
		if blank {
			st.blankRun++
			if f.squeeze && st.blankRun > 1 {
				return true
			}
		} else {
			st.blankRun = 0
		}
		if f.numberAll || (f.numberNonblank && !blank) {
			st.lineNo++
			num := strconv.Itoa(st.lineNo)
			for i := len(num); i < 6; i++ {
				t.writeByte(' ')
			}
			t.writeString(num)
			t.writeByte('\t')
		}
	}
	body := line
	ends := body[len(body)-1] == '\n'
	if ends {
		body = body[:len(body)-1]
	}
	st.atLineStart = ends
	if !f.showNonprinting && !f.showTabs {
		t.write(body)
	} else {
		for _, c := range body {
			writeVisible(t, c, f.showNonprinting, f.showTabs)
		}
	}
	if ends {
		if f.showEnds {
			t.writeByte('$')
		}
		t.writeByte('\n')
	}
	return !t.broken()
}

// writeVisible writes c in cat -v notation: ^X for controls, M- for the
// high half, ^? for DEL; tabs stay unless showTabs.
func writeVisible(t *tool, c byte, nonprinting, tabs bool) {
	if c == '\t' {
		if tabs {
			t.writeString("^I")
		} else {
			t.writeByte(c)
		}
		return
	}
	if !nonprinting {
		t.writeByte(c)
		return
	}
	if c >= 128 {
		t.writeString("M-")
		c -= 128
	}
	switch {
	case c < 32:
		t.writeByte('^')
		t.writeByte(c + 64)
	case c == 127:
		t.writeString("^?")
	default:
		t.writeByte(c)
	}
}
