package utils

import (
	"io/fs"
	"syscall"
)

const mvHelp = `Usage: mv [OPTION]... [-T] SOURCE DEST
  or:  mv [OPTION]... SOURCE... DIRECTORY
  or:  mv [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

  -f, --force                  do not prompt before overwriting
  -i, --interactive            prompt before overwrite
  -n, --no-clobber             do not overwrite an existing file
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 move only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help        display this help and exit
      --version     output version information and exit
`

var mvOpts = []optDef{
	{short: 'f', long: "force"},
	{short: 'i', long: "interactive"},
	{short: 'n', long: "no-clobber"},
	{short: 't', long: "target-directory", arg: needArg},
	{short: 'T', long: "no-target-directory"},
	{short: 'u', long: "update", arg: maybeArg},
	{short: 'v', long: "verbose"},
	{long: "strip-trailing-slashes"},
}

// mvUtility makes the mv utility (see builtins).
func mvUtility(string) *Utility {
	return &Utility{
		Name:        "mv",
		Run:         runMv,
		Operands:    copyOperands(mvOpts),
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			if msg == "No such file or directory" || msg == "Not a directory" {
				return "mv: cannot stat " + quoteAlways(arg) + ": " + msg + "\n"
			}
			return "mv: cannot move " + quoteAlways(arg) + ": " + msg + "\n"
		},
		WriteVoice: func(arg, msg string) string {
			return "mv: cannot move to " + quoteAlways(arg) + ": " + msg + "\n"
		},
		Help: mvHelp,
	}
}

func runMv(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "mv", defs: mvOpts, usageExit: 1, help: mvHelp})
	if done {
		return status, nil
	}
	c := &copier{t: t, name: "mv", recursive: true, preserve: true}
	target, noTargetDir := "", false
	for _, o := range args.opts {
		switch o.name {
		case "force":
			c.interact, c.noClobber = false, false
		case "interactive":
			c.interact, c.noClobber = true, false
		case "no-clobber":
			c.noClobber, c.interact = true, false
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
	sources, dest, ok := splitCopyOperands(t, args.operandStrings(e.Args), target, noTargetDir)
	if !ok {
		return t.end(1)
	}
	for _, src := range sources {
		if t.stopped() {
			break
		}
		c.move(src, dest)
	}
	return t.end(c.status)
}

// move renames one source, copying and removing when it crosses mounts.
func (c *copier) move(src string, dest copyDest) {
	fsys := c.t.env.FS
	sp := c.t.abs(src)
	info, err := fsys.Lstat(sp)
	if err != nil {
		c.fail("cannot stat " + quoteAlways(src) + ": " + errText(err))
		return
	}
	if c.slashTargetRefused(src, info, dest) {
		return
	}
	dst := destFor(src, dest)
	dp := c.t.abs(dst)
	if info.IsDir() && pathWithin(dp, sp) && dp != sp {
		c.fail("cannot move " + quoteAlways(src) + " to a subdirectory of itself, " + quoteAlways(dst))
		return
	}
	existing, existErr := fsys.Lstat(dp)
	if existErr == nil {
		if same, _ := c.sameFile(sp, dp); same && info.Mode()&fs.ModeSymlink == 0 {
			c.fail(quoteAlways(src) + " and " + quoteAlways(dst) + " are the same file")
			return
		}
		switch {
		case existing.IsDir() && !info.IsDir():
			c.fail("cannot overwrite directory " + quoteAlways(dst) + " with non-directory")
			return
		case !existing.IsDir() && info.IsDir():
			c.fail("cannot overwrite non-directory " + quoteAlways(dst) + " with directory " + quoteAlways(src))
			return
		case c.noClobber:
			return
		case c.update && !info.ModTime().After(existing.ModTime()):
			return
		case c.interact && !c.ask("mv: overwrite "+quoteAlways(dst)+"? "):
			return
		}
	}
	err = fsys.Rename(sp, dp)
	if isErrno(err, syscall.EXDEV) {
		err = c.moveAcross(src, sp, info, dst, dp)
		if err == nil {
			c.renamed(src, dst)
		}
		return
	}
	if err != nil {
		c.fail("cannot move " + quoteAlways(src) + " to " + quoteAlways(dst) + ": " + errText(err))
		return
	}
	c.renamed(src, dst)
}

func (c *copier) renamed(src, dst string) {
	if c.verbose {
		c.t.writeString("renamed " + quoteAlways(src) + " -> " + quoteAlways(dst) + "\n")
	}
}

// moveAcross copies a tree to another mount and removes the original.
func (c *copier) moveAcross(src, sp string, info fs.FileInfo, dst, dp string) error {
	quiet := *c
	quiet.verbose = false
	quiet.noClobber, quiet.interact, quiet.update = false, false, false
	quiet.status = 0
	if existing, err := c.t.env.FS.Lstat(dp); err == nil && existing.IsDir() && info.IsDir() {
		// rename(2) semantics: an empty directory is replaced.
		if err := c.t.env.FS.Remove(dp); err != nil {
			c.fail("cannot move " + quoteAlways(src) + " to " + quoteAlways(dst) + ": " + errText(err))
			return err
		}
	}
	if !quiet.copyEntry(src, sp, info, dst, dp) {
		c.status = 1
		return syscall.EIO
	}
	r := &remover{t: c.t, recursive: true, force: true}
	if !r.remove(src, sp, info) {
		c.status = 1
		return syscall.EIO
	}
	return nil
}
