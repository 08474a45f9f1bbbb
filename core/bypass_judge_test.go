package core

// The judges of the bypass suite (see bypass_test.go): fingerprints of the
// protected values, the leak checks every attempt passes, and the
// unrestricted walks that find laundered copies and changes to /ro.

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"gatehouse/core/vfs"
)

// bypassSortWord finds `sort` as a word, not inside "unsorted".
var bypassSortWord = regexp.MustCompile(`\bsort\b`)

func bypassSortedLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "")
}

// bypassFingerprints are spellings of a protected value that a line could
// print without printing it verbatim.
func bypassFingerprints(value string) []string {
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
		bypassLetters(value), bypassLetters(string(rev)), bypassLetters(string(rot)),
		base64.StdEncoding.EncodeToString([]byte(value + "\n")),
		base64.StdEncoding.EncodeToString([]byte(value)),
	}
}

// bypassLetters keeps letters and digits, lower-cased, so spacing,
// quoting and case changes do not hide a value.
func bypassLetters(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func bypassContains(text, value string) bool {
	letters := bypassLetters(text)
	for i, fp := range bypassFingerprints(value) {
		if i < 3 && strings.Contains(letters, fp) || i >= 3 && strings.Contains(text, fp) {
			return true
		}
	}
	return false
}

// bypassLeaks checks one observation for protected bytes and host paths.
func bypassLeaks(o bypassObservation, hostDir string) []string {
	var problems []string
	for _, v := range []struct{ what, value string }{
		{"the denied token", bypassSecret}, {"the hidden key", bypassRootKey}, {"the hidden variable's value", bypassVarValue},
		{"the host file outside the mount", bypassHostSecret},
	} {
		if bypassContains(o.text(), v.value) {
			problems = append(problems, fmt.Sprintf("%s leaked:\n%s", v.what, o))
		}
	}
	if hostDir != "" && strings.Contains(o.text(), hostDir) {
		problems = append(problems, fmt.Sprintf("a host path (%s) leaked:\n%s", hostDir, o))
	}
	if o.hostPathShown {
		problems = append(problems, fmt.Sprintf("the host directory behind /host was named:\n%s", o))
	}
	if strings.Contains(o.text(), bypassPasswd) {
		problems = append(problems, fmt.Sprintf("the host's /etc/passwd leaked:\n%s", o))
	}
	return problems
}

// bypassHostUntouched checks the host beside the /host mount's directory:
// nothing the agent did may have written or created anything there.
func bypassHostUntouched(hostRoot string) []string {
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
		!strings.HasPrefix(string(data), "HOST-SIDE-CANARY-") || len(data) != len(bypassHostSecret)+1 {
		problems = append(problems, fmt.Sprintf("the host file outside the mount was written: %q %v", data, err))
	}
	return problems
}

// bypassLaundered walks the whole VFS unrestricted and reports any file,
// other than the original, that holds a protected value: a copy the gate let
// a command make.
func bypassLaundered(ws *Workspace) []string {
	var problems []string
	fsys := ws.VFS().View(nil)
	bypassWalk(fsys, "/", func(p string, data []byte) {
		for _, v := range []struct{ home, value string }{
			{"/vault/aws.", bypassSecret}, {"/vault/internal/", bypassRootKey}, {"\x00", bypassVarValue},
			{"\x00", bypassHostSecret},
		} {
			if !strings.HasPrefix(p, v.home) && bypassContains(string(data), v.value) {
				problems = append(problems, fmt.Sprintf("laundered copy of %q at %s", v.value, p))
			}
		}
	})
	return problems
}

// bypassWalk calls visit for every regular file below dir, not following
// symlinks (a link to the original is not a copy), skipping /dev.
func bypassWalk(fsys vfs.FS, dir string, visit func(string, []byte)) {
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
			bypassWalk(fsys, p, visit)
		case info.Mode().IsRegular():
			if f, err := fsys.Open(p); err == nil {
				data, _ := io.ReadAll(f)
				f.Close()
				visit(p, data)
			}
		}
	}
}

// bypassSnapshot describes a subtree (names, kinds, modes, sizes, times,
// contents, link targets) through the unrestricted VFS.
func bypassSnapshot(ws *Workspace, root string) string {
	fsys := ws.VFS().View(nil)
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
