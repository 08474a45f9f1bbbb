package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// fit shows plain text s in exactly w cells: cut with an ellipsis when it
// is longer, padded with spaces when shorter. Lists use it so columns line
// up; Detail never does, it wraps instead (G-13.5).
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = strings.ReplaceAll(s, "\n", "⏎")
	width := lipgloss.Width(s)
	if width <= w {
		return s + strings.Repeat(" ", w-width)
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		rw := lipgloss.Width(string(r))
		if used+rw > w-1 {
			break
		}
		b.WriteRune(r)
		used += rw
	}
	b.WriteString("…")
	used++
	return b.String() + strings.Repeat(" ", w-used)
}

// fitLeft is fit that keeps the end of s, for ids and paths whose tail is
// the part that tells them apart.
func fitLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	width := lipgloss.Width(s)
	if width <= w {
		return s + strings.Repeat(" ", w-width)
	}
	runes := []rune(s)
	used, i := 1, len(runes)
	for i > 0 {
		rw := lipgloss.Width(string(runes[i-1]))
		if used+rw > w {
			break
		}
		used += rw
		i--
	}
	return "…" + string(runes[i:]) + strings.Repeat(" ", w-used)
}

// wrap breaks plain text into lines of at most w cells, keeping its own
// newlines, breaking at blanks only (never inside a path at a hyphen, where
// a reader would see two words) and cutting a word longer than a line, so
// nothing is ever cut off.
func wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		out = append(out, wrapLine(line, w)...)
	}
	return out
}

// wrapLine wraps one line: each row ends at the last blank that fits (the
// blank itself is not drawn), or mid-word when no blank does.
func wrapLine(line string, w int) []string {
	var out []string
	for lipgloss.Width(line) > w {
		cut, hard, cells := -1, len(line), 0
		for i, r := range line {
			rw := 1
			if r >= 0x7f || r < 0x20 {
				rw = lipgloss.Width(string(r))
			}
			if cells+rw > w {
				hard = i
				if r == ' ' {
					cut = i
				}
				break
			}
			if r == ' ' {
				cut = i
			}
			cells += rw
		}
		if cut <= 0 {
			if hard == 0 {
				hard = len(string([]rune(line)[0])) // a character wider than the row
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
		if s := strings.TrimSuffix(e.Stderr, "\n"); s != "" {
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
		hint = fmt.Sprintf("↕ %d above, %d below · j/k scroll", s.offset, below)
	case below > 0:
		hint = fmt.Sprintf("↓ %d more lines · j/k scroll", below)
	default:
		hint = fmt.Sprintf("↑ %d lines above · k scrolls back", s.offset)
	}
	shown = append(shown, st.Dim.Render(hint))
	return strings.Join(shown, "\n")
}
