package shell

import (
	"hash/fnv"
	"sync/atomic"
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
	return pid, ppid
}

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
		if c.last.CompareAndSwap(old, n) {
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
