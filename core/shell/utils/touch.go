package utils

import (
	"io/fs"
	"os"
	"time"
)

const touchHelp = `Usage: touch [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c or -h
is supplied.

A FILE argument string of - is handled specially and causes touch to
change the times of the file associated with standard output.

  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -f                     (ignored)
  -h, --no-dereference   affect each symbolic link instead of any referenced
                         file
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t [[CC]YY]MMDDhhmm[.ss]  use specified time instead of current time
      --time=WORD        change the specified time:
                           WORD is access, atime, or use: equivalent to -a
                           WORD is modify or mtime: equivalent to -m
      --help        display this help and exit
      --version     output version information and exit
`

var touchOpts = []optDef{
	{short: 'a'},
	{short: 'c', long: "no-create"},
	{short: 'd', long: "date", arg: needArg},
	{short: 'f'},
	{short: 'h', long: "no-dereference"},
	{short: 'm'},
	{short: 'r', long: "reference", arg: needArg},
	{short: 't', arg: needArg},
	{long: "time", arg: needArg},
}

// touchUtility makes the touch utility (see builtins).
func touchUtility(string) *Utility {
	return &Utility{
		Name: "touch",
		Run:  runTouch,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, touchOpts, parseMode{})
			if err != nil {
				return nil
			}
			refs := fileRefs(argv, args.operands, Write)
			for _, o := range args.opts {
				if o.name == "reference" {
					refs = append(refs, optionOperand(o, Read))
				}
			}
			return refs
		},
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "touch: cannot touch " + quoteAlways(arg) + ": " + msg + "\n" },
		Help:        touchHelp,
	}
}

func runTouch(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "touch", defs: touchOpts, usageExit: 1, help: touchHelp})
	if done {
		return status, nil
	}
	noCreate, onlyAccess, onlyModify, noDeref := false, false, false, false
	stamp := time.Now()
	timeSources := 0
	for _, o := range args.opts {
		switch o.name {
		case "a":
			onlyAccess = true
		case "no-create":
			noCreate = true
		case "no-dereference":
			noDeref = true
		case "m":
			onlyModify = true
		case "time":
			switch o.value {
			case "access", "atime", "use":
				onlyAccess = true
			case "modify", "mtime":
				onlyModify = true
			default:
				return t.end(t.usage("invalid argument " + quoteAlways(o.value) + " for '--time'"))
			}
		case "date":
			ts, ok := parseDateString(o.value, time.Now(), t.location())
			if !ok {
				t.warn("invalid date format " + quoteAlways(o.value))
				return t.end(1)
			}
			stamp = ts
			timeSources++
		case "t":
			ts, ok := parseTouchStamp(o.value, time.Now(), t.location())
			if !ok {
				t.warn("invalid date format " + quoteAlways(o.value))
				return t.end(1)
			}
			stamp = ts
			timeSources++
		case "reference":
			info, err := t.env.FS.Stat(t.abs(o.value))
			if err != nil {
				t.warn("failed to get attributes of " + quoteAlways(o.value) + ": " + errText(err))
				return t.end(1)
			}
			stamp = info.ModTime()
			timeSources++
		}
	}
	if timeSources > 1 {
		return t.end(t.usage("cannot specify times from more than one source"))
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		return t.end(t.usage("missing file operand"))
	}
	fsys := t.env.FS
	for _, name := range files {
		if t.stopped() {
			break
		}
		if name == "-" {
			continue // standard output is not a file of the workspace
		}
		p := t.abs(name)
		info, err := fsys.Lstat(p)
		if err == nil && !noDeref {
			if st, serr := fsys.Stat(p); serr == nil {
				info = st
			}
		}
		if err != nil && !isNotExist(err) {
			t.warn("cannot touch " + quoteAlways(name) + ": " + errText(err))
			status = 1
			continue
		}
		exists := err == nil
		if !exists && (noCreate || noDeref) {
			continue
		}
		// Like GNU touch, open the file for writing first (creating it if
		// need be); a file that cannot be opened "cannot be touched".
		var openErr error
		if !noDeref {
			if f, oerr := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE, 0o666); oerr == nil {
				f.Close()
			} else {
				openErr = oerr
			}
		}
		if !exists && openErr != nil {
			t.warn("cannot touch " + quoteAlways(name) + ": " + errText(openErr))
			status = 1
			continue
		}
		if !exists && timeSources == 0 {
			continue // a new file already has the current time
		}
		if noDeref && info.Mode()&fs.ModeSymlink != 0 {
			// -h changes the link's own times, never the target's. The VFS
			// has no lutimes, so the link keeps its times; changing the
			// target instead (what Chtimes would do) is the worse error.
			continue
		}
		mtime := stamp
		if onlyAccess && !onlyModify && info != nil {
			mtime = info.ModTime() // the VFS keeps no access time to change
		}
		if err := fsys.Chtimes(p, stamp, mtime); err != nil {
			if openErr != nil {
				err = openErr
				t.warn("cannot touch " + quoteAlways(name) + ": " + errText(err))
			} else {
				t.warn("setting times of " + quoteAlways(name) + ": " + errText(err))
			}
			status = 1
		}
	}
	return t.end(status)
}
