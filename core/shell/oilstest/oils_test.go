package oilstest

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

var (
	updateFlag = flag.Bool("oils-update", false, "rewrite testdata/baseline.txt, testdata/bash-passes.txt and the table in docs/conformance.md")
	fileFlag   = flag.String("oils-file", "", "run only the spec files whose name contains this text")
	caseFlag   = flag.String("oils-case", "", "run only the cases whose name matches this regular expression")
	showFlag   = flag.Bool("oils-show", false, "print how every failing case differs")
	allFlag    = flag.Bool("oils-all", false, "run every bash spec file of the suite, not only the measured ones (ysh-, hay- and zsh- files excepted)")
)

const (
	baselineFile  = "testdata/baseline.txt"
	bashPassFile  = "testdata/bash-passes.txt"
	conformanceMD = "../../../docs/conformance.md"
	tableBegin    = "<!-- oils-table:begin -->"
	tableEnd      = "<!-- oils-table:end -->"
	caseTimeout   = 10 * time.Second
)

// suiteFiles are the 53 spec files we measure: the parts of bash agents
// use (quoting, words and their splitting, parameter operators,
// arithmetic, arrays and associative arrays, assignments and declarations,
// read, printf, echo, redirects and here-docs, traps, errexit, globs and
// extglob, tilde, brace expansion, functions, pipelines, command
// substitution, background jobs and wait, control flow, [[ ]]).
var suiteFiles = []string{
	"quote", "word-split", "word-eval", "comments",
	"var-sub", "var-sub-quote", "var-op-test", "var-op-strip", "var-op-patsub",
	"var-op-slice", "var-op-len", "var-op-bash", "var-ref", "var-num",
	"arith", "arith-context", "dparen", "let",
	"array", "array-basic", "array-assign", "array-literal", "array-sparse", "array-assoc",
	"assign", "assign-extended", "append",
	"builtin-read", "builtin-printf", "builtin-echo",
	"redirect", "redirect-multi", "redirect-command", "here-doc",
	"builtin-trap", "builtin-trap-bash", "builtin-trap-err", "errexit",
	"glob", "glob-bash", "extglob-match", "extglob-files", "tilde", "brace-expansion",
	"sh-func", "func-parsing", "pipeline", "command-sub", "background",
	"case_", "if_", "loop", "dbracket",
}

// caseResult is one case's outcome on both sides.
type caseResult struct {
	file, id string
	skip     string // why gatehouse does not run it, or ""
	bashPass bool
	ghPass   bool
	diff     string // how gatehouse differs from the expectation
}

// TestOils runs the suite and prints, per file, how many of the cases
// real bash passes gatehouse passes too.
func TestOils(t *testing.T) {
	dir := os.Getenv("OILS_SPEC_DIR")
	if dir == "" {
		t.Skip("OILS_SPEC_DIR is not set: the Oils spec suite is not vendored (see core/shell/oilstest/README.md)")
	}
	caseRe, err := regexp.Compile(*caseFlag)
	if err != nil {
		t.Fatalf("-oils-case: %v", err)
	}
	repo, err := repoFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	bash := findBash52()
	var recordedBash map[string]bool
	if bash == "" {
		t.Log("no bash 5.2 on this host: which cases bash passes comes from " + bashPassFile)
		if recordedBash, err = readNames(bashPassFile); err != nil {
			t.Fatal(err)
		}
	}
	env := &runEnv{bash: bash, dir: dir, repo: repo}
	if bash != "" {
		env.helpers = helperDir(t)
	}

	var jobs []*caseResult
	var codes []*specCase
	files := suiteFiles
	if *allFlag {
		files = allSpecFiles(t, dir)
	}
	for _, file := range files {
		if *fileFlag != "" && !strings.Contains(file, *fileFlag) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, file+".test.sh"))
		if err != nil {
			t.Fatal(err)
		}
		cases, err := parseSpecFile(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		seen := map[string]int{}
		for _, c := range cases {
			id := c.Name
			if seen[c.Name]++; seen[c.Name] > 1 {
				id = fmt.Sprintf("%s (%d)", c.Name, seen[c.Name])
			}
			if !caseRe.MatchString(id) {
				continue
			}
			jobs = append(jobs, &caseResult{file: file, id: id})
			codes = append(codes, c)
		}
	}

	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, c := jobs[i], codes[i]
				want := c.For("bash")
				if bash != "" {
					r.bashPass, _ = want.check(env.runBash(c.Code))
				} else {
					r.bashPass = recordedBash[r.file+": "+r.id]
				}
				if r.skip = skips[r.file+": "+r.id]; r.skip != "" || !r.bashPass {
					continue
				}
				var diff string
				r.ghPass, diff = want.check(env.runGatehouse(t, c.Code))
				if !r.ghPass {
					r.diff = diff
				}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	report(t, jobs)
}

// report prints the per-file table and the skipped and failing cases,
// checks the baseline, and rewrites the committed files under -oils-update.
func report(t *testing.T, results []*caseResult) {
	baseline, err := readNames(baselineFile)
	if err != nil && !*updateFlag {
		t.Fatal(err)
	}
	table := resultTable(results)
	t.Log("\n" + table)
	var regressions, skipped []string
	for _, r := range results {
		key := r.file + ": " + r.id
		if r.skip != "" && r.bashPass {
			skipped = append(skipped, fmt.Sprintf("  skip %s: %s", key, r.skip))
		}
		if r.bashPass && r.skip == "" && !r.ghPass {
			if *showFlag {
				t.Logf("FAIL %s\n%s", key, r.diff)
			}
			if baseline[key] {
				regressions = append(regressions, key+"\n"+r.diff)
			}
		}
	}
	if len(skipped) > 0 {
		t.Log("cases skipped (they need a real host):\n" + strings.Join(skipped, "\n"))
	}
	if *updateFlag {
		if err := writeResults(results); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, r := range regressions {
		t.Errorf("regression: a case of %s fails: %s", baselineFile, r)
	}
}

// resultTable renders the per-file table in Markdown.
func resultTable(results []*caseResult) string {
	type row struct{ cases, bash, skip, pass int }
	rows := map[string]*row{}
	var order []string
	total := &row{}
	for _, r := range results {
		w := rows[r.file]
		if w == nil {
			w = &row{}
			rows[r.file] = w
			order = append(order, r.file)
		}
		for _, x := range []*row{w, total} {
			x.cases++
			if r.bashPass {
				x.bash++
				if r.skip != "" {
					x.skip++
				} else if r.ghPass {
					x.pass++
				}
			}
		}
	}
	pct := func(w *row) string {
		if w.bash == 0 {
			return "–"
		}
		return fmt.Sprintf("%.1f %%", 100*float64(w.pass)/float64(w.bash))
	}
	var b strings.Builder
	b.WriteString("| file | cases | bash passes | skipped | gatehouse passes | of bash's |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for _, f := range order {
		w := rows[f]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s |\n", f, w.cases, w.bash, w.skip, w.pass, pct(w))
	}
	fmt.Fprintf(&b, "| **all %d files** | %d | %d | %d | %d | **%s** |\n", len(order), total.cases, total.bash, total.skip, total.pass, pct(total))
	return b.String()
}

// writeResults rewrites the baseline, the list of cases bash passes and
// the table in docs/conformance.md.
func writeResults(results []*caseResult) error {
	var pass, bash []string
	for _, r := range results {
		key := r.file + ": " + r.id
		if r.bashPass {
			bash = append(bash, key)
			if r.ghPass {
				pass = append(pass, key)
			}
		}
	}
	header := "# Oils spec cases gatehouse passes (one \"FILE: CASE\" a line); written by\n# go test ./core/shell/oilstest -oils-update. A case listed here that fails is a regression.\n"
	if err := writeNames(baselineFile, header, pass); err != nil {
		return err
	}
	header = "# Oils spec cases real bash 5.2 passes (one \"FILE: CASE\" a line), for hosts\n# without bash 5.2; written by go test ./core/shell/oilstest -oils-update.\n"
	if findBash52() != "" {
		if err := writeNames(bashPassFile, header, bash); err != nil {
			return err
		}
	}
	doc, err := os.ReadFile(conformanceMD)
	if err != nil {
		return err
	}
	begin, end := bytes.Index(doc, []byte(tableBegin)), bytes.Index(doc, []byte(tableEnd))
	if begin < 0 || end < begin {
		return fmt.Errorf("%s: no %s … %s markers", conformanceMD, tableBegin, tableEnd)
	}
	var out bytes.Buffer
	out.Write(doc[:begin+len(tableBegin)])
	out.WriteString("\n" + resultTable(results))
	out.Write(doc[end:])
	return os.WriteFile(conformanceMD, out.Bytes(), 0o644)
}

func writeNames(path, header string, names []string) error {
	sort.Strings(names)
	return os.WriteFile(path, []byte(header+strings.Join(names, "\n")+"\n"), 0o644)
}

// readNames reads a list written by writeNames.
func readNames(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			names[l] = true
		}
	}
	return names, nil
}

// findBash52 is the host's bash when it is version 5.2, else "".
func findBash52() string {
	path, err := exec.LookPath("bash")
	if err != nil {
		return ""
	}
	out, err := exec.Command(path, "-c", "echo ${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}").Output()
	if err != nil || strings.TrimSpace(string(out)) != "5.2" {
		return ""
	}
	return path
}

// repoFiles reads the suite's testdata directory (sourced scripts and
// inputs some cases use through $REPO_ROOT/spec/testdata).
func repoFiles(specDir string) (map[string]string, error) {
	files := map[string]string{}
	root := filepath.Join(specDir, "testdata")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(specDir, p)
		files["spec/"+filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return files, nil
	}
	return files, err
}

// runEnv is what both sides need to run a case.
type runEnv struct {
	bash    string // real bash 5.2, or "" when the host has none
	helpers string // directory of helper symlinks for real bash
	dir     string // $OILS_SPEC_DIR
	repo    map[string]string
}

// runBash runs code in real bash as a gatehouse line runs: as the
// argument of bash -c (the suite's own runner feeds the script on standard
// input, where a few errors end the shell with another status), with an
// empty standard input, in a fresh directory that is also $TMP.
func (e *runEnv) runBash(code string) outcome {
	tmp, err := os.MkdirTemp("", "oils-case-")
	if err != nil {
		return outcome{Stderr: err.Error(), Status: -1}
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bash, "-c", code)
	cmd.Dir = tmp
	cmd.Stdin = strings.NewReader("")
	cmd.Env = []string{
		"PATH=" + e.helpers + ":/usr/bin:/bin",
		"LC_ALL=C.UTF-8",
		"TMP=" + tmp,
		"SH=" + e.bash,
		"REPO_ROOT=" + filepath.Dir(e.dir),
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	status := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		status = -1
	}
	return outcome{Stdout: stdout.String(), Stderr: stderr.String(), Status: status}
}

// runGatehouse runs code as one line of a fresh session: an unrestricted
// profile, a memory mount /tmp that is the cwd and $TMP, and the suite's
// testdata under /repo ($REPO_ROOT).
func (e *runEnv) runGatehouse(t *testing.T, code string) outcome {
	mounts := []vfs.MountSpec{
		{Prefix: "/tmp", Files: map[string]string{}},
		{Prefix: "/repo", Files: e.repo},
	}
	profile := gate.ProfileSpec{
		Name: "oils",
		Cwd:  "/tmp",
		Env: map[string]string{
			"LC_ALL":    "C.UTF-8",
			"TMP":       "/tmp",
			"SH":        "bash",
			"REPO_ROOT": "/repo",
		},
	}
	ws, err := core.NewWorkspace(mounts, core.WithProfiles(profile), core.WithLimits(core.Limits{WallTime: caseTimeout}))
	if err != nil {
		t.Error(err)
		return outcome{Status: -1}
	}
	defer ws.Close()
	s, err := ws.CreateSession("oils", core.Profile("oils"))
	if err != nil {
		t.Error(err)
		return outcome{Status: -1}
	}
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout+5*time.Second)
	defer cancel()
	res := s.Execute(ctx, code)
	return outcome{Stdout: res.Stdout, Stderr: res.Stderr, Status: res.ExitCode}
}

// skips are the cases gatehouse does not run, each with its reason: only
// what needs a real host (a terminal, job control, a real process table).
var skips = map[string]string{
	"var-num: $0 with -i":                         "starts an interactive shell, which needs a terminal",
	"background: jobs prints one line per job":    "uses job control (jobs)",
	"background: jobs -p prints one line per job": "uses job control (jobs -p)",
}

// allSpecFiles lists every spec file of the suite about bash.
func allSpecFiles(t *testing.T, dir string) []string {
	list, err := filepath.Glob(filepath.Join(dir, "*.test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, p := range list {
		name := strings.TrimSuffix(filepath.Base(p), ".test.sh")
		if !strings.HasPrefix(name, "ysh-") && !strings.HasPrefix(name, "hay") && !strings.HasPrefix(name, "zsh-") {
			files = append(files, name)
		}
	}
	return files
}
