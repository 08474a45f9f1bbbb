package core

// FuzzPathsNeverLeak (issue 15, classes 2, 5 and 15): random sequences of
// mv, ln, ln -s, cp -r, cd, rm, mkdir, rmdir, redirections and reads over
// a world whose protected files sit under movable directories, on a memory
// mount (/m) and a host mount (/h) laid out alike.
//
// Properties, whatever the sequence:
//   - no line panics, every exit code is a byte;
//   - nothing the agent sees (stdout, stderr, refusal records) holds a
//     marker of a hidden, denied or asked file: no host answers, so no ask
//     is ever allowed;
//   - at the end, every file holding a marker lies where the profile still
//     protects it at least as much: a hidden marker where the op door hides
//     it, a denied one where it hides or denies, an asked one where it
//     hides, denies or asks (G-6.1a: no rename, link or copy carried
//     protected content out from under its rule).
//
// The markers are drawn once per process, so no input can spell them.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"gatehouse/core/bypasstest"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
	"gatehouse/store/sqlite"
)

// pathMarkers are the contents of the protected files, by protection.
var pathMarkers = func() (m struct{ hidden, denied, asked string }) {
	draw := func(prefix string) string {
		var b [10]byte
		rand.Read(b[:])
		return prefix + hex.EncodeToString(b[:])
	}
	m.hidden, m.denied, m.asked = draw("HID-"), draw("DEN-"), draw("ASK-")
	return m
}()

// pathsLayout is one mount's files, relative to its root.
func pathsLayout() map[string]string {
	return map[string]string{
		"team/readme":      "team readme\n",
		"team/hid/key":     pathMarkers.hidden + "\n",
		"team/den.txt":     pathMarkers.denied + "\n",
		"team/ask.txt":     pathMarkers.asked + "\n",
		"team/pub/notes":   "pub notes\n",
		"keys/a.key":       pathMarkers.hidden + "\n",
		"keys/readme":      "keys readme\n",
		"vault/mat":        pathMarkers.hidden + "\n",
		"vault/pub/p":      "shown\n",
		"vault/pub/deeper": pathMarkers.hidden + "\n", // hidden again below the show
		"plain/f":          "plain f\n",
		"plain/sub/g":      "plain g\n",
	}
}

// pathsProfile protects the same names in both mounts.
func pathsProfile() gate.ProfileSpec {
	var hide, deny, ask, show []string
	for _, m := range []string{"/m", "/h"} {
		hide = append(hide, m+"/team/hid", m+"/**/*.key", m+"/vault", m+"/vault/pub/deeper")
		deny = append(deny, m+"/team/den.txt")
		ask = append(ask, m+"/team/ask.txt")
		show = append(show, m+"/vault/pub")
	}
	spec := gate.ProfileSpec{
		Name:  "paths",
		Cwd:   "/m",
		Hide:  []gate.PathGroup{{Reason: "operator only", Paths: hide}},
		Deny:  []gate.Rule{{Reason: "denied", Paths: deny}},
		Ask:   []gate.Rule{{Reason: "asks", Paths: ask}},
		Allow: []string{"mv", "ln", "cp", "cd", "rm", "mkdir", "rmdir", "cat", "ls", "grep", "find", "stat", "head", "echo", "source", "tee", "du", "test", "readlink"},
	}
	for _, s := range show {
		spec.Show = append(spec.Show, gate.ShowEntry{Path: s})
	}
	return spec
}

// pathsNames are the operands a sequence picks from: protected entries,
// their ancestors, plain ones, new names, links and relative names.
var pathsNames = func() []string {
	rel := []string{"team", "team/hid", "team/hid/key", "team/den.txt", "team/ask.txt", "team/pub", "keys",
		"keys/a.key", "vault", "vault/mat", "vault/pub", "vault/pub/deeper", "plain", "plain/f", "new", "new/x",
		"l", "l/hid", "l/den.txt", "t2", "t2/hid/key", "t2/den.txt", "k2", "k2/a.key", "v2", "v2/mat"}
	var out []string
	for _, m := range []string{"/m/", "/h/"} {
		for _, r := range rel {
			out = append(out, m+r)
		}
	}
	return append(out, "/tmp/x", "/tmp/x/hid/key", "/tmp/y", "team", "hid", "../team", ".", "..", "*", "team/*")
}()

// pathsOps render one step; a and b are operands.
var pathsOps = []func(a, b string) string{
	func(a, b string) string { return "mv " + a + " " + b },
	func(a, b string) string { return "ln -s " + a + " " + b },
	func(a, b string) string { return "ln " + a + " " + b },
	func(a, b string) string { return "cp -r " + a + " " + b },
	func(a, b string) string { return "cp -a " + a + " " + b },
	func(a, _ string) string { return "cd " + a },
	func(a, _ string) string { return "rm -rf " + a },
	func(a, _ string) string { return "mkdir -p " + a },
	func(a, _ string) string { return "rmdir " + a },
	func(a, _ string) string { return "cat " + a },
	func(a, _ string) string { return "cat < " + a },
	func(a, _ string) string { return "ls -laR " + a },
	func(a, _ string) string { return "grep -r . " + a },
	func(a, _ string) string { return "find " + a + " -type f -exec cat {} +" },
	func(a, _ string) string { return "stat -c '%n %s %h' " + a },
	func(a, _ string) string { return "head " + a + "/*" },
	func(a, _ string) string { return "source " + a },
	func(a, _ string) string { return "du -a " + a },
	func(a, b string) string { return "cat " + a + " > " + b },
	func(a, b string) string { return "mv " + a + " " + b + "/" },
	func(a, _ string) string { return "readlink -f " + a },
	func(a, _ string) string { return "echo x >> " + a },
}

// pathsSteps decodes an input into lines: three bytes a step (op, a, b),
// at most 12 steps.
func pathsSteps(data []byte) []string {
	var lines []string
	for i := 0; i+2 < len(data) && len(lines) < 12; i += 3 {
		op := pathsOps[int(data[i])%len(pathsOps)]
		a := pathsNames[int(data[i+1])%len(pathsNames)]
		b := pathsNames[int(data[i+2])%len(pathsNames)]
		lines = append(lines, op(a, b))
	}
	return lines
}

// pathsSeed encodes steps for f.Add: each as (op index, name, name).
func pathsSeed(steps ...[3]string) []byte {
	index := func(list []string, s string) byte {
		for i, x := range list {
			if x == s {
				return byte(i)
			}
		}
		panic("no such name " + s)
	}
	var out []byte
	for _, st := range steps {
		op := 0
		fmt.Sscan(st[0], &op)
		out = append(out, byte(op), index(pathsNames, st[1]), index(pathsNames, st[2]))
	}
	return out
}

func FuzzPathsNeverLeak(f *testing.F) {
	for _, seed := range [][][3]string{
		{{"0", "/m/team", "/m/t2"}, {"9", "/m/t2/hid/key", "/m/t2"}, {"9", "/m/t2/den.txt", "/m/t2"}},
		{{"0", "/h/team", "/h/t2"}, {"12", "/h/t2", "/h/t2"}},
		{{"0", "/m/keys", "/m/k2"}, {"9", "/m/k2/a.key", "/m/k2"}},
		{{"1", "/m/team", "/m/l"}, {"9", "/m/l/hid", "/m/l"}, {"9", "/m/l/den.txt", "/m/l"}},
		{{"3", "/m/team", "/tmp/x"}, {"12", "/tmp/x", "/tmp/x"}, {"9", "/tmp/x/hid/key", "/tmp/x"}},
		{{"0", "/m/vault", "/m/v2"}, {"0", "/m/vault/pub", "/m/v2"}, {"11", "/m/v2", "/m/v2"}},
		{{"5", "/m/team", "/m/team"}, {"0", "hid", "../team"}, {"9", "*", "*"}},
		{{"6", "/m/team", "/m/team"}, {"8", "/m/team", "/m/team"}, {"11", "/m/team", "/m/team"}},
		{{"1", "/m/team/den.txt", "/tmp/y"}, {"9", "/tmp/y", "/tmp/y"}, {"10", "/tmp/y", "/tmp/y"}},
		{{"19", "/m/team/ask.txt", "/m/plain"}, {"0", "/m/team/hid", "/m/new"}, {"4", "/h/vault", "/m/new"}},
	} {
		f.Add(pathsSeed(seed...))
	}
	db, err := sqlite.Open(filepath.Join(f.TempDir(), "ledger.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })

	f.Fuzz(func(t *testing.T, data []byte) {
		lines := pathsSteps(data)
		if len(lines) == 0 {
			return
		}
		host := t.TempDir()
		for rel, content := range pathsLayout() {
			p := filepath.Join(host, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mounts := []vfs.MountSpec{{Prefix: "/m", Files: pathsLayout()}, {Prefix: "/h", HostDir: host}}
		ws, err := NewWorkspace(mounts, WithProfiles(pathsProfile()), WithStore(db),
			WithLimits(Limits{WallTime: 2 * time.Second, OutputBytes: 256 << 10}))
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		s, err := ws.CreateSession("fuzzer", Profile("paths"))
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%q panicked: %v\n%s", lines, p, debug.Stack())
			}
		}()
		for i, line := range lines {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			res := s.Execute(ctx, line)
			cancel()
			if res.ExitCode < 0 || res.ExitCode > 255 {
				t.Fatalf("%q: exit code %d is not a byte", line, res.ExitCode)
			}
			records, _ := json.Marshal(res.Refusals)
			seen := res.Stdout + res.Stderr + string(records)
			for _, marker := range []string{pathMarkers.hidden, pathMarkers.denied, pathMarkers.asked} {
				if strings.Contains(seen, marker) {
					t.Fatalf("line %d of %q showed a protected marker:\nstdout=%q\nstderr=%q\nrefusals=%s",
						i, lines, res.Stdout, res.Stderr, records)
				}
			}
		}
		prof, _ := ws.Profile("paths")
		bypasstest.Walk(ws.VFS().View(nil), "/", func(p string, content []byte) {
			info := prof.PathInfo(p)
			hidden := info.Visibility == gate.PathHidden
			denied := hidden || info.Verb == gate.VerbDeny
			asked := denied || info.Verb == gate.VerbAsk
			text := string(content)
			switch {
			case strings.Contains(text, pathMarkers.hidden) && !hidden,
				strings.Contains(text, pathMarkers.denied) && !denied,
				strings.Contains(text, pathMarkers.asked) && !asked:
				t.Fatalf("after %q, %s holds a protected marker where the profile says %s %s", lines, p, info.Visibility, info.Verb)
			}
		})
	})
}
