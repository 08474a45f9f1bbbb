package utils

import (
	"io"
	"strconv"
	"strings"
	"time"

	"gatehouse/internal/lazy"
)

// ps lists the session's own processes (Env.Procs: its shell, the line's
// background jobs, ps itself) in procps-ng 4's formats, never the host's
// (G-12.1, G-12.2). Every process belongs to the workspace's user, has no
// terminal and has used no measurable CPU time or memory.

const psHelp = `
Usage:
 ps [options]

Basic options:
 -A, -e               all processes
 a                    all with tty, including other users
 x                    processes without controlling ttys
 -p, p, --pid <PID>   process id
 -C <command>         command name
 -u, U, --user <UID>  effective user id or name

Output formats:
 -f                   full-format
 u                    user-oriented format
 -o, o, --format <format>
                      user-defined format
 --no-headers         do not print header at all

 --help               display this help and exit
 -V, --version        output version information and exit

A workspace lists its own session: its shell, the line's background jobs
and ps itself, with the session's process ids.
`

const psUsage = `
Usage:
 ps [options]

 Try 'ps --help <simple|list|output|threads|misc|all>'
  or 'ps --help <s|l|o|t|m|a>'
 for additional help text.

For more details see ps(1).
`

// psColumn is one column ps can show: its header, width, alignment and
// value.
type psColumn struct {
	header string
	width  int
	left   bool // left-aligned (a left-aligned last column is not padded)
	value  func(p Proc, now time.Time) string
}

var psColumns = lazy.Value[map[string]psColumn]{New: func() map[string]psColumn {
	return map[string]psColumn{
		"pid":     {"PID", 5, false, func(p Proc, _ time.Time) string { return strconv.Itoa(p.PID) }},
		"ppid":    {"PPID", 5, false, func(p Proc, _ time.Time) string { return strconv.Itoa(p.PPID) }},
		"user":    {"USER", 8, true, func(Proc, time.Time) string { return sysUser }},
		"uid":     {"UID", 5, false, func(Proc, time.Time) string { return strconv.Itoa(sysUID) }},
		"comm":    {"COMMAND", 15, true, func(p Proc, _ time.Time) string { return p.Comm }},
		"args":    {"COMMAND", 27, true, func(p Proc, _ time.Time) string { return p.Args }},
		"cmd":     {"CMD", 27, true, func(p Proc, _ time.Time) string { return p.Args }},
		"tty":     {"TT", 8, true, func(Proc, time.Time) string { return "?" }},
		"time":    {"TIME", 8, false, func(Proc, time.Time) string { return "00:00:00" }},
		"etime":   {"ELAPSED", 11, false, func(Proc, time.Time) string { return "00:00" }},
		"stat":    {"STAT", 4, true, psStat},
		"pcpu":    {"%CPU", 4, false, func(Proc, time.Time) string { return "0.0" }},
		"pmem":    {"%MEM", 4, false, func(Proc, time.Time) string { return "0.0" }},
		"rss":     {"RSS", 5, false, func(Proc, time.Time) string { return "0" }},
		"vsz":     {"VSZ", 6, false, func(Proc, time.Time) string { return "0" }},
		"stime":   {"STIME", 5, false, func(_ Proc, now time.Time) string { return now.Format("15:04") }},
		"c":       {"C", 2, false, func(Proc, time.Time) string { return "0" }},
		"nlwp":    {"NLWP", 4, false, func(Proc, time.Time) string { return "1" }},
		"pgid":    {"PGID", 5, false, func(p Proc, _ time.Time) string { return strconv.Itoa(p.PID) }},
		"sid":     {"SID", 5, false, func(Proc, time.Time) string { return "0" }},
		"ni":      {"NI", 3, false, func(Proc, time.Time) string { return "0" }},
		"pri":     {"PRI", 3, false, func(Proc, time.Time) string { return "19" }},
		"f":       {"F", 1, false, func(Proc, time.Time) string { return "0" }},
		"s":       {"S", 1, true, func(p Proc, now time.Time) string { return psStat(p, now)[:1] }},
		"wchan":   {"WCHAN", 6, true, func(Proc, time.Time) string { return "-" }},
		"euser":   {"EUSER", 8, true, func(Proc, time.Time) string { return sysUser }},
		"ruser":   {"RUSER", 8, true, func(Proc, time.Time) string { return sysUser }},
		"group":   {"GROUP", 8, true, func(Proc, time.Time) string { return sysUser }},
		"gid":     {"GID", 5, false, func(Proc, time.Time) string { return strconv.Itoa(sysUID) }},
		"etimes":  {"ELAPSED", 7, false, func(Proc, time.Time) string { return "0" }},
		"start":   {"STARTED", 8, false, func(_ Proc, now time.Time) string { return now.Format("15:04:05") }},
		"lstart":  {"STARTED", 24, true, func(_ Proc, now time.Time) string { return now.Format("Mon Jan _2 15:04:05 2006") }},
		"bsdtime": {"TIME", 6, false, func(Proc, time.Time) string { return "0:00" }},
		"bsdstart": {"START", 5, false, func(_ Proc, now time.Time) string {
			return now.Format("15:04")
		}},
	}
}}

// psAliases are the other names procps accepts for a column.
var psAliases = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"command": "args", "ucmd": "comm", "ucomm": "comm", "tt": "tty", "tname": "tty",
		"%cpu": "pcpu", "%mem": "pmem", "rssize": "rss", "rsz": "rss", "vsize": "vsz",
		"uname": "user", "user:": "user", "pgrp": "pgid", "sess": "sid", "session": "sid",
		"nice": "ni", "thcount": "nlwp", "flag": "f", "flags": "f", "state": "s",
		"cputime": "time", "start_time": "stime", "lwp": "pid", "tid": "pid", "spid": "pid",
		"egroup": "group", "fname": "comm", "cp": "pcpu",
	}
}}

// psStat is a process's state: ps itself runs, the rest sleep.
func psStat(p Proc, _ time.Time) string {
	if p.Comm == "ps" {
		return "R"
	}
	return "S"
}

// psField is one column of the chosen format, with its header.
type psField struct {
	col    psColumn
	header string
}

type psConfig struct {
	fields   []psField
	pids     map[int]bool
	comms    map[string]bool
	users    []string
	noHeader bool
}

// psUtility makes the ps utility (see builtins).
func psUtility(string) *Utility {
	return &Utility{Name: "ps", Run: runPs, Help: psHelp}
}

func runPs(e *Env) (int, error) {
	t := newTool(e, "ps", psHelp, 1)
	c, msg, done := psParse(e.Args[1:])
	switch {
	case done:
		if msg == "help" {
			t.writeString(psHelp)
		} else {
			t.writeString("ps from procps-ng 4.0.2\n")
		}
		return t.finish(0), nil
	case msg != "":
		if e.Stderr != nil {
			io.WriteString(e.Stderr, "error: "+msg+"\n"+psUsage)
		}
		return t.finish(1), nil
	}
	var procs []Proc
	if e.Procs != nil {
		procs = e.Procs()
	} else {
		procs = []Proc{{PID: 1, Comm: "ps", Args: strings.Join(e.Args, " ")}}
	}
	now := time.Now().In(dateZone(e.Getenv("TZ")))
	var rows []Proc
	for _, p := range procs {
		if c.selects(p) {
			rows = append(rows, p)
		}
	}
	var b strings.Builder
	if !c.noHeader && c.hasHeader() {
		psLine(&b, c.fields, func(f psField) string { return f.header })
	}
	for _, p := range rows {
		psLine(&b, c.fields, func(f psField) string { return f.col.value(p, now) })
	}
	t.writeString(b.String())
	if len(rows) == 0 {
		return t.finish(1), nil
	}
	return t.finish(0), nil
}

// selects reports whether the options pick p (no selection: all of the
// session's processes, which are the user's own).
func (c *psConfig) selects(p Proc) bool {
	if c.pids != nil && !c.pids[p.PID] {
		return false
	}
	if c.comms != nil && !c.comms[p.Comm] {
		return false
	}
	for _, u := range c.users {
		if u != sysUser && u != strconv.Itoa(sysUID) {
			return false
		}
	}
	return true
}

func (c *psConfig) hasHeader() bool {
	for _, f := range c.fields {
		if f.header != "" {
			return true
		}
	}
	return false
}

// psLine writes one row: columns joined by a space, padded to their
// widths, the last left-aligned one not padded.
func psLine(b *strings.Builder, fields []psField, text func(psField) string) {
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		s := text(f)
		pad := strings.Repeat(" ", max(f.col.width-len(s), 0))
		switch {
		case !f.col.left:
			b.WriteString(pad + s)
		case i == len(fields)-1:
			b.WriteString(s)
		default:
			b.WriteString(s + pad)
		}
	}
	b.WriteByte('\n')
}

// psFormats are the fixed formats: the default, -f, and BSD's u.
var psFormats = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"default": "pid,tname=TTY,time,ucmd=CMD",
		"full":    "user=UID,pid,ppid,c,stime,tname=TTY,time,cmd",
		"user":    "user,pid,%cpu,%mem,vsz,rss,tname=TTY,stat,bsdstart=START,bsdtime,args",
		"bsd":     "pid,tname=TTY,stat,bsdtime,args",
	}
}}

// psParse reads ps's mixed syntax: UNIX options with a dash, BSD options
// without one, GNU long options. msg is procps's error, or "help" or
// "version" with done.
func psParse(args []string) (c *psConfig, msg string, done bool) {
	c = &psConfig{}
	format, custom := "default", []string(nil)
	bsdX := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func(rest string) (string, bool) {
			if rest != "" {
				return rest, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		switch {
		case a == "--help":
			return c, "help", true
		case a == "--version" || a == "-V" || a == "V":
			return c, "version", true
		case a == "--no-headers" || a == "--no-heading" || a == "--noheaders":
			c.noHeader = true
		case strings.HasPrefix(a, "--"):
			name, v, hasV := strings.Cut(a[2:], "=")
			switch name {
			case "pid", "format", "user", "User", "sort", "cols", "columns", "width":
				if !hasV {
					if v, hasV = value(""); !hasV {
						return c, "list of process IDs must follow --pid", false
					}
				}
				switch name {
				case "pid":
					if msg = c.addPids(v); msg != "" {
						return c, msg, false
					}
				case "format":
					custom = append(custom, v)
				case "user", "User":
					c.users = append(c.users, strings.Split(v, ",")...)
				}
			default:
				return c, "unknown gnu long option", false
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'e', 'A', 'a', 'd', 'N', 'x', 'H', 'w', 'T', 'r', 'y', 'M', 'Z', 'c', 'j', 'l', 'L', 'm', 'P', 'F':
					if a[j] == 'F' || a[j] == 'l' {
						format = "full"
					}
				case 'f':
					format = "full"
				case 'p', 'q', 'o', 'C', 'u', 'U', 'g', 'G', 's', 't':
					v, ok := value(a[j+1:])
					if !ok {
						return c, "list of " + psListName(a[j]) + " must follow -" + string(a[j]), false
					}
					if msg = c.unixList(a[j], v, &custom); msg != "" {
						return c, msg, false
					}
					j = len(a)
				default:
					return c, "unsupported SysV option", false
				}
			}
		default:
			for j := 0; j < len(a); j++ {
				switch a[j] {
				case 'a', 'x', 'e', 'w', 'f', 'h', 'r', 'c', 'S', 'T', 'n':
					if a[j] == 'x' {
						bsdX = true
					}
					if a[j] == 'h' {
						c.noHeader = true
					}
				case 'u':
					format = "user"
				case 'j', 'l', 'v', 's':
					format = "user"
				case 'p', 'o', 'O', 'U':
					v, ok := value(a[j+1:])
					if !ok {
						return c, "list of " + psListName(a[j]) + " must follow " + string(a[j]), false
					}
					if msg = c.unixList(a[j], v, &custom); msg != "" {
						return c, msg, false
					}
					j = len(a)
				default:
					if a[j] >= '0' && a[j] <= '9' { // BSD: a bare pid list
						if msg = c.addPids(a); msg != "" {
							return c, msg, false
						}
						j = len(a)
						continue
					}
					return c, "unsupported option (BSD syntax)", false
				}
			}
		}
	}
	if custom == nil && format == "default" && bsdX {
		format = "bsd"
	}
	spec := psFormats.Get()[format]
	if custom != nil {
		spec = strings.Join(custom, ",")
	}
	if c.fields, msg = psFields(spec); msg != "" {
		return c, msg, false
	}
	return c, "", false
}

func psListName(opt byte) string {
	switch opt {
	case 'p', 'q':
		return "process IDs"
	case 'C':
		return "command names"
	case 'o', 'O':
		return "format specifiers"
	}
	return "users"
}

// unixList takes the list an option names.
func (c *psConfig) unixList(opt byte, v string, custom *[]string) string {
	switch opt {
	case 'p', 'q':
		return c.addPids(v)
	case 'o', 'O':
		*custom = append(*custom, v)
	case 'C':
		if c.comms == nil {
			c.comms = map[string]bool{}
		}
		for _, n := range strings.Split(v, ",") {
			c.comms[n] = true
		}
	case 'u', 'U':
		c.users = append(c.users, strings.Split(v, ",")...)
	}
	return ""
}

func (c *psConfig) addPids(v string) string {
	if c.pids == nil {
		c.pids = map[int]bool{}
	}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return "process ID list syntax error"
		}
		c.pids[n] = true
	}
	return ""
}

// psFields parses a format list: names separated by commas or blanks,
// each with an optional =HEADER (which takes the rest of its item).
func psFields(spec string) ([]psField, string) {
	var out []psField
	for _, item := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' }) {
		name, header, renamed := strings.Cut(item, "=")
		key := strings.ToLower(name)
		if a, ok := psAliases.Get()[key]; ok {
			key = a
		}
		col, ok := psColumns.Get()[key]
		if !ok {
			return nil, "unknown user-defined format specifier \"" + name + "\""
		}
		if !renamed {
			header = col.header
		}
		out = append(out, psField{col: col, header: header})
	}
	if len(out) == 0 {
		return nil, "improper format list"
	}
	return out, ""
}
