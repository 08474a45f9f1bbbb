package utils

import (
	"path"
	"strings"
	"syscall"
)

const rmdirHelp = `Usage: rmdir [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure that is solely because a directory
                    is non-empty

  -p, --parents     remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b/c'
                    is similar to 'rmdir a/b/c a/b a'

  -v, --verbose     output a diagnostic for every directory processed
      --help        display this help and exit
      --version     output version information and exit
`

var rmdirOpts = []optDef{
	{long: "ignore-fail-on-non-empty"},
	{short: 'p', long: "parents"},
	{short: 'v', long: "verbose"},
}

// rmdirUtility makes the rmdir utility (see builtins).
func rmdirUtility(string) *Utility {
	return &Utility{
		Name:        "rmdir",
		Run:         runRmdir,
		Operands:    plainOperands(rmdirOpts, parseMode{}, Write),
		OperandExit: 1,
		Voice:       alwaysQuotedVoice("rmdir: failed to remove "),
		Help:        rmdirHelp,
	}
}

func runRmdir(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "rmdir", defs: rmdirOpts, usageExit: 1, help: rmdirHelp})
	if done {
		return status, nil
	}
	parents, verbose := args.has("parents"), args.has("verbose")
	ignoreNonEmpty := args.has("ignore-fail-on-non-empty")
	dirs := args.operandStrings(e.Args)
	if len(dirs) == 0 {
		return t.end(t.usage("missing operand"))
	}
	// remove deletes one directory and reports whether it is gone; GNU
	// words an ancestor's failure "failed to remove directory".
	remove := func(name string, ancestor bool) bool {
		if verbose {
			t.writeString("rmdir: removing directory, " + quoteAlways(name) + "\n")
		}
		err := rmdirOne(e, name)
		if err == nil {
			return true
		}
		if ignoreNonEmpty && (isErrno(err, syscall.ENOTEMPTY) || isErrno(err, syscall.EEXIST)) {
			return false
		}
		what := "failed to remove "
		if ancestor {
			what += "directory "
		}
		t.warn(what + quoteAlways(name) + ": " + errText(err))
		status = 1
		return false
	}
	for _, name := range dirs {
		if t.stopped() {
			break
		}
		if !remove(name, false) || !parents {
			continue
		}
		// -p: then each ancestor named in the operand, innermost first.
		p := strings.TrimRight(name, "/")
		for {
			p = strings.TrimRight(path.Dir(p), "/")
			if p == "" || p == "." || p == "/" {
				break
			}
			if !remove(p, true) {
				break
			}
		}
	}
	return t.end(status)
}

// rmdirOne removes an empty directory, refusing anything else the way
// rmdir(2) does.
func rmdirOne(e *Env, name string) error {
	p := e.Abs(name)
	info, err := statOperand(e, name, false)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return syscall.ENOTDIR
	}
	return e.FS.Remove(p)
}
