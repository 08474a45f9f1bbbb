package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"gatehouse/internal/nearest"
)

// flagSet is one command's flags. Parsing is Go's flag package; what it
// adds is the voice: `--help` prints the command's help on stdout and exits
// 0, and a mistake names the flag, offers the nearest one, and exits 2.
type flagSet struct {
	*flag.FlagSet
	cmd string // as the user typed it: "exec", "demo incident"
}

// newFlags starts the flags of cmd. Write each flag's usage as a sentence,
// with the name of its value between backquotes (`FILE`): the help shows
// it as `-w FILE`.
func newFlags(cmd string) *flagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // every word goes through parse
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, cmd: cmd}
}

// parse reads flags that may come before or after positional words
// (`allow ID --scope session`); words after "--" are positional as they
// are. ok is false when the command must stop: after printing its help
// (code 0) or a mistake (code 2).
func (fs *flagSet) parse(args []string, stdout, stderr io.Writer) (pos []string, code int, ok bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			writeHelp(stdout, fs)
			return nil, 0, false
		}
		if err != nil {
			return nil, fs.mistake(stderr, err), false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		// flag stops at "--" (consumed) or at the first positional word.
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// usageError says what is wrong with the command line, points at the
// command's help, and returns the usage exit code (2).
func (fs *flagSet) usageError(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "gatehouse %s: %s\n", fs.cmd, fmt.Sprintf(format, a...))
	fmt.Fprintf(stderr, "Run 'gatehouse %s --help' for its flags and examples.\n", fs.cmd)
	return 2
}

// mistake words a parse error of the flag package in the command's voice.
func (fs *flagSet) mistake(stderr io.Writer, err error) int {
	msg := err.Error()
	if name, found := strings.CutPrefix(msg, "flag provided but not defined: -"); found {
		text := "unknown flag " + dashed(name)
		switch near, all := fs.nearest(name), fs.names(); {
		case all == "":
			text += "; " + fs.cmd + " takes no flags"
		case near != "":
			text += "; did you mean " + dashed(near) + "?"
		default:
			text += "; did you mean one of " + all + "?"
		}
		return fs.usageError(stderr, "%s", text)
	}
	if name, found := strings.CutPrefix(msg, "flag needs an argument: -"); found {
		valueName := "a value"
		if f := fs.Lookup(name); f != nil {
			if v, _ := flag.UnquoteUsage(f); v != "" {
				valueName = v
			}
		}
		return fs.usageError(stderr, "flag %s needs %s after it", dashed(name), valueName)
	}
	return fs.usageError(stderr, "%s", msg)
}

// dashed spells a flag the way the help does: -w, --db.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// names lists the command's flags, for a mistake nothing resembles.
func (fs *flagSet) names() string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) { out = append(out, dashed(f.Name)) })
	return strings.Join(out, ", ")
}

// nearest is the defined flag a mistyped name most likely meant, or "".
func (fs *flagSet) nearest(name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return closest(name, names)
}

// closest is the word of words a typo most likely meant: a word it is a
// prefix of, or one within a few edits (about a third of its length);
// "" when none is near enough to suggest.
func closest(typed string, words []string) string {
	best, bestDist := "", 0
	for _, w := range words {
		d := nearest.Distance(strings.ToLower(typed), w)
		if len(typed) >= 2 && strings.HasPrefix(w, typed) {
			d = 1
		}
		if limit := max(len(w), len(typed))/3 + 1; d <= limit && (best == "" || d < bestDist) {
			best, bestDist = w, d
		}
	}
	return best
}

// writeHelp prints a command's help: its usage line, what it does, one
// sentence (or more) per flag, and examples.
func writeHelp(w io.Writer, fs *flagSet) {
	h := helpOf(fs.cmd)
	fmt.Fprintf(w, "usage: gatehouse %s\n\n", h.synopsis)
	for _, l := range wrapText(h.about, 78) {
		fmt.Fprintln(w, l)
	}
	type row struct{ left, text string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		value, usage := flag.UnquoteUsage(f)
		left := dashed(f.Name)
		if value != "" {
			left += " " + value
		}
		rows = append(rows, row{left, usage})
		width = max(width, len(left))
	})
	// Single-letter flags first, as the usage line writes them.
	sort.SliceStable(rows, func(i, j int) bool {
		return !strings.HasPrefix(rows[i].left, "--") && strings.HasPrefix(rows[j].left, "--")
	})
	if len(rows) > 0 {
		fmt.Fprintln(w, "\nflags:")
	}
	for _, r := range rows {
		lines := wrapText(r.text, max(78-width-4, 30))
		for i, l := range lines {
			left := ""
			if i == 0 {
				left = r.left
			}
			fmt.Fprintf(w, "  %-*s  %s\n", width, left, l)
		}
	}
	if len(h.examples) > 0 {
		fmt.Fprintln(w, "\nexamples:")
		for _, e := range h.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

// wrapText breaks text into lines of at most width bytes at spaces; a
// paragraph break ("\n\n") stays.
func wrapText(text string, width int) []string {
	var out []string
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			out = append(out, "")
		}
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case len(line)+1+len(word) > width:
				out = append(out, line)
				line = word
			default:
				line += " " + word
			}
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}
