package git_test

import (
	"context"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// gitEnv is the fixed identity and clock every test line runs with, as
// the recorded fixtures do.
const gitEnv = "export GIT_AUTHOR_DATE='2024-05-01T12:00:00Z' GIT_COMMITTER_DATE='2024-05-01T12:00:00Z'; "

// world is a workspace with a memory mount /w (or the given mounts) and one
// session under profile p.
type world struct {
	t  *testing.T
	ws *core.Workspace
	s  *core.Session
}

func newWorld(t *testing.T, mounts []vfs.MountSpec, p gate.ProfileSpec) *world {
	t.Helper()
	if mounts == nil {
		mounts = []vfs.MountSpec{{Prefix: "/w", Files: map[string]string{
			".gitconfig": "[user]\n\tname = A U Thor\n\temail = author@example.com\n[init]\n\tdefaultBranch = main\n",
		}}}
	}
	p.Name = "t"
	if p.Cwd == "" {
		p.Cwd = "/w"
	}
	p.Env = map[string]string{"HOME": "/w", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
	ws, err := core.NewWorkspace(mounts, core.WithProfiles(p))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("t", core.Profile("t"))
	if err != nil {
		t.Fatal(err)
	}
	return &world{t: t, ws: ws, s: s}
}

// seedConfig is the identity the tests commit with.
var seedConfig = map[string]string{
	".gitconfig": "[user]\n\tname = A U Thor\n\temail = author@example.com\n[init]\n\tdefaultBranch = main\n",
}

// multiWorld is one workspace with several profiles, a session each, so
// one profile can write history another is judged against.
func multiWorld(t *testing.T, files map[string]string, profiles ...gate.ProfileSpec) map[string]*world {
	t.Helper()
	seed := map[string]string{}
	for k, v := range seedConfig {
		seed[k] = v
	}
	for k, v := range files {
		seed[k] = v
	}
	for i := range profiles {
		profiles[i].Cwd = "/w"
		profiles[i].Env = map[string]string{"HOME": "/w", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
	}
	ws, err := core.NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: seed}}, core.WithProfiles(profiles...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	out := map[string]*world{}
	for _, p := range profiles {
		s, err := ws.CreateSession("s-"+p.Name, core.Profile(p.Name))
		if err != nil {
			t.Fatal(err)
		}
		out[p.Name] = &world{t: t, ws: ws, s: s}
	}
	return out
}

// run executes a line and returns its stdout, stderr and exit code.
func (w *world) run(line string) (string, string, int) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := w.s.Execute(ctx, gitEnv+line)
	return res.Stdout, res.Stderr, res.ExitCode
}

// must runs a line that has to succeed.
func (w *world) must(line string) string {
	w.t.Helper()
	out, errOut, code := w.run(line)
	if code != 0 {
		w.t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", line, code, out, errOut)
	}
	return out
}
