package utils

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"sync"
)

const xargsHelp = `Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
      --version                output version information and exit

Commands run through the workspace's gate like any other.
`

var xargsOpts = []optDef{
	{short: '0', long: "null"},
	{short: 'a', long: "arg-file", arg: needArg},
	{short: 'd', long: "delimiter", arg: needArg},
	{short: 'E', arg: needArg},
	{short: 'e', long: "eof", arg: maybeArg},
	{short: 'I', arg: needArg},
	{short: 'i', long: "replace", arg: maybeArg},
	{short: 'L', long: "max-lines", arg: needArg},
	{short: 'l', arg: maybeArg},
	{short: 'n', long: "max-args", arg: needArg},
	{short: 'P', long: "max-procs", arg: needArg},
	{short: 'r', long: "no-run-if-empty"},
	{short: 's', long: "max-chars", arg: needArg},
	{short: 't', long: "verbose"},
	{short: 'x', long: "exit"},
	{long: "show-limits"},
}

var xargsMode = parseMode{stopAtOperand: true}

// xargsUtility makes the xargs utility (see builtins).
func xargsUtility(string) *Utility {
	return &Utility{
		Name: "xargs",
		Run:  runXargs,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, xargsOpts, xargsMode)
			if err != nil {
				return nil
			}
			var refs []OperandRef
			for _, o := range args.opts {
				if o.name == "arg-file" && o.value != "-" {
					refs = append(refs, optionOperand(o, Read))
				}
			}
			return refs
		},
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "xargs: " + arg + ": " + msg + "\n" },
		Help:        xargsHelp,
	}
}

// xargsMaxChars is GNU's default command-line size.
const xargsMaxChars = 131072

// xargsConfig is the parsed command line.
type xargsConfig struct {
	delim      int // -1: blanks and quotes; else the byte that ends an item
	eof        string
	replace    string // -I
	maxLines   int
	maxArgs    int
	procs      int
	noEmptyRun bool
	maxChars   int
	verbose    bool
	exitOnSize bool
	argFile    string
	command    []string
}

func runXargs(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "xargs", defs: xargsOpts, mode: xargsMode, usageExit: 1, help: xargsHelp,
		version: "xargs (GNU findutils) 4.9.0\n"})
	if done {
		return status, nil
	}
	cfg := &xargsConfig{delim: -1, procs: 1, maxChars: xargsMaxChars}
	for _, o := range args.opts {
		var msg string
		switch o.name {
		case "null":
			cfg.delim = 0
		case "arg-file":
			cfg.argFile = o.value
		case "delimiter":
			d, ok := parseDelimiter(o.value)
			if !ok {
				msg = "invalid input delimiter specification " + o.value + ": the delimiter must be either a single character or an escape sequence starting with \\."
			}
			cfg.delim = int(d)
		case "E":
			cfg.eof = o.value
		case "eof":
			cfg.eof = o.value
		case "I":
			cfg.replace, cfg.maxLines, cfg.maxArgs = o.value, 1, 0
		case "replace":
			cfg.replace, cfg.maxLines, cfg.maxArgs = "{}", 1, 0
			if o.hasValue {
				cfg.replace = o.value
			}
		case "max-lines", "l":
			n := 1
			if o.hasValue {
				n, msg = xargsNumber(o.value, "-L", 1)
			}
			cfg.maxLines, cfg.maxArgs, cfg.replace = n, 0, ""
		case "max-args":
			cfg.maxArgs, msg = xargsNumber(o.value, "-n", 1)
			cfg.maxLines, cfg.replace = 0, ""
		case "max-procs":
			cfg.procs, msg = xargsNumber(o.value, "-P", 0)
			if cfg.procs == 0 {
				cfg.procs = 64
			}
		case "no-run-if-empty":
			cfg.noEmptyRun = true
		case "max-chars":
			cfg.maxChars, msg = xargsNumber(o.value, "-s", 1)
		case "verbose":
			cfg.verbose = true
		case "exit":
			cfg.exitOnSize = true
		case "show-limits":
			t.rawStderr("Size of command buffer we are actually using: " + strconv.Itoa(xargsMaxChars) + "\n")
		}
		if strings.HasPrefix(msg, "usage:") {
			return t.end(t.usage(strings.TrimPrefix(msg, "usage:")))
		}
		if msg != "" {
			t.warn(msg)
			return t.end(1)
		}
	}
	cfg.command = args.operandStrings(e.Args)
	if len(cfg.command) == 0 {
		cfg.command = []string{"echo"}
	}
	input := t.stdin()
	if cfg.argFile != "" {
		in, closeIn, err := t.openInput(cfg.argFile)
		if err != nil {
			t.warn("Cannot open input file " + quoteAlways(cfg.argFile) + ": " + errText(err))
			return t.end(1)
		}
		defer closeIn()
		input = in
	}
	x := &xargsRun{t: t, cfg: cfg, in: newXargsReader(bufio.NewReaderSize(input, 64*1024), cfg)}
	return x.run()
}

func xargsNumber(v, opt string, minimum int) (int, string) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, "usage:invalid number \"" + v + "\" for " + opt + " option"
	}
	if n < minimum {
		return 0, "usage:value " + v + " for " + opt + " option should be >= " + strconv.Itoa(minimum)
	}
	return n, ""
}

// parseDelimiter reads -d's argument: one character or a C escape.
func parseDelimiter(s string) (byte, bool) {
	if len(s) == 1 {
		return s[0], true
	}
	if len(s) < 2 || s[0] != '\\' {
		return 0, false
	}
	switch s[1] {
	case 'n':
		return '\n', len(s) == 2
	case 't':
		return '\t', len(s) == 2
	case 'r':
		return '\r', len(s) == 2
	case '0':
		if len(s) == 2 {
			return 0, true
		}
		n, err := strconv.ParseUint(s[1:], 8, 8)
		return byte(n), err == nil
	case '\\':
		return '\\', len(s) == 2
	case 'x':
		n, err := strconv.ParseUint(s[2:], 16, 8)
		return byte(n), err == nil
	}
	n, err := strconv.ParseUint(s[1:], 8, 8)
	return byte(n), err == nil
}

// xargsRun builds command lines from the input and runs them.
type xargsRun struct {
	t      *tool
	cfg    *xargsConfig
	in     *xargsReader
	mu     sync.Mutex // guards status, stop and the shared writers under -P
	status int
	stop   bool
	err    error
	wg     sync.WaitGroup
	slots  chan struct{}
	out    io.Writer
	errw   io.Writer
}

func (x *xargsRun) run() (int, error) {
	cfg := x.cfg
	x.t.flush()
	x.out, x.errw = x.t.sink, x.t.env.Stderr
	if cfg.procs > 1 {
		x.out = &lockedWriter{w: x.t.sink}
		x.errw = &lockedWriter{w: x.t.env.Stderr}
	}
	x.slots = make(chan struct{}, cfg.procs)
	baseSize := 0
	for _, a := range cfg.command {
		baseSize += len(a) + 1
	}
	ranAny := false
	var batch []string
	size := baseSize
	lines := 0
	flush := func() bool {
		// commandFor copies the items, so the batch's array serves the
		// next batch too.
		argv := x.commandFor(batch)
		batch, size, lines = batch[:0], baseSize, 0
		ranAny = true
		return x.launch(argv)
	}
	for !x.halted() {
		item, endsLine, ok, msg := x.in.next()
		if msg != "" {
			x.wait()
			x.t.warn(msg)
			return x.finish(1)
		}
		if !ok {
			break
		}
		if cfg.replace != "" {
			batch = append(batch, item)
			if !flush() {
				break
			}
			continue
		}
		if size+len(item)+1 > cfg.maxChars {
			if len(batch) == 0 || cfg.exitOnSize {
				x.wait()
				x.t.warn("argument line too long")
				return x.finish(1)
			}
			if !flush() {
				break
			}
		}
		batch = append(batch, item)
		size += len(item) + 1
		if endsLine {
			lines++
		}
		if (cfg.maxArgs > 0 && len(batch) >= cfg.maxArgs) || (cfg.maxLines > 0 && lines >= cfg.maxLines) {
			if !flush() {
				break
			}
		}
	}
	if !x.halted() && (len(batch) > 0 || (!ranAny && !cfg.noEmptyRun && cfg.replace == "")) {
		flush()
	}
	x.wait()
	return x.finish(x.status)
}

func (x *xargsRun) finish(status int) (int, error) {
	x.mu.Lock()
	err := x.err
	x.mu.Unlock()
	if err != nil {
		x.t.finish(status)
		return status, err
	}
	return x.t.end(status)
}

func (x *xargsRun) halted() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.stop || x.t.ctx.Err() != nil
}

func (x *xargsRun) wait() { x.wg.Wait() }

// commandFor builds one command line from the items of a batch.
func (x *xargsRun) commandFor(items []string) []string {
	cfg := x.cfg
	if cfg.replace != "" {
		argv := make([]string, len(cfg.command))
		for i, a := range cfg.command {
			argv[i] = strings.ReplaceAll(a, cfg.replace, items[0])
		}
		return argv
	}
	return append(append([]string(nil), cfg.command...), items...)
}

// launch runs one command line (in the background under -P) and reports
// whether xargs should go on.
func (x *xargsRun) launch(argv []string) bool {
	if x.cfg.verbose {
		io.WriteString(x.errw, strings.Join(argv, " ")+"\n")
	}
	if lp := x.t.env.LookPath; x.t.env.Exec == nil || (lp != nil && !lp(argv[0])) {
		// What exec(2) would say of a command that is not installed.
		x.mu.Lock()
		io.WriteString(x.errw, "xargs: "+argv[0]+": No such file or directory\n")
		x.status, x.stop = 127, true
		x.mu.Unlock()
		return false
	}
	x.slots <- struct{}{}
	x.wg.Add(1)
	runOne := func() {
		defer x.wg.Done()
		defer func() { <-x.slots }()
		status, err := x.t.env.Exec(x.t.ctx, argv, strings.NewReader(""), x.out, x.errw)
		x.settle(argv[0], status, err)
	}
	if x.cfg.procs > 1 {
		x.t.env.Go(runOne)
	} else {
		runOne()
	}
	return !x.halted()
}

// settle folds one command's status into xargs' own, as GNU does: 123 for
// a failure, 124 and stop for 255, stop with 126/127 when the command
// could not run at all.
func (x *xargsRun) settle(name string, status int, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case err != nil:
		if x.err == nil {
			x.err = err
		}
		x.stop = true
		if x.status == 0 {
			x.status = 1
		}
	case status == 255:
		if !x.stop {
			io.WriteString(x.errw, "xargs: "+name+": exited with status 255; aborting\n")
		}
		x.status, x.stop = 124, true
	case status == 126 || status == 127:
		x.status, x.stop = status, true
	case status != 0:
		if x.status == 0 {
			x.status = 123
		}
	}
}

// lockedWriter serialises writes of parallel commands.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// xargsReader splits the input into items the way xargs reads them.
type xargsReader struct {
	r    *bufio.Reader
	cfg  *xargsConfig
	done bool
	item []byte // the item being read, reused: one allocation per item
}

func newXargsReader(r *bufio.Reader, cfg *xargsConfig) *xargsReader {
	return &xargsReader{r: r, cfg: cfg}
}

const xargsQuoteHint = "; by default quotes are special to xargs unless you use the -0 option"

// next returns the next item; endsLine says a newline ended it (for -L).
// msg is a fatal input error.
func (x *xargsReader) next() (item string, endsLine, ok bool, msg string) {
	if x.done {
		return "", false, false, ""
	}
	if x.cfg.delim >= 0 {
		s, err := x.r.ReadString(byte(x.cfg.delim))
		if err != nil {
			x.done = true
			if s == "" {
				return "", false, false, ""
			}
			return s, true, true, ""
		}
		return s[:len(s)-1], true, true, ""
	}
	replaceMode := x.cfg.replace != ""
	// Skip the blanks (and, outside -I, newlines) before an item.
	for {
		c, err := x.r.ReadByte()
		if err != nil {
			x.done = true
			return "", false, false, ""
		}
		if c == ' ' || c == '\t' || c == '\n' {
			continue
		}
		x.r.UnreadByte()
		break
	}
	if !replaceMode {
		if item, endsLine, ok := x.plainItem(); ok {
			if x.cfg.eof != "" && item == x.cfg.eof {
				x.done = true
				return "", false, false, ""
			}
			return item, endsLine, true, ""
		}
	}
	b := x.item[:0]
	defer func() { x.item = b[:0] }()
	quoted := false
	for {
		c, err := x.r.ReadByte()
		if err != nil {
			x.done = true
			break
		}
		switch {
		case c == '\'' || c == '"':
			quoted = true
			for {
				q, err := x.r.ReadByte()
				if err != nil || q == '\n' {
					kind := "single"
					if c == '"' {
						kind = "double"
					}
					return "", false, false, "unmatched " + kind + " quote" + xargsQuoteHint
				}
				if q == c {
					break
				}
				b = append(b, q)
			}
			continue
		case c == '\\':
			n, err := x.r.ReadByte()
			if err == nil {
				b = append(b, n)
			}
			continue
		case c == '\n':
			endsLine = true
		case (c == ' ' || c == '\t') && !replaceMode:
			endsLine = x.trailingBlanksEndLine()
		default:
			b = append(b, c)
			continue
		}
		break
	}
	item = string(b)
	if replaceMode {
		item = strings.TrimRight(item, " \t")
	}
	if x.cfg.eof != "" && !quoted && item == x.cfg.eof {
		x.done = true
		return "", false, false, ""
	}
	return item, endsLine || x.done, true, ""
}

// plainItem takes an item that the reader's buffer holds whole and that
// has no quote or backslash, as find's output has, in one slice instead
// of byte by byte; ok is false, with nothing consumed, for any other item.
func (x *xargsReader) plainItem() (item string, endsLine, ok bool) {
	buf, _ := x.r.Peek(x.r.Buffered())
	for i, c := range buf {
		switch c {
		case '\n':
			item = string(buf[:i])
			x.r.Discard(i + 1)
			return item, true, true
		case ' ', '\t':
			item = string(buf[:i])
			x.r.Discard(i + 1)
			return item, x.trailingBlanksEndLine(), true
		case '\'', '"', '\\':
			return "", false, false
		}
	}
	return "", false, false
}

// trailingBlanksEndLine consumes the blanks after an item. A line that
// ends in blanks continues on the next one (for -L), so the item does not
// end a line even when a newline follows.
func (x *xargsReader) trailingBlanksEndLine() bool {
	for {
		c, err := x.r.ReadByte()
		if err != nil {
			return true
		}
		if c == ' ' || c == '\t' {
			continue
		}
		if c == '\n' {
			return false
		}
		x.r.UnreadByte()
		return false
	}
}
