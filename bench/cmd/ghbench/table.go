package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// comparison prints what `ghbench compare` measured: the table of medians
// and ratios (wall clock, then CPU time), whether the systems agreed, and
// the G-14 verdicts for the find line.
type comparison struct {
	res              results
	order            []string
	n, rules         int
	repeat, jbRepeat int
}

func (c comparison) has(sys string) bool { return slices.Contains(c.order, sys) }

func (c comparison) print(w io.Writer) {
	fmt.Fprintf(w, "\nN = %d files in /tree; gated profile: %d rules; medians of %d runs", c.n, c.rules, c.repeat)
	if c.has(sysJustBash) {
		fmt.Fprintf(w, " (just-bash: %d)", min(c.repeat, c.jbRepeat))
	}
	fmt.Fprintln(w)
	c.table(w, wallTime)
	c.table(w, cpuTime)
	fmt.Fprintln(w)
	c.agreement(w)
	c.budgets(w)
}

func (c comparison) table(w io.Writer, m metric) {
	fmt.Fprintf(w, "\n%s\n%-48s %10s %10s %10s %7s %7s %10s %8s %10s\n", m.name, "line",
		"gatehouse", "GNU", "just-bash", "gh/GNU", "jb/gh", "gated", "overhead", "rules-only")
	for li, l := range benchLines {
		gh, okGH := c.res.median(m, sysGatehouse, li)
		gnu, okGNU := c.res.median(m, sysGNU, li)
		jb, okJB := c.res.median(m, sysJustBash, li)
		gt, okGT := c.res.median(m, sysGated, li)
		ro, okRO := c.res.median(m, sysRules, li)
		cell := func(d time.Duration, ok bool, sys string) string {
			switch {
			case ok:
				return fmtDuration(d)
			case !c.has(sys):
				return "—"
			default:
				return "failed"
			}
		}
		ratio := func(a, b time.Duration, ok bool) string {
			if !ok || b == 0 {
				return "—"
			}
			return fmt.Sprintf("%.2f×", float64(a)/float64(b))
		}
		overhead := "—"
		if r, ok := c.res.pairedRatio(m, sysGated, sysGatehouse, li); ok {
			overhead = fmt.Sprintf("%+.1f%%", 100*(r-1)) // per-round pairs, as in budgets
		}
		fmt.Fprintf(w, "%-48s %10s %10s %10s %7s %7s %10s %8s %10s\n", l.text,
			cell(gh, okGH, sysGatehouse), cell(gnu, okGNU, sysGNU), cell(jb, okJB, sysJustBash),
			ratio(gh, gnu, okGH && okGNU), ratio(jb, gh, okGH && okJB),
			cell(gt, okGT, sysGated), overhead, cell(ro, okRO, sysRules))
	}
}

// agreement says whether every system printed the same thing, so a fast
// wrong answer cannot pass for a fast right one.
func (c comparison) agreement(w io.Writer) {
	for li, l := range benchLines {
		want, wantFrom := "", ""
		var differ, failed []string
		for _, sys := range c.order {
			if err := c.res.failure(sys, li); err != nil {
				failed = append(failed, fmt.Sprintf("%s (%v)", sys, err))
				continue
			}
			runs := c.res[sys][li]
			if len(runs) == 0 {
				continue
			}
			got := l.normal(runs[0].out)
			if wantFrom == "" {
				want, wantFrom = got, sys
			} else if got != want {
				differ = append(differ, fmt.Sprintf("%s printed %q, %s printed %q",
					sys, clip(got), wantFrom, clip(want)))
			}
		}
		verdict := "all agree"
		if len(differ) > 0 {
			verdict = "DIFFER: " + strings.Join(differ, "; ")
		}
		if len(failed) > 0 {
			verdict += "; FAILED: " + strings.Join(failed, "; ")
		}
		fmt.Fprintf(w, "output of %-48s %s (%s)\n", l.text, verdict, clip(want))
	}
}

// budgets are G-14's verdicts for the find line. The budgets speak of
// time; on a machine shared with other work the CPU-time ratios are the
// steadier witness, so both are shown.
func (c comparison) budgets(w io.Writer) {
	fmt.Fprintf(w, "\nperformance budgets for %q (wall | CPU):\n", benchLines[0].text)
	both := func(f func(m metric) (float64, bool)) (wall, cpu float64, ok bool) {
		wall, ok1 := f(wallTime)
		cpu, ok2 := f(cpuTime)
		return wall, cpu, ok1 && ok2
	}
	ratio := func(a, b string) func(m metric) (float64, bool) {
		return func(m metric) (float64, bool) {
			x, ok1 := c.res.median(m, a, 0)
			y, ok2 := c.res.median(m, b, 0)
			return float64(x) / float64(y), ok1 && ok2 && y > 0
		}
	}
	if wr, cr, ok := both(ratio(sysGatehouse, sysGNU)); ok {
		fmt.Fprintf(w, "  gatehouse/GNU        %6.2f× | %6.2f×   (budget ≤ 2×)    %s\n", wr, cr, metWord(wr <= 2))
	}
	if wr, cr, ok := both(ratio(sysJustBash, sysGatehouse)); ok {
		fmt.Fprintf(w, "  just-bash/gatehouse  %6.1f× | %6.1f×   (budget ≥ 15×)   %s\n", wr, cr, metWord(wr >= 15))
	} else if !c.has(sysJustBash) {
		fmt.Fprintf(w, "  just-bash/gatehouse  not measured (just-bash not available)\n")
	}
	// The overheads compare runs of the same round (see pairedRatio).
	paired := func(a, b string) func(m metric) (float64, bool) {
		return func(m metric) (float64, bool) { return c.res.pairedRatio(m, a, b, 0) }
	}
	wr, cr, gated := both(paired(sysGated, sysGatehouse))
	rr, rc, rules := both(paired(sysRules, sysGatehouse))
	switch {
	case gated:
		wo, co := 100*(wr-1), 100*(cr-1)
		fmt.Fprintf(w, "  gating overhead      %+6.1f%% | %+6.1f%%  (budget ≤ 10%%; %d rules + Starlark pre_ops; median of per-round ratios)  %s\n",
			wo, co, c.rules, metWord(wo <= 10 && co <= 10))
		if rules {
			fmt.Fprintf(w, "    the rules alone    %+6.1f%% | %+6.1f%%;  the program adds %+.1f%% | %+.1f%%\n",
				100*(rr-1), 100*(rc-1), 100*(wr-rr), 100*(cr-rc))
		}
	case rules:
		fmt.Fprintf(w, "  %d rules, no program  %+6.1f%% | %+6.1f%%  against unrestricted\n", c.rules, 100*(rr-1), 100*(rc-1))
	}
	if xr, xc, ok := both(paired(sysControl, sysGatehouse)); ok {
		fmt.Fprintf(w, "  control (A/A)        %+6.1f%% | %+6.1f%%  a second unrestricted session: the noise floor of the overheads\n",
			100*(xr-1), 100*(xc-1))
	}
}

func metWord(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func fmtDuration(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	default:
		return fmt.Sprintf("%.1f ms", ms(d))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func clip(s string) string {
	s = strings.ReplaceAll(s, "\n", " | ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
