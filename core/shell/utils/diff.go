package utils

import (
	"bytes"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

const diffHelp = `Usage: diff [OPTION]... FILES
Compare FILES line by line.

Mandatory arguments to long options are mandatory for short options too.
      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context=NUM     output NUM (default 3) lines of copied context
  -u, -U NUM, --unified=NUM     output NUM (default 3) lines of unified context
  -p, --show-c-function         show which C function each change is in
  -F, --show-function-line=RE   show the most recent line matching RE
  -y, --side-by-side            output in two columns
  -W, --width=NUM               output at most NUM (default 130) print columns
      --suppress-common-lines   do not output common lines
  -t, --expand-tabs             expand tabs to spaces in output
  -r, --recursive                 recursively compare any subdirectories found
  -N, --new-file                  treat absent files as empty
      --label LABEL             use LABEL instead of file name and timestamp
                                  (can be repeated)
  -i, --ignore-case               ignore case differences in file contents
  -b, --ignore-space-change       ignore changes in the amount of white space
  -w, --ignore-all-space          ignore all white space
  -a, --text                      treat all files as text
      --color[=WHEN]              accepted; output is never coloured
      --help                   display this help and exit
  -v, --version                output version information and exit

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
`

var diffOpts = []optDef{
	{long: "normal"},
	{short: 'q', long: "brief"},
	{short: 's', long: "report-identical-files"},
	{short: 'u'},
	{short: 'U', long: "unified", arg: needArg},
	{short: 'c'},
	{short: 'C', long: "context", arg: needArg},
	{short: 'p', long: "show-c-function"},
	{short: 'F', long: "show-function-line", arg: needArg},
	{short: 'y', long: "side-by-side"},
	{short: 'W', long: "width", arg: needArg},
	{long: "suppress-common-lines"},
	{short: 't', long: "expand-tabs"},
	{short: 'r', long: "recursive"},
	{short: 'N', long: "new-file"},
	{long: "label", arg: needArg},
	{short: 'i', long: "ignore-case"},
	{short: 'b', long: "ignore-space-change"},
	{short: 'w', long: "ignore-all-space"},
	{short: 'a', long: "text"},
	{long: "color", arg: maybeArg},
	{short: 'v'},
}

// diffUtility makes the diff utility (see builtins).
func diffUtility(string) *Utility {
	return &Utility{
		Name:        "diff",
		Run:         runDiff,
		Operands:    plainOperands(diffOpts, parseMode{}, Read),
		OperandExit: 2,
		Voice:       quotedVoice("diff"),
		Help:        diffHelp,
	}
}

type diffConfig struct {
	brief, identical, recursive, newFile bool
	unified, contextFormat               bool
	sideBySide, suppressCommon           bool
	expandTabs                           bool
	width                                int // -y's total columns
	context                              int
	ignoreCase, ignoreSpace, ignoreAll   bool
	text                                 bool
	labels                               []string
	function                             *regexp.Regexp // -p, -F: shown on hunk headers
	cLocaleTime                          bool           // -c's stamps: C locale's format
	optionText                           string         // the options as typed, for "diff -ru a/x b/x"
	loc                                  *time.Location
}

type diffRun struct {
	t      *tool
	cfg    *diffConfig
	status int
}

func runDiff(e *Env) (int, error) {
	t := newTool(e, "diff", diffHelp, 2)
	// diffutils prefixes its hint with the program name, unlike coreutils.
	usage := func(msg string) (int, error) {
		t.warn(msg)
		t.warn("Try 'diff --help' for more information.")
		return t.end(2)
	}
	args, uerr := parseArgs(e.Args, diffOpts, parseMode{})
	if uerr != nil {
		return usage(uerr.msg)
	}
	if args.has("help") {
		t.writeString(diffHelp)
		return t.end(0)
	}
	if args.has("version") {
		t.writeString("diff (GNU diffutils) 3.10\n")
		return t.end(0)
	}
	cfg := &diffConfig{context: -1, width: 130, loc: dateZone(e.Getenv("TZ"))}
	// One output style only; the context is the largest asked for.
	style := ""
	setStyle := func(s string) bool {
		if style != "" && style != s {
			return false
		}
		style = s
		return true
	}
	var functions []string
	for _, o := range args.opts {
		switch o.name {
		case "brief":
			cfg.brief = true
		case "report-identical-files":
			cfg.identical = true
		case "normal", "u", "unified", "c", "context", "side-by-side":
			s := map[string]string{"u": "unified", "c": "context"}[o.name]
			if s == "" {
				s = o.name
			}
			if !setStyle(s) {
				return usage("conflicting output style options")
			}
			n := 3
			if o.name == "unified" || o.name == "context" {
				var err error
				if n, err = strconv.Atoi(o.value); err != nil || n < 0 {
					return usage("invalid context length " + quoteAlways(o.value))
				}
			}
			if s != "normal" && s != "side-by-side" {
				cfg.context = max(cfg.context, n)
			}
		case "show-c-function":
			functions = append(functions, "^[[:alpha:]$_]")
		case "show-function-line":
			functions = append(functions, o.value)
		case "width":
			n, err := strconv.Atoi(o.value)
			if err != nil || n <= 0 {
				return usage("invalid width " + quoteAlways(o.value))
			}
			cfg.width = n
			// A side-by-side line is built whole, and pads to half the
			// width: a width over 64 KiB asks the line's memory budget
			// for it first (G-12.3).
			if n > wideField && e.Grow(int64(n)) != nil {
				return t.end(2)
			}
		case "suppress-common-lines":
			cfg.suppressCommon = true
		case "expand-tabs":
			cfg.expandTabs = true
		case "recursive":
			cfg.recursive = true
		case "new-file":
			cfg.newFile = true
		case "label":
			cfg.labels = append(cfg.labels, o.value)
		case "ignore-case":
			cfg.ignoreCase = true
		case "ignore-space-change":
			cfg.ignoreSpace = true
		case "ignore-all-space":
			cfg.ignoreAll = true
		case "text":
			cfg.text = true
		case "v":
			t.writeString("diff (GNU diffutils) 3.10\n")
			return t.end(0)
		}
	}
	// Keep the options as typed: recursive diffs repeat them per file.
	var typed []string
	for i := 1; i < len(e.Args); i++ {
		if !containsInt(args.operands, i) && e.Args[i] != "--" {
			typed = append(typed, e.Args[i])
		}
	}
	cfg.optionText = strings.Join(typed, " ")
	if cfg.context < 0 {
		cfg.context = 3
	}
	cfg.cLocaleTime = true
	for _, name := range []string{"LC_ALL", "LC_TIME", "LANG"} {
		if v := e.Getenv(name); v != "" {
			cfg.cLocaleTime = v == "C" || v == "POSIX"
			break
		}
	}
	cfg.unified, cfg.contextFormat, cfg.sideBySide = style == "unified", style == "context", style == "side-by-side"
	if len(functions) > 0 {
		re, err := diffFunctionRegexp(functions)
		if err != nil {
			t.warn(err.Error())
			return t.end(2)
		}
		cfg.function = re
	}
	ops := args.operandStrings(e.Args)
	switch {
	case len(ops) == 0:
		return usage("missing operand after 'diff'")
	case len(ops) == 1:
		return usage("missing operand after " + quoteAlways(ops[0]))
	case len(ops) > 2:
		return usage("extra operand " + quoteAlways(ops[2]))
	}
	d := &diffRun{t: t, cfg: cfg}
	d.top(ops[0], ops[1])
	return t.end(d.status)
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// raise keeps the worst status seen: trouble beats difference.
func (d *diffRun) raise(s int) { d.status = max(d.status, s) }

// top compares the two operands: files, directories, or a file against
// the same name inside a directory.
func (d *diffRun) top(left, right string) {
	li, lerr := d.stat(left)
	ri, rerr := d.stat(right)
	if lerr != nil || rerr != nil {
		if d.cfg.newFile && (lerr == nil) != (rerr == nil) && (isNotExist(lerr) || isNotExist(rerr)) {
			d.files(left, right, li, ri)
			return
		}
		for _, x := range []struct {
			name string
			err  error
		}{{left, lerr}, {right, rerr}} {
			if x.err != nil {
				d.t.warn(quoteIfNeeded(x.name) + ": " + errText(x.err))
			}
		}
		d.raise(2)
		return
	}
	isDir := func(i fs.FileInfo) bool { return i != nil && i.IsDir() } // "-" has no info
	switch {
	case isDir(li) && isDir(ri):
		d.dirs(left, right)
	case isDir(li):
		d.top(path.Join(left, baseName(right, "")), right)
	case isDir(ri):
		d.top(left, path.Join(right, baseName(left, "")))
	default:
		d.files(left, right, li, ri)
	}
}

func (d *diffRun) stat(name string) (fs.FileInfo, error) {
	if name == "-" {
		return nil, nil
	}
	return statOperand(d.t.env, name, true)
}

// dirs compares two directories entry by entry, in name order.
func (d *diffRun) dirs(left, right string) {
	names := map[string]int{} // 1 left, 2 right, 3 both
	for side, dir := range []string{left, right} {
		entries, err := d.t.env.FS.ReadDir(d.t.abs(dir))
		if err != nil {
			d.t.warn(quoteIfNeeded(dir) + ": " + errText(err))
			d.raise(2)
			return
		}
		for _, ent := range entries {
			names[ent.Name()] |= 1 << side
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		if d.t.stopped() {
			return
		}
		l, r := path.Join(left, n), path.Join(right, n)
		switch names[n] {
		case 1, 2:
			if d.cfg.newFile {
				li, _ := d.stat(l)
				ri, _ := d.stat(r)
				if (li == nil || !li.IsDir()) && (ri == nil || !ri.IsDir()) {
					d.entryPair(l, r, li, ri)
					continue
				}
			}
			where, what := left, n
			if names[n] == 2 {
				where = right
			}
			d.t.writeString("Only in " + where + ": " + what + "\n")
			d.raise(1)
		case 3:
			li, lerr := d.stat(l)
			ri, rerr := d.stat(r)
			if lerr != nil || rerr != nil {
				d.top(l, r)
				continue
			}
			switch {
			case li.IsDir() && ri.IsDir():
				if d.cfg.recursive {
					d.dirs(l, r)
				} else {
					d.t.writeString("Common subdirectories: " + l + " and " + r + "\n")
				}
			case li.IsDir() != ri.IsDir():
				kind := func(i fs.FileInfo) string {
					if i.IsDir() {
						return "directory"
					}
					return "regular file"
				}
				d.t.writeString("File " + l + " is a " + kind(li) + " while file " + r + " is a " + kind(ri) + "\n")
				d.raise(1)
			default:
				d.entryPair(l, r, li, ri)
			}
		}
	}
}

// entryPair diffs two files found inside compared directories, with the
// "diff OPTIONS a/x b/x" line GNU prints before their differences.
func (d *diffRun) entryPair(l, r string, li, ri fs.FileInfo) {
	if d.cfg.brief {
		d.filesWithHeader(l, r, li, ri, "")
		return
	}
	header := "diff "
	if d.cfg.optionText != "" {
		header += d.cfg.optionText + " "
	}
	// GNU names the pair by its labels when --label was given.
	ln, rn := l, r
	if len(d.cfg.labels) > 0 {
		ln = d.cfg.labels[0]
	}
	if len(d.cfg.labels) > 1 {
		rn = d.cfg.labels[1]
	}
	d.filesWithHeader(l, r, li, ri, header+ln+" "+rn+"\n")
}

func (d *diffRun) files(l, r string, li, ri fs.FileInfo) {
	d.filesWithHeader(l, r, li, ri, "")
}

// diffFile is one side's content split into lines.
type diffFile struct {
	name    string
	data    []byte
	lines   []string // with their newline, if any
	modTime time.Time
	missing bool
}

func (d *diffRun) load(name string, info fs.FileInfo) (*diffFile, bool) {
	f := &diffFile{name: name}
	if info == nil && name != "-" {
		f.missing = true
		return f, true
	}
	in, closeIn, err := openOperand(d.t, name)
	if err != nil {
		d.t.warn(quoteIfNeeded(name) + ": " + errText(err))
		d.raise(2)
		return nil, false
	}
	data, err := readAllCtx(d.t, in)
	closeIn()
	if err != nil {
		d.t.warn(quoteIfNeeded(name) + ": " + errText(err))
		d.raise(2)
		return nil, false
	}
	f.data = data
	// Standard input and process substitutions are pipes, whose time
	// is that of their last write: now.
	f.modTime = time.Now()
	if info != nil && !info.ModTime().IsZero() {
		f.modTime = info.ModTime()
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			f.lines = append(f.lines, string(data))
			break
		}
		f.lines = append(f.lines, string(data[:i+1]))
		data = data[i+1:]
	}
	return f, true
}

func (d *diffRun) filesWithHeader(l, r string, li, ri fs.FileInfo, header string) {
	a, ok := d.load(l, li)
	if !ok {
		return
	}
	b, ok := d.load(r, ri)
	if !ok {
		return
	}
	if d.cfg.sideBySide && !d.cfg.brief {
		// -y shows every line, so equal files print too (exit 0).
		aIDs, bIDs := d.ids(a.lines, b.lines)
		changes := diffLines(aIDs, bIDs, 0)
		if len(changes) > 0 {
			d.raise(1)
		}
		var out strings.Builder
		out.WriteString(header)
		d.sideBySide(&out, a, b, changes)
		d.t.writeString(out.String())
		return
	}
	if bytes.Equal(a.data, b.data) && a.missing == b.missing {
		if d.cfg.identical {
			d.t.writeString("Files " + l + " and " + r + " are identical\n")
		}
		return
	}
	binary := !d.cfg.text && (bytes.IndexByte(a.data, 0) >= 0 || bytes.IndexByte(b.data, 0) >= 0)
	if d.cfg.brief || binary {
		aIDs, bIDs := d.ids(a.lines, b.lines)
		changes := diffLines(aIDs, bIDs, 0)
		if len(changes) == 0 && !binary {
			return
		}
		what := "Files "
		if binary && !d.cfg.brief {
			what = "Binary files "
		}
		d.t.writeString(header + what + l + " and " + r + " differ\n")
		d.raise(1)
		return
	}
	aIDs, bIDs := d.ids(a.lines, b.lines)
	context := 0
	if d.cfg.unified || d.cfg.contextFormat {
		context = d.cfg.context
	}
	changes := diffLines(aIDs, bIDs, context)
	if len(changes) == 0 {
		if d.cfg.identical {
			d.t.writeString("Files " + l + " and " + r + " are identical\n")
		}
		return
	}
	d.raise(1)
	var out strings.Builder
	out.WriteString(header)
	switch {
	case d.cfg.unified:
		d.unified(&out, a, b, changes)
	case d.cfg.contextFormat:
		d.context(&out, a, b, changes)
	default:
		diffNormal(&out, a, b, changes)
	}
	d.t.writeString(out.String())
}

// ids numbers the lines so equal lines (under -i -b -w) share an id. A
// last line without its newline never equals one with it, as in GNU diff.
func (d *diffRun) ids(a, b []string) ([]int, []int) {
	table := map[string]int{}
	conv := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, line := range lines {
			key := d.normalize(line)
			id, ok := table[key]
			if !ok {
				id = len(table)
				table[key] = id
			}
			out[i] = id
		}
		return out
	}
	return conv(a), conv(b)
}

func (d *diffRun) normalize(line string) string {
	body, nl := strings.CutSuffix(line, "\n")
	switch {
	case d.cfg.ignoreAll:
		body = strings.Join(strings.Fields(body), "")
	case d.cfg.ignoreSpace:
		body = strings.Join(strings.Fields(body), " ")
		if len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
			body = " " + body
		}
	}
	if d.cfg.ignoreCase {
		body = strings.ToLower(body)
	}
	if !nl {
		body += "\x00no newline"
	}
	return body
}

// diffRange spells a 1-based line range for the normal format.
func diffRange(from, to int) string {
	if to-from == 1 {
		return strconv.Itoa(from + 1)
	}
	if to == from {
		return strconv.Itoa(from)
	}
	return strconv.Itoa(from+1) + "," + strconv.Itoa(to)
}

// writeLine writes one line with its marker, and GNU's note when the
// file ends without a newline.
func diffWriteLine(out *strings.Builder, marker, line string) {
	out.WriteString(marker)
	out.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		out.WriteString("\n\\ No newline at end of file\n")
	}
}

func diffNormal(out *strings.Builder, a, b *diffFile, changes []diffChange) {
	for _, c := range changes {
		switch {
		case c.bFrom == c.bTo:
			out.WriteString(diffRange(c.aFrom, c.aTo) + "d" + strconv.Itoa(c.bFrom) + "\n")
		case c.aFrom == c.aTo:
			out.WriteString(strconv.Itoa(c.aFrom) + "a" + diffRange(c.bFrom, c.bTo) + "\n")
		default:
			out.WriteString(diffRange(c.aFrom, c.aTo) + "c" + diffRange(c.bFrom, c.bTo) + "\n")
		}
		for _, line := range a.lines[c.aFrom:c.aTo] {
			diffWriteLine(out, "< ", line)
		}
		if c.aFrom != c.aTo && c.bFrom != c.bTo {
			out.WriteString("---\n")
		}
		for _, line := range b.lines[c.bFrom:c.bTo] {
			diffWriteLine(out, "> ", line)
		}
	}
}

// unifiedRange spells "start,count" for a hunk header.
func unifiedRange(from, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(from) + ",0"
	case 1:
		return strconv.Itoa(from + 1)
	}
	return strconv.Itoa(from+1) + "," + strconv.Itoa(count)
}

func (d *diffRun) unifiedHeader(out *strings.Builder, marker string, f *diffFile, label int) {
	out.WriteString(marker + " ")
	if label < len(d.cfg.labels) {
		out.WriteString(d.cfg.labels[label] + "\n")
		return
	}
	stamp := f.modTime
	if f.missing {
		stamp = time.Unix(0, 0)
	}
	layout := "2006-01-02 15:04:05.000000000 -0700"
	if d.cfg.contextFormat && d.cfg.cLocaleTime {
		layout = "Mon Jan _2 15:04:05 2006" // POSIX's, in the C locale
	}
	out.WriteString(f.name + "\t" + stamp.In(d.cfg.loc).Format(layout) + "\n")
}

// diffHunk is a run of changes shown together with the context lines
// around them: a[aStart:aEnd] against b[bStart:bEnd].
type diffHunk struct {
	changes                    []diffChange
	aStart, aEnd, bStart, bEnd int
}

// diffHunks groups changes whose unchanged gaps fit within twice the
// context, as GNU diff does for both context formats.
func diffHunks(changes []diffChange, ctx, aLen, bLen int) []diffHunk {
	var hunks []diffHunk
	for i := 0; i < len(changes); {
		j := i
		for j+1 < len(changes) && changes[j+1].aFrom-changes[j].aTo <= 2*ctx {
			j++
		}
		first, last := changes[i], changes[j]
		hunks = append(hunks, diffHunk{
			changes: changes[i : j+1],
			aStart:  max(first.aFrom-ctx, 0), bStart: max(first.bFrom-ctx, 0),
			aEnd: min(last.aTo+ctx, aLen), bEnd: min(last.bTo+ctx, bLen),
		})
		i = j + 1
	}
	return hunks
}

func (d *diffRun) unified(out *strings.Builder, a, b *diffFile, changes []diffChange) {
	d.unifiedHeader(out, "---", a, 0)
	d.unifiedHeader(out, "+++", b, 1)
	fn := d.functionFinder(a)
	for _, h := range diffHunks(changes, d.cfg.context, len(a.lines), len(b.lines)) {
		out.WriteString("@@ -" + unifiedRange(h.aStart, h.aEnd-h.aStart) + " +" + unifiedRange(h.bStart, h.bEnd-h.bStart) + " @@")
		out.WriteString(fn(h.aStart) + "\n")
		pos := h.aStart
		for _, c := range h.changes {
			for _, line := range a.lines[pos:c.aFrom] {
				diffWriteLine(out, " ", line)
			}
			for _, line := range a.lines[c.aFrom:c.aTo] {
				diffWriteLine(out, "-", line)
			}
			for _, line := range b.lines[c.bFrom:c.bTo] {
				diffWriteLine(out, "+", line)
			}
			pos = c.aTo
		}
		for _, line := range a.lines[pos:h.aEnd] {
			diffWriteLine(out, " ", line)
		}
	}
}
