package utils

import (
	"bufio"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"
)

// findRun is the state of one find invocation.
type findRun struct {
	t            *tool
	follow       string // "-P" (default), "-H" or "-L"
	maxDepth     int    // -1: unlimited
	minDepth     int
	depthFirst   bool
	regexDialect RegexDialect
	quit         bool
	status       int
	execErr      error // a command's run ended the line
	batches      []*findBatch
	now          time.Time
	loc          *time.Location
	expr         findNode
	stdinLines   *bufio.Reader // answers for -ok
}

// findBatch collects the paths of one -exec ... {} +.
type findBatch struct {
	argv  []string
	paths []string
	size  int
}

// findFile is one path the walk reached; metadata is fetched on demand so
// a name test costs no stat.
type findFile struct {
	// shown is the path as printed: the start point joined with names.
	// It is made when asked; until then dirShown and name hold it.
	shown, dirShown string
	// The absolute path is made when asked (most files of a walk are only
	// printed): abs for a start point, else dirAbs joined with name.
	abs, dirAbs, name string
	start             string // the start point it was reached from
	depth             int
	typ               fs.FileMode // type from the directory entry
	pruned            bool

	lstatInfo, statInfo fs.FileInfo
	lstatDone, statDone bool
	entry               fs.DirEntry
}

// shownPath is the path as printed.
func (f *findFile) shownPath() string {
	if f.shown == "" {
		f.shown = joinShown(f.dirShown, f.name)
	}
	return f.shown
}

// writeShown prints the path as shown and a terminator, without making
// the joined string when it was never needed.
func (f *findFile) writeShown(t *tool, end byte) {
	if f.shown != "" {
		t.writeString(f.shown)
	} else {
		t.writeString(f.dirShown)
		if !strings.HasSuffix(f.dirShown, "/") {
			t.writeByte('/')
		}
		t.writeString(f.name)
	}
	t.writeByte(end)
}

// path is the file's absolute path.
func (f *findFile) path() string {
	if f.abs == "" {
		f.abs = Join(f.dirAbs, f.name)
	}
	return f.abs
}

func (f *findFile) base() string {
	if f.name != "" {
		return f.name
	}
	s := strings.TrimRight(f.shownPath(), "/")
	if s == "" {
		return "/"
	}
	return path.Base(s)
}

func (f *findFile) lstat(r *findRun) fs.FileInfo {
	if !f.lstatDone {
		f.lstatDone = true
		if f.entry != nil {
			f.lstatInfo, _ = f.entry.Info()
		} else {
			f.lstatInfo, _ = r.t.env.FS.Lstat(f.path())
		}
	}
	return f.lstatInfo
}

func (f *findFile) stat(r *findRun) fs.FileInfo {
	if !f.statDone {
		f.statDone = true
		l := f.lstat(r)
		if l != nil && l.Mode()&fs.ModeSymlink == 0 {
			f.statInfo = l
		} else if st, err := r.t.env.FS.Stat(f.path()); err == nil {
			f.statInfo = st
		}
	}
	return f.statInfo
}

// fileType is the file's type, of the link itself or (follow) of what it
// leads to. The type the directory entry recorded answers without a stat
// whenever it is not a link to follow, as GNU find answers -type from
// d_type: on a host mount that is the difference between no syscall per
// file and three.
func (f *findFile) fileType(r *findRun, follow bool) (fs.FileMode, bool) {
	if f.entry != nil || f.lstatDone {
		if f.typ&fs.ModeSymlink == 0 || !follow {
			return f.typ, true
		}
	}
	info := f.lstat(r)
	if follow {
		info = f.stat(r)
	}
	if info == nil {
		return 0, false
	}
	return info.Mode().Type(), true
}

// info is the metadata tests use: the link itself unless -L (or -H for a
// start point) follows it.
func (f *findFile) info(r *findRun) fs.FileInfo {
	if r.follow == "-L" || (r.follow == "-H" && f.depth == 0) {
		if st := f.stat(r); st != nil {
			return st
		}
	}
	return f.lstat(r)
}

// links estimates the link count: 2 plus subdirectories for a directory.
func (f *findFile) links(r *findRun) int64 {
	info := f.info(r)
	if info == nil || !info.IsDir() {
		return 1
	}
	n := int64(2)
	if entries, err := r.t.env.FS.ReadDir(f.path()); err == nil {
		for _, e := range entries {
			if e.IsDir() {
				n++
			}
		}
	}
	return n
}

func runFind(e *Env) (int, error) {
	t := newTool(e, "find", findHelp, 1)
	for _, a := range e.Args[1:] {
		if a == "--help" || a == "-help" {
			t.writeString(findHelp)
			return t.end(0)
		}
		if a == "--version" || a == "-version" {
			t.writeString(findVersion)
			return t.end(0)
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
	}
	r := &findRun{t: t, follow: "-P", maxDepth: -1, regexDialect: EmacsRegex, now: time.Now(), loc: t.location()}
	p := &findParser{args: e.Args, pos: 1, t: t, run: r}
	p.leadingOptions()
	starts := p.startPoints()
	if p.pos < len(p.args) {
		r.expr = p.parseExpression()
		if p.err == nil && p.pos < len(p.args) {
			if p.args[p.pos] == ")" {
				p.fail("invalid expression; you have too many ')'")
			} else {
				p.pathsMustPrecede(p.pos)
			}
		}
	}
	if p.err != nil {
		t.warn(p.err.msg)
		return t.end(1)
	}
	if r.expr == nil {
		r.expr = findTrue()
	}
	if !p.sawAction {
		print := findPred(func(r *findRun, f *findFile) bool {
			f.writeShown(r.t, '\n')
			return true
		})
		r.expr = findAnd{r.expr, print}
	}
	startNames := make([]string, 0, len(starts))
	for _, i := range starts {
		startNames = append(startNames, e.Args[i])
	}
	if len(startNames) == 0 {
		startNames = []string{"."}
	}
	for _, s := range startNames {
		if r.stopped() {
			break
		}
		r.start(s)
	}
	for _, b := range r.batches {
		if r.execErr != nil {
			break
		}
		r.flushBatch(b)
	}
	if r.execErr != nil {
		t.finish(r.status)
		return r.status, r.execErr
	}
	return t.end(r.status)
}

func (r *findRun) stopped() bool {
	return r.quit || r.execErr != nil || r.t.stopped()
}

func (r *findRun) fail(msg string) {
	r.t.warn(msg)
	r.status = 1
}

// start walks one start point.
func (r *findRun) start(name string) {
	if name == "" {
		r.fail("'': No such file or directory")
		return
	}
	abs := r.t.abs(name)
	info, err := r.t.env.FS.Lstat(abs)
	if err != nil {
		r.fail(quoteAlways(name) + ": " + errText(err))
		return
	}
	f := &findFile{shown: name, abs: abs, start: name, lstatInfo: info, lstatDone: true, typ: info.Mode().Type()}
	var ancestors []string
	if r.follow == "-L" {
		if resolved, err := r.t.env.FS.Resolve(abs); err == nil {
			ancestors = []string{resolved}
		}
	}
	r.visit(f, ancestors)
}

// visit evaluates one file and descends into it when it is a directory.
func (r *findRun) visit(f *findFile, ancestors []string) {
	if r.stopped() {
		return
	}
	if !r.depthFirst && f.depth >= r.minDepth {
		r.expr.eval(r, f)
	}
	isDir := f.typ.IsDir()
	if f.typ&fs.ModeSymlink != 0 && (r.follow == "-L" || (r.follow == "-H" && f.depth == 0)) {
		if st := f.stat(r); st != nil {
			isDir = st.IsDir()
		}
	}
	if isDir && !f.pruned && (r.maxDepth < 0 || f.depth < r.maxDepth) && !r.stopped() {
		r.descend(f, ancestors)
	}
	if r.depthFirst && f.depth >= r.minDepth && !r.stopped() {
		r.expr.eval(r, f)
	}
}

func (r *findRun) descend(f *findFile, ancestors []string) {
	entries, err := r.t.env.FS.ReadDir(f.path())
	if err != nil {
		r.fail(quoteAlways(f.shownPath()) + ": " + errText(err))
		return
	}
	dirAbs, dirShown := f.path(), f.shownPath()
	// One findFile serves every entry in turn: nothing keeps it after
	// its visit (a walk of many files then allocates per directory).
	child := &findFile{}
	for _, ent := range entries {
		if r.stopped() {
			return
		}
		name := ent.Name()
		*child = findFile{
			dirShown: dirShown,
			dirAbs:   dirAbs,
			name:     name,
			start:    f.start,
			depth:    f.depth + 1,
			typ:      ent.Type(),
			entry:    ent,
		}
		childAncestors := ancestors
		if r.follow == "-L" && child.typ&fs.ModeSymlink != 0 {
			if st := child.stat(r); st != nil && st.IsDir() {
				resolved, err := r.t.env.FS.Resolve(child.path())
				if err == nil && containsString(ancestors, resolved) {
					r.fail("File system loop detected; " + quoteAlways(child.shownPath()) + " is part of the same file system loop as " + quoteAlways(f.shownPath()) + ".")
					continue
				}
				childAncestors = append(append([]string(nil), ancestors...), resolved)
			}
		} else if r.follow == "-L" && child.typ.IsDir() {
			childAncestors = append(append([]string(nil), ancestors...), child.path())
		}
		r.visit(child, childAncestors)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// exec runs one command through the gate and returns its status.
func (r *findRun) exec(argv []string) int {
	if r.execErr != nil {
		return 1
	}
	if r.t.env.Exec == nil {
		r.fail(quoteAlways(argv[0]) + ": No such file or directory")
		return 127
	}
	r.t.flush()
	status, err := r.t.env.Exec(r.t.ctx, argv, r.t.stdin(), r.t.sink, r.t.env.Stderr)
	if err != nil {
		r.execErr = err
		return 1
	}
	return status
}

// findBatchLimit keeps one -exec ... + command line near GNU's size.
const findBatchLimit = 128 * 1024

func (r *findRun) addToBatch(b *findBatch, p string) {
	if b.size+len(p)+1 > findBatchLimit && len(b.paths) > 0 {
		r.flushBatch(b)
	}
	b.paths = append(b.paths, p)
	b.size += len(p) + 1
}

func (r *findRun) flushBatch(b *findBatch) {
	if len(b.paths) == 0 {
		return
	}
	argv := append(append([]string(nil), b.argv...), b.paths...)
	b.paths, b.size = nil, 0
	if r.exec(argv) != 0 {
		r.status = 1
	}
}

// confirm asks -ok's question on stderr and reads the answer from stdin.
func (r *findRun) confirm(argv []string) bool {
	r.t.rawStderr("< " + strings.Join(argv, " ") + " > ? ")
	if r.stdinLines == nil {
		r.stdinLines = bufio.NewReader(r.t.stdin())
	}
	line, _ := r.stdinLines.ReadString('\n')
	line = strings.TrimSpace(line)
	return strings.HasPrefix(line, "y") || strings.HasPrefix(line, "Y")
}

// delete removes one file for -delete (children go first: -delete
// implies -depth).
func (r *findRun) delete(f *findFile) bool {
	if f.shownPath() == "." || f.base() == "." {
		return true
	}
	if err := r.t.env.FS.Remove(f.path()); err != nil {
		r.fail("cannot delete " + quoteAlways(f.shownPath()) + ": " + errText(err))
		return false
	}
	return true
}

// lsLine is one line of -ls output.
func (r *findRun) lsLine(f *findFile) string {
	info := f.info(r)
	if info == nil {
		return ""
	}
	mt := info.ModTime().In(r.loc)
	date := mt.Format("Jan _2  2006")
	if mt.After(r.now.Add(-sixMonths)) && !mt.After(r.now) {
		date = mt.Format("Jan _2 15:04")
	}
	line := padLeft("0", 9) + " " + padLeft(strconv.FormatInt(diskBlocks(info), 10), 6) + " " +
		modeString(info.Mode()) + " " + padLeft(strconv.FormatInt(f.links(r), 10), 3) + " " +
		padRight("root", 8) + " " + padRight("root", 8) + " " + padLeft(strconv.FormatInt(info.Size(), 10), 8) + " " +
		date + " " + lsEscape(f.shownPath())
	if info.Mode()&fs.ModeSymlink != 0 {
		target, _ := r.t.env.FS.Readlink(f.path())
		line += " -> " + lsEscape(target)
	}
	return line + "\n"
}

// lsEscape is -ls's spelling of a name: backslash before blanks and
// backslashes, octal escapes for other unprintable bytes.
func lsEscape(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == ' ' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(cEscape(c))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
