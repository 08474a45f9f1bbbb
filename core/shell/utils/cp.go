package utils

import (
	"bufio"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

const cpHelp = `Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

  -a, --archive                same as -dR --preserve=all
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again
  -i, --interactive            prompt before overwrite
  -H                           follow command-line symbolic links in SOURCE
  -L, --dereference            always follow symbolic links in SOURCE
  -n, --no-clobber             do not overwrite an existing file
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
      --preserve[=ATTR_LIST]   preserve the specified attributes
      --no-preserve=ATTR_LIST  don't preserve the specified attributes
  -R, -r, --recursive          copy directories recursively
      --remove-destination     remove each existing destination file before
                                 attempting to open it
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 copy only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help        display this help and exit
      --version     output version information and exit
`

var cpOpts = []optDef{
	{short: 'a', long: "archive"},
	{short: 'd'},
	{short: 'f', long: "force"},
	{short: 'i', long: "interactive"},
	{short: 'H'},
	{short: 'L', long: "dereference"},
	{short: 'n', long: "no-clobber"},
	{short: 'P', long: "no-dereference"},
	{short: 'p'},
	{long: "preserve", arg: maybeArg},
	{long: "no-preserve", arg: needArg},
	{short: 'R', long: "recursive"},
	{short: 'r'},
	{long: "remove-destination"},
	{short: 't', long: "target-directory", arg: needArg},
	{short: 'T', long: "no-target-directory"},
	{short: 'u', long: "update", arg: maybeArg},
	{short: 'v', long: "verbose"},
}

// cpUtility makes the cp utility (see builtins).
func cpUtility(string) *Utility {
	return &Utility{
		Name:        "cp",
		Keeps:       KeepsNothing,
		Run:         runCp,
		Operands:    copyOperands(cpOpts),
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return sourceVoice("cp", arg, msg) },
		WriteVoice: func(arg, msg string) string {
			return "cp: cannot create regular file " + quoteAlways(arg) + ": " + msg + "\n"
		},
		Help: cpHelp,
	}
}

// sourceVoice is how cp and mv report a source they cannot use: a missing
// one cannot be stat'ed; one the door refuses cannot be opened.
func sourceVoice(name, arg, msg string) string {
	if msg == "No such file or directory" || msg == "Not a directory" {
		return name + ": cannot stat " + quoteAlways(arg) + ": " + msg + "\n"
	}
	return name + ": cannot open " + quoteAlways(arg) + " for reading: " + msg + "\n"
}

// copyOperands: sources are read, the last operand (or -t DIR) is the
// target.
func copyOperands(defs []optDef) func(argv []string) []OperandRef {
	return func(argv []string) []OperandRef {
		args, err := parseArgs(argv, defs, parseMode{})
		if err != nil {
			return nil
		}
		var refs []OperandRef
		targetGiven := false
		for _, o := range args.opts {
			if o.name == "target-directory" {
				refs = append(refs, optionOperand(o, Target))
				targetGiven = true
			}
		}
		ops := args.operands
		for n, i := range ops {
			kind := Read
			if !targetGiven && n == len(ops)-1 && len(ops) > 1 {
				kind = Target
			}
			refs = append(refs, OperandRef{Index: i, Kind: kind})
		}
		return refs
	}
}

// copier copies trees for cp (and for mv across mounts).
type copier struct {
	t          *tool
	name       string // "cp" or "mv", for messages
	recursive  bool
	deref      bool // follow symlinks below the command line
	derefArgs  bool // follow symlinks named on the command line
	noClobber  bool
	force      bool
	removeDest bool
	update     bool
	interact   bool
	verbose    bool
	preserve   bool
	answers    *bufio.Reader
	status     int
}

func runCp(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "cp", defs: cpOpts, usageExit: 1, help: cpHelp})
	if done {
		return status, nil
	}
	c := &copier{t: t, name: "cp"}
	noDeref, derefAll, derefArgs := false, false, false
	target, noTargetDir := "", false
	for _, o := range args.opts {
		switch o.name {
		case "archive":
			c.recursive, c.preserve, noDeref = true, true, true
		case "d":
			noDeref = true
		case "force":
			c.force = true
		case "interactive":
			c.interact, c.noClobber = true, false
		case "H":
			derefArgs = true
		case "dereference":
			derefAll, noDeref = true, false
		case "no-clobber":
			c.noClobber, c.interact = true, false
		case "no-dereference":
			noDeref, derefAll = true, false
		case "p":
			c.preserve = true
		case "preserve":
			c.preserve = true
		case "no-preserve":
			c.preserve = false
		case "recursive", "r":
			c.recursive = true
		case "remove-destination":
			c.removeDest = true
		case "target-directory":
			target = o.value
		case "no-target-directory":
			noTargetDir = true
		case "update":
			c.update = o.value != "all"
		case "verbose":
			c.verbose = true
		}
	}
	// GNU cp follows links on the command line unless it copies
	// recursively or was told not to; below it only with -L.
	c.deref = derefAll
	c.derefArgs = derefAll || derefArgs || (!c.recursive && !noDeref)
	sources, dest, ok := splitCopyOperands(t, args.operandStrings(e.Args), target, noTargetDir)
	if !ok {
		return t.end(1)
	}
	for _, src := range sources {
		if t.stopped() {
			break
		}
		c.copyOperand(src, dest)
	}
	return t.end(c.status)
}

// copyDest says where the sources go: into a directory, or onto one name.
type copyDest struct {
	path  string
	isDir bool
}

// splitCopyOperands applies cp/mv's rules for SOURCE... DEST and -t/-T.
func splitCopyOperands(t *tool, ops []string, target string, noTargetDir bool) ([]string, copyDest, bool) {
	if target != "" {
		if noTargetDir {
			t.usage("cannot combine --target-directory (-t) and --no-target-directory (-T)")
			return nil, copyDest{}, false
		}
		info, err := t.env.FS.Stat(t.abs(target))
		if err != nil {
			t.warn("target directory " + quoteAlways(target) + ": " + errText(err))
			return nil, copyDest{}, false
		}
		if !info.IsDir() {
			t.warn("target directory " + quoteAlways(target) + ": Not a directory")
			return nil, copyDest{}, false
		}
		if len(ops) == 0 {
			t.usage("missing file operand")
			return nil, copyDest{}, false
		}
		return ops, copyDest{path: target, isDir: true}, true
	}
	switch len(ops) {
	case 0:
		t.usage("missing file operand")
		return nil, copyDest{}, false
	case 1:
		t.usage("missing destination file operand after " + quoteAlways(ops[0]))
		return nil, copyDest{}, false
	}
	last := ops[len(ops)-1]
	sources := ops[:len(ops)-1]
	if noTargetDir {
		if len(sources) > 1 {
			t.usage("extra operand " + quoteAlways(ops[2]))
			return nil, copyDest{}, false
		}
		return sources, copyDest{path: last}, true
	}
	info, err := t.env.FS.Stat(t.abs(last))
	isDir := err == nil && info.IsDir()
	if len(sources) > 1 && !isDir {
		if err == nil {
			err = syscall.ENOTDIR
		}
		t.warn("target " + quoteAlways(last) + ": " + errText(err))
		return nil, copyDest{}, false
	}
	return sources, copyDest{path: last, isDir: isDir}, true
}

// destFor is the name a source gets under dest.
func destFor(src string, dest copyDest) string {
	if !dest.isDir {
		return dest.path
	}
	base := path.Base(strings.TrimRight(src, "/"))
	if base == "" || base == "/" {
		base = "."
	}
	return joinShown(dest.path, base)
}

// slashTargetRefused applies GNU's rule for a file copied or moved onto a
// name spelled with a trailing slash that is not a directory: the slash
// asks for a directory, so nothing is written ("cp a nope/").
func (c *copier) slashTargetRefused(src string, info fs.FileInfo, dest copyDest) bool {
	if dest.isDir || info.IsDir() || !strings.HasSuffix(dest.path, "/") {
		return false
	}
	switch _, err := c.t.env.FS.Lstat(c.t.abs(dest.path)); {
	case err == nil:
		c.fail("cannot stat " + quoteAlways(dest.path) + ": Not a directory")
	case c.name == "mv":
		c.fail("cannot move " + quoteAlways(src) + " to " + quoteAlways(dest.path) + ": Not a directory")
	default:
		c.fail("cannot create regular file " + quoteAlways(dest.path) + ": Not a directory")
	}
	return true
}

func (c *copier) fail(msg string) {
	c.t.warn(msg)
	c.status = 1
}

func (c *copier) ask(question string) bool {
	c.t.rawStderr(question)
	if c.answers == nil {
		c.answers = bufio.NewReader(c.t.stdin())
	}
	line, _ := c.answers.ReadString('\n')
	line = strings.TrimSpace(line)
	return strings.HasPrefix(line, "y") || strings.HasPrefix(line, "Y")
}

// copyOperand copies one command-line source.
func (c *copier) copyOperand(src string, dest copyDest) {
	fsys := c.t.env.FS
	sp := c.t.abs(src)
	info, err := fsys.Lstat(sp)
	if err == nil && c.derefArgs && info.Mode()&fs.ModeSymlink != 0 {
		info, err = fsys.Stat(sp)
	}
	if err != nil {
		c.fail("cannot stat " + quoteAlways(src) + ": " + errText(err))
		return
	}
	if c.slashTargetRefused(src, info, dest) {
		return
	}
	dst := destFor(src, dest)
	dp := c.t.abs(dst)
	if info.IsDir() {
		if !c.recursive {
			c.fail("-r not specified; omitting directory " + quoteAlways(src))
			return
		}
		if pathWithin(dp, sp) {
			c.fail("cannot copy a directory, " + quoteAlways(src) + ", into itself, " + quoteAlways(dst))
			return
		}
	}
	if same, _ := c.sameFile(sp, dp); same {
		c.fail(quoteAlways(src) + " and " + quoteAlways(dst) + " are the same file")
		return
	}
	c.copyEntry(src, sp, info, dst, dp)
}

// pathWithin reports whether p is dir or lies below it.
func pathWithin(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// sameFile compares two paths after resolving links.
func (c *copier) sameFile(a, b string) (bool, error) {
	ra, err := c.t.env.FS.Resolve(a)
	if err != nil {
		return false, err
	}
	rb, err := c.t.env.FS.Resolve(b)
	if err != nil {
		return false, err
	}
	return ra == rb, nil
}

// copyEntry copies a file, link or directory to dst.
func (c *copier) copyEntry(src, sp string, info fs.FileInfo, dst, dp string) bool {
	if c.t.stopped() {
		return false
	}
	fsys := c.t.env.FS
	existing, existErr := fsys.Lstat(dp)
	exists := existErr == nil
	if exists && existing.Mode()&fs.ModeSymlink != 0 && !info.IsDir() {
		if st, err := fsys.Stat(dp); err == nil {
			existing = st
		}
	}
	switch {
	case info.IsDir():
		return c.copyDir(src, sp, info, dst, dp, existing, exists)
	case exists && existing.IsDir():
		c.fail("cannot overwrite directory " + quoteAlways(dst) + " with non-directory")
		return false
	case exists && c.noClobber:
		return true
	case exists && c.update && !info.ModTime().After(existing.ModTime()):
		return true
	case exists && c.interact && !c.ask(c.name+": overwrite "+quoteAlways(dst)+"? "):
		return true
	}
	if exists && (c.removeDest || info.Mode()&fs.ModeSymlink != 0) {
		if err := fsys.Remove(dp); err != nil {
			c.fail("cannot remove " + quoteAlways(dst) + ": " + errText(err))
			return false
		}
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := fsys.Readlink(sp)
		if err != nil {
			c.fail("cannot read symbolic link " + quoteAlways(src) + ": " + errText(err))
			return false
		}
		if err := fsys.Symlink(target, dp); err != nil {
			c.fail("cannot create symbolic link " + quoteAlways(dst) + ": " + errText(err))
			return false
		}
		c.report(src, dst)
		return true
	}
	if !c.copyFile(src, sp, info, dst, dp) {
		return false
	}
	c.report(src, dst)
	return true
}

func (c *copier) report(src, dst string) {
	if c.verbose {
		c.t.writeString(quoteAlways(src) + " -> " + quoteAlways(dst) + "\n")
	}
}

// copyFile copies one regular file's bytes (and, with -p, its mode and
// time).
func (c *copier) copyFile(src, sp string, info fs.FileInfo, dst, dp string) bool {
	fsys := c.t.env.FS
	in, err := fsys.Open(sp)
	if err != nil {
		c.fail("cannot open " + quoteAlways(src) + " for reading: " + errText(err))
		return false
	}
	defer in.Close()
	out, err := fsys.OpenFile(dp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm())
	if err != nil && c.force && !isNotExist(err) {
		if fsys.Remove(dp) == nil {
			out, err = fsys.OpenFile(dp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm())
		}
	}
	if err != nil {
		c.fail("cannot create regular file " + quoteAlways(dst) + ": " + errText(err))
		return false
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		what := "error writing " + quoteAlways(dst)
		if isErrno(err, syscall.EISDIR) {
			what = "error reading " + quoteAlways(src)
		}
		c.fail(what + ": " + errText(err))
		return false
	}
	if c.preserve {
		c.preserveAttrs(dp, info)
	}
	return true
}

func (c *copier) preserveAttrs(dp string, info fs.FileInfo) {
	fsys := c.t.env.FS
	fsys.Chmod(dp, info.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	fsys.Chtimes(dp, info.ModTime(), info.ModTime())
}

// copyDir copies a directory tree, merging into an existing directory.
func (c *copier) copyDir(src, sp string, info fs.FileInfo, dst, dp string, existing fs.FileInfo, exists bool) bool {
	fsys := c.t.env.FS
	if exists && !existing.IsDir() {
		c.fail("cannot overwrite non-directory " + quoteAlways(dst) + " with directory " + quoteAlways(src))
		return false
	}
	entries, err := fsys.ReadDir(sp)
	if err != nil {
		c.fail("cannot access " + quoteAlways(src) + ": " + errText(err))
		return false
	}
	if !exists {
		if err := fsys.Mkdir(dp, info.Mode().Perm()|0o700); err != nil {
			c.fail("cannot create directory " + quoteAlways(dst) + ": " + errText(err))
			return false
		}
		c.report(src, dst)
	}
	ok := true
	for _, ent := range entries {
		if c.t.stopped() {
			return false
		}
		childSrc, childDst := joinShown(src, ent.Name()), joinShown(dst, ent.Name())
		csp, cdp := Join(sp, ent.Name()), Join(dp, ent.Name())
		childInfo, err := ent.Info()
		if err == nil && c.deref && childInfo.Mode()&fs.ModeSymlink != 0 {
			childInfo, err = fsys.Stat(csp)
		}
		if err != nil {
			c.fail("cannot stat " + quoteAlways(childSrc) + ": " + errText(err))
			ok = false
			continue
		}
		if !c.copyEntry(childSrc, csp, childInfo, childDst, cdp) {
			ok = false
		}
	}
	if c.preserve {
		c.preserveAttrs(dp, info)
	} else if !exists {
		fsys.Chmod(dp, info.Mode().Perm())
	}
	return ok
}
