package difftest

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

var recordFlag = flag.Bool("record", false, "run every case in real bash and rewrite testdata/fixtures")

var recordOnly = flag.String("record-only", "", "with -record, rewrite only this utility's fixture")

const (
	casesDir    = "testdata/cases"
	fixturesDir = "testdata/fixtures"
	// stdinFile is where a case's standard input waits in the gatehouse
	// run: Session.Execute takes no stdin, so the line reads it from a file.
	stdinFile = "/tmp/.difftest-stdin"
)

// tally counts one utility's results for the summary line.
type tally struct {
	cases, pass, fail, skip int
}

// TestDifferential runs every case in gatehouse and compares it with what
// real bash printed (G-12.2).
func TestDifferential(t *testing.T) {
	if testing.Short() {
		// CI's race step runs -short: thousands of single-threaded
		// lines there take ten minutes and find no race the core tests
		// don't; the plain run compares every case.
		t.Skip("differential cases run without -short")
	}
	suites, err := loadSuites(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(suites) == 0 {
		t.Fatalf("no archives in %s", casesDir)
	}
	var mu sync.Mutex
	tallies := map[string]*tally{}
	var failures []string

	t.Run("cases", func(t *testing.T) {
		for _, suite := range suites {
			tl := &tally{}
			tallies[suite.Utility] = tl
			t.Run(suite.Utility, func(t *testing.T) {
				// Recording happens here, so -run picks what -record
				// rewrites.
				recorded, ok := suiteFixture(t, suite, fixturesDir)
				if !ok {
					return
				}
				for _, c := range suite.Cases {
					t.Run(c.Name, func(t *testing.T) {
						t.Parallel()
						verdict := "skip"
						if c.Known != "" {
							t.Fatalf("%q: known: markers belong to the corpus, not to a utility's archive", c.Name)
						}
						if c.Skip == "" {
							verdict = runCase(t, suite, c, recorded)
						}
						mu.Lock()
						tl.cases++
						switch verdict {
						case "pass":
							tl.pass++
						case "skip":
							tl.skip++
						default:
							tl.fail++
							failures = append(failures, suite.Utility+"/"+c.Name)
						}
						mu.Unlock()
						if verdict == "skip" {
							t.Skipf("deliberate divergence: %s", c.Skip)
						}
					})
				}
			})
		}
	})

	names := make([]string, 0, len(tallies))
	total := tally{}
	for n, tl := range tallies {
		if tl.cases == 0 {
			continue // filtered out by -run
		}
		names = append(names, n)
		total.cases += tl.cases
		total.pass += tl.pass
		total.fail += tl.fail
		total.skip += tl.skip
	}
	sort.Strings(names)
	var per []string
	for _, n := range names {
		tl := tallies[n]
		per = append(per, fmt.Sprintf("%s %d/%d", n, tl.pass, tl.cases-tl.skip))
	}
	t.Logf("differential summary: %d cases, %d pass, %d fail, %d skipped; per utility (pass/compared): %s",
		total.cases, total.pass, total.fail, total.skip, strings.Join(per, ", "))
	if len(failures) > 0 {
		sort.Strings(failures)
		t.Logf("mismatches: %s", strings.Join(failures, ", "))
	}
}

// suiteFixture records the suite's fixture under -record, then loads it
// as a map by case name. ok is false (and the test failed) without one.
func suiteFixture(t *testing.T, suite *Suite, dir string) (recorded map[string]Recorded, ok bool) {
	t.Helper()
	fixturePath := filepath.Join(dir, suite.Utility+".json")
	if *recordFlag && (*recordOnly == "" || *recordOnly == suite.Utility) && !handWritten(fixturePath) {
		if err := record(context.Background(), suite, fixturePath); err != nil {
			t.Fatalf("recording %s: %v", suite.Utility, err)
		}
	}
	fx, err := loadFixture(fixturePath)
	if err != nil {
		t.Errorf("%s: no fixture (run go test ./core/shell/difftest/ -record): %v", suite.Utility, err)
		return nil, false
	}
	recorded = map[string]Recorded{}
	for _, r := range fx.Cases {
		recorded[r.Name] = r
	}
	return recorded, true
}

// handWritten reports a fixture written by hand (its host says "none:"),
// for a tool the recording host lacks: -record leaves it alone.
func handWritten(path string) bool {
	fx, err := loadFixture(path)
	return err == nil && strings.HasPrefix(fx.Host, "none:")
}

// runCase runs one case in gatehouse and compares it with the fixture. It
// returns "pass", "fail", or "known" for a corpus line known to differ
// (its difference is logged, not failed).
func runCase(t *testing.T, suite *Suite, c Case, recorded map[string]Recorded) string {
	want, ok := recorded[c.Name]
	switch {
	case !ok:
		t.Errorf("no recorded outcome for %q; re-record with -record", c.Name)
		return "fail"
	case want.Input != inputDigest(suite.Files, suite.Exec, c):
		t.Errorf("fixture is stale for %q (line or files changed); re-record with -record", c.Name)
		return "fail"
	}
	got := runGatehouse(t, suite, c)
	if want.Tree == "" {
		got.Tree = "" // recorded before trees were: not compared
	}
	if c.Unordered {
		want.Stdout, got.Stdout = sortedLines(want.Stdout), sortedLines(got.Stdout)
	}
	if got == want.Outcome {
		if c.Known != "" {
			t.Errorf("%s: %s\nmatches bash now: remove its \"known: %s\" marker", suite.Utility, c.Line, c.Known)
			return "fail"
		}
		return "pass"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", suite.Utility, c.Line)
	if got.Exit != want.Exit {
		fmt.Fprintf(&b, "exit: bash %d, gatehouse %d\n", want.Exit, got.Exit)
	}
	if got.Stdout != want.Stdout {
		fmt.Fprintf(&b, "stdout (- bash, + gatehouse):\n%s", lineDiff(want.Stdout, got.Stdout))
	}
	if got.Stderr != want.Stderr {
		fmt.Fprintf(&b, "stderr (- bash, + gatehouse):\n%s", lineDiff(want.Stderr, got.Stderr))
	}
	if got.Tree != want.Tree {
		fmt.Fprintf(&b, "tree after the line (- bash, + gatehouse):\n%s", lineDiff(want.Tree, got.Tree))
	}
	if c.Known != "" {
		t.Logf("known (%s):\n%s", c.Known, b.String())
		return "known"
	}
	t.Error(b.String())
	return "fail"
}

// runGatehouse runs the case in a fresh workspace whose /w holds the
// suite's files, with bash's recording environment (HOME=/w, TZ=UTC), and
// lists /w afterwards.
func runGatehouse(t *testing.T, suite *Suite, c Case) Outcome {
	mounts := []vfs.MountSpec{{Prefix: "/w", Files: suite.Files}}
	line := c.Line
	if c.Stdin != nil {
		mounts = append(mounts, vfs.MountSpec{Prefix: "/tmp", Files: map[string]string{strings.TrimPrefix(stdinFile, "/tmp/"): *c.Stdin}})
		line = "{ " + line + "\n} <" + stdinFile
	}
	profile := gate.ProfileSpec{
		Name: "difftest",
		Cwd:  "/w",
		Env:  map[string]string{"HOME": "/w", "TZ": "UTC", "PATH": "/usr/bin:/bin"},
	}
	ws, err := core.NewWorkspace(mounts, core.WithProfiles(profile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	view := ws.VFS().View(vfs.OpenDoor)
	for name := range suite.Exec {
		if err := view.Chmod("/w/"+name, 0o755); err != nil {
			t.Fatalf("seeding %s executable: %v", name, err)
		}
	}
	if suite.FixedTimes {
		if err := settleVFSTimes(view, "/w"); err != nil {
			t.Fatalf("settling seed times: %v", err)
		}
	}
	before, err := vfsTree(view, "/w")
	if err != nil {
		t.Fatalf("listing /w before the line: %v", err)
	}
	s, err := ws.CreateSession("difftest", core.Profile("difftest"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := s.Execute(ctx, line)
	after, err := vfsTree(view, "/w")
	if err != nil {
		t.Fatalf("listing /w after the line: %v", err)
	}
	return normalise(Outcome{Stdout: res.Stdout, Stderr: res.Stderr, Exit: res.ExitCode, Tree: treeChanges(before, after)})
}

// settleVFSTimes gives the seeded tree, its root included, seedTime, as
// settleTimes does on the host.
func settleVFSTimes(view vfs.FS, dir string) error {
	list, err := view.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, d := range list {
		p := dir + "/" + d.Name()
		if d.IsDir() {
			if err := settleVFSTimes(view, p); err != nil {
				return err
			}
			continue
		}
		if err := view.Chtimes(p, seedTime, seedTime); err != nil {
			return err
		}
	}
	return view.Chtimes(dir, seedTime, seedTime)
}

// vfsTree lists a VFS directory in treeListing's form.
func vfsTree(view vfs.FS, root string) (string, error) {
	var entries []treeEntry
	var walk func(dir, rel string) error
	walk = func(dir, rel string) error {
		list, err := view.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, d := range list {
			info, err := d.Info()
			if err != nil {
				return err
			}
			full, name := dir+"/"+d.Name(), rel+d.Name()
			e := treeEntry{path: name, mode: info.Mode()}
			switch {
			case info.Mode()&fs.ModeSymlink != 0:
				if e.content, err = view.Readlink(full); err != nil {
					return err
				}
			case info.Mode().IsRegular():
				f, err := view.Open(full)
				if err != nil {
					return err
				}
				data, err := io.ReadAll(f)
				f.Close()
				if err != nil {
					return err
				}
				e.content = string(data)
			}
			entries = append(entries, e)
			if info.IsDir() {
				if err := walk(full, name+"/"); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk(root, "")
	return treeListing(entries), err
}

// sortedLines sorts a text's lines (each keeps its newline).
func sortedLines(s string) string {
	lines := splitKeep(s)
	sort.Strings(lines)
	return strings.Join(lines, "")
}

// lineDiff shows two texts line by line: common lines with two spaces,
// bash-only lines with "-", gatehouse-only lines with "+". It is a plain
// longest-common-subsequence diff; outputs here are small.
func lineDiff(want, got string) string {
	a, b := splitKeep(want), splitKeep(got)
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			fmt.Fprintf(&out, "   %q\n", a[i])
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&out, "  +%q\n", b[j])
			j++
		default:
			fmt.Fprintf(&out, "  -%q\n", a[i])
			i++
		}
	}
	return out.String()
}

// splitKeep splits after each newline, keeping it, so a missing final
// newline shows in the diff.
func splitKeep(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
