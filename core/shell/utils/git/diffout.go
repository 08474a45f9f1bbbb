package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// diffOutput is what a diff or a log prints for each change.
type diffOutput struct {
	stat, patch, nameOnly, nameStatus, shortstat bool
	// unified is the context lines around a change (-U, --unified), when
	// unifiedSet; git's 3 otherwise.
	unified    int
	unifiedSet bool
	// wordDiff shows changed words inline, [-old-]{+new+} (--word-diff).
	wordDiff bool
	// numstat is --numstat: added and deleted lines and the name, tab
	// separated ("-" for a binary file's counts).
	numstat bool
	// filter is --diff-filter: the change letters kept (upper case) or
	// left out (lower case); "" keeps all.
	filter string
}

// filtered keeps the changes --diff-filter selects: with an upper-case
// letter only those kinds, lower-case letters leave their kinds out.
func (d diffOutput) filtered(cs []fileChange) []fileChange {
	if d.filter == "" {
		return cs
	}
	include := strings.ToLower(d.filter) != d.filter
	var out []fileChange
	for _, c := range cs {
		letter := changeLetter(c)
		if c.from != "" {
			letter = 'R'
		}
		if c.conflict {
			letter = 'U'
		}
		keep := !include || strings.IndexByte(d.filter, letter) >= 0
		if strings.IndexByte(d.filter, letter+'a'-'A') >= 0 {
			keep = false
		}
		if keep {
			out = append(out, c)
		}
	}
	return out
}

// contextLines is how many unchanged lines a hunk shows around a change.
func (d diffOutput) contextLines() int {
	if d.unifiedSet {
		return d.unified
	}
	return hunkContext
}

// parsePatchOption reads the patch options diff, log and show share:
// -U<n>, --unified[=<n>], --word-diff[=plain|none]. ok says a is one.
func (d *diffOutput) parsePatchOption(a string) (ok bool, err error) {
	switch {
	case strings.HasPrefix(a, "-U") || a == "--unified" || strings.HasPrefix(a, "--unified="):
		v := strings.TrimPrefix(strings.TrimPrefix(a, "-U"), "--unified")
		v = strings.TrimPrefix(v, "=")
		n := hunkContext
		if v != "" {
			if n, err = strconv.Atoi(v); err != nil || n < 0 {
				return true, usageErr("error: --unified expects a numerical value\n")
			}
		}
		d.unified, d.unifiedSet = n, true
		d.patch = true
	case a == "--word-diff" || a == "--word-diff=plain":
		d.wordDiff = true
	case a == "--word-diff=none":
		d.wordDiff = false
	case a == "--numstat":
		d.numstat = true
	case strings.HasPrefix(a, "--diff-filter="):
		v := strings.TrimPrefix(a, "--diff-filter=")
		for _, c := range v {
			if !strings.ContainsRune("ACDMRTUXBacdmrtuxb*", c) {
				return true, usageErr(fmt.Sprintf("error: unknown change class '%c' in --diff-filter=%s\n", c, v))
			}
		}
		d.filter = v
	case strings.HasPrefix(a, "--word-diff="):
		return true, &exitError{msg: "git: '" + a + "' is not supported here\n", code: 1}
	default:
		return false, nil
	}
	return true, nil
}

// printChanges prints a log entry's changes. compact is the one-line
// formats', which print no blank line before them.
func (r *repo) printChanges(changes []fileChange, o logOptions, compact bool) error {
	d := o.patchOut
	d.stat, d.patch, d.nameOnly, d.nameStatus = o.stat, o.patch, o.nameOnly, o.nameStat
	d.shortstat = o.shortStat
	if changes = d.filtered(changes); !d.stat && !d.shortstat && !d.patch && !d.nameOnly && !d.nameStatus && !d.numstat || len(changes) == 0 {
		return nil // a commit that changed nothing shows no separator either
	}
	if !compact {
		// git separates a message from its diff by a blank line, or by
		// "---" when both a stat and a patch follow.
		if d.stat && d.patch {
			r.g.out.WriteString("---")
		}
		r.g.out.WriteString("\n")
	}
	return r.printDiff(changes, d, nil)
}

// printDiff prints changes as git diff does; newSide, when set, reads the
// new side's content (the worktree) instead of the store.
func (r *repo) printDiff(changes []fileChange, d diffOutput, newSide blobLoader) error {
	out := r.g.out
	changes = d.filtered(changes)
	if d.numstat {
		for _, c := range changes {
			if c.binary {
				fmt.Fprintf(out, "-\t-\t%s\n", statName(c))
				continue
			}
			fmt.Fprintf(out, "%d\t%d\t%s\n", c.counts[0], c.counts[1], statName(c))
		}
		if !d.stat && !d.shortstat && !d.patch {
			return nil
		}
	}
	switch {
	case d.nameOnly:
		for _, c := range changes {
			out.WriteString(quotePath(c.path) + "\n")
		}
		return nil
	case d.nameStatus:
		for _, c := range changes {
			if c.from != "" {
				fmt.Fprintf(out, "R%03d\t%s\t%s\n", percent(c.score), quotePath(c.from), quotePath(c.path))
				continue
			}
			if c.conflict {
				fmt.Fprintf(out, "U\t%s\n", quotePath(c.path))
				continue
			}
			fmt.Fprintf(out, "%c\t%s\n", changeLetter(c), quotePath(c.path))
		}
		return nil
	}
	if d.stat || d.shortstat {
		// Both: the stat, then its summary line again, as git prints.
		if d.stat {
			r.printStat(changes, false)
		}
		if d.shortstat {
			r.printStat(changes, true)
		}
		if d.patch && len(changes) > 0 {
			out.WriteString("\n")
		}
	}
	if d.patch {
		// Conflicted paths shown against both sides come first, as git
		// prints them before the rest of the diff.
		for _, c := range changes {
			if c.conflict && c.sides[0].Mode != 0 {
				if err := r.printConflict(c, newSide); err != nil {
					return err
				}
			}
		}
		for _, c := range changes {
			switch {
			case c.conflict && c.sides[0].Mode == 0:
				fmt.Fprintf(out, "* Unmerged path %s\n", quotePath(c.path))
			case c.conflict || c.ourSide:
			default:
				if err := r.printPatch(c, newSide, d); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func changeLetter(c fileChange) byte {
	switch {
	case c.old.Hash.IsZero() && c.old.Mode == 0:
		return 'A'
	case c.new.Hash.IsZero() && c.new.Mode == 0:
		return 'D'
	case (c.old.Mode == filemode.Symlink) != (c.new.Mode == filemode.Symlink):
		return 'T'
	}
	return 'M'
}

// statWidth is the columns git's diffstat fills when not on a terminal.
const statWidth = 80

// printStat prints the diffstat as git lays it out: names, counts and a
// +/- graph scaled to 80 columns.
func (r *repo) printStat(changes []fileChange, shortOnly bool) {
	out := r.g.out
	maxLen, maxChange, numberWidth, binWidth := 0, 0, 0, 0
	files, added, deleted := 0, 0, 0
	for _, c := range changes {
		name := statName(c)
		if len(name) > maxLen {
			maxLen = len(name)
		}
		if c.conflict {
			continue // named, not counted
		}
		files++
		if c.binary {
			w := 14 + len(strconv.FormatInt(c.sizes[1], 10)) + len(strconv.FormatInt(c.sizes[0], 10))
			if w > binWidth {
				binWidth = w
			}
			numberWidth = 3
			continue
		}
		added += c.counts[0]
		deleted += c.counts[1]
		if ch := c.counts[0] + c.counts[1]; ch > maxChange {
			maxChange = ch
		}
	}
	if files == 0 && (shortOnly || maxLen == 0) {
		return
	}
	if shortOnly {
		out.WriteString(shortStat(files, added, deleted) + "\n")
		return
	}
	if w := len(strconv.Itoa(maxChange)); w > numberWidth {
		numberWidth = w
	}
	width := statWidth
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	nameWidth := maxLen
	if nameWidth+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = width*3/8 - numberWidth - 6
			if graphWidth < 6 {
				graphWidth = 6
			}
		}
		if nameWidth > width-numberWidth-6-graphWidth {
			nameWidth = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameWidth
		}
	}
	for _, c := range changes {
		name, prefix := statName(c), ""
		pad := nameWidth
		if len(name) > nameWidth {
			prefix = "..."
			pad = nameWidth - 3
			if pad < 0 {
				pad = 0
			}
			name = name[len(name)-pad:]
			if i := strings.IndexByte(name, '/'); i >= 0 {
				name = name[i:]
			}
		}
		if c.conflict {
			// git names a conflicted path with no line end of its own.
			fmt.Fprintf(out, " %s%-*s | Unmerged", prefix, pad, name)
			continue
		}
		if c.binary {
			fmt.Fprintf(out, " %s%-*s | %*s", prefix, pad, name, numberWidth, "Bin")
			oldSize, newSize := c.sizes[0], c.sizes[1]
			if oldSize == 0 && newSize == 0 {
				out.WriteString("\n")
				continue
			}
			fmt.Fprintf(out, " %d -> %d bytes\n", oldSize, newSize)
			continue
		}
		add, del := c.counts[0], c.counts[1]
		if graphWidth <= maxChange {
			total := scaleLinear(add+del, graphWidth, maxChange)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scaleLinear(add, graphWidth, maxChange)
				del = total - add
			} else {
				del = scaleLinear(del, graphWidth, maxChange)
				add = total - del
			}
		}
		sep := ""
		if c.counts[0]+c.counts[1] > 0 {
			sep = " "
		}
		fmt.Fprintf(out, " %s%-*s | %*d%s%s%s\n", prefix, pad, name, numberWidth, c.counts[0]+c.counts[1], sep, strings.Repeat("+", add), strings.Repeat("-", del))
	}
	if files == 0 {
		out.WriteString(" 0 files changed\n")
		return
	}
	out.WriteString(shortStat(files, added, deleted) + "\n")
}

// statName is a change's name in a diffstat.
func statName(c fileChange) string {
	if c.from != "" {
		return renameName(c.from, c.path)
	}
	return quotePath(c.path)
}

func scaleLinear(it, width, maxChange int) int {
	if it == 0 {
		return 0
	}
	return 1 + it*(width-1)/maxChange
}

// printPatch prints one file's patch in git's format.
func (r *repo) printPatch(c fileChange, newSide blobLoader, d diffOutput) error {
	out := r.g.out
	a, b := "a/"+c.path, "b/"+c.path
	if c.from != "" {
		a = "a/" + c.from
	}
	fmt.Fprintf(out, "diff --git %s %s\n", quotePath(a), quotePath(b))
	if c.refused != nil {
		// A denied path: named, its content never shown.
		r.g.out.Flush()
		fmt.Fprintf(r.g.errw, "error: %s: %s\n", quotePath(c.path), errText(c.refused))
		return nil
	}
	oldAbbrev, newAbbrev := r.abbrevOrZero(c.old.Hash), r.abbrevOrZero(c.new.Hash)
	switch {
	case c.from != "":
		if c.old.Mode != c.new.Mode {
			fmt.Fprintf(out, "old mode %o\nnew mode %o\n", uint32(c.old.Mode), uint32(c.new.Mode))
		}
		fmt.Fprintf(out, "similarity index %d%%\nrename from %s\nrename to %s\n", percent(c.score), quotePath(c.from), quotePath(c.path))
		if c.old.Hash == c.new.Hash {
			return nil
		}
		if c.old.Mode != c.new.Mode {
			fmt.Fprintf(out, "index %s..%s\n", oldAbbrev, newAbbrev)
		} else {
			fmt.Fprintf(out, "index %s..%s %o\n", oldAbbrev, newAbbrev, uint32(c.new.Mode))
		}
	case c.old.Mode == 0:
		fmt.Fprintf(out, "new file mode %o\nindex %s..%s\n", uint32(c.new.Mode), oldAbbrev, newAbbrev)
	case c.new.Mode == 0:
		fmt.Fprintf(out, "deleted file mode %o\nindex %s..%s\n", uint32(c.old.Mode), oldAbbrev, newAbbrev)
	case c.old.Mode != c.new.Mode:
		fmt.Fprintf(out, "old mode %o\nnew mode %o\n", uint32(c.old.Mode), uint32(c.new.Mode))
		if c.old.Hash != c.new.Hash {
			fmt.Fprintf(out, "index %s..%s\n", oldAbbrev, newAbbrev)
		}
	default:
		fmt.Fprintf(out, "index %s..%s %o\n", oldAbbrev, newAbbrev, uint32(c.new.Mode))
	}
	if c.old.Hash == c.new.Hash {
		return nil
	}
	oldData, err := r.blob(c.old.Hash)
	if err != nil {
		return err
	}
	var newData []byte
	if newSide != nil && c.new.Mode != 0 {
		newData, err = newSide(c.path, c.new)
	} else {
		newData, err = r.blob(c.new.Hash)
	}
	if err != nil {
		return err
	}
	fromName, toName := quotePath(a), quotePath(b)
	if c.old.Mode == 0 {
		fromName = "/dev/null"
	}
	if c.new.Mode == 0 {
		toName = "/dev/null"
	}
	if isBinary(oldData) || isBinary(newData) {
		fmt.Fprintf(out, "Binary files %s and %s differ\n", fromName, toName)
		return nil
	}
	fmt.Fprintf(out, "--- %s\n+++ %s\n", fromName, toName)
	writeHunks(out, splitLines(oldData), splitLines(newData), d)
	return nil
}

func (r *repo) abbrevOrZero(h plumbing.Hash) string {
	if h.IsZero() {
		return r.abbrevZero()
	}
	return r.abbrev(h)
}

// hunkContext is git's default number of context lines.
const hunkContext = 3

type lineWriter interface {
	WriteString(string) (int, error)
	Write([]byte) (int, error)
}

// writeHunks prints the unified hunks of a line diff, merging changes
// whose contexts touch, with git's function-name line after "@@".
func writeHunks(out lineWriter, a, b [][]byte, d diffOutput) {
	ctx := d.contextLines()
	edits := diffLines(a, b)
	i := 0
	oldAt, newAt := 0, 0 // the old and new lines before edits[i]
	count := func(es []edit) {
		for _, e := range es {
			if e.op != opAdd {
				oldAt++
			}
			if e.op != opDel {
				newAt++
			}
		}
	}
	for i < len(edits) {
		for i < len(edits) && edits[i].op == opEqual {
			i++
		}
		if i >= len(edits) {
			return
		}
		start := max(i-ctx, 0)
		end := i
		for {
			for end < len(edits) && edits[end].op != opEqual {
				end++
			}
			gap := 0
			for end+gap < len(edits) && edits[end+gap].op == opEqual {
				gap++
			}
			if end+gap < len(edits) && gap <= 2*ctx {
				end += gap
				continue
			}
			end += min(gap, ctx)
			break
		}
		oldAt, newAt = 0, 0
		count(edits[:start])
		writeHunk(out, a, b, edits[start:end], oldAt, newAt, d.wordDiff)
		i = end
	}
}

// writeHunk prints one hunk whose first old and new lines are oldAt and
// newAt (0-based): its header, then its lines, or with wordDiff the words
// each run of changed lines changed.
func writeHunk(out lineWriter, a, b [][]byte, h []edit, oldAt, newAt int, wordDiff bool) {
	oldLen, newLen := 0, 0
	for _, e := range h {
		if e.op != opAdd {
			oldLen++
		}
		if e.op != opDel {
			newLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@", hunkRange(oldAt, oldLen), hunkRange(newAt, newLen))
	if fn := funcLine(a, oldAt); fn != "" {
		out.WriteString(" " + fn)
	}
	out.WriteString("\n")
	if wordDiff {
		writeWordHunk(out, a, b, h)
		return
	}
	for _, e := range h {
		var line []byte
		if e.op == opAdd {
			line = b[e.b]
		} else {
			line = a[e.a]
		}
		out.WriteString(string(e.op))
		out.Write(line)
		if !bytes.HasSuffix(line, []byte("\n")) {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange is a side's "start,count" in a hunk header: an empty side
// is numbered by the line before it, as git numbers it.
func hunkRange(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start + 1)
	}
	if n == 0 {
		return strconv.Itoa(start) + ",0"
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

// funcLine is the nearest line above old line i that starts with a
// letter, "_" or "$" (git's default function-name rule), trimmed.
func funcLine(a [][]byte, i int) string {
	for j := i - 1; j >= 0; j-- {
		ln := a[j]
		if len(ln) > 0 && (isAlpha(ln[0]) || ln[0] == '_' || ln[0] == '$') {
			s := strings.TrimRight(string(ln), " \t\r\n\f\v")
			if len(s) > 80 {
				s = s[:80]
			}
			return s
		}
	}
	return ""
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// printConflict shows a conflicted path: the worktree's file against our
// and their versions as a combined diff, or "* Unmerged path" when there
// is no such pair to show.
func (r *repo) printConflict(c fileChange, newSide blobLoader) error {
	out := r.g.out
	if err := r.readablePath(c.path); err != nil {
		return nil
	}
	fmt.Fprintf(out, "diff --cc %s\nindex %s,%s..%s\n", quotePath(c.path), r.abbrevOrZero(c.sides[0].Hash), r.abbrevOrZero(c.sides[1].Hash), r.abbrevZero())
	var texts [2][]byte
	for i, side := range c.sides {
		data, err := r.blob(side.Hash)
		if err != nil {
			return err
		}
		texts[i] = data
	}
	result, err := newSide(c.path, c.new)
	if err != nil {
		return err
	}
	if isBinary(texts[0]) || isBinary(texts[1]) || isBinary(result) {
		out.WriteString("Binary files differ\n")
		return nil
	}
	fmt.Fprintf(out, "--- %s\n+++ %s\n", quotePath("a/"+c.path), quotePath("b/"+c.path))
	writeCombined(out, combinedLines([2][][]byte{splitLines(texts[0]), splitLines(texts[1])}, splitLines(result)))
	return nil
}
