package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// The console's frame: a header row, a rule, the body, the status bar and
// the help bar. The body is what is left.
const chromeRows = 4

// sideBySide is the width from which the queue and the detail sit next to
// each other instead of one above the other.
const sideBySide = 140

// bodyHeight is the rows the panes get, less the modal line when a
// question or the note input is open.
func (m *Model) bodyHeight() int {
	h := m.ctx.Height - chromeRows
	switch {
	case m.amend != nil:
		h -= 1 + m.amendRows()
	case m.confirm != nil || m.noteFor != "":
		h -= 2
	}
	return max(h, 3)
}

// layout gives every pane its size.
func (m *Model) layout() {
	w, h := max(m.ctx.Width, 20), m.bodyHeight()
	if w >= sideBySide {
		qw := w * 45 / 100
		m.asks.SetSize(qw, h)
		m.detail.SetSize(w-qw-2, h)
	} else {
		// The queue takes the rows its asks need, up to two fifths of the
		// body; the detail gets the rest.
		qh := max(min(len(m.board.pending)+1, h*2/5), 3)
		m.asks.SetSize(w, qh)
		m.detail.SetSize(w, max(h-qh-1, 2))
	}
	m.sessions.SetSize(w, h)
	m.history.SetSize(w, h)
	m.explain.SetSize(w, h)
	m.help.SetWidth(w)
	m.note.SetWidth(max(w-12, 10))
}

// View draws the whole screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "gatehouse · " + m.countWords()
	return v
}

// render is the screen as a string (View wraps it; benchmarks and tests
// read it directly).
func (m *Model) render() string {
	w := max(m.ctx.Width, 20)
	st := m.ctx.Styles
	rows := []string{m.header(w), m.messageRule(w)}
	body := m.body(w)
	rows = append(rows, body)
	if modal := m.modal(w); modal != "" {
		rows = append(rows, st.Rule.Render(strings.Repeat("─", w)), modal)
	}
	rows = append(rows, m.statusBar(w), m.helpBar(w))
	return lipgloss.NewStyle().MaxHeight(m.ctx.Height).Render(strings.Join(rows, "\n"))
}

func (m *Model) countWords() string {
	switch n := len(m.board.pending); n {
	case 0:
		return "no asks waiting"
	case 1:
		return "1 ask waiting"
	default:
		return fmt.Sprintf("%d asks waiting", n)
	}
}

// header names the console, counts the waiting asks whatever pane has
// focus (G-13.5), and shows the pages with the current one marked.
func (m *Model) header(w int) string {
	st := m.ctx.Styles
	count := "○ " + m.countWords()
	countStyle := st.CountCalm
	if len(m.board.pending) > 0 {
		count = "◆ " + m.countWords()
		countStyle = st.CountAlert
	}
	var tabs []string
	for i, name := range tabNames {
		if i == m.focus.tab() {
			tabs = append(tabs, st.TabActive.Render("["+name+"]"))
		} else {
			tabs = append(tabs, st.TabInactive.Render(" "+name+" "))
		}
	}
	left := " " + st.Brand.Render("gatehouse") + "  " + countStyle.Render(count)
	right := strings.Join(tabs, " ")
	if lipgloss.Width(left)+1+lipgloss.Width(right) > w {
		// Too narrow for every page name: keep the current one.
		right = tabs[m.focus.tab()]
	}
	gap := w - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		return st.CountAlert.Render(fit(" "+count, w)) // the count matters most
	}
	return left + strings.Repeat(" ", gap) + right
}

// body draws the focused page, padded to its full height so the bars below
// never move.
func (m *Model) body(w int) string {
	h := m.bodyHeight()
	var s string
	switch {
	case m.fullHelp:
		s = m.fullHelpView(w)
	case m.focus == focusQueue || m.focus == focusDetail:
		s = m.asksPage(w, h)
	case m.focus == focusSessions:
		s = m.sessions.View()
	case m.focus == focusHistory:
		s = m.history.View()
	default:
		s = m.explain.View()
	}
	return lipgloss.NewStyle().Width(w).Height(h).MaxHeight(h).MaxWidth(w).Render(s)
}

// asksPage is the queue with the selected ask's detail: side by side on
// wide terminals, stacked on narrow ones.
func (m *Model) asksPage(w, h int) string {
	st := m.ctx.Styles
	queue := lipgloss.NewStyle().Width(m.asks.width).Height(m.asks.height).MaxHeight(m.asks.height).Render(m.asks.View())
	detail := m.detail.View()
	if w >= sideBySide {
		bar := st.Rule.Render(strings.TrimSuffix(strings.Repeat("│ \n", h), "\n"))
		return lipgloss.JoinHorizontal(lipgloss.Top, queue, bar, detail)
	}
	return queue + "\n" + st.Rule.Render(strings.Repeat("─", w)) + "\n" + detail
}

func (m *Model) fullHelpView(w int) string {
	st := m.ctx.Styles
	lines := []string{
		st.PaneTitleFocused.Render(fit("» Keys · ? or esc to close", w)),
		"",
		m.help.FullHelpView(m.ctx.Keys.fullHelp()),
		"",
	}
	for _, l := range []string{
		"Answers go to the ledger first, then release the waiting line at once.",
		"y allows this line once; a allows what the rule covers for the rest of the session;",
		"n refuses the line once; N does too, with a note the ledger keeps.",
		"Y on a session (Sessions page) allows every pending ask of it once, after a y/N question.",
		"A allows the ask once and adds a rule: an exception for exactly that command on the ask rule, shown as a diff of the workspace document, written and applied after a y/N question.",
		"Another terminal can answer too: gatehouse allow ID --db " + m.opts.LedgerPath,
	} {
		lines = append(lines, wrap(l, w)...)
	}
	return strings.Join(lines, "\n")
}

// modal is the open question or input, above the status bar.
func (m *Model) modal(w int) string {
	st := m.ctx.Styles
	switch {
	case m.amend != nil:
		return strings.Join(m.amendLines(w), "\n")
	case m.confirm != nil:
		asks := "the pending ask"
		if n := len(m.confirm.ids); n > 1 {
			asks = fmt.Sprintf("all %d pending asks", n)
		}
		q := fmt.Sprintf("Allow %s of %s (%s) once? y/N", asks, m.confirm.agent, m.confirm.sessionID)
		return st.Prompt.Render(fit(q, w))
	case m.noteFor != "":
		return st.Prompt.Render("deny "+m.noteFor+" ") + m.note.View()
	}
	return ""
}

// messageRule is the rule under the header, carrying the last thing that
// happened (an answer given, an ask closed) for a few seconds.
func (m *Model) messageRule(w int) string {
	st := m.ctx.Styles
	if m.message == "" {
		return st.Rule.Render(strings.Repeat("─", w))
	}
	style := st.Message
	if m.messageErr {
		style = st.Error
	}
	text := fit(" "+m.message+" ", min(lipgloss.Width(m.message)+2, w-2))
	return st.Rule.Render("─") + style.Render(text) + st.Rule.Render(strings.Repeat("─", max(w-1-lipgloss.Width(text), 0)))
}

// statusBar shows how many sessions run and wait, and the ledger's path
// (G-13.5).
func (m *Model) statusBar(w int) string {
	b := m.board
	counts := fmt.Sprintf(" ● %d running · ◆ %d waiting · %d sessions · ledger ", b.count("running"), b.count("waiting"), len(b.sessions))
	path := fitLeft(m.opts.LedgerPath, max(w-lipgloss.Width(counts), 8))
	return m.ctx.Styles.Status.Render(fit(counts+path, w))
}

// helpBar is the one-line help for the focused pane, or for the open
// question.
func (m *Model) helpBar(w int) string {
	st := m.ctx.Styles
	switch {
	case m.confirm != nil:
		return st.Status.Render(fit(" y allow all once · any other key: no", w))
	case m.amend != nil:
		return st.Status.Render(fit(" y write the rule and allow once · any other key: no", w))
	case m.noteFor != "":
		return st.Status.Render(fit(" enter deny with this note · esc cancel", w))
	case m.fullHelp:
		return st.Status.Render(fit(" ? close help · q quit", w))
	}
	return " " + m.help.ShortHelpView(fitting(m.ctx.Keys.shortHelp(m.focus, m.sessions.Viewing(), m.typing()), w-1, len(m.help.ShortSeparator)))
}

// fitting keeps the leading bindings that fit in w cells: the help bar
// drops its least important keys rather than run off the screen.
func fitting(bindings []key.Binding, w, sepWidth int) []key.Binding {
	used := 0
	for i, b := range bindings {
		if !b.Enabled() {
			continue
		}
		item := lipgloss.Width(b.Help().Key) + 1 + lipgloss.Width(b.Help().Desc)
		if used > 0 {
			item += sepWidth
		}
		if used+item > w {
			return bindings[:i]
		}
		used += item
	}
	return bindings
}
