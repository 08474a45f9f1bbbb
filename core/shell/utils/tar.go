package utils

import (
	"path"
	"strconv"
	"strings"
	"syscall"
)

const tarHelp = `Usage: tar [OPTION...] [FILE]...
GNU 'tar' saves many files together into a single tape or disk archive, and can
restore individual files from the archive.

Examples:
  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.
  tar -tvf archive.tar         # List all files in archive.tar verbosely.
  tar -xf archive.tar          # Extract all files from archive.tar.

 Main operation mode:

  -c, --create               create a new archive
  -t, --list                 list the contents of an archive
  -x, --extract, --get       extract files from an archive

 Common options:

  -C, --directory=DIR        change to directory DIR
  -f, --file=ARCHIVE         use archive file or device ARCHIVE
  -k, --keep-old-files       don't replace existing files when extracting
  -O, --to-stdout            extract files to standard output
  -P, --absolute-names       don't strip leading '/'s from file names (when
                             creating)
      --exclude=PATTERN      exclude files, given as a PATTERN
      --strip-components=NUMBER   strip NUMBER leading components from file
                             names on extraction
  -v, --verbose              verbosely list files processed
  -j, --bzip2                filter the archive through bzip2 (reading only)
  -z, --gzip, --gunzip, --ungzip   filter the archive through gzip

Reading an archive finds out by itself whether it is gzip- or
bzip2-compressed.
`

var tarOpts = []optDef{
	{short: 'c', long: "create"},
	{short: 't', long: "list"},
	{short: 'x', long: "extract"},
	{long: "get"},
	{short: 'C', long: "directory", arg: needArg},
	{short: 'f', long: "file", arg: needArg},
	{short: 'k', long: "keep-old-files"},
	{short: 'O', long: "to-stdout"},
	{short: 'P', long: "absolute-names"},
	{long: "exclude", arg: needArg},
	{long: "strip-components", arg: needArg},
	{short: 'v', long: "verbose"},
	{short: 'z', long: "gzip"},
	{long: "gunzip"},
	{long: "ungzip"},
	{short: 'p', long: "preserve-permissions"},
	{long: "same-permissions"},
	{short: 'o', long: "no-same-owner"},
	{long: "no-same-owner"},
	{long: "same-owner"},
	{short: 'm', long: "touch"},
	{long: "sort", arg: needArg},
	{long: "owner", arg: needArg},
	{long: "group", arg: needArg},
	{long: "mtime", arg: needArg},
	{short: 'a', long: "auto-compress"},
	{short: 'r', long: "append"},
	{short: 'u', long: "update"},
	{short: 'j', long: "bzip2"},
	{short: 'J', long: "xz"},
	{long: "delete"},
}

// tarArgTaking are the old-style letters that take the next argument
// (tar czf ARCHIVE DIR).
const tarArgTaking = "fC"

// tarExpandOld turns tar's old-style first argument ("czf") into options:
// each letter an option, the ones that take an argument taking the next
// arguments in order. origin maps each new argument to the one of argv it
// came from.
func tarExpandOld(argv []string) (out []string, origin []int) {
	origin = make([]int, 0, len(argv)+4)
	if len(argv) < 2 || argv[1] == "" || strings.HasPrefix(argv[1], "-") {
		for i := range argv {
			origin = append(origin, i)
		}
		return argv, origin
	}
	out, origin = []string{argv[0]}, append(origin, 0)
	next := 2
	for _, c := range argv[1] {
		out, origin = append(out, "-"+string(c)), append(origin, 1)
		if strings.ContainsRune(tarArgTaking, c) && next < len(argv) {
			out, origin = append(out, argv[next]), append(origin, next)
			next++
		}
	}
	for i := next; i < len(argv); i++ {
		out, origin = append(out, argv[i]), append(origin, i)
	}
	return out, origin
}

// tarUtility makes the tar utility (see builtins).
func tarUtility(string) *Utility {
	return &Utility{
		Name:        "tar",
		Run:         runTar,
		Keeps:       KeepsAll,
		Operands:    tarOperands,
		OperandExit: 2,
		Voice:       func(arg, msg string) string { return "tar: " + arg + ": Cannot open: " + msg + "\n" },
		Help:        tarHelp,
	}
}

// tarOperands: the archive is written by -c and read otherwise; -c reads
// its file operands; -x writes into -C's directory (the cwd by default),
// and each member is judged again as it is written.
func tarOperands(argv []string) []OperandRef {
	expanded, origin := tarExpandOld(argv)
	args, err := parseArgs(expanded, tarOpts, parseMode{})
	if err != nil {
		return nil
	}
	create, extract := args.has("create"), args.has("extract") || args.has("get")
	ref := func(i int, kind OperandKind, p string) OperandRef {
		return OperandRef{Index: origin[min(i, len(origin)-1)], Kind: kind, Path: p}
	}
	var refs []OperandRef
	for _, o := range args.opts {
		switch {
		case o.name == "file" && o.value != "-":
			kind := Read
			if create {
				kind = Write
			}
			refs = append(refs, ref(o.valueIndex, kind, o.value))
		case o.name == "directory" && extract && !args.has("to-stdout"):
			refs = append(refs, ref(o.valueIndex, Write, o.value))
		case o.name == "directory":
			refs = append(refs, ref(o.valueIndex, Read, o.value))
		}
	}
	if create {
		dir := ""
		for _, o := range args.opts {
			if o.name == "directory" {
				dir = o.value
			}
		}
		for _, i := range args.operands {
			p := expanded[i]
			if dir != "" && !strings.HasPrefix(p, "/") {
				p = path.Join(dir, p) // names are read below -C's directory
			}
			refs = append(refs, ref(i, Read, p))
		}
	}
	return refs
}

// tarConfig is a parsed tar command line.
type tarConfig struct {
	mode      byte // 'c', 't' or 'x'
	archive   string
	dir       string
	verbose   bool
	gzip      bool
	bzip2     bool // -j: only read (list, extract)
	keepOld   bool
	toStdout  bool
	absolute  bool
	strip     int
	excludes  []string
	names     []string
	failed    bool            // an error: "Exiting with failure status" at the end
	fatal     bool            // tar stopped at once, and said so
	usage     bool            // a usage complaint was made
	announced map[string]bool // "Removing leading" messages said
}

func runTar(e *Env) (int, error) {
	argv, _ := tarExpandOld(e.Args)
	t, args, status, done := begin(&Env{Ctx: e.Ctx, Args: argv, Stdin: e.Stdin, Stdout: e.Stdout, Stderr: e.Stderr,
		FS: e.FS, Dir: e.Dir, Memory: e.Memory}, spec{name: "tar", defs: tarOpts, usageExit: 2, help: tarHelp,
		version: "tar (GNU tar) 1.34\n"})
	if done {
		return status, nil
	}
	t.env = e
	cfg, msg := tarConfigure(args, argv)
	if msg != "" {
		t.warn(msg)
		t.rawStderr("Try 'tar --help' or 'tar --usage' for more information.\n")
		return t.end(2)
	}
	switch {
	case !tarCheckDir(t, cfg):
	case cfg.mode == 'c':
		tarCreate(t, cfg)
	default:
		tarRead(t, cfg)
	}
	switch {
	case cfg.usage, cfg.fatal:
		return t.end(2)
	case cfg.failed:
		t.warn("Exiting with failure status due to previous errors")
		return t.end(2)
	}
	return t.end(0)
}

// tarCheckDir is tar's chdir to -C's directory: a missing one (or a
// file) stops tar before anything is read or written.
func tarCheckDir(t *tool, cfg *tarConfig) bool {
	if cfg.dir == "" {
		return true
	}
	info, err := t.env.FS.Stat(t.abs(cfg.dir))
	if err == nil && !info.IsDir() {
		err = syscall.ENOTDIR
	}
	if err != nil {
		tarFatal(t, cfg, cfg.dir+": Cannot open: "+errText(err))
		return false
	}
	return true
}

// tarConfigure reads the options; msg is a usage complaint.
func tarConfigure(args *parsedArgs, argv []string) (*tarConfig, string) {
	cfg := &tarConfig{archive: "-", announced: map[string]bool{}}
	modes := 0
	for _, o := range args.opts {
		switch o.name {
		case "create", "list", "extract", "get", "append", "update", "delete":
			modes++
			cfg.mode = map[string]byte{"create": 'c', "list": 't', "extract": 'x', "get": 'x', "append": 'r', "update": 'u', "delete": 'D'}[o.name]
		case "file":
			cfg.archive = o.value
		case "directory":
			cfg.dir = o.value
		case "verbose":
			cfg.verbose = true
		case "gzip", "gunzip", "ungzip":
			cfg.gzip = true
		case "keep-old-files":
			cfg.keepOld = true
		case "to-stdout":
			cfg.toStdout = true
		case "absolute-names":
			cfg.absolute = true
		case "exclude":
			cfg.excludes = append(cfg.excludes, o.value)
		case "strip-components":
			n, err := strconv.Atoi(o.value)
			if err != nil || n < 0 {
				return nil, "Invalid number of elements: " + quoteLocale(o.value)
			}
			cfg.strip = n
		case "bzip2":
			cfg.bzip2 = true
		case "xz":
			return nil, "-J is not supported in a workspace: only gzip (-z), and bzip2 (-j) when reading"
		}
	}
	switch {
	case modes == 0:
		return nil, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options"
	case modes > 1:
		return nil, "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option"
	case cfg.mode != 'c' && cfg.mode != 't' && cfg.mode != 'x':
		return nil, "appending, updating and deleting are not supported in a workspace"
	case cfg.bzip2 && cfg.mode == 'c':
		return nil, "-j is not supported when creating in a workspace: only gzip (-z)"
	case cfg.absolute && cfg.mode == 'x':
		return nil, "-P is not supported when extracting in a workspace: members stay inside the directory"
	}
	cfg.names = args.operandStrings(argv)
	return cfg, ""
}
