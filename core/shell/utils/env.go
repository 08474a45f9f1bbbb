package utils

import (
	"strings"
)

const envHelp = `Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -S, --split-string=S  process and split S into separate arguments;
                        used to pass multiple arguments on shebang lines
      --help        display this help and exit
      --version     output version information and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.

Exit status:
  125  if the env command itself fails
  126  if COMMAND is found but cannot be invoked
  127  if COMMAND cannot be found
  -    the exit status of COMMAND otherwise
`

const printenvHelp = `Usage: printenv [OPTION]... [VARIABLE]...
Print the values of the specified environment VARIABLE(s).
If no VARIABLE is specified, print name and value pairs for them all.

  -0, --null     end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

var envOpts = []optDef{
	{short: 'i', long: "ignore-environment"},
	{short: '0', long: "null"},
	{short: 'u', long: "unset", arg: needArg},
	{short: 'S', long: "split-string", arg: needArg},
	{short: 'v', long: "debug"},
}

var printenvOpts = []optDef{
	{short: '0', long: "null"},
}

// envUtility makes the env utility (see builtins).
func envUtility(string) *Utility {
	return &Utility{
		Name:        "env",
		Run:         runEnv,
		OperandExit: 125,
		Help:        envHelp,
	}
}

// printenvUtility makes the printenv utility (see builtins).
func printenvUtility(string) *Utility {
	return &Utility{
		Name:        "printenv",
		Run:         runPrintenv,
		OperandExit: 1,
		Help:        printenvHelp,
	}
}

func runEnv(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "env", defs: envOpts, mode: parseMode{stopAtOperand: true}, usageExit: 125, help: envHelp})
	if done {
		return status, nil
	}
	environ := append([]string(nil), e.Environ...)
	changed := false
	nul := false
	var split []string
	for _, o := range args.opts {
		switch o.name {
		case "ignore-environment":
			environ, changed = nil, true
		case "null":
			nul = true
		case "unset":
			if o.value == "" || strings.Contains(o.value, "=") {
				t.warn("cannot unset " + quoteAlways(o.value) + ": Invalid argument")
				return t.end(125)
			}
			environ, changed = unsetVar(environ, o.value), true
		case "split-string":
			split = strings.Fields(o.value)
		}
	}
	rest := args.operandStrings(e.Args)
	if len(rest) > 0 && rest[0] == "-" {
		environ, changed = nil, true
		rest = rest[1:]
	}
	for len(rest) > 0 && strings.Contains(rest[0], "=") && !strings.HasPrefix(rest[0], "=") {
		name, _, _ := strings.Cut(rest[0], "=")
		environ = append(unsetVar(environ, name), rest[0])
		changed = true
		rest = rest[1:]
	}
	argv := append(split, rest...)
	if len(argv) == 0 {
		if nul {
			for _, kv := range environ {
				t.writeString(kv + "\x00")
			}
		} else {
			for _, kv := range environ {
				t.writeString(kv + "\n")
			}
		}
		return t.end(0)
	}
	if nul {
		return t.end(t.usage("cannot specify --null (-0) with command"))
	}
	if e.LookPath != nil && !e.LookPath(argv[0]) {
		t.warn(quoteAlways(argv[0]) + ": No such file or directory")
		return t.end(127)
	}
	t.flush()
	var code int
	var err error
	switch {
	case e.ExecEnv != nil:
		code, err = e.ExecEnv(t.ctx, argv, environ, t.stdin(), t.sink, e.Stderr)
	case !changed && e.Exec != nil:
		code, err = e.Exec(t.ctx, argv, t.stdin(), t.sink, e.Stderr)
	case e.Exec == nil:
		t.warn(quoteAlways(argv[0]) + ": No such file or directory")
		return t.end(127)
	default:
		t.warn("cannot run " + quoteAlways(argv[0]) + " with a changed environment in this shell")
		return t.end(125)
	}
	if err != nil {
		t.finish(code)
		return code, err
	}
	return t.end(code)
}

// unsetVar drops every NAME=... entry.
func unsetVar(environ []string, name string) []string {
	out := environ[:0:0]
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return out
}

func runPrintenv(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "printenv", defs: printenvOpts, usageExit: 2, help: printenvHelp})
	if done {
		return status, nil
	}
	end := "\n"
	if args.has("null") {
		end = "\x00"
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		for _, kv := range e.Environ {
			t.writeString(kv + end)
		}
		return t.end(0)
	}
	for _, name := range names {
		found := false
		if !strings.Contains(name, "=") {
			for _, kv := range e.Environ {
				if k, v, ok := strings.Cut(kv, "="); ok && k == name {
					t.writeString(v + end)
					found = true
					break
				}
			}
		}
		if !found {
			status = 1
		}
	}
	return t.end(status)
}
