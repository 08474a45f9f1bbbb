package git

import (
	"bufio"
	"bytes"
	"container/heap"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// graphState is the kind of line a log graph draws next.
type graphState int

const (
	graphPadding    graphState = iota // every line goes straight down
	graphSkip                         // "..." where part of the graph was not drawn
	graphPreCommit                    // lines widened to make room for an octopus merge
	graphCommit                       // the line carrying the commit's "*"
	graphPostMerge                    // a merge's parents leaving it: "|\", "| |\"
	graphCollapsing                   // lines moving left to their new columns: "|/", "_"
)

// logGraph draws the lines git log --graph prints left of each commit.
// It keeps one column per line of descent still waiting for its commit
// and, commit after commit, emits the rows git 2.39 does: the commit row,
// a merge's fan-out, the rows that collapse lines into place and the
// padding rows beside the rest of an entry. Columns are commit ids; the
// mapping (two screen cells per column) says where each of the previous
// row's lines goes on the next one.
type logGraph struct {
	commit  plumbing.Hash
	parents []plumbing.Hash // the commit's parents that are shown

	state, prevState             graphState
	expansionRow                 int
	commitIndex, prevCommitIndex int
	mergeLayout                  int // 0: skewed left, 1: right, -1: not set
	edgesAdded, prevEdgesAdded   int
	width                        int
	columns, newColumns          []plumbing.Hash
	mapping, oldMapping          []int
	mappingSize                  int
}

// newLogGraph is an empty graph, as git log starts one.
func newLogGraph() *logGraph {
	return &logGraph{state: graphPadding, prevState: graphPadding}
}

func (g *logGraph) setState(s graphState) {
	g.prevState = g.state
	g.state = s
}

// update moves the graph on to the next commit shown and its shown
// parents.
func (g *logGraph) update(c plumbing.Hash, parents []plumbing.Hash) {
	g.commit = c
	g.parents = parents
	g.prevCommitIndex = g.commitIndex
	g.updateColumns()
	g.expansionRow = 0
	switch {
	case g.state != graphPadding:
		g.state = graphSkip
	case g.needsPreCommitLine():
		g.state = graphPreCommit
	default:
		g.state = graphCommit
	}
}

// finished says every row of the current commit has been drawn.
func (g *logGraph) finished() bool { return g.state == graphPadding }

func (g *logGraph) findNewColumn(h plumbing.Hash) int {
	for i, c := range g.newColumns {
		if c == h {
			return i
		}
	}
	return -1
}

// ensureMapping grows both mapping arrays to hold n cells, keeping what
// they held: a row may read cells the last collapse left behind.
func (g *logGraph) ensureMapping(n int) {
	for len(g.mapping) < n {
		g.mapping = append(g.mapping, -1)
	}
	for len(g.oldMapping) < n {
		g.oldMapping = append(g.oldMapping, -1)
	}
}

// updateColumns computes the columns below the new commit and where each
// line of the row above goes.
func (g *logGraph) updateColumns() {
	g.columns, g.newColumns = g.newColumns, g.columns[:0]
	numColumns := len(g.columns)
	maxNew := numColumns + len(g.parents)
	g.mappingSize = 2 * maxNew
	g.ensureMapping(g.mappingSize)
	for i := 0; i < g.mappingSize; i++ {
		g.mapping[i] = -1
	}
	g.width = 0
	g.prevEdgesAdded = g.edgesAdded
	g.edgesAdded = 0
	seenThis := false
	for i := 0; i <= numColumns; i++ {
		var col plumbing.Hash
		if i == numColumns {
			if seenThis {
				break
			}
			col = g.commit
		} else {
			col = g.columns[i]
		}
		if col != g.commit {
			g.insertNewColumn(col, -1)
			continue
		}
		seenThis = true
		g.commitIndex = i
		g.mergeLayout = -1
		for _, p := range g.parents {
			g.insertNewColumn(p, i)
		}
		if len(g.parents) == 0 {
			g.width += 2 // the commit takes its place even with no line below
		}
	}
	for g.mappingSize > 1 && g.mapping[g.mappingSize-1] < 0 {
		g.mappingSize--
	}
}

// insertNewColumn places h in the next row's columns (once) and maps the
// line it comes from; idx is the commit's column when h is one of its
// parents, -1 for a line passing by.
func (g *logGraph) insertNewColumn(h plumbing.Hash, idx int) {
	i := g.findNewColumn(h)
	if i < 0 {
		i = len(g.newColumns)
		g.newColumns = append(g.newColumns, h)
	}
	var at int
	switch {
	case len(g.parents) > 1 && idx > -1 && g.mergeLayout == -1:
		// A merge's first parent: lean the fan-out left when that
		// parent already has a column left of the merge.
		dist := idx - i
		shift := 1
		if dist > 1 {
			shift = 2*dist - 3
		}
		g.mergeLayout = 1
		if dist > 0 {
			g.mergeLayout = 0
		}
		g.edgesAdded = len(g.parents) + g.mergeLayout - 2
		at = g.width + (g.mergeLayout-1)*shift
		g.width += 2 * g.mergeLayout
	case g.edgesAdded > 0 && g.width >= 2 && i == g.mapping[g.width-2]:
		// The parent is the last line already there: join it at once.
		at = g.width - 2
		g.edgesAdded = -1
	default:
		at = g.width
		g.width += 2
	}
	if at >= 0 {
		g.mapping[at] = i
	}
}

func (g *logGraph) dashedParents() int { return len(g.parents) + g.mergeLayout - 3 }

func (g *logGraph) needsPreCommitLine() bool {
	return len(g.parents) >= 3 && g.commitIndex < len(g.columns)-1 && g.expansionRow < 2*g.dashedParents()
}

// mappingCorrect says every line has reached its column (or is one cell
// right of it, drawn as "/").
func (g *logGraph) mappingCorrect() bool {
	for i := 0; i < g.mappingSize; i++ {
		if t := g.mapping[i]; t >= 0 && t != i/2 {
			return false
		}
	}
	return true
}

// nextLine draws the next row and says whether it was the commit's row.
func (g *logGraph) nextLine() (string, bool) {
	var b strings.Builder
	commitRow := false
	switch g.state {
	case graphPadding:
		for range g.newColumns {
			b.WriteString("| ")
		}
	case graphSkip:
		b.WriteString("...")
		if g.needsPreCommitLine() {
			g.setState(graphPreCommit)
		} else {
			g.setState(graphCommit)
		}
	case graphPreCommit:
		g.preCommitLine(&b)
	case graphCommit:
		g.commitLine(&b)
		commitRow = true
	case graphPostMerge:
		g.postMergeLine(&b)
	case graphCollapsing:
		g.collapsingLine(&b)
	}
	return g.pad(b.String()), commitRow
}

// paddingLine is the row beside a line of an entry that is not the
// graph's own (a separator, a diff line): git keeps a commit row waiting
// and draws straight lines instead.
func (g *logGraph) paddingLine() string {
	if g.state != graphCommit {
		line, _ := g.nextLine()
		return line
	}
	var b strings.Builder
	for _, c := range g.columns {
		b.WriteByte('|')
		if c == g.commit && len(g.parents) > 2 {
			b.WriteString(strings.Repeat(" ", (len(g.parents)-2)*2))
		} else {
			b.WriteByte(' ')
		}
	}
	g.prevState = graphPadding
	return g.pad(b.String())
}

// pad widens a row to the graph's width, so text right of it lines up.
func (g *logGraph) pad(s string) string {
	if len(s) < g.width {
		return s + strings.Repeat(" ", g.width-len(s))
	}
	return s
}

// preCommitLine widens the lines right of an octopus merge, a row at a
// time, to make room for its dashes.
func (g *logGraph) preCommitLine(b *strings.Builder) {
	seenThis := false
	for i, c := range g.columns {
		switch {
		case c == g.commit:
			seenThis = true
			b.WriteByte('|')
			b.WriteString(strings.Repeat(" ", g.expansionRow))
		case seenThis && g.expansionRow == 0:
			if g.prevState == graphPostMerge && g.prevCommitIndex < i {
				b.WriteByte('\\')
			} else {
				b.WriteByte('|')
			}
		case seenThis:
			b.WriteByte('\\')
		default:
			b.WriteByte('|')
		}
		b.WriteByte(' ')
	}
	g.expansionRow++
	if !g.needsPreCommitLine() {
		g.setState(graphCommit)
	}
}

// commitLine draws the commit's row: "*" in its column (an octopus's
// dashes after it) and the other lines beside it.
func (g *logGraph) commitLine(b *strings.Builder) {
	seenThis := false
	for i := 0; i <= len(g.columns); i++ {
		var col plumbing.Hash
		if i == len(g.columns) {
			if seenThis {
				break
			}
			col = g.commit
		} else {
			col = g.columns[i]
		}
		switch {
		case col == g.commit:
			seenThis = true
			b.WriteByte('*')
			if len(g.parents) > 2 {
				g.octopusDashes(b)
			}
		case seenThis && g.edgesAdded > 1:
			b.WriteByte('\\')
		case seenThis && g.edgesAdded == 1:
			// The first row of a merge skewed right: a line the last
			// merge left as "\" stays one.
			if g.prevState == graphPostMerge && g.prevEdgesAdded > 0 && g.prevCommitIndex < i {
				b.WriteByte('\\')
			} else {
				b.WriteByte('|')
			}
		case g.prevState == graphCollapsing && 2*i+1 < len(g.oldMapping) && g.oldMapping[2*i+1] == i && 2*i < len(g.mapping) && g.mapping[2*i] < i:
			b.WriteByte('/')
		default:
			b.WriteByte('|')
		}
		b.WriteByte(' ')
	}
	switch {
	case len(g.parents) > 1:
		g.setState(graphPostMerge)
	case g.mappingCorrect():
		g.setState(graphPadding)
	default:
		g.setState(graphCollapsing)
	}
}

// octopusDashes draws "-.", "---." after an octopus merge's "*".
func (g *logGraph) octopusDashes(b *strings.Builder) {
	n := g.dashedParents()
	for i := 0; i < n; i++ {
		b.WriteByte('-')
		if i == n-1 {
			b.WriteByte('.')
		} else {
			b.WriteByte('-')
		}
	}
}

// postMergeLine draws a merge's parents leaving it: "/", "|" and "\"
// by how the merge leans, "_" where a line to the left reaches over.
func (g *logGraph) postMergeLine(b *strings.Builder) {
	const mergeChars = "/|\\"
	seenThis, parentSeen := false, false
	for i := 0; i <= len(g.columns); i++ {
		var col plumbing.Hash
		if i == len(g.columns) {
			if seenThis {
				break
			}
			col = g.commit
		} else {
			col = g.columns[i]
		}
		switch {
		case col == g.commit:
			seenThis = true
			idx := g.mergeLayout
			for j := range g.parents {
				b.WriteByte(mergeChars[idx])
				if idx == 2 {
					if g.edgesAdded > 0 || j < len(g.parents)-1 {
						b.WriteByte(' ')
					}
				} else {
					idx++
				}
			}
			if g.edgesAdded == 0 {
				b.WriteByte(' ')
			}
		case seenThis:
			if g.edgesAdded > 0 {
				b.WriteByte('\\')
			} else {
				b.WriteByte('|')
			}
			b.WriteByte(' ')
		default:
			b.WriteByte('|')
			if g.mergeLayout != 0 || i != g.commitIndex-1 {
				if parentSeen {
					b.WriteByte('_')
				} else {
					b.WriteByte(' ')
				}
			}
		}
		if len(g.parents) > 0 && col == g.parents[0] {
			parentSeen = true
		}
	}
	if g.mappingCorrect() {
		g.setState(graphPadding)
	} else {
		g.setState(graphCollapsing)
	}
}

// collapsingLine moves every line one cell left toward its column ("/"),
// letting one line reach over several columns at once ("_").
func (g *logGraph) collapsingLine(b *strings.Builder) {
	usedHorizontal := false
	horizontalEdge, horizontalTarget := -1, -1
	g.mapping, g.oldMapping = g.oldMapping, g.mapping
	for i := 0; i < g.mappingSize; i++ {
		g.mapping[i] = -1
	}
	for i := 0; i < g.mappingSize; i++ {
		target := g.oldMapping[i]
		switch {
		case target < 0:
		case target*2 >= i:
			g.mapping[i] = target // already in place (never right of it)
		case g.mapping[i-1] < 0:
			// Nothing to the left: move left by one.
			g.mapping[i-1] = target
			if horizontalEdge == -1 {
				horizontalEdge, horizontalTarget = i, target
				for j := target*2 + 3; j < i-2; j += 2 {
					g.mapping[j] = target
				}
			}
		case g.mapping[i-1] == target:
			// The line to the left goes to the same commit: merged.
		default:
			// Cross the line to the left, whose cell before is free.
			if i >= 2 {
				g.mapping[i-2] = target
			}
			if horizontalEdge == -1 {
				horizontalEdge, horizontalTarget = i-1, target
				for j := target*2 + 3; j < i-2; j += 2 {
					g.mapping[j] = target
				}
			}
		}
	}
	copy(g.oldMapping[:g.mappingSize], g.mapping[:g.mappingSize])
	if g.mappingSize > 0 && g.mapping[g.mappingSize-1] < 0 {
		g.mappingSize--
	}
	for i := 0; i < g.mappingSize; i++ {
		target := g.mapping[i]
		switch {
		case target < 0:
			b.WriteByte(' ')
		case target*2 == i:
			b.WriteByte('|')
		case target == horizontalTarget && i != horizontalEdge-1:
			// Only the first cell of a horizontal run goes on below.
			if i != target*2+3 {
				g.mapping[i] = -1
			}
			usedHorizontal = true
			b.WriteByte('_')
		default:
			if usedHorizontal && i < horizontalEdge {
				g.mapping[i] = -1
			}
			b.WriteByte('/')
		}
	}
	if g.mappingCorrect() {
		g.setState(graphPadding)
	}
}

// graphLog is git log --graph over a whole history, merges and side
// branches included: every commit the walk reaches is put in git's
// graph order (a child before its parents, a merge's later parents'
// lines drawn before its first parent's), the filters pick the commits
// shown, and each entry is printed beside the graph's rows the way git
// interleaves them.
func (r *repo) graphLog(o logOptions, q *commitQueue, seen, hidden map[plumbing.Hash]bool, match func(*commit) bool) error {
	if o.reverse {
		return fatalf("options '--reverse' and '--graph' cannot be used together")
	}
	var listed []*commit
	for q.Len() > 0 {
		if err := r.g.env.Ctx.Err(); err != nil {
			return err
		}
		c := heap.Pop(q).(*commit)
		for _, p := range o.followed(c) {
			if seen[p] || hidden[p] {
				continue
			}
			seen[p] = true
			pc, err := r.readCommit(p)
			if err != nil {
				return err
			}
			heap.Push(q, pc)
		}
		listed = append(listed, c)
	}
	interesting := map[plumbing.Hash]bool{}
	var shown []*commit
	for _, c := range graphOrder(listed) {
		if match(c) {
			interesting[c.Hash] = true
			shown = append(shown, c)
		}
	}
	if o.max >= 0 && len(shown) > o.max {
		shown = shown[:o.max]
	}
	g := newLogGraph()
	w := graphWriter{r: r, g: g, o: o}
	for _, c := range shown {
		if err := r.g.env.Ctx.Err(); err != nil {
			return err
		}
		var parents []plumbing.Hash
		for _, p := range o.followed(c) {
			if interesting[p] {
				parents = append(parents, p)
			}
		}
		g.update(c.Hash, parents)
		if err := w.entry(c); err != nil {
			return err
		}
	}
	return nil
}

// graphOrder sorts commits listed newest first into the order git log
// --graph shows them: a commit only once all its children are shown,
// and among the commits ready, the one made ready last (so a merge's
// second parent's line comes before its first parent's). The tips go
// out in the order they were listed.
func graphOrder(listed []*commit) []*commit {
	byHash := make(map[plumbing.Hash]*commit, len(listed))
	waiting := make(map[plumbing.Hash]int, len(listed)) // 1 + children not yet shown
	for _, c := range listed {
		byHash[c.Hash] = c
		waiting[c.Hash] = 1
	}
	for _, c := range listed {
		for _, p := range c.Parents {
			if waiting[p] > 0 {
				waiting[p]++
			}
		}
	}
	var stack []*commit
	for i := len(listed) - 1; i >= 0; i-- {
		if c := listed[i]; waiting[c.Hash] == 1 {
			stack = append(stack, c)
		}
	}
	out := make([]*commit, 0, len(listed))
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range c.Parents {
			if waiting[p] == 0 {
				continue
			}
			waiting[p]--
			if waiting[p] == 1 {
				stack = append(stack, byHash[p])
			}
		}
		waiting[c.Hash] = 0
		out = append(out, c)
	}
	return out
}

// graphWriter prints log entries beside a graph's rows.
type graphWriter struct {
	r              *repo
	g              *logGraph
	o              logOptions
	shownOne       bool
	missingNewline bool // the last entry's text did not end its line
}

// entry prints one commit's entry, the graph already updated to it: the
// separator from the last entry, the graph's rows down to the commit's
// (its "*" first on the entry's first line), a graph row before every
// further line of the entry, the rows the graph still owes, and the
// commit's changes beside padding rows.
func (w *graphWriter) entry(c *commit) error {
	out, g, o := w.r.g.out, w.g, w.o
	terminated := o.format != "" && o.tformat || o.format == "" && o.oneline
	if w.shownOne && !terminated {
		if !w.missingNewline {
			out.WriteString(g.paddingLine())
		}
		out.WriteString("\n")
	}
	w.shownOne = true
	for {
		line, commitRow := g.nextLine()
		out.WriteString(line)
		if commitRow {
			break
		}
		out.WriteString("\n")
	}
	text, err := w.r.captured(func() error {
		w.r.printCommit(c, o)
		return nil
	})
	if err != nil {
		return err
	}
	if terminated {
		text = strings.TrimSuffix(text, "\n")
	}
	w.missingNewline = !strings.HasSuffix(text, "\n")
	segments := strings.SplitAfter(text, "\n")
	if segments[len(segments)-1] == "" {
		segments = segments[:len(segments)-1]
	}
	for i, s := range segments {
		out.WriteString(s)
		if i+1 < len(segments) {
			line, _ := g.nextLine()
			out.WriteString(line)
		}
	}
	if !g.finished() {
		if w.missingNewline {
			out.WriteString("\n")
		}
		for {
			line, _ := g.nextLine()
			out.WriteString(line)
			if g.finished() {
				break
			}
			out.WriteString("\n")
		}
		if !w.missingNewline {
			out.WriteString("\n")
		}
	}
	if terminated {
		if !w.missingNewline {
			out.WriteString(g.paddingLine())
		}
		out.WriteString("\n")
	}
	return w.changes(c)
}

// changes prints the commit's diff output (for at most one parent, as
// git log does), every line after a padding row.
func (w *graphWriter) changes(c *commit) error {
	o := w.o
	if !(o.stat || o.shortStat || o.patch || o.nameOnly || o.nameStat) || len(c.Parents) > 1 && !o.firstParent {
		return nil
	}
	changes, err := w.r.firstParentChanges(c, nil)
	if err != nil {
		return err
	}
	text, err := w.r.captured(func() error { return w.r.printChanges(changes, o, o.oneline) })
	if err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		if line != "" {
			w.r.g.out.WriteString(w.g.paddingLine() + line)
		}
	}
	return nil
}

// captured runs print with the command's output going to a string.
func (r *repo) captured(print func() error) (string, error) {
	saved := r.g.out
	var buf bytes.Buffer
	r.g.out = bufio.NewWriter(&buf)
	err := print()
	r.g.out.Flush()
	r.g.out = saved
	return buf.String(), err
}
