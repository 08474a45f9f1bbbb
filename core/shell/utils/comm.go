package utils

import (
	"bufio"
	"bytes"
	"strconv"
)

const commHelp = `Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

When FILE1 or FILE2 (not both) is -, read standard input.

With no options, produce three-column output.  Column one contains
lines unique to FILE1, column two contains lines unique to FILE2,
and column three contains lines common to both files.

  -1                      suppress column 1 (lines unique to FILE1)
  -2                      suppress column 2 (lines unique to FILE2)
  -3                      suppress column 3 (lines that appear in both files)

  --check-order           check that the input is correctly sorted, even
                            if all input lines are pairable
  --nocheck-order         do not check that the input is correctly sorted
                            (the default here)
  --output-delimiter=STR  separate columns with STR
  --total                 output a summary
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Note, comparisons honor the rules specified by 'LC_COLLATE'.

Examples:
  comm -12 file1 file2  Print only lines present in both file1 and file2.
  comm -3 file1 file2  Print lines in file1 not in file2, and vice versa.
`

var commOpts = []optDef{
	{short: '1'},
	{short: '2'},
	{short: '3'},
	{long: "check-order"},
	{long: "nocheck-order"},
	{long: "output-delimiter", arg: needArg},
	{long: "total"},
	{short: 'z', long: "zero-terminated"},
}

// commUtility makes the comm utility (see builtins).
func commUtility(string) *Utility {
	return &Utility{
		Name:        "comm",
		Run:         runComm,
		Operands:    plainOperands(commOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("comm"),
		Help:        commHelp,
		Keeps:       KeepsLines,
	}
}

// commFile reads one sorted input, remembering its previous line for
// --check-order.
type commFile struct {
	r    *bufio.Reader
	line []byte
	ok   bool
	prev []byte
	seen bool
	eol  byte
}

func (f *commFile) next() {
	if f.ok {
		f.prev, f.seen = f.line, true
	}
	line, err := f.r.ReadBytes(f.eol)
	if len(line) == 0 && err != nil {
		f.ok = false
		return
	}
	f.line, f.ok = bytes.TrimSuffix(line, []byte{f.eol}), true
}

func runComm(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "comm", defs: commOpts, usageExit: 1, help: commHelp})
	if done {
		return status, nil
	}
	show := [4]bool{false, true, true, true}
	// GNU's default checks order only once an unpairable line has been
	// seen, warns once per file and fails at the end; --check-order fails
	// at the first disorder; --nocheck-order never looks.
	orderMode, total, delim, eol := "default", false, "\t", byte('\n')
	for _, o := range args.opts {
		switch o.name {
		case "1", "2", "3":
			show[o.name[0]-'0'] = false
		case "check-order":
			orderMode = "check"
		case "nocheck-order":
			orderMode = "none"
		case "output-delimiter":
			delim = o.value
			if delim == "" {
				delim = "\x00"
			}
		case "total":
			total = true
		case "zero-terminated":
			eol = 0
		}
	}
	names := args.operandStrings(e.Args)
	switch len(names) {
	case 0:
		return t.end(t.usage("missing operand"))
	case 1:
		return t.end(t.usage("missing operand after " + quoteAlways(names[0])))
	case 2:
	default:
		return t.end(t.usage("extra operand " + quoteAlways(names[2])))
	}
	var files [2]*commFile
	for i, name := range names {
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			return t.end(1)
		}
		defer closeIn()
		files[i] = &commFile{r: bufio.NewReader(in), eol: eol}
		files[i].next()
	}
	// Column k is indented by the delimiters of the shown columns before it.
	prefix := [4]string{}
	for k := 1; k <= 3; k++ {
		for j := 1; j < k; j++ {
			if show[j] {
				prefix[k] += delim
			}
		}
	}
	var counts [4]int64
	seenUnpairable, fatal := false, false
	var warned [2]bool
	emit := func(col int, line []byte) {
		counts[col]++
		if col != 3 {
			seenUnpairable = true
		}
		if show[col] {
			t.write(append(append([]byte(prefix[col]), line...), eol))
		}
	}
	// advance reads file i's next line and checks it against the one
	// before, as GNU does when it reads.
	advance := func(i int) {
		f := files[i]
		f.next()
		if orderMode == "none" || warned[i] || (orderMode == "default" && !seenUnpairable) {
			return
		}
		if f.ok && f.seen && bytes.Compare(f.prev, f.line) > 0 {
			t.warn("file " + strconv.Itoa(i+1) + " is not in sorted order")
			warned[i] = true
			fatal = orderMode == "check"
		}
	}
	for (files[0].ok || files[1].ok) && !t.stopped() && !fatal {
		switch {
		case !files[1].ok:
			emit(1, files[0].line)
			advance(0)
		case !files[0].ok:
			emit(2, files[1].line)
			advance(1)
		default:
			switch c := bytes.Compare(files[0].line, files[1].line); {
			case c < 0:
				emit(1, files[0].line)
				advance(0)
			case c > 0:
				emit(2, files[1].line)
				advance(1)
			default:
				emit(3, files[0].line)
				advance(0)
				advance(1)
			}
		}
	}
	if fatal {
		return t.end(1)
	}
	if total {
		t.writeString(strconv.FormatInt(counts[1], 10) + delim + strconv.FormatInt(counts[2], 10) + delim +
			strconv.FormatInt(counts[3], 10) + delim + "total" + string(eol))
	}
	if warned[0] || warned[1] {
		t.warn("input is not in sorted order")
		return t.end(1)
	}
	return t.end(status)
}
