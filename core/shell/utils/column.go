package utils

import (
	"io"
	"strconv"
	"strings"
)

const columnHelp = `
Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -N, --table-columns <names>      comma separated columns names
 -l, --table-columns-limit <num>  maximal number of input columns
 -R, --table-right <columns>      right align text in these columns
 -s, --separator <string>         possible table delimiters
 -o, --output-separator <string>  columns separator for table output
                                    (default is two spaces)
 -c, --output-width <width>       width of output in number of characters
 -x, --fillrows                   fill rows before columns

 -h, --help                       display this help
 -V, --version                    display version

For more details see column(1).
`

var columnOpts = []optDef{
	{short: 't', long: "table"},
	{short: 'N', long: "table-columns", arg: needArg},
	{short: 'l', long: "table-columns-limit", arg: needArg},
	{short: 'R', long: "table-right", arg: needArg},
	{short: 's', long: "separator", arg: needArg},
	{short: 'o', long: "output-separator", arg: needArg},
	{short: 'c', long: "output-width", arg: needArg},
	{short: 'x', long: "fillrows"},
	{short: 'L', long: "keep-empty-lines"},
	{short: 'h', long: "help"},
	{short: 'V', long: "version"},
}

// columnUtility makes the column utility (see builtins).
func columnUtility(string) *Utility {
	return &Utility{Name: "column", Run: runColumn, Operands: inputOperands(columnOpts, parseMode{}), OperandExit: 1, Help: columnHelp, Keeps: KeepsAll}
}

// columnConfig is a parsed column command line.
type columnConfig struct {
	table, fillRows, keepEmpty bool
	names                      []string
	limit                      int
	right                      map[int]bool
	seps                       string // "" means runs of whitespace
	outSep                     string
	width                      int
}

func runColumn(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "column", defs: columnOpts, usageExit: 1, help: columnHelp,
		version: "column from util-linux 2.38.1\n"})
	if done {
		return t.end(status)
	}
	cfg := &columnConfig{outSep: "  ", width: 80, right: map[int]bool{}}
	if w, err := strconv.Atoi(e.Getenv("COLUMNS")); err == nil && w > 0 {
		cfg.width = w
	}
	for _, o := range args.opts {
		switch o.name {
		case "table":
			cfg.table = true
		case "table-columns":
			cfg.names = strings.Split(o.value, ",")
		case "table-columns-limit", "output-width":
			n, err := strconv.Atoi(o.value)
			if err != nil || n < 0 {
				t.warn("invalid columns limit argument: '" + o.value + "'")
				return t.end(1)
			}
			if o.name == "output-width" {
				cfg.width = n
			} else {
				cfg.limit = n
			}
		case "table-right":
			for _, f := range strings.Split(o.value, ",") {
				if n, err := strconv.Atoi(f); err == nil {
					cfg.right[n-1] = true
				}
			}
		case "separator":
			cfg.seps = o.value
		case "output-separator":
			cfg.outSep = o.value
		case "fillrows":
			cfg.fillRows = true
		case "keep-empty-lines":
			cfg.keepEmpty = true
		case "h":
			t.writeString(columnHelp)
			return t.end(0)
		case "V":
			t.writeString("column from util-linux 2.38.1\n")
			return t.end(0)
		}
	}
	var lines []string
	status = eachInput(t, args.operandStrings(e.Args), func(in io.Reader) error {
		return eachLine(t, in, func(line []byte) {
			lines = append(lines, strings.TrimSuffix(string(line), "\n"))
		})
	})
	if cfg.table || len(cfg.names) > 0 {
		columnTable(t, cfg, lines)
	} else {
		columnFill(t, cfg, lines)
	}
	return t.end(status)
}

// splitCells cuts a table line: at any of -s's characters (each one a
// boundary), or at runs of blanks.
func (cfg *columnConfig) splitCells(line string) []string {
	var cells []string
	if cfg.seps == "" {
		cells = strings.Fields(line)
	} else {
		start := 0
		for i := 0; i < len(line); i++ {
			if strings.IndexByte(cfg.seps, line[i]) >= 0 {
				cells = append(cells, line[start:i])
				start = i + 1
			}
		}
		cells = append(cells, line[start:])
	}
	if cfg.limit > 0 && len(cells) > cfg.limit {
		sep := " "
		if cfg.seps != "" {
			sep = cfg.seps[:1]
		}
		cells = append(cells[:cfg.limit-1], strings.Join(cells[cfg.limit-1:], sep))
	}
	return cells
}

// columnTable prints -t: every column as wide as its widest cell, the
// last one unpadded unless right-aligned.
func columnTable(t *tool, cfg *columnConfig, lines []string) {
	var rows [][]string
	if len(cfg.names) > 0 {
		rows = append(rows, cfg.names)
	}
	// The cells are charged (the lines' bytes were, as they were read):
	// three short fields a line held 130 bytes a line nothing counted
	// (G-12.3).
	var held int64
	for _, line := range lines {
		if strings.TrimSpace(line) == "" && !cfg.keepEmpty {
			continue
		}
		cells := cfg.splitCells(line)
		rows = append(rows, cells)
		if held += 48 + 16*int64(cap(cells)); held >= 64<<10 {
			if t.env.Grow(held) != nil || t.stopped() {
				return
			}
			held = 0
		}
	}
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		// A short row is padded out with empty cells, as util-linux does.
		for i := range widths {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			if i > 0 {
				b.WriteString(cfg.outSep)
			}
			pad := widths[i] - len(c)
			switch {
			case cfg.right[i]:
				b.WriteString(strings.Repeat(" ", pad) + c)
			case i == len(widths)-1:
				b.WriteString(c)
			default:
				b.WriteString(c + strings.Repeat(" ", pad))
			}
		}
		b.WriteByte('\n')
		t.writeString(b.String())
	}
}

// columnFill prints the default display: entries in columns (filled down,
// or across with -x) within the output width, separated by tabs.
func columnFill(t *tool, cfg *columnConfig, lines []string) {
	entries := lines[:0] // the blank lines are dropped in place
	maxLen := 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		entries = append(entries, l)
		maxLen = max(maxLen, len(l))
	}
	if len(entries) == 0 {
		return
	}
	colWidth := (maxLen + 8) &^ 7
	cols := cfg.width / colWidth
	if cols <= 1 {
		for _, e := range entries {
			t.writeString(e + "\n")
		}
		return
	}
	rows := (len(entries) + cols - 1) / cols
	if !cfg.fillRows {
		cols = (len(entries) + rows - 1) / rows
	}
	for r := 0; r < rows; r++ {
		var b strings.Builder
		chcnt, endcol := 0, colWidth
		for c := 0; c < cols; c++ {
			i := c*rows + r
			if cfg.fillRows {
				i = r*cols + c
			}
			if i >= len(entries) {
				break
			}
			if c > 0 {
				for {
					next := (chcnt + 8) &^ 7
					if next > endcol {
						break
					}
					b.WriteByte('\t')
					chcnt = next
				}
				endcol += colWidth
			}
			b.WriteString(entries[i])
			chcnt += len(entries[i])
		}
		b.WriteByte('\n')
		t.writeString(b.String())
	}
}
