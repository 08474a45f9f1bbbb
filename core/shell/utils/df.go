package utils

import (
	"strconv"
	"strings"

	"gatehouse/core/vfs"
)

// df reports the workspace's mounts, never the host's disks (G-12.1): a
// memory mount's size and what its files take, a host mount's write quota
// and what was written against it ("-" when it has none: the host disk's
// figures are not the workspace's to show), in GNU df 9's layout.

const dfHelp = `Usage: df [OPTION]... [FILE]...
Show information about the file system on which each FILE resides,
or all file systems by default.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all             include pseudo, duplicate, inaccessible file systems
  -B, --block-size=SIZE  scale sizes by SIZE before printing them; e.g.,
                           '-BM' prints sizes in units of 1,048,576 bytes;
                           see SIZE format below
  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)
  -H, --si              print sizes in powers of 1000 (e.g., 1.1G)
  -i, --inodes          list inode information instead of block usage
  -k                    like --block-size=1K
  -l, --local           limit listing to local file systems
      --no-sync         do not invoke sync before getting usage info (default)
  -P, --portability     use the POSIX output format
      --sync            invoke sync before getting usage info
      --total           elide all entries insignificant to available space,
                          and produce a grand total
  -t, --type=TYPE       limit listing to file systems of type TYPE
  -T, --print-type      print file system type
  -x, --exclude-type=TYPE   limit listing to file systems not of type TYPE
      --help        display this help and exit
      --version     output version information and exit

A workspace's file systems are its mounts: "memory" (its size, and what its
files take), "host" (its write quota, or "-" without one) and "dev".
`

var dfOpts = []optDef{
	{short: 'a', long: "all"},
	{short: 'B', long: "block-size", arg: needArg},
	{short: 'h', long: "human-readable"},
	{short: 'H', long: "si"},
	{short: 'i', long: "inodes"},
	{short: 'k'},
	{short: 'l', long: "local"},
	{long: "no-sync"},
	{long: "sync"},
	{short: 'P', long: "portability"},
	{long: "total"},
	{short: 't', long: "type", arg: needArg},
	{short: 'T', long: "print-type"},
	{short: 'x', long: "exclude-type", arg: needArg},
	{short: 'v'},
}

// dfUtility makes the df utility (see builtins).
func dfUtility(string) *Utility {
	return &Utility{
		Name:        "df",
		Run:         runDf,
		Operands:    plainOperands(dfOpts, parseMode{}, Read),
		OperandExit: 1,
		Help:        dfHelp,
	}
}

// dfConfig is what df's options chose.
type dfConfig struct {
	all, human, si, inodes, posix, total, printType bool
	block                                           int64 // bytes per block shown
	types, excluded                                 map[string]bool
}

func runDf(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "df", defs: dfOpts, usageExit: 1, help: dfHelp})
	if done {
		return status, nil
	}
	c := dfConfig{block: 1024, types: map[string]bool{}, excluded: map[string]bool{}}
	for _, o := range args.opts {
		switch o.name {
		case "all":
			c.all = true
		case "human-readable":
			c.human, c.si = true, false
		case "si":
			c.human, c.si = true, true
		case "inodes":
			c.inodes = true
		case "k":
			c.block, c.human = 1024, false
		case "portability":
			c.posix = true
		case "total":
			c.total = true
		case "print-type":
			c.printType = true
		case "type":
			c.types[o.value] = true
		case "exclude-type":
			c.excluded[o.value] = true
		case "block-size":
			n, ok := dfBlockSize(o.value)
			if !ok {
				t.warn("invalid --block-size argument " + quoteAlways(o.value))
				return t.end(1)
			}
			c.block, c.human = n, false
		}
	}
	var spaces []vfs.Space
	status = 0
	operands := args.operandStrings(e.Args)
	for _, name := range operands {
		s, err := e.FS.Statfs(t.abs(name))
		if err != nil {
			t.warn(name + ": " + errText(err))
			status = 1
			continue
		}
		spaces = append(spaces, s)
	}
	if len(operands) == 0 {
		for _, s := range e.FS.Spaces() {
			if c.all || s.Kind != "dev" {
				spaces = append(spaces, s)
			}
		}
	}
	var rows [][]string
	var sum vfs.Space
	sum.Known = true
	for _, s := range spaces {
		if (len(c.types) > 0 && !c.types[s.Kind]) || c.excluded[s.Kind] {
			continue
		}
		rows = append(rows, c.row(s))
		sum.Size += s.Size
		sum.Used += s.Used
		sum.Known = sum.Known && s.Known
	}
	if len(rows) == 0 {
		if len(operands) == 0 || status == 0 {
			t.warn("no file systems processed")
			status = 1
		}
		return t.end(status)
	}
	if c.total {
		sum.Mount, sum.Kind = "-", "-"
		total := c.row(sum)
		total[0] = "total"
		rows = append(rows, total)
	}
	t.writeString(dfTable(append([][]string{c.header()}, rows...), c.printType))
	return t.end(status)
}

// header is df's first line for the chosen layout.
func (c *dfConfig) header() []string {
	h := []string{"Filesystem"}
	if c.printType {
		h = append(h, "Type")
	}
	switch {
	case c.inodes:
		h = append(h, "Inodes", "IUsed", "IFree", "IUse%")
	case c.human:
		h = append(h, "Size", "Used", "Avail", "Use%")
	case c.posix:
		h = append(h, strconv.FormatInt(c.block, 10)+"-blocks", "Used", "Available", "Capacity")
	default:
		h = append(h, dfBlockName(c.block)+"-blocks", "Used", "Available", "Use%")
	}
	return append(h, "Mounted on")
}

// row is one mount's line.
func (c *dfConfig) row(s vfs.Space) []string {
	r := []string{s.Kind}
	if c.printType {
		r = append(r, s.Kind)
	}
	if c.inodes || !s.Known {
		// Inodes are not counted; a host mount's disk is not described.
		return append(r, "-", "-", "-", "-", s.Mount)
	}
	pct := "-"
	if s.Size > 0 {
		pct = strconv.FormatInt((s.Used*100+s.Size-1)/s.Size, 10) + "%"
	}
	if c.human {
		return append(r, c.amount(s.Size), c.amount(s.Used), c.amount(max(s.Size-s.Used, 0)), pct, s.Mount)
	}
	size, used := s.Size/c.block, (s.Used+c.block-1)/c.block // whole blocks, a partly used one taken
	return append(r, strconv.FormatInt(size, 10), strconv.FormatInt(used, 10), strconv.FormatInt(max(size-used, 0), 10), pct, s.Mount)
}

// amount renders a byte count for -h and -H, rounded up as df does.
func (c *dfConfig) amount(n int64) string {
	if n == 0 {
		return "0"
	}
	return humanSize(n, c.si)
}

// dfTable pads the columns: each as wide as its widest cell (the source
// at least 14, the type at least 4, the figures at least 5 but the
// percentage 4), the source, type and mount point aligned left, the last
// column not padded.
func dfTable(rows [][]string, printType bool) string {
	ncol := len(rows[0])
	widths := make([]int, ncol)
	for i := range widths {
		switch {
		case i == 0:
			widths[i] = 14
		case i == 1 && printType:
			widths[i] = 4
		case i == ncol-2:
			widths[i] = 4
		case i < ncol-1:
			widths[i] = 5
		}
	}
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], len(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, cell := range r {
			if i > 0 {
				b.WriteByte(' ')
			}
			pad := strings.Repeat(" ", widths[i]-len(cell))
			switch {
			case i == ncol-1:
				b.WriteString(cell)
			case i == 0 || (i == 1 && printType):
				b.WriteString(cell + pad)
			default:
				b.WriteString(pad + cell)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// dfBlockSize reads -B's SIZE: a number with an optional unit K M G T
// (powers of 1024, or of 1000 with a B after them: KB).
func dfBlockSize(s string) (int64, bool) {
	digits := strings.TrimRight(s, "KMGTPkmgtpBi")
	unit := s[len(digits):]
	n := int64(1)
	if digits != "" {
		v, err := strconv.ParseInt(digits, 10, 64)
		if err != nil || v <= 0 {
			return 0, false
		}
		n = v
	}
	if unit == "" {
		return n, true
	}
	base := int64(1024)
	u := strings.TrimSuffix(strings.TrimSuffix(unit, "iB"), "B")
	if strings.HasSuffix(unit, "B") && !strings.HasSuffix(unit, "iB") {
		base = 1000
	}
	if len(u) != 1 {
		return 0, false
	}
	p := strings.IndexByte("KMGTP", strings.ToUpper(u)[0])
	if p < 0 {
		return 0, false
	}
	for ; p >= 0; p-- {
		n *= base
	}
	return n, true
}

// dfBlockName is a block size as df's header names it: 1K, 1M, 512.
func dfBlockName(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 40, "T"}, {1 << 30, "G"}, {1 << 20, "M"}, {1 << 10, "K"}} {
		if n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
