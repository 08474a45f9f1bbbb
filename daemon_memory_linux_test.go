//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// peakRSS runs one line in a real `gatehouse exec` process and returns its
// exit code, stderr and peak resident set size in bytes.
func peakRSS(t *testing.T, doc, db, line string) (int, string, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "exec", "-w", doc, "--db", db, "--", line)
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage here")
	}
	return code, stderr.String(), ru.Maxrss << 10 // Linux reports KiB
}

// G-12.3: lines built to exhaust memory end with exit 125 and the
// process's peak RSS stays near the line's budget (measured on the real
// binary, not timed): variables, substitutions, sort, tac, tail, line
// readers on endless lines, xargs, jq, awk, printf padding, expansions
// and memory-mount growth.
func TestPeakRSSStaysNearTheMemoryBudget(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs memory-hungry child processes")
	}
	const budget = 64 << 20
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	if err := os.WriteFile(doc, []byte("limits:\n  memory: 64MiB\nmounts:\n  /w:\n    files: {a: \"1\\n\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "ledger.db")
	_, _, baseline := peakRSS(t, doc, db, "true")
	lines := []string{
		`x=$(yes | head -c 2G); echo ${#x}`,
		`a=x; while :; do a=$a$a; done`,
		`yes | sort | head -1`,
		`seq 1e9 | tac | head -1`,
		`yes | tail -1`,
		`cat /dev/zero > /tmp/f`,
		`grep x /dev/zero`,
		`cut -c1 /dev/zero`,
		`xargs < /dev/zero`,
		`jq -n '[range(1e9)]'`,
		`awk 'BEGIN { while (1) a[i++] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxx" }'`,
		`printf '%*s' 2000000000 x | wc -c`,
		`x=$(seq 300000); echo ` + strings.Repeat("$x", 60) + ` | wc -c`,
		`yes | head -c 100M | sort -u | wc -l`,
	}
	for _, line := range lines {
		code, stderr, peak := peakRSS(t, doc, db, line)
		if code != 125 || !strings.Contains(stderr, "gatehouse: line exceeded the memory limit (64MiB)") {
			t.Errorf("%s: exit %d stderr %q, want 125 and the memory message", line, code, stderr)
		}
		// Buffers that double as they grow and the collector's lag keep
		// the peak above the budget, but not by multiples of it.
		if over := peak - baseline; over > 4*budget {
			t.Errorf("%s: peak RSS %d MiB, %d MiB over the idle process, for a %d MiB budget", line, peak>>20, over>>20, budget>>20)
		}
	}
}
