package git

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// sourcedPattern is an ignore pattern with where it was read: the file
// (from the top of the worktree, .git/info/exclude, or the user's ignore
// file as git names it), its line and text.
type sourcedPattern struct {
	src  string
	line int
	text string
	p    gitignore.Pattern
}

// ignoreRules are the patterns that bear on one path, least binding
// first: the user's ignore file, .git/info/exclude, then each directory's .gitignore from the top
// down, as git weighs them (the last that matches decides).
type ignoreRules struct {
	r    *repo
	pats []sourcedPattern
	// read keeps each ignore file's patterns once read (nil: none).
	read map[string][]sourcedPattern
}

// load adds an ignore file's patterns, read through the door (a hidden
// or unreadable file adds none).
func (ir *ignoreRules) load(fsPath, src string, domain []string, viaGit bool) {
	if ps, ok := ir.read[src]; ok {
		ir.pats = append(ir.pats, ps...)
		return
	}
	fsys := ir.r.g.fsys
	if viaGit {
		fsys = ir.r.g.gitfs
	}
	var ps []sourcedPattern
	if data, err := readFile(fsys, fsPath); err == nil {
		for i, ln := range strings.Split(string(data), "\n") {
			ln = strings.TrimRight(strings.TrimSuffix(ln, "\r"), " \t")
			if ln == "" || strings.HasPrefix(ln, "#") {
				continue
			}
			ps = append(ps, sourcedPattern{src: src, line: i + 1, text: ln, p: gitignore.ParsePattern(ln, domain)})
		}
	}
	ir.read[src] = ps
	ir.pats = append(ir.pats, ps...)
}

// last is the last pattern that matches path (nil: none).
func (ir *ignoreRules) last(path []string, isDir bool) *sourcedPattern {
	for i := len(ir.pats) - 1; i >= 0; i-- {
		if ir.pats[i].p.Match(path, isDir) != gitignore.NoMatch {
			return &ir.pats[i]
		}
	}
	return nil
}

// negative reports whether a pattern re-includes what it matches ("!").
func (sp *sourcedPattern) negative() bool { return strings.HasPrefix(sp.text, "!") }

// matchIgnore is the pattern deciding whether the worktree path p is
// ignored, as git check-ignore finds it: a directory on the way that is
// ignored decides for everything below it (its own .gitignore and those
// deeper are not read), else the last matching pattern.
func (r *repo) matchIgnore(p string, read map[string][]sourcedPattern) *sourcedPattern {
	ir := &ignoreRules{r: r, read: read}
	if fsPath, src := r.excludesFile(); fsPath != "" {
		ir.load(fsPath, src, nil, false)
	}
	ir.load(r.gitDir+"/info/exclude", ".git/info/exclude", nil, true)
	ir.load(r.abs(".gitignore"), ".gitignore", nil, false)
	comps := splitRel(p)
	for i := 1; i < len(comps); i++ {
		if m := ir.last(comps[:i], true); m != nil && !m.negative() {
			return m
		}
		dir := strings.Join(comps[:i], "/")
		ir.load(r.abs(dir+"/.gitignore"), dir+"/.gitignore", comps[:i], false)
	}
	isDir := false
	if info, err := r.g.fsys.Lstat(r.abs(p)); err == nil {
		isDir = info.IsDir()
	}
	return ir.last(comps, isDir)
}

// runCheckIgnore is git check-ignore: which paths the ignore files
// ignore (-v: by which pattern, -n: the others too), from operands or
// standard input lines; status 0 when any is, 1 when none. A tracked
// path is not ignored unless --no-index; a path the door hides is never
// tracked, and a hidden ignore file is never read.
func runCheckIgnore(g *cmd, args []string) error {
	var quiet, verbose, nonMatching, stdin, noIndex, nul bool
	var paths []string
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash || a == "-" || !strings.HasPrefix(a, "-"):
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-v" || a == "--verbose":
			verbose = true
		case a == "-n" || a == "--non-matching":
			nonMatching = true
		case a == "--stdin":
			stdin = true
		case a == "--no-index":
			noIndex = true
		case a == "-z":
			nul = true
		default:
			err := unknownOption("check-ignore", a).(*exitError)
			err.msg = strings.Replace(err.msg, "usage: git check-ignore [<options>]\n", checkIgnoreUsage, 1)
			return err
		}
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	switch {
	case stdin && len(paths) > 0:
		return fatalf("cannot specify pathnames with --stdin")
	case nul && !stdin:
		return fatalf("-z only makes sense with --stdin")
	case !stdin && len(paths) == 0:
		return fatalf("no path specified")
	case quiet && verbose:
		return fatalf("cannot have both --quiet and --verbose")
	case quiet && len(paths) > 1:
		return fatalf("--quiet is only valid with a single pathname")
	case nonMatching && !verbose:
		return fatalf("--non-matching is only valid with --verbose")
	}
	c := &ignoreCheck{r: r, quiet: quiet, verbose: verbose, nonMatching: nonMatching, noIndex: noIndex, nul: nul, read: map[string][]sourcedPattern{}}
	if !noIndex {
		idx, err := r.loadIndex()
		if err != nil {
			return err
		}
		for _, e := range idx.Entries {
			if !r.hiddenPath(e.Name) {
				c.tracked = append(c.tracked, e.Name)
			}
		}
		sort.Strings(c.tracked)
	}
	if stdin {
		if err := c.readPaths(g.env.Stdin); err != nil {
			return err
		}
	}
	for _, p := range paths {
		if err := c.check(p); err != nil {
			return err
		}
	}
	if c.ignored == 0 {
		return exitStatus(1)
	}
	return nil
}

// ignoreCheck is one run of check-ignore.
type ignoreCheck struct {
	r                                         *repo
	quiet, verbose, nonMatching, noIndex, nul bool
	tracked                                   []string // the index's paths the session sees
	ignored                                   int
	read                                      map[string][]sourcedPattern // ignore files read, by source
}

// readPaths checks each line (or NUL-ended name, -z) of standard input.
func (c *ignoreCheck) readPaths(in io.Reader) error {
	if in == nil {
		return nil
	}
	sep := byte('\n')
	if c.nul {
		sep = 0
	}
	br := bufio.NewReader(in)
	for {
		line, err := br.ReadString(sep)
		if line != "" {
			line = strings.TrimSuffix(line, string(sep))
			if !c.nul {
				line = unquoteCPath(line)
			}
			if err := c.check(line); err != nil {
				return err
			}
			c.r.g.out.Flush()
		}
		if err != nil {
			return nil
		}
	}
}

// unquoteCPath reads a "quoted" name as git's --stdin does.
func unquoteCPath(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// check reports one path.
func (c *ignoreCheck) check(arg string) error {
	p, ok := c.r.workPath(arg)
	if !ok {
		return fatalf("%s: '%s' is outside repository at '%s'", arg, arg, c.r.work)
	}
	var m *sourcedPattern
	if p != "" && !c.isTracked(p) {
		m = c.r.matchIgnore(p, c.read)
		if m != nil && m.negative() && !c.verbose {
			m = nil
		}
	}
	if m != nil {
		c.ignored++
	}
	if c.quiet || (m == nil && !c.nonMatching) {
		return nil
	}
	out := c.r.g.out
	switch {
	case !c.verbose && c.nul:
		out.WriteString(arg + "\x00")
	case !c.verbose:
		out.WriteString(quotePath(arg) + "\n")
	case c.nul && m == nil:
		fmt.Fprintf(out, "\x00\x00\x00%s\x00", arg)
	case c.nul:
		fmt.Fprintf(out, "%s\x00%d\x00%s\x00%s\x00", m.src, m.line, m.text, arg)
	case m == nil:
		fmt.Fprintf(out, "::\t%s\n", quotePath(arg))
	default:
		fmt.Fprintf(out, "%s:%d:%s\t%s\n", quotePath(m.src), m.line, m.text, quotePath(arg))
	}
	return nil
}

// isTracked reports whether the index holds p or something below it.
func (c *ignoreCheck) isTracked(p string) bool {
	if i := sort.SearchStrings(c.tracked, p); i < len(c.tracked) && c.tracked[i] == p {
		return true
	}
	i := sort.SearchStrings(c.tracked, p+"/")
	return i < len(c.tracked) && strings.HasPrefix(c.tracked[i], p+"/")
}

// checkIgnoreUsage is git check-ignore's usage text.
const checkIgnoreUsage = `usage: git check-ignore [<options>] <pathname>...
   or: git check-ignore [<options>] --stdin

    -q, --quiet           suppress progress reporting
    -v, --verbose         be verbose

    --stdin               read file names from stdin
    -z                    terminate input and output records by a NUL character
    -n, --non-matching    show non-matching input paths
    --no-index            ignore index when checking

`
