package core

import (
	"strings"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// test -w answers whether a write would pass, for directories as for files:
// a read-only mount (G-5.2), a profile's narrowing of a mount to ro
// (G-5.1), a shown subtree's ro mode (G-4.7) and a deny (G-6.1b) all say
// no; a hidden directory does not exist (G-4.5).
func TestTestWritable(t *testing.T) {
	t.Parallel()
	ws, err := NewWorkspace([]vfs.MountSpec{
		{Prefix: "/w", Files: map[string]string{"f": "x\n", "d/f": "x\n", "denied/f": "x\n", "hidden/f": "x\n", "hidden/shown/f": "x\n"}},
		{Prefix: "/narrowed", Files: map[string]string{"f": "x\n"}},
		{Prefix: "/ro", ReadOnly: true, Files: map[string]string{"f": "x\n", "d/f": "x\n"}},
	}, WithProfiles(gate.ProfileSpec{
		Name:   "p",
		Deny:   []gate.Rule{{Reason: "not here", Paths: []string{"/w/denied"}}},
		Hide:   []gate.PathGroup{{Paths: []string{"/w/hidden"}}},
		Show:   []gate.ShowEntry{{Path: "/w/hidden/shown", Mode: "ro"}},
		Mounts: map[string]gate.MountRules{"/narrowed": {ReadOnly: true}},
	}), WithDefaultProfile("p"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })

	yes, no := "yes\n", "no\n"
	cases := []struct{ name, path, want string }{
		{"writable directory", "/w/d", yes},
		{"writable mount point", "/w", yes},
		{"writable file", "/w/f", yes},
		{"directory of a read-only mount", "/ro/d", no},
		{"read-only mount point", "/ro", no},
		{"file of a read-only mount", "/ro/f", no},
		{"mount the profile narrows to ro", "/narrowed", no},
		{"file of a mount narrowed to ro", "/narrowed/f", no},
		{"directory shown ro", "/w/hidden/shown", no},
		{"denied directory", "/w/denied", no},
		{"hidden directory", "/w/hidden", no},
		{"the synthetic root", "/", no},
		{"missing directory", "/w/nowhere", no},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := ws.CreateSession("agent")
			if err != nil {
				t.Fatal(err)
			}
			// The builtins, and the coreutils programs that find -exec runs.
			for _, cmd := range []string{"test -w " + tc.path, "[ -w " + tc.path + " ]", "find " + tc.path + " -maxdepth 0 -exec test -w {} \\; -print 2>/dev/null | grep -q ."} {
				res := s.Execute(t.Context(), cmd+" && echo yes || echo no")
				if res.Stdout != tc.want || res.Stderr != "" || res.ExitCode != 0 {
					t.Errorf("%s: stdout %q stderr %q exit %d, want %q", cmd, res.Stdout, res.Stderr, res.ExitCode, tc.want)
				}
			}
		})
	}
}

// Writing over a hidden path that exists answers as writing over a hidden
// path that does not: tar and git judge all their writes first (CheckCreate),
// and that judgement must not tell a hidden file, or a directory holding
// one, from nothing (G-4.5, G-4.11).
func TestPlannedWritesDoNotRevealHiddenPaths(t *testing.T) {
	t.Parallel()
	ws, err := NewWorkspace([]vfs.MountSpec{
		{Prefix: "/w", Files: map[string]string{"a.txt": "a\n", "secrets/hid/k": "k\n", "secrets/s": "s\n"}},
	}, WithProfiles(gate.ProfileSpec{
		Name: "p",
		Deny: []gate.Rule{{Reason: "no secrets", Paths: []string{"/w/secrets/*"}}},
		Hide: []gate.PathGroup{{Paths: []string{"/w/secrets/hid", "/w/secrets/ghost"}}},
	}), WithDefaultProfile("p"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	extract := func(name string) string {
		s, err := ws.CreateSession("agent")
		if err != nil {
			t.Fatal(err)
		}
		line := "cd /tmp && mkdir -p q/secrets/NAME && cp /w/a.txt q/secrets/NAME/k && tar -cf b.tar -C q secrets && cd /w && tar -xf /tmp/b.tar; echo $?; tar -xf /tmp/b.tar secrets/NAME/k; echo $?; rm -rf /tmp/q /tmp/b.tar"
		res := s.Execute(t.Context(), strings.ReplaceAll(line, "NAME", name))
		return strings.ReplaceAll(res.Stdout+res.Stderr, name, "NAME")
	}
	hidden, ghost := extract("hid"), extract("ghost")
	if hidden != ghost {
		t.Errorf("extracting over a hidden directory that exists:\n%s\nover one that does not:\n%s", hidden, ghost)
	}
	if !strings.Contains(ghost, "secrets/NAME: Cannot open: no secrets") {
		t.Errorf("extracting over a hidden name is refused as under the deny: %s", ghost)
	}
}

// df gives a mount's size and use only where nothing below its mount point
// can be kept from the session: the use counts every file, so a hidden
// one's bytes showed as the difference from a world without it (G-4.5).
func TestDfCountsNothingHidden(t *testing.T) {
	t.Parallel()
	df := func(hidden bool, spec gate.ProfileSpec) string {
		files := map[string]string{"pub": "x\n"}
		if hidden {
			files["h/secret"] = strings.Repeat("S", 100000)
		}
		ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/v", Files: files}, {Prefix: "/w", Files: map[string]string{"a": "a\n"}}},
			WithProfiles(spec), WithDefaultProfile(spec.Name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		s, err := ws.CreateSession("agent")
		if err != nil {
			t.Fatal(err)
		}
		res := s.Execute(t.Context(), "df /v /w; df --total | tail -1")
		if res.ExitCode != 0 {
			t.Fatalf("df: %+v", res)
		}
		return res.Stdout
	}
	hiding := gate.ProfileSpec{Name: "p", Hide: []gate.PathGroup{{Paths: []string{"/v/h"}}}}
	if a, b := df(true, hiding), df(false, hiding); a != b {
		t.Errorf("df tells hidden bytes from none:\n%s\nwithout them:\n%s", a, b)
	}
	want := "Filesystem     1K-blocks  Used Available Use% Mounted on\n" +
		"memory                 -     -         -    - /v\n" +
		"memory           1048576     1   1048575   1% /w\n" +
		"total                  -     -         -    - -\n"
	if got := df(true, hiding); got != want {
		t.Errorf("df under a hide rule:\n%s\nwant:\n%s", got, want)
	}
	if got := df(true, gate.ProfileSpec{Name: "open"}); !strings.Contains(got, "memory           1048576    99   1048477   1% /v\n") {
		t.Errorf("df in a session that sees everything:\n%s", got)
	}
}
