package utils

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The wrappers run another command through the gate (G-3.5): timeout, nice
// and nohup. The shell judges the wrapped command at the wrapper's place.

// timeoutUtility makes the timeout utility (see builtins).
func timeoutUtility(string) *Utility {
	return &Utility{Name: "timeout", Run: runTimeout, Help: timeoutHelp}
}

// niceUtility makes the nice utility (see builtins).
func niceUtility(string) *Utility {
	return &Utility{Name: "nice", Run: runNice, Help: niceHelp}
}

// nohupUtility makes the nohup utility (see builtins).
func nohupUtility(string) *Utility {
	return &Utility{Name: "nohup", Run: runNohup, Help: nohupHelp}
}

const timeoutHelp = `Usage: timeout [OPTION] DURATION COMMAND [ARG]...
Start COMMAND, and kill it if still running after DURATION.

  -k, --kill-after=DURATION  also send a KILL signal after DURATION
  -s, --signal=SIGNAL        the signal to send on time-out
      --preserve-status      exit with the same status as COMMAND
  -v, --verbose              diagnose to stderr any signal sent upon timeout

DURATION is a number with an optional suffix: s (seconds, the default),
m (minutes), h (hours) or d (days). 0 disables the time-out.
If the command times out, the exit status is 124.
`

const niceHelp = `Usage: nice [OPTION] [COMMAND [ARG]...]
Run COMMAND with an adjusted niceness (which affects process scheduling).
With no COMMAND, print the current niceness.

  -n, --adjustment=N   add integer N to the niceness (default 10)
`

const nohupHelp = `Usage: nohup COMMAND [ARG]...
Run COMMAND, ignoring hangup signals.
`

// parseDuration reads GNU timeout's DURATION: a float with s/m/h/d.
func parseDuration(s string) (time.Duration, bool) {
	if s == "" {
		return 0, false
	}
	unit := time.Second
	switch s[len(s)-1] {
	case 's':
		s = s[:len(s)-1]
	case 'm':
		unit, s = time.Minute, s[:len(s)-1]
	case 'h':
		unit, s = time.Hour, s[:len(s)-1]
	case 'd':
		unit, s = 24*time.Hour, s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0, false
	}
	return time.Duration(f * float64(unit)), true
}

func runTimeout(e *Env) (int, error) {
	args := e.Args[1:]
	preserve, verbose := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0]
		switch {
		case a == "--":
			args = args[1:]
			goto done
		case a == "--help":
			fmt.Fprint(e.Stdout, timeoutHelp)
			return 0, nil
		case a == "--preserve-status":
			preserve = true
		case a == "--foreground":
		case a == "-v" || a == "--verbose":
			verbose = true
		case a == "-s" || a == "-k" || a == "--signal" || a == "--kill-after":
			if len(args) < 2 {
				fmt.Fprintf(e.Stderr, "timeout: option requires an argument -- '%s'\nTry 'timeout --help' for more information.\n", strings.TrimLeft(a, "-")[:1])
				return 125, nil
			}
			args = args[1:]
		case strings.HasPrefix(a, "--signal=") || strings.HasPrefix(a, "--kill-after=") || strings.HasPrefix(a, "-s") || strings.HasPrefix(a, "-k"):
		default:
			fmt.Fprintf(e.Stderr, "timeout: invalid option -- '%s'\nTry 'timeout --help' for more information.\n", strings.TrimLeft(a, "-"))
			return 125, nil
		}
		args = args[1:]
	}
done:
	if len(args) < 2 {
		if len(args) == 0 {
			fmt.Fprint(e.Stderr, "timeout: missing operand\nTry 'timeout --help' for more information.\n")
		} else {
			fmt.Fprintf(e.Stderr, "timeout: missing operand after '%s'\nTry 'timeout --help' for more information.\n", args[0])
		}
		return 125, nil
	}
	d, ok := parseDuration(args[0])
	if !ok {
		fmt.Fprintf(e.Stderr, "timeout: invalid time interval '%s'\nTry 'timeout --help' for more information.\n", args[0])
		return 125, nil
	}
	ctx, cancel := e.Ctx, context.CancelFunc(func() {})
	if d > 0 {
		ctx, cancel = context.WithTimeout(e.Ctx, d)
	}
	defer cancel()
	code, err := e.Exec(ctx, args[1:], e.Stdin, e.Stdout, e.Stderr)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && e.Ctx.Err() == nil {
		if verbose {
			fmt.Fprintf(e.Stderr, "timeout: sending signal TERM to command '%s'\n", args[1])
		}
		if preserve {
			return 143, nil
		}
		return 124, nil
	}
	return code, err
}

func runNice(e *Env) (int, error) {
	args := e.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		switch {
		case a == "--":
			args = args[1:]
			goto run
		case a == "--help":
			fmt.Fprint(e.Stdout, niceHelp)
			return 0, nil
		case a == "-n" || a == "--adjustment":
			if len(args) < 2 {
				fmt.Fprint(e.Stderr, "nice: option requires an argument -- 'n'\nTry 'nice --help' for more information.\n")
				return 125, nil
			}
			args = args[1:]
		case strings.HasPrefix(a, "--adjustment=") || strings.HasPrefix(a, "-n"):
		default:
			if _, err := strconv.Atoi(a[1:]); err != nil {
				fmt.Fprintf(e.Stderr, "nice: invalid option -- '%s'\nTry 'nice --help' for more information.\n", a[1:2])
				return 125, nil
			}
		}
		args = args[1:]
	}
run:
	if len(args) == 0 {
		fmt.Fprintln(e.Stdout, "0")
		return 0, nil
	}
	return e.Exec(e.Ctx, args, e.Stdin, e.Stdout, e.Stderr)
}

func runNohup(e *Env) (int, error) {
	args := e.Args[1:]
	if len(args) > 0 && args[0] == "--help" {
		fmt.Fprint(e.Stdout, nohupHelp)
		return 0, nil
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprint(e.Stderr, "nohup: missing operand\nTry 'nohup --help' for more information.\n")
		return 125, nil
	}
	return e.Exec(e.Ctx, args, e.Stdin, e.Stdout, e.Stderr)
}
