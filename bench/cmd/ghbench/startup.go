package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// startupSystem is one way to start a process that does nothing.
type startupSystem struct {
	name string
	argv []string
	dir  string
}

// startupSample is one start: the child's own CPU time and minor page
// faults from wait4's rusage. The peak resident set is taken apart, under
// GNU time (see startupPeakRSS).
type startupSample struct {
	cpu    time.Duration
	minflt int64
	err    error
}

// startupCommand measures `gatehouse exec -- true` against `bash -c true`:
// whole processes, interleaved rounds in a shuffled order, the workspace
// document of issue 18 (one host mount, the line cds into it). It prints the
// medians of CPU time (user + system of the child, wait4's rusage) and minor
// page faults, the peak resident set (GNU time, in runs of its own), the
// load average before and after, and what package initialisation costs
// (GODEBUG=inittrace=1). Page faults and the resident set do not depend on
// the machine's load; CPU time does.
func startupCommand(args []string) error {
	fs := flag.NewFlagSet("startup", flag.ExitOnError)
	bin := fs.String("gatehouse", "", "the gatehouse binary to measure (build it with CGO_ENABLED=0)")
	baseline := fs.String("baseline", "", "a second gatehouse binary measured in the same rounds (e.g. the build before a change)")
	repeat := fs.Int("repeat", 31, "starts of each system")
	rssRuns := fs.Int("rss-runs", 5, "starts of each system under GNU time for the peak resident set")
	fs.Parse(args)
	if *bin == "" {
		return fmt.Errorf("startup: -gatehouse is required")
	}
	work, err := os.MkdirTemp("", "ghbench-startup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	host := filepath.Join(work, "host")
	if err := os.Mkdir(host, 0o755); err != nil {
		return err
	}
	doc := filepath.Join(work, "ws.yaml")
	if err := os.WriteFile(doc, []byte("mounts:\n  /w:\n    source: host:"+host+"\n"), 0o644); err != nil {
		return err
	}
	gatehouse := func(name, binary string) startupSystem {
		db := filepath.Join(work, name+".db")
		return startupSystem{name: name, dir: work, argv: []string{binary, "exec", "-w", doc, "--db", db, "--", "cd /w && true"}}
	}
	systems := []startupSystem{
		{name: "bash", dir: host, argv: []string{"bash", "-c", "true"}},
		gatehouse(sysGatehouse, *bin),
	}
	if *baseline != "" {
		systems = append(systems, gatehouse("baseline", *baseline))
	}
	// Each binary's pages come into the page cache through its own faults,
	// as an installed binary's do (see dropFromPageCache). The first exec
	// creates the ledger; every later one opens it, as an agent's commands
	// do. One start of each warms the page cache.
	for _, binary := range []string{*bin, *baseline} {
		if binary == "" {
			continue
		}
		if err := dropFromPageCache(binary); err != nil {
			logf("startup: %v (the peak RSS depends on how the binary came into the page cache)", err)
		}
	}
	for _, sys := range systems {
		if s := runStartup(sys); s.err != nil {
			return fmt.Errorf("startup: %s: %v", sys.name, s.err)
		}
	}

	loadBefore := loadAverage()
	res := map[string][]startupSample{}
	shuffle := rand.New(rand.NewPCG(1, 18))
	for range *repeat {
		perm := slices.Clone(systems)
		shuffle.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		for _, sys := range perm {
			s := runStartup(sys)
			if s.err != nil {
				return fmt.Errorf("startup: %s: %v", sys.name, s.err)
			}
			res[sys.name] = append(res[sys.name], s)
		}
	}
	rss := map[string]int64{}
	for _, sys := range systems {
		rss[sys.name] = startupPeakRSS(sys, *rssRuns)
	}
	loadAfter := loadAverage()

	w := os.Stdout
	fmt.Fprintf(w, "\nstart-up: whole processes, medians of %d interleaved starts; load average %s before, %s after (%d CPUs)\n",
		*repeat, loadBefore, loadAfter, runtime.NumCPU())
	fmt.Fprintf(w, "%-10s %10s %8s %12s %7s %10s %7s\n", "system", "CPU", "ratio", "page faults", "ratio", "peak RSS", "ratio")
	base := res["bash"]
	for _, sys := range systems {
		cpu, flt := startupMedians(res[sys.name])
		bcpu, bflt := startupMedians(base)
		fmt.Fprintf(w, "%-10s %7.2f ms %7.2f× %12d %6.2f× %6.1f MiB %6.2f×\n", sys.name,
			ms(cpu), float64(cpu)/float64(max(bcpu, 1)), flt, float64(flt)/float64(max(bflt, 1)),
			float64(rss[sys.name])/1024, float64(rss[sys.name])/float64(max(rss["bash"], 1)))
	}
	fmt.Fprintf(w, "(CPU: user + system of the child from wait4; page faults: its minor faults; peak RSS: GNU time's %%M, median of %d)\n", *rssRuns)
	for _, sys := range systems[1:] {
		printInitTrace(w, sys)
	}
	return nil
}

// runStartup starts the system once and reads the child's rusage.
func runStartup(sys startupSystem) startupSample {
	cmd := exec.Command(sys.argv[0], sys.argv[1:]...)
	cmd.Dir = sys.dir
	var errOut strings.Builder
	cmd.Stderr = &errOut
	err := cmd.Run()
	var s startupSample
	if st := cmd.ProcessState; st != nil {
		s.cpu = st.UserTime() + st.SystemTime()
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			s.minflt = ru.Minflt
		}
	}
	if err != nil || errOut.Len() > 0 {
		s.err = fmt.Errorf("%v: %s", err, firstLine(errOut.String()))
	}
	return s
}

// startupMedians are the medians of CPU time and minor faults.
func startupMedians(samples []startupSample) (time.Duration, int64) {
	cpus := make([]time.Duration, len(samples))
	flts := make([]int64, len(samples))
	for i, s := range samples {
		cpus[i], flts[i] = s.cpu, s.minflt
	}
	slices.Sort(cpus)
	slices.Sort(flts)
	if len(samples) == 0 {
		return 0, 0
	}
	return cpus[len(cpus)/2], flts[len(flts)/2]
}

// startupPeakRSS is the median peak resident set (KiB) of runs under GNU
// time. wait4's ru_maxrss of a child this process starts directly is no
// use: Go starts children with vfork semantics, and the kernel carries the
// parent's high-water mark into the child's at exec, so every child would
// look at least as large as ghbench. GNU time forks.
func startupPeakRSS(sys startupSystem, runs int) int64 {
	if timeBinary == "" {
		return 0
	}
	var kib []int64
	for range runs {
		f, err := os.CreateTemp("", "ghbench-rss-")
		if err != nil {
			return 0
		}
		f.Close()
		argv := append([]string{timeBinary, "-q", "-f", "%M", "-o", f.Name()}, sys.argv...)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = sys.dir
		err = cmd.Run()
		b, _ := os.ReadFile(f.Name())
		os.Remove(f.Name())
		var k int64
		if _, serr := fmt.Sscan(string(b), &k); err == nil && serr == nil {
			kib = append(kib, k)
		}
	}
	if len(kib) == 0 {
		return 0
	}
	slices.Sort(kib)
	return kib[len(kib)/2]
}

// dropFromPageCache writes back and drops the file's cached pages. How a
// binary's pages came into the page cache changes its peak resident set by
// half: pages the linker wrote or a read(2) (cat, cp) brought in sit in
// large folios, and a fault maps the whole folio around the page it
// touched, so the same start measured 25-32 MiB where the binary paged in
// by its own starts measured 21 MiB. Dropping them first makes two builds
// comparable whatever was done with them before.
func dropFromPageCache(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		return fmt.Errorf("fdatasync %s: %w", path, err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("fadvise %s: %w", path, err)
	}
	return nil
}

// initTraceLine is one line of GODEBUG=inittrace=1.
var initTraceLine = regexp.MustCompile(`^init (\S+) @\S+ ms, (\S+) ms clock, (\d+) bytes, (\d+) allocs$`)

// printInitTrace starts the system once with the runtime's initialisation
// trace and sums it: all packages, and gatehouse's own.
func printInitTrace(w io.Writer, sys startupSystem) {
	cmd := exec.Command(sys.argv[0], sys.argv[1:]...)
	cmd.Dir = sys.dir
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		logf("inittrace %s: %v", sys.name, err)
		return
	}
	var pkgs, allocs, ownAllocs, ownBytes int
	var clock float64
	sc := bufio.NewScanner(&errOut)
	for sc.Scan() {
		m := initTraceLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		c, _ := strconv.ParseFloat(m[2], 64)
		b, _ := strconv.Atoi(m[3])
		a, _ := strconv.Atoi(m[4])
		pkgs++
		clock += c
		allocs += a
		if strings.HasPrefix(m[1], "gatehouse/") || m[1] == "main" || strings.HasPrefix(m[1], "mvdan.cc/sh/") {
			ownAllocs += a
			ownBytes += b
		}
	}
	fmt.Fprintf(w, "%s package init (GODEBUG=inittrace=1, one start): %d packages with init work, %.2f ms clock, %d allocations; gatehouse's and mvdan-sh's own: %d allocations, %d bytes\n",
		sys.name, pkgs, clock, allocs, ownAllocs, ownBytes)
}

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
