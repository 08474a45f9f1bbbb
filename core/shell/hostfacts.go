package shell

import (
	"context"
	"hash/fnv"
	"os"
	"path"
	"strings"
	"sync/atomic"

	"gatehouse/core/shell/utils"
	"mvdan.cc/sh/v3/interp"
)

// Nothing a line can expand or run reveals the host (G-12.1): no host pid,
// user, uid, hostname, home directory or path. The interpreter's own reads
// of the host are patched out or replaced (see third_party/mvdan-sh/
// PATCHES.md); what bash would tell a script about itself is answered with
// the session's own, plausible facts:
//
//   - $$ and $PPID are numbers fixed for the session (derived from its id),
//     $BASHPID and $! of subshells, background jobs and nested shells are
//     taken from a per-session counter after $$, as a kernel would hand
//     them out;
//   - ~NAME expands only for the session's own user (to $HOME); any other
//     name stays literal, as bash leaves an unknown user;
//   - UID, EUID and GID are 1000, USER and LOGNAME "agent", HOSTNAME
//     "gatehouse"; BASH_VERSION and friends describe the bash 5.2 dialect
//     the shell speaks, OSTYPE and MACHTYPE a generic Linux.

// sessionPIDs returns the session's $$ and $PPID.
func sessionPIDs(sessionID string) (pid, ppid int) {
	h := fnv.New32a()
	h.Write([]byte(sessionID))
	sum := h.Sum32()
	pid = 2000 + int(sum%28000)
	ppid = pid - 1 - int((sum>>20)%64)
	for isHostPID(pid) || isHostPID(ppid) {
		pid, ppid = pid+64, ppid+64
	}
	return pid, ppid
}

// isHostPID reports whether n is this process's id or its parent's, which a
// virtual id must never be: a line could not tell a coincidence from a leak.
func isHostPID(n int) bool { return n == os.Getpid() || n == os.Getppid() }

// pidCounter hands out the session's next virtual process ids, wrapping as
// Linux's pid_max does.
type pidCounter struct{ last atomic.Int64 }

func (c *pidCounter) next() int {
	for {
		old := c.last.Load()
		n := old + 1
		if n >= 32768 {
			n = 300
		}
		if c.last.CompareAndSwap(old, n) && !isHostPID(int(n)) {
			return int(n)
		}
	}
}

// shellVariables are bash's own variables about itself, set as shell (not
// exported) variables in every runner.
const shellVariables = `BASH=/bin/bash
BASH_VERSION='5.2.21(1)-release'
BASH_VERSINFO=(5 2 21 1 release x86_64-pc-linux-gnu)
HOSTNAME=gatehouse
HOSTTYPE=x86_64
MACHTYPE=x86_64-pc-linux-gnu
OSTYPE=linux-gnu
`

// procs is what ps lists: the session's shell, the line's running
// background jobs and the command asking (argv), with virtual ids; no
// host process is ever named (G-12.1).
func (s *Shell) procs(ctx context.Context, argv []string) []utils.Proc {
	out := []utils.Proc{{PID: s.pid, PPID: s.ppid, Comm: "bash", Args: "bash"}}
	var jobs []interp.Job
	func() {
		defer func() { _ = recover() }() // interp.HandlerCtx panics outside a shell
		jobs = interp.HandlerCtx(ctx).Jobs()
	}()
	for _, j := range jobs {
		args := strings.TrimSuffix(j.Command, " &")
		comm := "bash" // a compound statement runs in a subshell
		if f := strings.Fields(args); len(f) > 0 && isPlainWord(f[0]) {
			comm = path.Base(f[0])
		}
		out = append(out, utils.Proc{PID: j.PID, PPID: s.pid, Comm: comm, Args: args})
	}
	return append(out, utils.Proc{PID: s.pids.next(), PPID: s.pid, Comm: path.Base(argv[0]), Args: strings.Join(argv, " ")})
}

// isPlainWord reports whether a job's first word names a command as ps
// would show it (not a keyword, group or assignment).
func isPlainWord(w string) bool {
	switch w {
	case "{", "(", "if", "for", "while", "until", "case", "[[", "!", "time":
		return false
	}
	for _, c := range w {
		if !(c == '.' || c == '_' || c == '-' || c == '/' || c == '+' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return w != "" && w[0] != '('
}
