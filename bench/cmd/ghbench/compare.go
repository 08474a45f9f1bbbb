package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"gatehouse/core"
)

// The systems of the comparison.
const (
	sysGatehouse = "gatehouse"  // unrestricted session
	sysGated     = "gated"      // 50 rules + Starlark pre_ops
	sysRules     = "rules-only" // the same 50 rules without the program
	// sysControl is a second unrestricted session: its "overhead" against
	// the first is the measurement's own noise floor (an A/A test).
	sysControl  = "control"
	sysGNU      = "GNU"
	sysJustBash = "just-bash"
)

// sample is one run of one line in one system.
type sample struct {
	wall time.Duration
	cpu  time.Duration
	out  string
	err  error
}

// metric picks what a table shows of a sample.
type metric struct {
	name string
	of   func(sample) time.Duration
}

var (
	wallTime = metric{"wall-clock time", func(s sample) time.Duration { return s.wall }}
	cpuTime  = metric{"CPU time (user+sys, all threads and child processes)", func(s sample) time.Duration { return s.cpu }}
)

// results holds every run: system -> line index -> samples.
type results map[string]map[int][]sample

func (r results) add(system string, line int, s sample) {
	if r[system] == nil {
		r[system] = map[int][]sample{}
	}
	r[system][line] = append(r[system][line], s)
}

// median of the successful runs, or false when there are none.
func (r results) median(m metric, system string, line int) (time.Duration, bool) {
	var ds []time.Duration
	for _, s := range r[system][line] {
		if s.err == nil {
			ds = append(ds, m.of(s))
		}
	}
	if len(ds) == 0 {
		return 0, false
	}
	slices.Sort(ds)
	if len(ds)%2 == 1 {
		return ds[len(ds)/2], true
	}
	return (ds[len(ds)/2-1] + ds[len(ds)/2]) / 2, true
}

// pairedRatio is the median over rounds of a's time over b's in the same
// round. Rounds interleave the systems, so a burst of load from elsewhere
// lands on both runs of a pair; the ratio of two medians would set one
// round's calm against another's storm. false when a run failed.
func (r results) pairedRatio(m metric, a, b string, line int) (float64, bool) {
	as, bs := r[a][line], r[b][line]
	if len(as) == 0 || len(as) != len(bs) {
		return 0, false
	}
	ratios := make([]float64, len(as))
	for i := range as {
		if as[i].err != nil || bs[i].err != nil || m.of(bs[i]) <= 0 {
			return 0, false
		}
		ratios[i] = float64(m.of(as[i])) / float64(m.of(bs[i]))
	}
	slices.Sort(ratios)
	if len(ratios)%2 == 1 {
		return ratios[len(ratios)/2], true
	}
	return (ratios[len(ratios)/2-1] + ratios[len(ratios)/2]) / 2, true
}

func (r results) failure(system string, line int) error {
	for _, s := range r[system][line] {
		if s.err != nil {
			return s.err
		}
	}
	return nil
}

func compareCommand(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	n := fs.Int("n", 100_000, "number of files in /tree (must match the tree under -root)")
	root := fs.String("root", "", "host tree written by `ghbench tree` (for GNU and just-bash)")
	repeat := fs.Int("repeat", 5, "runs of each line per system")
	jbRepeat := fs.Int("jb-repeat", 3, "runs of each line in just-bash (its runs are long)")
	jbDriver := fs.String("jb-driver", "", "bench/justbash.mjs; empty skips just-bash")
	jbModule := fs.String("jb-module", "", "just-bash's dist/bundle/index.js")
	only := fs.String("systems", "", "comma-separated subset of gatehouse,gated,rules-only,control,GNU,just-bash (control: a second unrestricted session, the A/A noise floor)")
	lineNumbers := fs.String("lines", "", "comma-separated line numbers to run (1 = find, 2 = sort, 3 = grep); default all")
	rules := fs.Int("rules", 50, "rules in the gated and rules-only profiles")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run (use with -systems)")
	ephemeral := fs.Bool("ephemeral", false, "do not keep the memory mounts in the (temporary) ledger, as a workspace built in Go does by default; without it they are kept, as a document's are")
	fs.Parse(args)
	if *root == "" && (*only == "" || strings.Contains(*only, sysGNU) || strings.Contains(*only, sysJustBash)) {
		return fmt.Errorf("compare: -root is required")
	}

	if *lineNumbers != "" {
		var picked []benchLine
		for _, f := range strings.Split(*lineNumbers, ",") {
			i, err := strconv.Atoi(f)
			if err != nil || i < 1 || i > len(benchLines) {
				return fmt.Errorf("compare: -lines: no line %q", f)
			}
			picked = append(picked, benchLines[i-1])
		}
		benchLines = picked
	}

	start := time.Now()
	ws, err := benchWorkspace(*n, *rules, !*ephemeral)
	if err != nil {
		return err
	}
	defer ws.Close()
	sessions := map[string]*core.Session{}
	for sys, profile := range map[string]string{sysGatehouse: "", sysGated: gatedProfileName, sysRules: rulesProfileName, sysControl: ""} {
		var opts []core.SessionOption
		if profile != "" {
			opts = append(opts, core.Profile(profile))
		}
		s, err := ws.CreateSession("bench-"+sys, opts...)
		if err != nil {
			return err
		}
		// A session without a profile starts at /; every line starts in
		// /data, as the profiles' sessions (and just-bash) do.
		if profile == "" {
			if res := s.Execute(context.Background(), "cd /data"); res.ExitCode != 0 {
				return fmt.Errorf("cd /data: %s", res.Stderr)
			}
		}
		sessions[sys] = s
	}
	logf("gatehouse workspace of %d files built in %.1fs", *n, time.Since(start).Seconds())

	systems := map[string]runner{
		sysGatehouse: gatehouseRunner{sessions[sysGatehouse], sysGatehouse},
		sysGated:     gatehouseRunner{sessions[sysGated], sysGated},
		sysRules:     gatehouseRunner{sessions[sysRules], sysRules},
		sysControl:   gatehouseRunner{sessions[sysControl], sysControl},
		sysGNU:       gnuRunner{*root},
	}
	order := []string{sysGatehouse, sysGated, sysRules, sysControl, sysGNU}
	if *only != "" {
		order = strings.Split(*only, ",")
		for _, sys := range order {
			if systems[sys] == nil && sys != sysJustBash {
				return fmt.Errorf("compare: unknown system %q", sys)
			}
		}
	}
	if *jbDriver != "" && (*only == "" || slices.Contains(order, sysJustBash)) {
		start = time.Now()
		jb, err := startJustBash(*jbDriver, *jbModule, *root)
		if err != nil {
			logf("just-bash left out: %v", err)
		} else {
			defer jb.stop()
			systems[sysJustBash] = jb
			if !slices.Contains(order, sysJustBash) {
				order = append(order, sysJustBash)
			}
			logf("just-bash loaded %d files in %.1fs", jb.files, time.Since(start).Seconds())
		}
	}
	order = slices.DeleteFunc(order, func(sys string) bool { return systems[sys] == nil })

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}

	// Rounds interleave the systems, so a burst of load from elsewhere on
	// the machine falls on all of them instead of on one.
	res := results{}
	// Each round runs the systems in a fresh random order (seeded, so a
	// run can be repeated). A turning order would not do: in a cycle each
	// system always follows the same one, and the one after GNU (whose
	// processes leave the caches cold) would always pay for it.
	shuffle := rand.New(rand.NewPCG(1, 14))
	for round := range *repeat {
		for li, l := range benchLines {
			perm := slices.Clone(order)
			shuffle.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			for _, sys := range perm {
				if sys == sysJustBash && round >= *jbRepeat {
					continue
				}
				if res.failure(sys, li) != nil {
					continue // a system that cannot run a line is not retried
				}
				s, err := systems[sys].run(l)
				s.err = err
				res.add(sys, li, s)
				status := "ok"
				if err != nil {
					status = err.Error()
				}
				logf("round %d  %-10s %-48s %9.1f ms wall %9.1f ms cpu  %s",
					round+1, sys, l.text, ms(s.wall), ms(s.cpu), status)
			}
		}
	}
	report := comparison{res: res, order: order, n: *n, rules: ruleCount(gatedProfile(*rules)),
		repeat: *repeat, jbRepeat: *jbRepeat}
	report.print(os.Stdout)
	return nil
}
