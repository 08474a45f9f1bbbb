package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initAllowance is the most a package of ours may allocate while Go
// initialises it: every linked package's init runs at every start of
// gatehouse, `exec -- true` included, so tables, maps, regular expressions
// and registries are made on first use (internal/lazy) instead.
const initAllowance = 64 // bytes

// initExtra is what a package may allocate at start-up beyond
// initAllowance, and why.
var initExtra = map[string]int{
	// It reads GATEHOUSE_FAULT_AROUND before the packages it helps: the
	// first Getenv of a process copies the environment into a map, which
	// the command's own first Getenv would do a moment later.
	"gatehouse/internal/faultaround": 8 << 10,
}

// initLine is one line of GODEBUG=inittrace=1:
// "init PKG @T ms, C ms clock, B bytes, A allocs".
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestPackageInitAllocatesNothing runs the command with the runtime's
// initialisation trace and fails when a package of ours (gatehouse/... and
// the carried mvdan.cc/sh) allocates more than initAllowance at start-up. It
// counts bytes, not time, so load does not move it. The test binary is the
// command re-executed (TestMain), whose package main also holds the tests'
// own variables, so package main is checked by reading its source instead
// (TestMainInitializesNothing).
func TestPackageInitAllocatesNothing(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "help")
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("gatehouse help: %v\n%s", err, stderr.String())
	}
	ours := 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		m := initLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		pkg := m[1]
		if !strings.HasPrefix(pkg, "gatehouse/") && !strings.HasPrefix(pkg, "mvdan.cc/sh/") {
			continue
		}
		ours++
		bytes, _ := strconv.Atoi(m[2])
		if bytes > initAllowance+initExtra[pkg] {
			t.Errorf("%s allocates %s bytes (%s allocations) at start-up; make what it builds at init lazy (internal/lazy)", pkg, m[2], m[3])
		}
	}
	// gatehouse/core/shell/utils always has an init (it points its table
	// of utilities at Lookup): without it the trace was not read.
	if ours == 0 {
		t.Fatalf("no init line of ours in the trace:\n%s", stderr.String())
	}
}

// TestMainInitializesNothing: package main's own variables (its non-test
// files) are constants or static data: no initialiser calls a function or
// builds a map. What the trace shows for package main in the test binary
// includes the tests' variables, so this reads the source.
func TestMainInitializesNothing(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
				t.Errorf("%s: package main has an init function", fset.Position(fn.Pos()))
			}
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					if what := initWork(v); what != "" {
						t.Errorf("%s: a package-level variable %s at start-up; make it on first use", fset.Position(v.Pos()), what)
					}
				}
			}
		}
	}
}

// initWork says what an initialiser does at start-up ("" for nothing):
// calls a function (errors.New of a constant is laid out statically) or
// builds a map. Function literals run only when called.
func initWork(v ast.Expr) string {
	what := ""
	ast.Inspect(v, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "errors" && sel.Sel.Name == "New" {
					return false
				}
			}
			what = "calls a function"
		case *ast.CompositeLit:
			if _, ok := n.Type.(*ast.MapType); ok {
				what = "builds a map"
			}
		}
		return what == ""
	})
	return what
}

// TestFaultAroundStopsBeforeTheBigPackages: main imports
// internal/faultaround, and Go initialises it before the large packages whose
// start-up it keeps from mapping neighbouring pages (the SQL engine, the JS
// engine, the console). Its own test shows what it does; this checks it is
// wired in, early.
func TestFaultAroundStopsBeforeTheBigPackages(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "help")
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("gatehouse help: %v\n%s", err, stderr.String())
	}
	seen := false
	for _, line := range strings.Split(stderr.String(), "\n") {
		m := initLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if m[1] == "gatehouse/internal/faultaround" {
			seen = true
			break
		}
		for _, big := range []string{"modernc.org/sqlite/lib", "modernc.org/libc", "github.com/dop251/goja", "charm.land/bubbletea/v2", "charm.land/lipgloss/v2", "github.com/jackc/pgx/v5", "gopkg.in/yaml.v3", "gatehouse/core"} {
			if m[1] == big {
				t.Fatalf("%s is initialised before internal/faultaround", m[1])
			}
		}
	}
	if !seen {
		t.Fatalf("internal/faultaround is not initialised at start-up:\n%s", stderr.String())
	}
}
