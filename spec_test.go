package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// clauseID is a clause id as code and tests cite it: G-9, G-9.5, G-6.1a.
var clauseID = regexp.MustCompile(`G-[0-9]+(\.[0-9]+[a-z]?)?`)

// clauseDefinition is how docs/spec.md defines an id: a section heading
// ("## G-9 Asks, …") or a clause that opens a paragraph ("**G-9.5** …").
var clauseDefinition = regexp.MustCompile(`(?m)^(?:## |\*\*)(G-[0-9]+(?:\.[0-9]+[a-z]?)?)[* ]`)

// TestEveryCitedClauseIsDefined fails when a Go file cites a clause id that
// docs/spec.md does not define, so the contract the tests cite is always in
// the repository.
func TestEveryCitedClauseIsDefined(t *testing.T) {
	spec, err := os.ReadFile("docs/spec.md")
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, m := range clauseDefinition.FindAllStringSubmatch(string(spec), -1) {
		if defined[m[1]] {
			t.Errorf("docs/spec.md defines %s twice", m[1])
		}
		defined[m[1]] = true
	}
	if len(defined) < 15 {
		t.Fatalf("docs/spec.md defines only %d clauses; is the format still \"## G-N\" / \"**G-N.M**\"?", len(defined))
	}

	cited := map[string][]string{} // id -> files citing it
	err = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || p == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, id := range clauseID.FindAllString(string(text), -1) {
			if files := cited[id]; len(files) == 0 || files[len(files)-1] != p {
				cited[id] = append(files, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for id, files := range cited {
		if !defined[id] {
			missing = append(missing, id+" (cited in "+strings.Join(files, ", ")+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("clause %s is not defined in docs/spec.md", m)
	}
}
