package utils

import (
	"errors"
	"io/fs"
	"path"
	"syscall"

	"gatehouse/core/vfs"
)

// A workspace's filesystems hold no named pipes: a FIFO is a meeting point
// between two processes, and a line's commands already meet through the
// shell's own pipes (`a | b`, process substitution). mkfifo therefore
// checks its operand as GNU mkfifo would (a missing or non-directory
// parent, an existing name, a read-only place) and then refuses with the
// error a filesystem without FIFOs gives, so an agent sees at once that
// the pipe was not made (G-12.2).

const mkfifoHelp = `Usage: mkfifo [OPTION]... NAME...
Create named pipes (FIFOs) with the given NAMEs.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask
  -Z                   set the SELinux security context to default type
      --context[=CTX]  like -Z, or if CTX is specified then set the SELinux
                         or SMACK security context to CTX
      --help        display this help and exit
      --version     output version information and exit

A workspace's filesystems hold no named pipes: every NAME fails with
"Operation not supported"; connect commands with | instead.
`

var mkfifoOpts = []optDef{
	{short: 'm', long: "mode", arg: needArg},
	{short: 'Z'},
	{long: "context", arg: maybeArg},
}

// mkfifoUtility makes the mkfifo utility (see builtins).
func mkfifoUtility(string) *Utility {
	return &Utility{
		Name:        "mkfifo",
		Run:         runMkfifo,
		Operands:    plainOperands(mkfifoOpts, parseMode{}, Write),
		OperandExit: 1,
		Voice:       alwaysQuotedVoice("mkfifo: cannot create fifo "),
		Help:        mkfifoHelp,
	}
}

func runMkfifo(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "mkfifo", defs: mkfifoOpts, usageExit: 1, help: mkfifoHelp})
	if done {
		return status, nil
	}
	for _, o := range args.opts {
		if o.name == "mode" {
			if _, ok := applyModeSpec(o.value, 0o666, false, 0); !ok {
				t.warn("invalid mode")
				return t.end(1)
			}
		}
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		return t.end(t.usage("missing operand"))
	}
	status = 0
	for _, name := range names {
		// No FIFO is ever made: each name fails, with what GNU would
		// meet first or else "Operation not supported".
		err := mkfifoCheck(e.FS, t.abs(name))
		t.warn("cannot create fifo " + quoteAlways(name) + ": " + errText(err))
		status = 1
	}
	return t.end(status)
}

// mkfifoCheck returns the error making a FIFO at abs meets: what GNU
// mkfifo would meet first, else ENOTSUP.
func mkfifoCheck(fsys vfs.FS, abs string) error {
	info, err := fsys.Stat(path.Dir(abs))
	switch {
	case err != nil:
		return err
	case !info.IsDir():
		return syscall.ENOTDIR
	}
	if _, err := fsys.Lstat(abs); err == nil {
		return syscall.EEXIST
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := fsys.CheckWrite(path.Dir(abs)); err != nil {
		return err
	}
	return syscall.ENOTSUP
}
