package gate_test

import (
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/gate/javascript"
	"gatehouse/core/gate/starlark"
	"gatehouse/core/vfs"
)

// The policy fixtures: a workspace whose repo holds a credential, a vault
// with a denied token and a hidden directory, and a read-only log mount.
const (
	policySource = "workspace.yaml:40:5"
	reasonFrozen = "config is frozen during the incident"
	credential   = "AWS_ACCESS_KEY_ID=AKIAEXAMPLE\n"
)

// engines are the two program languages (G-8.3); every program test runs
// in both.
var engines = []string{"starlark", "javascript"}

// withEngines offers both languages to Compile, as core does.
var withEngines = gate.WithEngines(starlark.Engine{}, javascript.Engine{})

// The rules' reasons, as in the gate's own tests.
const (
	reasonVault = "credentials are never read by hand"
	reasonPush  = "pushes go through CI"
	reasonRm    = "removal needs sign-off"
)

func words(s ...string) []string { return s }

// Ops as the VFS builds them.
func read(p string) vfs.Op  { return vfs.Op{Name: vfs.OpOpen, Path: p} }
func write(p string) vfs.Op { return vfs.Op{Name: vfs.OpOpen, Path: p, Write: true} }

func errKind(err error) string {
	var refused *vfs.RefusedError
	switch {
	case err == nil:
		return "pass"
	case errors.Is(err, vfs.ErrHidden):
		return "ENOENT"
	case errors.Is(err, syscall.EACCES):
		return "EACCES"
	case errors.Is(err, syscall.EROFS):
		return "EROFS"
	case errors.As(err, &refused):
		return "refused: " + refused.Reason
	}
	return "unexpected: " + err.Error()
}

// twin is one program written in both languages, meaning the same.
type twin struct{ star, js string }

func (tw twin) code(engine string) string {
	if engine == "starlark" {
		return tw.star
	}
	return tw.js
}

// programName is how records name the program: policy:guard.star.
func programName(engine string) string {
	if engine == "starlark" {
		return "guard.star"
	}
	return "guard.js"
}

// hookName is a hook as the engine's programs spell it.
func hookName(engine, starlarkName string) string {
	if engine == "starlark" {
		return starlarkName
	}
	for i, name := range []string{"pre_command", "pre_ops", "pre_session"} {
		if name == starlarkName {
			return []string{"preCommand", "preOps", "preSession"}[i]
		}
	}
	return starlarkName
}

func policyFS(tb testing.TB) *vfs.VFS {
	tb.Helper()
	fsys, err := vfs.New([]vfs.MountSpec{
		{Prefix: "/repo", Files: map[string]string{
			"README.md":        "Incident runbook\n",
			"config/creds.env": credential,
			"config/app.yaml":  "replicas: 3\n",
		}},
		{Prefix: "/vault", Files: map[string]string{
			"aws.token":                "AKIA-EXAMPLE\n",
			"internal/root.key":        "-----BEGIN PRIVATE KEY-----\n",
			"break-glass/procedure.md": "call the security lead first\n",
		}},
		{Prefix: "/logs", ReadOnly: true, Files: map[string]string{"app.log": "12:00 INFO start\n"}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { fsys.Close() })
	return fsys
}

func gateMounts(fsys *vfs.VFS) []gate.Mount {
	var out []gate.Mount
	for _, m := range fsys.Mounts() {
		out = append(out, gate.Mount{Prefix: m.Prefix, ReadOnly: m.ReadOnly})
	}
	return out
}

// guardedSpec is a profile with rules on every axis beside a program.
func guardedSpec(engine, code string, timeout time.Duration) gate.ProfileSpec {
	spec := gate.ProfileSpec{
		Name: "guarded",
		Cwd:  "/repo",
		Deny: []gate.Rule{
			{Reason: reasonVault, Paths: []string{"/vault/aws.token"}, Source: "workspace.yaml:20:11"},
			{Reason: reasonPush, Commands: []string{"git push"}, Source: "workspace.yaml:21:11"},
		},
		Ask: []gate.Rule{
			{Reason: reasonRm, Commands: []string{"rm"}, Source: "workspace.yaml:23:11"},
			{Reason: "break-glass needs a second pair of eyes", Paths: []string{"/vault/break-glass/*"}, Source: "workspace.yaml:24:11"},
		},
		Hide: []gate.PathGroup{{Paths: []string{"/vault/internal"}, Source: "workspace.yaml:25:14"}},
	}
	if engine != "" {
		spec.Policy = &gate.PolicySpec{Engine: engine, Code: code, Name: programName(engine),
			Source: policySource, Timeout: int64(timeout)}
	}
	return spec
}

// patientTimeout is the per-call time-out of programs in tests that are not
// about time-outs: the longest a document may set. Time-outs count a call's
// own CPU time, so a starved call is not denied, but the wall backstop is
// only a second past the time-out, and the race detector slows every call.
const patientTimeout = gate.MaxPolicyTimeout

// compileGuarded compiles guardedSpec over policyFS, with open() wired, and
// a time-out no test will meet (see patientTimeout).
func compileGuarded(tb testing.TB, engine, code string, opts ...gate.CompileOption) (*gate.Profile, *vfs.VFS) {
	tb.Helper()
	return compileGuardedTimeout(tb, engine, code, patientTimeout, opts...)
}

func compileGuardedTimeout(tb testing.TB, engine, code string, timeout time.Duration, opts ...gate.CompileOption) (*gate.Profile, *vfs.VFS) {
	tb.Helper()
	fsys := policyFS(tb)
	p, err := gate.Compile(guardedSpec(engine, code, timeout), gateMounts(fsys), append(opts, withEngines, gate.WithFS(fsys))...)
	if err != nil {
		tb.Fatal(err)
	}
	return p, fsys
}

// session is the session every test command runs in.
var testSession = gate.SessionInfo{ID: "s-0123456789ab", AgentID: "agent-a", Profile: "guarded"}

// line makes a command as the shell would hand it over: argv, the cwd,
// the operands resolved against it, the line and the session.
func line(cwd, text string, argv []string, operands ...string) gate.Command {
	c := gate.Command{Argv: argv, Cwd: cwd, Line: text, Session: testSession}
	for _, o := range operands {
		abs := o
		if !strings.HasPrefix(o, "/") {
			abs = cwd + "/" + o
		}
		c.Operands = append(c.Operands, gate.Operand{Arg: o, Path: abs})
	}
	return c
}

// verdictText summarises what a user notices of a verdict.
func verdictText(v gate.Verdict) string {
	if v.Refusal == nil {
		return string(v.Outcome)
	}
	r := v.Refusal
	return strings.Join([]string{string(v.Outcome), r.Scope, r.Policy, r.Hook, r.Reason}, " | ")
}
