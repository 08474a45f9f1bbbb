package gate

import (
	"testing"
)

// G-3.1 step 1: allow is the tool set. Omitted installs everything, [] installs
// nothing, patterns install their first words, and a bare `*` installs all.
func TestToolSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		allow     []string
		installed []string
		missing   []string
	}{
		{"G-3.1 omitted allow installs everything", nil, []string{"cat", "sort", "git", "eval"}, nil},
		{"G-3.1 empty allow installs nothing", []string{}, nil, []string{"cat", "echo", "cd"}},
		{"G-3.1 first words of patterns", []string{"cat", "git status", "ls -l"},
			[]string{"cat", "git", "ls"}, []string{"status", "sort", "echo", "export"}},
		{"G-3.1 bare star installs everything", []string{"*"}, []string{"cat", "sort"}, nil},
		{"G-3.1 star next to names installs everything", []string{"cat", "*"}, []string{"sort"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := mustCompile(t, ProfileSpec{Name: "t", Allow: tt.allow}, nil)
			for _, name := range tt.installed {
				if !p.Installed(name) {
					t.Errorf("Installed(%q) = false", name)
				}
			}
			for _, name := range tt.missing {
				if p.Installed(name) {
					t.Errorf("Installed(%q) = true", name)
				}
				if v := p.Judge(cmd("/", words(name))); v.Outcome != NotFound || v.Refusal != nil {
					t.Errorf("Judge(%s) = %v %+v, want not-found without a record (G-7.1)", name, v.Outcome, v.Refusal)
				}
			}
		})
	}
}

// G-3.4: a command pattern is a prefix of the argv; `*` matches one word;
// `git push` and `git push *` are the same rule; a bare `*` is every command.
func TestCommandPatterns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		argv    []string
		want    bool
	}{
		{"git push", words("git", "push"), true},
		{"git push", words("git", "push", "origin", "main"), true},
		{"git push", words("git", "pull"), false},
		{"git push", words("git"), false},
		{"git push *", words("git", "push"), true},
		{"git push *", words("git", "push", "origin"), true},
		{"git * --force", words("git", "push", "--force"), true},
		{"git * --force", words("git", "push", "origin", "--force"), false},
		{"git * --force", words("git", "--force"), false},
		{"* --help", words("ls", "--help"), true},
		{"* --help", words("ls", "-l"), false},
		{"*", words("anything", "at", "all"), true},
		{"  git   push  ", words("git", "push"), true},
		{"rm -rf", words("rm", "-r", "-f"), false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"~"+joinWords(tt.argv), func(t *testing.T) {
			t.Parallel()
			p := mustCompile(t, ProfileSpec{Name: "t", Deny: []Rule{{Reason: "r", Commands: []string{tt.pattern}}}}, nil)
			got := p.Judge(cmd("/", tt.argv)).Outcome == Deny
			if got != tt.want {
				t.Errorf("deny %q on %q: denied = %v, want %v", tt.pattern, tt.argv, got, tt.want)
			}
		})
	}
}

func joinWords(w []string) string {
	s := ""
	for i, x := range w {
		if i > 0 {
			s += "_"
		}
		s += x
	}
	return s
}

// G-3.1 step 4: `allow: ["git status"]` installs git but refuses `git push`
// like a deny, with reason "not in the allow list" and policy "allow".
func TestAllowRefinement(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t", Allow: []string{"cat", "git status", "git log *"}, AllowSource: "w.yaml:3:5",
		Ask: []Rule{{Reason: "pushes are asked", Commands: []string{"git push"}, Source: "w.yaml:5:5"}}}, nil)
	tests := []struct {
		name string
		argv []string
		want Outcome
	}{
		{"G-3.1 allowed spelling runs", words("git", "status", "--short"), Run},
		{"G-3.4 star-ended allow pattern", words("git", "log", "-n", "3"), Run},
		{"G-3.4 star-ended allow pattern needs no word", words("git", "log"), Run},
		{"G-3.1 other subcommand refused before its ask", words("git", "push"), Deny},
		{"G-3.1 bare word refused", words("git"), Deny},
		{"G-3.1 single-word allow covers any args", words("cat", "-n", "x"), Run},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := p.Judge(cmd("/", tt.argv))
			if v.Outcome != tt.want {
				t.Fatalf("Judge(%q) = %s, want %s", tt.argv, v.Outcome, tt.want)
			}
			if tt.want != Deny {
				return
			}
			want := Refusal{Kind: "deny", Reason: "not in the allow list", Policy: "allow", Scope: "command", Rule: "w.yaml:3:5"}
			if *v.Refusal != want {
				t.Errorf("refusal = %+v, want %+v", *v.Refusal, want)
			}
		})
	}
}

// G-3.1 steps 2-3: the first matching deny refuses even when an ask also
// matches; otherwise the first matching ask asks.
func TestDenyBeforeAsk(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "ops",
		Ask: []Rule{
			{Reason: "asked first", Commands: []string{"rm"}, Source: "a1"},
			{Reason: "asked second", Commands: []string{"rm -r"}, Source: "a2"},
		},
		Deny: []Rule{
			{Reason: "no recursive removal", Commands: []string{"rm -rf", "rm -r"}, Source: "d1"},
			{Reason: "never reached", Commands: []string{"rm -r"}, Source: "d2"},
			{Reason: "no forced anything", Commands: []string{"* -f"}, Source: "d3"},
		},
	}, nil)
	tests := []struct {
		argv   []string
		want   Outcome
		reason string
		rule   string
	}{
		{words("rm", "-r", "dir"), Deny, "no recursive removal", "d1"},
		{words("rm", "-f", "x"), Deny, "no forced anything", "d3"},
		{words("rm", "x"), Ask, "asked first", "a1"},
		{words("ls"), Run, "", ""},
	}
	for _, tt := range tests {
		t.Run(joinWords(tt.argv), func(t *testing.T) {
			t.Parallel()
			v := p.Judge(cmd("/", tt.argv))
			if v.Outcome != tt.want {
				t.Fatalf("Outcome = %s, want %s", v.Outcome, tt.want)
			}
			if tt.want == Run {
				if v.Refusal != nil {
					t.Errorf("run carries a refusal: %+v", v.Refusal)
				}
				return
			}
			r := v.Refusal
			if r.Kind != string(tt.want) || r.Reason != tt.reason || r.Rule != tt.rule || r.Scope != "command" || r.Policy != "profile:ops" {
				t.Errorf("refusal = %+v, want %s %q from %s", *r, tt.want, tt.reason, tt.rule)
			}
		})
	}
}

// G-3.7: rules may name commands that are not installed; such a command is
// not found, and its rules never speak.
func TestRulesForCommandsNotInstalled(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t", Allow: []string{"cat"},
		Deny: []Rule{{Reason: "pushes go through CI", Commands: []string{"git push"}}},
		Ask:  []Rule{{Reason: "python is asked", Commands: []string{"python3"}}},
	}, nil)
	for _, argv := range [][]string{words("git", "push"), words("python3", "x.py")} {
		if v := p.Judge(cmd("/", argv)); v.Outcome != NotFound || v.Refusal != nil {
			t.Errorf("Judge(%q) = %s %+v, want not-found without a record", argv, v.Outcome, v.Refusal)
		}
	}
	if v := p.Judge(cmd("/", words("cat", "x"))); v.Outcome != Run {
		t.Errorf("cat = %s, want run", v.Outcome)
	}
}
