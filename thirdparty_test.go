package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goModCopies reads go.mod's replace lines that point into third_party/ and
// the version go.mod requires of each replaced module. It reads go.mod as
// text: the file's grammar for these two line kinds is one line each.
func goModCopies(t *testing.T) (dirOf, versionOf map[string]string) {
	t.Helper()
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	dirOf, versionOf = map[string]string{}, map[string]string{}
	inRequire := false
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "require" && f[1] == "(":
			inRequire = true
		case len(f) == 1 && f[0] == ")":
			inRequire = false
		case len(f) >= 3 && f[0] == "require":
			versionOf[f[1]] = f[2]
		case inRequire && len(f) >= 2:
			versionOf[f[0]] = f[1]
		case len(f) == 4 && f[0] == "replace" && f[2] == "=>" && strings.HasPrefix(f[3], "./third_party/"):
			dirOf[f[1]] = strings.TrimPrefix(f[3], "./")
		}
	}
	return dirOf, versionOf
}

// TestCarriedCopiesMatchGoMod holds the rule for the dependencies carried
// under third_party/ (docs/architecture.md): a replace line wins over the
// version go.mod requires, so a dependency moved to a newer version would go
// on building the old copy without a word. Each copy's PATCHES.md names the
// version it was copied from; go.mod must require exactly that one, and
// every directory under third_party/ must be a replaced module with a
// PATCHES.md.
func TestCarriedCopiesMatchGoMod(t *testing.T) {
	t.Parallel()
	dirOf, versionOf := goModCopies(t)
	replaced := map[string]bool{}
	for module, dir := range dirOf {
		replaced[dir] = true
		version, ok := versionOf[module]
		if !ok {
			t.Errorf("go.mod replaces %s with ./%s but requires no version of it", module, dir)
			continue
		}
		patches, err := os.ReadFile(filepath.Join(dir, "PATCHES.md"))
		if err != nil {
			t.Errorf("%s: %v (every carried copy lists its changes there)", module, err)
			continue
		}
		if !strings.Contains(string(patches), version) {
			t.Errorf("go.mod requires %s %s, but %s/PATCHES.md does not name that version: copy the new version into %s and re-apply the patches, or keep the requirement at the copy's version",
				module, version, dir, dir)
		}
	}
	entries, err := os.ReadDir("third_party")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		dir := filepath.ToSlash(filepath.Join("third_party", e.Name()))
		if e.IsDir() && !replaced[dir] {
			t.Errorf("%s is not named by a replace line in go.mod, so nothing builds it", dir)
		}
	}
	if len(dirOf) == 0 {
		t.Fatal("go.mod replaces no module with a copy under third_party/")
	}
}
