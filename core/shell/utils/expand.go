package utils

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

const expandHelp = `Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
  -t, --tabs=LIST  use comma separated list of tab positions; after the
                     last one, a tab becomes one space
      --help        display this help and exit
      --version     output version information and exit
`

const unexpandHelp = `Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
  -t, --tabs=LIST  use comma separated list of tab positions (enables -a)
      --help        display this help and exit
      --version     output version information and exit
`

var expandOpts = []optDef{
	{short: 'i', long: "initial"},
	{short: 't', long: "tabs", arg: needArg},
}

var unexpandOpts = []optDef{
	{short: 'a', long: "all"},
	{long: "first-only"},
	{short: 't', long: "tabs", arg: needArg},
}

// expandUtility makes the expand utility (see builtins).
func expandUtility(string) *Utility {
	return &Utility{Name: "expand", Run: runExpand, Operands: inputOperands(expandOpts, parseMode{}), OperandExit: 1, Help: expandHelp}
}

// unexpandUtility makes the unexpand utility (see builtins).
func unexpandUtility(string) *Utility {
	return &Utility{Name: "unexpand", Run: runUnexpand, Operands: inputOperands(unexpandOpts, parseMode{}), OperandExit: 1, Help: unexpandHelp}
}

// tabStops is a -t setting: a regular interval, or a list of positions.
type tabStops struct {
	every int
	list  []int
}

// next returns the tab stop after col, or -1 past the end of a list.
func (ts tabStops) next(col int) int {
	if len(ts.list) == 0 {
		return col + ts.every - col%ts.every
	}
	for _, p := range ts.list {
		if p > col {
			return p
		}
	}
	return -1
}

// parseTabStops reads -t values (they accumulate); msg is GNU's complaint.
func parseTabStops(values []string) (tabStops, string) {
	var stops []int
	for _, v := range values {
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
			n, err := strconv.Atoi(f)
			if err != nil {
				return tabStops{}, "tab size contains invalid character(s): '" + f + "'"
			}
			if n == 0 {
				return tabStops{}, "tab size cannot be 0"
			}
			if len(stops) > 0 && n <= stops[len(stops)-1] {
				return tabStops{}, "tab sizes must be ascending"
			}
			stops = append(stops, n)
		}
	}
	switch len(stops) {
	case 0:
		return tabStops{every: 8}, ""
	case 1:
		return tabStops{every: stops[0]}, ""
	}
	return tabStops{list: stops}, ""
}

func runExpand(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "expand", defs: expandOpts, usageExit: 1, help: expandHelp})
	if done {
		return t.end(status)
	}
	initial := args.has("initial")
	var tabs []string
	for _, o := range args.opts {
		if o.name == "tabs" {
			tabs = append(tabs, o.value)
		}
	}
	ts, msg := parseTabStops(tabs)
	if msg != "" {
		t.warn(msg)
		return t.end(1)
	}
	return t.end(eachInput(t, args.operandStrings(e.Args), func(in io.Reader) error {
		return eachLine(t, in, func(line []byte) {
			expandLine(line, ts, initial, func(s string) bool { return !t.stopped() && t.writeString(s) })
		})
	}))
}

// eachLine calls fn with every line of in, newline included.
func eachLine(t *tool, in io.Reader, fn func([]byte)) error {
	br := bufio.NewReader(in)
	var line []byte
	for !t.stopped() {
		chunk, err := br.ReadSlice('\n')
		line = append(line[:0], chunk...)
		for err == bufio.ErrBufferFull {
			chunk, err = br.ReadSlice('\n')
			line = append(line, chunk...)
		}
		if len(line) > 0 {
			fn(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// spaces is a run of blanks that padding is written from, a piece at a
// time (a constant: the package builds nothing at start-up).
const spaces = "                                                                "

// expandLine writes line with its tabs replaced by spaces to the next stop.
// Padding goes out a piece at a time, as GNU streams it: `expand -t
// 999999999` is a gigabyte of blanks a tab, never held at once. It stops
// when write says no (the line's end, a dead stdout).
func expandLine(line []byte, ts tabStops, initial bool, write func(string) bool) {
	var b strings.Builder
	col, leading := 0, true
	for _, c := range line {
		switch {
		case c == '\t' && (leading || !initial):
			next := ts.next(col)
			if next < 0 {
				next = col + 1
			}
			for pad := next - col; pad > 0; {
				n := min(pad, len(spaces))
				b.WriteString(spaces[:n])
				pad -= n
				if b.Len() >= 4096 {
					if !write(b.String()) {
						return
					}
					b.Reset()
				}
			}
			col = next
			continue
		case c == '\b':
			col = max(col-1, 0)
		case c == '\n':
			col = 0
		default:
			col++
		}
		if c != ' ' && c != '\t' {
			leading = false
		}
		b.WriteByte(c)
	}
	write(b.String())
}

func runUnexpand(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "unexpand", defs: unexpandOpts, usageExit: 1, help: unexpandHelp})
	if done {
		return t.end(status)
	}
	all, firstOnly := false, false
	var tabs []string
	for _, o := range args.opts {
		switch o.name {
		case "all":
			all = true
		case "first-only":
			firstOnly = true
		case "tabs":
			tabs = append(tabs, o.value)
			all = true
		}
	}
	if firstOnly {
		all = false
	}
	ts, msg := parseTabStops(tabs)
	if msg != "" {
		t.warn(msg)
		return t.end(1)
	}
	return t.end(eachInput(t, args.operandStrings(e.Args), func(in io.Reader) error {
		return eachLine(t, in, func(line []byte) {
			t.writeString(unexpandLine(line, ts, all))
		})
	}))
}

// unexpandLine turns runs of blanks that reach a tab stop into tabs: only
// the leading run unless all. A lone space just before a stop stays a
// space unless more blanks follow it, as GNU unexpand keeps it.
func unexpandLine(line []byte, ts tabStops, all bool) string {
	var b strings.Builder
	col, pending, converting := 0, "", true
	lone := false // a single space deferred at a stop
	flush := func() {
		if lone {
			b.WriteByte(' ')
			lone = false
		}
		b.WriteString(pending)
		pending = ""
	}
	for _, c := range line {
		blank := c == ' ' || c == '\t'
		if !blank || !converting {
			flush()
			if !blank && !all {
				converting = false
			}
			if c == '\n' {
				col, converting = 0, true
			} else if c == '\b' {
				col = max(col-1, 0)
			} else if c == '\t' {
				if next := ts.next(col); next >= 0 {
					col = next
				} else {
					col++
				}
			} else {
				col++
			}
			b.WriteByte(c)
			continue
		}
		next := ts.next(col)
		if c == '\t' {
			if next < 0 {
				flush()
				b.WriteByte('\t')
				col++
				continue
			}
			lone = false
			pending = ""
			b.WriteByte('\t')
			col = next
			continue
		}
		if lone {
			// More blanks follow the deferred space: it was a tab.
			b.WriteByte('\t')
			lone = false
		}
		pending += " "
		col++
		if next >= 0 && col == next {
			if pending == " " {
				lone, pending = true, ""
			} else {
				b.WriteByte('\t')
				pending = ""
			}
		}
	}
	flush()
	return b.String()
}
