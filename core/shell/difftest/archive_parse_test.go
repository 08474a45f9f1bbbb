package difftest

import (
	"fmt"
	"strings"
	"testing"
)

// The archive format is what case authors write by hand; a mistake in it
// must be an error naming the problem, never a silently dropped case.
func TestParseSuite(t *testing.T) {
	t.Parallel()
	good := strings.Join([]string{
		"about",
		"-- cases --",
		"# comment",
		"plain | cat a | wc -l",
		"skip: no inodes",
		"inode | ls -i",
		"known: language: traps",
		"unordered:",
		"trap | trap 'echo x' EXIT",
		"multi |",
		"-- line/multi --",
		"cat <<END",
		"x",
		"END",
		"-- stdin/plain --",
		"in",
		"-- files/a --",
		"text",
		"-- files/d/ --",
		"-- files/n [noeol] --",
		"no newline",
		"-- files/run.sh [exec] --",
		"echo hi",
		"-- files/both [exec] [noeol] --",
		"x",
		"",
	}, "\n")
	suite, err := parseSuite("demo", good)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name, got, want string
	}{
		{"pipe stays in the line", suite.Cases[0].Line, "cat a | wc -l"},
		{"stdin attached", *suite.Cases[0].Stdin, "in\n"},
		{"skip marks the next case", suite.Cases[1].Skip, "no inodes"},
		{"skip marks only that case", suite.Cases[3].Skip, ""},
		{"known marks the next case", suite.Cases[2].Known, "language: traps"},
		{"unordered marks the next case", fmt.Sprint(suite.Cases[2].Unordered, suite.Cases[3].Unordered), "true false"},
		{"known marks only that case", suite.Cases[3].Known, ""},
		{"multi-line line", suite.Cases[3].Line, "cat <<END\nx\nEND"},
		{"exec file", fmt.Sprint(suite.Exec["run.sh"], suite.Exec["a"]), "true false"},
		{"exec and noeol", fmt.Sprintf("%v %q", suite.Exec["both"], suite.Files["both"]), `true "x"`},
		{"file body", suite.Files["a"], "text\n"},
		{"directory", suite.Files["d/"], ""},
		{"noeol drops the newline", suite.Files["n"], "no newline"},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		})
	}

	bad := []struct {
		name, text, wantErr string
	}{
		{"no cases", "-- files/a --\nx\n", "no cases section"},
		{"no separator", "-- cases --\njust words\n", "want \"name | command line\""},
		{"duplicate name", "-- cases --\na | x\na | y\n", "listed twice"},
		{"orphan stdin", "-- cases --\na | x\n-- stdin/b --\n", "stdin/b belongs to no case"},
		{"line section missing", "-- cases --\na |\n", "no line/a section"},
		{"trailing skip", "-- cases --\na | x\nskip: why\n", "trailing skip"},
		{"skip without reason", "-- cases --\nskip:\na | x\n", "skip needs a reason"},
		{"unknown section", "-- cases --\na | x\n-- other --\n", "unknown section"},
		{"unknown known class", "-- cases --\nknown: flaky: why\na | x\n", "want \"known: CLASS: why\""},
		{"known without reason", "-- cases --\nknown: utility\na | x\n", "want \"known: CLASS: why\""},
		{"trailing known", "-- cases --\na | x\nknown: utility: why\n", "trailing skip or known"},
		{"escaping file", "-- cases --\na | x\n-- files/../x --\n", "bad file name"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseSuite("demo", c.text)
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("got error %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}
