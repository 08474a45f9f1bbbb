package gate_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/gate/javascript"
)

var catReadme = line("/repo", "cat README.md", words("cat", "README.md"), "README.md")

// G-8.1, G-8.4: what a pre_command hook returns, in both engines.
func TestPreCommandAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		program twin
		want    string // verdictText without the policy, which names the engine's file
		// wantHas, when set, is what the reason must contain instead.
		wantHas map[string]string
	}{
		{"G-8.1 None is no opinion",
			twin{"def pre_command(ctx):\n    return None\n", "function preCommand(ctx) { return null; }"}, "run", nil},
		{"G-8.1 falling off the end is no opinion",
			twin{"def pre_command(ctx):\n    pass\n", "function preCommand(ctx) {}"}, "run", nil},
		{"G-8.1 allow is no opinion",
			twin{"def pre_command(ctx):\n    return \"allow\"\n", "function preCommand(ctx) { return \"allow\"; }"}, "run", nil},
		{"G-8.1 a bare deny refuses the command",
			twin{"def pre_command(ctx):\n    return \"deny\"\n", "function preCommand(ctx) { return \"deny\"; }"},
			"deny | command | pre_command | ", nil},
		{"G-8.1 deny with a reason",
			twin{"def pre_command(ctx):\n    return {\"deny\": \"no reading during the freeze\"}\n",
				"function preCommand(ctx) { return {deny: \"no reading during the freeze\"}; }"},
			"deny | command | pre_command | no reading during the freeze", nil},
		{"G-8.1 a bare ask",
			twin{"def pre_command(ctx):\n    return \"ask\"\n", "function preCommand(ctx) { return \"ask\"; }"},
			"ask | command | pre_command | ", nil},
		{"G-8.1 ask with a reason",
			twin{"def pre_command(ctx):\n    return {\"ask\": \"a human reads this first\"}\n",
				"function preCommand(ctx) { return {ask: \"a human reads this first\"}; }"},
			"ask | command | pre_command | a human reads this first", nil},
		{"G-8.4 an unknown word denies",
			twin{"def pre_command(ctx):\n    return \"maybe\"\n", "function preCommand(ctx) { return \"maybe\"; }"},
			"", map[string]string{"starlark": `pre_command returned "maybe"; want None, "allow"`, "javascript": `preCommand returned "maybe"; want undefined, null, "allow"`}},
		{"G-8.4 a number denies",
			twin{"def pre_command(ctx):\n    return 42\n", "function preCommand(ctx) { return 42; }"},
			"", map[string]string{"starlark": "pre_command returned 42", "javascript": "preCommand returned 42"}},
		{"G-8.4 a dict of two answers denies",
			twin{"def pre_command(ctx):\n    return {\"deny\": \"a\", \"ask\": \"b\"}\n", "function preCommand(ctx) { return {deny: \"a\", ask: \"b\"}; }"},
			"", map[string]string{"starlark": `pre_command returned {"deny": "a", "ask": "b"}`, "javascript": `preCommand returned {"ask":"b","deny":"a"}`}},
		{"G-8.4 a reason that is not a string denies",
			twin{"def pre_command(ctx):\n    return {\"deny\": 7}\n", "function preCommand(ctx) { return {deny: 7}; }"},
			"", map[string]string{"starlark": `pre_command returned {"deny": 7}`, "javascript": `preCommand returned {"deny":7}`}},
		{"G-8.4 {allow: ...} is not an answer",
			twin{"def pre_command(ctx):\n    return {\"allow\": \"x\"}\n", "function preCommand(ctx) { return {allow: \"x\"}; }"},
			"", map[string]string{"starlark": `pre_command returned {"allow": "x"}`, "javascript": `preCommand returned {"allow":"x"}`}},
		{"G-8.4 an exception denies with its message",
			twin{"def pre_command(ctx):\n    fail(\"cannot judge \" + ctx[\"command\"])\n",
				"function preCommand(ctx) { throw new Error(\"cannot judge \" + ctx.command); }"},
			"", map[string]string{"starlark": "pre_command: fail: cannot judge cat", "javascript": "preCommand: Error: cannot judge cat"}},
		{"G-8.4 a runtime error denies with its message",
			twin{"def pre_command(ctx):\n    return ctx[\"nope\"]\n", "function preCommand(ctx) { return ctx.nope.deeper; }"},
			"", map[string]string{"starlark": `pre_command: key "nope" not in dict`, "javascript": "preCommand: TypeError: Cannot read property 'deeper' of undefined"}},
	}
	for _, engine := range engines {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				p, _ := compileGuarded(t, engine, tt.program.code(engine))
				v := p.Judge(catReadme)
				if tt.wantHas != nil {
					want := tt.wantHas[engine]
					if v.Outcome != gate.Deny || v.Refusal == nil || !strings.Contains(v.Refusal.Reason, want) {
						t.Fatalf("got %s, want a deny whose reason holds %q", verdictText(v), want)
					}
					return
				}
				got := verdictText(v)
				if v.Refusal != nil {
					if v.Refusal.Policy != "policy:"+programName(engine) || v.Refusal.Rule != policySource {
						t.Errorf("record names policy %q rule %q, want policy:%s rule %s",
							v.Refusal.Policy, v.Refusal.Rule, programName(engine), policySource)
					}
					got = strings.Replace(got, " | "+v.Refusal.Policy, "", 1)
				}
				if got != tt.want {
					t.Errorf("got %q, want %q", got, tt.want)
				}
			})
		}
	}
}

// G-8.4: a hook that runs past its time-out denies, and the profile keeps
// working for the next command.
func TestPreCommandTimeOut(t *testing.T) {
	t.Parallel()
	program := twin{
		"def pre_command(ctx):\n    if ctx[\"command\"] == \"cat\":\n        while True:\n            pass\n    return None\n",
		"function preCommand(ctx) { if (ctx.command === \"cat\") { for (;;) {} } return null; }",
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			// The time-out covers the top level too, which a machine busy
			// with the race detector can starve for tens of milliseconds:
			// a second is short enough to wait and long enough for that.
			p, _ := compileGuardedTimeout(t, engine, program.code(engine), time.Second)
			start := time.Now()
			v := p.Judge(catReadme)
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("the time-out took %v", took)
			}
			want := "policy " + programName(engine) + " timed out: " + hookName(engine, "pre_command") + " ran past 1s"
			if v.Outcome != gate.Deny || v.Refusal.Reason != want || v.Refusal.Hook != gate.HookPreCommand {
				t.Errorf("got %s, want a deny %q", verdictText(v), want)
			}
			if v := p.Judge(line("/repo", "ls", words("ls"))); v.Outcome != gate.Run {
				t.Errorf("after a time-out, ls = %s, want run", verdictText(v))
			}
		})
	}
}

// G-8.4: the default time-out is 100 ms per call.
func TestPolicyDefaultTimeOut(t *testing.T) {
	t.Parallel()
	p, _ := compileGuardedTimeout(t, "starlark", "def pre_command(ctx):\n    while True:\n        pass\n", 0)
	if v := p.Judge(catReadme); v.Refusal == nil || v.Refusal.Reason != "policy guard.star timed out: pre_command ran past 100ms" {
		t.Errorf("got %s", verdictText(v))
	}
}

// G-8.2: ctx carries the line's facts, as native values, the same in both
// engines.
func TestPolicyContext(t *testing.T) {
	t.Parallel()
	program := twin{`
def pre_command(ctx):
    s = ctx["session"]
    return {"deny": "|".join([ctx["command"], " ".join(ctx["argv"]), ctx["line"], ",".join(ctx["paths"]),
        ctx["cwd"], s["id"], s["agent_id"], s["profile"], ctx["mounts"]["/logs"], ctx["mounts"]["/repo"],
        str(len(ctx["mounts"]))])}
`, `
function preCommand(ctx) {
  var s = ctx.session;
  return {deny: [ctx.command, ctx.argv.join(" "), ctx.line, ctx.paths.join(","),
    ctx.cwd, s.id, s.agent_id, s.profile, ctx.mounts["/logs"], ctx.mounts["/repo"],
    String(Object.keys(ctx.mounts).length)].join("|")};
}
`}
	cmd := line("/repo", "cat -n README.md config/creds.env | wc -l",
		words("cat", "-n", "README.md", "config/creds.env"), "README.md", "config/creds.env")
	want := "cat|cat -n README.md config/creds.env|cat -n README.md config/creds.env | wc -l|" +
		"/repo/README.md,/repo/config/creds.env|/repo|s-0123456789ab|agent-a|guarded|ro|rw|5"
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			p, _ := compileGuarded(t, engine, program.code(engine))
			if v := p.Judge(cmd); v.Refusal == nil || v.Refusal.Reason != want {
				t.Errorf("ctx read as %q\nwant        %q", v.Refusal.Reason, want)
			}
		})
	}
}

// G-8.2: a Starlark ctx is a dict to the hook in every way it can look at
// one, although argv and paths are filled in only when read (G-14).
func TestStarlarkCtxIsADict(t *testing.T) {
	t.Parallel()
	p, _ := compileGuarded(t, "starlark", `
def pre_command(ctx):
    return {"deny": "|".join([str(x) for x in [
        type(ctx), ",".join(ctx.keys()), "argv" in ctx, "nope" in ctx, len(ctx),
        len(ctx.get("paths")), [k for k in ctx][1], str(ctx).count("README"),
        dict(ctx)["argv"][0], len(ctx.items()), ctx["argv"] == ctx.get("argv"),
        ctx.get("nope", "absent"), ctx["paths"][0],
    ]])}
`)
	cmd := line("/repo", "cat README.md", words("cat", "README.md"), "README.md")
	want := "dict|command,argv,line,paths,cwd,session,mounts|True|False|7|1|argv|3|cat|7|True|absent|/repo/README.md"
	if v := p.Judge(cmd); v.Refusal == nil || v.Refusal.Reason != want {
		t.Errorf("ctx read as %q\nwant        %q", v.Refusal.Reason, want)
	}
	// Read only through ctx["argv"] first, then whole: one order either way.
	p, _ = compileGuarded(t, "starlark", `
def pre_command(ctx):
    n = len(ctx["argv"])
    return {"deny": ",".join(ctx.keys()) + "|" + str(n)}
`)
	if v := p.Judge(cmd); v.Refusal == nil || v.Refusal.Reason != "command,argv,line,paths,cwd,session,mounts|2" {
		t.Errorf("ctx keys after a read: %+v", v.Refusal)
	}
}

// G-8.3: open() reads what a line names, through the op door's rules, and
// past the program's own pre_ops.
func TestPolicyOpen(t *testing.T) {
	t.Parallel()
	program := twin{`
def pre_command(ctx):
    for p in ctx["paths"]:
        if is_file(p) and "AKIA" in open(p):
            return {"ask": p + " looks like it holds a credential"}
    if ctx["command"] == "show":
        return {"deny": open(ctx["argv"][1])}
    return None

def pre_ops(ctx):
    return {"deny": "every op is refused to the session"}
`, `
function preCommand(ctx) {
  for (var i = 0; i < ctx.paths.length; i++) {
    var p = ctx.paths[i];
    if (isFile(p) && open(p).indexOf("AKIA") >= 0) {
      return {ask: p + " looks like it holds a credential"};
    }
  }
  if (ctx.command === "show") { return {deny: open(ctx.argv[1])}; }
  return null;
}
function preOps(ctx) { return {deny: "every op is refused to the session"}; }
`}
	tests := []struct {
		name string
		cmd  gate.Command
		want string
	}{
		{"G-8.3 a file holding a credential asks",
			line("/repo", "cat config/creds.env", words("cat", "config/creds.env"), "config/creds.env"),
			"ask | command | pre_command | /repo/config/creds.env looks like it holds a credential"},
		{"G-8.3 an ordinary file runs", catReadme, "run"},
		{"G-8.3 a directory is not a file to open", line("/repo", "ls config", words("ls", "config"), "config"), "run"},
		{"G-8.3 open of a relative path resolves against the cwd",
			line("/repo", "show config/app.yaml", words("show", "config/app.yaml")),
			"deny | command | pre_command | replicas: 3\n"},
		{"G-4.5 open of a hidden path fails like a missing one",
			line("/repo", "show /vault/internal/root.key", words("show", "/vault/internal/root.key")),
			"deny | command | pre_command | {pre_command}: open: /vault/internal/root.key: No such file or directory"},
		{"G-4.5 open of a missing path, for comparison",
			line("/repo", "show /vault/nothing.key", words("show", "/vault/nothing.key")),
			"deny | command | pre_command | {pre_command}: open: /vault/nothing.key: No such file or directory"},
		{"G-8.3 open of a denied path fails with the rule's reason",
			line("/repo", "show /vault/aws.token", words("show", "/vault/aws.token")),
			"deny | command | pre_command | {pre_command}: open: /vault/aws.token: " + reasonVault},
	}
	for _, engine := range engines {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				p, _ := compileGuarded(t, engine, program.code(engine))
				v := p.Judge(tt.cmd)
				got := verdictText(v)
				if v.Refusal != nil {
					got = strings.Replace(got, " | "+v.Refusal.Policy, "", 1)
				}
				// A thrown JavaScript error reads "Error: MESSAGE".
				prefix := hookName(engine, "pre_command")
				if engine == "javascript" {
					prefix += ": Error"
				}
				want := strings.ReplaceAll(tt.want, "{pre_command}", prefix)
				if got != want {
					t.Errorf("got  %q\nwant %q", got, want)
				}
			})
		}
	}
}

// G-8.4: a program that defines none of the hooks fails closed.
func TestPolicyWithoutHooksFailsClosed(t *testing.T) {
	t.Parallel()
	program := twin{"def helper(ctx):\n    return \"deny\"\n", "function helper(ctx) { return \"deny\"; }"}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			p, fsys := compileGuarded(t, engine, program.code(engine))
			for _, cmd := range []gate.Command{catReadme, line("/repo", "ls", words("ls")), line("/", "echo hi", words("echo", "hi"))} {
				v := p.Judge(cmd)
				if v.Outcome != gate.Deny || v.Refusal.Reason != gate.NoHooksReason || v.Refusal.Policy != "policy:"+programName(engine) {
					t.Errorf("%q: got %s, want a deny %q", cmd.Argv, verdictText(v), gate.NoHooksReason)
				}
			}
			// Silence at the other doors: only commands are refused.
			if _, err := fsys.View(p.Door(nil)).Stat("/repo/README.md"); err != nil {
				t.Errorf("stat through the door: %v", err)
			}
			if r := p.JudgeEnvWrite(gate.EnvWrite{Key: "X", Value: "1", Verb: gate.EnvSet}); r != nil {
				t.Errorf("env write refused: %+v", r)
			}
		})
	}
}

// G-8.3: one compiled program serves many goroutines at once, each call
// seeing its own ctx.
func TestPolicyConcurrentCalls(t *testing.T) {
	t.Parallel()
	program := twin{
		"def pre_command(ctx):\n    return {\"deny\": ctx[\"argv\"][1]}\n",
		"function preCommand(ctx) { return {deny: ctx.argv[1]}; }",
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			p, _ := compileGuarded(t, engine, program.code(engine))
			var wg sync.WaitGroup
			errs := make(chan string, 8)
			for g := range 8 {
				wg.Go(func() {
					for i := range 50 {
						word := fmt.Sprintf("g%d-%d", g, i)
						if v := p.Judge(line("/repo", "echo "+word, words("echo", word))); v.Refusal == nil || v.Refusal.Reason != word {
							errs <- fmt.Sprintf("echo %s judged as %s", word, verdictText(v))
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
		})
	}
}

// G-1.1: a program that cannot load is a load error naming where the
// policy block was written, and nothing starts.
func TestPolicyProgramLoadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, engine, code, want string
	}{
		{"starlark syntax error", "starlark", "def pre_command(ctx)\n    return None\n", "guard.star:2:1: got newline, want ':'"},
		{"javascript syntax error", "javascript", "function preCommand(ctx) { return ; ) }", "guard.js: Line 1:37 Unexpected token )"},
		{"starlark hook that is not a function", "starlark", "pre_command = 3\n", "pre_command is a int, not a function"},
		{"javascript hook that is not a function", "javascript", "var preOps = 3;", "preOps is not a function"},
		{"starlark top level that fails", "starlark", "x = 1 // 0\n", "floored division by zero"},
		{"javascript top level that throws", "javascript", "throw new Error(\"no\");", "Error: no"},
		{"starlark top level that never ends", "starlark", "def f():\n    while True:\n        pass\nf()\n", "the top level timed out after 100ms"},
		{"javascript top level that never ends", "javascript", "for (;;) {}", "the top level timed out after 100ms"},
		{"an unknown engine", "python", "pass", `engine must be starlark or javascript, got "python"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := policyFS(t)
			timeout := patientTimeout // only the programs that never end meet it
			if strings.Contains(tt.want, "timed out") {
				timeout = 0 // the default, which the message names
			}
			spec := guardedSpec(tt.engine, tt.code, timeout)
			spec.Policy.Name = "guard.star"
			if tt.engine == "javascript" {
				spec.Policy.Name = "guard.js"
			}
			_, err := gate.Compile(spec, gateMounts(fsys), withEngines, gate.WithFS(fsys))
			if err == nil {
				t.Fatal("compiled")
			}
			if !strings.HasPrefix(err.Error(), policySource+": ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to start with %s and hold %q", err, policySource, tt.want)
			}
		})
	}
}

// G-8.3: the gate offers the languages it was given, no others: a program
// in a language Compile was not offered is the document's error, and the
// last engine offered under a name is the one used.
func TestPolicyEnginesArePassedIn(t *testing.T) {
	t.Parallel()
	fsys := policyFS(t)
	spec := guardedSpec("starlark", "def pre_command(ctx):\n    return None\n", patientTimeout)
	tests := []struct {
		name string
		opts []gate.CompileOption
		want string
	}{
		{"no engine", nil, `engine "starlark" is not available: no policy engine was given to Compile`},
		{"another engine", []gate.CompileOption{gate.WithEngines(javascript.Engine{})}, `engine must be javascript, got "starlark"`},
		{"the engine replaced", []gate.CompileOption{withEngines, gate.WithEngines(refusingEngine{})}, "no starlark here"},
	}
	for _, tt := range tests {
		_, err := gate.Compile(spec, gateMounts(fsys), append(tt.opts, gate.WithFS(fsys))...)
		if err == nil || !strings.HasPrefix(err.Error(), policySource+": ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := gate.Compile(spec, gateMounts(fsys), withEngines, gate.WithFS(fsys)); err != nil {
		t.Errorf("with both engines: %v", err)
	}
}

// refusingEngine is a "starlark" that loads nothing.
type refusingEngine struct{}

func (refusingEngine) Name() string { return "starlark" }
func (refusingEngine) Load(string, *gate.ProgramEnv) (gate.Program, gate.Hooks, error) {
	return nil, gate.Hooks{}, errors.New("no starlark here")
}
