package core

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/core/decisions"
)

// amendFixture is a workspace loaded from a document in a temporary
// directory, with one session of the responder profile.
type amendFixture struct {
	t    *testing.T
	doc  string
	ws   *Workspace
	sess *Session
}

func newAmendFixture(t *testing.T, document string) *amendFixture {
	t.Helper()
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	if err := os.WriteFile(doc, []byte(document), 0o640); err != nil {
		t.Fatal(err)
	}
	ws, err := LoadWorkspace(doc, WithLedger(filepath.Join(dir, "ledger.db")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("agent", Profile("responder"))
	if err != nil {
		t.Fatal(err)
	}
	return &amendFixture{t: t, doc: doc, ws: ws, sess: s}
}

// ask runs a line that must ask and returns its pending record.
func (f *amendFixture) ask(line string) decisions.Record {
	f.t.Helper()
	res := f.sess.Execute(context.Background(), line)
	if res.ExitCode != 126 || res.Refusal == nil || res.Refusal.Kind != "ask" {
		f.t.Fatalf("%q: want a pending ask, got exit %d stderr %q refusal %+v", line, res.ExitCode, res.Stderr, res.Refusal)
	}
	rec, err := f.ws.Decisions().Get(context.Background(), res.Refusal.AskID)
	if err != nil {
		f.t.Fatal(err)
	}
	return rec
}

func (f *amendFixture) run(line string) Result {
	f.t.Helper()
	return f.sess.Execute(context.Background(), line)
}

func (f *amendFixture) document() string {
	f.t.Helper()
	data, err := os.ReadFile(f.doc)
	if err != nil {
		f.t.Fatal(err)
	}
	return string(data)
}

const amendMounts = `# incident workspace: keep this comment
mounts:
  /runbook:
    files: {notes.txt: "n\n", old.txt: "o\n", frozen/restore.md: "1. page\n"}
profiles:
  responder:
    cwd: /runbook   # where agents start
`

// TestAmendRewritesOnlyTheRule pins the document edit for every shape a
// rule can be written in: the amended text, and that nothing else moved.
func TestAmendRewritesOnlyTheRule(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rules, line, want string
	}{
		{
			name:  "block mapping gains an except line",
			rules: "      ask:\n        - reason: removal needs sign-off  # keep\n          command: rm\n      # trailing comment\n",
			line:  "rm notes.txt",
			want:  "      ask:\n        - reason: removal needs sign-off  # keep\n          command: rm\n          except: [{command: rm notes.txt, cwd: /runbook, paths: [/runbook/notes.txt]}]\n      # trailing comment\n",
		},
		{
			name:  "flow mapping gains an except key",
			rules: "      ask:\n        - {reason: removal needs sign-off, command: rm}\n",
			line:  "rm /runbook/notes.txt",
			want:  "      ask:\n        - {reason: removal needs sign-off, command: rm, except: [{command: rm /runbook/notes.txt, paths: [/runbook/notes.txt]}]}\n",
		},
		{
			name:  "bare pattern becomes a mapping",
			rules: "      ask: [\"rm\", cp]\n",
			line:  "rm -f notes.txt",
			want:  "      ask: [{command: \"rm\", except: [{command: rm -f notes.txt, cwd: /runbook, paths: [/runbook/notes.txt]}]}, cp]\n",
		},
		{
			name:  "block except list gains an item",
			rules: "      ask:\n        - reason: r\n          command: rm\n          except:\n            - rm /runbook/old.txt\n",
			line:  "rm /runbook/notes.txt",
			want:  "      ask:\n        - reason: r\n          command: rm\n          except:\n            - rm /runbook/old.txt\n            - {command: rm /runbook/notes.txt, paths: [/runbook/notes.txt]}\n",
		},
		{
			name:  "flow except list gains an item",
			rules: "      ask:\n        - reason: r\n          command: rm\n          except: [rm /runbook/old.txt]  # first\n",
			line:  "rm /runbook/notes.txt",
			want:  "      ask:\n        - reason: r\n          command: rm\n          except: [rm /runbook/old.txt, {command: rm /runbook/notes.txt, paths: [/runbook/notes.txt]}]  # first\n",
		},
		{
			name:  "a word with blanks is spelled as argv",
			rules: "      ask:\n        - {reason: r, command: echo}\n",
			line:  "echo 'two words'",
			want:  "      ask:\n        - {reason: r, command: echo, except: [{argv: [echo, two words], cwd: /runbook}]}\n",
		},
		{
			name:  "mount-level rule",
			rules: "    mounts:\n      /runbook:\n        commands:\n          ask: [{reason: r, command: rm}]\n",
			line:  "rm /runbook/notes.txt",
			want:  "    mounts:\n      /runbook:\n        commands:\n          ask: [{reason: r, command: rm, except: [{command: rm /runbook/notes.txt, paths: [/runbook/notes.txt]}]}]\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			section := "    commands:\n" + tc.rules
			if strings.HasPrefix(tc.rules, "    mounts:") {
				section = tc.rules
			}
			f := newAmendFixture(t, amendMounts+section)
			a, err := f.ws.ProposeAmendment(context.Background(), f.ask(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			if a.After != "run" {
				t.Errorf("After = %q, want run", a.After)
			}
			if err := f.ws.ApplyAmendment(a); err != nil {
				t.Fatal(err)
			}
			wantSection := "    commands:\n" + tc.want
			if strings.HasPrefix(tc.want, "    mounts:") {
				wantSection = tc.want
			}
			if got, want := f.document(), amendMounts+wantSection; got != want {
				t.Errorf("document:\n%s\nwant:\n%s\ndiff shown:\n%s", got, want, a.Diff)
			}
		})
	}
}

// TestAmendWaivesExactlyTheAskedCommand: once applied, the running session
// runs the asked command without asking, and every wider spelling still
// asks: more words, other operands, the same words from another directory.
func TestAmendWaivesExactlyTheAskedCommand(t *testing.T) {
	t.Parallel()
	f := newAmendFixture(t, amendMounts+"    commands:\n      ask:\n        - {reason: removal needs sign-off, command: rm}\n")
	a, err := f.ws.ProposeAmendment(context.Background(), f.ask("rm notes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	wantDiff := "--- workspace.yaml\n+++ workspace.yaml\n@@ -7,4 +7,4 @@\n     cwd: /runbook   # where agents start\n     commands:\n       ask:\n-        - {reason: removal needs sign-off, command: rm}\n+        - {reason: removal needs sign-off, command: rm, except: [{command: rm notes.txt, cwd: /runbook, paths: [/runbook/notes.txt]}]}\n"
	if a.Diff != wantDiff {
		t.Errorf("diff:\n%s\nwant:\n%s", a.Diff, wantDiff)
	}
	if err := f.ws.ApplyAmendment(a); err != nil {
		t.Fatal(err)
	}
	if res := f.run("rm notes.txt && echo gone"); res.ExitCode != 0 || res.Stdout != "gone\n" {
		t.Fatalf("the amended command still refused: exit %d %q", res.ExitCode, res.Stderr)
	}
	for _, line := range []string{"rm old.txt", "rm notes.txt old.txt", "rm -r notes.txt", "cd /tmp && rm notes.txt"} {
		t.Run(line, func(t *testing.T) {
			res := f.run(line)
			if res.Refusal == nil || res.Refusal.Kind != "ask" {
				t.Errorf("%q: want it to ask still, got exit %d %q", line, res.ExitCode, res.Stderr)
			}
		})
	}
	// A workspace loaded from the amended document agrees.
	ws2, err := LoadWorkspace(f.doc)
	if err != nil {
		t.Fatal(err)
	}
	defer ws2.Close()
	s2, _ := ws2.CreateSession("again", Profile("responder"))
	if exps, _ := s2.Explain("rm notes.txt"); len(exps) != 1 || exps[0].Outcome != "run" {
		t.Errorf("reloaded explain: %+v", exps)
	}
}

// TestAmendPathRule: a path-axis ask is waived for the exact command at
// the op door too, so the file really opens.
func TestAmendPathRule(t *testing.T) {
	t.Parallel()
	f := newAmendFixture(t, amendMounts+"    commands:\n      ask:\n        - {reason: frozen, paths: [/runbook/frozen/*]}\n")
	a, err := f.ws.ProposeAmendment(context.Background(), f.ask("cat /runbook/frozen/restore.md"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Exception.Cwd != "" {
		t.Errorf("absolute operands need no cwd, got %q", a.Exception.Cwd)
	}
	if err := f.ws.ApplyAmendment(a); err != nil {
		t.Fatal(err)
	}
	if res := f.run("cat /runbook/frozen/restore.md"); res.ExitCode != 0 || res.Stdout != "1. page\n" {
		t.Fatalf("cat after amendment: exit %d %q %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if res := f.run("head /runbook/frozen/restore.md"); res.Refusal == nil || res.Refusal.Kind != "ask" {
		t.Errorf("another command on the path must still ask: %+v", res)
	}
}

// TestAmendRefuses: what no amendment is proposed for, and why.
func TestAmendRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rules, line, want string
	}{
		{"bare interpreter", "      allow: [find, rm, echo]\n      ask: [find]\n", "find", "a bare find"},
		{"anchored rule", "      ask:\n        - &shared {reason: r, command: rm}\n", "rm notes.txt", "anchor"},
		{"policy ask", "    policy:\n      engine: starlark\n      source: |\n        def pre_command(ctx):\n            if ctx[\"command\"] == \"rm\":\n                return {\"ask\": \"policy says\"}\n", "rm notes.txt", "not by an ask rule"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			section := "    commands:\n" + tc.rules
			if strings.HasPrefix(tc.rules, "    policy:") {
				section = tc.rules
			}
			f := newAmendFixture(t, amendMounts+section)
			before := f.document()
			_, err := f.ws.ProposeAmendment(context.Background(), f.ask(tc.line))
			if !errors.Is(err, ErrNoAmendment) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrNoAmendment mentioning %q", err, tc.want)
			}
			if f.document() != before {
				t.Error("the document changed")
			}
		})
	}
}

// TestAmendDocumentChanged: an amendment computed from an older document
// is not written over a newer one.
func TestAmendDocumentChanged(t *testing.T) {
	t.Parallel()
	f := newAmendFixture(t, amendMounts+"    commands:\n      ask: [{reason: r, command: rm}]\n")
	a, err := f.ws.ProposeAmendment(context.Background(), f.ask("rm notes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	edited := f.document() + "# edited meanwhile\n"
	if err := os.WriteFile(f.doc, []byte(edited), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := f.ws.ApplyAmendment(a); !errors.Is(err, ErrDocumentChanged) {
		t.Fatalf("err = %v, want ErrDocumentChanged", err)
	}
	if f.document() != edited {
		t.Error("the newer document was overwritten")
	}
	if res := f.run("rm notes.txt"); res.Refusal == nil || res.Refusal.Kind != "ask" {
		t.Error("nothing may be waived when nothing was written")
	}
}

// TestAmendExceptLoading: the document forms of except, and its errors.
func TestAmendExceptLoading(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rules, wantErr string
		wantArgv, wantPaths  []string
		wantCwd              string
	}{
		{name: "string", rules: "ask: [{command: rm, except: [rm -f /x]}]", wantArgv: []string{"rm", "-f", "/x"}},
		{name: "mapping", rules: "ask: [{command: rm, except: [{command: rm x, cwd: /runbook/}]}]", wantArgv: []string{"rm", "x"}, wantCwd: "/runbook"},
		{name: "argv", rules: "ask: [{command: rm, except: [{argv: [rm, a b]}]}]", wantArgv: []string{"rm", "a b"}},
		{name: "relative cwd", rules: "ask: [{command: rm, except: [{command: rm x, cwd: runbook}]}]", wantErr: "must be an absolute path"},
		{name: "deny rule", rules: "deny: [{command: rm, except: [rm x]}]", wantErr: "except belongs to ask rules only"},
		{name: "both spellings", rules: "ask: [{command: rm, except: [{command: rm x, argv: [rm, x]}]}]", wantErr: "command or argv, not both"},
		{name: "empty", rules: "ask: [{command: rm, except: [{cwd: /runbook}]}]", wantErr: "needs the command"},
		{name: "paths", rules: "ask: [{paths: [/x/*], except: [{command: echo x, paths: [/x/a/../b]}]}]", wantArgv: []string{"echo", "x"}, wantPaths: []string{"/x/b"}},
		{name: "relative path", rules: "ask: [{paths: [/x/*], except: [{command: echo x, paths: [b]}]}]", wantErr: "must be absolute"},
		{name: "unknown key", rules: "ask: [{command: rm, except: [{comand: rm x}]}]", wantErr: "unknown key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := ParseDocument("w.yaml", []byte(amendMounts+"    commands:\n      "+tc.rules+"\n"))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			x := cfg.Profiles[0].Ask[0].Except[0]
			if strings.Join(x.Argv, "|") != strings.Join(tc.wantArgv, "|") || x.Cwd != tc.wantCwd || !slices.Equal(x.Paths, tc.wantPaths) {
				t.Errorf("exception = %+v", x)
			}
		})
	}
}

// TestAmendRedirect: an ask raised by a redirection's target is amended
// with that target as the exception's only path, and afterwards the asked
// line runs; the same words aimed elsewhere, another command on the path,
// and a later open of the path in the same line still ask or fail.
func TestAmendRedirect(t *testing.T) {
	t.Parallel()
	f := newAmendFixture(t, amendMounts+"    commands:\n      allow: [echo, cat, rm]\n      ask:\n        - {reason: frozen needs sign-off, paths: [/runbook/frozen/*]}\n")
	a, err := f.ws.ProposeAmendment(context.Background(), f.ask("echo x > frozen/restore.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "except: [{command: echo x, cwd: /runbook, paths: [/runbook/frozen/restore.md]}]"
	if !strings.Contains(a.Diff, want) || a.After != "run" {
		t.Fatalf("diff %s\nafter %q, want %s and run", a.Diff, a.After, want)
	}
	if err := f.ws.ApplyAmendment(a); err != nil {
		t.Fatal(err)
	}
	if res := f.run("echo x > frozen/restore.md && cat /runbook/frozen/restore.md"); res.ExitCode == 0 {
		t.Fatalf("cat of the frozen file was never excepted: %+v", res)
	}
	if res := f.run("echo x > frozen/restore.md"); res.ExitCode != 0 || res.Stderr != "" {
		t.Fatalf("the asked line after amendment: exit %d %q", res.ExitCode, res.Stderr)
	}
	for _, line := range []string{
		"echo x > frozen/other.md",                               // same words, another path
		"echo x > frozen/restore.md 2> frozen/other.md",          // one path more
		"echo x > frozen/restore.md; rm frozen/restore.md",       // another command on the path
		"echo x > frozen/restore.md; echo y > frozen/restore.md", // other words, same path
		"echo x > frozen/restore.md; v=y; echo $v > frozen/restore.md",
		"cd frozen; echo x > restore.md", // another directory
	} {
		if res := f.run(line); res.ExitCode == 0 {
			t.Errorf("%q ran: the exception is wider than the ask", line)
		}
	}
}

// TestAmendTwoHostsAtOnce: two consoles (two workspaces on one document)
// amend it at the same moment from the same text; one amendment is
// written, the other is told the document changed, and the document holds
// exactly the winner's exception.
func TestAmendTwoHostsAtOnce(t *testing.T) {
	t.Parallel()
	f := newAmendFixture(t, amendMounts+"    commands:\n      ask: [{reason: r, command: rm}]\n")
	ws2, err := LoadWorkspace(f.doc, WithLedger(filepath.Join(filepath.Dir(f.doc), "ledger2.db")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws2.Close() })
	s2, err := ws2.CreateSession("agent", Profile("responder"))
	if err != nil {
		t.Fatal(err)
	}
	a1, err := f.ws.ProposeAmendment(context.Background(), f.ask("rm notes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	res := s2.Execute(context.Background(), "rm old.txt")
	rec2, err := ws2.Decisions().Get(context.Background(), res.Refusal.AskID)
	if err != nil {
		t.Fatal(err)
	}
	a2, err := ws2.ProposeAmendment(context.Background(), rec2)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	go func() { errs <- f.ws.ApplyAmendment(a1) }()
	go func() { errs <- ws2.ApplyAmendment(a2) }()
	e1, e2 := <-errs, <-errs
	if (e1 == nil) == (e2 == nil) {
		t.Fatalf("ApplyAmendment answered %v and %v; want one success and one ErrDocumentChanged", e1, e2)
	}
	if e := errors.Join(e1, e2); !errors.Is(e, ErrDocumentChanged) {
		t.Fatalf("the loser's error is %v, want ErrDocumentChanged", e)
	}
	doc := f.document()
	if strings.Contains(doc, "command: rm notes.txt") == strings.Contains(doc, "command: rm old.txt") {
		t.Errorf("the document should hold exactly one of the two exceptions:\n%s", doc)
	}
}

// TestAmendDocumentChangedSinceLoad: a document edited on disk after the
// workspace loaded it is not amended (the running rules are not its rules),
// and an applied amendment becomes the text the next one is checked against.
func TestAmendDocumentChangedSinceLoad(t *testing.T) {
	t.Parallel()
	f := newAmendFixture(t, amendMounts+"    commands:\n      ask: [{reason: r, command: rm}]\n")
	a, err := f.ws.ProposeAmendment(context.Background(), f.ask("rm notes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ws.ApplyAmendment(a); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ws.ProposeAmendment(context.Background(), f.ask("rm old.txt")); err != nil {
		t.Fatalf("a second amendment after the first: %v", err)
	}
	edited := f.document() + "# edited by hand\n"
	if err := os.WriteFile(f.doc, []byte(edited), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ws.ProposeAmendment(context.Background(), f.ask("rm -f old.txt")); !errors.Is(err, ErrDocumentChanged) {
		t.Fatalf("err = %v, want ErrDocumentChanged", err)
	}
	if f.document() != edited {
		t.Error("the edited document was overwritten")
	}
}
