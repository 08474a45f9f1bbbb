package utils

const pwdHelp = `Usage: pwd [OPTION]...
Print the full filename of the current working directory.

  -L, --logical   use PWD from environment, even if it contains symlinks
  -P, --physical  resolve all symlinks
      --help        display this help and exit
      --version     output version information and exit
`

var pwdOpts = []optDef{{short: 'L', long: "logical"}, {short: 'P', long: "physical"}}

// pwdUtility makes the pwd utility (see builtins).
func pwdUtility(string) *Utility {
	return &Utility{Name: "pwd", Run: runPwd, OperandExit: 1, Help: pwdHelp}
}

// runPwd prints the shell's cwd; -P resolves its symlinks through the
// VFS (never the host's).
func runPwd(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "pwd", defs: pwdOpts, usageExit: 1, help: pwdHelp})
	if done {
		return status, nil
	}
	physical := false
	for _, o := range args.opts {
		physical = o.name == "physical"
	}
	if len(args.operands) > 0 {
		t.warn("ignoring non-option arguments")
	}
	dir := e.Dir
	if physical {
		resolved, err := e.FS.Resolve(dir)
		if err != nil {
			t.warn("couldn't find directory entry in " + quoteAlways("..") + " with matching i-node")
			return t.end(1)
		}
		dir = resolved
	}
	t.writeString(dir + "\n")
	return t.end(0)
}
