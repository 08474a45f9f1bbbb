package main

import (
	"os"
	"runtime/debug"

	"gatehouse/core"
)

// execHeapFloor is the heap goal under which `gatehouse exec`, a process
// that runs one line and exits, does not collect: walking a large tree
// keeps 1–2 MiB live, and at the runtime's 4 MiB minimum `find | xargs
// grep` over 100,000 files collected 35 times, each cycle waking mark
// workers on the idle processors; with this floor, 5 times. Larger heaps
// are collected as before, and the memory limit below still bounds the
// goal (heapfloor caps it lower while the floor holds).
const execHeapFloor = 16 << 20

// holdMemoryNearBudget sets the Go runtime's soft memory limit from the
// workspace's per-line memory budget, unless the operator set GOMEMLIMIT:
// each line is held to its budget by accounting, and the limit makes the
// collector return what a line let go before the heap doubles, so the
// process's peak stays near the budget rather than twice it (G-12.3).
func holdMemoryNearBudget(ws *core.Workspace) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	budget := ws.Config().Limits.WithDefaults().Memory
	limit := budget + 192<<20
	if cur := debug.SetMemoryLimit(-1); cur < limit {
		return // someone asked for less
	}
	debug.SetMemoryLimit(limit)
}
