package utils

import (
	"io"
	"io/fs"
	"os"
)

const installHelp = `Usage: install [OPTION]... [-T] SOURCE DEST
  or:  install [OPTION]... SOURCE... DIRECTORY
  or:  install [OPTION]... -t DIRECTORY SOURCE...
  or:  install [OPTION]... -d DIRECTORY...

Copy SOURCE to DEST or SOURCEs into DIRECTORY, setting the mode (0755
unless -m says otherwise). With -d, create every DIRECTORY.

  -C, --compare       do not copy a file whose content is already there
  -d, --directory     treat all arguments as directory names; create all
                        components of the specified directories
  -D                  create all leading components of DEST except the last,
                        or all components of --target-directory, then copy
  -g, --group=GROUP   accepted; the workspace has one group
  -m, --mode=MODE     set permission mode (as in chmod), instead of rwxr-xr-x
  -o, --owner=OWNER   accepted; the workspace has one owner
  -p, --preserve-timestamps  apply access/modification times of SOURCE files
                        to corresponding destination files
  -s, --strip         accepted; nothing here is a binary to strip
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory  treat DEST as a normal file
  -v, --verbose       print the name of each created file or directory
      --help        display this help and exit
      --version     output version information and exit
`

var installOpts = []optDef{
	{short: 'b', long: "backup", arg: maybeArg},
	{short: 'C', long: "compare"},
	{short: 'd', long: "directory"},
	{short: 'D'},
	{short: 'g', long: "group", arg: needArg},
	{short: 'm', long: "mode", arg: needArg},
	{short: 'o', long: "owner", arg: needArg},
	{short: 'p', long: "preserve-timestamps"},
	{short: 's', long: "strip"},
	{short: 't', long: "target-directory", arg: needArg},
	{short: 'T', long: "no-target-directory"},
	{short: 'v', long: "verbose"},
}

// installUtility makes the install utility (see builtins).
func installUtility(string) *Utility {
	return &Utility{
		Name: "install",
		Run:  runInstall,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, installOpts, parseMode{})
			if err != nil {
				return nil
			}
			if args.has("directory") {
				return operandRefs(args.operands, Write)
			}
			var refs []OperandRef
			target := ""
			for _, o := range args.opts {
				if o.name == "target-directory" {
					refs = append(refs, optionOperand(o, Target))
					target = o.value
				}
			}
			for k, i := range args.operands {
				kind := Read
				if target == "" && k == len(args.operands)-1 {
					kind = Target
				}
				refs = append(refs, OperandRef{Index: i, Kind: kind})
			}
			return refs
		},
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "install: cannot stat '" + arg + "': " + msg + "\n" },
		Help:        installHelp,
	}
}

// installRun is one install invocation.
type installRun struct {
	t                *tool
	mode             fs.FileMode
	verbose, compare bool
	leading          bool
	preserve         bool
	failed           bool
}

func runInstall(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "install", defs: installOpts, usageExit: 1, help: installHelp})
	if done {
		return t.end(status)
	}
	r := &installRun{t: t, mode: 0o755, verbose: args.has("verbose"), compare: args.has("compare"),
		leading: args.has("D"), preserve: args.has("preserve-timestamps")}
	target, noTarget := "", args.has("no-target-directory")
	for _, o := range args.opts {
		switch o.name {
		case "mode":
			bits, ok := applyModeSpec(o.value, 0o755, false, 0)
			if !ok {
				t.warn("invalid mode '" + o.value + "'")
				return t.end(1)
			}
			r.mode = goMode(bits)
		case "target-directory":
			target = o.value
		}
	}
	ops := args.operandStrings(e.Args)
	if args.has("directory") {
		if len(ops) == 0 {
			return t.end(t.usage("missing file operand"))
		}
		for _, d := range ops {
			r.mkdirAll(d, true)
		}
		return t.end(r.status())
	}
	switch {
	case len(ops) == 0:
		return t.end(t.usage("missing file operand"))
	case target == "" && len(ops) == 1:
		return t.end(t.usage("missing destination file operand after '" + ops[0] + "'"))
	}
	if target == "" {
		target, ops = ops[len(ops)-1], ops[:len(ops)-1]
		info, err := e.FS.Stat(e.Abs(target))
		if noTarget || len(ops) == 1 && (err != nil || !info.IsDir()) {
			if r.leading {
				r.mkdirAll(dirName(target), false)
			}
			r.copy(ops[0], target)
			return t.end(r.status())
		}
		if err != nil {
			t.warn("target '" + target + "': " + errText(err))
			return t.end(1)
		}
		if !info.IsDir() {
			t.warn("target '" + target + "' is not a directory")
			return t.end(1)
		}
	} else if r.leading {
		r.mkdirAll(target, false)
	}
	for _, src := range ops {
		r.copy(src, joinShown(target, baseName(src, "")))
	}
	return t.end(r.status())
}

func (r *installRun) status() int {
	if r.failed {
		return 1
	}
	return 0
}

// mkdirAll creates a directory and its missing parents (-d, -D); -d
// gives the last one the mode.
func (r *installRun) mkdirAll(dir string, withMode bool) {
	var made []string
	for d := dir; d != "." && d != "/" && d != ""; d = dirName(d) {
		if _, err := r.t.env.FS.Stat(r.t.abs(d)); err == nil {
			break
		}
		made = append(made, d)
	}
	for i := len(made) - 1; i >= 0; i-- {
		d := made[i]
		if err := r.t.env.FS.Mkdir(r.t.abs(d), 0o755); err != nil {
			r.t.warn("cannot create directory '" + d + "': " + errText(err))
			r.failed = true
			return
		}
		if r.verbose {
			r.t.writeString("install: creating directory '" + d + "'\n")
		}
	}
	if withMode {
		if err := r.t.env.FS.Chmod(r.t.abs(dir), r.mode|fs.ModeDir); err != nil {
			r.t.warn("cannot change permissions of '" + dir + "': " + errText(err))
			r.failed = true
		}
	}
}

// copy installs one file.
func (r *installRun) copy(src, dest string) {
	fsys := r.t.env.FS
	info, err := fsys.Stat(r.t.abs(src))
	if err != nil {
		r.t.warn("cannot stat '" + src + "': " + errText(err))
		r.failed = true
		return
	}
	if info.IsDir() {
		r.t.warn("omitting directory '" + src + "'")
		r.failed = true
		return
	}
	in, err := fsys.Open(r.t.abs(src))
	if err != nil {
		r.t.warn("cannot open '" + src + "' for reading: " + errText(err))
		r.failed = true
		return
	}
	defer in.Close()
	out, err := fsys.OpenFile(r.t.abs(dest), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		r.t.warn("cannot create regular file '" + dest + "': " + errText(err))
		r.failed = true
		return
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Chmod(r.t.abs(dest), r.mode)
	}
	if err == nil && r.preserve {
		err = fsys.Chtimes(r.t.abs(dest), info.ModTime(), info.ModTime())
	}
	if err != nil {
		r.t.warn("cannot create regular file '" + dest + "': " + errText(err))
		r.failed = true
		return
	}
	if r.verbose {
		r.t.writeString("'" + src + "' -> '" + dest + "'\n")
	}
}
