package utils

import (
	"strings"
	"syscall"
)

const mkdirHelp = `Usage: mkdir [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
  -p, --parents     no error if existing, make parent directories as needed,
                    with their file modes unaffected by any -m option.
  -v, --verbose     print a message for each created directory
  -Z                accepted and ignored (no SELinux context here)
      --help        display this help and exit
      --version     output version information and exit
`

var mkdirOpts = []optDef{
	{short: 'm', long: "mode", arg: needArg},
	{short: 'p', long: "parents"},
	{short: 'v', long: "verbose"},
	{short: 'Z'},
	{long: "context", arg: maybeArg},
}

// mkdirUtility makes the mkdir utility (see builtins).
func mkdirUtility(string) *Utility {
	return &Utility{
		Name:        "mkdir",
		Run:         runMkdir,
		Operands:    plainOperands(mkdirOpts, parseMode{}, Write),
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			return "mkdir: cannot create directory " + quoteAlways(arg) + ": " + msg + "\n"
		},
		Help: mkdirHelp,
	}
}

func runMkdir(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "mkdir", defs: mkdirOpts, usageExit: 1, help: mkdirHelp})
	if done {
		return status, nil
	}
	parents, verbose := false, false
	modeSpec := ""
	for _, o := range args.opts {
		switch o.name {
		case "mode":
			modeSpec = o.value
		case "parents":
			parents = true
		case "verbose":
			verbose = true
		}
	}
	var mode uint32
	if modeSpec != "" {
		var ok bool
		// Symbolic modes start from a=rwx; clauses without a "who" still
		// honour the umask, as GNU mkdir does.
		mode, ok = applyModeSpec(modeSpec, 0o777, true, e.umask())
		if !ok {
			t.warn("invalid mode " + quoteAlways(modeSpec))
			return t.end(1)
		}
	}
	dirs := args.operandStrings(e.Args)
	if len(dirs) == 0 {
		return t.end(t.usage("missing operand"))
	}
	for _, d := range dirs {
		if t.stopped() {
			break
		}
		if !mkdirOne(t, d, parents, verbose, modeSpec != "", mode) {
			status = 1
		}
	}
	return t.end(status)
}

// mkdirOne creates one operand (and its parents with -p).
func mkdirOne(t *tool, d string, parents, verbose, setMode bool, mode uint32) bool {
	fsys := t.env.FS
	fail := func(err error) bool {
		t.warn("cannot create directory " + quoteAlways(d) + ": " + errText(err))
		return false
	}
	created := func(shown string) {
		if verbose {
			t.writeString("mkdir: created directory " + quoteAlways(shown) + "\n")
		}
	}
	if parents {
		// Create each missing ancestor, spelled as the user spelled it.
		// shown is d up to this component: a prefix, never a copy (a
		// path of 200,000 components built its prefixes one by one).
		comps := strings.Split(d, "/")
		end := -1
		for _, c := range comps[:len(comps)-1] {
			end += 1 + len(c)
			shown := d[:end]
			if c == "" || c == "." || c == ".." {
				continue
			}
			if t.stopped() {
				return false
			}
			p := t.abs(shown)
			info, err := fsys.Stat(p)
			if err == nil {
				if !info.IsDir() {
					// GNU names the component that is in the way.
					t.warn("cannot create directory " + quoteAlways(shown) + ": " + errText(syscall.ENOTDIR))
					return false
				}
				continue
			}
			if !isNotExist(err) {
				return fail(err)
			}
			if err := fsys.Mkdir(p, 0o777); err != nil && !isErrno(err, syscall.EEXIST) {
				return fail(err)
			}
			created(shown)
		}
	}
	p := t.abs(d)
	err := fsys.Mkdir(p, 0o777)
	if err != nil {
		if parents && isErrno(err, syscall.EEXIST) {
			if info, serr := fsys.Stat(p); serr == nil && info.IsDir() {
				return true
			}
		}
		return fail(err)
	}
	if setMode {
		if err := fsys.Chmod(p, goMode(mode)); err != nil {
			return fail(err)
		}
	}
	created(d)
	return true
}
