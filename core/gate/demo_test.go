package gate

import (
	"testing"
)

// The responder profile of SPEC G-1.1, built in Go, with sources as the
// loader would record them.
const (
	srcProfile   = "workspace.yaml:17:3"
	srcAllow     = "workspace.yaml:21:7"
	srcAskRm     = "workspace.yaml:23:11"
	srcDenyVault = "workspace.yaml:25:11"
	srcDenyPush  = "workspace.yaml:26:11"
	srcHideInt   = "workspace.yaml:28:14"
	srcHideBak   = "workspace.yaml:28:32"
	srcShowPub   = "workspace.yaml:29:14"
	srcRepo      = "workspace.yaml:34:7"
	srcRepoKey   = "workspace.yaml:36:25"
	srcDenyCommt = "workspace.yaml:38:20"

	reasonVault = "credentials are never read by hand"
	reasonPush  = "pushes go through CI"
	reasonRm    = "removal needs sign-off"
	reasonCommt = "commits need review"
	reasonBak   = "operator only"
)

func demoMounts() []Mount {
	return []Mount{{Prefix: "/runbook"}, {Prefix: "/vault"}, {Prefix: "/repo"}, {Prefix: "/tmp"}}
}

func demoSpec() ProfileSpec {
	return ProfileSpec{
		Name:        "responder",
		Cwd:         "/runbook",
		Env:         map[string]string{"TEAM": "sre"},
		Allow:       []string{"cat", "ls", "echo", "cd", "rm", "grep", "git status"},
		AllowSource: srcAllow,
		Ask:         []Rule{{Reason: reasonRm, Commands: []string{"rm"}, Source: srcAskRm}},
		Deny: []Rule{
			{Reason: reasonVault, Paths: []string{"/vault/*"}, Source: srcDenyVault},
			{Reason: reasonPush, Commands: []string{"git push"}, Source: srcDenyPush},
		},
		Hide: []PathGroup{
			{Paths: []string{"/vault/internal"}, Source: srcHideInt},
			{Reason: reasonBak, Paths: []string{"/runbook/*.bak"}, Source: srcHideBak},
		},
		Show:     []ShowEntry{{Path: "/vault/public", Mode: "ro", Source: srcShowPub}},
		VarsHide: []string{"AWS_*", "GITHUB_TOKEN"},
		Mounts: map[string]MountRules{
			"/repo": {
				ReadOnly: true,
				Hide:     []PathGroup{{Paths: []string{"*.key"}, Source: srcRepoKey}},
				Deny:     []Rule{{Reason: reasonCommt, Commands: []string{"git commit"}, Source: srcDenyCommt}},
				Source:   srcRepo,
			},
		},
		Source: srcProfile,
	}
}

func mustCompile(t testing.TB, spec ProfileSpec, mounts []Mount) *Profile {
	t.Helper()
	p, err := Compile(spec, mounts)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return p
}

func demoProfile(t testing.TB) *Profile {
	t.Helper()
	return mustCompile(t, demoSpec(), demoMounts())
}

// cmd builds a Command whose operands are the given absolute paths.
func cmd(cwd string, argv []string, operands ...string) Command {
	c := Command{Argv: argv, Cwd: cwd}
	for _, o := range operands {
		c.Operands = append(c.Operands, Operand{Arg: o, Path: o})
	}
	return c
}

func words(s ...string) []string { return s }
