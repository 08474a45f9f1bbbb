package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// doors are the packages through which agents and hosts reach a
// workspace: the CLI (this package), the console, REST and MCP.
var doors = []string{".", "./tui", "./rest", "./mcp"}

// gatePackages are what a door must not import: every door speaks to the
// core Session API (and core/decisions' records), so one gate decides
// everything and no door judges anything itself.
var gatePackages = regexp.MustCompile(`^gatehouse/core/(gate|vfs|shell)(/|$)`)

// bypassCalls are the Workspace methods for embedders that reach past the
// Session API (the raw mount table, a compiled profile).
var bypassCalls = regexp.MustCompile(`\.VFS\(\)|\b(ws|w|workspace)\.Profile\(`)

// TestDoorsSpeakOnlyTheSessionAPI fails when a door imports the gate, the
// VFS or the shell directly, or calls the Workspace methods that reach past
// the Session API. Test files are free to (they build fixtures).
func TestDoorsSpeakOnlyTheSessionAPI(t *testing.T) {
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}} {{join .Imports \" \"}} | {{join .GoFiles \" \"}}"}, doors...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dirs := map[string]string{"gatehouse": ".", "gatehouse/tui": "tui", "gatehouse/rest": "rest", "gatehouse/mcp": "mcp"}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		imports, files, _ := strings.Cut(line, " | ")
		fields := strings.Fields(imports)
		pkg := fields[0]
		seen++
		for _, imp := range fields[1:] {
			if gatePackages.MatchString(imp) {
				t.Errorf("door %s imports %s; it must reach files and the gate through core.Session", pkg, imp)
			}
		}
		for _, f := range strings.Fields(files) {
			src, err := os.ReadFile(filepath.Join(dirs[pkg], f))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range bypassCalls.FindAllString(string(src), -1) {
				t.Errorf("door %s (%s) calls %s; doors use the Session API", pkg, f, m)
			}
		}
	}
	if seen != len(doors) {
		t.Fatalf("go list described %d packages, want %d:\n%s", seen, len(doors), out)
	}
}

// TestGateLinksNoInterpreter fails when importing the gate links a policy
// language's interpreter: the engines live in core/gate/starlark and
// core/gate/javascript and are passed in (gate.WithEngines), so a program
// that judges with document rules and Go policies alone carries neither.
func TestGateLinksNoInterpreter(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./core/gate").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, interp := range []string{"go.starlark.net/", "github.com/dop251/goja", "github.com/dlclark/regexp2", "gatehouse/core/gate/starlark", "gatehouse/core/gate/javascript"} {
			if strings.HasPrefix(dep, interp) {
				t.Errorf("gatehouse/core/gate depends on %s; engines are passed in, not imported", dep)
			}
		}
	}
}

// sqlPackages are the packages that speak SQL: a database driver or
// database/sql itself.
var sqlPackages = regexp.MustCompile(`^(database/sql|modernc\.org/sqlite|github\.com/jackc/pgx)(/|$)`)

// TestSQLOnlyInStore fails when a package outside store/ imports
// database/sql or a database driver: the ledger's SQL lives behind
// store.Ledger, so a second backend replaces one package. Tests may look
// into a ledger directly (a process test checks what a killed daemon left
// in PostgreSQL), so only the packages' own files count.
func TestSQLOnlyInStore(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := fields[0]
		if pkg == "gatehouse/store" || strings.HasPrefix(pkg, "gatehouse/store/") || strings.HasPrefix(pkg, "gatehouse/third_party/") {
			continue
		}
		for _, imp := range fields[1:] {
			if sqlPackages.MatchString(imp) {
				t.Errorf("%s imports %s; SQL belongs in store/", fields[0], imp)
			}
		}
	}
}
