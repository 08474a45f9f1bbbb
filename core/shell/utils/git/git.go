// Package git is the shell's git: a Go implementation of the everyday
// subcommands over go-git's storage and index plumbing, whose every read
// and write of a worktree or its .git passes the session's op door
// through a go-billy adapter (G-6.1). It never runs a host git binary and
// never names a host path (G-12.1).
//
// Paths the door hides are not there for git: not in status, not staged
// by add -A, not in diffs, and their content in history (blobs reached
// through a path name) is judged as the worktree path of that name is
// (G-4.5). A denied file is listed as untracked and refuses to be added
// with the rule's reason (G-6.1b). Output follows git 2.39's formats with
// colour off.
//
// The package is its own so the utilities package does not link it; it
// registers git from init, and does no other work until git runs.
package git

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"

	"gatehouse/core/shell/utils"
	"gatehouse/core/vfs"
	"gatehouse/internal/lazy"
)

// provider names git to the shell; git is made when first looked up, not
// at start-up.
var provider = utils.Provider{Name: "git", Make: utility}

func init() { utils.Provide(&provider) }

// utility makes the git utility.
func utility(string) *utils.Utility {
	return &utils.Utility{
		Name:        "git",
		Run:         run,
		Operands:    operands,
		OperandExit: 128,
		Keeps:       utils.KeepsNothing,
		// git holds whole files and objects while it compares, stores
		// and diffs them: each read is first checked against the line's
		// memory budget (fits), and the heap watchdog ends a line whose
		// reads add up past it (G-12.3).
		Opaque: true,
		Voice: func(arg, msg string) string {
			return "fatal: " + arg + ": " + msg + "\n"
		},
		Help: usageText,
	}
}

// version is the git whose formats this package follows.
const version = "2.39.5"

const usageText = `usage: git [--version] [--help] [-C <path>] [-c <name>=<value>]
           <command> [<args>]

These are common Git commands used in various situations:

start a working area
   clone     Clone a repository into a new directory
   init      Create an empty Git repository or reinitialize an existing one

work on the current change
   add       Add file contents to the index
   mv        Move or rename a file, a directory, or a symlink
   restore   Restore working tree files
   rm        Remove files from the working tree and from the index

examine the history and state
   diff      Show changes between commits, commit and working tree, etc
   log       Show commit logs
   show      Show various types of objects
   status    Show the working tree status

grow, mark and tweak your common history
   branch    List, create, or delete branches
   commit    Record changes to the repository
   merge     Join two or more development histories together
   reset     Reset current HEAD to the specified state
   switch    Switch branches
   tag       Create, list, delete or verify a tag object signed with GPG

plumbing and configuration
   cat-file  Provide content or type and size information for repository objects
   config    Get and set repository or global options
   ls-files  Show information about files in the index and the working tree
   rev-parse Pick out and massage parameters
   stash     Stash the changes in a dirty working directory away
`

// cmd is one run of git.
type cmd struct {
	env *utils.Env
	// fsys is the work tree's view: no op of it reaches into a .git,
	// whatever links stand or are flipped on the way (vfs.GitWorkTree).
	// gitfs is the repository's own (vfs.GitRepository): git's files
	// under .git, and the lookups that must see a .git (finding the
	// repository, -C, refusing a .git as a work tree).
	fsys, gitfs vfs.FS
	out         *bufio.Writer
	errw        io.Writer
	// overrides are -c NAME=VALUE settings, winning over every file.
	overrides map[string]string
	// opened are the object stores this run opened, closed as it ends.
	opened []io.Closer
}

// exitError ends a subcommand with a message on stderr and a status.
type exitError struct {
	msg  string // the whole stderr text, newline included ("" prints nothing)
	code int
}

func (e *exitError) Error() string { return e.msg }

// fatalf is git's die(): "fatal: ..." and status 128.
func fatalf(format string, a ...any) error {
	return &exitError{msg: "fatal: " + fmt.Sprintf(format, a...) + "\n", code: 128}
}

// usageErr is a usage error: git's usage text and status 129.
func usageErr(text string) error { return &exitError{msg: text, code: 129} }

// exitStatus ends with a status and nothing more to say.
func exitStatus(code int) error { return &exitError{code: code} }

// subcommand runs one git subcommand with its arguments (after its name).
type subcommand func(g *cmd, args []string) error

// subcommandFor returns the runner of a subcommand that exists here, or
// nil. A switch rather than a map: a map would be built at every start of
// the program.
func subcommandFor(name string) subcommand {
	switch name {
	case "init":
		return runInit
	case "status":
		return runStatus
	case "add":
		return runAdd
	case "commit":
		return runCommit
	case "log":
		return runLog
	case "diff":
		return runDiff
	case "branch":
		return runBranch
	case "checkout":
		return runCheckout
	case "switch":
		return runSwitch
	case "rev-parse":
		return runRevParse
	case "config":
		return runConfig
	case "ls-files":
		return runLsFiles
	case "cat-file":
		return runCatFile
	case "show":
		return runShow
	case "rm":
		return runRm
	case "mv":
		return runMv
	case "restore":
		return runRestore
	case "reset":
		return runReset
	case "tag":
		return runTag
	case "merge":
		return runMerge
	case "stash":
		return runStash
	case "clone":
		return runClone
	case "clean":
		return runClean
	case "remote":
		return runRemote
	case "merge-base":
		return runMergeBase
	case "rev-list":
		return runRevList
	case "blame":
		return runBlame
	case "grep":
		return runGrep
	case "ls-tree":
		return runLsTree
	case "check-ignore":
		return runCheckIgnore
	case "cherry-pick":
		return runCherryPick
	case "revert":
		return runRevert
	case "push":
		return runPush
	case "fetch":
		return runFetch
	case "pull":
		return runPull
	case "ls-remote":
		return runLsRemote
	case "apply":
		return runApply
	case "show-ref":
		return runShowRef
	case "symbolic-ref":
		return runSymbolicRef
	case "describe":
		return runDescribe
	case "shortlog":
		return runShortlog
	case "version":
		return func(g *cmd, _ []string) error {
			fmt.Fprintf(g.out, "git version %s\n", version)
			return nil
		}
	case "help":
		return func(g *cmd, _ []string) error {
			g.out.WriteString(usageText)
			return nil
		}
	}
	return nil
}

// unsupported are git's own commands that this git does not have: they
// are named as unsupported rather than unknown.
var unsupported = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"rebase": true, "bisect": true, "submodule": true, "worktree": true, "gc": true,
		"fsck": true, "reflog": true, "am": true,
		"format-patch": true, "archive": true,
		"notes": true, "sparse-checkout": true, "bundle": true, "prune": true,
		"repack": true, "filter-branch": true, "cherry": true, "range-diff": true,
		"hash-object": true, "update-index": true, "write-tree": true,
		"commit-tree": true, "update-ref": true, "for-each-ref": true,
		"name-rev": true, "mergetool": true, "difftool": true, "gui": true,
		"instaweb": true, "send-email": true, "request-pull": true, "citool": true, "gitk": true,
		"maintenance": true, "rerere": true,
	}
}}

func run(e *utils.Env) (int, error) {
	work, okWork := vfs.GitView(e.FS, vfs.GitWorkTree)
	repo, okRepo := vfs.GitView(e.FS, vfs.GitRepository)
	if !okWork || !okRepo {
		// Without its views git's work-tree writes would go unguarded.
		fmt.Fprintln(e.Stderr, "fatal: git cannot run on this filesystem")
		return 128, nil
	}
	g := &cmd{env: e, fsys: work, gitfs: repo, out: bufio.NewWriterSize(e.Stdout, 32*1024), errw: e.Stderr}
	err := g.main(e.Args[1:])
	g.out.Flush()
	for _, c := range g.opened {
		c.Close()
	}
	if err == nil {
		return 0, nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		io.WriteString(g.errw, ee.msg)
		return ee.code, nil
	}
	io.WriteString(g.errw, "fatal: "+errText(err)+"\n")
	return 128, nil
}

// main reads git's global options, then runs the subcommand.
func (g *cmd) main(args []string) error {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch a := args[0]; {
		case a == "--version":
			fmt.Fprintf(g.out, "git version %s\n", version)
			return nil
		case a == "--help" || a == "-h":
			g.out.WriteString(usageText)
			return nil
		case a == "--no-pager" || a == "-P" || a == "--no-replace-objects" || a == "--literal-pathspecs":
			args = args[1:]
		case a == "-C" || a == "-c":
			if len(args) < 2 {
				return usageErr("error: no directory given for '" + a + "' option\n\n" + usageText)
			}
			if a == "-C" {
				if err := g.changeDir(args[1]); err != nil {
					return err
				}
			} else if err := g.override(args[1]); err != nil {
				return err
			}
			args = args[2:]
		default:
			return usageErr("unknown option: " + a + "\n" + usageText)
		}
	}
	if len(args) == 0 {
		g.out.WriteString(usageText)
		return exitStatus(1)
	}
	name := args[0]
	if sc := subcommandFor(name); sc != nil {
		return sc(g, args[1:])
	}
	if unsupported.Get()[name] {
		return &exitError{msg: "git: '" + name + "' is not supported here\n", code: 1}
	}
	return &exitError{msg: "git: '" + name + "' is not a git command. See 'git --help'.\n", code: 1}
}

// changeDir moves git's cwd to dir (git -C), which must be a directory
// the session can see: git refuses before doing anything else when it is not.
func (g *cmd) changeDir(dir string) error {
	if dir == "" {
		return nil
	}
	c := *g.env
	c.Dir = g.env.Abs(dir)
	info, err := g.gitfs.Stat(c.Dir)
	if err == nil && !info.IsDir() {
		err = syscall.ENOTDIR
	}
	if err != nil {
		return fatalf("cannot change to '%s': %s", dir, errText(err))
	}
	g.env = &c
	return nil
}

func (g *cmd) override(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		v = "true"
	}
	if !strings.Contains(k, ".") {
		return fatalf("key does not contain a section: %s", k)
	}
	if g.overrides == nil {
		g.overrides = map[string]string{}
	}
	g.overrides[strings.ToLower(k)] = v
	return nil
}

// errText is the strerror text or refusal reason of an error.
func errText(err error) string { return utils.ErrText(err) }

// operands declares git's path operands to the gate (G-4.9): -C's
// directory, and the pathspecs of the subcommands that name files.
func operands(argv []string) []utils.OperandRef {
	var refs []utils.OperandRef
	i := 1
	for i < len(argv) && strings.HasPrefix(argv[i], "-") {
		if (argv[i] == "-C" || argv[i] == "-c") && i+1 < len(argv) {
			if argv[i] == "-C" {
				refs = append(refs, utils.OperandRef{Index: i + 1, Kind: utils.Read})
			}
			i++
		}
		i++
	}
	if i >= len(argv) {
		return refs
	}
	kind := utils.Read
	switch argv[i] {
	case "add", "rm", "mv", "restore", "checkout", "diff", "log", "status", "ls-files", "reset", "stash", "commit":
		if argv[i] == "rm" || argv[i] == "mv" || argv[i] == "restore" || argv[i] == "checkout" {
			kind = utils.Write
		}
	default:
		return refs
	}
	sub := argv[i]
	dashdash := false
	for j := i + 1; j < len(argv); j++ {
		a := argv[j]
		switch {
		case !dashdash && a == "--":
			dashdash = true
		case dashdash:
			refs = append(refs, utils.OperandRef{Index: j, Kind: kind})
		case strings.HasPrefix(a, "-"):
		case sub == "add" || sub == "rm" || sub == "mv":
			refs = append(refs, utils.OperandRef{Index: j, Kind: kind})
		}
	}
	return refs
}
