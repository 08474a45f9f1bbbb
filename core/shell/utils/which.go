package utils

import (
	"strings"
)

const whichHelp = `Usage: which [-a] COMMAND...
Write the full path of each COMMAND that would be run.

  -a     print all matching pathnames of each argument

Exit status:
  0  if all specified commands are found and executable
  1  if one or more specified commands is nonexistent or not executable
  2  if an invalid option is specified
`

// utilityDir is where every installed command appears to live (G-12.2).
const utilityDir = "/usr/bin/"

// whichUtility makes the which utility (see builtins).
func whichUtility(string) *Utility {
	return &Utility{
		Name:        "which",
		Run:         runWhich,
		OperandExit: 1,
		Help:        whichHelp,
	}
}

// runWhich follows debianutils' which: -a is its one option, and a
// missing command prints nothing.
func runWhich(e *Env) (int, error) {
	t := newTool(e, "which", whichHelp, 2)
	var names []string
	parsing := true
	for _, a := range e.Args[1:] {
		switch {
		case parsing && a == "--":
			parsing = false
		case parsing && a == "--help":
			t.writeString(whichHelp)
			return t.end(0)
		case parsing && len(a) > 1 && a[0] == '-':
			for _, c := range a[1:] {
				switch c {
				case 'a':
				default:
					// debianutils' which is a script: getopts complains on
					// stderr, the usage goes to stdout.
					t.rawStderr("Illegal option -" + string(c) + "\n")
					t.writeString("Usage: /usr/bin/which [-a] args\n")
					return t.end(2)
				}
			}
		default:
			parsing = false
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		return t.end(1)
	}
	status := 0
	for _, name := range names {
		found := ""
		switch {
		case strings.Contains(name, "/"):
			// A path names itself when it is an executable file, or when
			// it is where an installed program appears to live.
			if dir, base := splitProgramPath(t.abs(name)); (dir == "/usr/bin/" || dir == "/bin/") && isProgram(e, base) {
				found = name
			} else if info, err := e.FS.Stat(t.abs(name)); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
				found = name
			}
		case isProgram(e, name):
			found = utilityDir + name
		}
		if found == "" {
			status = 1
			continue
		}
		t.writeString(found + "\n")
	}
	return t.end(status)
}

// isProgram reports whether name is an installed command that has a file
// of its own: a utility or bash itself. A builtin with no program behind it
// (cd, export) is not found, as debianutils' which searches only $PATH.
func isProgram(e *Env, name string) bool {
	if name == "" || e.LookPath == nil || !e.LookPath(name) {
		return false
	}
	return Lookup(name) != nil || name == "bash" || name == "sh"
}

// splitProgramPath splits a cleaned absolute path after its last slash.
func splitProgramPath(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	return p[:i+1], p[i+1:]
}
