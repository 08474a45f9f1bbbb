package utils

import (
	"bufio"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"syscall"
)

const rmHelp = `Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    prompt before every removal
  -I                    prompt once before removing more than three files, or
                          when removing recursively
      --interactive[=WHEN]  prompt according to WHEN: never, once (-I), or
                          always (-i); without WHEN, prompt always
      --one-file-system  accepted; a workspace has one file system per mount
      --no-preserve-root  do not treat '/' specially
      --preserve-root[=all]  do not remove '/' (default)
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --help        display this help and exit
      --version     output version information and exit

By default, rm does not remove directories.  Use the --recursive (-r or -R)
option to remove each listed directory, too, along with all of its contents.
`

var rmOpts = []optDef{
	{short: 'f', long: "force"},
	{short: 'i'},
	{short: 'I'},
	{long: "interactive", arg: maybeArg},
	{long: "one-file-system"},
	{long: "no-preserve-root"},
	{long: "preserve-root", arg: maybeArg},
	{short: 'r', long: "recursive"},
	{short: 'R'},
	{short: 'd', long: "dir"},
	{short: 'v', long: "verbose"},
}

// rmUtility makes the rm utility (see builtins).
func rmUtility(string) *Utility {
	return &Utility{
		Name:        "rm",
		Run:         runRm,
		Operands:    plainOperands(rmOpts, parseMode{}, Write),
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "rm: cannot remove " + quoteAlways(arg) + ": " + msg + "\n" },
		Help:        rmHelp,
	}
}

// remover is one rm run.
type remover struct {
	t                          *tool
	force, recursive, emptyDir bool
	verbose, preserveRoot      bool
	interactive                string // "", "once", "always"
	answers                    *bufio.Reader
	status                     int
}

func runRm(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "rm", defs: rmOpts, usageExit: 1, help: rmHelp})
	if done {
		return status, nil
	}
	r := &remover{t: t, preserveRoot: true}
	for _, o := range args.opts {
		switch o.name {
		case "force":
			r.force, r.interactive = true, ""
		case "i":
			r.interactive, r.force = "always", false
		case "I":
			r.interactive, r.force = "once", false
		case "interactive":
			switch o.value {
			case "", "always", "yes":
				r.interactive, r.force = "always", false
			case "once":
				r.interactive, r.force = "once", false
			case "never", "no", "none":
				r.interactive = ""
			default:
				return t.end(t.usage("invalid argument " + quoteAlways(o.value) + " for '--interactive'"))
			}
		case "no-preserve-root":
			r.preserveRoot = false
		case "preserve-root":
			r.preserveRoot = true
		case "recursive", "R":
			r.recursive = true
		case "dir":
			r.emptyDir = true
		case "verbose":
			r.verbose = true
		}
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		if r.force {
			return t.end(0)
		}
		return t.end(t.usage("missing operand"))
	}
	if r.interactive == "once" && (r.recursive || len(files) > 3) {
		what := "remove " + strconv.Itoa(len(files)) + " argument"
		if len(files) > 1 {
			what += "s"
		}
		if r.recursive {
			what += " recursively"
		}
		if !r.ask("rm: " + what + "? ") {
			return t.end(0)
		}
	}
	for _, f := range files {
		if t.stopped() {
			break
		}
		r.operand(f)
	}
	return t.end(r.status)
}

func (r *remover) fail(shown string, err error) {
	r.t.warn("cannot remove " + quoteAlways(shown) + ": " + errText(err))
	r.status = 1
}

// ask prompts on stderr and reads y/n from stdin.
func (r *remover) ask(question string) bool {
	r.t.rawStderr(question)
	if r.answers == nil {
		r.answers = bufio.NewReader(r.t.stdin())
	}
	line, _ := r.answers.ReadString('\n')
	line = strings.TrimSpace(line)
	return strings.HasPrefix(line, "y") || strings.HasPrefix(line, "Y")
}

func (r *remover) operand(name string) {
	trimmed := strings.TrimRight(name, "/")
	base := path.Base(trimmed)
	if trimmed != "" && (base == "." || base == "..") {
		r.t.warn("refusing to remove '.' or '..' directory: skipping " + quoteAlways(name))
		r.status = 1
		return
	}
	p := r.t.abs(name)
	if p == "/" && r.recursive && r.preserveRoot {
		r.t.warn("it is dangerous to operate recursively on '/'")
		r.t.warn("use --no-preserve-root to override this failsafe")
		r.status = 1
		return
	}
	info, err := r.t.env.FS.Lstat(p)
	if err != nil {
		if r.force && isNotExist(err) {
			return
		}
		r.fail(name, err)
		return
	}
	r.remove(name, p, info)
}

// remove deletes one entry; it reports whether the entry is gone, so a
// parent whose child stays is not reported a second time.
func (r *remover) remove(shown, p string, info fs.FileInfo) bool {
	if r.t.stopped() {
		return false
	}
	if !info.IsDir() {
		if r.interactive == "always" && !r.ask("rm: remove "+fileKind(info)+" "+quoteAlways(shown)+"? ") {
			return false
		}
		if err := r.t.env.FS.Remove(p); err != nil {
			r.fail(shown, err)
			return false
		}
		r.removed("removed " + quoteAlways(shown))
		return true
	}
	if !r.recursive {
		if !r.emptyDir {
			r.fail(shown, syscall.EISDIR)
			return false
		}
		if r.interactive == "always" && !r.ask("rm: remove directory "+quoteAlways(shown)+"? ") {
			return false
		}
		if err := r.t.env.FS.Remove(p); err != nil {
			r.fail(shown, err)
			return false
		}
		r.removed("removed directory " + quoteAlways(shown))
		return true
	}
	entries, err := r.t.env.FS.ReadDir(p)
	if err != nil {
		r.fail(shown, err)
		return false
	}
	if r.interactive == "always" && len(entries) > 0 && !r.ask("rm: descend into directory "+quoteAlways(shown)+"? ") {
		return false
	}
	allGone := true
	for _, ent := range entries {
		childInfo, err := ent.Info()
		childShown := joinShown(shown, ent.Name())
		if err != nil {
			r.fail(childShown, err)
			allGone = false
			continue
		}
		if !r.remove(childShown, Join(p, ent.Name()), childInfo) {
			allGone = false
		}
	}
	if !allGone {
		return false
	}
	if r.interactive == "always" && !r.ask("rm: remove directory "+quoteAlways(shown)+"? ") {
		return false
	}
	if err := r.t.env.FS.Remove(p); err != nil {
		r.fail(shown, err)
		return false
	}
	r.removed("removed directory " + quoteAlways(shown))
	return true
}

func (r *remover) removed(msg string) {
	if r.verbose {
		r.t.writeString(msg + "\n")
	}
}

// fileKind names an entry the way rm -i asks about it.
func fileKind(info fs.FileInfo) string {
	m := info.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsRegular() && info.Size() == 0:
		return "regular empty file"
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	}
	return "file"
}
