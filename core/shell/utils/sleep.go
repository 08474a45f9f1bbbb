package utils

import (
	"math"
	"strconv"
	"strings"
	"time"
)

const sleepHelp = `Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.

      --help        display this help and exit
      --version     output version information and exit
`

// sleepUtility makes the sleep utility (see builtins).
func sleepUtility(string) *Utility {
	return &Utility{Name: "sleep", Run: runSleep, OperandExit: 1, Help: sleepHelp}
}

// runSleep waits for the summed interval or until the line is cancelled
// (time limit, Ctrl-C), whichever comes first.
func runSleep(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "sleep", usageExit: 1, help: sleepHelp})
	if done {
		return status, nil
	}
	ops := args.operandStrings(e.Args)
	if len(ops) == 0 {
		return t.end(t.usage("missing operand"))
	}
	total := 0.0
	bad := false
	for _, op := range ops {
		secs, ok := sleepSeconds(op)
		if !ok {
			t.warn("invalid time interval " + quoteAlways(op))
			bad = true
			continue
		}
		total += secs
	}
	if bad {
		t.rawStderr("Try 'sleep --help' for more information.\n")
		return t.end(1)
	}
	d := time.Duration(math.MaxInt64)
	if total*float64(time.Second) < float64(math.MaxInt64) {
		d = time.Duration(total * float64(time.Second))
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return t.end(0)
	case <-t.ctx.Done():
		return t.end(1)
	}
}

// sleepSeconds reads NUMBER[smhd]; "inf" and "infinity" are allowed.
func sleepSeconds(s string) (float64, bool) {
	unit := 1.0
	if s != "" {
		switch s[len(s)-1] {
		case 's':
			s = s[:len(s)-1]
		case 'm':
			unit, s = 60, s[:len(s)-1]
		case 'h':
			unit, s = 3600, s[:len(s)-1]
		case 'd':
			unit, s = 86400, s[:len(s)-1]
		}
	}
	if s == "" || strings.ContainsAny(s, "xXpP_") {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsNaN(v) {
		return 0, false
	}
	return v * unit, true
}
