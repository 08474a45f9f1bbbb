package utils

import (
	"bufio"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"time"
)

// rgRun is one rg invocation: its compiled filters and matcher, and what
// it has found so far.
type rgRun struct {
	t   *tool
	cfg *rgConfig
	m   *rgMatcher // nil for --files

	overrides    []ignoreRule // -g and --iglob, last match wins
	hasWhitelist bool         // some -g includes: unmatched files are out
	typeIn       []*regexp.Regexp
	typeOut      []*regexp.Regexp
	extraIgnore  []*ignoreSet // --ignore-file

	showName, lineNumber, heading bool

	matched, failed, quit bool
	printedFile           bool // for --heading's blank line and context "--"

	br   *bufio.Reader // reused from file to file
	long []byte        // a line longer than br's buffer

	// --json: bytes written so far, the statistics of the files that
	// printed something, and when the run started.
	jsonBytes int64
	jsonTotal rgStats
	started   time.Time
}

// rgLevel is the ignore files of one directory on the walk.
type rgLevel struct {
	custom, dot, git *ignoreSet // .rgignore, .ignore, .gitignore
}

// rgIgnores is the stack of levels from the outermost ancestor down to
// the directory being listed, with the repository's exclude file.
type rgIgnores struct {
	levels  []rgLevel
	exclude *ignoreSet
	repo    string // the git repository's root, "" outside one
	// parents counts the levels above the search root, and root is that
	// root. ripgrep matches a path against those levels after joining
	// its displayed (relative) spelling to the root, so "rg x sub" tests
	// "sub/sub/f" against the parent's anchored patterns: they never
	// match there, while they do under "cd sub && rg x". Kept as ripgrep.
	parents int
	root    string
}

// newRgRun compiles what the walk and the search need; ok is false (with
// the status) when a pattern, glob or type is invalid.
func newRgRun(t *tool, cfg *rgConfig) (r *rgRun, status int, ok bool) {
	r = &rgRun{t: t, cfg: cfg}
	if !cfg.listFiles {
		m, msg := newRgMatcher(t, cfg)
		if msg != "" {
			t.rawStderr(msg)
			return nil, 2, false
		}
		r.m = m
	}
	for _, g := range cfg.globs {
		if globClassUnclosed(g.text) {
			t.rawStderr("error parsing glob '" + g.text + "': unclosed character class; missing ']'\n")
			return nil, 2, false
		}
		rule, ok := parseIgnoreRule(g.text, g.fold || cfg.globFold)
		if !ok {
			continue
		}
		r.overrides = append(r.overrides, rule)
		if !rule.negate {
			r.hasWhitelist = true
		}
	}
	if cfg.typeErr != "" {
		t.rawStderr(cfg.typeErr)
		return nil, 2, false
	}
	for _, list := range []struct {
		names []string
		into  *[]*regexp.Regexp
	}{{cfg.types, &r.typeIn}, {cfg.typesNot, &r.typeOut}} {
		for _, name := range list.names {
			globs, known := cfg.typeGlobsKnown(name)
			if !known {
				t.rawStderr("unrecognized file type: " + name + "\n")
				return nil, 2, false
			}
			for _, g := range globs {
				if re, err := compileIgnoreGlob(g, false); err == nil {
					*list.into = append(*list.into, re)
				}
			}
		}
	}
	for _, f := range cfg.ignoreFiles {
		if set := readIgnoreSet(t, t.abs(f), t.env.Dir); set != nil {
			r.extraIgnore = append(r.extraIgnore, set)
		}
	}
	return r, 0, true
}

// run searches every path and returns the exit status: 0 when something
// matched (or was listed), 1 when nothing did, 2 after any error.
func (r *rgRun) run() int {
	cfg := r.cfg
	r.started = time.Now()
	if cfg.json {
		defer r.jsonSummary()
	}
	paths := cfg.paths
	implicit := len(paths) == 0
	fromStdin := implicit && !r.t.env.NoStdin && !cfg.listFiles
	r.lineNumber = cfg.lineNumber == 1 || (cfg.lineNumber == -1 && (cfg.column || cfg.vimgrep))
	r.heading = cfg.heading == 1 && !cfg.vimgrep
	switch {
	case cfg.withName >= 0:
		r.showName = cfg.withName == 1
	case fromStdin:
		r.showName = false
	default:
		r.showName = implicit || len(paths) > 1 || r.isDir(paths[0]) || cfg.vimgrep
	}
	switch {
	case fromStdin:
		r.searchReader(r.t.stdin(), "<stdin>", true)
	case implicit:
		r.walkRoot(r.t.env.Dir, "")
	default:
		for _, p := range paths {
			if r.quit || r.t.stopped() {
				break
			}
			r.operand(p)
		}
	}
	switch {
	case r.failed && !(cfg.quiet && r.matched):
		return 2
	case r.matched:
		return 0
	}
	return 1
}

// isDir reports whether an operand names a directory.
func (r *rgRun) isDir(p string) bool {
	if p == "-" {
		return false
	}
	info, err := r.t.env.FS.Stat(r.t.abs(p))
	return err == nil && info.IsDir()
}

// operand searches one command-line path: a directory is walked, anything
// else searched as given, past every filter.
func (r *rgRun) operand(p string) {
	if p == "-" {
		r.searchReader(r.t.stdin(), "<stdin>", true)
		return
	}
	abs := r.t.abs(p)
	info, err := r.t.env.FS.Stat(abs)
	if err != nil {
		r.fail(p, err)
		return
	}
	if info.IsDir() {
		r.walkRoot(abs, p)
		return
	}
	if r.cfg.listFiles {
		r.listFile(p)
		return
	}
	r.searchFile(abs, p, true)
}

// fail reports an error in ripgrep's voice ("PATH: TEXT (os error N)").
func (r *rgRun) fail(shown string, err error) {
	r.failed = true
	if !r.cfg.noMessages {
		r.t.rawStderr(shown + ": " + rgErrText(errText(err)) + "\n")
	}
}

// walkRoot walks a directory operand (shown "" for the implicit one).
func (r *rgRun) walkRoot(abs, shown string) {
	ign := r.ancestorIgnores(abs)
	r.walk(abs, shown, 1, ign)
}

// ancestorIgnores loads the ignore files that rule over a search root:
// the repository's (from its root down) and the .ignore/.rgignore files
// of every ancestor, unless --no-ignore-parent.
func (r *rgRun) ancestorIgnores(root string) *rgIgnores {
	ign := &rgIgnores{root: root}
	if r.cfg.noIgnore {
		return ign
	}
	for d := root; ; d = dirName(d) {
		if _, err := r.t.env.FS.Lstat(Join(d, ".git")); err == nil {
			ign.repo = d
			break
		}
		if d == "/" {
			break
		}
	}
	if ign.repo != "" && !r.cfg.noIgnoreVCS {
		ign.exclude = readIgnoreSet(r.t, Join(ign.repo, ".git/info/exclude"), ign.repo)
	}
	if r.cfg.noIgnoreParent || root == "/" {
		return ign
	}
	var ancestors []string
	for d := dirName(root); ; d = dirName(d) {
		ancestors = append(ancestors, d)
		if d == "/" {
			break
		}
	}
	for i := len(ancestors) - 1; i >= 0; i-- {
		ign.levels = append(ign.levels, r.loadLevel(ancestors[i], ign.repo, nil))
	}
	ign.parents = len(ign.levels)
	return ign
}

// loadLevel reads one directory's ignore files; listed, when known, is
// the directory's listing, so absent files cost no open.
func (r *rgRun) loadLevel(dir, repo string, listed []fs.DirEntry) rgLevel {
	var lv rgLevel
	if r.cfg.noIgnore {
		return lv
	}
	has := func(name string) bool {
		if listed == nil {
			return true
		}
		i := sort.Search(len(listed), func(i int) bool { return listed[i].Name() >= name })
		return i < len(listed) && listed[i].Name() == name
	}
	read := func(name string) *ignoreSet {
		if !has(name) {
			return nil
		}
		return readIgnoreSet(r.t, Join(dir, name), dir)
	}
	if !r.cfg.noIgnoreDot {
		lv.custom = read(".rgignore")
		lv.dot = read(".ignore")
	}
	if repo != "" && !r.cfg.noIgnoreVCS && (dir == repo || strings.HasPrefix(dir, strings.TrimSuffix(repo, "/")+"/")) {
		lv.git = read(".gitignore")
	}
	return lv
}

// ignored applies the ignore files: .rgignore over .ignore over
// .gitignore over the exclude file, deeper directories first within each.
func (ign *rgIgnores) ignored(abs, shown string, isDir bool, extra []*ignoreSet) bool {
	parentPath := shown
	if !strings.HasPrefix(shown, "/") {
		parentPath = Join(ign.root, shown)
	}
	pick := []func(rgLevel) *ignoreSet{
		func(l rgLevel) *ignoreSet { return l.custom },
		func(l rgLevel) *ignoreSet { return l.dot },
		func(l rgLevel) *ignoreSet { return l.git },
	}
	for _, get := range pick {
		for i := len(ign.levels) - 1; i >= 0; i-- {
			if set := get(ign.levels[i]); set != nil {
				p := abs
				if i < ign.parents {
					p = parentPath
				}
				if v := set.verdict(p, isDir); v != ignoreNone {
					return v == ignoreIgnored
				}
			}
		}
	}
	if ign.exclude != nil {
		if v := ign.exclude.verdict(abs, isDir); v != ignoreNone {
			return v == ignoreIgnored
		}
	}
	for _, set := range extra {
		if v := set.verdict(abs, isDir); v != ignoreNone {
			return v == ignoreIgnored
		}
	}
	return false
}

// rgEntry is one directory entry the walk considers.
type rgEntry struct {
	name  string
	typ   fs.FileMode
	mtime int64
}

// walk visits a directory: its ignore files join the stack, entries are
// filtered and visited in order.
func (r *rgRun) walk(dir, shown string, depth int, ign *rgIgnores) {
	if r.quit || r.t.stopped() {
		return
	}
	list, err := r.t.env.FS.ReadDir(dir)
	if err != nil {
		name := shown
		if name == "" {
			name = "."
		}
		r.fail(name, err)
		return
	}
	level := *ign
	level.levels = append(append([]rgLevel(nil), ign.levels...), r.loadLevel(dir, ign.repo, list))
	for _, ent := range r.order(dir, list) {
		if r.quit || r.t.stopped() {
			return
		}
		child := Join(dir, ent.name)
		childShown := ent.name
		if shown != "" {
			childShown = joinShown(shown, ent.name)
		}
		typ := ent.typ
		if typ&fs.ModeSymlink != 0 {
			if !r.cfg.follow {
				continue
			}
			info, err := r.t.env.FS.Stat(child)
			if err != nil {
				r.fail(childShown, err)
				continue
			}
			typ = info.Mode().Type()
		}
		isDir := typ.IsDir()
		if !r.admitted(child, childShown, ent.name, isDir, &level) {
			continue
		}
		switch {
		case isDir:
			if r.cfg.maxDepth < 0 || depth < r.cfg.maxDepth {
				r.walk(child, childShown, depth+1, &level)
			}
		case typ.IsRegular() && (r.cfg.maxDepth < 0 || depth <= r.cfg.maxDepth):
			if r.cfg.listFiles {
				r.listFile(childShown)
			} else {
				r.searchFile(child, childShown, false)
			}
		}
	}
}

// order lists a directory's entries in the --sort order (by name unless
// a time was asked for), reversed for --sortr.
func (r *rgRun) order(dir string, list []fs.DirEntry) []rgEntry {
	out := make([]rgEntry, 0, len(list))
	byTime := r.cfg.sortBy == "modified" || r.cfg.sortBy == "accessed" || r.cfg.sortBy == "created"
	for _, d := range list {
		e := rgEntry{name: d.Name(), typ: d.Type()}
		if byTime {
			if info, err := d.Info(); err == nil {
				e.mtime = info.ModTime().UnixNano()
			}
		}
		out = append(out, e)
	}
	if byTime {
		sort.SliceStable(out, func(i, j int) bool { return out[i].mtime < out[j].mtime })
	}
	if r.cfg.sortReverse {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// admitted applies the filters in ripgrep's order: -g overrides first
// (a whitelisted path is in, past hidden and ignore rules), then hidden
// names, ignore files and file types.
func (r *rgRun) admitted(abs, shown, name string, isDir bool, ign *rgIgnores) bool {
	rel := strings.TrimPrefix(shown, "./")
	verdict := ignoreNone
	for i := len(r.overrides) - 1; i >= 0; i-- {
		o := r.overrides[i]
		if o.dirOnly && !isDir {
			continue
		}
		if o.re.MatchString(rel) {
			verdict = ignoreWhitelist
			if o.negate {
				verdict = ignoreIgnored
			}
			break
		}
	}
	switch {
	case verdict == ignoreIgnored:
		return false
	case verdict == ignoreWhitelist:
		return true
	case r.hasWhitelist && !isDir:
		return false
	}
	if !r.cfg.hidden && strings.HasPrefix(name, ".") {
		return false
	}
	if !r.cfg.noIgnore && ign.ignored(abs, shown, isDir, r.extraIgnore) {
		return false
	}
	if isDir {
		return true
	}
	return r.typeAdmits(name)
}

// typeAdmits applies -t (some type must match) and -T (none may).
func (r *rgRun) typeAdmits(name string) bool {
	for _, re := range r.typeOut {
		if re.MatchString(name) {
			return false
		}
	}
	if len(r.typeIn) == 0 {
		return true
	}
	for _, re := range r.typeIn {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// listFile prints a path for --files.
func (r *rgRun) listFile(shown string) {
	r.matched = true
	if r.cfg.quiet {
		r.quit = true
		return
	}
	r.t.writeString(shown)
	if r.cfg.null {
		r.t.writeByte(0)
	} else {
		r.t.writeByte('\n')
	}
}
