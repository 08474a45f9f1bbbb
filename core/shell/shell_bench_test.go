package shell_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// benchProfile is an ordinary agent profile: a tool set, a few command
// and path rules, a hide and a mount narrowing, so preflight judges real
// rules rather than an empty profile.
var benchProfile = gate.ProfileSpec{
	Name:  "worker",
	Cwd:   "/work",
	Allow: []string{"echo", "cat", "ls", "grep", "head", "wc", "find", "xargs", "rm", "sort", "uniq"},
	Ask:   []gate.Rule{{Reason: "removal needs sign-off", Commands: []string{"rm"}}},
	Deny: []gate.Rule{
		{Reason: "credentials are never read by hand", Paths: []string{"/vault/*"}},
		{Reason: "no recursive grep in the vault", Commands: []string{"grep -r"}},
	},
	Hide:   []gate.PathGroup{{Reason: "operator only", Paths: []string{"/work/*.bak"}}},
	Mounts: map[string]gate.MountRules{"/vault": {ReadOnly: true}},
}

// line20 is twenty commands in one line: the shape of a long agent line.
var line20 = func() string {
	cmds := make([]string, 20)
	for i := range cmds {
		cmds[i] = fmt.Sprintf("echo step%d", i)
	}
	return strings.Join(cmds, "; ")
}()

func benchSession(b *testing.B) *core.Session {
	b.Helper()
	ws, err := core.NewWorkspace([]vfs.MountSpec{
		{Prefix: "/work", Files: map[string]string{"notes.md": "TODO: page on-call\n"}},
		{Prefix: "/vault", Files: map[string]string{"aws.token": "AKIA-EXAMPLE\n"}},
	}, core.WithProfiles(benchProfile))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("bench", core.Profile("worker"))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkPreflight20Commands is the gate's share of a 20-command line:
// parse, collect and judge every command, without running any (Explain is
// exactly preflight, G-11.3).
func BenchmarkPreflight20Commands(b *testing.B) {
	s := benchSession(b)
	b.ReportAllocs()
	for b.Loop() {
		exps, err := s.Explain(line20)
		if err != nil || len(exps) != 20 {
			b.Fatalf("explain: %d explanations, %v", len(exps), err)
		}
	}
}

// BenchmarkExecute20Commands is the same line run end to end, so the
// preflight's share of a whole line can be read off as a ratio.
func BenchmarkExecute20Commands(b *testing.B) {
	s := benchSession(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := s.Execute(ctx, line20); res.ExitCode != 0 {
			b.Fatalf("execute: %+v", res)
		}
	}
}

// BenchmarkFindXargsGrep is bench/compare.sh's gated line on a small tree
// (500 files in a memory mount): find, xargs and grep over every file,
// which is what the memory budget's accounting must not slow (G-12.3).
func BenchmarkFindXargsGrep(b *testing.B) {
	files := make(map[string]string, 500)
	for i := range 500 {
		files[fmt.Sprintf("src/d%d/f%d.go", i%20, i)] = strings.Repeat("package x // some source text\n", 40) + "// TODO: fix\n"
	}
	ws, err := core.NewWorkspace([]vfs.MountSpec{
		{Prefix: "/work", Files: files},
		{Prefix: "/vault", Files: map[string]string{"aws.token": "AKIA-EXAMPLE\n"}},
	}, core.WithProfiles(benchProfile))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("bench", core.Profile("worker"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := s.Execute(ctx, "find /work/src -name '*.go' | xargs grep -n TODO | wc -l"); res.Stdout != "500\n" {
			b.Fatalf("execute: %+v", res)
		}
	}
}
