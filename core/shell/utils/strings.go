package utils

import (
	"bufio"
	"io"
	"strconv"
)

const stringsHelp = `Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
 The options are:
  -a - --all                Scan the entire file (the default)
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -w --include-all-whitespace Include all whitespace as valid string characters
  -s --output-separator=<string> String used to separate strings in output.
  -h --help                 Display this information
  -v -V --version           Print the program's version number
`

var stringsOpts = []optDef{
	{short: 'a', long: "all"},
	{short: 'f', long: "print-file-name"},
	{short: 'n', long: "bytes", arg: needArg},
	{short: 't', long: "radix", arg: needArg},
	{short: 'o'},
	{short: 'w', long: "include-all-whitespace"},
	{short: 's', long: "output-separator", arg: needArg},
	{short: 'h'},
	{short: 'v'},
	{short: 'V'},
	{short: 'd', long: "data"},
	{short: 'e', long: "encoding", arg: needArg},
}

// stringsUtility makes the strings utility (see builtins).
func stringsUtility(string) *Utility {
	return &Utility{
		Name:        "strings",
		Keeps:       KeepsNothing,
		Run:         runStrings,
		Operands:    inputOperands(stringsOpts, parseMode{digitsAs: "bytes"}),
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "strings: '" + arg + "': No such file\n" },
		Help:        stringsHelp,
	}
}

// stringsConfig is a parsed strings command line.
type stringsConfig struct {
	min       int
	radix     byte
	withName  bool
	allSpace  bool
	separator string
}

func runStrings(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "strings", defs: stringsOpts, mode: parseMode{digitsAs: "bytes"}, usageExit: 1, help: stringsHelp,
		version: "GNU strings (GNU Binutils for Debian) 2.40\n"})
	if done {
		return t.end(status)
	}
	cfg := &stringsConfig{min: 4, separator: "\n"}
	for _, o := range args.opts {
		switch o.name {
		case "print-file-name":
			cfg.withName = true
		case "bytes":
			n, err := strconv.Atoi(o.value)
			if err != nil || n < 1 {
				t.warn("invalid minimum string length " + o.value)
				return t.end(1)
			}
			cfg.min = n
		case "radix":
			if len(o.value) != 1 || (o.value[0] != 'o' && o.value[0] != 'd' && o.value[0] != 'x') {
				t.warn("invalid radix")
				return t.end(1)
			}
			cfg.radix = o.value[0]
		case "o":
			cfg.radix = 'o'
		case "include-all-whitespace":
			cfg.allSpace = true
		case "output-separator":
			cfg.separator = o.value
		case "h":
			t.writeString(stringsHelp)
			return t.end(0)
		case "v", "V":
			t.writeString("GNU strings (GNU Binutils for Debian) 2.40\n")
			return t.end(0)
		}
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		stringsScan(t, cfg, t.stdin(), "{standard input}")
		return t.end(0)
	}
	status = 0
	for _, name := range files {
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.rawStderr("strings: '" + name + "': No such file\n")
			status = 1
			continue
		}
		stringsScan(t, cfg, in, name)
		closeIn()
	}
	return t.end(status)
}

// stringsScan prints the runs of at least min printable characters (and
// tabs) in a stream, with their offsets when -t asked. A long run is
// written as it is read, 64 KiB at a time, not held whole (G-12.3).
func stringsScan(t *tool, cfg *stringsConfig, in io.Reader, name string) {
	br := bufio.NewReader(in)
	var run []byte
	var start, off int64
	streaming := false // the run's head is written; run holds what follows
	head := func() {
		if cfg.withName {
			t.writeString(name + ": ")
		}
		if cfg.radix != 0 {
			base := map[byte]int{'o': 8, 'd': 10, 'x': 16}[cfg.radix]
			t.writeString(padLeft(strconv.FormatInt(start, base), 7) + " ")
		}
	}
	emit := func() {
		if streaming || len(run) >= cfg.min {
			if !streaming {
				head()
			}
			t.write(run)
			t.writeString(cfg.separator)
		}
		run, streaming = run[:0], false
	}
	for !t.stopped() {
		c, err := br.ReadByte()
		if err != nil {
			break
		}
		printable := (c >= 0x20 && c < 0x7f) || c == '\t' || (cfg.allSpace && (c == '\n' || c == '\r' || c == '\v' || c == '\f'))
		if printable {
			if len(run) == 0 {
				start = off
			}
			run = append(run, c)
			if len(run) >= 64<<10 && (streaming || len(run) >= cfg.min) {
				if !streaming {
					head()
				}
				t.write(run)
				run, streaming = run[:0], true
			}
		} else {
			emit()
		}
		off++
	}
	emit()
}
