package utils

import (
	"path"
	"strings"
)

const lnHelp = `Usage: ln [OPTION]... [-T] TARGET LINK_NAME
  or:  ln [OPTION]... TARGET
  or:  ln [OPTION]... TARGET... DIRECTORY
  or:  ln [OPTION]... -t DIRECTORY TARGET...
In the 1st form, create a link to TARGET with the name LINK_NAME.
In the 2nd form, create a link to TARGET in the current directory.
In the 3rd and 4th forms, create links to each TARGET in DIRECTORY.
Create hard links by default, symbolic links with --symbolic.
By default, each destination (name of new link) should not already exist.
When creating hard links, each TARGET must exist.  Symbolic links
can hold arbitrary text; if later resolved, a relative link is
interpreted in relation to its parent directory.

Mandatory arguments to long options are mandatory for short options too.
  -f, --force                 remove existing destination files
  -n, --no-dereference        treat LINK_NAME as a normal file if
                                it is a symbolic link to a directory
  -r, --relative              with -s, create links relative to link location
  -s, --symbolic              make symbolic links instead of hard links
  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create
                                the links
  -T, --no-target-directory   treat LINK_NAME as a normal file always
  -v, --verbose               print name of each linked file
      --help        display this help and exit
      --version     output version information and exit

Hard links work on memory mounts (on a durable one the second name is a
copy of the content); a host mount keeps no second names, so there ln
without -s fails with "Operation not supported".
`

var lnOpts = []optDef{
	{short: 'b'},
	{long: "backup", arg: maybeArg},
	{short: 'd', long: "directory"},
	{short: 'F'},
	{short: 'f', long: "force"},
	{short: 'i', long: "interactive"},
	{short: 'L', long: "logical"},
	{short: 'n', long: "no-dereference"},
	{short: 'P', long: "physical"},
	{short: 'r', long: "relative"},
	{short: 's', long: "symbolic"},
	{short: 'S', long: "suffix", arg: needArg},
	{short: 't', long: "target-directory", arg: needArg},
	{short: 'T', long: "no-target-directory"},
	{short: 'v', long: "verbose"},
}

// lnUtility makes the ln utility (see builtins).
func lnUtility(string) *Utility {
	return &Utility{
		Name:        "ln",
		Run:         runLn,
		Operands:    lnOperands,
		OperandExit: 1,
		Voice:       alwaysQuotedVoice("ln: failed to access "),
		WriteVoice:  alwaysQuotedVoice("ln: failed to create symbolic link "),
		Help:        lnHelp,
	}
}

// lnOperands: the link names (or the directory receiving them) are
// written; a hard link's TARGET is read. A symbolic link's TARGET is only
// text stored in the link, so it is no operand.
func lnOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, lnOpts, parseMode{})
	if err != nil {
		return nil
	}
	symbolic := args.has("symbolic")
	var refs []OperandRef
	targets := args.operands
	hasDir := false
	for _, o := range args.opts {
		if o.name == "target-directory" {
			refs = append(refs, optionOperand(o, Target))
			hasDir = true
		}
	}
	if !hasDir && len(targets) >= 2 {
		refs = append(refs, OperandRef{Index: targets[len(targets)-1], Kind: Target})
		targets = targets[:len(targets)-1]
	}
	if !symbolic {
		for _, i := range targets {
			refs = append(refs, OperandRef{Index: i, Kind: Read})
		}
	}
	return refs
}

type lnConfig struct {
	symbolic, force, noDeref, relative, verbose bool
}

func runLn(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "ln", defs: lnOpts, usageExit: 1, help: lnHelp})
	if done {
		return status, nil
	}
	cfg := &lnConfig{}
	targetDir, hasTargetDir, noTargetDir := "", false, false
	for _, o := range args.opts {
		switch o.name {
		case "symbolic":
			cfg.symbolic = true
		case "force":
			cfg.force = true
		case "no-dereference":
			cfg.noDeref = true
		case "relative":
			cfg.relative = true
		case "verbose":
			cfg.verbose = true
		case "target-directory":
			targetDir, hasTargetDir = o.value, true
		case "no-target-directory":
			noTargetDir = true
		}
	}
	if cfg.relative && !cfg.symbolic {
		t.warn("cannot do --relative without --symbolic")
		return t.end(1)
	}
	ops := args.operandStrings(e.Args)
	switch {
	case len(ops) == 0:
		return t.end(t.usage("missing file operand"))
	case hasTargetDir && noTargetDir:
		return t.end(t.usage("cannot combine --target-directory and --no-target-directory"))
	case noTargetDir && len(ops) > 2:
		return t.end(t.usage("extra operand " + quoteAlways(ops[2])))
	case noTargetDir && len(ops) < 2:
		return t.end(t.usage("missing destination file operand after " + quoteAlways(ops[0])))
	}
	// Work out each (target, link name) pair.
	type pair struct{ target, link string }
	var pairs []pair
	intoDir := func(dir string, targets []string) {
		for _, target := range targets {
			pairs = append(pairs, pair{target, lnJoin(dir, baseName(target, ""))})
		}
	}
	switch {
	case hasTargetDir:
		if !lnIsDir(e, targetDir, false) {
			t.warn("target " + quoteAlways(targetDir) + ": " + lnDirError(e, targetDir))
			return t.end(1)
		}
		intoDir(targetDir, ops)
	case len(ops) == 1:
		intoDir(".", ops)
	case len(ops) == 2 && (noTargetDir || !lnIsDir(e, ops[1], cfg.noDeref)):
		pairs = append(pairs, pair{ops[0], ops[1]})
	default:
		dir := ops[len(ops)-1]
		if !lnIsDir(e, dir, cfg.noDeref) {
			t.warn("target " + quoteAlways(dir) + ": " + lnDirError(e, dir))
			return t.end(1)
		}
		intoDir(dir, ops[:len(ops)-1])
	}
	for _, p := range pairs {
		if t.stopped() {
			break
		}
		if !lnOne(t, cfg, p.target, p.link) {
			status = 1
		}
	}
	return t.end(status)
}

func lnJoin(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return strings.TrimRight(dir, "/") + "/" + name
}

// lnIsDir reports a directory destination; with noDeref a symlink to a
// directory is not one.
func lnIsDir(e *Env, name string, noDeref bool) bool {
	p := e.Abs(name)
	if name == "" {
		return false
	}
	if noDeref {
		if info, err := e.FS.Lstat(p); err == nil && !info.IsDir() {
			return false
		}
	}
	info, err := e.FS.Stat(p)
	return err == nil && info.IsDir()
}

func lnDirError(e *Env, name string) string {
	if _, err := statOperand(e, name, true); err != nil {
		return errText(err)
	}
	return "Not a directory"
}

// lnOne makes one link and reports success.
func lnOne(t *tool, cfg *lnConfig, target, link string) bool {
	fsys := t.env.FS
	linkPath := t.abs(link)
	kind := "symbolic link"
	if !cfg.symbolic {
		kind = "hard link"
		if _, err := statOperand(t.env, target, true); err != nil {
			t.warn("failed to access " + quoteAlways(target) + ": " + errText(err))
			return false
		}
		if info, err := fsys.Lstat(t.abs(target)); err == nil && info.IsDir() {
			t.warn(quoteIfNeeded(target) + ": hard link not allowed for directory")
			return false
		}
	}
	if link == "" || target == "" && cfg.symbolic {
		t.warn("failed to create " + kind + " " + quoteAlways(link) + ": " + errText(errEmptyName))
		return false
	}
	if info, err := fsys.Lstat(linkPath); err == nil {
		if !cfg.force {
			t.warn("failed to create " + kind + " " + quoteAlways(link) + ": File exists")
			return false
		}
		if info.IsDir() {
			t.warn(quoteAlways(link) + ": cannot overwrite directory")
			return false
		}
		if !cfg.symbolic && lnSameFile(t, target, link) {
			t.warn(quoteAlways(target) + " and " + quoteAlways(link) + " are the same file")
			return false
		}
		if err := fsys.Remove(linkPath); err != nil {
			t.warn("cannot remove " + quoteAlways(link) + ": " + errText(err))
			return false
		}
	}
	if !cfg.symbolic {
		return lnHard(t, cfg, target, link)
	}
	content := target
	if cfg.relative {
		content = lnRelative(t, target, linkPath)
	}
	if err := fsys.Symlink(content, linkPath); err != nil {
		t.warn("failed to create symbolic link " + quoteAlways(link) + ": " + errText(err))
		return false
	}
	if cfg.verbose {
		t.writeString(quoteAlways(link) + " -> " + quoteAlways(content) + "\n")
	}
	return true
}

// lnHard makes link a second name of target. The VFS judges it as a
// rename that keeps the old name: the new name must protect the content at
// least as much as the old one does.
func lnHard(t *tool, cfg *lnConfig, target, link string) bool {
	if err := t.env.FS.Link(t.abs(target), t.abs(link)); err != nil {
		t.warn("failed to create hard link " + quoteAlways(link) + " => " + quoteAlways(target) + ": " + errText(err))
		return false
	}
	if cfg.verbose {
		t.writeString(quoteAlways(link) + " => " + quoteAlways(target) + "\n")
	}
	return true
}

// lnSameFile reports whether target and link are one name, which ln -f
// must not remove before linking it to itself.
func lnSameFile(t *tool, target, link string) bool {
	a, err := canonicalize(t.env, t.abs(target), canonMissingOK, false)
	if err != nil {
		return false
	}
	b, err := canonicalize(t.env, t.abs(link), canonMissingOK, false)
	return err == nil && a == b
}

// lnRelative rewrites target (relative to the cwd) as a path relative to
// the link's directory, as ln -sr does.
func lnRelative(t *tool, target, linkPath string) string {
	abs := t.abs(target)
	if resolved, err := canonicalize(t.env, abs, canonMissingOK, false); err == nil {
		abs = resolved
	}
	dir := path.Dir(linkPath)
	if resolved, err := canonicalize(t.env, dir, canonMissingOK, false); err == nil {
		dir = resolved
	}
	return relativePath(dir, abs)
}

// relativePath spells to relative to the directory from (both absolute
// and clean).
func relativePath(from, to string) string {
	fromParts := strings.Split(strings.Trim(from, "/"), "/")
	toParts := strings.Split(strings.Trim(to, "/"), "/")
	if from == "/" {
		fromParts = nil
	}
	if to == "/" {
		toParts = nil
	}
	common := 0
	for common < len(fromParts) && common < len(toParts) && fromParts[common] == toParts[common] {
		common++
	}
	var parts []string
	for range fromParts[common:] {
		parts = append(parts, "..")
	}
	parts = append(parts, toParts[common:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}
