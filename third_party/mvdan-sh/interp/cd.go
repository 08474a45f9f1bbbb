// Added to this copy by gatehouse (see PATCHES.md, patch 125); under the
// same licence.

package interp

import (
	"context"
	"strings"
)

// cdBuiltin is bash's cd: options -L, -P and -e (a logical directory is
// kept either way), one operand at most, HOME with none and OLDPWD for
// "-" (printing where it went), and an empty directory changes nothing.
func (r *Runner) cdBuiltin(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	i := 0
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			i++
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			break
		}
		for _, c := range arg[1:] {
			if !strings.ContainsRune("LPe", c) {
				r.errf("bash: cd: -%c: invalid option\n", c)
				r.errf("cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
				exit.code = 2
				return exit
			}
		}
	}
	operands := args[i:]
	if len(operands) > 1 {
		r.errf("bash: cd: too many arguments\n")
		exit.code = 1
		return exit
	}
	var path string
	back := len(operands) == 1 && operands[0] == "-"
	switch {
	case len(operands) == 0:
		home := r.lookupVar("HOME")
		if !home.IsSet() {
			r.errf("bash: cd: HOME not set\n")
			exit.code = 1
			return exit
		}
		path = home.String()
	case back:
		old := r.lookupVar("OLDPWD")
		if !old.IsSet() {
			r.errf("bash: cd: OLDPWD not set\n")
			exit.code = 1
			return exit
		}
		path = old.String()
	default:
		path = operands[0]
	}
	if path == "" {
		if back {
			r.out("\n")
		}
		return exit
	}
	if exit.code = r.changeDir(ctx, "cd", path); exit.code == 0 && back {
		r.outf("%s\n", r.envGet("PWD"))
	}
	return exit
}
