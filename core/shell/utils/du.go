package utils

import (
	"io/fs"
	"path"
	"strconv"
)

const duHelp = `Usage: du [OPTION]... [FILE]...
Summarize device usage of the set of FILEs, recursively for directories.

Mandatory arguments to long options are mandatory for short options too.
  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --si              like -h, but use powers of 1000 not 1024
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -m                    like --block-size=1M
  -s, --summarize       display only a total for each argument
  -x, --one-file-system    skip directories on different file systems
      --help        display this help and exit
      --version     output version information and exit

Device usage is computed as a Linux ext4 filesystem would allocate it:
each regular file and directory takes its size rounded up to whole 4 KiB
blocks (a directory counts one block), symbolic links take none. Entries
of a directory are visited in name order.
`

var duOpts = []optDef{
	{short: '0', long: "null"},
	{short: 'a', long: "all"},
	{long: "apparent-size"},
	{short: 'b', long: "bytes"},
	{short: 'c', long: "total"},
	{short: 'd', long: "max-depth", arg: needArg},
	{short: 'h', long: "human-readable"},
	{long: "si"},
	{short: 'k'},
	{short: 'L', long: "dereference"},
	{short: 'm'},
	{short: 's', long: "summarize"},
	{short: 'x', long: "one-file-system"},
}

// duUtility makes the du utility (see builtins).
func duUtility(string) *Utility {
	return &Utility{
		Name:        "du",
		Run:         runDu,
		Operands:    plainOperands(duOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       alwaysQuotedVoice("du: cannot access "),
		Help:        duHelp,
	}
}

type duConfig struct {
	all, apparent, human, si, deref bool
	maxDepth                        int // -1: unlimited
	unit                            int64
	eol                             string
}

type duRun struct {
	t      *tool
	cfg    *duConfig
	status int
}

func runDu(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "du", defs: duOpts, usageExit: 1, help: duHelp})
	if done {
		return status, nil
	}
	cfg := &duConfig{maxDepth: -1, unit: 1024, eol: "\n"}
	total, summarize := false, false
	for _, o := range args.opts {
		switch o.name {
		case "null":
			cfg.eol = "\x00"
		case "all":
			cfg.all = true
		case "apparent-size":
			cfg.apparent = true
		case "bytes":
			cfg.apparent, cfg.unit = true, 1
		case "total":
			total = true
		case "max-depth":
			n, err := strconv.Atoi(o.value)
			if err != nil || n < 0 {
				t.warn("invalid maximum depth " + quoteAlways(o.value))
				return t.end(1)
			}
			cfg.maxDepth = n
		case "human-readable":
			cfg.human = true
		case "si":
			cfg.human, cfg.si = true, true
		case "k":
			cfg.unit = 1024
		case "m":
			cfg.unit = 1024 * 1024
		case "dereference":
			cfg.deref = true
		case "summarize":
			summarize = true
		}
	}
	if summarize {
		if cfg.maxDepth > 0 {
			t.warn("warning: summarizing conflicts with --max-depth=" + strconv.Itoa(cfg.maxDepth))
			return t.end(t.usage("warning: summarizing is the same as using --max-depth=0"))
		}
		if cfg.all {
			return t.end(t.usage("cannot both summarize and show all entries"))
		}
		cfg.maxDepth = 0
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		names = []string{"."}
	}
	d := &duRun{t: t, cfg: cfg}
	var grand int64
	for _, name := range names {
		if t.stopped() {
			break
		}
		p := e.Abs(name)
		info, err := d.stat(p, true)
		if name == "" {
			info, err = nil, errEmptyName
		}
		if err != nil {
			t.warn("cannot access " + quoteAlways(name) + ": " + errText(err))
			d.status = 1
			continue
		}
		grand += d.walk(name, p, info, 0)
	}
	if total {
		d.print(grand, "total")
	}
	return t.end(d.status)
}

// stat follows links for -L, and always for a command-line operand that
// names a directory through a link (as du -D would; GNU only does that
// for arguments with a trailing slash, which reads the same here).
func (d *duRun) stat(p string, operand bool) (fs.FileInfo, error) {
	if d.cfg.deref {
		return d.t.env.FS.Stat(p)
	}
	info, err := d.t.env.FS.Lstat(p)
	if err == nil && operand && info.Mode()&fs.ModeSymlink != 0 {
		if target, terr := d.t.env.FS.Stat(p); terr == nil && target.IsDir() {
			return target, nil
		}
	}
	return info, err
}

// size is one entry's own usage in bytes.
func (d *duRun) size(info fs.FileInfo) int64 {
	if d.cfg.apparent {
		if info.IsDir() {
			return 4096
		}
		if info.Mode()&fs.ModeSymlink != 0 || info.Mode().IsRegular() {
			return info.Size()
		}
		return 0
	}
	return diskBlocks(info) * 1024
}

// walk totals an entry, printing directories (and files with -a) within
// the depth limit, children before their parent.
func (d *duRun) walk(name, p string, info fs.FileInfo, depth int) int64 {
	total := d.size(info)
	if info.IsDir() {
		// Every entry's metadata is needed: take it with the listing.
		entries, err := d.t.env.FS.ReadDirInfo(p)
		if err != nil {
			d.t.warn("cannot read directory " + quoteAlways(name) + ": " + errText(err))
			d.status = 1
		}
		for _, ent := range entries {
			if d.t.stopped() {
				return total
			}
			childName := path.Join(name, ent.Name())
			if name == "." {
				childName = "./" + ent.Name()
			} else if name[len(name)-1] == '/' {
				childName = name + ent.Name()
			}
			childPath := path.Join(p, ent.Name())
			var childInfo fs.FileInfo
			if d.cfg.deref {
				childInfo, err = d.stat(childPath, false)
			} else {
				childInfo, err = ent.Info()
			}
			if err != nil {
				d.t.warn("cannot access " + quoteAlways(childName) + ": " + errText(err))
				d.status = 1
				continue
			}
			total += d.walk(childName, childPath, childInfo, depth+1)
		}
	}
	withinDepth := d.cfg.maxDepth < 0 || depth <= d.cfg.maxDepth
	if withinDepth && (info.IsDir() || d.cfg.all || depth == 0) {
		d.print(total, name)
	}
	return total
}

func (d *duRun) print(bytes int64, name string) {
	var text string
	switch {
	case d.cfg.human:
		text = humanSize(bytes, d.cfg.si)
	default:
		text = strconv.FormatInt((bytes+d.cfg.unit-1)/d.cfg.unit, 10)
	}
	d.t.writeString(text + "\t" + name + d.cfg.eol)
}
