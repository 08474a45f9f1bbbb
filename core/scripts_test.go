package core

import (
	"context"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// A script run by path runs as the nested line `bash PATH ARGS` under the
// same gate: the file is looked at and read through the op door, and every
// command inside it is judged (G-3.5, G-4.5, G-6.2, G-9.6).
func TestScriptByPath(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"ok.sh":          "#!/bin/bash\necho \"ok $1\"\n",
		"calls.sh":       "#!/bin/sh\necho start\nsort x\necho end\n",
		"rm.sh":          "#!/bin/bash\nrm -f victim\n",
		"victim":         "v\n",
		"secret/run.sh":  "#!/bin/bash\necho secret\n",
		"private/run.sh": "#!/bin/bash\necho private\n",
	}
	withBash := gate.ProfileSpec{
		Name:  "scripts",
		Cwd:   "/w",
		Allow: []string{"bash", "sh", "echo", "cat", "rm"},
		Ask:   []gate.Rule{{Reason: "removal needs sign-off", Commands: []string{"rm"}}},
		Deny:  []gate.Rule{{Reason: "secrets stay shut", Paths: []string{"/w/secret"}}},
		Hide:  []gate.PathGroup{{Paths: []string{"/w/private"}}},
	}
	noBash := gate.ProfileSpec{Name: "nobash", Cwd: "/w", Allow: []string{"echo", "cat"}}
	cases := []struct {
		name, profile, line string
		wantOut, wantErr    string
		wantExit            int
	}{
		{name: "runs under the gate", profile: "scripts", line: "./ok.sh a", wantOut: "ok a\n"},
		{name: "commands inside are judged", profile: "scripts", line: "./calls.sh", wantOut: "start\nend\n", wantErr: "./calls.sh: line 3: sort: command not found\n"},
		{name: "an ask inside refuses", profile: "scripts", line: "./rm.sh; cat victim", wantErr: "rm: Permission denied\n", wantExit: 126},
		{name: "denied script reads its reason", profile: "scripts", line: "./secret/run.sh", wantErr: "bash: ./secret/run.sh: secrets stay shut\n", wantExit: 126},
		{name: "hidden script is missing", profile: "scripts", line: "./private/run.sh", wantErr: "bash: ./private/run.sh: No such file or directory\n", wantExit: 127},
		{name: "without bash there is no script", profile: "nobash", line: "./ok.sh", wantErr: "./ok.sh: command not found\n", wantExit: 127},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: files}}, WithProfiles(withBash, noBash))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ws.Close() })
			root := ws.VFS().View(vfs.OpenDoor)
			for _, f := range []string{"ok.sh", "calls.sh", "rm.sh", "secret/run.sh", "private/run.sh"} {
				if err := root.Chmod("/w/"+f, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			s, err := ws.CreateSession("agent", Profile(tc.profile))
			if err != nil {
				t.Fatal(err)
			}
			res := s.Execute(context.Background(), tc.line)
			if res.Stdout != tc.wantOut || res.Stderr != tc.wantErr || res.ExitCode != tc.wantExit {
				t.Errorf("%s\ngot  out %q err %q exit %d\nwant out %q err %q exit %d", tc.line, res.Stdout, res.Stderr, res.ExitCode, tc.wantOut, tc.wantErr, tc.wantExit)
			}
		})
	}
}
