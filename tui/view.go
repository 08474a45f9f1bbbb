package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// The console's frame: two header rows (the count and the pages; the
// ledger and the document), a rule that carries messages, the body, the
// status bar and the help bar. The body is what is left.
const chromeRows = 5

// sideBySide is the width from which the queue and the detail sit next to
// each other instead of one above the other. Below it both take the whole
// width (at 160 columns a queue row shows 160 columns, not a share); from
// it the queue keeps three fifths, never less than queueMinWide columns,
// and the detail, about 80 columns, the rest.
const (
	sideBySide   = 200
	queueMinWide = 100
)

// bodyHeight is the rows the panes get, less the open modal's rows.
func (m *Model) bodyHeight() int {
	h := m.ctx.Height - chromeRows
	if n := m.modalRows(max(m.ctx.Width, 20)); n > 0 {
		h -= 1 + n
	}
	return max(h, 3)
}

// modalRows is how many rows the open modal takes under the body.
func (m *Model) modalRows(w int) int {
	md := m.top()
	if md == nil {
		return 0
	}
	if _, full := md.(screenModal); full {
		return 0
	}
	return len(md.lines(m, w))
}

// layout gives every pane its size.
func (m *Model) layout() {
	w, h := max(m.ctx.Width, 20), m.bodyHeight()
	if w >= sideBySide {
		qw := max(queueMinWide, w*3/5)
		m.asks.SetSize(qw, h)
		m.detail.SetSize(w-qw-2, h)
	} else {
		// The queue takes the rows its asks need, up to two fifths of the
		// body; the detail gets the rest.
		need := m.asks.count() + 1
		if m.asks.filterShown() {
			need++
		}
		qh := max(min(need, h*2/5), 3)
		m.asks.SetSize(w, qh)
		m.detail.SetSize(w, max(h-qh-1, 2))
	}
	m.sessions.SetSize(w, h)
	m.history.SetSize(w, h)
	m.explain.SetSize(w, h)
	m.help.SetWidth(w)
	setInputWidth(&m.note, max(w-noteInputChrome, 10))
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
	rows := []string{m.header(w), m.whereRow(w), m.messageRule(w), m.body(w)}
	if md := m.top(); md != nil {
		if _, full := md.(screenModal); !full {
			rows = append(rows, st.Rule.Render(strings.Repeat("─", w)), strings.Join(md.lines(m, w), "\n"))
		}
	}
	rows = append(rows, m.statusBar(w), m.helpBar(w))
	return lipgloss.NewStyle().MaxHeight(m.ctx.Height).Render(strings.Join(rows, "\n"))
}

// countWords is the one count of waiting asks: the header, the window
// title and the queue all read the board's queue, which the ledger keeps
// (see reconcile).
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
	if n := len(m.board.pending); n > 0 {
		count = "◆ " + m.countWords()
		if s := len(m.board.bySession); s > 1 {
			count += fmt.Sprintf(" · %d sessions", s)
		}
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

// whereRow is the header's second row: the ledger the console reads and
// the document its workspace came from (G-13.5). A path too long for the
// row keeps its end, the part that tells files apart.
func (m *Model) whereRow(w int) string {
	const ledger = "ledger "
	if m.documentShown == "" {
		return m.ctx.Styles.Dim.Render(fit(" "+ledger+fitLeft(m.ledgerShown, max(w-1-len(ledger), 8)), w))
	}
	const sep = " · workspace "
	room := w - 1 - len(ledger) - lipgloss.Width(sep)
	lw, dw := lipgloss.Width(m.ledgerShown), lipgloss.Width(m.documentShown)
	switch {
	case lw+dw <= room:
	case dw <= room/3:
		lw = room - dw
	case lw <= room/3:
		dw = room - lw
	default:
		lw = room / 2
		dw = room - lw
	}
	lw, dw = max(lw, 4), max(dw, 4)
	return m.ctx.Styles.Dim.Render(fit(" "+ledger+fitLeft(m.ledgerShown, lw)+sep+fitLeft(m.documentShown, dw), w))
}

// body draws the focused page, padded to its full height so the bars below
// never move.
func (m *Model) body(w int) string {
	h := m.bodyHeight()
	var s string
	md, full := m.top().(screenModal)
	switch {
	case full:
		s = md.screen(m, w, h)
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

// statusBar counts the sessions this console hosts and how many run
// (G-13.5). Asks are counted once, in the header.
func (m *Model) statusBar(w int) string {
	b := m.board
	text := fmt.Sprintf(" %s here · ● %d running", plural(len(b.sessions), "session", "sessions"), b.count("running"))
	return m.ctx.Styles.Status.Render(fit(text, w))
}

// helpBar is the one-line help for the focused pane, or for the open
// modal. While the answering keys wait (see arming) it says so instead.
func (m *Model) helpBar(w int) string {
	st := m.ctx.Styles
	if md := m.top(); md != nil {
		return st.Status.Render(fit(md.bar(m), w))
	}
	if wait := m.armWait(); wait > 0 && (m.focus == focusQueue || m.focus == focusDetail) && !m.asks.Typing() {
		if _, ok := m.asks.Selected(); ok {
			return st.Pending.Render(fit(fmt.Sprintf(" ◌ the ask under the cursor changed: answer keys wait %s · j/k move", waitWords(wait)), w))
		}
	}
	keys := m.ctx.Keys.shortHelp(m.focus, m.sessions.Viewing(), m.typing())
	return " " + m.help.ShortHelpView(fitting(keys, m.ctx.Keys.Help, w-1, len(m.help.ShortSeparator)))
}
