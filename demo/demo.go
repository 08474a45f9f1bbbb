// Package demo holds gatehouse's worked examples (G-15): small programs that
// build a workspace, run lines through it and print what happened as a
// table. Their printed tables are pinned as golden files.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"gatehouse/internal/lazy"
)

// ErrUnknown is a demo name that does not exist.
var ErrUnknown = errors.New("unknown demo")

// ConsoleFunc opens the console on the incident scenario, passing on the
// demo's own arguments (--quiet, --db), and returns when the human quits.
// Package demo does not import the console, which sits above it: whoever
// runs a demo passes one in (Options.Console).
type ConsoleFunc func(ctx context.Context, args []string, stdout io.Writer) error

// Options wire a demo to what lives above package demo.
type Options struct {
	// Console opens the console for `demo incident` without --headless;
	// nil makes that demo say the console is not available.
	Console ConsoleFunc
}

type demoFunc func(ctx context.Context, args []string, w io.Writer, opts Options) error

var demos = lazy.Value[map[string]demoFunc]{New: func() map[string]demoFunc {
	return map[string]demoFunc{
		"permissions": func(ctx context.Context, _ []string, w io.Writer, _ Options) error { return Permissions(ctx, w) },
		"policy":      func(ctx context.Context, _ []string, w io.Writer, _ Options) error { return Policy(ctx, w) },
		"incident":    Incident,
		"ask":         func(ctx context.Context, _ []string, w io.Writer, _ Options) error { return Ask(ctx, w) },
		"ask-pending": func(ctx context.Context, _ []string, w io.Writer, _ Options) error { return AskPending(ctx, w) },
	}
}}

// Names lists the demos.
func Names() []string {
	names := make([]string, 0, len(demos.Get()))
	for n := range demos.Get() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Run runs the demo called name, printing to w.
func Run(ctx context.Context, name string, args []string, w io.Writer, opts Options) error {
	d, ok := demos.Get()[name]
	if !ok {
		return fmt.Errorf("%w %q (demos: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	return d(ctx, args, w, opts)
}

// table prints rows under a header, aligned.
type table struct {
	header []string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.header, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// oneLine shows a multi-line text in one table cell.
func oneLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "\n", " ⏎ ")
}
