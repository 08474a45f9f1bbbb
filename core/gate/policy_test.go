package gate_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// The pre_ops and pre_session program of these tests, in both languages.
var opsAndSession = twin{`
def pre_ops(ctx):
    op = ctx["op"]
    if op["write"] and op["path"].startswith("/repo/config/"):
        return {"deny": "config is frozen during the incident"}
    if op["name"] == "readdir" and op["prefix"] == "/logs":
        return "deny"
    if op["path"] == "/repo/ask.txt":
        return "ask"
    if op["path"] == "/repo/who.txt":
        return {"deny": ctx["command"] + " in " + ctx["cwd"] + " for " + ctx["session"]["agent_id"]}
    return None

def pre_session(ctx):
    w = ctx["write"]
    if w["verb"] == "export" and (w["key"].startswith("AWS_") or "_SECRET" in w["key"]):
        return {"deny": w["key"] + ": secrets are not exported into agent sessions"}
    if w["verb"] == "unset" and w["key"] == "PATH":
        return {"ask": "really?"}
    return None
`, `
function preOps(ctx) {
  var op = ctx.op;
  if (op.write && op.path.indexOf("/repo/config/") === 0) { return {deny: "config is frozen during the incident"}; }
  if (op.name === "readdir" && op.prefix === "/logs") { return "deny"; }
  if (op.path === "/repo/ask.txt") { return "ask"; }
  if (op.path === "/repo/who.txt") { return {deny: ctx.command + " in " + ctx.cwd + " for " + ctx.session.agent_id}; }
  return undefined;
}
function preSession(ctx) {
  var w = ctx.write;
  if (w.verb === "export" && (w.key.indexOf("AWS_") === 0 || w.key.indexOf("_SECRET") >= 0)) {
    return {deny: w.key + ": secrets are not exported into agent sessions"};
  }
  if (w.verb === "unset" && w.key === "PATH") { return {ask: "really?"}; }
  return null;
}
`}

// G-6.1, G-6.2, G-8.1: pre_ops judges every op the rules let through; its
// deny is a RefusedError carrying the reason and a record naming the hook.
func TestPreOps(t *testing.T) {
	t.Parallel()
	catWho := line("/repo", "cat who.txt", words("cat", "who.txt"), "who.txt")
	tests := []struct {
		name  string
		scope *gate.OpScope
		op    vfs.Op
		want  string // errKind
		hook  bool   // the refusal is the program's, from pre_ops
	}{
		{"G-8.1 silence lets an op pass", nil, vfs.Op{Name: vfs.OpOpen, Path: "/repo/README.md", Prefix: "/repo"}, "pass", false},
		{"G-8.1 reading frozen config passes", nil, vfs.Op{Name: vfs.OpOpen, Path: "/repo/config/creds.env", Prefix: "/repo"}, "pass", false},
		{"G-6.2 writing frozen config is refused with the reason", nil,
			vfs.Op{Name: vfs.OpOpen, Path: "/repo/config/new.env", Write: true, Create: true, Prefix: "/repo"}, "refused: " + reasonFrozen, true},
		{"G-6.2 a bare deny reads Permission denied", nil,
			vfs.Op{Name: vfs.OpReadDir, Path: "/logs", Prefix: "/logs"}, "refused: Permission denied", true},
		{"G-8.1 pre_ops cannot ask", nil, vfs.Op{Name: vfs.OpStat, Path: "/repo/ask.txt", Prefix: "/repo"}, "refused: {pre_ops} returned", true},
		{"G-8.2 pre_ops sees the command it serves", &gate.OpScope{Command: &catWho},
			vfs.Op{Name: vfs.OpOpen, Path: "/repo/who.txt", Prefix: "/repo"}, "refused: cat in /repo for agent-a", true},
		{"G-8.2 an op of no known command sees empty facts", nil,
			vfs.Op{Name: vfs.OpOpen, Path: "/repo/who.txt", Prefix: "/repo"}, "refused:  in  for ", true},
		{"G-4.5 rules come first: hidden stays missing", nil,
			vfs.Op{Name: vfs.OpOpen, Path: "/vault/internal/root.key", Write: true, Prefix: "/vault"}, "ENOENT", false},
		{"G-5.2 rules come first: read-only stays EROFS", nil,
			vfs.Op{Name: vfs.OpOpen, Path: "/logs/app.log", Write: true, Prefix: "/logs"}, "EROFS", false},
	}
	for _, engine := range engines {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				p, _ := compileGuarded(t, engine, opsAndSession.code(engine))
				err := p.Door(tt.scope).CheckOp(tt.op)
				got := errKind(err)
				want := strings.ReplaceAll(tt.want, "{pre_ops}", hookName(engine, "pre_ops"))
				if !strings.HasPrefix(got, want) {
					t.Fatalf("got %q, want %q", got, want)
				}
				if !tt.hook {
					return
				}
				var refused *vfs.RefusedError
				errors.As(err, &refused)
				rec, _ := refused.Detail.(*gate.Refusal)
				if rec == nil || rec.Hook != gate.HookPreOps || rec.Policy != "policy:"+programName(engine) ||
					rec.Path != tt.op.Path || rec.Kind != "deny" || rec.Rule != policySource {
					t.Errorf("record %+v, want a deny by pre_ops of policy:%s on %s", rec, programName(engine), tt.op.Path)
				}
			})
		}
	}
}

// G-6.2: through the VFS a pre_ops refusal is an error that prints
// "PATH: REASON" and is a permission error, so a utility speaks in its GNU
// voice (touch: cannot touch '/repo/config/new.env': REASON).
func TestPreOpsThroughTheVFS(t *testing.T) {
	t.Parallel()
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			p, fsys := compileGuarded(t, engine, opsAndSession.code(engine))
			view := fsys.View(p.Door(nil))
			_, err := view.OpenFile("/repo/config/new.env", os.O_WRONLY|os.O_CREATE, 0o644)
			var pathErr *fs.PathError
			if !errors.As(err, &pathErr) || pathErr.Path != "/repo/config/new.env" || pathErr.Err.Error() != reasonFrozen {
				t.Fatalf("error %v, want %s: %s", err, "/repo/config/new.env", reasonFrozen)
			}
			if !errors.Is(err, fs.ErrPermission) {
				t.Errorf("error %v is not a permission error", err)
			}
			if _, err := view.Open("/repo/config/creds.env"); err != nil {
				t.Errorf("reading the frozen config: %v", err)
			}
		})
	}
}

// G-8.1: pre_session judges environment writes; `export AWS_SECRET=x` is
// stopped with a message that says what and why.
func TestPreSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		w    gate.EnvWrite
		want string // "" = allowed, else the reason it holds
	}{
		{"G-8.1 export AWS_SECRET=x is stopped", gate.EnvWrite{Key: "AWS_SECRET", Value: "x", Verb: gate.EnvExport},
			"AWS_SECRET: secrets are not exported into agent sessions"},
		{"G-8.1 declare -x DB_SECRET_KEY is stopped", gate.EnvWrite{Key: "DB_SECRET_KEY", Value: "x", Verb: gate.EnvExport},
			"DB_SECRET_KEY: secrets are not exported into agent sessions"},
		{"G-8.1 a plain shell variable is fine", gate.EnvWrite{Key: "AWS_SECRET", Value: "x", Verb: gate.EnvSet}, ""},
		{"G-8.1 an ordinary export is fine", gate.EnvWrite{Key: "TEAM", Value: "sre", Verb: gate.EnvExport}, ""},
		{"G-8.1 pre_session cannot ask", gate.EnvWrite{Key: "PATH", Verb: gate.EnvUnset}, "returned"},
	}
	for _, engine := range engines {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				p, _ := compileGuarded(t, engine, opsAndSession.code(engine))
				w := tt.w
				w.Session, w.Line, w.Cwd = testSession, "export "+w.Key+"="+w.Value, "/repo"
				r := p.JudgeEnvWrite(w)
				switch {
				case tt.want == "" && r != nil:
					t.Errorf("refused: %+v", r)
				case tt.want == "":
				case r == nil:
					t.Errorf("allowed, want a refusal holding %q", tt.want)
				case !strings.Contains(r.Reason, tt.want) || r.Kind != "deny" || r.Hook != gate.HookPreSession ||
					r.Scope != gate.ScopeEnv || r.Policy != "policy:"+programName(engine) || r.Rule != policySource:
					t.Errorf("refusal %+v, want a pre_session deny holding %q", r, tt.want)
				}
			})
		}
	}
}

// decided is a coded policy that always says the same thing.
type decided struct {
	name string
	d    gate.Decision
}

func (p decided) Name() string                                 { return p.name }
func (p decided) PreCommand(gate.CommandContext) gate.Decision { return p.d }
func (p decided) PreOps(gate.OpContext) gate.Decision          { return p.d }
func (p decided) PreSession(gate.SessionContext) gate.Decision { return p.d }

func quiet(name string) decided            { return decided{name: name} }
func refuse(name, reason string) decided   { return decided{name: name, d: gate.Refuse(reason)} }
func question(name, reason string) decided { return decided{name: name, d: gate.Question(reason)} }

// answers is a program whose pre_command returns word, a literal both
// languages read alike.
func answers(word string) twin {
	return twin{"def pre_command(ctx):\n    return " + word + "\n", "function preCommand(ctx) { return " + word + "; }"}
}
func programDenies(reason string) twin { return answers(`{"deny": "` + reason + `"}`) }
func programAsks(reason string) twin   { return answers(`{"ask": "` + reason + `"}`) }
func programWord(word string) twin     { return answers(`"` + word + `"`) }

// policyOf names the engine's program where a want says {program}.
func policyOf(engine, want string) string {
	return strings.ReplaceAll(want, "{program}", "policy:"+programName(engine))
}

func verdictShort(v gate.Verdict) string {
	if v.Refusal == nil {
		return string(v.Outcome)
	}
	return fmt.Sprintf("%s/%s by %s: %s", v.Outcome, v.Refusal.Scope, v.Refusal.Policy, v.Refusal.Reason)
}

// G-8.6: the document's rules, every coded policy and the program are all
// consulted; the first deny wins; an ask is kept only while nothing refuses;
// an allow is no opinion.
func TestPolicyChain(t *testing.T) {
	t.Parallel()
	catToken := line("/repo", "cat /vault/aws.token README.md", words("cat", "/vault/aws.token", "README.md"), "/vault/aws.token", "README.md")
	rm := line("/repo", "rm README.md", words("rm", "README.md"), "README.md")
	push := line("/repo", "git push", words("git", "push"))
	tests := []struct {
		name    string
		cmd     gate.Command
		coded   []any
		program twin
		want    string
	}{
		{"coded deny beats a program ask", catReadme, []any{refuse("freeze", "coded says no")}, programAsks("program asks"),
			"deny/command by freeze: coded says no"},
		{"program deny beats a coded ask", catReadme, []any{question("review", "coded asks")}, programDenies("program says no"),
			"deny/command by {program}: program says no"},
		{"a coded ask stands while the program is silent", catReadme, []any{question("review", "coded asks")}, programWord("allow"),
			"ask/command by review: coded asks"},
		{"a program ask stands while the coded policy is silent", catReadme, []any{quiet("review")}, programAsks("program asks"),
			"ask/command by {program}: program asks"},
		{"the first ask is kept", catReadme, []any{question("review", "coded asks")}, programAsks("program asks"),
			"ask/command by review: coded asks"},
		{"the first coded deny wins", catReadme, []any{refuse("first", "one"), refuse("second", "two")}, programWord("allow"),
			"deny/command by first: one"},
		{"a policy never grants past a rule's deny", push, []any{quiet("review")}, programWord("allow"),
			"deny/command by profile:guarded: " + reasonPush},
		{"a rule's deny is the first deny", push, []any{refuse("freeze", "coded says no")}, programDenies("program says no"),
			"deny/command by profile:guarded: " + reasonPush},
		{"a program deny beats a rule's ask", rm, nil, programDenies("program says no"),
			"deny/command by {program}: program says no"},
		{"a rule's ask is kept before a program's", rm, []any{question("review", "coded asks")}, programAsks("program asks"),
			"ask/command by profile:guarded: " + reasonRm},
		{"an ask is dropped beside a rule's operand deny", catToken, nil, programAsks("program asks"),
			"deny/operand by profile:guarded: " + reasonVault},
		{"a rule's operand deny is the first deny", catToken, []any{refuse("freeze", "coded says no")}, programDenies("program says no"),
			"deny/operand by profile:guarded: " + reasonVault},
		{"a coded policy that panics denies", catReadme, []any{panics{}}, programWord("allow"),
			"deny/command by gate_test.panics: pre_command panicked: boom"},
	}
	for _, engine := range engines {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				p, _ := compileGuarded(t, engine, tt.program.code(engine), gate.WithPolicies(tt.coded...))
				if got, want := verdictShort(p.Judge(tt.cmd)), policyOf(engine, tt.want); got != want {
					t.Errorf("got  %q\nwant %q", got, want)
				}
			})
		}
	}
}

type panics struct{}

func (panics) PreCommand(gate.CommandContext) gate.Decision { panic("boom") }
