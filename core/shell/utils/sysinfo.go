package utils

import (
	"strconv"
	"strings"
)

// The machine a workspace describes: a generic x86_64 Linux with one
// user, never the host's facts (G-12.1). The names and numbers agree with
// the shell's own variables (core/shell/hostfacts.go: UID 1000, USER
// agent, HOSTNAME gatehouse, MACHTYPE x86_64-pc-linux-gnu).
const (
	sysUser     = "agent"
	sysUID      = 1000
	sysHostname = "gatehouse"
	sysKernel   = "Linux"
	sysRelease  = "6.1.0-gatehouse"
	sysVersion  = "#1 SMP PREEMPT_DYNAMIC"
	sysMachine  = "x86_64"
	sysOS       = "GNU/Linux"
	sysCPUs     = 2
)

const unameHelp = `Usage: uname [OPTION]...
Print certain system information.  With no OPTION, same as -s.

  -a, --all                print all information, in the following order,
                             except omit -p and -i if unknown:
  -s, --kernel-name        print the kernel name
  -n, --nodename           print the network node hostname
  -r, --kernel-release     print the kernel release
  -v, --kernel-version     print the kernel version
  -m, --machine            print the machine hardware name
  -p, --processor          print the processor type (non-portable)
  -i, --hardware-platform  print the hardware platform (non-portable)
  -o, --operating-system   print the operating system
      --help        display this help and exit
      --version     output version information and exit

A workspace describes a generic x86_64 Linux machine, never the host.
`

var unameOpts = []optDef{
	{short: 'a', long: "all"},
	{short: 's', long: "kernel-name"},
	{short: 'n', long: "nodename"},
	{short: 'r', long: "kernel-release"},
	{short: 'v', long: "kernel-version"},
	{short: 'm', long: "machine"},
	{short: 'p', long: "processor"},
	{short: 'i', long: "hardware-platform"},
	{short: 'o', long: "operating-system"},
}

// simpleHelpTail follows "Usage: NAME [OPTION]...\nSUMMARY\n" in the help
// of arch, whoami, logname and groups.
const simpleHelpTail = `
      --help        display this help and exit
      --version     output version information and exit
`

// unameUtility makes the uname utility (see builtins).
func unameUtility(string) *Utility {
	return &Utility{Name: "uname", Run: runUname, Help: unameHelp}
}

// simpleInfoUtility makes arch, whoami, logname or groups (see builtins).
func simpleInfoUtility(name string) *Utility {
	var summary string
	switch name {
	case "arch":
		summary = "Print machine architecture."
	case "whoami":
		summary = "Print the user name associated with the current effective user ID."
	case "logname":
		summary = "Print the user's login name."
	case "groups":
		summary = "Print group memberships for each USERNAME or, if no USERNAME is specified, for\nthe current process."
	}
	help := "Usage: " + name + " [OPTION]...\n" + summary + "\n" + simpleHelpTail
	return &Utility{Name: name, Run: func(e *Env) (int, error) { return runSimpleInfo(e, name, help) }, Help: help}
}

// hostnameUtility makes the hostname utility (see builtins).
func hostnameUtility(string) *Utility {
	return &Utility{Name: "hostname", Run: runHostname, Help: hostnameHelp}
}

// nprocUtility makes the nproc utility (see builtins).
func nprocUtility(string) *Utility {
	return &Utility{Name: "nproc", Run: runNproc, Help: nprocHelp}
}

// idUtility makes the id utility (see builtins).
func idUtility(string) *Utility {
	return &Utility{Name: "id", Run: runID, Help: idHelp}
}

func runUname(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "uname", defs: unameOpts, usageExit: 1, help: unameHelp})
	if done {
		return t.end(status)
	}
	if ops := args.operandStrings(e.Args); len(ops) > 0 {
		return t.end(t.usage("extra operand '" + ops[0] + "'"))
	}
	fields := []struct {
		name, value string
	}{{"kernel-name", sysKernel}, {"nodename", sysHostname}, {"kernel-release", sysRelease},
		{"kernel-version", sysVersion}, {"machine", sysMachine}, {"processor", "unknown"},
		{"hardware-platform", "unknown"}, {"operating-system", sysOS}}
	want := map[string]bool{}
	all := false
	for _, o := range args.opts {
		if o.name == "all" {
			all = true
		}
		want[o.name] = true
	}
	if len(want) == 0 {
		want["kernel-name"] = true
	}
	var out []string
	for _, f := range fields {
		unknown := f.value == "unknown"
		if want[f.name] || (all && !unknown) {
			out = append(out, f.value)
		}
	}
	t.writeString(strings.Join(out, " ") + "\n")
	return t.end(0)
}

// runSimpleInfo answers arch, whoami, logname and groups.
func runSimpleInfo(e *Env, name, help string) (int, error) {
	t, args, status, done := begin(e, spec{name: name, usageExit: 1, help: help})
	if done {
		return t.end(status)
	}
	ops := args.operandStrings(e.Args)
	switch name {
	case "arch":
		if len(ops) > 0 {
			return t.end(t.usage("extra operand '" + ops[0] + "'"))
		}
		t.writeString(sysMachine + "\n")
	case "whoami", "logname":
		if len(ops) > 0 {
			return t.end(t.usage("extra operand '" + ops[0] + "'"))
		}
		t.writeString(sysUser + "\n")
	case "groups":
		if len(ops) == 0 {
			t.writeString(sysUser + "\n")
			return t.end(0)
		}
		status = 0
		for _, u := range ops {
			if _, _, ok := lookupUser(u); !ok {
				t.warn("'" + u + "': no such user")
				status = 1
				continue
			}
			t.writeString(u + " : " + u + "\n")
		}
		return t.end(status)
	}
	return t.end(0)
}

// lookupUser knows the workspace's user and root (who owns the files).
func lookupUser(name string) (user string, uid int, ok bool) {
	switch name {
	case sysUser, strconv.Itoa(sysUID):
		return sysUser, sysUID, true
	case "root", "0":
		return "root", 0, true
	}
	return "", 0, false
}

const hostnameHelp = `Usage: hostname [-s|-f|-d|-i]
Show the workspace's host name (it cannot be changed).

  -s, --short   the name up to its first dot
  -f, --fqdn    the full name
  -d, --domain  the DNS domain (none)
  -i, --ip-address  the address of the name
`

func runHostname(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "hostname", defs: []optDef{
		{short: 's', long: "short"}, {short: 'f', long: "fqdn"}, {long: "long"}, {short: 'd', long: "domain"},
		{short: 'i', long: "ip-address"}, {short: 'I', long: "all-ip-addresses"}, {short: 'A', long: "all-fqdns"}}, usageExit: 1, help: hostnameHelp,
		version: "hostname 3.23\n"})
	if done {
		return t.end(status)
	}
	if ops := args.operandStrings(e.Args); len(ops) > 0 {
		t.warn("you must be root to change the host name")
		return t.end(1)
	}
	out := sysHostname
	for _, o := range args.opts {
		switch o.name {
		case "domain":
			out = ""
		case "ip-address", "all-ip-addresses":
			out = "127.0.1.1"
		}
	}
	t.writeString(out + "\n")
	return t.end(0)
}

const nprocHelp = `Usage: nproc [OPTION]...
Print the number of processing units available to the current process,
which may be less than the number of online processors

      --all      print the number of installed processors
      --ignore=N  if possible, exclude N processing units
      --help        display this help and exit
      --version     output version information and exit
`

func runNproc(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "nproc", defs: []optDef{{long: "all"}, {long: "ignore", arg: needArg}}, usageExit: 1, help: nprocHelp})
	if done {
		return t.end(status)
	}
	n := sysCPUs
	if v, err := strconv.Atoi(e.Getenv("OMP_NUM_THREADS")); err == nil && v > 0 {
		n = v
	}
	for _, o := range args.opts {
		if o.name == "ignore" {
			k, err := strconv.Atoi(o.value)
			if err != nil || k < 0 {
				t.warn("invalid number: '" + o.value + "'")
				return t.end(1)
			}
			n = max(n-k, 1)
		}
	}
	t.writeString(strconv.Itoa(n) + "\n")
	return t.end(0)
}

const idHelp = `Usage: id [OPTION]... [USER]...
Print user and group information for each specified USER,
or (when USER omitted) for the current user.

  -a             ignore, for compatibility with other versions
  -g, --group    print only the effective group ID
  -G, --groups   print all group IDs
  -n, --name     print a name instead of a number, for -ugG
  -r, --real     print the real ID instead of the effective ID, with -ugG
  -u, --user     print only the effective user ID
  -z, --zero     delimit entries with NUL characters, not whitespace;
                   not permitted in default format
      --help        display this help and exit
      --version     output version information and exit
`

func runID(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "id", defs: []optDef{{short: 'a'}, {short: 'g', long: "group"}, {short: 'G', long: "groups"},
		{short: 'n', long: "name"}, {short: 'r', long: "real"}, {short: 'u', long: "user"}, {short: 'z', long: "zero"}, {short: 'Z', long: "context"}},
		usageExit: 1, help: idHelp})
	if done {
		return t.end(status)
	}
	users := args.operandStrings(e.Args)
	if len(users) == 0 {
		users = []string{sysUser}
	}
	which, names, eol := "", args.has("name"), "\n"
	for _, o := range args.opts {
		switch o.name {
		case "user", "group", "groups":
			if which != "" && which != o.name {
				t.warn("cannot print \"only\" of more than one choice")
				return t.end(1)
			}
			which = o.name
		case "zero":
			eol = "\x00"
		}
	}
	if names && which == "" {
		t.warn("cannot print only names or real IDs in default format")
		return t.end(1)
	}
	status = 0
	for _, u := range users {
		name, uid, ok := lookupUser(u)
		if !ok {
			t.warn("'" + u + "': no such user")
			status = 1
			continue
		}
		id := strconv.Itoa(uid)
		switch {
		case which == "":
			t.writeString("uid=" + id + "(" + name + ") gid=" + id + "(" + name + ") groups=" + id + "(" + name + ")\n")
		case names:
			t.writeString(name + eol)
		default:
			t.writeString(id + eol)
		}
	}
	return t.end(status)
}
