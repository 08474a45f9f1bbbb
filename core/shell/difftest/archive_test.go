package difftest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A section is one "-- NAME --" part of a txtar-style archive.
type section struct {
	name string
	body string
	line int // where the marker stands, for error messages
}

// splitArchive cuts a txtar-style archive into its leading comment and its
// sections. A marker is a whole line "-- NAME --"; everything up to the next
// marker is the section's body. golang.org/x/tools/txtar is not a
// dependency of the module, and the format is small enough to read here.
func splitArchive(text string) (comment string, sections []section) {
	lines := strings.SplitAfter(text, "\n")
	var body strings.Builder
	current := -1 // index into sections; -1 while still in the comment
	flush := func() {
		if current < 0 {
			comment = body.String()
		} else {
			sections[current].body = body.String()
		}
		body.Reset()
	}
	for i, ln := range lines {
		if name, ok := markerName(ln); ok {
			flush()
			sections = append(sections, section{name: name, line: i + 1})
			current = len(sections) - 1
			continue
		}
		body.WriteString(ln)
	}
	flush()
	return comment, sections
}

// markerName recognises "-- NAME --" (with or without the newline).
func markerName(ln string) (string, bool) {
	ln = strings.TrimSuffix(ln, "\n")
	if !strings.HasPrefix(ln, "-- ") || !strings.HasSuffix(ln, " --") || len(ln) < 7 {
		return "", false
	}
	return strings.TrimSpace(ln[3 : len(ln)-3]), true
}

// noEOL is the marker suffix that drops a body's final newline, because a
// txtar body always ends with one and some cases need a file without it.
const noEOL = " [noeol]"

// execMark is the marker suffix that seeds a file executable (0755).
const execMark = " [exec]"

// bodyOf applies the [noeol] and [exec] suffixes of a section name, in
// either order.
func bodyOf(s section) (name, body string, exec bool) {
	name, body = s.name, s.body
	for {
		if n, ok := strings.CutSuffix(name, noEOL); ok {
			name, body = n, strings.TrimSuffix(body, "\n")
			continue
		}
		if n, ok := strings.CutSuffix(name, execMark); ok {
			name, exec = n, true
			continue
		}
		return name, body, exec
	}
}

// A Case is one command line run in both shells.
type Case struct {
	Name  string
	Line  string
	Stdin *string // nil: no standard input at all
	Skip  string  // non-empty: a deliberate divergence, never compared
	// Known, in the corpus only, is "CLASS: why" for a line known to differ
	// today: it runs and is compared, a mismatch is tallied under CLASS
	// instead of failing, and a match fails until the marker is removed.
	Known string
	// Unordered compares stdout's lines as a sorted list: for lines whose
	// output follows the host's directory order (grep -r, find and rg
	// without sorting), which on ext4 is a hash order nothing can match.
	Unordered bool
}

// knownClasses are the causes a corpus mismatch may be filed under.
var knownClasses = map[string]bool{
	"runtime":  true, // needs git, python3 or node, which a workspace has not
	"language": true, // the shell language (parser, expansion, builtins)
	"awk":      true, // awk, written separately
	"utility":  true, // a utility missing or differing
}

// knownClass returns the CLASS part of a Known marker.
func knownClass(known string) string {
	class, _, _ := strings.Cut(known, ":")
	return strings.TrimSpace(class)
}

// A Suite is one archive: the cases of one utility and the files of the
// working directory they share.
type Suite struct {
	Utility string            // the archive's base name
	Files   map[string]string // path inside /w -> content; "dir/" is a directory
	// Exec names the seeded files marked [exec]: mode 0755 instead of 0644.
	Exec map[string]bool
	// FixedTimes gives every seeded entry seedTime on both sides (the
	// corpus does, so `ls -l` compares); otherwise seeds are as new as the
	// run.
	FixedTimes bool
	Cases      []Case
}

// loadSuites reads every archive in dir, sorted by name.
func loadSuites(dir string) ([]*Suite, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var suites []*Suite
	for _, p := range paths {
		s, err := loadSuiteFile(p)
		if err != nil {
			return nil, err
		}
		suites = append(suites, s)
	}
	return suites, nil
}

// loadSuiteFile reads one archive.
func loadSuiteFile(p string) (*Suite, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	s, err := parseSuite(strings.TrimSuffix(filepath.Base(p), ".txtar"), string(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return s, nil
}

// fileExists reports whether p names an existing file.
func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// parseSuite reads one archive (format in testdata/README.md).
func parseSuite(utility, text string) (*Suite, error) {
	_, sections := splitArchive(text)
	suite := &Suite{Utility: utility, Files: map[string]string{}}
	stdins := map[string]string{}
	scripts := map[string]string{}
	sawCases := false
	var caseSection section
	for _, s := range sections {
		name, body, exec := bodyOf(s)
		switch {
		case name == "cases":
			if sawCases {
				return nil, fmt.Errorf("line %d: a second cases section", s.line)
			}
			sawCases, caseSection = true, s
		case strings.HasPrefix(name, "files/"):
			rel := strings.TrimPrefix(name, "files/")
			if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, "..") {
				return nil, fmt.Errorf("line %d: bad file name %q", s.line, rel)
			}
			if strings.HasSuffix(rel, "/") && strings.TrimSpace(body) != "" {
				return nil, fmt.Errorf("line %d: directory %q has content", s.line, rel)
			}
			if strings.HasSuffix(rel, "/") {
				body = ""
			}
			suite.Files[rel] = body
			if exec {
				if suite.Exec == nil {
					suite.Exec = map[string]bool{}
				}
				suite.Exec[rel] = true
			}
		case strings.HasPrefix(name, "stdin/"):
			stdins[strings.TrimPrefix(name, "stdin/")] = body
		case strings.HasPrefix(name, "line/"):
			scripts[strings.TrimPrefix(name, "line/")] = strings.TrimSuffix(body, "\n")
		default:
			return nil, fmt.Errorf("line %d: unknown section %q", s.line, s.name)
		}
	}
	if !sawCases {
		return nil, fmt.Errorf("no cases section")
	}
	cases, err := parseCases(caseSection, scripts)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range cases {
		c := &cases[i]
		if seen[c.Name] {
			return nil, fmt.Errorf("case %q is listed twice", c.Name)
		}
		seen[c.Name] = true
		if in, ok := stdins[c.Name]; ok {
			c.Stdin = &in
			delete(stdins, c.Name)
		}
	}
	for name := range stdins {
		return nil, fmt.Errorf("stdin/%s belongs to no case", name)
	}
	suite.Cases = cases
	return suite, nil
}

// parseCases reads the "name | line" list. A line "skip: REASON" marks the
// case after it; blank lines and lines starting with '#' are comments.
func parseCases(s section, scripts map[string]string) ([]Case, error) {
	var cases []Case
	skip, known, unordered := "", "", false
	for i, ln := range strings.Split(s.body, "\n") {
		where := s.line + 1 + i
		trimmed := strings.TrimSpace(ln)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			continue
		case strings.HasPrefix(trimmed, "skip:"):
			skip = strings.TrimSpace(strings.TrimPrefix(trimmed, "skip:"))
			if skip == "" {
				return nil, fmt.Errorf("line %d: skip needs a reason", where)
			}
			continue
		case trimmed == "unordered:":
			unordered = true
			continue
		case strings.HasPrefix(trimmed, "known:"):
			known = strings.TrimSpace(strings.TrimPrefix(trimmed, "known:"))
			if !knownClasses[knownClass(known)] || !strings.Contains(known, ":") {
				return nil, fmt.Errorf("line %d: want \"known: CLASS: why\" with CLASS one of runtime, language, awk, utility", where)
			}
			continue
		}
		name, line, ok := strings.Cut(ln, " | ")
		if !ok {
			// "name |" with nothing after: the line is in a line/NAME section.
			name, ok = strings.CutSuffix(trimmed, " |")
			if !ok {
				return nil, fmt.Errorf("line %d: want \"name | command line\", got %q", where, ln)
			}
			script, found := scripts[strings.TrimSpace(name)]
			if !found {
				return nil, fmt.Errorf("line %d: case %q has no line and no line/%s section", where, name, name)
			}
			line = script
			delete(scripts, strings.TrimSpace(name))
		}
		name, line = strings.TrimSpace(name), strings.TrimSpace(line)
		if name == "" || line == "" {
			return nil, fmt.Errorf("line %d: empty case name or line", where)
		}
		cases = append(cases, Case{Name: name, Line: line, Skip: skip, Known: known, Unordered: unordered})
		skip, known, unordered = "", "", false
	}
	if skip != "" || known != "" || unordered {
		return nil, fmt.Errorf("a trailing skip or known marks no case")
	}
	for name := range scripts {
		return nil, fmt.Errorf("line/%s belongs to no case", name)
	}
	return cases, nil
}
