package utils

import (
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

const treeHelp = `usage: tree [-acdfghiFlpsuvDJQrtU] [-L level] [-P pattern] [-I pattern]
	[--filelimit #] [--noreport] [--dirsfirst] [--prune] [--du] [--charset X]
	[--] [directory ...]
  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -f            Print the full path prefix for each file.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --matchdirs   Include directory names in -P pattern matching.
  --ignore-case Ignore case when pattern matching.
  --prune       Prune empty directories from the output.
  --filelimit # Do not descend dirs with more than # files in them.
  --noreport    Turn off file/directory count at end of tree listing.
  ------- File options -------
  -Q            Quote filenames with double quotes.
  -p            Print the protections for each file.
  -u            Displays file owner or UID number.
  -g            Displays file group owner or GID number.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  --du          Compute size of directories by their contents.
  -D            Print the date of last modification.
  -F            Appends '/', '=', '*', '@', '|' or '>' as per ls -F.
  ------- Sorting options -------
  -v            Sort files alphanumerically by version.
  -t            Sort files by last modification time.
  -U            Leave files unsorted.
  -r            Reverse the order of the sort.
  --dirsfirst   List directories before files.
  ------- Graphics options -------
  -i            Don't print indentation lines.
  --charset X   Use charset X for output: ascii draws the tree with ASCII.
  ------- Output options -------
  -J            Prints out a JSON representation of the tree.
  --help        Print usage and this help message and exit.

Lines are drawn in UTF-8 unless --charset=ascii is given or the locale
(LC_ALL, LC_CTYPE, LANG) names a non-UTF-8 one such as C.
`

// treeUtility makes the tree utility (see builtins).
func treeUtility(string) *Utility {
	return &Utility{
		Name:        "tree",
		Run:         runTree,
		Operands:    treeOperands,
		OperandExit: 2,
		Voice:       func(arg, msg string) string { return arg + "  [error opening dir]\n" },
		Help:        treeHelp,
	}
}

type treeConfig struct {
	all, dirsOnly, fullPath, classify, dirsFirst, noReport bool
	maxLevel                                               int // 0: unlimited
	include, exclude                                       []string
	matchDirs, ignoreCase, prune                           bool
	fileLimit                                              int
	quote, perms, user, group, size, human, du, date       bool
	sortVersion, sortTime, unsorted, reverse               bool
	noIndent, json                                         bool
	branch, last, pipe, blank                              string
}

// treeFlags maps single-letter switches to their settings.
func (cfg *treeConfig) flag(c byte) bool {
	set := map[byte]*bool{'a': &cfg.all, 'd': &cfg.dirsOnly, 'f': &cfg.fullPath, 'F': &cfg.classify,
		'Q': &cfg.quote, 'p': &cfg.perms, 'u': &cfg.user, 'g': &cfg.group, 's': &cfg.size, 'h': &cfg.human,
		'D': &cfg.date, 'v': &cfg.sortVersion, 't': &cfg.sortTime, 'U': &cfg.unsorted, 'r': &cfg.reverse,
		'i': &cfg.noIndent, 'J': &cfg.json}
	if p, ok := set[c]; ok {
		*p = true
		return true
	}
	return c == 'l' || c == 'n' || c == 'C' || c == 'N' || c == 'x'
}

// treeLong are the long switches.
func (cfg *treeConfig) long(a string) bool {
	set := map[string]*bool{"--noreport": &cfg.noReport, "--dirsfirst": &cfg.dirsFirst, "--prune": &cfg.prune,
		"--matchdirs": &cfg.matchDirs, "--ignore-case": &cfg.ignoreCase, "--du": &cfg.du, "--si": &cfg.human}
	if p, ok := set[a]; ok {
		*p = true
		return true
	}
	return false
}

// treeParse reads tree's command line: short flags, -L/-P/-I with a
// separate value, and the long options.
func treeParse(argv []string) (*treeConfig, []int, string) {
	cfg := &treeConfig{}
	charset := ""
	var dirs []int
	onlyDirs := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if onlyDirs || a == "-" || !strings.HasPrefix(a, "-") {
			dirs = append(dirs, i)
			continue
		}
		value := func() (string, bool) {
			if i+1 >= len(argv) {
				return "", false
			}
			i++
			return argv[i], true
		}
		switch {
		case a == "--":
			onlyDirs = true
		case cfg.long(a):
		case a == "--help":
			return nil, nil, "help"
		case a == "--charset" || a == "--filelimit":
			v, ok := value()
			if !ok {
				return nil, nil, "tree: Missing argument to " + a + " option."
			}
			if a == "--charset" {
				charset = v
			} else if n, err := strconv.Atoi(v); err == nil {
				cfg.fileLimit = n
			}
		case strings.HasPrefix(a, "--charset="):
			charset = strings.TrimPrefix(a, "--charset=")
		case strings.HasPrefix(a, "--filelimit="):
			cfg.fileLimit, _ = strconv.Atoi(strings.TrimPrefix(a, "--filelimit="))
		case strings.HasPrefix(a, "--"):
			return nil, nil, "tree: Invalid argument `" + a + "'."
		default:
			if msg := cfg.shortCluster(a, value); msg != "" {
				return nil, nil, msg
			}
		}
	}
	cfg.branch, cfg.last, cfg.pipe, cfg.blank = "├── ", "└── ", "│   ", "    "
	if strings.EqualFold(charset, "ascii") {
		cfg.branch, cfg.last, cfg.pipe = "|-- ", "`-- ", "|   "
	}
	return cfg, dirs, charset
}

// shortCluster reads one -abc argument.
func (cfg *treeConfig) shortCluster(a string, value func() (string, bool)) string {
	for k := 1; k < len(a); k++ {
		c := a[k]
		if cfg.flag(c) {
			continue
		}
		if c != 'L' && c != 'P' && c != 'I' {
			return "tree: Invalid argument -`" + string(c) + "'."
		}
		v, ok := value()
		if !ok {
			return "tree: Missing argument to -" + string(c) + " option."
		}
		switch c {
		case 'L':
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return "tree: Invalid level, must be greater than 0."
			}
			cfg.maxLevel = n
		case 'P':
			cfg.include = append(cfg.include, strings.Split(v, "|")...)
		case 'I':
			cfg.exclude = append(cfg.exclude, strings.Split(v, "|")...)
		}
	}
	return ""
}

func treeOperands(argv []string) []OperandRef {
	cfg, dirs, _ := treeParse(argv)
	if cfg == nil {
		return nil
	}
	return operandRefs(dirs, Read)
}

type treeRun struct {
	t            *tool
	cfg          *treeConfig
	dirs, files  int
	errorsOpened int
	used         int64 // --du: the size under the roots
}

// treeNode is one listed entry and, for a directory, what it shows.
type treeNode struct {
	name, shown string
	info        fs.FileInfo
	dir         bool
	target      string // a link's target
	kids        []*treeNode
	opened      bool   // a directory whose contents were read
	note        string // "[error opening dir]" and the like
	size        int64  // with --du, a directory's total
}

func runTree(e *Env) (int, error) {
	t := newTool(e, "tree", treeHelp, 2)
	cfg, dirIdx, msg := treeParse(e.Args)
	if cfg == nil {
		if msg == "help" {
			t.writeString(treeHelp)
			return t.end(0)
		}
		t.rawStderr(msg + "\n" + strings.SplitN(treeHelp, "\n  -", 2)[0] + "\n")
		return t.end(2)
	}
	if msg == "" && !treeLocaleUTF8(e) {
		cfg.branch, cfg.last, cfg.pipe = "|-- ", "`-- ", "|   "
	}
	if cfg.noIndent {
		cfg.branch, cfg.last, cfg.pipe, cfg.blank = "", "", "", ""
	}
	roots := make([]string, 0, len(dirIdx))
	for _, i := range dirIdx {
		roots = append(roots, e.Args[i])
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	r := &treeRun{t: t, cfg: cfg}
	var nodes []*treeNode
	for _, root := range roots {
		if t.stopped() {
			break
		}
		nodes = append(nodes, r.root(root))
	}
	if cfg.json {
		r.printJSON(nodes)
	} else {
		for _, n := range nodes {
			r.printText(n)
		}
		r.report()
	}
	if r.errorsOpened > 0 {
		return t.end(2)
	}
	return t.end(0)
}

// root reads one command-line directory and everything shown below it.
func (r *treeRun) root(root string) *treeNode {
	e := r.t.env
	n := &treeNode{name: root, shown: root}
	info, err := statOperand(e, root, true)
	if err == nil && info.IsDir() {
		_, err = e.FS.ReadDir(e.Abs(root))
	}
	if err != nil || !info.IsDir() {
		n.note = "[error opening dir]"
		r.errorsOpened++
		return n
	}
	n.info, n.dir = info, true
	if list, _ := e.FS.ReadDir(e.Abs(root)); r.cfg.fileLimit > 0 && r.countShown(list) > r.cfg.fileLimit {
		n.note = "[" + strconv.Itoa(r.countShown(list)) + " entries exceeds filelimit, not opening dir]"
		r.dirs++
		return n
	}
	n.opened = true
	before := r.dirs + r.files
	n.kids = r.read(root, e.Abs(root), 1)
	if r.dirs+r.files > before {
		// tree 2.x counts a root directory in its report only when it
		// showed something under it.
		r.dirs++
	}
	n.size = r.duSize(n)
	r.used += n.size - info.Size()
	return n
}

// treeLocaleUTF8 reports whether the session's locale draws lines in
// UTF-8: yes unless a locale variable names another charset.
func treeLocaleUTF8(e *Env) bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := e.Getenv(name); v != "" {
			lower := strings.ToLower(v)
			return strings.Contains(lower, "utf-8") || strings.Contains(lower, "utf8")
		}
	}
	return true
}

// read lists a directory's shown children, recursing into directories.
func (r *treeRun) read(shown, p string, level int) []*treeNode {
	ents, err := r.t.env.FS.ReadDirInfo(p) // every entry's Info is read below
	if err != nil {
		return nil
	}
	cfg := r.cfg
	var out []*treeNode
	for _, ent := range ents {
		name := ent.Name()
		if !cfg.all && strings.HasPrefix(name, ".") {
			continue
		}
		info, err := ent.Info()
		if err != nil {
			continue
		}
		isDir := info.IsDir()
		if cfg.dirsOnly && !isDir {
			continue
		}
		if len(cfg.include) > 0 && !isDir && !r.matchAny(cfg.include, name) {
			continue
		}
		if r.matchAny(cfg.exclude, name) {
			continue
		}
		childShown := path.Join(shown, name)
		if shown == "." {
			childShown = "./" + name
		}
		n := &treeNode{name: name, shown: childShown, info: info, dir: isDir}
		if info.Mode()&fs.ModeSymlink != 0 {
			n.target, _ = r.t.env.FS.Readlink(path.Join(p, name))
		}
		out = append(out, n)
	}
	r.sort(out)
	kept := out[:0]
	for _, n := range out {
		if n.dir {
			r.descend(n, path.Join(p, n.name), level)
			if cfg.prune && len(n.kids) == 0 {
				continue
			}
			r.dirs++
		} else {
			r.files++
		}
		kept = append(kept, n)
	}
	return kept
}

// descend reads a child directory unless the level, a file limit or an
// error stops it.
func (r *treeRun) descend(n *treeNode, p string, level int) {
	if r.cfg.maxLevel > 0 && level >= r.cfg.maxLevel {
		return
	}
	list, err := r.t.env.FS.ReadDir(p)
	if err != nil {
		n.note = "[error opening dir]"
		return
	}
	if r.cfg.fileLimit > 0 && r.countShown(list) > r.cfg.fileLimit {
		n.note = "[" + strconv.Itoa(r.countShown(list)) + " entries exceeds filelimit, not opening dir]"
		return
	}
	n.opened = true
	n.kids = r.read(n.shown, p, level+1)
}

// countShown counts the entries --filelimit weighs (hidden ones only
// with -a).
func (r *treeRun) countShown(list []fs.DirEntry) int {
	n := 0
	for _, d := range list {
		if r.cfg.all || !strings.HasPrefix(d.Name(), ".") {
			n++
		}
	}
	return n
}

// sort orders siblings: by name (or version, or time), directories
// first if asked, reversed with -r.
func (r *treeRun) sort(out []*treeNode) {
	cfg := r.cfg
	if cfg.unsorted {
		return
	}
	less := func(a, b *treeNode) bool {
		switch {
		case cfg.sortTime && !a.info.ModTime().Equal(b.info.ModTime()):
			return a.info.ModTime().Before(b.info.ModTime())
		case cfg.sortVersion:
			return versionLess(a.name, b.name)
		}
		return a.name < b.name
	}
	sort.SliceStable(out, func(i, j int) bool {
		if cfg.dirsFirst && out[i].dir != out[j].dir {
			return out[i].dir
		}
		if cfg.reverse {
			return less(out[j], out[i])
		}
		return less(out[i], out[j])
	})
}

// versionLess compares names with runs of digits as numbers.
func versionLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := leadingDigits(a), leadingDigits(b)
		if da != "" && db != "" {
			na, _ := strconv.ParseInt(da, 10, 64)
			nb, _ := strconv.ParseInt(db, 10, 64)
			if na != nb {
				return na < nb
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

func (r *treeRun) matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if r.cfg.ignoreCase {
			p, name = strings.ToLower(p), strings.ToLower(name)
		}
		if fnmatch(p, name, fnmatchFlags{}) {
			return true
		}
	}
	return false
}

// duSize totals a directory's contents for --du.
func (r *treeRun) duSize(n *treeNode) int64 {
	if n.info == nil {
		return 0
	}
	total := n.info.Size()
	for _, k := range n.kids {
		if k.dir {
			k.size = r.duSize(k)
			total += k.size
		} else {
			total += k.info.Size()
		}
	}
	return total
}

func treeClassify(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "/"
	case m&fs.ModeSymlink != 0:
		return "@"
	case m&fs.ModeNamedPipe != 0:
		return "|"
	case m&fs.ModeSocket != 0:
		return "="
	case m.IsRegular() && m&0o111 != 0:
		return "*"
	}
	return ""
}
