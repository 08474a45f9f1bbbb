package utils

import (
	"io/fs"
	"path"
	"strings"
	"syscall"
)

const readlinkHelp = `Usage: readlink [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

const realpathHelp = `Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

var readlinkOpts = []optDef{
	{short: 'f', long: "canonicalize"},
	{short: 'e', long: "canonicalize-existing"},
	{short: 'm', long: "canonicalize-missing"},
	{short: 'n', long: "no-newline"},
	{short: 'q', long: "quiet"},
	{short: 's', long: "silent"},
	{short: 'v', long: "verbose"},
	{short: 'z', long: "zero"},
}

var realpathOpts = []optDef{
	{short: 'e', long: "canonicalize-existing"},
	{short: 'm', long: "canonicalize-missing"},
	{short: 'L', long: "logical"},
	{short: 'P', long: "physical"},
	{short: 'q', long: "quiet"},
	{long: "relative-to", arg: needArg},
	{long: "relative-base", arg: needArg},
	{short: 's', long: "strip"},
	{long: "no-symlinks"},
	{short: 'z', long: "zero"},
}

// readlinkUtility makes the readlink utility (see builtins).
func readlinkUtility(string) *Utility {
	return &Utility{
		Name:        "readlink",
		Run:         runReadlink,
		Operands:    plainOperands(readlinkOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("readlink"),
		Help:        readlinkHelp,
	}
}

// realpathUtility makes the realpath utility (see builtins).
func realpathUtility(string) *Utility {
	return &Utility{
		Name:        "realpath",
		Run:         runRealpath,
		Operands:    realpathOperands,
		OperandExit: 1,
		Voice:       quotedVoice("realpath"),
		Help:        realpathHelp,
	}
}

// canonMode says which components of a name must exist.
type canonMode int

const (
	canonAllButLast canonMode = iota // readlink -f, realpath
	canonExisting                    // -e
	canonMissingOK                   // -m
)

// canonicalize resolves name (absolute) through the VFS, following every
// symlink (unless noLinks) as gnulib's canonicalize_filename_mode does.
func canonicalize(e *Env, name string, mode canonMode, noLinks bool) (string, error) {
	if noLinks {
		return canonicalizeLogical(e, name, mode)
	}
	comps := strings.Split(name, "/")
	resolved := "/"
	links := 0
	for i := 0; i < len(comps); i++ {
		c := comps[i]
		if c == "" || c == "." {
			continue
		}
		if c == ".." {
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, c)
		last := true
		for _, rest := range comps[i+1:] {
			if rest != "" && rest != "." {
				last = false
				break
			}
		}
		info, err := e.FS.Lstat(next)
		if err != nil {
			if mode == canonMissingOK || (mode == canonAllButLast && last && isNotExist(err)) {
				resolved = next
				continue
			}
			return "", err
		}
		if info.Mode()&fs.ModeSymlink != 0 && !noLinks {
			links++
			if links > 40 {
				return "", syscall.ELOOP
			}
			target, err := e.FS.Readlink(next)
			if err != nil {
				return "", err
			}
			if strings.HasPrefix(target, "/") {
				resolved = "/"
			}
			comps = append(strings.Split(target, "/"), comps[i+1:]...)
			i = -1
			continue
		}
		if !info.IsDir() && !last && mode != canonMissingOK {
			return "", syscall.ENOTDIR
		}
		resolved = next
	}
	return resolved, nil
}

// canonicalizeLogical is realpath -s: the name is cleaned as text, links
// and all, and as in gnulib only the whole name is checked, through any
// links in it ("l/x" with l -> dir exists); -m checks nothing.
func canonicalizeLogical(e *Env, name string, mode canonMode) (string, error) {
	p := path.Clean("/" + name)
	if mode == canonMissingOK {
		return p, nil
	}
	_, err := e.FS.Stat(p)
	if err == nil || (mode == canonAllButLast && isNotExist(err)) {
		return p, nil
	}
	return "", err
}

func runReadlink(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "readlink", defs: readlinkOpts, usageExit: 1, help: readlinkHelp})
	if done {
		return status, nil
	}
	mode, canon := canonAllButLast, false
	noNewline, verbose, eol := false, false, "\n"
	for _, o := range args.opts {
		switch o.name {
		case "canonicalize":
			mode, canon = canonAllButLast, true
		case "canonicalize-existing":
			mode, canon = canonExisting, true
		case "canonicalize-missing":
			mode, canon = canonMissingOK, true
		case "no-newline":
			noNewline = true
		case "quiet", "silent":
			verbose = false
		case "verbose":
			verbose = true
		case "zero":
			eol = "\x00"
		}
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		return t.end(t.usage("missing operand"))
	}
	if noNewline && len(names) > 1 {
		t.warn("ignoring --no-newline with multiple arguments")
		noNewline = false
	}
	if noNewline {
		eol = ""
	}
	for _, name := range names {
		var out string
		var err error
		switch {
		case name == "":
			err = errEmptyName
		case canon:
			out, err = canonicalize(e, e.Abs(name), mode, false)
		default:
			out, err = e.FS.Readlink(e.Abs(name))
		}
		if err != nil {
			if verbose {
				t.warn(quoteIfNeeded(name) + ": " + errText(err))
			}
			status = 1
			continue
		}
		t.writeString(out + eol)
	}
	return t.end(status)
}

func realpathOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, realpathOpts, parseMode{})
	if err != nil {
		return nil
	}
	refs := operandRefs(args.operands, Read)
	for _, o := range args.opts {
		if o.name == "relative-to" || o.name == "relative-base" {
			refs = append(refs, optionOperand(o, Read))
		}
	}
	return refs
}

func runRealpath(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "realpath", defs: realpathOpts, usageExit: 1, help: realpathHelp})
	if done {
		return status, nil
	}
	mode, noLinks, quiet, eol := canonAllButLast, false, false, "\n"
	relTo, relBase := "", ""
	for _, o := range args.opts {
		switch o.name {
		case "canonicalize-existing":
			mode = canonExisting
		case "canonicalize-missing":
			mode = canonMissingOK
		case "strip", "no-symlinks":
			noLinks = true
		case "quiet":
			quiet = true
		case "zero":
			eol = "\x00"
		case "relative-to":
			relTo = o.value
		case "relative-base":
			relBase = o.value
		}
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		return t.end(t.usage("missing operand"))
	}
	resolveDir := func(dir string) (string, bool) {
		r, err := canonicalize(e, e.Abs(dir), mode, noLinks)
		if dir == "" {
			err = errEmptyName
		}
		if err != nil {
			t.warn(quoteIfNeeded(dir) + ": " + errText(err))
			return "", false
		}
		return r, true
	}
	var ok bool
	if relTo != "" {
		if relTo, ok = resolveDir(relTo); !ok {
			return t.end(1)
		}
	}
	if relBase != "" {
		if relBase, ok = resolveDir(relBase); !ok {
			return t.end(1)
		}
		if relTo == "" {
			relTo = relBase
		}
	}
	for _, name := range names {
		out, err := canonicalize(e, e.Abs(name), mode, noLinks)
		if name == "" {
			err = errEmptyName
		}
		if err != nil {
			if !quiet {
				t.warn(quoteIfNeeded(name) + ": " + errText(err))
			}
			status = 1
			continue
		}
		if relTo != "" && (relBase == "" || (realpathWithin(relBase, out) && realpathWithin(relBase, relTo))) {
			out = relativePath(relTo, out)
		}
		t.writeString(out + eol)
	}
	return t.end(status)
}

// realpathWithin reports whether p is base or below it.
func realpathWithin(base, p string) bool {
	return p == base || base == "/" || strings.HasPrefix(p, base+"/")
}
