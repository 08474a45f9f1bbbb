package gate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gatehouse/core/vfs"
)

// G-4.10: a command that meets several ask rules gets a verdict naming every
// one of them, with their paths, in order: command-axis rules (profile, then
// mounts), operands in argv order, then the policies.
func TestJudgeNamesEveryAsk(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Ask: []Rule{
			{Reason: "copying is asked", Commands: []string{"cp"}, Source: "w:1:1"},
			{Reason: "team A", Paths: []string{"/d/a"}, Source: "w:2:1"},
			{Reason: "team B", Paths: []string{"/d/b"}, Source: "w:3:1"},
			{Reason: "copies out of A's keys", Commands: []string{"cp"}, Paths: []string{"/d/a/keys"}, Source: "w:4:1"},
			{Reason: "cat is watched", Commands: []string{"cat *"}, Source: "w:5:1"},
		},
		Mounts: map[string]MountRules{"/m": {Ask: []Rule{{Reason: "mount asks cat", Commands: []string{"cat"}, Source: "w:6:1"}}}},
	}, []Mount{{Prefix: "/d"}, {Prefix: "/m"}})
	tests := []struct {
		name string
		cmd  Command
		want []string // reason@path, in order
	}{
		{"two operands under two rules", cmd("/d", words("tac", "a/x", "b/y"), "/d/a/x", "/d/b/y"),
			[]string{"team A@/d/a/x", "team B@/d/b/y"}},
		{"one rule reached twice", cmd("/d", words("tac", "a/x", "a/y"), "/d/a/x", "/d/a/y"),
			[]string{"team A@/d/a/x", "team A@/d/a/y"}},
		{"a command ask and two path asks", cmd("/d", words("cp", "a/keys/k", "b/y"), "/d/a/keys/k", "/d/b/y"),
			[]string{"copying is asked@", "copies out of A's keys@/d/a/keys/k", "team B@/d/b/y"}},
		{"profile and mount command asks and a path ask", cmd("/m", words("cat", "/d/a/x"), "/d/a/x"),
			[]string{"cat is watched@", "mount asks cat@", "team A@/d/a/x"}},
		{"one ask only", cmd("/d", words("tac", "a/x", "c"), "/d/a/x", "/d/c"), []string{"team A@/d/a/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := p.Judge(tt.cmd)
			if v.Outcome != Ask {
				t.Fatalf("outcome %s, want ask", v.Outcome)
			}
			var got []string
			for _, a := range v.Asks {
				if a.Kind != "ask" {
					t.Errorf("ask %+v has kind %q", a, a.Kind)
				}
				got = append(got, a.Reason+"@"+a.Path)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("asks = %q, want %q", got, tt.want)
			}
			if *v.Refusal != v.Asks[0] {
				t.Errorf("refusal %+v is not the first ask %+v", *v.Refusal, v.Asks[0])
			}
		})
	}
	if v := p.Judge(cmd("/d", words("tac", "c"), "/d/c")); v.Outcome != Run || v.Asks != nil {
		t.Errorf("a command meeting no ask = %s with asks %v", v.Outcome, v.Asks)
	}
}

// askingPolicy asks about every cp, whatever the rules said.
type askingPolicy struct{}

func (askingPolicy) Name() string { return "asking" }
func (askingPolicy) PreCommand(ctx CommandContext) Decision {
	if ctx.Command == "cp" {
		return Question("copies are reviewed")
	}
	return NoOpinion()
}

// G-4.10, G-8.6: a policy's ask joins the rules' asks instead of being
// dropped behind them, so a rule's answer cannot settle it.
func TestPolicyAskJoinsRuleAsks(t *testing.T) {
	t.Parallel()
	p, err := Compile(ProfileSpec{Name: "t",
		Ask: []Rule{{Reason: "team A", Paths: []string{"/d/a"}, Source: "w:2:1"}}},
		[]Mount{{Prefix: "/d"}}, WithPolicies(askingPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	v := p.Judge(cmd("/d", words("cp", "a/x", "c"), "/d/a/x", "/d/c"))
	if v.Outcome != Ask || len(v.Asks) != 2 || v.Asks[0].Reason != "team A" || v.Asks[1].Reason != "copies are reviewed" ||
		v.Asks[1].Policy != "asking" {
		t.Fatalf("cp under a rule ask and a policy ask = %s %+v", v.Outcome, v.Asks)
	}
	v = p.Judge(cmd("/d", words("cp", "c", "e"), "/d/c", "/d/e"))
	if v.Outcome != Ask || len(v.Asks) != 1 || v.Refusal.Reason != "copies are reviewed" {
		t.Errorf("cp under the policy alone = %s %+v", v.Outcome, v.Asks)
	}
}

// G-4.10, G-9.5: an answered ask opens at the door exactly the rules its
// record named, at the paths it showed and below them; no other rule, and
// no other path of the same rule.
func TestDoorOpensOnlyWhatWasGranted(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Ask: []Rule{
			{Reason: "team A", Paths: []string{"/d/a"}, Source: "w:2:1"},
			{Reason: "team B", Paths: []string{"/d/b"}, Source: "w:3:1"},
		}}, []Mount{{Prefix: "/d"}})
	ruleA := p.Judge(cmd("/d", words("cat", "a/x"), "/d/a/x")).Refusal
	scope := &OpScope{Grants: []PathGrant{{Policy: ruleA.Policy, Rule: ruleA.Rule, Path: "/d/a/x"}}}
	dirScope := &OpScope{Grants: []PathGrant{{Policy: ruleA.Policy, Rule: ruleA.Rule, Path: "/d/a/dir"}}}
	tests := []struct {
		scope *OpScope
		path  string
		pass  bool
	}{
		{scope, "/d/a/x", true},
		{scope, "/d/a/y", false},       // same rule, a path the record did not show
		{scope, "/d/a/x2", false},      // a sibling sharing the name's prefix
		{scope, "/d/b/y", false},       // another rule
		{dirScope, "/d/a/dir/f", true}, // below a directory the record showed
		{dirScope, "/d/a/dirt", false},
		{&OpScope{Granted: true}, "/d/b/y", true},
		{nil, "/d/a/x", false},
	}
	for _, tt := range tests {
		err := p.Door(tt.scope).CheckOp(read(tt.path))
		var refused *vfs.RefusedError
		switch {
		case tt.pass && err != nil:
			t.Errorf("read %s = %v, want pass", tt.path, err)
		case !tt.pass && (!errors.As(err, &refused) || !strings.Contains(err.Error(), "team")):
			t.Errorf("read %s = %v, want the ask's refusal", tt.path, err)
		}
	}
}

// G-9.5: a rule's fingerprint changes with what it says (reason, commands,
// paths), not with the exceptions an amendment adds, and is empty for what
// is not a document rule.
func TestRuleFingerprint(t *testing.T) {
	t.Parallel()
	fp := func(r Rule) string {
		r.Source = "w:1:1"
		p := mustCompile(t, ProfileSpec{Name: "t", Ask: []Rule{r}}, []Mount{{Prefix: "/d"}})
		return p.RuleFingerprint("profile:t", "w:1:1")
	}
	base := Rule{Reason: "r", Paths: []string{"/d/a"}}
	if first, again := fp(base), fp(base); first == "" || first != again {
		t.Fatalf("fingerprint of a rule = %q, want a stable digest", fp(base))
	}
	for name, other := range map[string]Rule{
		"another reason":  {Reason: "s", Paths: []string{"/d/a"}},
		"other paths":     {Reason: "r", Paths: []string{"/d/b"}},
		"a command scope": {Reason: "r", Paths: []string{"/d/a"}, Commands: []string{"cat"}},
	} {
		if fp(other) == fp(base) {
			t.Errorf("%s: same fingerprint as the rule it replaced", name)
		}
	}
	excepted := base
	excepted.Commands, excepted.Except = nil, []Exception{{Argv: []string{"cat", "/d/a/x"}}}
	if fp(excepted) != fp(base) {
		t.Error("an exception changed the rule's fingerprint")
	}
	p := mustCompile(t, ProfileSpec{Name: "t", Ask: []Rule{base}}, []Mount{{Prefix: "/d"}})
	if got := p.RuleFingerprint("profile:t", "nowhere"); got != "" {
		t.Errorf("fingerprint of no rule = %q", got)
	}
}
