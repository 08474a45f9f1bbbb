package oilstest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gatehouse/core/shell/utils"
)

// The suite's cases call a few helper programs of its own (spec/bin),
// written in Python 2. Neither side runs Python here: both run the Go
// helpers below, so bash and gatehouse see the same program. Real bash
// reaches them through symlinks to this test binary in a directory on its
// PATH (TestMain dispatches on the name it was called by); a gatehouse
// session has them as utilities registered by this test package only.
var helpers = map[string]func(args []string, environ []string, stdout, stderr io.Writer) int{
	// argv.py prints its arguments as Python 2 prints a list of byte
	// strings: ['a', "b'c"].
	"argv.py": func(args []string, _ []string, stdout, _ io.Writer) int {
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = pyRepr(a)
		}
		fmt.Fprintf(stdout, "[%s]\n", strings.Join(parts, ", "))
		return 0
	},
	// printenv.py prints each named variable's value, or None.
	"printenv.py": func(args []string, environ []string, stdout, _ io.Writer) int {
		for _, name := range args {
			val, ok := "None", false
			for _, kv := range environ {
				if k, v, _ := strings.Cut(kv, "="); k == name {
					val, ok = v, true
				}
			}
			_ = ok
			fmt.Fprintln(stdout, val)
		}
		return 0
	},
	// stdout_stderr.py prints its first argument (or STDOUT) on stdout, its
	// second (or STDERR) on stderr, and exits with its third (or 0).
	"stdout_stderr.py": func(args []string, _ []string, stdout, stderr io.Writer) int {
		out, errText, status := "STDOUT", "STDERR", 0
		if len(args) > 0 {
			out = args[0]
		}
		if len(args) > 1 {
			errText = args[1]
		}
		if len(args) > 2 {
			status, _ = strconv.Atoi(args[2])
		}
		fmt.Fprintln(stdout, out)
		fmt.Fprintln(stderr, errText)
		return status
	},
}

// pyRepr is Python 2's repr of a byte string.
func pyRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < ' ' || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

func init() {
	for name, run := range helpers {
		run := run
		utils.Register(&utils.Utility{
			Name: name,
			Run: func(env *utils.Env) (int, error) {
				return run(env.Args[1:], env.Environ, env.Stdout, env.Stderr), nil
			},
		})
	}
}

// TestMain runs a helper when the test binary was started by one of the
// helpers' names (by real bash, through the symlinks helperDir makes).
func TestMain(m *testing.M) {
	if run, ok := helpers[filepath.Base(os.Args[0])]; ok {
		os.Exit(run(os.Args[1:], os.Environ(), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// helperDir makes a directory of symlinks to this test binary, one per
// helper, for real bash's PATH.
func helperDir(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name := range helpers {
		if err := os.Symlink(exe, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPyRepr(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"a", `'a'`},
		{"", `''`},
		{"it's", `"it's"`},
		{`it's "x"`, `'it\'s "x"'`},
		{"a\tb\n", `'a\tb\n'`},
		{"back\\slash", `'back\\slash'`},
		{"\x01\xff", `'\x01\xff'`},
	} {
		if got := pyRepr(c.in); got != c.want {
			t.Errorf("pyRepr(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
