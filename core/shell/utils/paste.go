package utils

import (
	"bufio"
	"bytes"
	"io"
)

const pasteHelp = `Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

var pasteOpts = []optDef{
	{short: 'd', long: "delimiters", arg: needArg},
	{short: 's', long: "serial"},
	{short: 'z', long: "zero-terminated"},
}

// pasteUtility makes the paste utility (see builtins).
func pasteUtility(string) *Utility {
	return &Utility{
		Name:        "paste",
		Run:         runPaste,
		Operands:    plainOperands(pasteOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("paste"),
		Help:        pasteHelp,
		Keeps:       KeepsLines,
	}
}

// pasteDelims expands LIST's escapes; an empty string stands for \0 (no
// delimiter at that position).
func pasteDelims(list string) ([]string, bool) {
	var out []string
	for i := 0; i < len(list); i++ {
		c := list[i]
		if c != '\\' {
			out = append(out, string(c))
			continue
		}
		if i+1 >= len(list) {
			return nil, false
		}
		i++
		switch list[i] {
		case 'n':
			out = append(out, "\n")
		case 't':
			out = append(out, "\t")
		case '0':
			out = append(out, "")
		case '\\':
			out = append(out, "\\")
		case 'b':
			out = append(out, "\b")
		case 'f':
			out = append(out, "\f")
		case 'r':
			out = append(out, "\r")
		case 'v':
			out = append(out, "\v")
		default:
			out = append(out, string(list[i]))
		}
	}
	return out, true
}

// pasteInput is one FILE operand being read line by line; several "-"
// operands share standard input.
type pasteInput struct {
	r    *bufio.Reader
	done bool
}

func runPaste(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "paste", defs: pasteOpts, usageExit: 1, help: pasteHelp})
	if done {
		return status, nil
	}
	delims := []string{"\t"}
	serial, eol := false, byte('\n')
	for _, o := range args.opts {
		switch o.name {
		case "delimiters":
			d, ok := pasteDelims(o.value)
			if !ok {
				t.warn("delimiter list ends with an unescaped backslash: " + o.value)
				return t.end(1)
			}
			delims = d
			if len(delims) == 0 {
				delims = []string{""}
			}
		case "serial":
			serial = true
		case "zero-terminated":
			eol = 0
		}
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		files = []string{"-"}
	}
	var stdin *bufio.Reader
	var inputs []*pasteInput
	var closers []func()
	for _, name := range files {
		if name == "-" {
			if stdin == nil {
				stdin = bufio.NewReader(t.stdin())
			}
			inputs = append(inputs, &pasteInput{r: stdin})
			continue
		}
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			for _, c := range closers {
				c()
			}
			return t.end(1)
		}
		closers = append(closers, closeIn)
		inputs = append(inputs, &pasteInput{r: bufio.NewReader(in)})
	}
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	if serial {
		pasteSerial(t, inputs, delims, eol)
	} else {
		pasteParallel(t, inputs, delims, eol)
	}
	return t.end(status)
}

// readLine returns the next line without its terminator.
func (p *pasteInput) readLine(eol byte) ([]byte, bool) {
	if p.done {
		return nil, false
	}
	line, err := p.r.ReadBytes(eol)
	if len(line) == 0 && err != nil {
		p.done = true
		return nil, false
	}
	if err == io.EOF {
		p.done = true
	}
	return bytes.TrimSuffix(line, []byte{eol}), true
}

func pasteParallel(t *tool, inputs []*pasteInput, delims []string, eol byte) {
	var out []byte
	for !t.stopped() {
		out = out[:0]
		any := false
		for i, in := range inputs {
			line, ok := in.readLine(eol)
			any = any || ok
			out = append(out, line...)
			if i < len(inputs)-1 {
				out = append(out, delims[i%len(delims)]...)
			}
		}
		if !any {
			return
		}
		out = append(out, eol)
		t.write(out)
	}
}

// pasteSerial joins each input's lines into one, written as it is read:
// the joined line of a large input is never held (G-12.3).
func pasteSerial(t *tool, inputs []*pasteInput, delims []string, eol byte) {
	var out []byte
	for _, in := range inputs {
		first := true
		k := 0
		for !t.stopped() {
			line, ok := in.readLine(eol)
			if !ok {
				break
			}
			if !first {
				out = append(out, delims[k%len(delims)]...)
				k++
			}
			out = append(out, line...)
			first = false
			if len(out) >= 64<<10 {
				t.write(out)
				out = out[:0]
			}
		}
		out = append(out, eol)
		t.write(out)
		out = out[:0]
	}
}
