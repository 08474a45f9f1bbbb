package shell

import (
	"strings"

	"gatehouse/internal/lazy"
)

// bashInvocation is what `bash ARGS…` (or `sh`) was asked to run, read the
// way bash reads its own command line: GNU long options first, then
// single-letter options (clusters allowed, `-o`/`-O` taking a word), then
// the operands. Preflight and the run both read argv with it, so the text
// preflight judges is exactly the text that runs (G-3.5, G-9.3).
type bashInvocation struct {
	// fromString: -c was given; the first operand is the script, the next
	// is $0 and the rest are the positional parameters.
	fromString bool
	// fromStdin: -s was given; the operands are positional parameters.
	fromStdin bool
	// interactive: -i was given (such a shell reads no BASH_ENV).
	interactive bool
	// setOptions are the `set` options the interpreter supports, as flags
	// for interp.Params ("-e", "-o", "pipefail"); others are ignored.
	setOptions []string
	operands   []string
	// usage, when not empty, is bash's complaint about the options, to be
	// printed after "NAME: "; the exit status is then 2. invalid marks an
	// unknown option, which bash follows with its usage text.
	usage   string
	invalid bool
}

// bashLongFlags are bash's GNU long options that take no argument.
var bashLongFlags = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"--debug": true, "--debugger": true, "--dump-po-strings": true, "--dump-strings": true,
		"--help": true, "--login": true, "--noediting": true, "--noprofile": true, "--norc": true,
		"--posix": true, "--pretty-print": true, "--restricted": true, "--verbose": true, "--version": true,
	}
}}

// bashLongWithArg are the long options that take the next word.
var bashLongWithArg = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"--rcfile": true, "--init-file": true}
}}

// setOptionLetters and setOptionNames are the `set` options mvdan/sh's
// interpreter supports, by letter and by -o name.
const setOptionLetters = "aefnux"

var setOptionNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"allexport": true, "errexit": true, "noexec": true, "noglob": true,
		"nounset": true, "xtrace": true, "pipefail": true,
	}
}}

// parseBashArgs reads argv (argv[0] is bash or sh).
func parseBashArgs(argv []string) bashInvocation {
	var inv bashInvocation
	i := 1
	for ; i < len(argv) && strings.HasPrefix(argv[i], "--") && argv[i] != "--"; i++ {
		a := argv[i]
		switch {
		case bashLongWithArg.Get()[a]:
			if i+1 >= len(argv) {
				inv.usage = a[2:] + ": option requires an argument"
				return inv
			}
			i++
		case !bashLongFlags.Get()[a]:
			inv.usage, inv.invalid = a+": invalid option", true
			return inv
		}
	}
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'c':
				if a[0] == '-' {
					inv.fromString = true
				}
			case 's':
				if a[0] == '-' {
					inv.fromStdin = true
				}
			case 'i':
				inv.interactive = a[0] == '-'

			case 'o', 'O':
				// The option's name is the next word, never a script.
				// (Alone, bash lists the options; here it just ends.)
				if i+1 < len(argv) {
					i++
					if c == 'o' && setOptionNames.Get()[argv[i]] {
						inv.setOptions = append(inv.setOptions, string(a[0])+"o", argv[i])
					}
				}
			default:
				if strings.ContainsRune(setOptionLetters, c) {
					inv.setOptions = append(inv.setOptions, string(a[0])+string(c))
				}
			}
		}
	}
	inv.operands = argv[i:]
	return inv
}

// bashUsage is what bash prints after an invalid option.
const bashUsage = `Usage:	bash [GNU long option] [option] ...
	bash [GNU long option] [option] script-file ...
GNU long options:
	--debug
	--debugger
	--dump-po-strings
	--dump-strings
	--help
	--init-file
	--login
	--noediting
	--noprofile
	--norc
	--posix
	--pretty-print
	--rcfile
	--restricted
	--verbose
	--version
Shell options:
	-ilrsD or -c command or -O shopt_option		(invocation only)
	-abefhkmnptuvxBCEHPT or -o option
`

// script returns the text `bash -c` would run, if argv is such a call and
// names it.
func (inv bashInvocation) script() (string, bool) {
	if inv.usage != "" || !inv.fromString || len(inv.operands) == 0 {
		return "", false
	}
	return inv.operands[0], true
}
