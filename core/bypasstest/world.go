// Package bypasstest is the bypass corpus every door is held to: one
// deliberately ordinary profile over a world with a denied token, a hidden
// directory, a hidden variable, a read-only mount and a host mount with
// links that lead out of it; attempts to get past the gate; and the judges
// that decide whether one got through.
//
// An attempt is judged by a twin. It is refused when the agent cannot tell
// the world it runs in from a twin world in which the protected thing
// differs or does not exist at all (the token's bytes, the hidden
// directory, the host file beside the mount), and when no protected byte
// shows in anything it saw, no copy of one lies anywhere in the VFS, the
// read-only mount is unchanged and the host beside the mount untouched.
//
// core's own suite runs hundreds of shell lines through Session.Execute.
// The file attempts here (FileAttempts) run through every door: the
// Session's file operations, Session.Execute (as shell lines), MCP and REST
// (see Run). The package imports only the gate's and the VFS's types, so
// core's internal tests can use it too.
package bypasstest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// The protected values, and what a twin world holds instead.
const (
	Secret     = "AKIA-SECRET-TOKEN"
	TwinSecret = "ZZZZ-OTHERS-VALUE" // same length: sizes may show, bytes may not
	RootKey    = "ROOT-KEY-MATERIAL"
	VarName    = "AWS_SECRET_ACCESS_KEY"
	VarValue   = "HIDDEN-VAR-VALUE"
	// HostSecret lies on the host beside the /host mount's directory,
	// where no link may lead (G-5.6).
	HostSecret     = "HOST-SIDE-CANARY-7"
	TwinHostSecret = "HOST-SIDE-CANARY-8"
	// HostRoot in a line stands for the host directory that holds the
	// /host mount's directory and its outside neighbour; outputs name it
	// the same way, so worlds with different temporary directories
	// compare.
	HostRoot = "@HOSTROOT@"
	// Passwd is the start of a host /etc/passwd.
	Passwd   = "root:x:0:0"
	Unsorted = "zebra\napple\nmango\n"
	Sorted   = "apple\nmango\nzebra"
)

// ProfileName is the profile of the intruder's session.
const ProfileName = "bypass"

// World says what differs between a world and its twin.
type World struct {
	// Secret is the bytes of /vault/aws.token, and is inside every
	// protected file of /data and /host/team.
	Secret string
	// HasHidden: /vault/internal and the hidden files of /data and
	// /host/team exist (and are hidden).
	HasHidden bool
	// Unhidden drops the hide rules of that content: the twin of a hidden
	// path that must answer as a missing one (G-4.5), which has no such
	// content either.
	Unhidden bool
	HasVar   bool // the profile sets AWS_SECRET_ACCESS_KEY
	// HostSecret is what the host file outside the /host mount holds
	// ("" = HostSecret).
	HostSecret string
	// Ungated drops every rule and makes /ro writable: the world of the
	// suite's self-check, where every attempt should get through.
	Ungated bool
}

// RealWorld is the world attempts run in; its twins differ in one thing.
var RealWorld = World{Secret: Secret, HasHidden: true, HasVar: true}

// Mounts lays out world w; hostRoot is a fresh host directory that receives
// the /host mount's directory and, beside it, what no link may reach.
func Mounts(t testing.TB, w World, hostRoot string) []vfs.MountSpec {
	t.Helper()
	hostSecret := w.HostSecret
	if hostSecret == "" {
		hostSecret = HostSecret
	}
	mountDir := filepath.Join(hostRoot, "mount")
	for _, step := range []error{
		os.MkdirAll(filepath.Join(hostRoot, "outside"), 0o755),
		os.MkdirAll(filepath.Join(mountDir, "sub"), 0o755),
		os.WriteFile(filepath.Join(hostRoot, "outside", "secret.txt"), []byte(hostSecret+"\n"), 0o644),
		os.WriteFile(filepath.Join(mountDir, "plain.txt"), []byte("host plain\n"), 0o644),
		os.Symlink("plain.txt", filepath.Join(mountDir, "inner-link")),
		os.Symlink("../outside/secret.txt", filepath.Join(mountDir, "escape-rel")),
		os.Symlink(filepath.Join(hostRoot, "outside", "secret.txt"), filepath.Join(mountDir, "escape-abs")),
		os.Symlink("../outside", filepath.Join(mountDir, "escape-dir")),
		os.Symlink("../../outside/secret.txt", filepath.Join(mountDir, "sub", "escape-deep")),
		os.Symlink("/etc/passwd", filepath.Join(mountDir, "etc-passwd")),
		os.Symlink("../mount/plain.txt", filepath.Join(mountDir, "out-and-back")),
		os.MkdirAll(filepath.Join(mountDir, "team"), 0o755),
		os.WriteFile(filepath.Join(mountDir, "team", "readme"), []byte("host team\n"), 0o644),
		os.WriteFile(filepath.Join(mountDir, "team", "deny.txt"), []byte("DENIED-"+w.Secret+"\n"), 0o644),
	} {
		if step != nil {
			t.Fatal(step)
		}
	}
	vault := map[string]string{
		"aws.token": w.Secret + "\n",
		"aws.jq":    `def token: "` + w.Secret + `";` + "\n", // a jq module is a file too
	}
	// /data holds protected files under directories an agent may move.
	data := map[string]string{
		"team/readme":    "team readme\n",
		"team/deny.txt":  "DENIED-" + w.Secret + "\n",
		"team/pub/notes": "pub notes\n",
		"keys/readme":    "keys readme\n",
		"vault2/pub/p":   "shown\n",
		"listless/f.txt": "listed only by ls\n",
		"empty/":         "",
	}
	if w.HasHidden {
		vault["internal/root.key"] = RootKey + "\n"
		vault["internal/lib.jq"] = `def key: "` + RootKey + `";` + "\n"
		data["team/internal/key"] = "HIDDEN-" + w.Secret + "\n"
		data["keys/a.key"] = "HIDDEN-" + w.Secret + "\n"
		data["vault2/material"] = "HIDDEN-" + w.Secret + "\n"
		data["only-hidden/x.key"] = "HIDDEN-" + w.Secret + "\n"
		if err := errors.Join(os.Mkdir(filepath.Join(mountDir, "team", "private"), 0o755),
			os.WriteFile(filepath.Join(mountDir, "team", "private", "key"), []byte("HIDDEN-"+w.Secret+"\n"), 0o644)); err != nil {
			t.Fatal(err)
		}
	} else {
		data["only-hidden/"] = ""
	}
	return []vfs.MountSpec{
		{Prefix: "/work", Files: map[string]string{
			"notes.txt":     "ordinary notes\n",
			"unsorted.txt":  Unsorted,
			"data.json":     `{"team":"sre","n":1}` + "\n",
			"list.txt":      "/vault/aws.token\n",
			"sub/inner.txt": "inner\n",
		}},
		{Prefix: "/vault", Files: vault},
		{Prefix: "/data", Files: data},
		{Prefix: "/host", HostDir: mountDir},
		{Prefix: "/ro", ReadOnly: !w.Ungated, Files: map[string]string{
			"frozen.txt":   "frozen\n",
			"dir/kept.txt": "kept\n",
			"empty/":       "",
		}},
	}
}

// Links an operator left, as (target, link): one into the hidden region
// (dangling in a world without it), one to the token, and one from inside
// the hidden region back out. Lay them with an unrestricted view.
func Links(w World) [][2]string {
	links := [][2]string{{"/vault/internal/root.key", "/work/shortcut"}, {"/vault/aws.token", "/work/token-link"}}
	if w.HasHidden {
		links = append(links, [2]string{"/work", "/vault/internal/up"})
	}
	return links
}

// LayLinks lays Links(w) through fsys, an unrestricted view of the world.
func LayLinks(t testing.TB, fsys vfs.FS, w World) {
	t.Helper()
	for _, l := range Links(w) {
		if err := fsys.Symlink(l[0], l[1]); err != nil {
			t.Fatal(fmt.Errorf("laying %s -> %s: %w", l[1], l[0], err))
		}
	}
}

// Allow is the profile's tool set. `sort` is deliberately absent; some
// names may have no utility yet, which makes them not installed too
// (G-3.7).
var Allow = []string{"cat", "ls", "echo", "cd", "grep", "head", "tail", "find", "xargs", "eval",
	"bash", "sh", "source", ".", "command", "builtin", "exec", "env", "timeout", "nice", "nohup",
	"tee", "cp", "mv", "ln", "jq", "sed", "base64", "diff", "comm", "printf", "read", "mapfile",
	"readarray", "test", "[", "type", "declare", "set", "printenv", "export", "alias", "trap",
	"wait", "true", "false", "touch", "mkdir", "rm", "rmdir", "readlink", "realpath", "stat", "wc",
	"tr", "cut", "tac", "rev", "compgen", "hash", "help", "shopt", "pwd", "unset", "local", "du",
	"sleep", "tar", "gzip", "gunzip", "zcat", "unzip", "envsubst", "shuf", "numfmt", "rg", "git",
	"dd", "basenc", "fmt", "pr", "csplit", "zip", "bzip2", "bunzip2", "bzcat"}

// Profile is the intruder's profile in world w: the token denied, the
// internal directory hidden, AWS_* variables hidden; in /data and
// /host/team, files hidden by name, by a glob (/data/**/*.key) and inside a
// shown region, files denied, a directory denied to ls alone, and a mount
// whose command rules deny wc.
func Profile(w World) gate.ProfileSpec {
	env := map[string]string{"TEAM": "sre"}
	if w.HasVar {
		env[VarName] = VarValue
	}
	if w.Ungated {
		return gate.ProfileSpec{Name: ProfileName, Cwd: "/work", Env: env}
	}
	spec := gate.ProfileSpec{
		Name:  ProfileName,
		Cwd:   "/work",
		Env:   env,
		Allow: Allow,
		Deny: []gate.Rule{
			{Reason: "credentials are never read by hand", Paths: []string{"/vault/*"}},
			{Reason: "team secrets stay put", Paths: []string{"/data/team/deny.txt", "/host/team/deny.txt"}},
			{Reason: "not for listing", Commands: []string{"ls"}, Paths: []string{"/data/listless"}},
		},
		Show:     []gate.ShowEntry{{Path: "/data/vault2/pub"}},
		VarsHide: []string{"AWS_*"},
		Mounts: map[string]gate.MountRules{
			"/data": {Deny: []gate.Rule{{Reason: "no counting in /data", Commands: []string{"wc"}}}},
		},
	}
	if !w.Unhidden {
		spec.Hide = []gate.PathGroup{{Reason: "operator only", Paths: []string{
			"/vault/internal", "/data/team/internal", "/data/**/*.key", "/data/vault2", "/host/team/private"}}}
	}
	return spec
}
