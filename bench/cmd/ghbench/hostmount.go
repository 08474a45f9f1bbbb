package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// hostLine is one line of the host-mount comparison: the same text runs in
// `bash -c` in the tree's directory and in `gatehouse exec` in a session
// whose cwd is the host mount of that directory, so the two differ only in
// who walks the files (issue 18).
type hostLine struct {
	text  string
	label string // the line as the table shows it
}

// hostLines are the lines G-14's host-mount column measures. bigFile is a
// 50 MB file in a directory of its own (mounted at /big), so the other
// lines do not walk it.
var hostLines = []hostLine{
	{text: "find -type f | wc -l"},
	{text: "find -type f | xargs grep -l TODO | wc -l"},
	{text: "grep -rl TODO | wc -l"},
	{text: "ls -lR | wc -l"},
	{text: "cat BIG > /dev/null", label: "cat 50 MB > /dev/null"},
	{text: "true", label: "exec -- true (start-up)"},
}

// hostSystem is one whole-process way to run a line.
type hostSystem struct {
	name string
	argv func(line string) []string
	dir  string
}

// hostSample is one run: wall clock, CPU of the process and its children,
// and (in a run of its own, under GNU time) the peak resident set of the
// largest of them.
type hostSample struct {
	wall, cpu time.Duration
	maxRSS    int64 // KiB
	out       string
	err       error
}

func hostmountCommand(args []string) error {
	fs := flag.NewFlagSet("hostmount", flag.ExitOnError)
	root := fs.String("root", "", "host tree written by `ghbench tree` (mounted at /w)")
	bin := fs.String("gatehouse", "", "the gatehouse binary to measure")
	baseline := fs.String("baseline", "", "a second gatehouse binary measured in the same rounds (e.g. the build before a change)")
	repeat := fs.Int("repeat", 11, "runs of each line per system")
	lineNumbers := fs.String("lines", "", "comma-separated line numbers (1 = find … 6 = true); default all")
	straceCounts := fs.Bool("strace", false, "also run each line once under strace -c -f and report syscalls per file")
	fs.Parse(args)
	if *root == "" || *bin == "" {
		return fmt.Errorf("hostmount: -root and -gatehouse are required")
	}
	lines := hostLines
	if *lineNumbers != "" {
		lines = nil
		for _, f := range strings.Split(*lineNumbers, ",") {
			var i int
			if _, err := fmt.Sscan(f, &i); err != nil || i < 1 || i > len(hostLines) {
				return fmt.Errorf("hostmount: -lines: no line %q", f)
			}
			lines = append(lines, hostLines[i-1])
		}
	}
	tree, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp(filepath.Dir(tree), "hostmount-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	big := filepath.Join(work, "big")
	if err := writeBigFile(filepath.Join(big, "big.txt"), 50<<20); err != nil {
		return err
	}
	doc := filepath.Join(work, "workspace.yaml")
	yaml := fmt.Sprintf("mounts:\n  /w:\n    source: host:%s\n  /big:\n    source: host:%s\n    mode: ro\n", tree, big)
	if err := os.WriteFile(doc, []byte(yaml), 0o644); err != nil {
		return err
	}
	gatehouse := func(name, binary string) hostSystem {
		db := filepath.Join(work, name+".db")
		return hostSystem{name: name, dir: work, argv: func(line string) []string {
			line = strings.ReplaceAll(line, "BIG", "/big/big.txt")
			return []string{binary, "exec", "-w", doc, "--db", db, "--", "cd /w && " + line}
		}}
	}
	systems := []hostSystem{
		{name: sysGNU, dir: tree, argv: func(line string) []string {
			return []string{"bash", "-c", strings.ReplaceAll(line, "BIG", filepath.Join(big, "big.txt"))}
		}},
		gatehouse(sysGatehouse, *bin),
	}
	if *baseline != "" {
		systems = append(systems, gatehouse("baseline", *baseline))
	}

	res := map[string][][]hostSample{}
	shuffle := rand.New(rand.NewPCG(1, 18))
	for round := range *repeat {
		for li, l := range lines {
			perm := slices.Clone(systems)
			shuffle.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			for _, sys := range perm {
				if res[sys.name] == nil {
					res[sys.name] = make([][]hostSample, len(lines))
				}
				s := runHostLine(sys, l.text, false)
				res[sys.name][li] = append(res[sys.name][li], s)
				status := "ok"
				if s.err != nil {
					status = s.err.Error()
				}
				logf("round %d  %-9s %-44s %9.1f ms wall %9.1f ms cpu  %s",
					round+1, sys.name, l.text, ms(s.wall), ms(s.cpu), status)
			}
		}
	}
	// The peak resident set is taken in runs of its own, under GNU time:
	// wrapping the timed runs would add time's own start-up (and more for
	// a large static binary than for bash) to every CPU figure.
	rss := map[string][]int64{}
	for _, sys := range systems {
		for _, l := range lines {
			rss[sys.name] = append(rss[sys.name], runHostLine(sys, l.text, true).maxRSS)
		}
	}
	printHostTable(os.Stdout, lines, systems, res, rss, *repeat)
	if *straceCounts {
		return printSyscallsPerFile(os.Stdout, lines, systems, tree)
	}
	return nil
}

// printSyscallsPerFile runs each line once per system under strace -c -f
// (every thread and child process) and divides the syscalls made by the
// number of regular files in the tree: the per-file cost issue 18 set
// side by side (GNU makes none for find -type f, five for grep).
func printSyscallsPerFile(w io.Writer, lines []hostLine, systems []hostSystem, tree string) error {
	if _, err := exec.LookPath("strace"); err != nil {
		fmt.Fprintln(w, "\nsyscalls per file: strace is not installed")
		return nil
	}
	files := 0
	filepath.WalkDir(tree, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files++
		}
		return nil
	})
	fmt.Fprintf(w, "\nsyscalls per file (strace -c -f, one run, %d files; start-up included)\n", files)
	fmt.Fprintf(w, "%-44s", "line")
	for _, sys := range systems {
		fmt.Fprintf(w, " %10s", sys.name)
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		label := l.label
		if label == "" {
			label = l.text
		}
		fmt.Fprintf(w, "%-44s", label)
		for _, sys := range systems {
			calls, err := straceCalls(sys, l.text)
			if err != nil {
				logf("strace %s %q: %v", sys.name, l.text, err)
				fmt.Fprintf(w, " %10s", "failed")
				continue
			}
			fmt.Fprintf(w, " %10.2f", float64(calls)/float64(files))
		}
		fmt.Fprintln(w)
	}
	return nil
}

// straceCalls is the total of strace -c's table for one run.
func straceCalls(sys hostSystem, line string) (int, error) {
	out, err := os.CreateTemp("", "ghbench-strace-")
	if err != nil {
		return 0, err
	}
	out.Close()
	defer os.Remove(out.Name())
	argv := append([]string{"strace", "-f", "-c", "-o", out.Name()}, sys.argv(line)...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = sys.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v: %s", err, firstLine(stderr.String()))
	}
	b, err := os.ReadFile(out.Name())
	if err != nil {
		return 0, err
	}
	for _, row := range strings.Split(string(b), "\n") {
		f := strings.Fields(row)
		if len(f) >= 4 && f[len(f)-1] == "total" {
			var calls int
			// "100.00 secs usecs/call calls [errors] total"
			fmt.Sscan(f[3], &calls)
			return calls, nil
		}
	}
	return 0, fmt.Errorf("no total in strace's table")
}

// timeBinary is GNU time, which reports a child's peak resident set
// truthfully: a child started by this (large) process directly would
// inherit its high-water mark through the vfork-style spawn Go uses.
var timeBinary, _ = exec.LookPath("/usr/bin/time")

func runHostLine(sys hostSystem, line string, measureRSS bool) hostSample {
	argv := sys.argv(line)
	var rssFile string
	if measureRSS && timeBinary != "" {
		f, err := os.CreateTemp("", "ghbench-rss-")
		if err == nil {
			rssFile = f.Name()
			f.Close()
			defer os.Remove(rssFile)
			argv = append([]string{timeBinary, "-q", "-f", "%M", "-o", rssFile}, argv...)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = sys.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	s := hostSample{wall: time.Since(start), out: strings.TrimSpace(out.String())}
	if st := cmd.ProcessState; st != nil {
		s.cpu = st.UserTime() + st.SystemTime()
	}
	if rssFile != "" {
		if b, err := os.ReadFile(rssFile); err == nil {
			fmt.Sscan(string(b), &s.maxRSS)
		}
	}
	if err != nil || errOut.Len() > 0 {
		s.err = fmt.Errorf("%v: %s", err, firstLine(errOut.String()))
	}
	return s
}

func printHostTable(w io.Writer, lines []hostLine, systems []hostSystem, res map[string][][]hostSample, rssOf map[string][]int64, repeat int) {
	fmt.Fprintf(w, "\nhost mounts on the same tree, whole processes; medians of %d runs (ratios: gatehouse/GNU)\n", repeat)
	hasBase := len(systems) > 2
	fmt.Fprintf(w, "%-44s %10s %10s %7s %10s %10s %7s %9s %9s", "line", "GNU wall", "gh wall", "ratio", "GNU cpu", "gh cpu", "ratio", "GNU RSS", "gh RSS")
	if hasBase {
		fmt.Fprintf(w, " %10s %7s %10s %7s", "base wall", "gh/base", "base cpu", "gh/base")
	}
	fmt.Fprintln(w)
	med := func(sys string, li int, of func(hostSample) int64) (int64, bool) {
		var xs []int64
		for _, s := range res[sys][li] {
			if s.err == nil {
				xs = append(xs, of(s))
			}
		}
		if len(xs) == 0 {
			return 0, false
		}
		slices.Sort(xs)
		return xs[len(xs)/2], true
	}
	wall := func(s hostSample) int64 { return int64(s.wall) }
	cpu := func(s hostSample) int64 { return int64(s.cpu) }
	for li, l := range lines {
		label := l.label
		if label == "" {
			label = l.text
		}
		gw, ok1 := med(sysGNU, li, wall)
		hw, ok2 := med(sysGatehouse, li, wall)
		gc, _ := med(sysGNU, li, cpu)
		hc, _ := med(sysGatehouse, li, cpu)
		gr, hr := rssOf[sysGNU][li], rssOf[sysGatehouse][li]
		if !ok1 || !ok2 {
			fmt.Fprintf(w, "%-44s failed\n", label)
			continue
		}
		fmt.Fprintf(w, "%-44s %10s %10s %6.2f× %10s %10s %6.2f× %6.1f MiB %6.1f MiB", label,
			fmtDuration(time.Duration(gw)), fmtDuration(time.Duration(hw)), float64(hw)/float64(gw),
			fmtDuration(time.Duration(gc)), fmtDuration(time.Duration(hc)), float64(hc)/float64(max(gc, 1)),
			float64(gr)/1024, float64(hr)/1024)
		if hasBase {
			bw, ok1 := med("baseline", li, wall)
			bc, ok2 := med("baseline", li, cpu)
			if ok1 && ok2 {
				fmt.Fprintf(w, " %10s %6.2f× %10s %6.2f×", fmtDuration(time.Duration(bw)), float64(hw)/float64(bw),
					fmtDuration(time.Duration(bc)), float64(hc)/float64(max(bc, 1)))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for li, l := range lines {
		var outs []string
		for _, sys := range systems {
			if len(res[sys.name][li]) > 0 {
				outs = append(outs, sys.name+"="+clip(res[sys.name][li][0].out))
			}
		}
		verdict := "all agree"
		for _, sys := range systems[1:] {
			if len(res[sys.name][li]) > 0 && len(res[sysGNU][li]) > 0 && res[sys.name][li][0].out != res[sysGNU][li][0].out {
				verdict = "DIFFER"
			}
		}
		fmt.Fprintf(w, "output of %-44s %s (%s)\n", l.text, verdict, strings.Join(outs, ", "))
	}
}

// writeBigFile writes size bytes of printable pseudo-random text, in lines.
func writeBigFile(path string, size int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	buf := make([]byte, size)
	state := uint64(0x9e3779b97f4a7c15)
	for i := range buf {
		if i%80 == 79 {
			buf[i] = '\n'
			continue
		}
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		buf[i] = 'a' + byte(state%26)
	}
	return os.WriteFile(path, buf, 0o644)
}
