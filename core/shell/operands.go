package shell

import (
	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
	"gatehouse/internal/lazy"
)

// operandsOf resolves a command's path operands against dir (G-4.9):
// utilities declare theirs; the builtins that name paths are listed here.
func operandsOf(argv []string, dir string) []gate.Operand {
	var refs []utils.OperandRef
	if u := utils.Lookup(argv[0]); u != nil && !isShellBuiltin(argv[0]) {
		if u.Operands != nil {
			refs = u.Operands(argv)
		}
	} else if f, ok := builtinOperands.Get()[argv[0]]; ok {
		refs = f(argv)
	}
	if len(refs) == 0 {
		return nil
	}
	ops := make([]gate.Operand, 0, len(refs))
	for _, r := range refs {
		if r.Index <= 0 || r.Index >= len(argv) {
			continue
		}
		arg := r.Operand(argv)
		if arg == "" {
			continue
		}
		ops = append(ops, gate.Operand{Arg: arg, Path: utils.Join(dir, arg), Write: r.Kind != utils.Read})
	}
	return ops
}

// shellBuiltinNames are the shell's builtins, sorted (byte order): static
// data, where a map would be built at every start of the program.
var shellBuiltinNames = [...]string{
	".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd",
	"command", "compgen", "complete", "compopt", "continue", "declare",
	"dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export",
	"false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill",
	"let", "local", "logout", "mapfile", "newgrp", "popd", "printf", "pushd",
	"pwd", "read", "readarray", "readonly", "return", "set", "shift", "shopt",
	"source", "suspend", "test", "times", "trap", "true", "type", "typeset",
	"ulimit", "umask", "unalias", "unset", "wait",
}

// shellBuiltinSet is shellBuiltinNames as a set, made on first use: every
// command asks, and a map answers faster than a search of the array.
var shellBuiltinSet = lazy.Value[map[string]bool]{New: func() map[string]bool {
	set := make(map[string]bool, len(shellBuiltinNames))
	for _, name := range shellBuiltinNames {
		set[name] = true
	}
	return set
}}

// isShellBuiltin: a builtin shadows a utility of the same name inside the
// shell, as in bash (echo, printf, test, true, false, pwd, kill).
func isShellBuiltin(name string) bool { return shellBuiltinSet.Get()[name] }

func firstArg(argv []string) []utils.OperandRef {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			if i+1 < len(argv) {
				return []utils.OperandRef{{Index: i + 1}}
			}
			return nil
		}
		if len(a) > 1 && a[0] == '-' {
			continue
		}
		return []utils.OperandRef{{Index: i}}
	}
	return nil
}

// testOperands finds the files of `test`/`[` file predicates.
func testOperands(argv []string) []utils.OperandRef {
	var refs []utils.OperandRef
	for i := 1; i+1 < len(argv); i++ {
		switch argv[i] {
		case "-e", "-f", "-d", "-r", "-w", "-x", "-s", "-L", "-h", "-b", "-c", "-p", "-S", "-g", "-u", "-k", "-O", "-G", "-N", "-a":
			if argv[i] == "-a" && i == 1 {
				refs = append(refs, utils.OperandRef{Index: i + 1})
			} else if argv[i] != "-a" {
				refs = append(refs, utils.OperandRef{Index: i + 1})
			}
			i++
		case "-nt", "-ot", "-ef":
			refs = append(refs, utils.OperandRef{Index: i - 1}, utils.OperandRef{Index: i + 1})
			i++
		}
	}
	return refs
}

var builtinOperands = lazy.Value[map[string]func([]string) []utils.OperandRef]{New: func() map[string]func([]string) []utils.OperandRef {
	return map[string]func([]string) []utils.OperandRef{
		"cd":     firstArg,
		"pushd":  firstArg,
		"source": firstArg,
		".":      firstArg,
		"test":   testOperands,
		"[":      testOperands,
	}
}}

// builtinVoices are the GNU-bash voices of builtins for a failing operand.
var builtinVoices = lazy.Value[map[string]func(arg, msg string) string]{New: func() map[string]func(arg, msg string) string {
	return map[string]func(arg, msg string) string{
		"cd":     func(arg, msg string) string { return "bash: cd: " + arg + ": " + msg + "\n" },
		"pushd":  func(arg, msg string) string { return "bash: pushd: " + arg + ": " + msg + "\n" },
		"source": func(arg, msg string) string { return "bash: " + arg + ": " + msg + "\n" },
		".":      func(arg, msg string) string { return "bash: " + arg + ": " + msg + "\n" },
	}
}}
