package utils

import (
	"io/fs"
	"strconv"
	"strings"
)

const chmodHelp = `Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help        display this help and exit
      --version     output version information and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
Modes live in the workspace's filesystem: ls -l shows them, test -x and
running a script by path honour them.
`

var chmodOpts = []optDef{
	{short: 'c', long: "changes"},
	{short: 'f', long: "silent"},
	{long: "quiet"},
	{short: 'v', long: "verbose"},
	{long: "no-preserve-root"},
	{long: "preserve-root"},
	{long: "reference", arg: needArg},
	{short: 'R', long: "recursive"},
}

// chmodUtility makes the chmod utility (see builtins).
func chmodUtility(string) *Utility {
	return &Utility{
		Name:        "chmod",
		Run:         runChmod,
		Operands:    chmodOperands,
		OperandExit: 1,
		Voice:       chmodVoice,
		Help:        chmodHelp,
	}
}

// chmodVoice: a missing (or hidden) file "cannot access", any other
// failure "changing permissions of".
func chmodVoice(arg, msg string) string {
	if msg == "No such file or directory" {
		return "chmod: cannot access '" + arg + "': " + msg + "\n"
	}
	return "chmod: changing permissions of '" + arg + "': " + msg + "\n"
}

// chmodModeArg finds a mode spelled like an option (-x, -w,u+r, -=r),
// which chmod takes as the mode; it returns its index or -1.
func chmodModeArg(argv []string) int {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			return -1
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "rwxXstugoa=+-,01234567") == "" && strings.ContainsAny(a[1:], "rwxXst=+-,01234567") {
			return i
		}
	}
	return -1
}

// chmodArgs splits argv into the parsed options, the mode (unless
// --reference gives one) and the files.
func chmodArgs(argv []string) (args *parsedArgs, mode string, modeIdx int, files []int, uerr *usageError) {
	modeIdx = chmodModeArg(argv)
	scan := argv
	if modeIdx >= 0 {
		scan = append(append([]string(nil), argv[:modeIdx]...), argv[modeIdx+1:]...)
	}
	args, uerr = parseArgs(scan, chmodOpts, parseMode{})
	if uerr != nil {
		return nil, "", -1, nil, uerr
	}
	for _, i := range args.operands {
		if modeIdx >= 0 && i >= modeIdx {
			i++
		}
		files = append(files, i)
	}
	if modeIdx < 0 && !args.has("reference") && len(files) > 0 {
		modeIdx, files = files[0], files[1:]
	}
	if modeIdx >= 0 {
		mode = argv[modeIdx]
	}
	return args, mode, modeIdx, files, nil
}

func chmodOperands(argv []string) []OperandRef {
	args, _, _, files, uerr := chmodArgs(argv)
	if uerr != nil {
		return nil
	}
	refs := operandRefs(files, Write)
	for _, o := range args.opts {
		if o.name == "reference" {
			refs = append(refs, optionOperand(o, Read))
		}
	}
	return refs
}

// chmodRun is one chmod invocation.
type chmodRun struct {
	t                        *tool
	mode                     string
	ref                      *uint32 // --reference's bits
	recursive, quiet         bool
	verbose, changes, failed bool
}

func runChmod(e *Env) (int, error) {
	t := newTool(e, "chmod", chmodHelp, 1)
	args, mode, modeIdx, files, uerr := chmodArgs(e.Args)
	if uerr != nil {
		return t.end(t.usage(uerr.msg))
	}
	r := &chmodRun{t: t, mode: mode}
	for _, o := range args.opts {
		switch o.name {
		case "help":
			t.writeString(chmodHelp)
			return t.end(0)
		case "version":
			t.writeString("chmod (GNU coreutils) 9.1\n")
			return t.end(0)
		case "changes":
			r.changes = true
		case "silent", "quiet":
			r.quiet = true
		case "verbose":
			r.verbose = true
		case "recursive":
			r.recursive = true
		case "reference":
			info, err := e.FS.Stat(e.Abs(o.value))
			if err != nil {
				t.warn("failed to get attributes of '" + o.value + "': " + errText(err))
				return t.end(1)
			}
			bits := unixBits(info.Mode())
			r.ref = &bits
		}
	}
	switch {
	case modeIdx < 0 && r.ref == nil:
		return t.end(t.usage("missing operand"))
	case len(files) == 0 && r.ref == nil:
		return t.end(t.usage("missing operand after '" + mode + "'"))
	case len(files) == 0:
		return t.end(t.usage("missing operand"))
	}
	if r.ref == nil {
		if _, ok := applyModeSpec(mode, 0, false, e.umask()); !ok {
			return t.end(t.usage("invalid mode: '" + mode + "'"))
		}
	}
	for _, i := range files {
		if t.stopped() {
			break
		}
		r.operand(e.Args[i])
	}
	if r.failed {
		return t.end(1)
	}
	return t.end(0)
}

// operand changes one command-line file (following a link to its
// target) and, with -R, what lies below a directory.
func (r *chmodRun) operand(name string) {
	abs := r.t.abs(name)
	info, err := r.t.env.FS.Stat(abs)
	if err != nil {
		r.fail(name, err)
		return
	}
	r.change(abs, name, info)
	if r.recursive && info.IsDir() {
		r.walk(abs, name)
	}
}

// walk changes a directory's entries; links found on the way are left
// alone, as GNU chmod leaves them.
func (r *chmodRun) walk(dir, shown string) {
	list, err := r.t.env.FS.ReadDir(dir)
	if err != nil {
		r.fail(shown, err)
		return
	}
	for _, d := range list {
		if r.t.stopped() {
			return
		}
		child, childShown := Join(dir, d.Name()), joinShown(shown, d.Name())
		if d.Type()&fs.ModeSymlink != 0 {
			continue
		}
		info, err := d.Info()
		if err != nil {
			r.fail(childShown, err)
			continue
		}
		r.change(child, childShown, info)
		if info.IsDir() {
			r.walk(child, childShown)
		}
	}
}

// change applies the mode to one file and reports it as -v/-c ask.
func (r *chmodRun) change(abs, shown string, info fs.FileInfo) {
	old := unixBits(info.Mode())
	bits := old
	if r.ref != nil {
		bits = *r.ref
	} else {
		bits, _ = applyModeSpec(r.mode, old, info.IsDir(), r.t.env.umask())
	}
	if bits != old {
		if err := r.t.env.FS.Chmod(abs, goMode(bits)); err != nil {
			r.fail(shown, err)
			return
		}
	}
	switch {
	case bits != old && (r.verbose || r.changes):
		r.t.writeString("mode of '" + shown + "' changed from " + chmodOctal(old) + " (" + chmodSymbolic(old) + ") to " + chmodOctal(bits) + " (" + chmodSymbolic(bits) + ")\n")
	case bits == old && r.verbose:
		r.t.writeString("mode of '" + shown + "' retained as " + chmodOctal(old) + " (" + chmodSymbolic(old) + ")\n")
	}
}

// fail reports a file chmod could not look at or change.
func (r *chmodRun) fail(shown string, err error) {
	r.failed = true
	if !r.quiet {
		r.t.flush()
		r.t.rawStderr(chmodVoice(shown, errText(err)))
	}
	if r.verbose && isNotExist(err) {
		r.t.writeString("'" + shown + "' could not be accessed\n")
	}
}

// chmodOctal is the four-digit octal mode -v prints.
func chmodOctal(bits uint32) string { return padFill(strconv.FormatUint(uint64(bits), 8), 4, '0') }

// chmodSymbolic is the rwx string -v prints (without the file type).
func chmodSymbolic(bits uint32) string {
	b := []byte("rwxrwxrwx")
	for i := range 9 {
		if bits&(1<<uint(8-i)) == 0 {
			b[i] = '-'
		}
	}
	special := []struct {
		bit  uint32
		pos  int
		with byte
	}{{0o4000, 2, 's'}, {0o2000, 5, 's'}, {0o1000, 8, 't'}}
	for _, s := range special {
		if bits&s.bit != 0 {
			if b[s.pos] == 'x' {
				b[s.pos] = s.with
			} else {
				b[s.pos] = s.with - 'a' + 'A'
			}
		}
	}
	return string(b)
}
