package utils

import (
	"fmt"
	"hash/fnv"
	"io/fs"
	"strconv"
	"strings"
	"time"
)

const statHelp = `Usage: stat [OPTION]... FILE...
Display file or file system status.

Mandatory arguments to long options are mandatory for short options too.
  -L, --dereference     follow links
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline;
                          if you want a newline, include \n in FORMAT
  -t, --terse           print the information in terse form
      --help        display this help and exit
      --version     output version information and exit

The valid format sequences for files:

  %a   permission bits in octal (note '#' and '0' printf flags)
  %A   permission bits and file type in human readable form
  %b   number of blocks allocated (see %B)
  %B   the size in bytes of each block reported by %b
  %d   device number in decimal (st_dev)
  %D   device number in hex (st_dev)
  %f   raw mode in hex
  %F   file type
  %g   group ID of owner
  %G   group name of owner
  %h   number of hard links
  %i   inode number
  %m   mount point
  %n   file name
  %N   quoted file name with dereference if symbolic link
  %o   optimal I/O transfer size hint
  %s   total size, in bytes
  %t   major device type in hex, for character/block device special files
  %T   minor device type in hex, for character/block device special files
  %u   user ID of owner
  %U   user name of owner
  %w   time of file birth, human-readable; - if unknown
  %W   time of file birth, seconds since Epoch; 0 if unknown
  %x   time of last access, human-readable
  %X   time of last access, seconds since Epoch
  %y   time of last data modification, human-readable
  %Y   time of last data modification, seconds since Epoch
  %z   time of last status change, human-readable
  %Z   time of last status change, seconds since Epoch

A workspace's filesystems keep one time per entry (access, change and
modification read the same), no birth time, and no inode numbers: %i is a
stable number derived from the path. Every entry belongs to root (uid 0).
`

var statOpts = []optDef{
	{short: 'L', long: "dereference"},
	{short: 'f', long: "file-system"},
	{long: "cached", arg: needArg},
	{short: 'c', long: "format", arg: needArg},
	{long: "printf", arg: needArg},
	{short: 't', long: "terse"},
}

// statUtility makes the stat utility (see builtins).
func statUtility(string) *Utility {
	return &Utility{
		Name:        "stat",
		Run:         runStat,
		Operands:    plainOperands(statOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       alwaysQuotedVoice("stat: cannot statx "),
		Help:        statHelp,
	}
}

const statDefaultFormat = "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" +
	"Device: %Hd,%Ld\tInode: %-11i Links: %h\n" +
	"Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n" +
	"Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"

const statDeviceFormat = "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" +
	"Device: %Hd,%Ld\tInode: %-11i Links: %-5h Device type: %Hr,%Lr\n" +
	"Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n" +
	"Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"

// statEntry is what one operand's directives read.
type statEntry struct {
	e       *Env
	name    string
	path    string
	info    fs.FileInfo
	loc     *time.Location
	defName bool // %N of the default format: never quoted
}

func runStat(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "stat", defs: statOpts, usageExit: 1, help: statHelp})
	if done {
		return status, nil
	}
	deref := false
	format, escapes, newline, custom := "", false, true, false
	for _, o := range args.opts {
		switch o.name {
		case "dereference":
			deref = true
		case "file-system":
			t.warn("--file-system is not supported: a workspace's filesystems have no statfs")
			return t.end(1)
		case "format":
			format, escapes, newline, custom = o.value, false, true, true
		case "printf":
			format, escapes, newline, custom = o.value, true, false, true
		case "terse":
			format, custom = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o", true
		}
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		return t.end(t.usage("missing operand"))
	}
	loc := dateZone(e.Getenv("TZ"))
	for _, name := range names {
		if t.stopped() {
			break
		}
		p := e.Abs(name)
		info, err := statOperand(e, name, deref)
		if err != nil {
			t.warn("cannot statx " + quoteAlways(name) + ": " + errText(err))
			status = 1
			continue
		}
		ent := &statEntry{e: e, name: name, path: p, info: info, loc: loc}
		f, addNewline := format, newline
		if !custom {
			ent.defName, addNewline = true, false
			f = statDefaultFormat
			if info.Mode()&fs.ModeDevice != 0 {
				f = statDeviceFormat
			}
		}
		out := ent.render(f, escapes)
		if addNewline {
			out += "\n"
		}
		if !t.writeString(out) {
			break
		}
	}
	return t.end(status)
}

// render expands a FORMAT for the entry.
func (s *statEntry) render(format string, escapes bool) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' && escapes {
			text, n, _ := printfEscape(format[i:], octalFormat)
			b.WriteString(text)
			i += n - 1
			continue
		}
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0'", format[j]) >= 0 {
			j++
		}
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
			j++
		}
		mods := format[i+1 : j]
		if j < len(format) && (format[j] == 'H' || format[j] == 'L') && j+1 < len(format) && (format[j+1] == 'd' || format[j+1] == 'r') {
			b.WriteString(statPad(mods, "0", true))
			i = j + 1
			continue
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		if format[j] == '%' {
			b.WriteByte('%')
			i = j
			continue
		}
		text, numeric, ok := s.directive(format[j], mods)
		if !ok {
			b.WriteString("?")
		} else {
			b.WriteString(statPad(mods, text, numeric))
		}
		i = j
	}
	return b.String()
}

// statPad applies printf-like flags, width and precision to a field.
func statPad(mods, text string, numeric bool) string {
	if mods == "" {
		return text
	}
	if numeric {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return fmt.Sprintf("%"+mods+"d", n)
		}
	}
	return fmt.Sprintf("%"+strings.TrimLeft(mods, "0#+ '")+"s", text)
}

// directive renders one conversion; numeric says printf integer flags
// apply.
func (s *statEntry) directive(c byte, mods string) (string, bool, bool) {
	info := s.info
	m := info.Mode()
	itoa := func(n int64) (string, bool, bool) { return strconv.FormatInt(n, 10), true, true }
	switch c {
	case 'a':
		perm := int64(m.Perm())
		if m&fs.ModeSetuid != 0 {
			perm |= 0o4000
		}
		if m&fs.ModeSetgid != 0 {
			perm |= 0o2000
		}
		if m&fs.ModeSticky != 0 {
			perm |= 0o1000
		}
		if strings.Contains(mods, "#") {
			return "0" + strconv.FormatInt(perm, 8), false, true
		}
		text := strconv.FormatInt(perm, 8)
		if strings.HasPrefix(mods, "0") {
			w, _ := strconv.Atoi(mods[1:])
			for len(text) < w {
				text = "0" + text
			}
			return text, false, true
		}
		return text, false, true
	case 'A':
		return modeString(m), false, true
	case 'b':
		return itoa(diskBlocks(info) * 2)
	case 'B':
		return itoa(512)
	case 'd', 'u', 'g', 'W':
		return itoa(0)
	case 'D', 't', 'T':
		return "0", false, true
	case 'f':
		return strconv.FormatUint(uint64(statRawMode(m)), 16), false, true
	case 'F':
		return statFileType(info), false, true
	case 'G', 'U':
		return "root", false, true
	case 'h':
		return itoa(s.links())
	case 'i':
		h := fnv.New32a()
		h.Write([]byte(s.path))
		return itoa(int64(h.Sum32()%9000000) + 1000000)
	case 'm':
		return s.mountPoint(), false, true
	case 'n':
		return s.name, false, true
	case 'N':
		quote := quoteAlways
		if s.defName {
			// The default format shows names as they are.
			quote = func(name string) string { return name }
		}
		text := quote(s.name)
		if m&fs.ModeSymlink != 0 {
			if target, err := s.e.FS.Readlink(s.path); err == nil {
				text += " -> " + quote(target)
			}
		}
		return text, false, true
	case 'o':
		return itoa(4096)
	case 's':
		return itoa(info.Size())
	case 'w':
		return "-", false, true
	case 'x', 'y', 'z':
		return info.ModTime().In(s.loc).Format("2006-01-02 15:04:05.000000000 -0700"), false, true
	case 'X', 'Y', 'Z':
		return itoa(info.ModTime().Unix())
	}
	return "", false, false
}

// fileLinks is the hard link count of a file or symlink: what the VFS
// reports (a memory file with a second name has 2), else 1.
func fileLinks(info fs.FileInfo) uint64 {
	if l, ok := info.(interface{ Nlink() uint64 }); ok {
		return l.Nlink()
	}
	return 1
}

// links counts hard links as a Unix filesystem would: its names for files, 2 plus
// the subdirectories for a directory.
func (s *statEntry) links() int64 {
	if !s.info.IsDir() {
		return int64(fileLinks(s.info))
	}
	n := int64(2)
	if entries, err := s.e.FS.ReadDir(s.path); err == nil {
		for _, ent := range entries {
			if ent.IsDir() {
				n++
			}
		}
	}
	return n
}

func (s *statEntry) mountPoint() string {
	p := s.path
	for p != "/" {
		parent := p[:strings.LastIndexByte(p, '/')]
		if parent == "" {
			return p
		}
		p = parent
	}
	return "/"
}

// statRawMode is st_mode: file type bits and permissions.
func statRawMode(m fs.FileMode) uint32 {
	raw := uint32(m.Perm())
	switch {
	case m.IsDir():
		raw |= 0o040000
	case m&fs.ModeSymlink != 0:
		raw |= 0o120000
	case m&fs.ModeCharDevice != 0:
		raw |= 0o020000
	case m&fs.ModeDevice != 0:
		raw |= 0o060000
	case m&fs.ModeNamedPipe != 0:
		raw |= 0o010000
	case m&fs.ModeSocket != 0:
		raw |= 0o140000
	default:
		raw |= 0o100000
	}
	return raw
}

func statFileType(info fs.FileInfo) string {
	m := info.Mode()
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeCharDevice != 0:
		return "character special file"
	case m&fs.ModeDevice != 0:
		return "block special file"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case info.Size() == 0:
		return "regular empty file"
	}
	return "regular file"
}
