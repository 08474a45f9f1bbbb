package core

import (
	"context"
	"strings"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// G-8.4: a program stopped at its time-out refuses the command, and the
// agent reads that the policy timed out and which program, in the voice of
// the door it stopped at: the command, an operand (pre_ops), or an
// environment write (pre_session). Explain says the same as the run.
func TestPolicyTimeOutVoice(t *testing.T) {
	t.Parallel()
	programs := map[string]string{
		"guard.js": `function preCommand(ctx) { if (ctx.argv[1] === "slow") { for (;;) {} } return null; }
function preOps(ctx) { if (ctx.op.path.indexOf("slow") >= 0) { for (;;) {} } return null; }
function preSession(ctx) { if (ctx.write.key === "SLOW") { for (;;) {} } return null; }`,
		"guard.star": `def pre_command(ctx):
    if len(ctx["argv"]) > 1 and ctx["argv"][1] == "slow":
        while True:
            pass
def pre_ops(ctx):
    if "slow" in ctx["op"]["path"]:
        while True:
            pass
def pre_session(ctx):
    if ctx["write"]["key"] == "SLOW":
        while True:
            pass
`,
	}
	for name, code := range programs {
		engine, hooks := "javascript", [3]string{"preCommand", "preOps", "preSession"}
		if strings.HasSuffix(name, ".star") {
			engine, hooks = "starlark", [3]string{"pre_command", "pre_ops", "pre_session"}
		}
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			spec := gate.ProfileSpec{Name: "p", Cwd: "/work", Policy: &gate.PolicySpec{Engine: engine, Name: name, Code: code}}
			ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/work", Files: map[string]string{"slow.txt": "x\n", "ok.txt": "fine\n"}}},
				WithProfiles(spec), WithDefaultProfile("p"))
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			why := func(hook string) string { return "policy " + name + " timed out: " + hook + " ran past 100ms" }
			tests := []struct {
				line, out, err string
				exit           int
				scope          string
			}{
				{"echo slow", "", "echo: " + why(hooks[0]) + "\n", 126, "command"},
				{"cat ok.txt slow.txt", "fine\n", "cat: slow.txt: " + why(hooks[1]) + "\n", 1, "operand"},
				{"SLOW=1; echo \"$?[${SLOW-unset}]\"", "1[unset]\n", "bash: SLOW: " + why(hooks[2]) + "\n", 0, "env"},
			}
			for _, tt := range tests {
				res := ws.Execute(context.Background(), tt.line)
				if res.Stdout != tt.out || res.Stderr != tt.err || res.ExitCode != tt.exit {
					t.Errorf("%s\ngot %q %q exit %d, want %q %q exit %d", tt.line, res.Stdout, res.Stderr, res.ExitCode, tt.out, tt.err, tt.exit)
				}
				if tt.scope == "operand" {
					continue // an op door's refusal reaches the command, not the line's records
				}
				if res.Refusal == nil || res.Refusal.Scope != tt.scope || res.Refusal.Policy != "policy:"+name || !res.Refusal.TimedOut() {
					t.Errorf("%s\nrefusal %+v", tt.line, res.Refusal)
				}
			}
			s, err := ws.DefaultSession()
			if err != nil {
				t.Fatal(err)
			}
			exps, err := s.Explain("echo slow")
			if err != nil || len(exps) != 1 || exps[0].Stderr != "echo: "+why(hooks[0])+"\n" || exps[0].ExitCode != 126 {
				t.Errorf("explain: %+v %v", exps, err)
			}
			if res := ws.Execute(context.Background(), "echo fine"); res.Stdout != "fine\n" {
				t.Errorf("after the time-outs: %+v", res)
			}
		})
	}
}
