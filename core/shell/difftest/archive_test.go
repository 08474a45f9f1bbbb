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

// bodyOf applies the [noeol] suffix of a section name.
func bodyOf(s section) (name, body string) {
	if n, ok := strings.CutSuffix(s.name, noEOL); ok {
		return n, strings.TrimSuffix(s.body, "\n")
	}
	return s.name, s.body
}

// A Case is one command line run in both shells.
type Case struct {
	Name  string
	Line  string
	Stdin *string // nil: no standard input at all
	Skip  string  // non-empty: a deliberate divergence, never compared
}

// A Suite is one archive: the cases of one utility and the files of the
// working directory they share.
type Suite struct {
	Utility string            // the archive's base name
	Files   map[string]string // path inside /w -> content; "dir/" is a directory
	Cases   []Case
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
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		s, err := parseSuite(strings.TrimSuffix(filepath.Base(p), ".txtar"), string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		suites = append(suites, s)
	}
	return suites, nil
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
		name, body := bodyOf(s)
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
	skip := ""
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
		cases = append(cases, Case{Name: name, Line: line, Skip: skip})
		skip = ""
	}
	if skip != "" {
		return nil, fmt.Errorf("a trailing skip marks no case")
	}
	for name := range scripts {
		return nil, fmt.Errorf("line/%s belongs to no case", name)
	}
	return cases, nil
}
