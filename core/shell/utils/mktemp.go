package utils

import (
	"crypto/rand"
	"os"
	"strings"
	"syscall"
)

const mktempHelp = `Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help        display this help and exit
      --version     output version information and exit
`

var mktempOpts = []optDef{
	{short: 'd', long: "directory"},
	{short: 'u', long: "dry-run"},
	{short: 'q', long: "quiet"},
	{long: "suffix", arg: needArg},
	{short: 'p', arg: needArg},
	{long: "tmpdir", arg: maybeArg},
	{short: 't'},
}

// mktempTries bounds the names tried before giving up, as glibc's
// gen_tempname does (62^3 names for the shortest template).
const mktempTries = 62 * 62 * 62

// mktempUtility makes the mktemp utility (see builtins). The name it
// creates is drawn at run time, so the gate judges the template as a
// write operand beforehand and the op door judges the creation itself.
func mktempUtility(string) *Utility {
	return &Utility{
		Name: "mktemp",
		Run:  runMktemp,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, mktempOpts, parseMode{})
			if err != nil || len(args.operands) != 1 || args.has("p") || args.has("tmpdir") || args.has("t") {
				return nil
			}
			return fileRefs(argv, args.operands, Write)
		},
		OperandExit: 1,
		Help:        mktempHelp,
	}
}

// mktempRequest is what the command line asks for.
type mktempRequest struct {
	template, suffix string
	dir              string // the directory the template is relative to; "" for the cwd
	makeDir, dryRun  bool
	quiet            bool
}

func runMktemp(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "mktemp", defs: mktempOpts, usageExit: 1, help: mktempHelp})
	if done {
		return status, nil
	}
	req, msg, usage := mktempParse(e, args)
	if usage {
		return t.end(t.usage(msg))
	}
	if msg != "" {
		t.warn(msg)
		return t.end(1)
	}
	name, err := mktempCreate(t, req)
	if err != nil {
		if !req.quiet {
			kind := "file"
			if req.makeDir {
				kind = "directory"
			}
			t.warn("failed to create " + kind + " via template " + quoteAlways(mktempJoin(req.dir, req.template+req.suffix)) + ": " + errText(err))
		}
		return t.end(1)
	}
	t.writeString(name + "\n")
	return t.end(0)
}

// mktempParse reads the options and the template as GNU mktemp does: msg is
// the complaint, usage whether it is a usage error.
func mktempParse(e *Env, args *parsedArgs) (req mktempRequest, msg string, usage bool) {
	useTmpdir, singleComponent, suffixGiven := false, false, false
	for _, o := range args.opts {
		switch o.name {
		case "directory":
			req.makeDir = true
		case "dry-run":
			req.dryRun = true
		case "quiet":
			req.quiet = true
		case "suffix":
			req.suffix, suffixGiven = o.value, true
		case "p", "tmpdir":
			useTmpdir = true
			req.dir = o.value
		case "t":
			singleComponent = true
		}
	}
	operands := args.operandStrings(e.Args)
	switch len(operands) {
	case 0:
		req.template, useTmpdir = "tmp.XXXXXXXXXX", true
	case 1:
		req.template = operands[0]
	default:
		return req, "too many templates", true
	}
	if singleComponent {
		useTmpdir = true
	}
	if !useTmpdir {
		req.dir = ""
	} else {
		// -t prefers $TMPDIR to -p; --tmpdir and -p prefer their own DIR.
		if env := e.Getenv("TMPDIR"); env != "" && (singleComponent || req.dir == "") {
			req.dir = env
		}
		if req.dir == "" {
			req.dir = "/tmp"
		}
	}
	if strings.Contains(req.suffix, "/") {
		return req, "invalid suffix " + quoteAlways(req.suffix) + ", contains directory separator", false
	}
	if !suffixGiven || req.suffix == "" {
		// Without --suffix, what follows the last X is the suffix.
		if i := strings.LastIndexByte(req.template, 'X'); i >= 0 && !strings.HasSuffix(req.template, "X") {
			if suffixGiven {
				return req, "with --suffix, template " + quoteAlways(req.template) + " must end in X", false
			}
			req.template, req.suffix = req.template[:i+1], req.template[i+1:]+req.suffix
		}
	} else if !strings.HasSuffix(req.template, "X") {
		return req, "with --suffix, template " + quoteAlways(req.template) + " must end in X", false
	}
	if useTmpdir {
		if singleComponent && strings.Contains(req.template, "/") {
			return req, "invalid template, " + quoteAlways(req.template) + ", contains directory separator", false
		}
		if strings.HasPrefix(req.template, "/") {
			return req, "invalid template, " + quoteAlways(req.template) + "; with --tmpdir, it may not be absolute", false
		}
	}
	n := len(req.template) - len(strings.TrimRight(req.template, "X"))
	if n < 3 {
		return req, "too few X's in template " + quoteAlways(req.template+req.suffix), false
	}
	return req, "", false
}

// mktempJoin is the template as GNU names it in its messages: relative
// to dir when there is one.
func mktempJoin(dir, name string) string {
	if dir == "" {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// mktempCreate draws names until one does not exist and creates it
// exclusively through the door (0600 files, 0700 directories, as the
// umask leaves them); with --dry-run it only checks the name is free.
func mktempCreate(t *tool, req mktempRequest) (string, error) {
	xs := len(req.template) - len(strings.TrimRight(req.template, "X"))
	stem := req.template[:len(req.template)-xs]
	fsys := t.env.FS
	var last error
	for try := 0; try < mktempTries && !t.stopped(); try++ {
		name := mktempJoin(req.dir, stem+randomName(xs)+req.suffix)
		path := t.abs(name)
		var err error
		switch {
		case req.dryRun:
			// GNU checks only that the name is free, not its directory.
			if _, serr := fsys.Lstat(path); serr == nil {
				err = syscall.EEXIST
			} else if !isNotExist(serr) {
				return "", serr
			}
		case req.makeDir:
			err = fsys.Mkdir(path, 0o700)
		default:
			f, oerr := fsys.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
			if err = oerr; err == nil {
				err = f.Close()
			}
		}
		if err == nil {
			return name, nil
		}
		if !isErrno(err, syscall.EEXIST) {
			return "", err
		}
		last = err
	}
	if last == nil {
		last = t.ctx.Err()
	}
	return "", last
}

// randomName is n characters from [A-Za-z0-9], drawn from the system's
// random source: the names must not be guessable by another process.
func randomName(n int) string {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	buf := make([]byte, n)
	rand.Read(buf)
	for i, b := range buf {
		// 62 does not divide 256; the bias is well under one part in four
		// and the names stay unpredictable, which is what matters.
		buf[i] = chars[int(b)%len(chars)]
	}
	return string(buf)
}
