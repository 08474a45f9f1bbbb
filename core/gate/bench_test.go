package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/core/vfs"
)

// generatedProfile builds a profile of n rules shaped like a large real one
// (G-14): command denies and asks spread over many tools and subcommands,
// path denies, asks, hides and shows over many directories, and mount-level
// rules on a few mounts.
func generatedProfile(tb testing.TB, n int) (*Profile, []Mount) {
	tb.Helper()
	mounts := []Mount{{Prefix: "/data"}, {Prefix: "/repo"}, {Prefix: "/runbook"}, {Prefix: "/tmp"}}
	for i := range 8 {
		mounts = append(mounts, Mount{Prefix: fmt.Sprintf("/m%d", i)})
	}
	spec := ProfileSpec{Name: "big", Mounts: map[string]MountRules{}}
	for i := 0; len(spec.Deny)+len(spec.Ask)+len(spec.Hide)+len(spec.Show) < n; i++ {
		tool := fmt.Sprintf("tool%d", i%50)
		dir := fmt.Sprintf("/data/team%d/proj%d", i%40, i)
		switch i % 6 {
		case 0:
			spec.Deny = append(spec.Deny, Rule{Reason: "r", Commands: []string{fmt.Sprintf("%s sub%d", tool, i)}, Source: "gen"})
		case 1:
			spec.Ask = append(spec.Ask, Rule{Reason: "r", Commands: []string{fmt.Sprintf("%s * --flag%d", tool, i)}, Source: "gen"})
		case 2:
			spec.Deny = append(spec.Deny, Rule{Reason: "r", Paths: []string{dir + "/*.secret"}, Source: "gen"})
		case 3:
			spec.Ask = append(spec.Ask, Rule{Reason: "r", Commands: []string{"cat", tool}, Paths: []string{dir + "/private"}, Source: "gen"})
		case 4:
			spec.Hide = append(spec.Hide, PathGroup{Paths: []string{dir + "/internal"}, Source: "gen"})
		case 5:
			spec.Show = append(spec.Show, ShowEntry{Path: dir + "/internal/pub", Mode: "ro", Source: "gen"})
		}
	}
	for i := range 8 {
		spec.Mounts[fmt.Sprintf("/m%d", i)] = MountRules{
			Deny: []Rule{{Reason: "r", Commands: []string{fmt.Sprintf("tool%d push", i)}}},
			Hide: []PathGroup{{Paths: []string{"*.key"}}},
		}
	}
	p, err := Compile(spec, mounts)
	if err != nil {
		tb.Fatal(err)
	}
	return p, mounts
}

// A typical command of an agent: a tool with a couple of operands that no
// rule refuses, judged from inside a mount.
var typicalCommand = cmd("/data/team3",
	words("cat", "-n", "/data/team3/proj43/notes.md", "/data/team7/proj47/README"),
	"/data/team3/proj43/notes.md", "/data/team7/proj47/README")

func BenchmarkJudgeDemo(b *testing.B) {
	p := demoProfile(b)
	lines := []Command{
		cmd("/runbook", words("cat", "/runbook/frozen/restore.md"), "/runbook/frozen/restore.md"),
		cmd("/repo", words("git", "status")),
		cmd("/runbook", words("grep", "-r", "TODO", "/runbook", "/vault/public"), "/runbook", "/vault/public"),
		cmd("/runbook", words("ls", "-la")),
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = p.Judge(lines[i%len(lines)])
	}
}

func BenchmarkJudge1000Rules(b *testing.B) {
	p, _ := generatedProfile(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Judge(typicalCommand)
	}
}

// BenchmarkJudgeRules shows that the cost grows sub-linearly with the
// number of rules (G-14).
func BenchmarkJudgeRules(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			p, _ := generatedProfile(b, n)
			b.ReportAllocs()
			for b.Loop() {
				_ = p.Judge(typicalCommand)
			}
		})
	}
}

func BenchmarkCheckOp(b *testing.B) {
	door := demoProfile(b).Door(&OpScope{})
	ops := []vfs.Op{
		read("/runbook/frozen/restore.md"),
		stat("/runbook/README.md"),
		write("/runbook/notes/today.md"),
		read("/vault/public/ca.pem"),
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = door.CheckOp(ops[i%len(ops)])
	}
}

func BenchmarkCheckOp1000Rules(b *testing.B) {
	p, _ := generatedProfile(b, 1000)
	door := p.Door(&OpScope{})
	op := read("/data/team3/proj43/src/main.go")
	b.ReportAllocs()
	for b.Loop() {
		_ = door.CheckOp(op)
	}
}

// Siblings: a listing or a grep over one directory's files, the case the
// door's directory facts serve (G-14).
func BenchmarkCheckOp1000RulesSiblings(b *testing.B) {
	p, _ := generatedProfile(b, 1000)
	door := p.Door(&OpScope{})
	ops := make([]vfs.Op, 64)
	for i := range ops {
		ops[i] = read(fmt.Sprintf("/data/team3/proj43/src/file%d.go", i))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = door.CheckOp(ops[i%len(ops)])
	}
}

// Scattered: every op in another directory, so the directory facts never
// help and the door pays full resolution plus the cache's hash.
func BenchmarkCheckOp1000RulesScattered(b *testing.B) {
	p, _ := generatedProfile(b, 1000)
	door := p.Door(&OpScope{})
	ops := make([]vfs.Op, 64)
	for i := range ops {
		ops[i] = read(fmt.Sprintf("/data/team%d/proj%d/src/main.go", i%7, i))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = door.CheckOp(ops[i%len(ops)])
	}
}

// The generated profile means what it says: the benchmarks measure real
// decisions, not an empty profile.
func TestGeneratedProfileDecides(t *testing.T) {
	t.Parallel()
	p, _ := generatedProfile(t, 1000)
	if v := p.Judge(typicalCommand); v.Outcome != Run {
		t.Errorf("typical command = %s %+v, want run", v.Outcome, v.Refusal)
	}
	checks := []struct {
		cmd  Command
		want Outcome
	}{
		{cmd("/", words("tool0", "sub0")), Deny},
		{cmd("/", words("tool1", "x", "--flag1")), Ask},
		{cmd("/", words("cat", "/data/team2/proj2/a.secret"), "/data/team2/proj2/a.secret"), Deny},
		{cmd("/", words("cat", "/data/team3/proj3/private"), "/data/team3/proj3/private"), Ask},
		{cmd("/", words("cat", "/data/team4/proj4/internal/x"), "/data/team4/proj4/internal/x"), Hidden},
		{cmd("/m3", words("tool3", "push")), Deny},
	}
	for _, c := range checks {
		if v := p.Judge(c.cmd); v.Outcome != c.want {
			t.Errorf("Judge(%q) = %s, want %s", c.cmd.Argv, v.Outcome, c.want)
		}
	}
}

// A grep handed a batch of siblings by xargs, judged with the session's
// Resolver (memory mounts without links: LinkFree answers without a walk),
// without one, and on a host mount (each operand looked up); the
// differences are what following links costs (G-14).
func BenchmarkJudgeBatch(b *testing.B) {
	p, mounts := generatedProfile(b, 1000)
	specs := make([]vfs.MountSpec, 0, len(mounts))
	for _, m := range mounts {
		if m.Prefix != "/tmp" {
			specs = append(specs, vfs.MountSpec{Prefix: m.Prefix})
		}
	}
	fsys, err := vfs.New(specs)
	if err != nil {
		b.Fatal(err)
	}
	defer fsys.Close()
	batch := Command{Argv: []string{"grep", "-l", "TODO"}, Cwd: "/data"}
	for i := range 256 {
		f := fmt.Sprintf("/data/team3/proj43/src/file%d.go", i)
		batch.Argv = append(batch.Argv, f)
		batch.Operands = append(batch.Operands, Operand{Arg: f, Path: f})
	}
	// The same batch on a host mount, where every operand is looked up.
	hostDir := b.TempDir()
	hostSpecs := []vfs.MountSpec{{Prefix: "/data", HostDir: hostDir}}
	if err := os.MkdirAll(filepath.Join(hostDir, "team3", "proj43", "src"), 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 256 {
		if err := os.WriteFile(filepath.Join(hostDir, "team3", "proj43", "src", fmt.Sprintf("file%d.go", i)), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	hostFS, err := vfs.New(hostSpecs)
	if err != nil {
		b.Fatal(err)
	}
	defer hostFS.Close()
	for _, r := range []struct {
		name string
		r    Resolver
	}{{"unresolved", nil}, {"resolved", p.Resolver(fsys)}, {"resolved-host", p.Resolver(hostFS)}} {
		b.Run(r.name, func(b *testing.B) {
			c := batch
			c.Resolver = r.r
			b.ReportAllocs()
			for b.Loop() {
				_ = p.Judge(c)
			}
		})
	}
}
