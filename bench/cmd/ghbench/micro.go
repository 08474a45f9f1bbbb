package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// microCommand reads `go test -bench` output (several -count runs) on
// stdin and prints each benchmark's median with the G-14 budget it
// answers to, so one run of compare.sh says met or not met for each.
func microCommand(args []string) error {
	values, order, err := readBenchOutput(os.Stdin)
	if err != nil {
		return err
	}
	median := func(name, unit string) (float64, bool) {
		vs := values[name][unit]
		if len(vs) == 0 {
			return 0, false
		}
		slices.Sort(vs)
		if len(vs)%2 == 1 {
			return vs[len(vs)/2], true
		}
		return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2, true
	}

	fmt.Printf("%-36s %14s %12s %10s  %s\n", "benchmark (median of runs)", "time/op", "B/op", "allocs/op", "other")
	for _, name := range order {
		ns, _ := median(name, "ns/op")
		bytes, okB := median(name, "B/op")
		allocs, okA := median(name, "allocs/op")
		var other []string
		for unit := range values[name] {
			if !slices.Contains([]string{"ns/op", "B/op", "allocs/op"}, unit) {
				v, _ := median(name, unit)
				other = append(other, fmt.Sprintf("%s %s", strconv.FormatFloat(v, 'f', -1, 64), unit))
			}
		}
		slices.Sort(other)
		fmt.Printf("%-36s %14s %12s %10s  %s\n", name, nsText(ns), blankUnless(okB, "%.0f", bytes),
			blankUnless(okA, "%.0f", allocs), strings.Join(other, ", "))
	}

	fmt.Println("\nperformance budgets (micro-benchmarks):")
	check := func(label, name, unit string, limit float64, show func(float64) string) {
		v, ok := median(name, unit)
		if !ok {
			fmt.Printf("  %-44s not measured (%s)\n", label, name)
			return
		}
		fmt.Printf("  %-44s %10s  (budget ≤ %s)  %s\n", label, show(v), show(limit), metWord(v <= limit))
	}
	check("gate judgement, demo profile", "JudgeDemo", "ns/op", 1000, nsText)
	check("gate judgement, 1,000 rules", "Judge1000Rules", "ns/op", 5000, nsText)
	if small, ok1 := median("JudgeRules/100", "ns/op"); ok1 {
		if big, ok2 := median("JudgeRules/10000", "ns/op"); ok2 {
			r := big / small
			fmt.Printf("  %-44s %9.2f×  (100× the rules; sub-linear if < 10×)  %s\n",
				"judgement growth 100 → 10,000 rules", r, metWord(r < 10))
		}
	}
	check("op door per op, no policy program", "CheckOpNoPolicy", "ns/op", 200, nsText)
	check("op door per op, demo profile", "CheckOp", "ns/op", 200, nsText)
	check("console View(), 10,000 pending asks", "View10kAsks", "ns/op", 5e6, nsText)
	check("ask round trip p50", "AskRoundTrip", "p50-ms", 10, msText)
	check("ask round trip p99", "AskRoundTrip", "p99-ms", 50, msText)
	check("idle session heap (BenchmarkCreateSession)", "CreateSession", "heap-B/session", 100<<10,
		func(v float64) string { return fmt.Sprintf("%.1f KiB", v/1024) })
	return nil
}

var benchOutputLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// readBenchOutput collects every value of every unit per benchmark, and
// the benchmarks in the order they first appear.
func readBenchOutput(r io.Reader) (map[string]map[string][]float64, []string, error) {
	values := map[string]map[string][]float64{}
	var order []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := benchOutputLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name, fields := m[1], strings.Fields(m[2])
		if values[name] == nil {
			values[name] = map[string][]float64{}
			order = append(order, name)
		}
		for i := 0; i+1 < len(fields); i += 2 {
			if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
				values[name][fields[i+1]] = append(values[name][fields[i+1]], v)
			}
		}
	}
	return values, order, sc.Err()
}

func nsText(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.0f ns", ns)
	}
}

func msText(v float64) string { return fmt.Sprintf("%.1f ms", v) }

func blankUnless(ok bool, format string, v float64) string {
	if !ok {
		return ""
	}
	return fmt.Sprintf(format, v)
}
