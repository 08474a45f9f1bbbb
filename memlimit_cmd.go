package main

import (
	"os"
	"runtime/debug"

	"gatehouse/core"
)

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
