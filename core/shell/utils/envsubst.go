package utils

import (
	"bufio"
	"io"
	"strings"
)

const envsubstHelp = `Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or ${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.

When --variables is used, standard input is ignored, and the output consists
of the environment variables that are referenced in SHELL-FORMAT, one per line.

Report bugs in the bug tracker at <https://savannah.gnu.org/projects/gettext>
or by email to <bug-gettext@gnu.org>.
`

var envsubstOpts = []optDef{
	{short: 'v', long: "variables"},
	{short: 'h', long: "help"},
	{short: 'V', long: "version"},
}

// envsubstUtility makes envsubst (see builtins): it reads standard input
// and the exported environment only (hidden variables are not there).
func envsubstUtility(string) *Utility {
	return &Utility{Name: "envsubst", Run: runEnvsubst, OperandExit: 1, Help: envsubstHelp}
}

func runEnvsubst(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "envsubst", defs: envsubstOpts, usageExit: 1, help: envsubstHelp,
		version: "envsubst (GNU gettext-runtime) 0.21\n"})
	if done {
		return status, nil
	}
	operands := args.operandStrings(e.Args)
	listOnly := args.has("variables")
	switch {
	case len(operands) > 1:
		t.warn("too many arguments")
		return t.end(1)
	case listOnly && len(operands) == 0:
		t.warn("missing arguments")
		return t.end(1)
	}
	if listOnly {
		for _, name := range envsubstRefs(operands[0]) {
			t.writeString(name + "\n")
		}
		return t.end(0)
	}
	var only map[string]bool
	if len(operands) == 1 {
		only = map[string]bool{}
		for _, name := range envsubstRefs(operands[0]) {
			only[name] = true
		}
	}
	br := bufio.NewReader(t.stdin())
	for !t.stopped() {
		line, err := br.ReadString('\n')
		if line != "" {
			t.writeString(envsubstLine(line, func(name string) (string, bool) {
				if only != nil && !only[name] {
					return "", false
				}
				return e.Getenv(name), true
			}))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.warn("error while reading \"standard input\"")
			return t.end(1)
		}
	}
	return t.end(0)
}

func envsubstNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func envsubstNameByte(c byte) bool { return envsubstNameStart(c) || c >= '0' && c <= '9' }

// envsubstScan finds each $NAME or ${NAME} in s: it calls ref with the
// name and the reference's span.
func envsubstScan(s string, ref func(name string, from, to int)) {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			continue
		}
		j, braced := i+1, s[i+1] == '{'
		if braced {
			j++
		}
		if j >= len(s) || !envsubstNameStart(s[j]) {
			continue
		}
		k := j
		for k < len(s) && envsubstNameByte(s[k]) {
			k++
		}
		if braced {
			if k >= len(s) || s[k] != '}' {
				continue
			}
			ref(s[j:k], i, k+1)
			i = k
			continue
		}
		ref(s[j:k], i, k)
		i = k - 1
	}
}

// envsubstRefs lists the variables a format references, each time.
func envsubstRefs(format string) []string {
	var names []string
	envsubstScan(format, func(name string, _, _ int) { names = append(names, name) })
	return names
}

// envsubstLine replaces the references value answers for.
func envsubstLine(s string, value func(name string) (string, bool)) string {
	var b strings.Builder
	last := 0
	envsubstScan(s, func(name string, from, to int) {
		v, ok := value(name)
		if !ok {
			return
		}
		b.WriteString(s[last:from])
		b.WriteString(v)
		last = to
	})
	b.WriteString(s[last:])
	return b.String()
}
