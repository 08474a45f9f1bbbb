package utils

import (
	"io/fs"
	"os"
	"strconv"
	"strings"

	"gatehouse/core/vfs"
)

const grepHelp = `Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl-like regular expressions
                              (RE2 syntax: no lookaround, no backreferences)
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
  -V, --version             display version information and exit
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
      --line-buffered       flush output on every line
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context
      --color[=WHEN],
      --colour[=WHEN]       accepted; output is never coloured
  -U, --binary              do not strip CR characters at EOL (MSDOS/Windows)

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2.
`

var grepOpts = []optDef{
	{short: 'E', long: "extended-regexp"},
	{short: 'F', long: "fixed-strings"},
	{short: 'G', long: "basic-regexp"},
	{short: 'P', long: "perl-regexp"},
	{short: 'e', long: "regexp", arg: needArg},
	{short: 'f', long: "file", arg: needArg},
	{short: 'i', long: "ignore-case"},
	{short: 'y'},
	{long: "no-ignore-case"},
	{short: 'w', long: "word-regexp"},
	{short: 'x', long: "line-regexp"},
	{short: 'z', long: "null-data"},
	{short: 's', long: "no-messages"},
	{short: 'v', long: "invert-match"},
	{short: 'V'},
	{short: 'm', long: "max-count", arg: needArg},
	{short: 'b', long: "byte-offset"},
	{short: 'n', long: "line-number"},
	{long: "line-buffered"},
	{short: 'H', long: "with-filename"},
	{short: 'h', long: "no-filename"},
	{long: "label", arg: needArg},
	{short: 'o', long: "only-matching"},
	{short: 'q', long: "quiet"},
	{long: "silent"},
	{long: "binary-files", arg: needArg},
	{short: 'a', long: "text"},
	{short: 'I'},
	{short: 'd', long: "directories", arg: needArg},
	{short: 'D', long: "devices", arg: needArg},
	{short: 'r', long: "recursive"},
	{short: 'R', long: "dereference-recursive"},
	{long: "include", arg: needArg},
	{long: "exclude", arg: needArg},
	{long: "exclude-dir", arg: needArg},
	{short: 'L', long: "files-without-match"},
	{short: 'l', long: "files-with-matches"},
	{short: 'c', long: "count"},
	{short: 'Z', long: "null"},
	{short: 'B', long: "before-context", arg: needArg},
	{short: 'A', long: "after-context", arg: needArg},
	{short: 'C', long: "context", arg: needArg},
	{long: "group-separator", arg: needArg},
	{long: "no-group-separator"},
	{long: "color", arg: maybeArg},
	{long: "colour", arg: maybeArg},
	{short: 'U', long: "binary"},
	{short: 'T', long: "initial-tab"},
}

var grepMode = parseMode{digitsAs: "context"}

const grepVersion = "grep (GNU grep) 3.11\n"

const grepUsageLine = "Usage: grep [OPTION]... PATTERNS [FILE]...\n"

// grepUtility makes grep, egrep or fgrep (see builtins).
func grepUtility(name string) *Utility {
	return &Utility{
		Name:        name,
		Run:         func(e *Env) (int, error) { return runGrep(e, name) },
		Operands:    grepOperands,
		OperandExit: 2,
		// egrep and fgrep are scripts that run grep: they speak as grep.
		Voice: func(arg, msg string) string { return "grep: " + arg + ": " + msg + "\n" },
		Help:  grepHelp,
	}
}

// grepOperands: the files, and -f's pattern files; the pattern is not a
// path.
func grepOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, grepOpts, grepMode)
	if err != nil {
		return nil
	}
	var refs []OperandRef
	patternGiven := false
	for _, o := range args.opts {
		switch o.name {
		case "regexp":
			patternGiven = true
		case "file":
			patternGiven = true
			if o.value != "-" {
				refs = append(refs, optionOperand(o, Read))
			}
		}
	}
	files := args.operands
	if !patternGiven && len(files) > 0 {
		files = files[1:]
	}
	return appendFileRefs(refs, argv, files, Read)
}

// grepConfig is the parsed command line.
type grepConfig struct {
	dialect                      string // "G", "E", "F", "P"
	patterns                     []string
	ignoreCase, word, line       bool
	nullData                     bool
	quietErrors, invert          bool
	maxCount                     int64 // -1: no limit
	byteOffset, lineNumber       bool
	withFilename                 int // -1 never, 0 default, 1 always
	label                        string
	onlyMatching, quiet          bool
	binaryFiles                  string // binary, text, without-match
	directories                  string // read, recurse, skip
	followAll                    bool   // -R
	includes                     []grepFilter
	excludeDirs                  []string
	filesWithout, filesWith      bool
	count, nullAfterName         bool
	before, after                int
	contextGiven                 bool // -A, -B, -C or -NUM, even 0: groups get "--"
	groupSeparator               string
	noGroupSeparator, initialTab bool
	patternSeen                  bool
}

// grepFilter is one --include or --exclude, in command-line order.
type grepFilter struct {
	glob    string
	include bool
}

func runGrep(e *Env, name string) (int, error) {
	t, args, status, done := begin(e, spec{name: "grep", defs: grepOpts, mode: grepMode, usageExit: 2, help: grepHelp, version: grepVersion, usageLine: grepUsageLine})
	if done {
		return status, nil
	}
	cfg := &grepConfig{dialect: "G", maxCount: -1, binaryFiles: "binary", directories: "read", groupSeparator: "--"}
	switch name {
	case "egrep":
		cfg.dialect = "E"
	case "fgrep":
		cfg.dialect = "F"
	}
	if msg := cfg.apply(t, args.opts); msg != "" {
		if msg == "-V" {
			t.writeString(grepVersion)
			return t.end(0)
		}
		if strings.HasPrefix(msg, "usage:") {
			// argmatch's complaint exits 1, unlike other usage errors.
			t.usage(strings.TrimPrefix(msg, "usage:"))
			return t.end(1)
		}
		t.warn(msg)
		return t.end(2)
	}
	operands := args.operandStrings(e.Args)
	if !cfg.patternSeen {
		if len(operands) == 0 {
			t.rawStderr(grepUsageLine + "Try 'grep --help' for more information.\n")
			return t.end(2)
		}
		cfg.patterns = splitPatterns(operands[0])
		operands = operands[1:]
	}
	m, err := newGrepMatcher(cfg)
	if err != nil {
		t.warn(err.Error())
		return t.end(2)
	}
	g := &grepper{t: t, cfg: cfg, m: m}
	implicit := false
	if len(operands) == 0 {
		if cfg.directories == "recurse" {
			operands, implicit = []string{"."}, true
		} else {
			operands = []string{"-"}
		}
	}
	if cfg.withFilename == 0 {
		switch {
		case len(operands) > 1:
			g.showNames = true
		case cfg.directories == "recurse":
			g.namesForRecursion = true
		}
	} else {
		g.showNames = cfg.withFilename > 0
	}
	for _, op := range operands {
		if g.finished() {
			break
		}
		g.operand(op, implicit)
	}
	switch {
	case cfg.quiet && g.selected:
		return t.end(0)
	case g.failed:
		return t.end(2)
	case g.selected:
		return t.end(0)
	}
	return t.end(1)
}

// splitPatterns turns one PATTERNS argument into its newline-separated
// patterns.
func splitPatterns(s string) []string { return strings.Split(s, "\n") }

// apply reads the options; it returns an error message (prefixed "usage:"
// for command-line mistakes) or "".
func (cfg *grepConfig) apply(t *tool, opts []parsedOpt) string {
	contextArg := func(v string) (int, string) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, v + ": invalid context length argument"
		}
		if n > 1<<31 {
			n = 1 << 31
		}
		return int(n), ""
	}
	for _, o := range opts {
		var msg string
		switch o.name {
		case "extended-regexp":
			cfg.dialect = "E"
		case "fixed-strings":
			cfg.dialect = "F"
		case "basic-regexp":
			cfg.dialect = "G"
		case "perl-regexp":
			cfg.dialect = "P"
		case "regexp":
			cfg.patterns = append(cfg.patterns, splitPatterns(o.value)...)
			cfg.patternSeen = true
		case "file":
			pats, err := readPatternFile(t, o.value)
			if err != nil {
				return o.value + ": " + errText(err)
			}
			cfg.patterns = append(cfg.patterns, pats...)
			cfg.patternSeen = true
		case "ignore-case", "y":
			cfg.ignoreCase = true
		case "no-ignore-case":
			cfg.ignoreCase = false
		case "word-regexp":
			cfg.word = true
		case "line-regexp":
			cfg.line = true
		case "null-data":
			cfg.nullData = true
		case "no-messages":
			cfg.quietErrors = true
		case "invert-match":
			cfg.invert = true
		case "V":
			return "-V"
		case "max-count":
			n, err := strconv.ParseInt(o.value, 10, 64)
			if err != nil {
				return "invalid max count"
			}
			if n < 0 {
				n = -1
			}
			cfg.maxCount = n
		case "byte-offset":
			cfg.byteOffset = true
		case "line-number":
			cfg.lineNumber = true
		case "with-filename":
			cfg.withFilename = 1
		case "no-filename":
			cfg.withFilename = -1
		case "label":
			cfg.label = o.value
		case "only-matching":
			cfg.onlyMatching = true
		case "quiet", "silent":
			cfg.quiet = true
		case "binary-files":
			switch o.value {
			case "binary", "text", "without-match":
				cfg.binaryFiles = o.value
			default:
				return "unknown binary-files type"
			}
		case "text":
			cfg.binaryFiles = "text"
		case "I":
			cfg.binaryFiles = "without-match"
		case "directories":
			switch o.value {
			case "read", "recurse", "skip":
				cfg.directories = o.value
			default:
				return "usage:invalid argument " + quoteAlways(o.value) + " for '--directories'\nValid arguments are:\n  - 'read'\n  - 'recurse'\n  - 'skip'"
			}
		case "recursive":
			cfg.directories = "recurse"
		case "dereference-recursive":
			cfg.directories, cfg.followAll = "recurse", true
		case "include":
			cfg.includes = append(cfg.includes, grepFilter{glob: o.value, include: true})
		case "exclude":
			cfg.includes = append(cfg.includes, grepFilter{glob: o.value})
		case "exclude-dir":
			cfg.excludeDirs = append(cfg.excludeDirs, o.value)
		case "files-without-match":
			cfg.filesWithout, cfg.filesWith = true, false
		case "files-with-matches":
			cfg.filesWith, cfg.filesWithout = true, false
		case "count":
			cfg.count = true
		case "null":
			cfg.nullAfterName = true
		case "before-context":
			cfg.before, msg = contextArg(o.value)
			cfg.contextGiven = true
		case "after-context":
			cfg.after, msg = contextArg(o.value)
			cfg.contextGiven = true
		case "context":
			cfg.before, msg = contextArg(o.value)
			cfg.after = cfg.before
			cfg.contextGiven = true
		case "group-separator":
			cfg.groupSeparator, cfg.noGroupSeparator = o.value, false
		case "no-group-separator":
			cfg.noGroupSeparator = true
		case "initial-tab":
			cfg.initialTab = true
		}
		if msg != "" {
			return msg
		}
	}
	return ""
}

// readPatternFile reads -f FILE: one pattern per line; an empty file
// gives no patterns (matching nothing).
func readPatternFile(t *tool, name string) ([]string, error) {
	in, closeIn, err := t.openInput(name)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	data, err := readAllCtx(t, in)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, nil
	}
	s := strings.TrimSuffix(string(data), "\n")
	return strings.Split(s, "\n"), nil
}

// operand searches one command-line operand.
func (g *grepper) operand(op string, implicit bool) {
	cfg := g.cfg
	if op == "-" {
		name := "(standard input)"
		if cfg.label != "" {
			name = cfg.label
		}
		g.searchStream(g.t.stdin(), name, g.showNames, -1)
		return
	}
	p := g.t.abs(op)
	if cfg.directories != "read" {
		info, err := g.t.env.FS.Stat(p)
		if err != nil {
			g.fileError(op, err)
			return
		}
		if info.IsDir() {
			if cfg.directories == "skip" {
				return
			}
			if !implicit && g.excludedDir(op) {
				return
			}
			prefix := op
			if implicit {
				prefix = ""
			}
			g.walk(p, prefix)
			return
		}
	}
	if !g.included(op, true) {
		return
	}
	g.searchFile(p, op, g.showNames, false)
}

// walk searches a directory tree; shown is the prefix names are printed
// with ("" for the implicit "." of a bare grep -r).
func (g *grepper) walk(dir, shown string) {
	if g.finished() {
		return
	}
	entries, err := g.t.env.FS.ReadDir(dir)
	if err != nil {
		name := shown
		if name == "" {
			name = "."
		}
		g.fileError(name, err)
		return
	}
	for _, ent := range entries {
		if g.finished() {
			return
		}
		name := ent.Name()
		child, childShown := joinEntry(dir, shown, name)
		typ := ent.Type()
		if typ&fs.ModeSymlink != 0 {
			if !g.cfg.followAll {
				continue // -r skips links it finds; -R follows them
			}
			info, err := g.t.env.FS.Stat(child)
			if err != nil {
				g.fileError(childShown, err)
				continue
			}
			typ = info.Mode().Type()
		}
		if typ.IsDir() {
			if g.excludedDir(name) {
				continue
			}
			g.walk(child, childShown)
			continue
		}
		if !typ.IsRegular() && typ&fs.ModeType != 0 {
			continue // devices, fifos and sockets found by recursion are skipped
		}
		if !g.included(name, false) {
			continue
		}
		// The listing said what this entry is: a host mount may then open
		// it without a look first (a link followed by -R may be anything).
		listed := ent.Type().IsRegular()
		g.searchFile(child, childShown, g.showNames || g.namesForRecursion, listed)
	}
}

// included applies --include/--exclude: the last filter that matches
// decides; with none matching, a file is in unless the first filter is an
// --include.
func (g *grepper) included(name string, commandLine bool) bool {
	filters := g.cfg.includes
	if len(filters) == 0 {
		return true
	}
	base := name
	if i := strings.LastIndexByte(strings.TrimRight(name, "/"), '/'); i >= 0 {
		base = name[i+1:]
	}
	verdict, decided := false, false
	for _, f := range filters {
		if fnmatch(f.glob, base, fnmatchFlags{}) || (commandLine && fnmatch(f.glob, name, fnmatchFlags{})) {
			verdict, decided = f.include, true
		}
	}
	if decided {
		return verdict
	}
	return !filters[0].include
}

func (g *grepper) excludedDir(name string) bool {
	base := strings.TrimRight(name, "/")
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	for _, glob := range g.cfg.excludeDirs {
		if fnmatch(glob, base, fnmatchFlags{}) || fnmatch(glob, name, fnmatchFlags{}) {
			return true
		}
	}
	return false
}

// fileError reports an unreadable file (unless -s) and marks trouble.
func (g *grepper) fileError(name string, err error) {
	g.failed = true
	if !g.cfg.quietErrors {
		g.t.warn(name + ": " + errText(err))
	}
}

// searchFile opens and searches one file.
// searchFile searches one file; listedRegular says the directory listing
// the walk just read recorded it as a regular file.
func (g *grepper) searchFile(p, shown string, showName, listedRegular bool) {
	flag := os.O_RDONLY
	if listedRegular {
		flag |= vfs.OListedRegular
	}
	f, err := g.t.env.FS.OpenFile(p, flag, 0)
	if err != nil {
		g.fileError(shown, err)
		return
	}
	defer f.Close()
	size := int64(-1)
	if info, err := f.Stat(); err == nil {
		if info.IsDir() && g.cfg.directories == "skip" {
			return
		}
		if info.Mode().IsRegular() {
			size = info.Size()
		}
	}
	g.searchStream(f, shown, showName, size)
}
