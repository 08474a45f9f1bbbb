package gate_test

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// frozenConfig is a coded policy on every door: it refuses writes under
// /repo/config, secrets exported, and asks before a credential is read.
type frozenConfig struct{}

func (frozenConfig) Name() string { return "frozen-config" }

func (frozenConfig) PreCommand(ctx gate.CommandContext) gate.Decision {
	if ctx.Command == "show" {
		data, err := ctx.Open(ctx.Argv[1])
		if err != nil {
			return gate.Refuse(err.Error())
		}
		return gate.Refuse(string(data))
	}
	for _, p := range ctx.Paths {
		if data, err := ctx.Open(p); err == nil && strings.Contains(string(data), "AKIA") {
			return gate.Question(p + " looks like it holds a credential")
		}
	}
	return gate.NoOpinion()
}

func (frozenConfig) PreOps(ctx gate.OpContext) gate.Decision {
	if ctx.Op.Write && strings.HasPrefix(ctx.Op.Path, "/repo/config/") {
		return gate.Refuse(reasonFrozen + " (" + ctx.Command + " in " + ctx.Cwd + ")")
	}
	if ctx.Op.Path == "/repo/ask.txt" {
		return gate.Question("ops cannot ask")
	}
	return gate.NoOpinion()
}

func (frozenConfig) PreSession(ctx gate.SessionContext) gate.Decision {
	if ctx.Write.Verb == gate.EnvExport && strings.HasPrefix(ctx.Write.Key, "AWS_") {
		return gate.Refuse(ctx.Write.Key + ": secrets are not exported into agent sessions")
	}
	return gate.NoOpinion()
}

var callSite = regexp.MustCompile(`^policy_coded_test\.go:\d+$`)

// G-8.5, G-7.7: a coded policy speaks at all three doors, and its records
// carry its name as the policy and where it was added as the rule.
func TestCodedPolicy(t *testing.T) {
	t.Parallel()
	p, fsys := compileGuarded(t, "", "", gate.WithPolicies(frozenConfig{}))
	if got := p.Policies(); !slices.Equal(got, []string{"frozen-config"}) {
		t.Errorf("Policies() = %q", got)
	}

	v := p.Judge(line("/repo", "cat config/creds.env", words("cat", "config/creds.env"), "config/creds.env"))
	if v.Outcome != gate.Ask || v.Refusal.Policy != "frozen-config" || v.Refusal.Hook != gate.HookPreCommand ||
		v.Refusal.Reason != "/repo/config/creds.env looks like it holds a credential" || !callSite.MatchString(v.Refusal.Rule) {
		t.Errorf("cat of a credential: %s rule %q", verdictText(v), v.Refusal.Rule)
	}
	if v := p.Judge(catReadme); v.Outcome != gate.Run {
		t.Errorf("cat README.md: %s", verdictText(v))
	}

	cp := line("/repo", "cp README.md config/x", words("cp", "README.md", "config/x"), "README.md", "config/x")
	_, err := fsys.View(p.Door(&gate.OpScope{Command: &cp})).OpenFile("/repo/config/x", os.O_WRONLY|os.O_CREATE, 0o644)
	var refused *vfs.RefusedError
	if !errors.As(err, &refused) || refused.Reason != reasonFrozen+" (cp in /repo)" {
		t.Fatalf("write under /repo/config: %v", err)
	}
	if rec := refused.Detail.(*gate.Refusal); rec.Policy != "frozen-config" || rec.Hook != gate.HookPreOps || rec.Path != "/repo/config/x" {
		t.Errorf("pre_ops record %+v", rec)
	}
	if err := p.Door(nil).CheckOp(vfs.Op{Name: vfs.OpStat, Path: "/repo/ask.txt"}); !strings.Contains(errKind(err), "may answer allow or deny only") {
		t.Errorf("a coded pre_ops ask: %v", err)
	}

	r := p.JudgeEnvWrite(gate.EnvWrite{Key: "AWS_SECRET", Value: "x", Verb: gate.EnvExport})
	if r == nil || r.Policy != "frozen-config" || r.Hook != gate.HookPreSession || r.Reason != "AWS_SECRET: secrets are not exported into agent sessions" {
		t.Errorf("export AWS_SECRET=x: %+v", r)
	}
}

// G-4.5, G-8.3: a coded policy's Open goes through the rules like open().
func TestCodedPolicyOpen(t *testing.T) {
	t.Parallel()
	p, _ := compileGuarded(t, "", "", gate.WithPolicies(frozenConfig{}))
	tests := []struct{ name, path, want string }{
		{"G-4.5 a hidden path reads as missing", "/vault/internal/root.key", "open: /vault/internal/root.key: No such file or directory"},
		{"G-4.5 a missing path, for comparison", "/vault/none", "open: /vault/none: No such file or directory"},
		{"G-4.6 a denied path fails with the reason", "/vault/aws.token", "open: /vault/aws.token: " + reasonVault},
		{"G-8.3 a path the rules ask about reads", "/vault/break-glass/procedure.md", "call the security lead first\n"},
		{"G-8.3 a relative path reads from the cwd", "config/app.yaml", "replicas: 3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := p.Judge(line("/repo", "show "+tt.path, words("show", tt.path)))
			if v.Refusal == nil || v.Refusal.Reason != tt.want {
				t.Errorf("got %s, want a deny %q", verdictText(v), tt.want)
			}
		})
	}
}

// G-1.3, G-7.7: Named sets the name and source a record cites; a bare value
// without Name() is named by its type.
func TestCodedPolicyNames(t *testing.T) {
	t.Parallel()
	p, _ := compileGuarded(t, "starlark", "def pre_command(ctx):\n    return None\n",
		gate.WithPolicies(gate.Named{Name: "change-freeze", Source: "ops.go:12", Policy: refuse("", "frozen")}, panics{}))
	if got := p.Policies(); !slices.Equal(got, []string{"change-freeze", "gate_test.panics", "policy:guard.star"}) {
		t.Errorf("Policies() = %q, want the chain in order", got)
	}
	v := p.Judge(catReadme)
	if v.Refusal == nil || v.Refusal.Policy != "change-freeze" || v.Refusal.Rule != "ops.go:12" {
		t.Errorf("got %s rule %q", verdictText(v), v.Refusal.Rule)
	}
}

// G-8.5: a value that judges nothing is a mistake worth a load error.
func TestCodedPolicyThatJudgesNothing(t *testing.T) {
	t.Parallel()
	_, err := gate.Compile(gate.ProfileSpec{Name: "p"}, nil, gate.WithPolicies(struct{ Name string }{}))
	if err == nil || !strings.Contains(err.Error(), "implements none of PreCommand, PreOps, PreSession") {
		t.Errorf("error %v", err)
	}
}

// G-9.4: a partial argv (preflight of a command with run-time words) is not
// shown to policies; the execution gate asks them with the real argv.
func TestPoliciesSkipPartialCommands(t *testing.T) {
	t.Parallel()
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			p, _ := compileGuarded(t, engine, programDenies("curl needs an allow-listed host").code(engine))
			partial := line("/repo", "curl $HOST", words("curl"))
			partial.Partial = true
			if v := p.Judge(partial); v.Outcome != gate.Run {
				t.Errorf("partial: %s", verdictText(v))
			}
			if v := p.Judge(line("/repo", "curl evil.example", words("curl", "evil.example"))); v.Outcome != gate.Deny {
				t.Errorf("whole: %s", verdictText(v))
			}
		})
	}
}

// G-6.3, G-14: a profile without policies pays nothing for them: the door
// allocates nothing and environment writes are not judged.
func TestNoPoliciesCostNothing(t *testing.T) {
	p, _ := compileGuarded(t, "", "")
	if p.Policies() != nil {
		t.Errorf("Policies() = %q", p.Policies())
	}
	door := p.Door(nil)
	op := vfs.Op{Name: vfs.OpOpen, Path: "/repo/config/creds.env", Write: true, Prefix: "/repo"}
	if allocs := testing.AllocsPerRun(100, func() { _ = door.CheckOp(op) }); allocs != 0 {
		t.Errorf("CheckOp allocates %v times per op", allocs)
	}
	if r := p.JudgeEnvWrite(gate.EnvWrite{Key: "AWS_SECRET", Verb: gate.EnvExport}); r != nil {
		t.Errorf("refused without a policy: %+v", r)
	}
}
