package utils

import (
	"bytes"
	"regexp"
)

const tacHelp = `Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help        display this help and exit
      --version     output version information and exit
`

var tacOpts = []optDef{
	{short: 'b', long: "before"},
	{short: 'r', long: "regex"},
	{short: 's', long: "separator", arg: needArg},
}

// tacUtility makes the tac utility (see builtins).
func tacUtility(string) *Utility {
	return &Utility{
		Name:        "tac",
		Run:         runTac,
		Operands:    plainOperands(tacOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			return "tac: failed to open " + quoteAlways(arg) + " for reading: " + msg + "\n"
		},
		Help: tacHelp,
	}
}

func runTac(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "tac", defs: tacOpts, usageExit: 1, help: tacHelp})
	if done {
		return status, nil
	}
	sep, before, useRegex := "\n", false, false
	for _, o := range args.opts {
		switch o.name {
		case "before":
			before = true
		case "regex":
			useRegex = true
		case "separator":
			if o.value == "" {
				t.warn("separator cannot be empty")
				return t.end(1)
			}
			sep = o.value
		}
	}
	var re *regexp.Regexp
	if useRegex {
		translated, err := TranslateRegex(sep, RegexOptions{Dialect: BasicRegex})
		if err == nil {
			re, err = regexp.Compile(translated)
		}
		if err != nil {
			t.warn(err.Error())
			return t.end(1)
		}
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
			t.warn("failed to open " + quoteAlways(name) + " for reading: " + errText(err))
			status = 1
			continue
		}
		data, err := readAllCtx(t, in)
		closeIn()
		if err != nil {
			t.warn(quoteAlways(name) + ": read error: " + errText(err))
			status = 1
			continue
		}
		// The records (two words each) and the reversed copy are held
		// beside the input.
		if t.env.Grow(int64(len(data))+40*int64(bytes.Count(data, []byte(sep))+1)) != nil {
			return t.end(1)
		}
		t.write(tacReverse(data, []byte(sep), re, before))
	}
	return t.end(status)
}

// tacReverse returns the records of data in reverse order; each record
// keeps its separator at its end (or, with before, at its start).
func tacReverse(data, sep []byte, re *regexp.Regexp, before bool) []byte {
	// Find every separator as [start, end) spans.
	var spans [][2]int
	if re != nil {
		for _, m := range re.FindAllIndex(data, -1) {
			if m[1] > m[0] {
				spans = append(spans, [2]int{m[0], m[1]})
			}
		}
	} else {
		for from := 0; ; {
			i := bytes.Index(data[from:], sep)
			if i < 0 {
				break
			}
			spans = append(spans, [2]int{from + i, from + i + len(sep)})
			from += i + len(sep)
		}
	}
	var records [][]byte
	start := 0
	for _, s := range spans {
		if before {
			if s[0] > start || start == 0 && s[0] > 0 {
				records = append(records, data[start:s[0]])
			}
			start = s[0]
		} else {
			records = append(records, data[start:s[1]])
			start = s[1]
		}
	}
	if start < len(data) {
		records = append(records, data[start:])
	}
	out := make([]byte, 0, len(data))
	for i := len(records) - 1; i >= 0; i-- {
		out = append(out, records[i]...)
	}
	return out
}
