package utils

import (
	"bufio"
	"io"
	"unicode/utf8"
)

const revHelp = `
Usage:
 rev [options] [file ...]

Reverse lines characterwise.

Options:
 -h, --help     display this help
 -V, --version  display version

For more details see rev(1).
`

var revOpts = []optDef{{short: 'h', long: "help"}, {short: 'V', long: "version"}}

// revUtility makes the rev utility (see builtins).
func revUtility(string) *Utility {
	return &Utility{
		Name:        "rev",
		Run:         runRev,
		Operands:    plainOperands(revOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "rev: cannot open " + arg + ": " + msg + "\n" },
		Help:        revHelp,
	}
}

func runRev(e *Env) (int, error) {
	t := newTool(e, "rev", revHelp, 1)
	args, uerr := parseArgs(e.Args, revOpts, parseMode{})
	if uerr != nil {
		t.warn(uerr.msg)
		t.rawStderr("Try 'rev --help' for more information.\n")
		return t.end(1)
	}
	for _, o := range args.opts {
		switch o.name {
		case "help":
			t.writeString(revHelp)
			return t.end(0)
		case "version":
			t.writeString("rev from util-linux 2.38.1\n")
			return t.end(0)
		}
	}
	status := 0
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
			t.warn("cannot open " + name + ": " + errText(err))
			status = 1
			continue
		}
		err = revStream(t, in)
		closeIn()
		if err != nil && !t.broken() {
			t.warn(name + ": " + errText(err))
			status = 1
		}
	}
	return t.end(status)
}

func revStream(t *tool, in io.Reader) error {
	br := bufio.NewReader(in)
	for !t.stopped() {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			nl := line[len(line)-1] == '\n'
			if nl {
				line = line[:len(line)-1]
			}
			out := revLine(line)
			if nl {
				out = append(out, '\n')
			}
			t.write(out)
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

// revLine reverses characters: UTF-8 sequences stay whole, other bytes
// move one by one.
func revLine(line []byte) []byte {
	out := make([]byte, len(line))
	pos := len(line)
	for i := 0; i < len(line); {
		_, size := utf8.DecodeRune(line[i:])
		pos -= size
		copy(out[pos:], line[i:i+size])
		i += size
	}
	return out
}
