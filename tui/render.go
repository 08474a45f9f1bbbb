package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// fit shows plain text s in exactly w cells: cut with an ellipsis when it
// is longer, padded with spaces when shorter, with a newline shown as ⏎
// and whatever a terminal would act on made inert. Lists use it so
// columns line up; Detail never does, it wraps instead (G-13.5).
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if strings.IndexByte(s, '\n') >= 0 {
		s = strings.ReplaceAll(s, "\n", "⏎")
	}
	s = inert(s)
	width := textWidth(s)
	if width <= w {
		return s + spaces(w-width)
	}
	if isASCII(s) {
		return s[:w-1] + "…"
	}
	cut := ansi.Truncate(s, w, "…")
	return cut + spaces(w-textWidth(cut))
}

// fitWords is s in at most w cells, cut after its last whole word that
// fits, with an ellipsis, so a message is never cut mid-word; a first word
// longer than w is cut as fit cuts it. It does not pad.
func fitWords(s string, w int) string {
	s = inert(strings.ReplaceAll(s, "\n", "⏎"))
	if textWidth(s) <= w {
		return s
	}
	cut := -1
	cells := 0
	for i := 0; i < len(s); {
		size, cw := clusterAt(s, i)
		if cells+cw > w-1 {
			if s[i] == ' ' {
				cut = i // the last word fits to the ellipsis's cell
			}
			break
		}
		if s[i] == ' ' {
			cut = i
		}
		cells += cw
		i += size
	}
	if cut <= 0 {
		return strings.TrimRight(fit(s, w), " ")
	}
	return strings.TrimRight(s[:cut], " ·:;,") + "…"
}

// fitNearWord is fit for prose in a column (a reason): cut after a word
// when that keeps at least three quarters of the column, else where the
// column ends, as fit cuts, so a narrow column still shows most of it.
func fitNearWord(s string, w int) string {
	if w <= 0 || textWidth(inert(s)) <= w {
		return fit(s, w)
	}
	if cut := fitWords(s, w); textWidth(cut) >= w*3/4 {
		return cut + spaces(w-textWidth(cut))
	}
	return fit(s, w)
}

// fitLeft is fit that keeps the end of s, for ids and paths whose tail is
// the part that tells them apart.
func fitLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if strings.IndexByte(s, '\n') >= 0 {
		s = strings.ReplaceAll(s, "\n", "⏎")
	}
	s = inert(s)
	width := textWidth(s)
	if width <= w {
		return s + spaces(w-width)
	}
	if isASCII(s) {
		return "…" + s[len(s)-(w-1):]
	}
	cut := ansi.TruncateLeft(s, width-(w-1), "…")
	return cut + spaces(w-textWidth(cut))
}

// fitMiddle is fit that keeps both ends of s and cuts the middle, for
// commands: the program is at the start and what it acts on at the end,
// and rows that differ only at their ends (cat …/f1.md, cat …/f2.md) still
// look different.
func fitMiddle(s string, w int) string {
	if w < 12 {
		return fit(s, w)
	}
	if strings.IndexByte(s, '\n') >= 0 {
		s = strings.ReplaceAll(s, "\n", "⏎")
	}
	s = inert(s)
	width := textWidth(s)
	if width <= w {
		return s + spaces(w-width)
	}
	head := (w - 1) * 2 / 5
	tail := w - 1 - head
	if isASCII(s) {
		return s[:head] + "…" + s[len(s)-tail:]
	}
	cut := ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, width-tail, "")
	return cut + spaces(max(w-textWidth(cut), 0))
}

// spaces is n blanks.
func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(blankRow) {
		return blankRow[:n]
	}
	return strings.Repeat(" ", n)
}

// blankRow is the blanks most padding takes from, without allocating.
const blankRow = "                                                                                                                                                                                                                                                                "

// isASCII reports whether s is all ASCII (one cell a byte, once inert).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// textWidth is how many cells inert text takes: its length when it is
// ASCII, else the width of its grapheme clusters as the renderer counts
// them (wide CJK characters and emoji take two).
func textWidth(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// wrap breaks plain text into lines of at most w cells, keeping its own
// newlines, breaking at blanks only (never inside a path at a hyphen, where
// a reader would see two words) and cutting a word longer than a line, so
// nothing is ever cut off. What a terminal would act on is made inert
// first.
func wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	s = inert(s)
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		out = append(out, wrapLine(line, w)...)
	}
	return out
}

// wrapLine wraps one line: each row ends at the last blank that fits (the
// blank itself is not drawn); a path longer than a row is broken after a
// slash, where a reader sees it go on (also when the blank before it would
// leave a stub such as "rule:" alone on its row above a path too long for
// a row of its own); anything else longer
// than a row is broken where the row ends. It steps through grapheme clusters, so a
// wide character or an emoji sequence is never split and counts the
// cells it takes.
func wrapLine(line string, w int) []string {
	var out []string
	for textWidth(line) > w {
		cut, hard, slash, cells := -1, len(line), 0, 0
		for i := 0; i < len(line); {
			size, cw := clusterAt(line, i)
			if cells+cw > w {
				hard = i
				if line[i] == ' ' {
					cut = i
				}
				break
			}
			switch line[i] {
			case ' ':
				cut = i
			case '/':
				if cells >= w/3 { // not so early that a row holds a stub
					slash = i + 1
				}
			}
			cells += cw
			i += size
		}
		if slash > 0 && (cut <= 0 || cut < w/3 && slash > cut && wordWidth(line[cut+1:]) > w) {
			// A path that overflows after a short first word goes on
			// the row with it, broken after a slash.
			out = append(out, line[:slash])
			line = line[slash:]
			continue
		}
		if cut <= 0 {
			if hard == 0 {
				hard, _ = clusterAt(line, 0) // a character wider than the row
			}
			out = append(out, line[:hard])
			line = line[hard:]
			continue
		}
		out = append(out, line[:cut])
		line = line[cut+1:]
	}
	return append(out, line)
}

// wordWidth is the width of s up to its first blank.
func wordWidth(s string) int {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	return textWidth(s)
}

// clusterAt is the length in bytes and the width in cells of the grapheme
// cluster at s[i:].
func clusterAt(s string, i int) (size, width int) {
	if s[i] < 0x80 && (i+1 == len(s) || s[i+1] < 0x80) {
		return 1, 1
	}
	cluster, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
	return len(cluster), w
}

// indentWrap wraps s to w cells after a first-line prefix, indenting the
// following lines to line up under the text.
func indentWrap(prefix, s string, w int) []string {
	pw := lipgloss.Width(prefix)
	lines := wrap(s, w-pw)
	pad := strings.Repeat(" ", pw)
	for i := range lines {
		if i == 0 {
			lines[i] = prefix + lines[i]
		} else {
			lines[i] = pad + lines[i]
		}
	}
	return lines
}

// age is how long ago something happened, in the one unit that matters.
func age(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// stateLabel pairs a session state with a symbol (G-13.3).
func stateLabel(state string) string {
	switch state {
	case "running":
		return "● running"
	case "waiting":
		return "◆ waiting"
	}
	return "○ idle"
}

// decisionLabel is a record's standing in words: pending, answered (with
// scope), or closed with the reason it left the queue.
func decisionLabel(r decisions.Record) (word, styleKey string) {
	switch {
	case r.Outcome == decisions.Allow && r.Scope == decisions.Session:
		return "✓ allow session", "allow"
	case r.Outcome == decisions.Allow:
		return "✓ allow once", "allow"
	case r.Outcome == decisions.Deny:
		return "✗ deny", "deny"
	case r.Closed != "":
		return "⊘ " + r.Closed, "closed"
	}
	return "? pending", "pending"
}

// outcomeLabel pairs an explain outcome with a symbol.
func outcomeLabel(outcome string) string {
	switch outcome {
	case "run":
		return "✓ run"
	case "granted":
		return "✓ granted"
	case "deny":
		return "✗ deny"
	case "ask":
		return "? ask"
	case "not-found":
		return "∅ not-found"
	case "hidden":
		return "◌ hidden"
	case "dynamic":
		return "~ dynamic"
	}
	return outcome
}

// explainTable renders explanations one block per command: place, outcome,
// exit code and the command, then the reason, the rule with where it is
// written, and the stderr the agent would read, wrapped to width (G-11.1).
func explainTable(st Styles, exps []core.Explanation, width int) []string {
	if len(exps) == 0 {
		return []string{st.Dim.Render("(no commands)")}
	}
	const placeW, outcomeW, exitW = 6, 12, 5
	indent := strings.Repeat(" ", placeW+outcomeW+exitW)
	head := fit("PLACE", placeW) + fit("OUTCOME", outcomeW) + fit("EXIT", exitW) + "COMMAND"
	out := []string{st.Dim.Render(head)}
	for _, e := range exps {
		exit := ""
		if e.Outcome != "run" && e.Outcome != "granted" && e.Outcome != "dynamic" {
			exit = fmt.Sprint(e.ExitCode)
		}
		label := st.outcomeStyle(string(e.Outcome)).Render(fit(outcomeLabel(string(e.Outcome)), outcomeW))
		cmdLines := wrap(e.Command, width-len(indent))
		for i, l := range cmdLines {
			if i == 0 {
				out = append(out, fit(e.Place, placeW)+label+fit(exit, exitW)+l)
			} else {
				out = append(out, indent+l)
			}
		}
		var notes []string
		if e.Reason != "" {
			notes = append(notes, "reason: "+e.Reason)
		}
		if e.Operand != "" {
			notes = append(notes, "path: "+e.Operand)
		}
		if e.Rule != "" {
			rule := "rule: " + e.Rule
			if e.Policy != "" {
				rule += " (" + e.Policy + ")"
			}
			notes = append(notes, rule)
		}
		for _, n := range notes {
			for _, l := range wrap(n, width-len(indent)) {
				out = append(out, indent+st.Dim.Render(l))
			}
		}
		if s := strings.TrimSuffix(expandTabs(e.Stderr), "\n"); s != "" {
			for _, l := range wrap("stderr: "+s, width-len(indent)) {
				out = append(out, indent+st.Stderr.Render(l))
			}
		}
	}
	return out
}

// askedSpan finds the asked command inside its line: the place's first
// offset is where the call (or the construct that evaluates it) starts,
// and the command runs to the end of its simple command. ok is false when
// the place does not point into the line.
func askedSpan(line, place string) (start, end int, ok bool) {
	first, _, _ := strings.Cut(place, "/")
	if _, err := fmt.Sscan(first, &start); err != nil || start < 0 || start >= len(line) {
		return 0, 0, false
	}
	for start < len(line) && (line[start] == ' ' || line[start] == '\t') {
		start++ // a place may point at the blank before the call
	}
	return start, start + simpleCommandLen(line[start:]), true
}

// simpleCommandLen is the length of the simple command at the start of s:
// up to the first unquoted control operator (; & | newline or a closing
// parenthesis), with trailing blanks left out.
func simpleCommandLen(s string) int {
	var quote byte
	escaped := false
	end := len(s)
scan:
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case c == '\\' && quote != '\'':
			escaped = true
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';' || c == '&' || c == '|' || c == '\n' || c == ')':
			end = i
			break scan
		}
	}
	return len(strings.TrimRight(s[:end], " \t"))
}

// scroller shows a window of lines with a way to see the rest: when the
// content is taller than the window, the last row says how much is hidden
// and which keys scroll (G-13.5: nothing cut off without a way to see it).
type scroller struct {
	lines  []string
	offset int
	// how names the keys that scroll it where the human is now: its
	// owner sets it before drawing, so the hint never names keys that
	// do something else there (G-13.2). The zero value says j/k.
	how scrollKeys
}

// scrollKeys words the keys that scroll a window, for its last row: on
// scrolls either way ("j/k scroll"), back scrolls back up ("k scrolls
// back"). none leaves keys out (a question has the keys).
type scrollKeys struct {
	on, back string
	none     bool
}

// The ways a window scrolls: with j/k when its pane has the keys; with
// pgup/pgdn under an input, where j and k are letters; after tab, from
// the queue beside the detail; not at all while a modal has the keys.
var (
	scrollByLetters = scrollKeys{}
	scrollByPages   = scrollKeys{on: "pgup/pgdn scroll", back: "pgup scrolls back"}
	scrollAfterTab  = scrollKeys{on: "tab to scroll", back: "tab to scroll back"}
	scrollNoKeys    = scrollKeys{none: true}
)

// words is the hint's key part, after a " · ", or "" for none.
func (k scrollKeys) words(back bool) string {
	on, b := k.on, k.back
	switch {
	case k.none:
		return ""
	case on == "":
		on, b = "j/k scroll", "k scrolls back"
	}
	if back {
		return " · " + b
	}
	return " · " + on
}

func (s *scroller) setLines(lines []string) {
	s.lines = lines
	s.clamp(0)
}

func (s *scroller) scroll(by, height int) {
	s.offset += by
	s.clamp(height)
}

// maxOffset is the offset that shows the last line: the window keeps its
// last row for the hint whenever the content overflows.
func (s *scroller) maxOffset(height int) int {
	if len(s.lines) <= height {
		return 0
	}
	return len(s.lines) - max(height-1, 1)
}

func (s *scroller) clamp(height int) {
	if height <= 0 {
		s.offset = max(s.offset, 0)
		return
	}
	s.offset = max(0, min(s.offset, s.maxOffset(height)))
}

// toEnd scrolls to the last line.
func (s *scroller) toEnd(height int) { s.offset = s.maxOffset(height) }

// atEnd reports whether the last line is in view.
func (s *scroller) atEnd(height int) bool { return s.offset >= s.maxOffset(height) }

// view renders height rows (fewer only when there are fewer lines).
func (s *scroller) view(st Styles, height int) string {
	if height <= 0 {
		return ""
	}
	s.clamp(height)
	if len(s.lines) <= height {
		return strings.Join(s.lines, "\n")
	}
	rows := height - 1
	end := min(s.offset+rows, len(s.lines))
	shown := append([]string(nil), s.lines[s.offset:end]...)
	var hint string
	switch below := len(s.lines) - end; {
	case below > 0 && s.offset > 0:
		hint = fmt.Sprintf("↕ %d above, %d below", s.offset, below) + s.how.words(false)
	case below > 0:
		hint = fmt.Sprintf("↓ %d more lines", below) + s.how.words(false)
	default:
		hint = fmt.Sprintf("↑ %d lines above", s.offset) + s.how.words(true)
	}
	shown = append(shown, st.Dim.Render(hint))
	return strings.Join(shown, "\n")
}
