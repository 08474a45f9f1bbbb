package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// maxFunctionLines is the length past which a function must be split (or,
// for now, be listed in longFunctionsFile). STYLE §8: split one over 150
// lines before adding a feature to it.
const maxFunctionLines = 150

// longFunctionsFile lists the functions allowed over maxFunctionLines, one
// "PATH NAME LINES" a line. The list only shrinks: a listed function may
// not grow, and one that no longer needs its entry must lose it.
const longFunctionsFile = ".ci/long-functions.txt"

// TestFunctionLengths fails when a function of the product (tests and the
// carried mvdan/sh aside) is longer than maxFunctionLines and not listed,
// grew past its listed length, or is listed without needing to be.
func TestFunctionLengths(t *testing.T) {
	allowed := map[string]int{}
	if f, err := os.Open(longFunctionsFile); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			fields := strings.Fields(line)
			n, err := strconv.Atoi(fields[len(fields)-1])
			if len(fields) != 3 || err != nil {
				t.Fatalf("%s: %q is not PATH NAME LINES", longFunctionsFile, line)
			}
			allowed[fields[0]+" "+fields[1]] = n
		}
		f.Close()
	}
	type fn struct {
		key   string
		lines int
	}
	var long []fn
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || p == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if d, ok := decl.(*ast.FuncDecl); ok && d.Body != nil {
				n := fset.Position(d.End()).Line - fset.Position(d.Pos()).Line + 1
				if n > 100 {
					long = append(long, fn{p + " " + funcName(d), n})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(long, func(i, j int) bool { return long[i].lines > long[j].lines })
	var report strings.Builder
	for _, f := range long {
		fmt.Fprintf(&report, "%5d %s\n", f.lines, f.key)
		limit, listed := allowed[f.key]
		delete(allowed, f.key)
		switch {
		case f.lines > maxFunctionLines && !listed:
			t.Errorf("%s is %d lines (over %d): split it (STYLE §8)", f.key, f.lines, maxFunctionLines)
		case listed && f.lines > limit:
			t.Errorf("%s grew to %d lines (listed at %d): split it before adding to it", f.key, f.lines, limit)
		case listed && f.lines <= maxFunctionLines:
			t.Errorf("%s is %d lines now: remove it from %s (the list only shrinks)", f.key, f.lines, longFunctionsFile)
		case listed && f.lines < limit:
			t.Errorf("%s shrank to %d lines: lower its entry in %s", f.key, f.lines, longFunctionsFile)
		}
	}
	for key := range allowed {
		t.Errorf("%s is listed in %s but no longer over 100 lines (or gone): remove the entry", key, longFunctionsFile)
	}
	t.Logf("functions over 100 lines (limit %d):\n%s", maxFunctionLines, report.String())
}

// funcName is NAME, or RECEIVER.NAME for a method.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	typ := d.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if ix, ok := typ.(*ast.IndexExpr); ok {
		typ = ix.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}
