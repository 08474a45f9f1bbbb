package utils

import (
	"strconv"
	"strings"
)

var prOpts = []optDef{
	{long: "pages", arg: needArg},
	{long: "columns", arg: needArg},
	{short: 'a', long: "across"},
	{short: 'b'},
	{short: 'c', long: "show-control-chars"},
	{short: 'd', long: "double-space"},
	{short: 'D', long: "date-format", arg: needArg},
	{short: 'e', long: "expand-tabs", arg: maybeArg},
	{short: 'f', long: "form-feed"},
	{short: 'F'},
	{short: 'h', long: "header", arg: needArg},
	{short: 'i', long: "output-tabs", arg: maybeArg},
	{short: 'J', long: "join-lines"},
	{short: 'l', long: "length", arg: needArg},
	{short: 'm', long: "merge"},
	{short: 'n', long: "number-lines", arg: maybeArg},
	{short: 'N', long: "first-line-number", arg: needArg},
	{short: 'o', long: "indent", arg: needArg},
	{short: 'r', long: "no-file-warnings"},
	{short: 's', long: "separator", arg: maybeArg},
	{short: 'S', long: "sep-string", arg: maybeArg},
	{short: 't', long: "omit-header"},
	{short: 'T', long: "omit-pagination"},
	{short: 'v', long: "show-nonprinting"},
	{short: 'w', long: "width", arg: needArg},
	{short: 'W', long: "page-width", arg: needArg},
}

var prMode = parseMode{digitsAs: "digits"}

// prUtility makes pr (see builtins): every FILE is read; nothing is
// written but standard output.
func prUtility(string) *Utility {
	return &Utility{
		Name:        "pr",
		Run:         runPr,
		Keeps:       KeepsNothing, // pages of stored columns are charged as they grow
		Operands:    prOperands,
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			return "pr: " + quoteIfNeeded(arg) + ": " + msg + "\n"
		},
		Help: prHelp,
	}
}

func prOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, prOpts, prMode)
	if err != nil {
		return nil
	}
	var refs []OperandRef
	pagesGiven := args.has("pages")
	for _, i := range args.operands {
		a := argv[i]
		if a == "-" {
			continue
		}
		if !pagesGiven && strings.HasPrefix(a, "+") {
			if _, _, ok := prPageRange(a[1:]); ok {
				pagesGiven = true
				continue
			}
		}
		refs = append(refs, OperandRef{Index: i, Kind: Read})
	}
	return refs
}

// prPageRange parses FIRST[:LAST]; ok is false for a range pr refuses.
func prPageRange(s string) (first, last uint64, ok bool) {
	head, tail, colon := strings.Cut(s, ":")
	first, err := strconv.ParseUint(head, 10, 64)
	if err != nil || first == 0 {
		return 0, 0, false
	}
	last = ^uint64(0)
	if colon {
		last, err = strconv.ParseUint(tail, 10, 64)
		if err != nil || last < first {
			return 0, 0, false
		}
	}
	return first, last, true
}

// prNumber is getoptnum: a decimal between min and 2^31-1, or pr's
// message for it.
func prNumber(s string, min int64, what string) (int, string) {
	n, err := strconv.ParseInt(strings.TrimLeft(s, " \t"), 10, 64)
	switch {
	case err != nil && errorsIsRange(err):
		return 0, what + ": " + quoteLocale(s) + ": Value too large for defined data type"
	case err != nil:
		return 0, what + ": " + quoteLocale(s)
	case n > 1<<31-1 || n < -1<<31:
		return 0, what + ": " + quoteLocale(s) + ": Value too large for defined data type"
	case n < min:
		return 0, what + ": " + quoteLocale(s) + ": Numerical result out of range"
	}
	return int(n), ""
}

func errorsIsRange(err error) bool {
	e, ok := err.(*strconv.NumError)
	return ok && e.Err == strconv.ErrRange
}

// prCharArg is getoptarg: an optional leading non-digit CHAR, then an
// optional positive WIDTH. msg is pr's complaint (a usage error).
func prCharArg(arg string, letter byte, c *byte, n *int) string {
	if arg != "" && (arg[0] < '0' || arg[0] > '9') {
		*c, arg = arg[0], arg[1:]
	}
	if arg == "" {
		return ""
	}
	v, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || v <= 0 || v > 1<<31-1 {
		return "'-" + string(letter) + "' extra characters or invalid number in the argument: " + quoteLocale(arg)
	}
	*n = int(v)
	return ""
}

func runPr(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "pr", defs: prOpts, mode: prMode, usageExit: 1, help: prHelp})
	if done {
		return status, nil
	}
	r := newPrRun(t)
	if msg, usage := r.options(args); msg != "" {
		if usage {
			return t.end(t.usage(msg))
		}
		t.warn(msg)
		return t.end(1)
	}
	var files []string
	for _, i := range args.operands {
		a := e.Args[i]
		if r.firstPage == 0 && strings.HasPrefix(a, "+") {
			if first, last, ok := prPageRange(a[1:]); ok {
				r.firstPage, r.lastPage = first, last
				continue
			}
		}
		files = append(files, a)
	}
	if msg := r.settle(); msg != "" {
		t.warn(msg)
		return t.end(1)
	}
	switch {
	case len(files) == 0:
		r.printFiles(nil)
	case r.parallel:
		r.printFiles(files)
	default:
		for _, f := range files {
			if r.dead || t.stopped() {
				break
			}
			r.printFiles([]string{f})
		}
	}
	r.release()
	if r.dead || r.failedOpens {
		return t.end(1)
	}
	return t.end(0)
}

func newPrRun(t *tool) *prRun {
	return &prRun{t: t, columns: 1, storing: true, linesPerPage: 66, charsPerLine: 72,
		inTab: '\t', inTabWidth: 8, outTab: '\t', outTabWidth: 8, extremities: true,
		numSep: '\t', numDigits: 5, startLineNum: 1, skipCount: true,
		colSep: "", lastPage: ^uint64(0), dateFormat: "%Y-%m-%d %H:%M"}
}

// options reads the command line; usage says the message is a usage
// error (followed by the --help hint).
func (r *prRun) options(args *parsedArgs) (msg string, usage bool) {
	digits := ""
	for _, o := range args.opts {
		if o.name == "digits" {
			digits += o.value
			continue
		}
		if o.name != "columns" && digits != "" {
			r.digits = digits
		}
		digits = ""
		if msg, usage := r.option(o); msg != "" {
			return msg, usage
		}
	}
	if digits != "" {
		r.digits = digits
	}
	if r.digits != "" {
		n, msg := prNumber(r.digits, 1, "invalid number of columns")
		if msg != "" {
			return msg, false
		}
		r.columns, r.explicitColumns = n, true
	}
	return "", false
}

func (r *prRun) option(o parsedOpt) (string, bool) {
	var msg string
	switch o.name {
	case "pages":
		first, last, ok := prPageRange(o.value)
		if !ok {
			return "invalid page range " + quoteLocale(o.value), false
		}
		r.firstPage, r.lastPage = first, last
	case "columns":
		r.digits = ""
		r.columns, msg = prNumber(o.value, 1, "invalid number of columns")
		r.explicitColumns = true
		r.columnsGiven = true
	case "across":
		r.across, r.storing = true, false
	case "b":
		r.balance = true
	case "show-control-chars":
		r.ctrlPrefix = true
	case "double-space":
		r.double = true
	case "date-format":
		r.dateFormat = o.value
	case "expand-tabs":
		if o.hasValue {
			if m := prCharArg(o.value, 'e', &r.inTab, &r.inTabWidth); m != "" {
				return m, true
			}
		}
		r.untabify = true
	case "form-feed", "F":
		r.formFeed = true
	case "header":
		h := o.value
		r.header = &h
	case "output-tabs":
		if o.hasValue {
			if m := prCharArg(o.value, 'i', &r.outTab, &r.outTabWidth); m != "" {
				return m, true
			}
		}
		r.tabify = true
	case "join-lines":
		r.join = true
	case "length":
		r.linesPerPage, msg = prNumber(o.value, 1, "'-l PAGE_LENGTH' invalid number of lines")
	case "merge":
		r.parallel, r.storing = true, false
	case "number-lines":
		r.numbered = true
		if o.hasValue {
			if m := prCharArg(o.value, 'n', &r.numSep, &r.numDigits); m != "" {
				return m, true
			}
		}
	case "first-line-number":
		r.skipCount = false
		r.startLineNum, msg = prNumber(o.value, -1<<31, "'-N NUMBER' invalid starting line number")
	case "indent":
		r.margin, msg = prNumber(o.value, 0, "'-o MARGIN' invalid line offset")
	case "no-file-warnings":
		r.ignoreFailed = true
	default:
		return r.option2(o)
	}
	return msg, false
}

func (r *prRun) option2(o parsedOpt) (string, bool) {
	var msg string
	switch o.name {
	case "separator":
		r.oldOptions, r.oldS = true, true
		if !r.useColSep && o.hasValue {
			r.colSep = o.value
		}
	case "sep-string":
		r.oldS = false
		r.colSep, r.useColSep = "", true
		if o.hasValue {
			r.colSep = o.value
		}
	case "omit-header":
		r.extremities, r.keepFF = false, true
	case "omit-pagination":
		r.extremities, r.keepFF = false, false
	case "show-nonprinting":
		r.escSeq = true
	case "width":
		r.oldOptions, r.oldW = true, true
		var n int
		n, msg = prNumber(o.value, 1, "'-w PAGE_WIDTH' invalid number of characters")
		if msg == "" && !r.truncate {
			r.charsPerLine = n
		}
	case "page-width":
		r.oldW = false
		r.truncate = true
		r.charsPerLine, msg = prNumber(o.value, 1, "'-W PAGE_WIDTH' invalid number of characters")
	}
	return msg, false
}

// settle checks the combinations and translates the POSIX -s and -w into
// pr's own -J, -S and -W, as GNU pr does.
func (r *prRun) settle() string {
	if r.firstPage == 0 {
		r.firstPage = 1
	}
	if r.parallel && r.explicitColumns {
		return "cannot specify number of columns when printing in parallel"
	}
	if r.parallel && r.across {
		return "cannot specify both printing across and printing in parallel"
	}
	if !r.oldOptions {
		return ""
	}
	multi := r.parallel || r.explicitColumns
	switch {
	case r.oldW && multi:
		r.truncate = true
		if r.oldS {
			r.useColSep = true
		}
	case r.oldW:
		r.join = true
	case !r.useColSep && r.oldS && multi && !r.truncate:
		r.join = true
		if r.colSep != "" {
			r.useColSep = true
		}
	case !r.useColSep && r.oldS && multi:
		r.useColSep = true
	}
	return ""
}
