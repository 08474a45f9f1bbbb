package utils

import (
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"gatehouse/internal/lazy"
)

const lsHelp = `Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -B, --ignore-backups       do not list implied entries ending with ~
  -C                         list entries by columns
  -d, --directory            list directories themselves, not their contents
  -f                         list all entries in directory order
  -F, --classify             append indicator (one of */=>@|) to entries
      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
      --group-directories-first  group directories before files
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
      --si                   likewise, but use powers of 1000 not 1024
  -H, --dereference-command-line  follow symbolic links listed on the command line
      --hide=PATTERN         do not list implied entries matching shell PATTERN
  -I, --ignore=PATTERN       do not list implied entries matching shell PATTERN
  -k, --kibibytes            default to 1024-byte blocks for disk usage
  -l                         use a long listing format
  -L, --dereference          show information for the file references
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -o                         like -l, but do not list group information
  -p                         append / indicator to directories
  -Q, --quote-name           enclose entry names in double quotes
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            sort by WORD instead of name: none (-U), size (-S),
                               time (-t), extension (-X)
  -t                         sort by time, newest first
      --time-style=STYLE     full-iso, long-iso, iso or locale
  -U                         do not sort; list entries in directory order
  -w, --width=COLS           set output width to COLS
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -1                         list one file per line
      --help        display this help and exit
      --version     output version information and exit

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument).
`

var lsOpts = []optDef{
	{short: 'a', long: "all"},
	{short: 'A', long: "almost-all"},
	{short: 'B', long: "ignore-backups"},
	{short: 'c'},
	{short: 'C'},
	{short: 'd', long: "directory"},
	{short: 'f'},
	{short: 'F', long: "classify", arg: maybeArg},
	{long: "file-type"},
	{long: "full-time"},
	{short: 'g'},
	{long: "group-directories-first"},
	{short: 'G', long: "no-group"},
	{short: 'h', long: "human-readable"},
	{long: "si"},
	{short: 'H', long: "dereference-command-line"},
	{long: "hide", arg: needArg},
	{short: 'I', long: "ignore", arg: needArg},
	{long: "indicator-style", arg: needArg},
	{short: 'k', long: "kibibytes"},
	{short: 'l'},
	{short: 'L', long: "dereference"},
	{short: 'm'},
	{short: 'n', long: "numeric-uid-gid"},
	{short: 'N', long: "literal"},
	{short: 'o'},
	{short: 'p'},
	{short: 'q', long: "hide-control-chars"},
	{short: 'Q', long: "quote-name"},
	{short: 'r', long: "reverse"},
	{short: 'R', long: "recursive"},
	{short: 's', long: "size"},
	{short: 'S'},
	{long: "sort", arg: needArg},
	{short: 't'},
	{long: "time", arg: needArg},
	{long: "time-style", arg: needArg},
	{short: 'T', long: "tabsize", arg: needArg},
	{short: 'u'},
	{short: 'U'},
	{short: 'v'},
	{short: 'w', long: "width", arg: needArg},
	{short: 'x'},
	{short: 'X'},
	{short: '1'},
	{long: "color", arg: maybeArg},
	{long: "format", arg: needArg},
}

// lsUtility makes the ls utility (see builtins).
func lsUtility(string) *Utility {
	return &Utility{
		Name:        "ls",
		Run:         runLs,
		Operands:    plainOperands(lsOpts, parseMode{}, Read),
		OperandExit: 2,
		Voice:       lsVoice,
		Help:        lsHelp,
	}
}

// lsVoice: a missing (or hidden) operand cannot be accessed; anything else
// the door refuses is a directory ls cannot open (stat passes a deny).
func lsVoice(arg, msg string) string {
	if msg == "No such file or directory" || msg == "Not a directory" {
		return "ls: cannot access " + quoteAlways(arg) + ": " + msg + "\n"
	}
	return "ls: cannot open directory " + quoteAlways(arg) + ": " + msg + "\n"
}

type lsFormat int

const (
	lsOnePerLine lsFormat = iota
	lsLong
	lsColumns
	lsAcross
	lsCommas
)

type lsSort int

const (
	lsByName lsSort = iota
	lsByTime
	lsBySize
	lsByExtension
	lsUnsorted
)

// lsConfig is the parsed command line.
type lsConfig struct {
	all, almostAll, ignoreBackups   bool
	directory, recursive, reverse   bool
	format                          lsFormat
	sortBy                          lsSort
	human, si, showSize             bool
	noOwner, noGroup, numeric       bool
	derefAll, derefCommandLine      bool
	classify, slashOnly, fileType   bool
	quoteNames, groupDirsFirst      bool
	timeStyle                       string
	timeFormatOld, timeFormatRecent string // --time-style=+FORMAT
	width                           int
	tabSize                         int // columns between tab stops for -C and -x; 0: spaces only
	ignore                          []string
	hide                            []string
	fullTime                        bool
	now                             time.Time
	loc                             *time.Location
}

// lsEntry is one name to print.
type lsEntry struct {
	name   string      // as shown
	path   string      // absolute VFS path
	info   fs.FileInfo // lstat (or stat when dereferenced)
	target string      // symlink target, long format
	// targetInfo is the link target's stat, for indicators; nil if broken.
	targetInfo fs.FileInfo
	nlink      int
}

func runLs(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "ls", defs: lsOpts, usageExit: 2, help: lsHelp})
	if done {
		return status, nil
	}
	cfg, msg := lsConfigure(t, args)
	if msg != "" {
		t.warn(msg)
		return t.end(2)
	}
	l := &lister{t: t, cfg: cfg}
	operands := args.operandStrings(e.Args)
	l.run(operands)
	return t.end(l.status)
}

func lsConfigure(t *tool, args *parsedArgs) (*lsConfig, string) {
	cfg := &lsConfig{width: 80, tabSize: 8, timeStyle: "locale", now: time.Now(), loc: t.location()}
	if cols, err := strconv.Atoi(t.env.Getenv("COLUMNS")); err == nil && cols > 0 {
		cfg.width = cols
	}
	for _, o := range args.opts {
		if msg := cfg.option(o); msg != "" {
			return nil, msg
		}
	}
	return cfg, ""
}

// option applies one option, in command-line order (later ones win); msg
// is ls's complaint about a bad value.
func (cfg *lsConfig) option(o parsedOpt) string {
	switch o.name {
	case "all":
		cfg.all, cfg.almostAll = true, false
	case "almost-all":
		cfg.almostAll = !cfg.all
	case "ignore-backups":
		cfg.ignoreBackups = true
	case "C":
		cfg.format = lsColumns
	case "directory":
		cfg.directory = true
	case "f":
		cfg.all, cfg.sortBy = true, lsUnsorted
	case "classify":
		cfg.classify = o.value != "never"
	case "file-type":
		cfg.fileType = true
	case "full-time":
		cfg.format, cfg.fullTime, cfg.timeStyle = lsLong, true, "full-iso"
	case "g":
		cfg.format, cfg.noOwner = lsLong, true
	case "group-directories-first":
		cfg.groupDirsFirst = true
	case "no-group":
		cfg.noGroup = true
	case "human-readable":
		cfg.human, cfg.si = true, false
	case "si":
		cfg.human, cfg.si = true, true
	case "dereference-command-line":
		cfg.derefCommandLine = true
	case "hide":
		cfg.hide = append(cfg.hide, o.value)
	case "ignore":
		cfg.ignore = append(cfg.ignore, o.value)
	case "indicator-style":
		return cfg.indicatorStyle(o.value)
	case "l":
		cfg.format = lsLong
	case "dereference":
		cfg.derefAll = true
	case "m":
		cfg.format = lsCommas
	case "numeric-uid-gid":
		cfg.format, cfg.numeric = lsLong, true
	case "literal":
		cfg.quoteNames = false
	case "o":
		cfg.format, cfg.noGroup = lsLong, true
	case "p":
		cfg.slashOnly = true
	case "quote-name":
		cfg.quoteNames = true
	case "reverse":
		cfg.reverse = true
	case "recursive":
		cfg.recursive = true
	case "size":
		cfg.showSize = true
	case "S":
		cfg.sortBy = lsBySize
	case "sort":
		by, ok := lsSortWords.Get()[o.value]
		if !ok {
			return "invalid argument " + quoteAlways(o.value) + " for '--sort'"
		}
		cfg.sortBy = by
	case "t":
		cfg.sortBy = lsByTime
	case "time-style":
		style := strings.TrimPrefix(o.value, "posix-")
		switch {
		case style == "full-iso" || style == "long-iso" || style == "iso" || style == "locale":
			cfg.timeStyle = style
		case strings.HasPrefix(o.value, "+"):
			// +FORMAT, or +OLD\nRECENT: strftime formats, as GNU ls takes them.
			cfg.timeStyle = "+"
			cfg.timeFormatOld, cfg.timeFormatRecent, _ = strings.Cut(o.value[1:], "\n")
			if cfg.timeFormatRecent == "" {
				cfg.timeFormatRecent = cfg.timeFormatOld
			}
		default:
			return "invalid argument " + quoteAlways(o.value) + " for 'time style'\nValid arguments are:\n" +
				"  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n" +
				"  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\nTry 'ls --help' for more information."
		}
	case "U":
		cfg.sortBy = lsUnsorted
	case "width":
		return lsCount(&cfg.width, o.value, "invalid line width: ")
	case "x":
		cfg.format = lsAcross
	case "tabsize":
		return lsCount(&cfg.tabSize, o.value, "invalid tab size: ")
	case "X":
		cfg.sortBy = lsByExtension
	case "1":
		if cfg.format != lsLong {
			cfg.format = lsOnePerLine
		}
	case "format":
		f, ok := lsFormatWords.Get()[o.value]
		if !ok {
			return "invalid argument " + quoteAlways(o.value) + " for '--format'"
		}
		cfg.format = f
	}
	return ""
}

// lsSortWords and lsFormatWords are the values of --sort and --format.
var (
	lsSortWords = lazy.Value[map[string]lsSort]{New: func() map[string]lsSort {
		return map[string]lsSort{"none": lsUnsorted, "size": lsBySize, "time": lsByTime, "extension": lsByExtension, "name": lsByName}
	}}
	lsFormatWords = lazy.Value[map[string]lsFormat]{New: func() map[string]lsFormat {
		return map[string]lsFormat{"long": lsLong, "verbose": lsLong, "single-column": lsOnePerLine, "commas": lsCommas,
			"across": lsAcross, "horizontal": lsAcross, "vertical": lsColumns}
	}}
)

// indicatorStyle applies --indicator-style=WORD.
func (cfg *lsConfig) indicatorStyle(word string) string {
	switch word {
	case "none":
		cfg.classify, cfg.slashOnly, cfg.fileType = false, false, false
	case "slash":
		cfg.slashOnly = true
	case "file-type":
		cfg.fileType = true
	case "classify":
		cfg.classify = true
	default:
		return "invalid argument " + quoteAlways(word) + " for '--indicator-style'"
	}
	return ""
}

// lsCount sets *n from a non-negative count, or says why not.
func lsCount(n *int, value, complaint string) string {
	v, err := strconv.Atoi(value)
	if err != nil || v < 0 {
		return complaint + quoteAlways(value)
	}
	*n = v
	return ""
}

// lister walks the operands and prints them in GNU's order.
type lister struct {
	t      *tool
	cfg    *lsConfig
	status int
	// printedBlock says output exists, so the next directory block starts
	// with a blank line.
	printedBlock bool
	// modes and dates remember the text of each mode and each date minute
	// shown so far: a long listing has few of either, and -lR of a large
	// tree would otherwise format both anew for every entry.
	modes map[fs.FileMode]string
	dates map[lsDateKey]string
}

// lsDateKey is a modification time to the precision ls -l shows it in
// the default style, with whether it is recent (the clock replaces the
// year).
type lsDateKey struct {
	minute int64
	recent bool
}

func (l *lister) fail(serious bool, msg string) {
	l.t.warn(msg)
	if serious {
		l.status = 2
	} else if l.status == 0 {
		l.status = 1
	}
}

func (l *lister) run(operands []string) {
	cfg := l.cfg
	if len(operands) == 0 {
		operands = []string{"."}
	}
	// Command-line symlinks to directories are followed unless the listing
	// is about the links themselves (-l, -d, -F), as in GNU ls.
	followCommandLine := cfg.derefAll || cfg.derefCommandLine ||
		!(cfg.directory || cfg.classify || cfg.format == lsLong)
	var files []lsEntry
	var dirs []lsEntry
	for _, op := range operands {
		p := l.t.abs(op)
		info, err := l.t.env.FS.Lstat(p)
		if err == nil && info.Mode()&fs.ModeSymlink != 0 && followCommandLine {
			if target, terr := l.t.env.FS.Stat(p); terr == nil {
				if cfg.derefAll || cfg.derefCommandLine || target.IsDir() {
					info = target
				}
			}
		}
		if err != nil {
			l.fail(true, "cannot access "+quoteAlways(op)+": "+errText(err))
			continue
		}
		ent := l.entry(op, p, info)
		if info.IsDir() && !cfg.directory {
			dirs = append(dirs, ent)
		} else {
			files = append(files, ent)
		}
	}
	l.sortEntries(files)
	l.sortEntries(dirs)
	if len(files) > 0 {
		l.printBlock(files, false)
		l.printedBlock = true
	}
	showHeader := len(files) > 0 || len(operands) > 1 || cfg.recursive
	for _, d := range dirs {
		if l.t.stopped() {
			return
		}
		l.listDir(d.name, d.path, showHeader, true)
	}
}

// entry builds an lsEntry, fetching what the format needs.
func (l *lister) entry(name, p string, info fs.FileInfo) lsEntry {
	ent := lsEntry{name: name, path: p, info: info, nlink: int(fileLinks(info))}
	fsys := l.t.env.FS
	if info.Mode()&fs.ModeSymlink != 0 {
		if l.cfg.format == lsLong {
			ent.target, _ = fsys.Readlink(p)
		}
		if l.cfg.classify || l.cfg.fileType || l.cfg.slashOnly || l.cfg.format == lsLong {
			if ti, err := fsys.Stat(p); err == nil {
				ent.targetInfo = ti
			}
		}
	}
	if info.IsDir() && l.cfg.format == lsLong {
		ent.nlink = 2
		if kids, err := fsys.ReadDir(p); err == nil {
			for _, k := range kids {
				if k.IsDir() {
					ent.nlink++
				}
			}
		}
	}
	return ent
}

// listDir prints one directory block and, with -R, its subdirectories.
func (l *lister) listDir(name, p string, header, commandLine bool) {
	// Every kid's metadata is read below: take it with the listing.
	kids, err := l.t.env.FS.ReadDirInfo(p)
	if err != nil {
		l.fail(commandLine, "cannot open directory "+quoteAlways(name)+": "+errText(err))
		return
	}
	if l.printedBlock {
		l.t.writeByte('\n')
	}
	l.printedBlock = true
	if header {
		l.t.writeString(name + ":\n")
	}
	var entries []lsEntry
	if l.cfg.all {
		for _, dot := range []string{".", ".."} {
			dp := Join(p, dot)
			if info, err := l.t.env.FS.Stat(dp); err == nil {
				entries = append(entries, l.entry(dot, dp, info))
			}
		}
	}
	for _, k := range kids {
		kname := k.Name()
		if !l.visible(kname) {
			continue
		}
		kp := Join(p, kname)
		var info fs.FileInfo
		if l.cfg.derefAll && k.Type()&fs.ModeSymlink != 0 {
			info, err = l.t.env.FS.Stat(kp)
			if err != nil {
				info, err = k.Info()
			}
		} else {
			info, err = k.Info()
		}
		if err != nil {
			l.fail(false, "cannot access "+quoteAlways(joinShown(name, kname))+": "+errText(err))
			continue
		}
		entries = append(entries, l.entry(kname, kp, info))
	}
	l.sortEntries(entries)
	l.printBlock(entries, true)
	if !l.cfg.recursive {
		return
	}
	for _, ent := range entries {
		if l.t.stopped() {
			return
		}
		if ent.name == "." || ent.name == ".." || !ent.info.IsDir() {
			continue
		}
		l.listDir(joinShown(name, ent.name), ent.path, true, false)
	}
}

// joinShown joins a directory as the user spelled it with a child name.
func joinShown(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// visible applies -a, -A, -B, -I and --hide to a directory entry.
func (l *lister) visible(name string) bool {
	cfg := l.cfg
	if strings.HasPrefix(name, ".") && !cfg.all && !cfg.almostAll {
		return false
	}
	for _, pat := range cfg.ignore {
		if fnmatch(pat, name, fnmatchFlags{}) {
			return false
		}
	}
	if !cfg.all && !cfg.almostAll {
		for _, pat := range cfg.hide {
			if fnmatch(pat, name, fnmatchFlags{}) {
				return false
			}
		}
	}
	if cfg.ignoreBackups && strings.HasSuffix(name, "~") {
		return false
	}
	return true
}

func (l *lister) sortEntries(entries []lsEntry) {
	cfg := l.cfg
	if cfg.sortBy == lsUnsorted {
		return
	}
	less := func(a, b *lsEntry) int {
		switch cfg.sortBy {
		case lsByTime:
			ta, tb := a.info.ModTime(), b.info.ModTime()
			if !ta.Equal(tb) {
				if ta.After(tb) {
					return -1
				}
				return 1
			}
		case lsBySize:
			if a.info.Size() != b.info.Size() {
				if a.info.Size() > b.info.Size() {
					return -1
				}
				return 1
			}
		case lsByExtension:
			if c := strings.Compare(extensionOf(a.name), extensionOf(b.name)); c != 0 {
				return c
			}
		}
		return strings.Compare(a.name, b.name)
	}
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := &entries[i], &entries[j]
		if cfg.groupDirsFirst {
			da, db := a.isDir(), b.isDir()
			if da != db {
				return da
			}
		}
		c := less(a, b)
		if cfg.reverse {
			c = -c
		}
		return c < 0
	})
}

// isDir counts links to directories as directories, as
// --group-directories-first does.
func (e *lsEntry) isDir() bool {
	return e.info.IsDir() || (e.targetInfo != nil && e.targetInfo.IsDir())
}

func extensionOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[i:]
	}
	return ""
}
