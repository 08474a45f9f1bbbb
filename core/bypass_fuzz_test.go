package core

// FuzzPreflightGate: a line → parse → explain (the preflight's
// own computation, G-11.1) → run. It lives in package core, not core/shell,
// because the property needs both doors of a real workspace: the session's
// Explain and its Execute over one VFS and ledger.
//
// Properties, each sound by the SPEC whatever the line is:
//   - nothing panics, and every exit code is a byte;
//   - a line that does not parse for Explain does not run (exit 2, nothing
//     changed);
//   - never judge a literal command less strictly than the run: when
//     Explain says deny (scope command) or ask for any command of the line,
//     preflight refuses the whole line before anything runs (G-9.3, G-7.4),
//     so the run prints nothing on stdout, exits 126 with a refusal, and
//     leaves every file as it was;
//   - no run ever shows the denied token, the hidden key or the hidden
//     variable. They are random per process, so no line can spell them.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/bypasstest"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
	"gatehouse/store/sqlite"
)

// fuzzSecrets are drawn once per process: a fuzzed line cannot guess them.
var fuzzSecrets = func() (s struct{ token, key, variable string }) {
	draw := func(prefix string) string {
		var b [12]byte
		rand.Read(b[:])
		return prefix + hex.EncodeToString(b[:])
	}
	s.token, s.key, s.variable = draw("AKIA-"), draw("ROOTKEY-"), draw("VARVALUE-")
	return s
}()

func fuzzMounts() []vfs.MountSpec {
	return []vfs.MountSpec{
		{Prefix: "/work", Files: map[string]string{
			"notes.txt": "ordinary notes\n", "unsorted.txt": bypassUnsorted, "list.txt": "/vault/aws.token\n",
			"scratch/draft.txt": "draft\n",
		}},
		{Prefix: "/vault", Files: map[string]string{
			"aws.token": fuzzSecrets.token + "\n", "internal/root.key": fuzzSecrets.key + "\n",
		}},
		{Prefix: "/ro", ReadOnly: true, Files: map[string]string{"frozen.txt": "frozen\n"}},
	}
}

// fuzzProfile is the bypass profile plus command rules, so that Explain
// has denies and asks of both scopes to speak of.
func fuzzProfile() gate.ProfileSpec {
	return gate.ProfileSpec{
		Name:  "fuzz",
		Cwd:   "/work",
		Env:   map[string]string{"TEAM": "sre", bypassVarName: fuzzSecrets.variable},
		Allow: bypasstest.Allow,
		Deny: []gate.Rule{
			{Reason: "credentials are never read by hand", Paths: []string{"/vault/*"}},
			{Reason: "no touching", Commands: []string{"touch"}},
			{Reason: "never recursive", Commands: []string{"rm -r", "rm -rf", "cp -r"}},
		},
		Ask: []gate.Rule{
			{Reason: "tee needs sign-off", Commands: []string{"tee"}},
			{Reason: "the scratch area needs sign-off", Paths: []string{"/work/scratch/*"}},
		},
		Hide:     []gate.PathGroup{{Paths: []string{"/vault/internal"}}},
		VarsHide: []string{"AWS_*"},
	}
}

func FuzzPreflightGate(f *testing.F) {
	for _, seed := range []string{
		"cat /work/notes.txt", "touch /work/x", "echo a > /work/y; touch /work/x",
		"false && touch /work/x", "tee /work/t <<< hi", "cat /work/scratch/draft.txt",
		"eval 'touch /work/x'", "$(echo touch) /work/x", "sort /work/unsorted.txt",
		"cat /vault/aws.token", "ls /vault/internal", "echo $AWS_SECRET_ACCESS_KEY",
	} {
		f.Add(seed)
	}
	db, err := sqlite.Open(filepath.Join(f.TempDir(), "ledger.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })

	skipKnown := os.Getenv("GATEHOUSE_FUZZ_SKIP_KNOWN") != ""
	f.Fuzz(func(t *testing.T, line string) {
		if skipKnown && fuzzKnownCrasher(line) {
			t.Skip("a known crasher, kept in testdata until the shell is fixed")
		}
		ws, err := NewWorkspace(fuzzMounts(), WithProfiles(fuzzProfile()), WithStore(db), WithLimits(Limits{
			WallTime: 300 * time.Millisecond, OutputBytes: 64 << 10, Commands: 2000, BackgroundJobs: 8, Depth: 20,
		}))
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		s, err := ws.CreateSession("fuzzer", Profile("fuzz"))
		if err != nil {
			t.Fatal(err)
		}
		// A panic fails this input without taking the test binary down
		// with it, so the other tests of the package still report.
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%q panicked: %v\n%s", line, p, debug.Stack())
			}
		}()
		exps, explainErr := s.Explain(line)
		strictest := fuzzStrictest(exps)
		before := fuzzFiles(ws)

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res := s.Execute(ctx, line)
		after := fuzzFiles(ws)

		if res.ExitCode < 0 || res.ExitCode > 255 {
			t.Fatalf("%q: exit code %d is not a byte", line, res.ExitCode)
		}
		for _, secret := range []string{fuzzSecrets.token, fuzzSecrets.key, fuzzSecrets.variable} {
			if strings.Contains(res.Stdout+res.Stderr, secret) {
				t.Fatalf("%q showed a protected value:\nstdout=%q\nstderr=%q", line, res.Stdout, res.Stderr)
			}
		}
		if explainErr != nil {
			if res.ExitCode != 2 || after != before {
				t.Fatalf("%q: Explain could not parse it (%v), yet the run exited %d (changed files: %v)",
					line, explainErr, res.ExitCode, after != before)
			}
			return
		}
		if strictest == nil {
			return
		}
		if res.ExitCode != 126 || res.Stdout != "" || res.Refusal == nil || after != before {
			t.Fatalf("%q: Explain says %s for %q (%s), so nothing may run; the run gave exit %d, stdout %q, refusal %v, files changed: %v\nstderr=%q",
				line, strictest.Outcome, strictest.Command, strictest.Reason, res.ExitCode, res.Stdout, res.Refusal, after != before, res.Stderr)
		}
	})
}

// fuzzKnownCrasher recognises lines of a crash already reported and kept in
// testdata/fuzz/FuzzPreflightGate: a function declaration without a name
// ("()0") panics preflight. With GATEHOUSE_FUZZ_SKIP_KNOWN set, a fuzzing
// run passes over them to look for something new.
func fuzzKnownCrasher(line string) bool {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return false
	}
	known := false
	syntax.Walk(file, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name == nil {
			known = true
		}
		return !known
	})
	return known
}

// fuzzFiles describes every mount a line could change.
func fuzzFiles(ws *Workspace) string {
	var b strings.Builder
	for _, root := range []string{"/work", "/tmp", "/vault", "/ro"} {
		b.WriteString(bypasstest.Snapshot(ws.fs.View(nil), root) + "\n")
	}
	return b.String()
}

// fuzzStrictest returns the first explanation that refuses the whole line
// before it runs: a command-scope deny, or an ask of either scope.
func fuzzStrictest(exps []Explanation) *Explanation {
	for i, e := range exps {
		switch {
		case e.Outcome == gate.Ask:
			return &exps[i]
		case e.Outcome == gate.Deny && e.Refusal != nil && e.Refusal.Scope == "command":
			return &exps[i]
		}
	}
	return nil
}
