package core

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"gatehouse/store/sqlite"
)

// bypassStructural are techniques no profile rule stops: the shell has no
// such hook (PROMPT_COMMAND, PS4, BASH_ENV), or the VFS itself confines the
// host mount. Their attempts fail in an ungated world too, and are kept so
// that a hook or a host door added later is held to the same judges.
var bypassStructural = map[string]bool{
	bypassHooks.name:       true,
	bypassHostEscapes.name: true,
}

// TestBypassSelfCheck runs the suite in ungated worlds (no rules, /ro
// writable), where an attempt that works must be caught by its judge. A
// technique none of whose attempts is caught there would prove nothing
// about the gate: its judges are blind, or its attempts are all impossible.
// Cases caught nowhere are logged: they fail ungated for reasons of their
// own (an option or feature the shell lacks), which is still worth keeping.
func TestBypassSelfCheck(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("the self-check doubles the bypass suite's cost, and checks the judges, not concurrency")
	}
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	hostDir, _ := os.Getwd()
	var mu sync.Mutex
	caught := map[string]int{}
	var uncaught []string
	for _, tech := range bypassTechniques {
		t.Run(tech.name, func(t *testing.T) {
			for _, tc := range tech.cases {
				t.Run(tc.line, func(t *testing.T) {
					t.Parallel()
					got := len(judgeBypass(t, db, hostDir, tc, true)) > 0
					mu.Lock()
					defer mu.Unlock()
					if got {
						caught[tech.name]++
					} else {
						uncaught = append(uncaught, tech.name+": "+bypassShow(tc))
					}
				})
			}
		})
	}
	total := 0
	for _, tech := range bypassTechniques {
		total += len(tech.cases)
		if caught[tech.name] == 0 && !bypassStructural[tech.name] {
			t.Errorf("technique %q: no attempt is caught even without rules; its judges prove nothing", tech.name)
		}
	}
	sort.Strings(uncaught)
	t.Logf("ungated, %d of %d attempts were caught by their judges; the others fail without any rule:\n%s",
		total-len(uncaught), total, strings.Join(uncaught, "\n"))
}
