package gate

import (
	"encoding/json"
	"testing"
)

// The demo profile's answers to the lines of SPEC G-1.1 (G-3.1, G-4.10,
// G-5.3, G-7.2, G-7.3, G-7.7).
func TestJudgeDemo(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	tests := []struct {
		name    string
		cmd     Command
		outcome Outcome
		want    *Refusal // nil: no refusal record
	}{
		{"G-3.1 allowed command runs", cmd("/runbook", words("cat", "README.md"), "/runbook/README.md"), Run, nil},
		{"G-3.2 missing tool is not found", cmd("/runbook", words("sort", "x"), "/runbook/x"), NotFound, nil},
		{"G-3.1 command deny", cmd("/runbook", words("git", "push", "origin")), Deny,
			&Refusal{Kind: "deny", Reason: reasonPush, Policy: "profile:responder", Scope: "command", Rule: srcDenyPush}},
		{"G-3.1 command ask", cmd("/runbook", words("rm", "README.md"), "/runbook/README.md"), Ask,
			&Refusal{Kind: "ask", Reason: reasonRm, Policy: "profile:responder", Scope: "command", Rule: srcAskRm}},
		{"G-3.1 allow refinement", cmd("/runbook", words("git", "log")), Deny,
			&Refusal{Kind: "deny", Reason: "not in the allow list", Policy: "allow", Scope: "command", Rule: srcAllow}},
		{"G-7.3 operand deny", cmd("/runbook", words("cat", "/vault/aws.token"), "/vault/aws.token"), Deny,
			&Refusal{Kind: "deny", Reason: reasonVault, Policy: "profile:responder", Scope: "operand", Rule: srcDenyVault, Path: "/vault/aws.token"}},
		{"G-4.7 shown operand runs", cmd("/runbook", words("cat", "/vault/public/ca.pem"), "/vault/public/ca.pem"), Run, nil},
		{"G-4.5 hidden operand", cmd("/runbook", words("cat", "/vault/internal/x"), "/vault/internal/x"), Hidden, nil},
		{"G-5.3 mount deny by cwd", cmd("/repo", words("git", "commit", "-m", "x")), Deny,
			&Refusal{Kind: "deny", Reason: reasonCommt, Policy: "mount:/repo", Scope: "command", Rule: srcDenyCommt}},
		{"G-5.3 mount deny by cwd below the prefix", cmd("/repo/src", words("git", "commit")), Deny,
			&Refusal{Kind: "deny", Reason: reasonCommt, Policy: "mount:/repo", Scope: "command", Rule: srcDenyCommt}},
		{"G-5.3 mount rule silent outside its mount", cmd("/runbook", words("git", "commit", "-m", "x")), Deny,
			&Refusal{Kind: "deny", Reason: "not in the allow list", Policy: "allow", Scope: "command", Rule: srcAllow}},
		{"G-5.3 mount allows what it does not deny", cmd("/repo", words("git", "status")), Run, nil},
		{"G-4.10 operand deny refuses an ask it cannot keep", cmd("/runbook", words("rm", "a", "/vault/aws.token"), "/runbook/a", "/vault/aws.token"), Deny,
			&Refusal{Kind: "deny", Reason: reasonRm, Policy: "profile:responder", Scope: "command", Rule: srcAskRm}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := p.Judge(tt.cmd)
			if v.Outcome != tt.outcome {
				t.Fatalf("Outcome = %s, want %s (refusal %+v)", v.Outcome, tt.outcome, v.Refusal)
			}
			switch {
			case tt.want == nil && v.Refusal != nil:
				t.Errorf("refusal = %+v, want none", *v.Refusal)
			case tt.want != nil && (v.Refusal == nil || *v.Refusal != *tt.want):
				t.Errorf("refusal = %+v, want %+v", v.Refusal, *tt.want)
			}
		})
	}
}

// G-4.5, G-11.1: a hidden operand lets the command run into ENOENT; hosts
// learn the hide's reason and rule, the session never does.
func TestJudgeHiddenOperands(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	v := p.Judge(cmd("/runbook", words("cat", "README.md", "old.bak"), "/runbook/README.md", "/runbook/old.bak"))
	if v.Outcome != Hidden || v.Refusal != nil {
		t.Fatalf("Judge = %s %+v, want hidden without a refusal", v.Outcome, v.Refusal)
	}
	if len(v.HiddenOperands) != 1 || v.HiddenOperands[0].Path != "/runbook/old.bak" {
		t.Errorf("HiddenOperands = %+v", v.HiddenOperands)
	}
	if v.HideReason != reasonBak || v.HideRule != srcHideBak {
		t.Errorf("hide reason/rule = %q %q", v.HideReason, v.HideRule)
	}
	// Something that refuses outranks hidden; the hidden operand is still listed.
	v = p.Judge(cmd("/runbook", words("rm", "old.bak"), "/runbook/old.bak"))
	if v.Outcome != Ask || len(v.HiddenOperands) != 1 {
		t.Errorf("rm of a hidden file = %s hidden %d, want ask listing it", v.Outcome, len(v.HiddenOperands))
	}
	// A traversable directory is no hidden operand.
	q := mustCompile(t, ProfileSpec{Name: "t", Hide: []PathGroup{{Paths: []string{"/v"}}}, Show: []ShowEntry{{Path: "/v/pub"}}}, nil)
	if v := q.Judge(cmd("/", words("ls", "/v"), "/v")); v.Outcome != Run {
		t.Errorf("ls of a traversable dir = %s, want run", v.Outcome)
	}
}

// G-4.10: operand denies are every denied operand in argv order; the first
// decides. With a deny present, asked operands are refused too (G-8.6).
func TestJudgeOperandOrder(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Deny: []Rule{{Reason: "secret", Paths: []string{"/d/secret"}, Source: "deny"}},
		Ask:  []Rule{{Reason: "private", Paths: []string{"/d/private"}, Source: "ask"}},
	}, []Mount{{Prefix: "/d"}})

	v := p.Judge(cmd("/d", words("cat", "private/a", "ok", "secret/b", "secret/c"),
		"/d/private/a", "/d/ok", "/d/secret/b", "/d/secret/c"))
	if v.Outcome != Deny || v.Operand == nil || v.Operand.Path != "/d/secret/b" {
		t.Fatalf("Judge = %s operand %+v, want deny deciding on /d/secret/b", v.Outcome, v.Operand)
	}
	var got []string
	for _, r := range v.OperandRefusals {
		got = append(got, r.Refusal.Kind+":"+r.Refusal.Reason+":"+r.Operand.Path)
	}
	want := "deny:private:/d/private/a deny:secret:/d/secret/b deny:secret:/d/secret/c"
	if joined := joinSpaced(got); joined != want {
		t.Errorf("OperandRefusals = %s\nwant             %s", joined, want)
	}

	v = p.Judge(cmd("/d", words("cat", "ok", "private/a", "private/b"), "/d/ok", "/d/private/a", "/d/private/b"))
	if v.Outcome != Ask || v.Operand.Path != "/d/private/a" || v.Refusal.Scope != "operand" || len(v.OperandRefusals) != 0 {
		t.Errorf("asked operands = %s %+v %+v, want an ask on the first one", v.Outcome, v.Operand, v.Refusal)
	}
}

func joinSpaced(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// G-4.10: command-axis asks come before operand asks, and a command-axis
// deny before everything.
func TestJudgeCommandAxisFirst(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Ask:  []Rule{{Reason: "copying is asked", Commands: []string{"cp"}}, {Reason: "private", Paths: []string{"/d/private"}}},
		Deny: []Rule{{Reason: "no moves", Commands: []string{"mv"}}, {Reason: "secret", Paths: []string{"/d/secret"}}},
	}, []Mount{{Prefix: "/d"}})
	if v := p.Judge(cmd("/d", words("cp", "private/a", "b"), "/d/private/a", "/d/b")); v.Refusal.Reason != "copying is asked" {
		t.Errorf("cp = %+v, want the command ask", v.Refusal)
	}
	if v := p.Judge(cmd("/d", words("mv", "secret/a", "b"), "/d/secret/a", "/d/b")); v.Refusal.Scope != "command" || v.Refusal.Reason != "no moves" {
		t.Errorf("mv = %+v, want the command deny", v.Refusal)
	}
}

// G-4.4: a path rule naming commands counts only for those commands.
func TestJudgeCommandScopedPathRules(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Deny: []Rule{{Reason: "no bulk reads of logs", Commands: []string{"grep -r", "cat"}, Paths: []string{"/d/logs/*"}}},
		Hide: []PathGroup{{Paths: []string{"/d/logs/raw"}}},
	}, []Mount{{Prefix: "/d"}})
	tests := []struct {
		argv []string
		op   string
		want Outcome
	}{
		{words("cat", "/d/logs/a"), "/d/logs/a", Deny},
		{words("grep", "-r", "x", "/d/logs/a"), "/d/logs/a", Deny},
		{words("grep", "x", "/d/logs/a"), "/d/logs/a", Run},
		{words("ls", "/d/logs/a"), "/d/logs/a", Run},
		{words("cat", "/d/logs/raw/1"), "/d/logs/raw/1", Hidden}, // deeper hide wins
	}
	for _, tt := range tests {
		t.Run(joinWords(tt.argv), func(t *testing.T) {
			t.Parallel()
			if v := p.Judge(cmd("/d", tt.argv, tt.op)); v.Outcome != tt.want {
				t.Errorf("Judge = %s, want %s", v.Outcome, tt.want)
			}
		})
	}
}

// G-5.3: mount-level command rules apply to commands working inside the
// mount by cwd or by operand, and speak as mount:PREFIX.
func TestJudgeMountCommandRules(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t", Mounts: map[string]MountRules{
		"/repo":       {Deny: []Rule{{Reason: "commits need review", Commands: []string{"git commit"}}}},
		"/data":       {Ask: []Rule{{Reason: "touching data is asked", Commands: []string{"touch", "rm"}}}},
		"/data/inner": {Deny: []Rule{{Reason: "no forcing", Commands: []string{"* --force"}}}},
	}}, []Mount{{Prefix: "/repo"}, {Prefix: "/data"}, {Prefix: "/data/inner"}, {Prefix: "/tmp"}})
	tests := []struct {
		name   string
		cmd    Command
		want   Outcome
		policy string
	}{
		{"G-5.3 by cwd", cmd("/repo", words("git", "commit", "-m", "x")), Deny, "mount:/repo"},
		{"G-5.3 by operand", cmd("/tmp", words("touch", "/data/x"), "/data/x"), Ask, "mount:/data"},
		{"G-5.3 by a later operand", cmd("/tmp", words("rm", "/tmp/a", "/data/x"), "/tmp/a", "/data/x"), Ask, "mount:/data"},
		{"G-5.3 relative operand against cwd", cmd("/data", words("touch", "x"), "x"), Ask, "mount:/data"},
		{"G-5.3 nested mount is another mount", cmd("/tmp", words("touch", "/data/inner/x"), "/data/inner/x"), Run, ""},
		{"G-5.3 outside the mount", cmd("/tmp", words("touch", "/tmp/x"), "/tmp/x"), Run, ""},
		{"G-5.3 prefix is a path, not a string", cmd("/repository", words("git", "commit")), Run, ""},
		{"G-5.3 a rule whose first word is a wildcard", cmd("/tmp", words("cp", "--force", "/data/inner/x"), "/data/inner/x"), Deny, "mount:/data/inner"},
		{"G-5.3 a wildcard rule by cwd", cmd("/data/inner", words("mv", "--force")), Deny, "mount:/data/inner"},
		{"G-5.3 a command no mount rule names", cmd("/data/inner", words("grep", "x", "/data/x"), "/data/x"), Run, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := p.Judge(tt.cmd)
			if v.Outcome != tt.want {
				t.Fatalf("Outcome = %s, want %s", v.Outcome, tt.want)
			}
			if tt.policy != "" && (v.Refusal.Policy != tt.policy || v.Refusal.Scope != "command") {
				t.Errorf("refusal = %+v, want command scope from %s", *v.Refusal, tt.policy)
			}
		})
	}
}

// G-7.2, G-7.3: records serialize exactly as the spec spells them.
func TestRefusalRecordJSON(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	tests := []struct {
		cmd  Command
		want string
	}{
		{cmd("/runbook", words("git", "push")),
			`{"kind":"deny","reason":"pushes go through CI","policy":"profile:responder","scope":"command","rule":"workspace.yaml:26:11"}`},
		{cmd("/runbook", words("grep", "x", "/vault/aws.token"), "/vault/aws.token"),
			`{"kind":"deny","reason":"credentials are never read by hand","policy":"profile:responder","scope":"operand","rule":"workspace.yaml:25:11","path":"/vault/aws.token"}`},
		{cmd("/runbook", words("rm", "x"), "/runbook/x"),
			`{"kind":"ask","reason":"removal needs sign-off","policy":"profile:responder","scope":"command","rule":"workspace.yaml:23:11"}`},
	}
	for _, tt := range tests {
		t.Run(joinWords(tt.cmd.Argv), func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(p.Judge(tt.cmd).Refusal)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("record = %s\nwant     %s", b, tt.want)
			}
		})
	}
}

// Records are the caller's to fill in (ask ids, status): changing one never
// changes the next verdict.
func TestJudgeRecordsAreIndependent(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	first := p.Judge(cmd("/runbook", words("rm", "x")))
	first.Refusal.AskID, first.Refusal.Reason = "0123456789ab", "changed"
	second := p.Judge(cmd("/runbook", words("rm", "x")))
	if second.Refusal.AskID != "" || second.Refusal.Reason != reasonRm {
		t.Errorf("second verdict saw the first's edits: %+v", *second.Refusal)
	}
}

// G-14: judging a command that runs allocates nothing.
func TestJudgeRunAllocatesNothing(t *testing.T) {
	p := demoProfile(t)
	c := cmd("/repo", words("cat", "/runbook/frozen/restore.md", "/vault/public/ca.pem"), "/runbook/frozen/restore.md", "/vault/public/ca.pem")
	if n := testing.AllocsPerRun(100, func() { _ = p.Judge(c) }); n != 0 {
		t.Errorf("Judge allocates %v times on the run path", n)
	}
}
