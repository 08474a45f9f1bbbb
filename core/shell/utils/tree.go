package utils

import (
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

const treeHelp = `usage: tree [-adfFlL] [-L level] [-P pattern] [-I pattern] [--noreport]
	[--dirsfirst] [--charset X] [--] [directory ...]
  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -f            Print the full path prefix for each file.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --noreport    Turn off file/directory count at end of tree listing.
  --dirsfirst   List directories before files.
  -F            Appends '/', '=', '*', '@', '|' or '>' as per ls -F.
  --charset X   Use charset X for output: ascii draws the tree with ASCII.
  --help        Print usage and this help message and exit.

Lines are drawn in UTF-8 unless --charset=ascii is given or the locale
(LC_ALL, LC_CTYPE, LANG) names a non-UTF-8 one such as C.
`

func init() {
	Register(&Utility{
		Name:        "tree",
		Run:         runTree,
		Operands:    treeOperands,
		OperandExit: 2,
		Voice:       func(arg, msg string) string { return arg + "  [error opening dir]\n" },
		Help:        treeHelp,
	})
}

type treeConfig struct {
	all, dirsOnly, fullPath, classify, dirsFirst, noReport bool
	maxLevel                                               int // 0: unlimited
	include, exclude                                       []string
	branch, last, pipe, blank                              string
}

// treeParse reads tree's command line: short flags, -L/-P/-I with a
// separate value, and a few long options.
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
		case a == "--noreport":
			cfg.noReport = true
		case a == "--dirsfirst":
			cfg.dirsFirst = true
		case a == "--help":
			return nil, nil, "help"
		case a == "--charset":
			v, ok := value()
			if !ok {
				return nil, nil, "tree: Missing argument to --charset option."
			}
			charset = v
		case strings.HasPrefix(a, "--charset="):
			charset = strings.TrimPrefix(a, "--charset=")
		case strings.HasPrefix(a, "--"):
			return nil, nil, "tree: Invalid argument `" + a + "'."
		default:
			for k := 1; k < len(a); k++ {
				switch a[k] {
				case 'a':
					cfg.all = true
				case 'd':
					cfg.dirsOnly = true
				case 'f':
					cfg.fullPath = true
				case 'F':
					cfg.classify = true
				case 'l', 'n', 'C':
				case 'L', 'P', 'I':
					v, ok := value()
					if !ok {
						return nil, nil, "tree: Missing argument to -" + string(a[k]) + " option."
					}
					switch a[k] {
					case 'L':
						n, err := strconv.Atoi(v)
						if err != nil || n < 1 {
							return nil, nil, "tree: Invalid level, must be greater than 0."
						}
						cfg.maxLevel = n
					case 'P':
						cfg.include = append(cfg.include, strings.Split(v, "|")...)
					case 'I':
						cfg.exclude = append(cfg.exclude, strings.Split(v, "|")...)
					}
				default:
					return nil, nil, "tree: Invalid argument -`" + string(a[k]) + "'."
				}
			}
		}
	}
	cfg.branch, cfg.last, cfg.pipe, cfg.blank = "├── ", "└── ", "│   ", "    "
	if strings.EqualFold(charset, "ascii") {
		cfg.branch, cfg.last, cfg.pipe = "|-- ", "`-- ", "|   "
	}
	return cfg, dirs, charset
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
	roots := make([]string, 0, len(dirIdx))
	for _, i := range dirIdx {
		roots = append(roots, e.Args[i])
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	r := &treeRun{t: t, cfg: cfg}
	for _, root := range roots {
		if t.stopped() {
			break
		}
		info, err := statOperand(e, root, true)
		switch {
		case err != nil:
			t.writeString(root + "  [error opening dir]\n")
			r.errorsOpened++
		case !info.IsDir():
			t.writeString(root + "  [error opening dir]\n")
			r.errorsOpened++
		default:
			if _, err := e.FS.ReadDir(e.Abs(root)); err != nil {
				t.writeString(root + "  [error opening dir]\n")
				r.errorsOpened++
				continue
			}
			t.writeString(root + "\n")
			before := r.dirs + r.files
			r.walk(root, e.Abs(root), "", 1)
			if r.dirs+r.files > before {
				// tree 2.x counts a root directory in its report only
				// when it showed something under it.
				r.dirs++
			}
		}
	}
	if !cfg.noReport {
		plural := func(n int, one, many string) string {
			if n == 1 {
				return strconv.Itoa(n) + " " + one
			}
			return strconv.Itoa(n) + " " + many
		}
		report := "\n" + plural(r.dirs, "directory", "directories")
		if !cfg.dirsOnly {
			report += ", " + plural(r.files, "file", "files")
		}
		t.writeString(report + "\n")
	}
	if r.errorsOpened > 0 {
		return t.end(2)
	}
	return t.end(0)
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

// treeEntry is one listed child.
type treeEntry struct {
	name string
	info fs.FileInfo
	dir  bool // a directory (not through a link)
}

func (r *treeRun) children(p string) ([]treeEntry, error) {
	ents, err := r.t.env.FS.ReadDirInfo(p) // every entry's Info is read below
	if err != nil {
		return nil, err
	}
	var out []treeEntry
	for _, ent := range ents {
		name := ent.Name()
		if !r.cfg.all && strings.HasPrefix(name, ".") {
			continue
		}
		info, err := ent.Info()
		if err != nil {
			continue
		}
		isDir := info.IsDir()
		if r.cfg.dirsOnly && !isDir {
			continue
		}
		if !isDir && len(r.cfg.include) > 0 && !treeMatchAny(r.cfg.include, name) {
			continue
		}
		if treeMatchAny(r.cfg.exclude, name) {
			continue
		}
		out = append(out, treeEntry{name: name, info: info, dir: isDir})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if r.cfg.dirsFirst && out[i].dir != out[j].dir {
			return out[i].dir
		}
		return out[i].name < out[j].name
	})
	return out, nil
}

func treeMatchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if fnmatch(p, name, fnmatchFlags{}) {
			return true
		}
	}
	return false
}

// walk prints the children of a directory with the drawing prefix.
func (r *treeRun) walk(shown, p, prefix string, level int) {
	if r.cfg.maxLevel > 0 && level > r.cfg.maxLevel {
		return
	}
	entries, err := r.children(p)
	if err != nil {
		return
	}
	for i, ent := range entries {
		if r.t.stopped() {
			return
		}
		connector, indent := r.cfg.branch, r.cfg.pipe
		if i == len(entries)-1 {
			connector, indent = r.cfg.last, r.cfg.blank
		}
		childShown := path.Join(shown, ent.name)
		if shown == "." {
			childShown = "./" + ent.name
		}
		label := ent.name
		if r.cfg.fullPath {
			label = childShown
		}
		m := ent.info.Mode()
		if m&fs.ModeSymlink != 0 {
			target, _ := r.t.env.FS.Readlink(path.Join(p, ent.name))
			label += " -> " + target
		}
		if r.cfg.classify {
			label += treeClassify(m)
		}
		childPath := path.Join(p, ent.name)
		if ent.dir {
			r.dirs++
			if _, err := r.t.env.FS.ReadDir(childPath); err != nil {
				label += "  [error opening dir]"
				r.t.writeString(prefix + connector + label + "\n")
				continue
			}
			r.t.writeString(prefix + connector + label + "\n")
			r.walk(childShown, childPath, prefix+indent, level+1)
			continue
		}
		r.files++
		r.t.writeString(prefix + connector + label + "\n")
	}
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
