package bypasstest

import (
	"os"
	"strings"
	"testing"

	"gatehouse/core/vfs"
)

// Goal is what a file attempt is after.
type Goal int

// Goals of file attempts.
const (
	ReadSecret    Goal = iota // read /vault/aws.token (denied), or learn anything of its bytes
	DetectHidden              // read or detect /vault/internal (hidden)
	WriteReadOnly             // change anything under /ro (ro mount)
	EscapeHost                // reach the host outside the /host mount's directory
)

func (g Goal) String() string {
	return [...]string{"read the denied file", "detect the hidden path", "write under the ro mount", "escape the host mount"}[g]
}

// File operations, as the Session API and MCP name them.
const (
	ReadFile  = "read_file"
	WriteFile = "write_file"
	EditFile  = "edit_file"
	ListDir   = "list_dir"
	StatFile  = "stat_file"
)

// FileAttempt is one file operation aimed at a protected thing.
type FileAttempt struct {
	Goal     Goal
	Op       string // ReadFile, WriteFile, …
	Path     string // as the agent spells it; HostRoot stands for the world's host directory
	Content  string // WriteFile
	Old, New string // EditFile: an exact replacement
}

func (a FileAttempt) String() string {
	switch a.Op {
	case WriteFile:
		return a.Op + " " + a.Path + " " + quote(a.Content)
	case EditFile:
		return a.Op + " " + a.Path + " " + quote(a.Old) + " " + quote(a.New)
	}
	return a.Op + " " + a.Path
}

// Line is the shell line that does what the attempt does, for doors that
// take lines (Session.Execute, REST): cat, printf into a redirection, sed
// -i, ls -A, stat.
func (a FileAttempt) Line() string {
	p := quote(a.Path)
	switch a.Op {
	case ReadFile:
		return "cat -- " + p
	case WriteFile:
		return "printf %s " + quote(a.Content) + " > " + p
	case EditFile:
		return "sed -i " + quote("s|"+a.Old+"|"+a.New+"|") + " -- " + p
	case ListDir:
		return "ls -A -- " + p
	case StatFile:
		return "stat -c '%n %s %F' -- " + p
	}
	panic("bypasstest: unknown operation " + a.Op)
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// secretPaths spell /vault/aws.token, directly and through links.
var secretPaths = []string{
	"/vault/aws.token", "/vault/./aws.token", "//vault/aws.token", "/vault//aws.token",
	"/work/../vault/aws.token", "../vault/aws.token", "/vault/internal/../aws.token",
	"/nonexistent/../vault/aws.token", "/tmp/../vault/aws.token", "/work/token-link",
	"/vault/aws.jq", "/work/sub/../../vault/aws.token",
}

// hiddenPaths spell /vault/internal and what lies in it, directly and
// through links into it and out of it.
var hiddenPaths = []string{
	"/vault/internal", "/vault/internal/root.key", "/vault/./internal", "//vault//internal",
	"/vault/internal/.", "/vault/internal/", "/vault/internal/lib.jq", "/vault/internal/nope",
	"/work/shortcut", "/work/shortcut/..", "/vault/internal/up", "/vault/internal/up/notes.txt",
	"/work/../vault/internal/root.key", "/vault/internal/root.key/x",
}

// roPaths are under the read-only mount, existing or not.
var roPaths = []string{"/ro/frozen.txt", "/ro/new.txt", "/ro/dir/kept.txt", "/ro/empty/new", "/ro/./frozen.txt", "/work/../ro/frozen.txt"}

// hostPaths try to leave the /host mount's directory.
var hostPaths = []string{
	"/host/escape-rel", "/host/escape-abs", "/host/escape-dir/secret.txt", "/host/sub/escape-deep",
	"/host/etc-passwd", "/host/../outside/secret.txt", "/host/escape-dir", HostRoot + "/outside/secret.txt",
}

// FileAttempts is the file corpus: every operation on every spelling of
// each protected thing.
var FileAttempts = func() []FileAttempt {
	var all []FileAttempt
	for _, p := range secretPaths {
		all = append(all,
			FileAttempt{Goal: ReadSecret, Op: ReadFile, Path: p},
			FileAttempt{Goal: ReadSecret, Op: StatFile, Path: p},
			// A successful edit would say the token holds these bytes.
			FileAttempt{Goal: ReadSecret, Op: EditFile, Path: p, Old: Secret, New: TwinSecret},
			FileAttempt{Goal: ReadSecret, Op: WriteFile, Path: p, Content: "overwritten\n"},
		)
	}
	all = append(all, FileAttempt{Goal: ReadSecret, Op: ListDir, Path: "/vault"})
	for _, p := range hiddenPaths {
		all = append(all,
			FileAttempt{Goal: DetectHidden, Op: ReadFile, Path: p},
			FileAttempt{Goal: DetectHidden, Op: ListDir, Path: p},
			FileAttempt{Goal: DetectHidden, Op: StatFile, Path: p},
			FileAttempt{Goal: DetectHidden, Op: EditFile, Path: p, Old: RootKey, New: "x"},
		)
		if p != "/vault/internal" && p != "/vault/internal/" && p != "/vault/./internal" && p != "//vault//internal" {
			// Creating the hidden name itself is the one documented
			// exception (G-4.11).
			all = append(all, FileAttempt{Goal: DetectHidden, Op: WriteFile, Path: p, Content: "x\n"})
		}
	}
	for _, p := range []string{"/vault", "/vault/", "/work", "/"} {
		all = append(all, FileAttempt{Goal: DetectHidden, Op: ListDir, Path: p})
	}
	for _, p := range roPaths {
		all = append(all,
			FileAttempt{Goal: WriteReadOnly, Op: WriteFile, Path: p, Content: "changed\n"},
			FileAttempt{Goal: WriteReadOnly, Op: EditFile, Path: p, Old: "frozen", New: "thawed"},
			FileAttempt{Goal: WriteReadOnly, Op: EditFile, Path: p, Old: "kept", New: "lost"},
		)
	}
	for _, p := range hostPaths {
		all = append(all,
			FileAttempt{Goal: EscapeHost, Op: ReadFile, Path: p},
			FileAttempt{Goal: EscapeHost, Op: ListDir, Path: p},
			FileAttempt{Goal: EscapeHost, Op: StatFile, Path: p},
			FileAttempt{Goal: EscapeHost, Op: WriteFile, Path: p, Content: "written from inside\n"},
			FileAttempt{Goal: EscapeHost, Op: EditFile, Path: p, Old: "HOST-SIDE-CANARY-7", New: "HOST-SIDE-CANARY-9"},
		)
	}
	return all
}()

// A Door does file attempts on the intruder's behalf in one world, and
// returns everything the intruder saw (output, error text, exit code,
// refusal records) as text.
type Door interface {
	Do(t *testing.T, a FileAttempt) string
}

// Opened is one world, built for one attempt.
type Opened struct {
	Door     Door
	FS       vfs.FS // an unrestricted view of the world, for the judges
	HostRoot string // the world's host directory (see Mounts)
}

// Opener builds world w: the mounts of Mounts, the profile of Profile, the
// links of Links laid, and a door for an intruder's session on the
// profile. Each call builds a fresh world.
type Opener func(t *testing.T, w World) Opened

// RunFiles does every file attempt through doors that open makes, each in
// a real world and, where there is one, its twin, and fails the test for
// every attempt that got through.
func RunFiles(t *testing.T, open Opener) {
	hostDir, _ := os.Getwd()
	for _, a := range FileAttempts {
		t.Run(a.String(), func(t *testing.T) {
			t.Parallel()
			for _, p := range JudgeFile(t, open, a, hostDir, false) {
				t.Errorf("BYPASS (%s) %s\n%s", a.Goal, a, p)
			}
		})
	}
}

// JudgeFile does one attempt and its twin and returns what got through.
// ungated runs both in worlds without rules (the judges' self-check).
func JudgeFile(t *testing.T, open Opener, a FileAttempt, hostDir string, ungated bool) []string {
	world := func(w World) World { w.Ungated = ungated; return w }
	real := open(t, world(RealWorld))
	roBefore := Snapshot(real.FS, "/ro")
	seen, shown := observe(t, real, a)

	problems := Leaks(seen, hostDir)
	if shown {
		problems = append(problems, "the host directory behind /host was named:\n"+seen)
	}
	problems = append(problems, Laundered(real.FS)...)
	problems = append(problems, HostUntouched(real.HostRoot)...)

	twin := world(RealWorld)
	switch a.Goal {
	case ReadSecret:
		twin.Secret = TwinSecret
	case DetectHidden:
		twin.HasHidden = false
	case EscapeHost:
		twin.HostSecret = TwinHostSecret
	case WriteReadOnly:
		if after := Snapshot(real.FS, "/ro"); after != roBefore {
			problems = append(problems, "/ro changed:\nbefore:\n"+roBefore+"\nafter:\n"+after)
		}
		return problems
	}
	other, _ := observe(t, open(t, twin), a)
	if seen != other {
		problems = append(problems, "the agent can tell the world from its twin\nworld:\n"+seen+"\ntwin:\n"+other)
	}
	return problems
}

// observe does the attempt in world o, spelling HostRoot as the world's
// host directory and naming that directory HostRoot again in what was seen;
// shown reports that the output named it although the attempt did not.
func observe(t *testing.T, o Opened, a FileAttempt) (seen string, shown bool) {
	spelled := strings.Contains(a.Path, HostRoot)
	a.Path = strings.ReplaceAll(a.Path, HostRoot, o.HostRoot)
	raw := o.Door.Do(t, a)
	return strings.ReplaceAll(raw, o.HostRoot, HostRoot), !spelled && strings.Contains(raw, o.HostRoot)
}

// SelfCheckFiles runs the file corpus in ungated worlds (no rules, /ro
// writable), where an attempt that works must be caught by its judge. A goal
// none of whose attempts is caught there would prove nothing about the
// gate: its judges are blind. Escaping the host mount is structural (the
// VFS confines it without any rule), so it is only logged.
func SelfCheckFiles(t *testing.T, open Opener) {
	hostDir, _ := os.Getwd()
	caught := make([]int, EscapeHost+1)
	results := make(chan Goal, len(FileAttempts))
	t.Run("ungated", func(t *testing.T) {
		for _, a := range FileAttempts {
			t.Run(a.String(), func(t *testing.T) {
				t.Parallel()
				if len(JudgeFile(t, open, a, hostDir, true)) > 0 {
					results <- a.Goal
				}
			})
		}
	})
	close(results)
	for g := range results {
		caught[g]++
	}
	for g := ReadSecret; g <= EscapeHost; g++ {
		t.Logf("%s: %d attempts caught without rules", g, caught[g])
		if caught[g] == 0 && g != EscapeHost {
			t.Errorf("no attempt to %s is caught even without rules; its judges prove nothing", g)
		}
	}
}
