//go:build unix

package difftest

import (
	"sync"
	"syscall"
)

// keepHostFdsOut marks every descriptor the test process inherited (3 and
// up) close-on-exec, once, so the bash a case runs in starts with only 0, 1
// and 2 open, as bash -c does from a terminal: an inherited descriptor
// (an agent's tool harness leaves 10 open) would move where
// `exec {fd}>file` lands and what /proc/self/fd lists. Go's own descriptors
// are close-on-exec already.
var keepHostFdsOut = sync.OnceFunc(func() {
	for fd := 3; fd < 1024; fd++ {
		syscall.CloseOnExec(fd)
	}
})
