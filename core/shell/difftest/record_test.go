package difftest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Outcome is what one run of a line printed and returned.
type Outcome struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Exit   int    `json:"exit"`
	// Tree is what the line changed in the working directory
	// (treeChanges), so an edit that printed nothing is compared too.
	// Fixtures recorded before it existed have none, and then it is not
	// compared.
	Tree string `json:"tree,omitempty"`
}

// A Recorded case is real bash's outcome for one case, with the inputs it
// was recorded from so a stale fixture is noticed instead of trusted.
type Recorded struct {
	Name  string `json:"name"`
	Line  string `json:"line"`
	Input string `json:"input,omitempty"` // inputDigest of line, stdin and files
	Skip  string `json:"skip,omitempty"`  // a deliberate divergence: not run
	Outcome
}

// Fixture is one utility's recorded truth.
type Fixture struct {
	Utility string     `json:"utility"`
	Host    string     `json:"host"` // the bash that recorded it, for the curious
	Cases   []Recorded `json:"cases"`
}

// inputDigest fingerprints everything a case's outcome depends on.
func inputDigest(files map[string]string, exec map[string]bool, c Case) string {
	h := sha256.New()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "file %q %q\n", n, files[n])
		if exec[n] {
			fmt.Fprintf(h, "exec %q\n", n)
		}
	}
	fmt.Fprintf(h, "line %q\n", c.Line)
	if c.Stdin != nil {
		fmt.Fprintf(h, "stdin %q\n", *c.Stdin)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// hostEnv is the whole environment real bash gets; HOME is the case's own
// directory, so it normalises to /w like everything else there.
func hostEnv(dir string) []string {
	return []string{"LC_ALL=C", "TZ=UTC", "PATH=/usr/bin:/bin", "HOME=" + dir}
}

// dangerous refuses lines that must never run on the recording host.
var dangerous = regexp.MustCompile(`\bdate\b.*(\s-s\b|--set)|\brm\b[^|;&]*\s/(\s|$)|\bsudo\b|\bshutdown\b`)

// runHost runs the line in real bash inside a fresh directory holding the
// suite's files and returns the normalised outcome.
func runHost(ctx context.Context, suite *Suite, c Case) (Outcome, error) {
	if dangerous.MatchString(c.Line) {
		return Outcome{}, fmt.Errorf("refusing to run %q on the host", c.Line)
	}
	dir, err := os.MkdirTemp("", "difftest-")
	if err != nil {
		return Outcome{}, err
	}
	defer os.RemoveAll(dir)
	// MkdirTemp makes 0700; the mount root gatehouse lists as "." is 0755.
	if err := os.Chmod(dir, 0o755); err != nil {
		return Outcome{}, err
	}
	if err := writeTree(dir, suite.Files, suite.Exec); err != nil {
		return Outcome{}, err
	}
	if suite.FixedTimes {
		if err := settleTimes(dir); err != nil {
			return Outcome{}, err
		}
	}
	before, err := hostTree(dir, nil)
	if err != nil {
		return Outcome{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	keepHostFdsOut()
	cmd := exec.CommandContext(ctx, "bash", "-c", c.Line)
	cmd.Dir = dir
	cmd.Env = hostEnv(dir)
	if c.Stdin != nil {
		cmd.Stdin = strings.NewReader(*c.Stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return Outcome{}, runErr
	}
	if ctx.Err() != nil {
		return Outcome{}, fmt.Errorf("%q did not finish on the host", c.Line)
	}
	spellings := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		spellings = append(spellings, real)
	}
	after, err := hostTree(dir, spellings)
	if err != nil {
		return Outcome{}, err
	}
	return normalise(Outcome{
		Stdout: relocate(stdout.String(), spellings),
		Stderr: relocate(stderr.String(), spellings),
		Exit:   cmd.ProcessState.ExitCode(),
		Tree:   treeChanges(before, after),
	}), nil
}

// hostTree lists the host directory after a run in treeListing's form.
// A line may have made it unreadable (chmod 000); it is made readable
// again so the listing and the cleanup work.
func hostTree(dir string, spellings []string) (string, error) {
	var entries []treeEntry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := treeEntry{path: filepath.ToSlash(rel), mode: info.Mode()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			e.content = relocate(target, spellings)
		case info.Mode().IsRegular():
			if info.Mode().Perm()&0o400 == 0 {
				os.Chmod(p, info.Mode().Perm()|0o400)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			e.content = string(data)
		case info.IsDir() && info.Mode().Perm()&0o500 != 0o500:
			os.Chmod(p, info.Mode().Perm()|0o700)
		}
		entries = append(entries, e)
		return nil
	})
	return treeListing(entries), err
}

// treeChanges renders the difference between two listings: "- LINE" for
// an entry gone or changed, "+ LINE" for one new or changed, sorted by
// path; "unchanged" when the line left the tree alone.
func treeChanges(before, after string) string {
	old, cur := lineSet(before), lineSet(after)
	var changes []string
	for ln := range old {
		if !cur[ln] {
			changes = append(changes, "- "+ln)
		}
	}
	for ln := range cur {
		if !old[ln] {
			changes = append(changes, "+ "+ln)
		}
	}
	if len(changes) == 0 {
		return "unchanged\n"
	}
	// Sort by the entry (after "- "/"+ " and the kind and mode), then
	// removal first.
	key := func(s string) string {
		f := strings.SplitN(s, " ", 4)
		return f[len(f)-1] + "\x00" + s[:1]
	}
	// Equal keys (two links to one target) fall back to the whole line,
	// so the order never depends on map iteration.
	sort.Slice(changes, func(i, j int) bool {
		ki, kj := key(changes[i]), key(changes[j])
		if ki != kj {
			return ki < kj
		}
		return changes[i] < changes[j]
	})
	return strings.Join(changes, "\n") + "\n"
}

// lineSet is the set of a text's lines.
func lineSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, ln := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if ln != "" {
			set[ln] = true
		}
	}
	return set
}

// treeEntry is one path under the working directory after a run.
type treeEntry struct {
	path    string
	mode    fs.FileMode
	content string // a file's bytes or a symlink's target
}

// treeListing renders a tree one entry a line, sorted by path: kind,
// permission bits, and a file's size and digest or a link's target. Times
// and inode numbers are left out; they never match. So is what lies inside
// a .git directory: real git's own files (the index's stat data, hook
// samples, reflogs) differ by construction, and git cases show their
// effect through git's output instead.
func treeListing(entries []treeEntry) string {
	sort.Slice(entries, func(i, j int) bool { return entries[i].path < entries[j].path })
	var b strings.Builder
	for _, e := range entries {
		if strings.HasPrefix(e.path, ".git/") || strings.Contains(e.path, "/.git/") {
			continue
		}
		perm := e.mode.Perm()
		switch {
		case e.mode&fs.ModeSymlink != 0:
			fmt.Fprintf(&b, "l %s -> %s\n", e.path, e.content)
		case e.mode.IsDir():
			fmt.Fprintf(&b, "d %04o %s/\n", perm, e.path)
		case e.mode.IsRegular():
			sum := sha256.Sum256([]byte(e.content))
			fmt.Fprintf(&b, "f %04o %s %d %x\n", perm, e.path, len(e.content), sum[:6])
		default:
			fmt.Fprintf(&b, "? %v %s\n", e.mode.Type(), e.path)
		}
	}
	return b.String()
}

// writeTree lays the suite's files out on the host, with the modes the
// memory mount gives its seeds (0644 files, 0755 directories).
func writeTree(dir string, files map[string]string, exec map[string]bool) error {
	for rel, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			return err
		}
		if exec[rel] {
			if err := os.Chmod(full, 0o755); err != nil {
				return err
			}
		}
	}
	return nil
}

// seedTime is the modification time of every seeded file and directory on
// both sides, so `ls -l` and `find -newer` compare.
var seedTime = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// settleTimes gives the seeded tree, its root included, seedTime.
func settleTimes(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, seedTime, seedTime)
	})
}

// relocate rewrites the host's temporary directory to /w, where the
// gatehouse run works, so absolute paths compare directly.
func relocate(s string, spellings []string) string {
	for _, d := range spellings {
		s = strings.ReplaceAll(s, d, "/w")
	}
	return s
}

// bashLinePrefix is bash -c's "line N: " after "bash: ": bash numbers the
// lines of a -c string, gatehouse's messages (G-12.1) may not.
var bashLinePrefix = regexp.MustCompile(`(?m)^bash: line \d+: `)

// normalise applies the few rewrites both sides get (testdata/README.md):
// bash's "line N: " prefix is dropped.
func normalise(o Outcome) Outcome {
	o.Stderr = bashLinePrefix.ReplaceAllString(o.Stderr, "bash: ")
	o.Stdout = bashLinePrefix.ReplaceAllString(o.Stdout, "bash: ")
	return o
}

// record runs every case of the suite on the host and writes its fixture.
func record(ctx context.Context, suite *Suite, path string) error {
	fx := Fixture{Utility: suite.Utility, Host: hostBash()}
	if err := checkHostAwk(suite.Utility); err != nil {
		return err
	}
	for _, c := range suite.Cases {
		if c.Skip != "" {
			// Never compared, and some (stat's inodes) would churn the
			// fixture on every recording.
			fx.Cases = append(fx.Cases, Recorded{Name: c.Name, Line: c.Line, Skip: c.Skip})
			continue
		}
		out, err := runHost(ctx, suite, c)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", suite.Utility, c.Name, err)
		}
		fx.Cases = append(fx.Cases, Recorded{Name: c.Name, Line: c.Line, Input: inputDigest(suite.Files, suite.Exec, c), Outcome: out})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & readable in command lines
	enc.SetIndent("", "  ")
	if err := enc.Encode(fx); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// hostBash names the recording bash, e.g. "GNU bash 5.2.15".
func hostBash() string {
	out, err := exec.Command("bash", "-c", "echo $BASH_VERSION").Output()
	if err != nil {
		return "unknown"
	}
	return "GNU bash " + strings.TrimSpace(string(out))
}

// loadFixture reads a recorded fixture.
func loadFixture(path string) (*Fixture, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var fx Fixture
	if err := json.Unmarshal(data, &fx); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &fx, nil
}

// checkHostAwk refuses to record awk cases unless the host's awk is gawk
// 5.2, the awk gatehouse follows (Debian: update-alternatives --set awk
// /usr/bin/gawk).
func checkHostAwk(utility string) error {
	if utility != "awk" && utility != "gawk" {
		return nil
	}
	cmd := exec.Command("bash", "-c", "awk --version")
	cmd.Env = hostEnv(os.TempDir())
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), "GNU Awk 5.2") {
		return fmt.Errorf("recording awk needs the host's awk to be gawk 5.2 (update-alternatives --set awk /usr/bin/gawk)")
	}
	return nil
}
