//go:build linux

package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// rssBudget is the memory budget TestPeakRSSStaysNearTheMemoryBudget
// gives its lines: `go test -run PeakRSS -rssbudget 512MiB -v .` measures
// the figures docs/security.md quotes at the default budget.
var rssBudget = flag.String("rssbudget", "64MiB", "limits.memory for the peak-RSS test")

// G-12.3: lines built to exhaust memory end with exit 125 (or a bounded
// expansion's own error) and the process's peak RSS stays near the line's
// budget (measured on the real binary, not timed): variables,
// substitutions, sort, tac, tail, line readers on endless lines, xargs, jq,
// awk, printf padding, brace and pattern expansions and memory-mount
// growth. A streaming line of 2 GiB stays at the idle process's size.
func TestPeakRSSStaysNearTheMemoryBudget(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs memory-hungry child processes")
	}
	budget, err := parseBytes(*rssBudget)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	if err := os.WriteFile(doc, []byte("limits:\n  memory: "+*rssBudget+"\nmounts:\n  /w:\n    files: {a: \"1\\n\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "ledger.db")
	_, _, baseline := peakRSS(t, doc, db, "true")
	t.Logf("idle process (true): peak RSS %d MiB; budget %s", baseline>>20, *rssBudget)
	overBudget := "gatehouse: line exceeded the memory limit (" + *rssBudget + ")"
	braces := "bash: brace expansion would exceed 16384 elements"
	lines := []struct{ line, want string }{
		{`x=$(yes | head -c 2G); echo ${#x}`, overBudget},
		{`x=$(cat /dev/zero); echo ${#x}`, overBudget},
		{`a=x; while :; do a=$a$a; done`, overBudget},
		{`yes | sort | head -1`, overBudget},
		{`seq 1e9 | tac | head -1`, overBudget},
		{`yes | tr -d '\n' | tail -1`, overBudget},
		{`cat /dev/zero > /tmp/f`, overBudget},
		{`grep x /dev/zero`, overBudget},
		{`cut -c1 /dev/zero`, overBudget},
		{`xargs < /dev/zero`, overBudget},
		{`jq -n '[range(1e9)]'`, overBudget},
		{`awk 'BEGIN { while (1) a[i++] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxx" }'`, overBudget},
		{`printf '%*s' 2000000000 x | wc -c`, overBudget},
		{`x=$(seq 300000); echo ` + strings.Repeat("$x", 60) + ` | wc -c`, overBudget},
		{`yes | head -c 100M | sort -u | wc -l`, overBudget},
		{`x=$(seq 1000000); y=${x//?/xxxxxxxxxxxxxxxxxxxx}`, overBudget},
		{`x=$(seq 1000000); y=${x//?/$x}`, overBudget},
		{`echo {1..100000000}`, braces},
		{`echo ` + strings.Repeat("{a,b}", 40), braces},
		{`yes | head -c 2G | wc -c`, ""},
	}
	for _, tc := range lines {
		code, stderr, peak := peakRSS(t, doc, db, tc.line)
		wantCode := map[string]int{overBudget: 125, braces: 2, "": 0}[tc.want]
		if code != wantCode || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d stderr %q, want %d and %q", tc.line, code, stderr, wantCode, tc.want)
		}
		t.Logf("%-60.60s exit %3d  peak RSS %4d MiB  (%+d MiB over idle)", tc.line, code, peak>>20, (peak-baseline)>>20)
		// Buffers that double as they grow and the collector's lag keep
		// the peak above the budget, but not by multiples of it.
		if over := peak - baseline; over > 4*budget {
			t.Errorf("%s: peak RSS %d MiB, %d MiB over the idle process, for a %d MiB budget", tc.line, peak>>20, over>>20, budget>>20)
		}
	}
}

// parseBytes reads a size such as 64MiB (test input only).
func parseBytes(s string) (int64, error) {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseInt(n, 10, 64)
			return v * u.size, err
		}
	}
	return strconv.ParseInt(s, 10, 64)
}
