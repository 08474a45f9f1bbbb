package utils

import (
	"bytes"
	"strings"
	"testing"
)

// TestOddArgumentsNeverPanic runs every utility of this file set with
// awkward arguments: a utility must answer with a message, never a panic.
func TestOddArgumentsNeverPanic(t *testing.T) {
	t.Parallel()
	names := []string{"cat", "ls", "head", "tail", "wc", "grep", "egrep", "fgrep", "find", "xargs", "sort", "uniq",
		"mkdir", "rm", "touch", "cp", "mv", "env", "printenv", "which", "dd", "basenc", "fmt", "csplit", "pr", "zip", "bzip2", "bunzip2", "bzcat"}
	odd := []string{"", "-", "--", "-n", "-k", "-t", "-e", "+", "+1", "-1", "-0", "--=", "--x=", "[", "\\", "(", ")", "!",
		"-o", "-a", "'", "\"", "\x00", "a\nb", "{}", ";", "-exec", "-I", "-d", "-c", "-L", "*", "/", ".", "..", "f", "d/", "-k0", "-k1.0,", "-m-1"}
	files := map[string]string{"/w/f": "one\ntwo\x00\n", "/w/d/x": "x"}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys := newTestFS(t, utilCase{files: files})
			for _, a := range odd {
				for _, b := range odd {
					argv := []string{name, a, b}
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Errorf("%q panicked: %v", argv, r)
							}
						}()
						var out, errb bytes.Buffer
						e := testEnv(t, utilCase{args: argv}, fsys, &out, &errb, nil)
						e.Stdin = strings.NewReader("a b\n'c\n")
						Lookup(name).Run(e)
						if op := Lookup(name).Operands; op != nil {
							op(argv)
						}
					}()
				}
			}
		})
	}
}
