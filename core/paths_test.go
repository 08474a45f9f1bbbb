package core

// Symlinks, command- and mount-scoped rules, renames and listings through
// whole sessions (issue 15, classes 2, 5 and 15): what the gate and the op
// door decide, seen as an agent sees it on every door.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

const pathsTestKey = "KEY-MATERIAL-4471"

// pathsTestWorkspace: /data/hid is hidden, /data/den denied, /data/team
// denied to ls alone, /repo denies find and rm to commands working in it,
// and a Starlark pre_command hook opens what `echo` names.
func pathsTestWorkspace(t *testing.T) *Session {
	t.Helper()
	mounts := []vfs.MountSpec{
		{Prefix: "/data", Files: map[string]string{
			"hid/key": pathsTestKey + "\n", "den/f": "denied\n", "team/readme": "team\n", "team/pub/notes": "notes\n",
			"plain.txt": "plain\n", "only/x.key": pathsTestKey + "\n",
		}},
		{Prefix: "/repo", Files: map[string]string{"x": "repo x\n", "sub/y": "repo y\n"}},
	}
	spec := gate.ProfileSpec{
		Name: "p",
		Cwd:  "/data",
		Hide: []gate.PathGroup{{Paths: []string{"/data/hid", "/data/**/*.key"}}},
		Deny: []gate.Rule{
			{Reason: "denied here", Paths: []string{"/data/den"}},
			{Reason: "no listing the team", Commands: []string{"ls"}, Paths: []string{"/data/team"}},
		},
		Mounts: map[string]gate.MountRules{"/repo": {Deny: []gate.Rule{
			{Reason: "the repo is not searched", Commands: []string{"find"}},
			{Reason: "nothing is removed from the repo", Commands: []string{"rm"}},
		}}},
		// The longest time-out allowed: the default 100 ms is wall time, which the race
		// detector on a busy machine can spend before the hook runs.
		Policy: &gate.PolicySpec{Engine: "starlark", Name: "peek.star", Timeout: int64(gate.MaxPolicyTimeout), Code: `
def pre_command(ctx):
    if ctx["command"] == "echo" and len(ctx["argv"]) > 1 and ctx["argv"][1].startswith("/tmp/"):
        p = ctx["argv"][1]
        if is_file(p):
            return {"deny": "read: " + open(p)}
        return {"deny": "not a file: " + p}
    return None
`},
	}
	ws, err := NewWorkspace(mounts, WithProfiles(spec))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("agent", Profile("p"))
	if err != nil {
		t.Fatal(err)
	}
	if res := s.Execute(context.Background(), "ln -s /data/hid/key /tmp/k; ln -s /data/hid /tmp/h; ln -s /data/gon/key /tmp/m; ln -s /data/gon /tmp/g"); res.ExitCode != 0 {
		t.Fatalf("laying links: %+v", res)
	}
	return s
}

// G-4.5, G-6.1a: a link into a hidden path answers every door exactly as a
// link to a path that does not exist: shell utilities, redirections, globs,
// cd, test, source, the policy engine's open() and the file operations.
func TestLinksIntoHiddenPathsAreMissingEverywhere(t *testing.T) {
	t.Parallel()
	s := pathsTestWorkspace(t)
	ctx := context.Background()
	lines := []string{
		"cat @", "cat < @", "head -c 3 @", "grep -c x @", "wc -c @", "stat -c %s @", "cp @ /tmp/copy",
		"cd @", "test -e @ && echo there || echo absent", "source @", "echo $(<@)", "ls @/*", "echo @/*",
		"readlink -f @", "realpath @", "find @", "echo @", "du @", "stat -L @",
	}
	for _, form := range lines {
		hidden, missing := strings.ReplaceAll(form, "@", "/tmp/k"), strings.ReplaceAll(form, "@", "/tmp/m")
		got, want := s.Execute(ctx, hidden), s.Execute(ctx, missing)
		gotText := strings.ReplaceAll(got.Stdout+got.Stderr, "/tmp/k", "LINK")
		wantText := strings.ReplaceAll(want.Stdout+want.Stderr, "/tmp/m", "LINK")
		if strings.Contains(got.Stdout+got.Stderr, pathsTestKey) || gotText != wantText || got.ExitCode != want.ExitCode {
			t.Errorf("%s\n  into hidden: exit %d %q\n  to missing:  exit %d %q", form, got.ExitCode, gotText, want.ExitCode, wantText)
		}
	}
	// Directories, through cd and globs.
	for _, pair := range [][2]string{{"cd /tmp/h && pwd", "cd /tmp/g && pwd"}, {"ls /tmp/h/", "ls /tmp/g/"}, {"cat /tmp/h/key", "cat /tmp/g/key"}} {
		got, want := s.Execute(ctx, pair[0]), s.Execute(ctx, pair[1])
		gotText := strings.ReplaceAll(got.Stdout+got.Stderr, "/tmp/h", "LINK")
		wantText := strings.ReplaceAll(want.Stdout+want.Stderr, "/tmp/g", "LINK")
		if gotText != wantText || got.ExitCode != want.ExitCode {
			t.Errorf("%s: %q (exit %d), as missing: %q (exit %d)", pair[0], gotText, got.ExitCode, wantText, want.ExitCode)
		}
	}
	// The Session's file operations (MCP's and REST's file tools).
	_, errHidden := s.ReadFile(ctx, "/tmp/k", FileWindow{})
	_, errMissing := s.ReadFile(ctx, "/tmp/m", FileWindow{})
	var fh, fm *FileError
	if !errors.As(errHidden, &fh) || !errors.As(errMissing, &fm) ||
		strings.ReplaceAll(fh.Stderr, "/tmp/k", "L") != strings.ReplaceAll(fm.Stderr, "/tmp/m", "L") {
		t.Errorf("read_file: into hidden %v, to missing %v", errHidden, errMissing)
	}
	if _, err := s.ListDir(ctx, "/tmp/h"); err == nil || strings.Contains(err.Error(), "key") {
		t.Errorf("list_dir of a link into a hidden directory: %v", err)
	}
}

// G-4.4, G-6.1a: a command-scoped rule holds wherever the command reaches
// the path: through a link, from a directory above it, after a cd.
func TestCommandScopedRulesFollowTheCommand(t *testing.T) {
	t.Parallel()
	s := pathsTestWorkspace(t)
	ctx := context.Background()
	for _, line := range []string{
		"ls /data/team", "ln -s /data/team /tmp/t; ls /tmp/t", "ls -R /data", "ls -R /tmp/t/", "cd /data/team && ls",
		"cd /tmp/t && ls pub", "ls /data/team/pub", "ln -s /data /tmp/d; ls -R /tmp/d/",
	} {
		res := s.Execute(ctx, line)
		if strings.Contains(res.Stdout, "readme") || strings.Contains(res.Stdout, "notes") {
			t.Errorf("%s listed the team: %q", line, res.Stdout)
		}
		if !strings.Contains(res.Stderr, "no listing the team") {
			t.Errorf("%s: stderr %q, want the rule's reason", line, res.Stderr)
		}
	}
	if res := s.Execute(ctx, "cat /tmp/t/readme; grep -r . /data/team"); res.ExitCode != 0 || !strings.Contains(res.Stdout, "team") {
		t.Errorf("other commands read the team: %+v", res)
	}
}

// G-5.3, G-6.1a: a mount's command rules hold for a command working in the
// mount however it got there: a cwd or an operand through a link (judged
// as the command, exit 126), or a walk down from above the mount (each op
// there refused).
func TestMountCommandRulesFollowTheCommand(t *testing.T) {
	t.Parallel()
	s := pathsTestWorkspace(t)
	ctx := context.Background()
	tests := []struct {
		line, stderr string
		exit         int
	}{
		{"ln -s /repo /tmp/r; cd /tmp/r && rm x", "rm: Permission denied\n", 126},
		{"ln -s /repo /tmp/r2; rm /tmp/r2/x", "rm: Permission denied\n", 126},
		{"ln -s /repo/sub /tmp/r3; find /tmp/r3/", "find: Permission denied\n", 126},
		{"cd /data; find / -name y", "find: '/repo': the repo is not searched\n", 1},
	}
	for _, tt := range tests {
		res := s.Execute(ctx, tt.line)
		if !strings.HasSuffix(res.Stderr, tt.stderr) || res.ExitCode != tt.exit || strings.Contains(res.Stdout, "/repo") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d ending %q", tt.line, res.ExitCode, res.Stdout, res.Stderr, tt.exit, tt.stderr)
		}
	}
	if res := s.Execute(ctx, "cat /repo/x"); res.ExitCode != 0 {
		t.Errorf("cat in the repo: %+v", res)
	}
}

// G-6.1a: renames of an anchor's ancestor are refused whole in mv's voice
// when they would carry protected content out from under its rule; moves
// the rules follow, and plain ones, succeed.
func TestRenamesKeepProtection(t *testing.T) {
	t.Parallel()
	s := pathsTestWorkspace(t)
	ctx := context.Background()
	tests := []struct {
		line, stdout, stderr string
		exit                 int
	}{
		{"mkdir -p /data/p/sub && mv /data/p /data/q && ls /data/q", "sub\n", "", 0},
		// only/x.key is hidden by /data/**/*.key, which still hides it.
		{"mv /data/only /data/only2 && ls -a /data/only2", ".\n..\n", "", 0},
		{"mv /data/den /data/den2", "", "mv: cannot stat '/data/den': denied here\n", 1},
		// ls may not list the team: moved, it could.
		{"mv /data/team /data/t2", "", "mv: cannot move '/data/team' to '/data/t2': Permission denied\n", 1},
		{"mv /data/team/pub /data/pub", "", "mv: cannot move '/data/team/pub' to '/data/pub': Permission denied\n", 1},
		// A hidden-only directory is neither "not empty" nor removed.
		{"rmdir /data/only2", "", "rmdir: failed to remove '/data/only2': Permission denied\n", 1},
	}
	for _, tt := range tests {
		res := s.Execute(ctx, tt.line)
		if res.Stdout != tt.stdout || res.Stderr != tt.stderr || res.ExitCode != tt.exit {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d %q %q", tt.line, res.ExitCode, res.Stdout, res.Stderr, tt.exit, tt.stdout, tt.stderr)
		}
	}
	// Now a deny anchored inside a directory the agent may rename.
	res := s.Execute(ctx, "mkdir -p /data/box && mv /data/den/f /data/box/f")
	if res.ExitCode == 0 {
		t.Fatalf("moved a denied file out: %+v", res)
	}
	res = s.Execute(ctx, "ln -s /data/hid /data/lnk; mv /data/lnk /data/lnk2 && cat /data/lnk2/key")
	if strings.Contains(res.Stdout, pathsTestKey) || res.Stderr != "cat: /data/lnk2/key: No such file or directory\n" {
		t.Errorf("a renamed link into the hidden dir: %+v", res)
	}
}

// G-4.5: the dry run an agent may ask for says of a hidden operand exactly
// what it says of a missing one, under a deny or not.
func TestExplainForAgentHiddenIsMissing(t *testing.T) {
	t.Parallel()
	s := pathsTestWorkspace(t)
	for _, pair := range [][2]string{
		{"cat /data/hid/key", "cat /data/gon/key"},
		{"cat /data/den/hx.key", "cat /data/den/nothere"},
		{"rm /data/hid/key", "rm /data/gon/key"},
		{"touch /data/hid/x", "touch /data/gon/x"},
		{"ls -la /data/only/x.key", "ls -la /data/only/y.txt"},
	} {
		hidden, err1 := s.ExplainForAgent(pair[0])
		missing, err2 := s.ExplainForAgent(pair[1])
		if err1 != nil || err2 != nil || len(hidden) != 1 || len(missing) != 1 {
			t.Fatalf("%q: %v %v", pair, err1, err2)
		}
		h, m := hidden[0], missing[0]
		h.Command, h.Argv, m.Command, m.Argv = "", nil, "", nil
		h.Stderr = strings.ReplaceAll(h.Stderr, pair[0][strings.IndexByte(pair[0], '/'):], "P")
		m.Stderr = strings.ReplaceAll(m.Stderr, pair[1][strings.IndexByte(pair[1], '/'):], "P")
		if h.Outcome != m.Outcome || h.ExitCode != m.ExitCode || h.Stderr != m.Stderr || (h.Refusal == nil) != (m.Refusal == nil) ||
			h.Reason != m.Reason || h.Rule != m.Rule || h.Operand != "" && m.Operand == "" {
			t.Errorf("%s explains as %+v, %s as %+v", pair[0], h, pair[1], m)
		}
	}
}

// G-6.1a: a hard link is a second name for the same content, so it is
// judged as a rename that keeps the old name: a file under a hidden, denied,
// asked, command-scoped or read-only path never gets a name in an open path,
// a directory is never linked, and a link out of a read-only mount is
// refused. Links between open names work and share their content.
func TestHardLinksKeepProtection(t *testing.T) {
	t.Parallel()
	mounts := []vfs.MountSpec{
		{Prefix: "/data", Files: map[string]string{
			"hid/key": pathsTestKey + "\n", "den/f": "denied\n", "asked/f": "asked\n", "team/readme": "team\n",
			"vault/ro/f": "read only\n", "open/plain": "plain\n", "only/x.key": pathsTestKey + "\n",
		}},
		{Prefix: "/ro", ReadOnly: true, Files: map[string]string{"f": "ro\n"}},
	}
	spec := gate.ProfileSpec{
		Name: "p",
		Cwd:  "/data",
		Hide: []gate.PathGroup{{Paths: []string{"/data/hid", "/data/**/*.key", "/data/vault"}}},
		Show: []gate.ShowEntry{{Path: "/data/vault/ro", Mode: "ro"}},
		Deny: []gate.Rule{
			{Reason: "denied here", Paths: []string{"/data/den"}},
			{Reason: "no reading the team", Commands: []string{"head"}, Paths: []string{"/data/team"}},
		},
		Ask: []gate.Rule{{Reason: "asked here", Paths: []string{"/data/asked"}}},
	}
	ws, err := NewWorkspace(mounts, WithProfiles(spec), WithAskTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("agent", Profile("p"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tests := []struct {
		line, stderr string // stderr: what it must contain
	}{
		{"ln /data/hid/key /data/open/k", "ln: failed to access '/data/hid/key': No such file or directory\n"},
		{"ln /data/den/f /data/open/k", "denied here"},
		{"ln /data/asked/f /data/open/k", "asked here"},
		// head may not read the team: under a new name it could.
		{"ln /data/team/readme /data/open/k", "Permission denied"},
		// Read-only where it is, writable under the new name.
		{"ln /data/vault/ro/f /data/open/k", "Permission denied"},
		// Hidden by its name's pattern wherever it lives.
		{"ln /data/only/x.key /data/open/k", "No such file or directory"},
		{"ln /ro/f /data/open/k", "Invalid cross-device link"},
		{"ln /ro/f /ro/g", "Read-only file system"},
		{"ln /data/open /data/o2", "ln: /data/open: hard link not allowed for directory\n"},
		// A variable the gate only sees at run time meets the op door.
		{"D=/data/d; ln ${D}en/f /data/open/k", "denied here"},
	}
	for _, tt := range tests {
		res := s.Execute(ctx, tt.line)
		if res.ExitCode == 0 || !strings.Contains(res.Stderr, tt.stderr) || strings.Contains(res.Stdout+res.Stderr, pathsTestKey) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want a failure saying %q", tt.line, res.ExitCode, res.Stdout, res.Stderr, tt.stderr)
		}
		if res := s.Execute(ctx, "ls /data/open /ro"); strings.Contains(res.Stdout, "k\n") || strings.Contains(res.Stdout, "g\n") || strings.Contains(res.Stdout, "o2") {
			t.Fatalf("after %s: %q", tt.line, res.Stdout)
		}
	}
	// Links that keep or raise the protection, and plain ones, work.
	res := s.Execute(ctx, "ln /data/open/plain /data/open/p2 && echo more >> /data/open/p2 && cat /data/open/plain && stat -c %h /data/open/plain && rm /data/open/plain && cat /data/open/p2")
	if res.ExitCode != 0 || res.Stdout != "plain\nmore\n2\nplain\nmore\n" {
		t.Errorf("a plain hard link: %+v", res)
	}
	if res := s.Execute(ctx, "ln /data/open/p2 /data/den/p3"); res.ExitCode == 0 {
		t.Errorf("linked into a denied directory: %+v", res)
	}
}

// G-9.5, G-6.1a: a human who let cat read an asked file has not let its
// content out from under the ask: ln of it in the same line is asked on
// its own, and refused when the human says no; a line the human allowed
// makes its link, as mv's allowed move carries the file.
func TestHardLinkAfterAnAnsweredAskKeepsTheAsk(t *testing.T) {
	t.Parallel()
	mounts := []vfs.MountSpec{{Prefix: "/data", Files: map[string]string{"asked/f": "asked\n", "open/plain": "plain\n"}}}
	spec := gate.ProfileSpec{Name: "p", Cwd: "/data", Ask: []gate.Rule{{Reason: "asked here", Paths: []string{"/data/asked"}}}}
	var asked []string
	onlyCatAndMine := func(_ context.Context, rec decisions.Record) (decisions.Answer, error) {
		asked = append(asked, rec.Command)
		if strings.HasPrefix(rec.Command, "cat ") || strings.Contains(rec.Command, "/data/open/allowed") {
			return decisions.Answer{Outcome: decisions.Allow, Note: "ok"}, nil
		}
		return decisions.Answer{Outcome: decisions.Deny, Note: "no"}, nil
	}
	ws, err := NewWorkspace(mounts, WithProfiles(spec), OnAsk(onlyCatAndMine))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("agent", Profile("p"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res := s.Execute(ctx, "F=/data/asked/f; cat $F && ln $F /data/open/k")
	if res.Stdout != "asked\n" || res.ExitCode == 0 || len(asked) != 2 {
		t.Errorf("ln after an allowed cat: %+v (asked %q)", res, asked)
	}
	if res := s.Execute(ctx, "ls /data/open"); res.Stdout != "plain\n" {
		t.Fatalf("the link was made: %q", res.Stdout)
	}
	if res := s.Execute(ctx, "ln /data/asked/f /data/open/allowed && cat /data/open/allowed"); res.ExitCode != 0 || res.Stdout != "asked\n" {
		t.Errorf("an allowed ln: %+v", res)
	}
}
