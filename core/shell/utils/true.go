package utils

const trueHelp = `Usage: true [ignored command line arguments]
  or:  true OPTION
Exit with a status code indicating success.

      --help        display this help and exit
      --version     output version information and exit
`

const falseHelp = `Usage: false [ignored command line arguments]
  or:  false OPTION
Exit with a status code indicating failure.

      --help        display this help and exit
      --version     output version information and exit
`

// trueUtility makes the true utility (see builtins).
//
// true and false are the coreutils programs (what xargs and find -exec
// run); a line's plain `true` is the shell's builtin.
func trueUtility(string) *Utility {
	return &Utility{Name: "true", Run: func(e *Env) (int, error) { return runTrueFalse(e, "true", trueHelp, 0) }, Help: trueHelp}
}

// falseUtility makes the false utility (see builtins).
func falseUtility(string) *Utility {
	return &Utility{Name: "false", Run: func(e *Env) (int, error) { return runTrueFalse(e, "false", falseHelp, 1) }, Help: falseHelp}
}

// runTrueFalse ignores its arguments, except that a lone --help or
// --version is answered, as GNU does.
func runTrueFalse(e *Env, name, help string, status int) (int, error) {
	if len(e.Args) != 2 {
		return status, nil
	}
	t := newTool(e, name, help, status)
	switch e.Args[1] {
	case "--help":
		t.writeString(help)
	case "--version":
		t.writeString(name + " (GNU coreutils) 9.4\n")
	default:
		return status, nil
	}
	t.finish(status)
	return status, nil
}
