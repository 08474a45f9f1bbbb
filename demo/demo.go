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
)

// ErrUnknown is a demo name that does not exist.
var ErrUnknown = errors.New("unknown demo")

type demoFunc func(ctx context.Context, args []string, w io.Writer) error

var demos = map[string]demoFunc{
	"permissions": func(ctx context.Context, _ []string, w io.Writer) error { return Permissions(ctx, w) },
	"policy":      func(ctx context.Context, _ []string, w io.Writer) error { return Policy(ctx, w) },
	"incident":    Incident,
}

// Names lists the demos.
func Names() []string {
	names := make([]string, 0, len(demos))
	for n := range demos {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Run runs the demo called name.
func Run(ctx context.Context, name string, args []string, w io.Writer) error {
	d, ok := demos[name]
	if !ok {
		return fmt.Errorf("%w %q (demos: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	return d(ctx, args, w)
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
