package bypasstest

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// Fingerprints are spellings of a protected value that a line could print
// without printing it verbatim: its letters and digits forwards, backwards
// and in rot13, and its base64.
func Fingerprints(value string) []string {
	rev := []byte(value)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	rot := []byte(value)
	for i, c := range rot {
		switch {
		case c >= 'A' && c <= 'Z':
			rot[i] = 'A' + (c-'A'+13)%26
		case c >= 'a' && c <= 'z':
			rot[i] = 'a' + (c-'a'+13)%26
		}
	}
	return []string{
		Letters(value), Letters(string(rev)), Letters(string(rot)),
		base64.StdEncoding.EncodeToString([]byte(value + "\n")),
		base64.StdEncoding.EncodeToString([]byte(value)),
	}
}

// Letters keeps letters and digits, lower-cased, so spacing, quoting and
// case changes do not hide a value.
func Letters(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// Contains reports whether text holds value in any of its fingerprints.
func Contains(text, value string) bool {
	letters := Letters(text)
	for i, fp := range Fingerprints(value) {
		if i < 3 && strings.Contains(letters, fp) || i >= 3 && strings.Contains(text, fp) {
			return true
		}
	}
	return false
}

// Leaks checks what an agent saw for protected bytes and host facts:
// the token, the hidden key, the hidden variable's value, the host file
// beside the mount, the test's own host directory (hostDir, "" = none) and
// a host /etc/passwd.
func Leaks(text, hostDir string) []string {
	var problems []string
	for _, v := range []struct{ what, value string }{
		{"the denied token", Secret}, {"the hidden key", RootKey}, {"the hidden variable's value", VarValue},
		{"the host file outside the mount", HostSecret},
	} {
		if Contains(text, v.value) {
			problems = append(problems, fmt.Sprintf("%s leaked:\n%s", v.what, text))
		}
	}
	if hostDir != "" && strings.Contains(text, hostDir) {
		problems = append(problems, fmt.Sprintf("a host path (%s) leaked:\n%s", hostDir, text))
	}
	if strings.Contains(text, Passwd) {
		problems = append(problems, fmt.Sprintf("the host's /etc/passwd leaked:\n%s", text))
	}
	return problems
}

// HostUntouched checks the host beside the /host mount's directory:
// nothing the agent did may have written or created anything there.
func HostUntouched(hostRoot string) []string {
	var found []string
	filepath.WalkDir(hostRoot, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != hostRoot && !strings.HasPrefix(p, filepath.Join(hostRoot, "mount")) {
			found = append(found, strings.TrimPrefix(p, hostRoot))
		}
		return nil
	})
	var problems []string
	if got := strings.Join(found, " "); got != "/outside /outside/secret.txt" {
		problems = append(problems, "the host outside the mount changed: "+got)
	}
	if data, err := os.ReadFile(filepath.Join(hostRoot, "outside", "secret.txt")); err != nil ||
		!strings.HasPrefix(string(data), "HOST-SIDE-CANARY-") || len(data) != len(HostSecret)+1 {
		problems = append(problems, fmt.Sprintf("the host file outside the mount was written: %q %v", data, err))
	}
	return problems
}

// Laundered walks fsys (an unrestricted view of the world) and reports any
// file, other than the original, that holds a protected value where the
// world's profile would let a session read it: a copy the gate let a
// command make, or a protected file a rename carried out from under its
// rule (G-6.1a). A value that a move left under a hide or a deny is not
// laundered.
func Laundered(fsys vfs.FS) []string {
	var problems []string
	Walk(fsys, "/", func(p string, data []byte) {
		for _, v := range []struct {
			homes []string
			value string
		}{
			{[]string{"/vault/aws.", "/data/team/deny.txt", "/data/team/internal/", "/data/keys/a.key",
				"/data/vault2/material", "/data/only-hidden/", "/host/team/"}, Secret},
			{[]string{"/vault/internal/"}, RootKey}, {nil, VarValue}, {nil, HostSecret},
		} {
			home := false
			for _, h := range v.homes {
				home = home || strings.HasPrefix(p, h)
			}
			if !home && Contains(string(data), v.value) && !stillProtected(p) {
				problems = append(problems, fmt.Sprintf("laundered copy of %q at %s", v.value, p))
			}
		}
	})
	return problems
}

// stillProtected reports whether the real world's profile hides or denies
// p at the op door.
func stillProtected(p string) bool {
	info := realProfile().PathInfo(p)
	return info.Visibility == gate.PathHidden || info.Verb == gate.VerbDeny
}

// realProfile is the real world's profile, compiled once over its mounts.
var realProfile = sync.OnceValue(func() *gate.Profile {
	var mounts []gate.Mount
	for _, prefix := range []string{"/work", "/vault", "/data", "/host", "/ro", "/tmp", "/dev"} {
		mounts = append(mounts, gate.Mount{Prefix: prefix, ReadOnly: prefix == "/ro"})
	}
	p, err := gate.Compile(Profile(RealWorld), mounts)
	if err != nil {
		panic(err)
	}
	return p
})

// Walk calls visit for every regular file below dir, not following
// symlinks (a link to the original is not a copy), skipping /dev.
func Walk(fsys vfs.FS, dir string, visit func(string, []byte)) {
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		info, err := fsys.Lstat(p)
		switch {
		case err != nil || p == "/dev":
		case info.IsDir():
			Walk(fsys, p, visit)
		case info.Mode().IsRegular():
			if f, err := fsys.Open(p); err == nil {
				data, _ := io.ReadAll(f)
				f.Close()
				visit(p, data)
			}
		}
	}
}

// Snapshot describes a subtree (names, kinds, modes, sizes, times,
// contents, link targets) through fsys, an unrestricted view.
func Snapshot(fsys vfs.FS, root string) string {
	var lines []string
	var walk func(string)
	walk = func(dir string) {
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			lines = append(lines, dir+": "+err.Error())
			return
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			info, err := fsys.Lstat(p)
			if err != nil {
				lines = append(lines, p+": "+err.Error())
				continue
			}
			line := fmt.Sprintf("%s %v %d %s", p, info.Mode(), info.Size(), info.ModTime().Format(time.RFC3339Nano))
			switch {
			case info.IsDir():
				lines = append(lines, line)
				walk(p)
				continue
			case info.Mode()&os.ModeSymlink != 0:
				target, _ := fsys.Readlink(p)
				line += " -> " + target
			default:
				if f, err := fsys.Open(p); err == nil {
					data, _ := io.ReadAll(f)
					f.Close()
					line += fmt.Sprintf(" %q", data)
				}
			}
			lines = append(lines, line)
		}
	}
	walk(root)
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
