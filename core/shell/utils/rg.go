package utils

import (
	"strconv"
	"strings"

	"gatehouse/internal/lazy"
)

// rg is ripgrep 13 as a pipe sees it (stdout is never a terminal in a
// workspace): "path:line" without headings or line numbers unless asked,
// .gitignore (inside a git repository), .ignore and .rgignore respected,
// hidden and binary files skipped, files visited in path order.

const rgUsage = `USAGE:
    
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN
    rg [OPTIONS] --help
    rg [OPTIONS] --version

For more information try --help

`

const rgHelp = `ripgrep 13.0.0
Andrew Gallant <jamslam@gmail.com>

ripgrep (rg) recursively searches the current directory for a regex pattern.
By default, ripgrep will respect gitignore rules and automatically skip hidden
files/directories and binary files.

USAGE:
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN

OPTIONS:
    -A, --after-context <NUM>      Show NUM lines after each match.
    -B, --before-context <NUM>     Show NUM lines before each match.
    -b, --byte-offset              Print the 0-based byte offset for each line.
    -s, --case-sensitive           Search case sensitively (default).
        --column                   Show column numbers.
    -C, --context <NUM>            Show NUM lines before and after each match.
        --context-separator <SEP>  Set the context separator string.
    -c, --count                    Only show the count of matching lines.
        --count-matches            Only show the count of individual matches.
    -e, --regexp <PATTERN>...      A pattern to search for.
    -f, --file <PATTERNFILE>...    Search for patterns from the given file.
        --files                    Print each file that would be searched.
    -l, --files-with-matches       Print the paths with at least one match.
        --files-without-match      Print the paths with zero matches.
    -F, --fixed-strings            Treat the pattern as a literal string.
    -L, --follow                   Follow symbolic links.
    -g, --glob <GLOB>...           Include or exclude files.
        --glob-case-insensitive    Process all glob patterns case insensitively.
        --heading                  Print matches grouped by each file.
    -., --hidden                   Search hidden files and directories.
        --iglob <GLOB>...          Include or exclude files case insensitively.
    -i, --ignore-case              Case insensitive search.
        --json                     Show search results in a JSON Lines format.
        --ignore-file <PATH>...    Specify additional ignore files.
        --include-zero             Include files with zero matches with -c.
    -v, --invert-match             Invert matching.
    -n, --line-number              Show line numbers.
    -x, --line-regexp              Only show matches surrounded by line boundaries.
    -M, --max-columns <NUM>        Don't print lines longer than this limit.
    -U, --multiline                Enable matching across multiple lines.
        --multiline-dotall         Make '.' match new lines when multiline is
                                   enabled.
    -m, --max-count <NUM>          Limit the number of matching lines per file.
    -d, --max-depth <NUM>          Descend at most NUM directories.
        --no-filename              Never print the file path with the matched lines.
        --no-heading               Don't group matches by each file.
        --no-ignore                Don't respect ignore files.
        --no-ignore-dot            Don't respect .ignore files.
        --no-ignore-parent         Don't respect ignore files in parent directories.
        --no-ignore-vcs            Don't respect VCS ignore files.
    -N, --no-line-number           Suppress line numbers.
        --no-messages              Suppress some error messages.
    -0, --null                     Print a NUL byte after file paths.
    -o, --only-matching            Print only matched parts of a line.
        --passthru                 Print both matching and non-matching lines.
    -q, --quiet                    Do not print anything to stdout.
    -r, --replace <REPLACEMENT>    Replace matches with the given text.
    -S, --smart-case               Smart case search.
        --sort <SORTBY>            Sort the results (path, modified, accessed,
                                   created, none).
        --sortr <SORTBY>           Sort the results in descending order.
    -a, --text                     Search binary files as if they were text.
        --trim                     Trim prefixed whitespace from matches.
    -t, --type <TYPE>...           Only search files matching TYPE.
        --type-list                Show all supported file types.
    -T, --type-not <TYPE>...       Do not search files matching TYPE.
    -u, --unrestricted             Reduce the level of "smart" searching.
        --vimgrep                  Show results in vim compatible format.
    -H, --with-filename            Display the file path for matches.
    -w, --word-regexp              Only show matches surrounded by word boundaries.
    -h, --help                     Prints help information.
    -V, --version                  Prints version information.
`

var rgOpts = []optDef{
	{short: 'A', long: "after-context", arg: needArg},
	{short: 'B', long: "before-context", arg: needArg},
	{short: 'b', long: "byte-offset"},
	{short: 's', long: "case-sensitive"},
	{long: "column"},
	{long: "no-column"},
	{short: 'C', long: "context", arg: needArg},
	{long: "context-separator", arg: needArg},
	{short: 'c', long: "count"},
	{long: "count-matches"},
	{short: 'e', long: "regexp", arg: needArg},
	{short: 'f', long: "file", arg: needArg},
	{long: "files"},
	{short: 'l', long: "files-with-matches"},
	{long: "files-without-match"},
	{short: 'F', long: "fixed-strings"},
	{long: "no-fixed-strings"},
	{short: 'L', long: "follow"},
	{long: "no-follow"},
	{short: 'g', long: "glob", arg: needArg},
	{long: "glob-case-insensitive"},
	{long: "heading"},
	{long: "no-heading"},
	{short: '.', long: "hidden"},
	{long: "no-hidden"},
	{long: "iglob", arg: needArg},
	{short: 'i', long: "ignore-case"},
	{long: "ignore-file", arg: needArg},
	{long: "include-zero"},
	{short: 'v', long: "invert-match"},
	{short: 'n', long: "line-number"},
	{short: 'x', long: "line-regexp"},
	{short: 'M', long: "max-columns", arg: needArg},
	{short: 'm', long: "max-count", arg: needArg},
	{short: 'd', long: "max-depth", arg: needArg},
	{long: "maxdepth", arg: needArg},
	{short: 'I', long: "no-filename"},
	{long: "no-ignore"},
	{long: "no-ignore-dot"},
	{long: "no-ignore-parent"},
	{long: "no-ignore-vcs"},
	{long: "no-ignore-global"},
	{long: "no-ignore-exclude"},
	{long: "no-ignore-files"},
	{long: "no-ignore-messages"},
	{long: "no-config"},
	{short: 'N', long: "no-line-number"},
	{long: "no-messages"},
	{short: '0', long: "null"},
	{short: 'o', long: "only-matching"},
	{long: "passthru"},
	{long: "passthrough"},
	{short: 'q', long: "quiet"},
	{short: 'r', long: "replace", arg: needArg},
	{short: 'S', long: "smart-case"},
	{long: "sort", arg: needArg},
	{long: "sortr", arg: needArg},
	{short: 'a', long: "text"},
	{long: "no-text"},
	{long: "binary"},
	{long: "trim"},
	{short: 't', long: "type", arg: needArg},
	{long: "type-list"},
	{long: "type-add", arg: needArg},
	{long: "type-clear", arg: needArg},
	{short: 'T', long: "type-not", arg: needArg},
	{short: 'u', long: "unrestricted"},
	{long: "vimgrep"},
	{short: 'H', long: "with-filename"},
	{short: 'w', long: "word-regexp"},
	{short: 'h'},
	{short: 'V'},
	{short: 'j', long: "threads", arg: needArg},
	{long: "color", arg: needArg},
	{long: "colors", arg: needArg},
	{short: 'E', long: "encoding", arg: needArg},
	{long: "mmap"},
	{long: "no-mmap"},
	{long: "line-buffered"},
	{long: "block-buffered"},
	{long: "crlf"},
	{long: "no-crlf"},
	{short: 'P', long: "pcre2"},
	{long: "auto-hybrid-regex"},
	{long: "no-pcre2"},
	{long: "engine", arg: needArg},
	{short: 'U', long: "multiline"},
	{long: "no-multiline"},
	{long: "multiline-dotall"},
	{long: "no-multiline-dotall"},
	{long: "json"},
	{long: "no-json"},
}

// rgUtility makes the rg utility (see builtins).
func rgUtility(string) *Utility {
	return &Utility{
		Name:        "rg",
		Keeps:       KeepsAll,
		Run:         runRg,
		Operands:    rgOperands,
		OperandExit: 2,
		Voice:       func(arg, msg string) string { return arg + ": " + rgErrText(msg) + "\n" },
		Help:        rgHelp,
	}
}

// rgOperands: the first operand is the pattern unless -e, -f, --files or
// --type-list supplied it; the rest are paths, and so are -f and
// --ignore-file arguments.
func rgOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, rgOpts, parseMode{})
	if err != nil {
		return nil
	}
	var refs []OperandRef
	patternGiven := false
	for _, o := range args.opts {
		switch o.name {
		case "regexp", "files", "type-list":
			patternGiven = true
		case "file":
			patternGiven = true
			if o.value != "-" {
				refs = append(refs, optionOperand(o, Read))
			}
		case "ignore-file":
			refs = append(refs, optionOperand(o, Read))
		}
	}
	paths := args.operands
	if !patternGiven && len(paths) > 0 {
		paths = paths[1:]
	}
	return appendFileRefs(refs, argv, paths, Read)
}

// rgConfig is a parsed rg command line.
type rgConfig struct {
	patterns     []string
	patternFiles []string
	paths        []string

	fixed, word, line, invert      bool
	caseMode                       byte // 's' sensitive, 'i' insensitive, 'S' smart
	onlyMatching, passthru, trim   bool
	count, countMatches            bool
	includeZero                    bool
	filesWith, filesWithout        bool
	listFiles, typeList, quiet     bool
	lineNumber, heading, withName  int // -1 unset, 0 off, 1 on
	null, column, vimgrep, byteOff bool
	maxCount                       int64 // -1: no limit
	maxColumns                     int
	after, before                  int
	contextSep                     string
	replace                        *string
	globs                          []rgGlob
	globFold                       bool
	types, typesNot                []string
	typeDefs                       map[string][]string // --type-add and --type-clear, over the built-in types
	typeErr                        string              // a bad --type-add, printed as it is (status 2)
	ignoreFiles                    []string
	hidden, follow, text           bool
	noIgnore, noIgnoreVCS          bool
	noIgnoreDot, noIgnoreParent    bool
	maxDepth                       int // -1: no limit
	sortBy                         string
	sortReverse                    bool
	noMessages                     bool
	pcre                           bool // -P: lookaround, backreferences
	multiline, dotall              bool // -U, --multiline-dotall
	json                           bool // --json: JSON Lines messages
}

// rgGlob is one -g or --iglob argument.
type rgGlob struct {
	text string
	fold bool
}

// rgUsageError prints clap's voice for a command-line mistake.
func rgUsageError(t *tool, msg string) int {
	t.rawStderr("error: " + msg + "\n\n" + rgUsage)
	return 2
}

// rgParse reads the command line; done is true when rg must exit with
// status (help, version, a usage error).
func rgParse(t *tool, argv []string) (cfg *rgConfig, status int, done bool) {
	args, uerr := parseArgs(argv, rgOpts, parseMode{})
	if uerr != nil {
		return nil, rgUsageError(t, rgClapMessage(argv, uerr.msg)), true
	}
	cfg = &rgConfig{lineNumber: -1, heading: -1, withName: -1, maxCount: -1, maxDepth: -1, contextSep: "--", caseMode: 's'}
	patternGiven := false
	for _, o := range args.opts {
		if msg := cfg.apply(o); msg != "" {
			if msg == "help" {
				t.writeString(rgHelp)
				return nil, t.finish(0), true
			}
			if msg == "version" {
				t.writeString("ripgrep 13.0.0\n-SIMD -AVX (compiled)\n+SIMD +AVX (runtime)\n")
				return nil, t.finish(0), true
			}
			return nil, rgUsageError(t, msg), true
		}
		if o.name == "regexp" || o.name == "file" {
			patternGiven = true
		}
	}
	operands := args.operandStrings(argv)
	if !patternGiven && !cfg.listFiles && !cfg.typeList {
		if len(operands) == 0 {
			t.rawStderr("error: The following required arguments were not provided:\n    <PATTERN>\n\n" + rgUsage)
			return nil, 2, true
		}
		cfg.patterns = append(cfg.patterns, operands[0])
		operands = operands[1:]
	}
	cfg.paths = operands
	if cfg.json {
		// --json prints search results only (ripgrep's clap conflicts).
		for _, c := range []struct {
			on   bool
			flag string
		}{{cfg.count, "--count"}, {cfg.countMatches, "--count-matches"}, {cfg.listFiles, "--files"},
			{cfg.filesWith, "--files-with-matches"}, {cfg.filesWithout, "--files-without-match"}} {
			if c.on {
				return nil, rgUsageError(t, "The argument '--json' cannot be used with '"+c.flag+"'"), true
			}
		}
	}
	return cfg, 0, false
}

// rgClapMessage words a parse error as clap does.
func rgClapMessage(argv []string, msg string) string {
	if strings.HasPrefix(msg, "unrecognized option '") {
		opt := strings.TrimSuffix(strings.TrimPrefix(msg, "unrecognized option '"), "'")
		return "Found argument '" + opt + "' which wasn't expected, or isn't valid in this context"
	}
	if strings.HasPrefix(msg, "invalid option -- '") {
		c := strings.TrimSuffix(strings.TrimPrefix(msg, "invalid option -- '"), "'")
		return "Found argument '-" + c + "' which wasn't expected, or isn't valid in this context"
	}
	if strings.Contains(msg, "requires an argument") {
		return "The argument requires a value but none was supplied"
	}
	return msg
}

// apply sets one option; it returns a usage message, "help" or
// "version", or "".
func (cfg *rgConfig) apply(o parsedOpt) string {
	switch o.name {
	case "help", "h":
		return "help"
	case "version", "V":
		return "version"
	case "after-context", "before-context", "context", "max-columns", "max-depth", "maxdepth", "max-count", "threads":
		return cfg.applyNumber(o)
	}
	if cfg.applyFlag(o.name) {
		return ""
	}
	return cfg.applyValue(o)
}

// applyNumber sets an option whose value is a count.
func (cfg *rgConfig) applyNumber(o parsedOpt) string {
	n, err := strconv.ParseInt(o.value, 10, 64)
	if err != nil || n < 0 {
		return "Invalid value for '--" + o.name + " <NUM>': invalid digit found in string"
	}
	switch o.name {
	case "after-context":
		cfg.after = int(n)
	case "before-context":
		cfg.before = int(n)
	case "context":
		cfg.after, cfg.before = int(n), int(n)
	case "max-columns":
		cfg.maxColumns = int(n)
	case "max-depth", "maxdepth":
		cfg.maxDepth = int(n)
	case "max-count":
		cfg.maxCount = n
	}
	return ""
}

// applyFlag sets a switch; it reports whether name was one.
func (cfg *rgConfig) applyFlag(name string) bool {
	switch name {
	case "byte-offset":
		cfg.byteOff = true
	case "case-sensitive":
		cfg.caseMode = 's'
	case "ignore-case":
		cfg.caseMode = 'i'
	case "smart-case":
		cfg.caseMode = 'S'
	case "column":
		cfg.column = true
	case "no-column":
		cfg.column = false
	case "count":
		cfg.count = true
	case "count-matches":
		cfg.countMatches = true
	case "files":
		cfg.listFiles = true
	case "files-with-matches":
		cfg.filesWith = true
	case "files-without-match":
		cfg.filesWithout = true
	case "fixed-strings":
		cfg.fixed = true
	case "no-fixed-strings":
		cfg.fixed = false
	case "follow":
		cfg.follow = true
	case "no-follow":
		cfg.follow = false
	case "glob-case-insensitive":
		cfg.globFold = true
	case "heading":
		cfg.heading = 1
	case "no-heading":
		cfg.heading = 0
	case "hidden":
		cfg.hidden = true
	case "no-hidden":
		cfg.hidden = false
	case "include-zero":
		cfg.includeZero = true
	case "invert-match":
		cfg.invert = true
	case "line-number":
		cfg.lineNumber = 1
	case "no-line-number":
		cfg.lineNumber = 0
	case "line-regexp":
		cfg.line = true
	case "no-filename":
		cfg.withName = 0
	case "with-filename":
		cfg.withName = 1
	case "no-ignore":
		cfg.noIgnore = true
	case "no-ignore-dot":
		cfg.noIgnoreDot = true
	case "no-ignore-parent":
		cfg.noIgnoreParent = true
	case "no-ignore-vcs":
		cfg.noIgnoreVCS = true
	case "no-messages":
		cfg.noMessages = true
	case "null":
		cfg.null = true
	case "only-matching":
		cfg.onlyMatching = true
	case "passthru", "passthrough":
		cfg.passthru = true
	case "quiet":
		cfg.quiet = true
	case "text", "binary":
		cfg.text = true
	case "no-text":
		cfg.text = false
	case "trim":
		cfg.trim = true
	case "type-list":
		cfg.typeList = true
	case "unrestricted":
		cfg.unrestrict()
	case "vimgrep":
		cfg.vimgrep = true
	case "word-regexp":
		cfg.word = true
	case "auto-hybrid-regex":
		cfg.pcre = true
	case "multiline":
		cfg.multiline = true
	case "no-multiline":
		cfg.multiline = false
	case "multiline-dotall":
		cfg.dotall = true
	case "no-multiline-dotall":
		cfg.dotall = false
	case "json":
		cfg.json = true
	case "no-json":
		cfg.json = false
	case "no-ignore-global", "no-ignore-exclude", "no-ignore-files", "no-ignore-messages", "no-config",
		"mmap", "no-mmap", "line-buffered", "block-buffered", "crlf", "no-crlf", "no-pcre2":
		// Nothing to do: no global config, no terminal, no mmap.
	default:
		return false
	}
	return true
}

// unrestrict applies one -u: no ignore files, then hidden files, then
// binary files.
func (cfg *rgConfig) unrestrict() {
	switch {
	case !cfg.noIgnore:
		cfg.noIgnore = true
	case !cfg.hidden:
		cfg.hidden = true
	default:
		cfg.text = true
	}
}

// applyValue sets an option that carries text.
func (cfg *rgConfig) applyValue(o parsedOpt) string {
	switch o.name {
	case "context-separator":
		cfg.contextSep = o.value
	case "regexp":
		cfg.patterns = append(cfg.patterns, o.value)
	case "file":
		cfg.patternFiles = append(cfg.patternFiles, o.value)
	case "glob":
		cfg.globs = append(cfg.globs, rgGlob{text: o.value})
	case "iglob":
		cfg.globs = append(cfg.globs, rgGlob{text: o.value, fold: true})
	case "ignore-file":
		cfg.ignoreFiles = append(cfg.ignoreFiles, o.value)
	case "replace":
		r := o.value
		cfg.replace = &r
	case "sort", "sortr":
		switch o.value {
		case "path", "modified", "accessed", "created", "none":
		default:
			return "'" + o.value + "' isn't a valid value for '--" + o.name + " <SORTBY>'\n\t[possible values: accessed, created, modified, none, path]\n"
		}
		cfg.sortBy, cfg.sortReverse = o.value, o.name == "sortr"
	case "type":
		cfg.types = append(cfg.types, o.value)
	case "type-not":
		cfg.typesNot = append(cfg.typesNot, o.value)
	case "type-add", "type-clear":
		if cfg.typeErr == "" {
			cfg.defineType(o.name, o.value)
		}
	case "pcre2":
		cfg.pcre = true
	case "engine":
		cfg.pcre = o.value == "pcre2" || o.value == "auto"
	case "color", "colors", "encoding":
		// No terminal: never colour; inputs are bytes.
	}
	return ""
}

// defineType applies --type-add NAME:GLOB[,GLOB…] (or NAME:include:TYPE,…)
// and --type-clear NAME: the definitions start from the built-in ones and
// --type-add adds to a type rather than replacing it, as ripgrep does.
//
// A bad definition is kept in typeErr: ripgrep prints it without its
// usage text.
func (cfg *rgConfig) defineType(opt, value string) string {
	if cfg.typeDefs == nil {
		cfg.typeDefs = map[string][]string{}
	}
	if opt == "type-clear" {
		cfg.typeDefs[value] = []string{}
		return ""
	}
	name, def, ok := strings.Cut(value, ":")
	if !ok || name == "" {
		cfg.typeErr = "invalid definition (format is type:glob, e.g., html:*.html)\n"
		return ""
	}
	globs := cfg.typeGlobs(name)
	if included, isInclude := strings.CutPrefix(def, "include:"); isInclude {
		for _, other := range strings.Split(included, ",") {
			more, known := cfg.typeGlobsKnown(other)
			if !known {
				cfg.typeErr = "invalid definition (format is type:glob, e.g., html:*.html)\n"
				return ""
			}
			globs = append(globs, more...)
		}
	} else {
		globs = append(globs, def)
	}
	cfg.typeDefs[name] = globs
	return ""
}

// typeGlobs is a type's globs as the command line has defined it so far.
func (cfg *rgConfig) typeGlobs(name string) []string {
	globs, _ := cfg.typeGlobsKnown(name)
	return append([]string(nil), globs...)
}

// typeGlobsKnown is typeGlobs and whether the type is defined at all.
func (cfg *rgConfig) typeGlobsKnown(name string) ([]string, bool) {
	if globs, ok := cfg.typeDefs[name]; ok {
		return globs, true
	}
	globs, ok := rgTypes.Get()[name]
	return globs, ok
}

// rgErrText adds ripgrep's "(os error N)" to the strerror texts it
// prints; a refusal's reason stays as it is.
func rgErrText(msg string) string {
	if n, ok := rgOSErrors.Get()[msg]; ok {
		return msg + " (os error " + strconv.Itoa(n) + ")"
	}
	return msg
}

var rgOSErrors = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{
		"Operation not permitted":           1,
		"No such file or directory":         2,
		"Input/output error":                5,
		"Permission denied":                 13,
		"Not a directory":                   20,
		"Is a directory":                    21,
		"Too many levels of symbolic links": 40,
	}
}}

// runRg is rg's entry point.
func runRg(e *Env) (int, error) {
	t := newTool(e, "rg", rgHelp, 2)
	cfg, status, done := rgParse(t, e.Args)
	if done {
		return t.end(status)
	}
	if cfg.typeList {
		t.writeString(rgTypeList)
		return t.end(0)
	}
	r, status, ok := newRgRun(t, cfg)
	if !ok {
		return t.end(status)
	}
	return t.end(r.run())
}
