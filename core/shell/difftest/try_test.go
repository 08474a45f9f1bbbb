package difftest

import (
	"context"
	"flag"
	"path/filepath"
	"testing"
)

var (
	tryLine    = flag.String("try", "", "run this one line in gatehouse and in real bash and print both (with -archive)")
	tryArchive = flag.String("archive", "", "the archive whose files -try runs over: a path, or a name under testdata/cases or testdata/corpus")
)

// TestTry is a workbench for writing cases: with -try LINE it runs the
// line over an archive's files on both sides and prints what each printed.
// Without -try it does nothing.
//
//	go test ./core/shell/difftest/ -run TestTry -v -archive go -try 'ls -la'
func TestTry(t *testing.T) {
	if *tryLine == "" {
		t.Skip("no -try line")
	}
	suite := &Suite{Utility: "try", Files: map[string]string{}}
	if *tryArchive != "" {
		path := *tryArchive
		for _, dir := range []string{corpusDir, casesDir} {
			if p := filepath.Join(dir, path+".txtar"); fileExists(p) {
				path = p
				break
			}
		}
		archive, err := loadSuiteFile(path)
		if err != nil {
			t.Fatal(err)
		}
		suite.Files, suite.Exec = archive.Files, archive.Exec
		suite.FixedTimes = filepath.Dir(path) == corpusDir
	}
	c := Case{Name: "try", Line: *tryLine}
	host, err := runHost(context.Background(), suite, c)
	if err != nil {
		t.Fatal(err)
	}
	got := runGatehouse(t, suite, c)
	t.Logf("bash: exit %d\n--- stdout\n%s--- stderr\n%s", host.Exit, host.Stdout, host.Stderr)
	t.Logf("gatehouse: exit %d\n--- stdout\n%s--- stderr\n%s", got.Exit, got.Stdout, got.Stderr)
	if host.Tree != got.Tree {
		t.Logf("tree (- bash, + gatehouse):\n%s", lineDiff(host.Tree, got.Tree))
	}
	if host == got {
		t.Log("identical")
	}
}
