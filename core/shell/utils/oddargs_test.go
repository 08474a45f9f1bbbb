package utils

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// secondSetUtilities are the utilities of the second set.
var secondSetUtilities = []string{"sed", "tr", "cut", "tee", "rmdir", "ln", "readlink", "realpath", "stat", "basename",
	"dirname", "du", "diff", "printf", "echo", "test", "[", "true", "false", "pwd", "seq", "date", "sleep", "base64",
	"sha256sum", "md5sum", "jq", "tac", "rev", "nl", "paste", "comm", "split", "tree", "file", "man", "yes"}

// TestSecondSetOddArgumentsNeverPanic: awkward arguments get a message,
// never a panic, and every utility answers --help on stdout with 0.
func TestSecondSetOddArgumentsNeverPanic(t *testing.T) {
	t.Parallel()
	odd := []string{"", "-", "--", "-n", "-e", "-s", "-f", "-d", "-1", "+", "[", "]", "\\", "(", "!", "{", "}", "%", "%z",
		"s/", "y/a/", "1,", "$", ".[", "@", "-w", "-L", "-c", "f", "d", "/", "..", "\x00", "a\nb"}
	files := map[string]string{"/w/f": "one\ntwo\x00\n", "/w/d/x": "x"}
	for _, name := range secondSetUtilities {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys := newTestFS(t, utilCase{files: files})
			run := func(argv []string) (string, int) {
				var out, errb bytes.Buffer
				e := testEnv(t, utilCase{args: argv}, fsys, &out, &errb, nil)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
				defer cancel()
				e.Ctx = ctx
				e.Stdin = strings.NewReader("a b\n'c\n")
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%q panicked: %v", argv, r)
					}
				}()
				status, _ := Lookup(name).Run(e)
				if op := Lookup(name).Operands; op != nil {
					op(argv)
				}
				return out.String(), status
			}
			for _, a := range odd {
				if name == "yes" || name == "sleep" {
					// They run until the deadline: one argument is enough.
					run([]string{name, a})
					continue
				}
				for _, b := range odd {
					run([]string{name, a, b})
				}
			}
			// GNU's false answers --help with status 1; test reads it as a
			// non-empty string (only [ --help prints the help).
			wantStatus, wantHelp := 0, true
			switch name {
			case "false":
				wantStatus = 1
			case "test":
				wantHelp = false
			}
			if out, status := run([]string{name, "--help"}); status != wantStatus || (out != "") != wantHelp {
				t.Errorf("%s --help = %d with %d bytes of stdout", name, status, len(out))
			}
		})
	}
}

// TestSecondSetStopsOnClosedStdout: when the reader of a pipe goes away
// a streaming utility stops with status 1 instead of running on.
func TestSecondSetStopsOnClosedStdout(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("line of text\n", 50000)
	cases := []struct {
		argv  []string
		stdin string
	}{
		{[]string{"sed", "p"}, big},
		{[]string{"tr", "a-z", "A-Z"}, big},
		{[]string{"cut", "-c1-4"}, big},
		{[]string{"tee"}, big},
		{[]string{"seq", "100000000"}, ""},
		{[]string{"yes"}, ""},
		{[]string{"rev"}, big},
		{[]string{"nl"}, big},
		{[]string{"tac"}, big},
		{[]string{"paste", "-", "-"}, big},
		{[]string{"base64"}, big},
		{[]string{"jq", "-n", "range(1000000)"}, ""},
	}
	for _, c := range cases {
		t.Run(c.argv[0], func(t *testing.T) {
			t.Parallel()
			w := &limitedWriter{limit: 1000}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			e := &Env{Ctx: ctx, Args: c.argv, Stdin: strings.NewReader(c.stdin), Stdout: w, Stderr: io.Discard, Dir: "/w"}
			status, err := Lookup(c.argv[0]).Run(e)
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%q kept running after its stdout closed", c.argv)
			}
			if status != 1 {
				t.Errorf("%q into a closed pipe exited %d, want 1", c.argv, status)
			}
		})
	}
}
