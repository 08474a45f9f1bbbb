package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// everyCommand is every command line that has a --help of its own.
var everyCommand = [][]string{
	{"console"}, {"exec"}, {"explain"}, {"list-asks"}, {"allow"}, {"deny"}, {"serve"}, {"mcp"}, {"reset"}, {"migrate"}, {"token"},
	{"demo"}, {"demo", "incident"}, {"demo", "permissions"}, {"demo", "policy"}, {"demo", "ask"}, {"demo", "ask-pending"},
}

// flagEntry is one flag of a help's flags section: "  -w FILE   text…".
var flagEntry = regexp.MustCompile(`^  (--?[a-z][a-z-]*)( [A-Z|]+)?  +(.*)$`)

// Every command's --help exits 0 and prints, on stdout, its usage line,
// what it does, a sentence (or more) for each of its flags, and examples;
// `gatehouse help CMD` prints the same.
func TestEveryCommandHasHelp(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for _, cmd := range everyCommand {
		t.Run(strings.Join(cmd, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := c.gatehouse(append(cmd, "--help")...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if !strings.HasPrefix(stdout, "usage: gatehouse "+strings.Join(cmd, " ")) {
				t.Errorf("no usage line:\n%s", stdout)
			}
			examples := strings.Index(stdout, "\nexamples:\n  gatehouse")
			if examples < 0 {
				t.Errorf("no example:\n%s", stdout)
			}
			for flag, text := range helpFlags(stdout) {
				if !strings.HasSuffix(text, ".") || len(strings.Fields(text)) < 4 {
					t.Errorf("%s: flag %s is not explained in a sentence: %q", cmd, flag, text)
				}
			}
			if again, _, code := c.gatehouse(append([]string{"help"}, cmd...)...); code != 0 || again != stdout {
				t.Errorf("gatehouse help %s differs from --help (exit %d):\n%s", strings.Join(cmd, " "), code, again)
			}
		})
	}
	// The flags the help lists are the flags the command takes.
	stdout, _, _ := c.gatehouse("exec", "--help")
	flags := helpFlags(stdout)
	for _, want := range []string{"-w", "-p", "-s", "--db", "--json"} {
		if _, ok := flags[want]; !ok {
			t.Errorf("exec --help lacks %s: %v", want, flags)
		}
	}
}

// helpFlags reads a help's flags section: each flag with its text.
func helpFlags(help string) map[string]string {
	flags := map[string]string{}
	_, section, ok := strings.Cut(help, "\nflags:\n")
	if !ok {
		return flags
	}
	section, _, _ = strings.Cut(section, "\n\n")
	last := ""
	for _, line := range strings.Split(section, "\n") {
		if m := flagEntry.FindStringSubmatch(line); m != nil {
			last = m[1]
			flags[last] = m[3]
			continue
		}
		if last != "" {
			flags[last] += " " + strings.TrimSpace(line)
		}
	}
	return flags
}

// A mistyped flag exits 2 and names the flag meant; one that resembles
// nothing lists the flags there are.
func TestUnknownFlagsSuggest(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"exec", "--jsn", "--", "true"}, "gatehouse exec: unknown flag --jsn; did you mean --json?"},
		{[]string{"list-asks", "--sesion", "x"}, "unknown flag --sesion; did you mean --session?"},
		{[]string{"allow", "abc", "--scop", "session"}, "unknown flag --scop; did you mean --scope?"},
		{[]string{"deny", "abc", "--not", "x"}, "unknown flag --not; did you mean --note?"},
		{[]string{"serve", "--adr", "x"}, "unknown flag --adr; did you mean --addr?"},
		{[]string{"mcp", "--agnet", "x"}, "unknown flag --agnet; did you mean --agent?"},
		{[]string{"console", "--quite"}, "unknown flag --quite; did you mean --quiet?"},
		{[]string{"--quite"}, "unknown flag --quite; did you mean --quiet?"},
		{[]string{"explain", "--jason"}, "unknown flag --jason; did you mean --json?"},
		{[]string{"demo", "incident", "--headles"}, "unknown flag --headles; did you mean --headless?"},
		{[]string{"demo", "permissions", "--verbose"}, "unknown flag --verbose; demo permissions takes no flags"},
		{[]string{"exec", "--bogus"}, "unknown flag --bogus; did you mean one of --agent, --db, --json, -p, -s, -w?"},
		{[]string{"lst-asks"}, `unknown command "lst-asks"; did you mean list-asks?`},
		{[]string{"demo", "permisions"}, `unknown demo "permisions"; did you mean permissions?`},
		{[]string{"exec", "-w"}, "flag -w needs FILE after it"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := c.gatehouse(tc.args...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, tc.want)
			}
		})
	}
}

// Without a terminal the console says, in one sentence, that it needs one
// and what works without, and exits 2; it starts nothing (no demo copy,
// no ledger).
func TestConsoleNeedsATerminal(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for _, args := range [][]string{nil, {"console"}, {"console", "-w", permissions}, {"demo", "incident"}, {"--quiet"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := c.gatehouse(args...)
			if code != 2 || stdout != "" || stderr != noTerminal {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			for _, want := range []string{"needs a terminal", "demo incident --headless", "exec", "list-asks"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("the message does not name %q", want)
				}
			}
			if strings.Count(strings.TrimSuffix(stderr, ".\n"), ". ") > 0 || strings.Count(stderr, "\n") != 1 {
				t.Errorf("not one sentence: %q", stderr)
			}
		})
	}
	if _, err := os.Stat(c.db); err == nil {
		t.Error("the console opened the ledger without a terminal")
	}
}

// clauseInText is a specification clause id inside text a user reads.
var clauseInText = regexp.MustCompile(`G-[0-9]`)

// Users never see clause ids: no string literal of the product (what the
// CLI, REST, MCP and the console print is built from them) and no file it
// embeds names one. Comments and tests cite them freely.
func TestNoClauseIDsInUserFacingText(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || p == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(p, "_test.go"):
			return nil
		case strings.HasSuffix(p, ".go"):
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(lit.Value); err == nil && clauseInText.MatchString(s) {
					t.Errorf("%s: user-facing text names a clause id: %s", fset.Position(lit.Pos()), lit.Value)
				}
				return true
			})
		case strings.HasPrefix(p, "demo/") || strings.HasSuffix(p, "help.txt"):
			// Embedded files: the demos' documents and programs, utility help.
			text, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if loc := clauseInText.FindIndex(text); loc != nil {
				t.Errorf("%s (embedded) names a clause id: %q", p, text[max(loc[0]-30, 0):min(loc[1]+10, len(text))])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An empty workspace file is not an empty workspace: loading it says so and
// shows the smallest document that works, which does.
func TestEmptyWorkspaceFileSaysWhatToWrite(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	dir := t.TempDir()
	for name, text := range map[string]string{"empty.yaml": "", "comments.yaml": "# to do\n\n", "braces.yaml": "{}\n"} {
		doc := filepath.Join(dir, name)
		os.WriteFile(doc, []byte(text), 0o600)
		_, stderr, code := c.gatehouse("exec", "-w", doc, "--", "true")
		if code != 2 || !strings.Contains(stderr, name+": the document is empty; a workspace needs at least one mount. A minimal one:") {
			t.Fatalf("%s: exit %d, stderr %q", name, code, stderr)
		}
		if name != "empty.yaml" {
			continue
		}
		// The example in the message is a workspace that runs.
		example, _, _ := strings.Cut(stderr[strings.Index(stderr, "\n\n")+2:], "\n\n")
		minimal := filepath.Join(dir, "minimal.yaml")
		os.WriteFile(minimal, []byte(strings.ReplaceAll(example, "\n  ", "\n")[2:]+"\n"), 0o600)
		out, stderr, code := c.gatehouse("exec", "-w", minimal, "-p", "agent", "--", "cat", "notes.txt")
		if code != 0 || out != "hello\n" {
			t.Errorf("the minimal example does not run: exit %d %q %q", code, out, stderr)
		}
	}
}
