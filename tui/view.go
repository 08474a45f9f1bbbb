package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
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
	return max(h, minBody)
}

// modalRows is how many rows the open modal takes under the body.
func (m *Model) modalRows(w int) int { return len(m.modalLines(w)) }

// minBody is the fewest rows the panes keep under an open modal: the
// queue's title and the selected ask's row.
const minBody = 3

// modalLines is the open modal drawn under the body (nil for none or for
// the key screen), in the rows the terminal has for it: a modal taller
// than that keeps its head (what it does) and its tail (the question),
// and says how many rows between them a taller terminal would show, so
// the question and the bars under it never fall off the screen.
func (m *Model) modalLines(w int) []string {
	md := m.top()
	if md == nil {
		return nil
	}
	if _, full := md.(screenModal); full {
		return nil
	}
	lines := md.lines(m, w)
	room := max(m.ctx.Height-chromeRows-1-minBody, 3)
	if len(lines) <= room {
		return lines
	}
	top := max((room-1)/3, 1)
	hidden := len(lines) - (room - 1)
	marker := m.ctx.Styles.Dim.Render(fitWords(fmt.Sprintf("⋯ %d rows hidden here: a taller terminal shows them", hidden), w))
	out := append(append(lines[:top:top], marker), lines[len(lines)-(room-1-top):]...)
	return out
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
	if lines := m.modalLines(w); len(lines) > 0 {
		rows = append(rows, st.Rule.Render(strings.Repeat("─", w)), strings.Join(lines, "\n"))
	}
	bars := m.statusBar(w) + "\n" + m.helpBar(w)
	screen := strings.Join(rows, "\n")
	if n := strings.Count(screen, "\n") + 3; n > m.ctx.Height {
		// Too short a terminal: keep the top rows, as a terminal would,
		// and the bars, which say what the keys do.
		keep := max(m.ctx.Height-2, 1)
		screen = strings.Join(strings.SplitN(screen, "\n", keep+1)[:keep], "\n")
	}
	return screen + "\n" + bars
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
	lw, dw = max(min(lw, lipgloss.Width(m.ledgerShown)), 4), max(min(dw, lipgloss.Width(m.documentShown)), 4)
	return m.ctx.Styles.Dim.Render(fit(" "+ledger+fitLeft(m.ledgerShown, lw)+sep+fitLeft(m.documentShown, dw), w))
}

// body draws the focused page, padded to its full height so the bars below
// never move.
func (m *Model) body(w int) string {
	h := m.bodyHeight()
	m.scrollHints()
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
	return block(s, w, h)
}

// scrollHints tells each pane's scrolling window which keys scroll it
// now, for the hint on its last row: the detail scrolls with j/k once tab
// gave it the keys, Explain's table with pgup/pgdn while the line has
// them, and nothing scrolls while a question or a note has the keys.
func (m *Model) scrollHints() {
	detail, explain, transcript := scrollByLetters, scrollByLetters, scrollByLetters
	switch {
	case m.top() != nil:
		detail, explain, transcript = scrollNoKeys, scrollNoKeys, scrollNoKeys
	case m.focus != focusDetail:
		detail = scrollAfterTab
	}
	if m.explain.Typing() {
		explain = scrollByPages
	}
	m.detail.scroll.how, m.explain.scroll.how, m.sessions.lines.how = detail, explain, transcript
}

// asksPage is the queue with the selected ask's detail: side by side on
// wide terminals, stacked on narrow ones.
func (m *Model) asksPage(w, h int) string {
	st := m.ctx.Styles
	queue := block(m.asks.View(), m.asks.width, m.asks.height)
	detail := m.detail.View()
	if w >= sideBySide {
		// Side by side: each queue row, the bar, the detail's row.
		left := strings.Split(block(queue, m.asks.width, h), "\n")
		right := strings.Split(block(detail, m.detail.width, h), "\n")
		bar := st.Rule.Render("│ ")
		var b strings.Builder
		for i := range h {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(left[i])
			b.WriteString(bar)
			b.WriteString(right[i])
		}
		return b.String()
	}
	if h <= m.asks.height+1 {
		return queue // no row left for the detail: no rule above nothing
	}
	return queue + "\n" + st.Rule.Render(strings.Repeat("─", w)) + "\n" + detail
}

// messageRule is the rule under the header, carrying the last thing that
// happened (an answer given, an ask closed) for a few seconds.
func (m *Model) messageRule(w int) string {
	st := m.ctx.Styles
	if wk, ok := m.shownWork(); ok && (m.message == "" || m.messageAt.Before(wk.since.Add(workShowAfter))) {
		text := " " + m.ctx.Spin + " " + fitWords(wk.what+"…", w-6) + " "
		return st.Rule.Render("─") + st.Pending.Render(text) + st.Rule.Render(strings.Repeat("─", max(w-1-textWidth(text), 0)))
	}
	if m.message == "" && m.ledgerErr == nil {
		return st.Rule.Render(strings.Repeat("─", w))
	}
	style := st.Message
	if m.messageErr || m.message == "" {
		style = st.Error
	}
	var text string
	if m.message != "" {
		text = " " + m.messageText(w-4) + " "
	} else {
		text = " " + m.ledgerWarning(w-4) + " "
	}
	return st.Rule.Render("─") + style.Render(text) + st.Rule.Render(strings.Repeat("─", max(w-1-textWidth(text), 0)))
}

// ledgerWarning says, for as long as the ledger cannot be read, that the
// queue and the count may be out of date, since when, why, and that the
// console keeps trying: a ledger on a database server that went away, or
// a file another process holds.
func (m *Model) ledgerWarning(w int) string {
	since := age(m.ctx.Now().Sub(m.ledgerErrAt))
	why := inert(m.ledgerErr.Error())
	if ledgerLocked(m.ledgerErr) {
		why = "locked by another process"
	}
	return fitWordings(w, why, []string{
		fmt.Sprintf("⚠ the ledger cannot be read for %s (%s): the queue may be out of date; retrying every %d s", since, why, reconcileTicks),
		fmt.Sprintf("⚠ the ledger cannot be read for %s (%s): the queue may be out of date; retrying", since, why),
		fmt.Sprintf("⚠ the ledger cannot be read for %s: the queue may be out of date; retrying", since),
		fmt.Sprintf("⚠ ledger unreadable for %s: queue may be stale; retrying", since),
		"⚠ ledger unreadable; retrying",
	})
}

// minAbout is the fewest cells a command named in a message is cut to.
const minAbout = 12

// messageText is the message in at most w cells: its first wording that
// fits whole, or with the command it names cut in the middle; failing
// that, its shortest wording cut after a word, with an ellipsis.
func (m *Model) messageText(w int) string {
	return fitWordings(w, m.messageAbout, append([]string{m.message}, m.messageShort...))
}

// fitWordings is the first of wordings that fits w cells, whole or with
// about (a command in it) cut in the middle to no fewer than minAbout
// cells; failing that, the last wording cut after a word.
func fitWordings(w int, about string, wordings []string) string {
	aboutW := textWidth(about)
	for _, text := range wordings {
		tw := textWidth(text)
		if tw <= w {
			return text
		}
		if room := w - (tw - aboutW); about != "" && room >= minAbout && strings.Contains(text, about) {
			return strings.Replace(text, about, strings.TrimRight(fitMiddle(about, room), " "), 1)
		}
	}
	return fitWords(wordings[len(wordings)-1], w)
}

// fitting1 is the first of a bar's wordings that fits w cells, else the
// last one cut after a word.
func fitting1(w int, wordings ...string) string {
	for _, text := range wordings {
		if textWidth(inert(text)) <= w {
			return text
		}
	}
	return fitWords(wordings[len(wordings)-1], w)
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
			return st.Pending.Render(fit(fitting1(w, fmt.Sprintf(" ◌ the ask under the cursor changed: answer keys wait %s · j/k move", waitWords(wait)),
				fmt.Sprintf(" ◌ answer keys wait %s · j/k move", waitWords(wait))), w))
		}
	}
	empty := ((m.focus == focusQueue || m.focus == focusDetail) && len(m.board.pending) == 0) ||
		(m.focus == focusSessions && len(m.board.sessions) == 0) ||
		(m.focus == focusHistory && len(m.board.history) == 0)
	var still bool
	switch {
	case m.focus == focusSessions && m.sessions.Viewing():
		still = len(m.sessions.lines.lines) <= m.sessions.height-1
	case m.focus == focusSessions:
		still = len(m.board.sessions) < 2
	case m.focus == focusHistory:
		still = m.history.count() < 2
	case m.focus == focusExplain:
		still = !m.explain.overflows()
	}
	keys := m.ctx.Keys.shortHelp(m.focus, m.sessions.Viewing(), m.typing(), empty, still)
	help := m.ctx.Keys.Help
	help.SetEnabled(!m.typing()) // while an input has the keys, ? types a ?
	return " " + m.help.ShortHelpView(fitting(keys, help, w-1, len(m.help.ShortSeparator)))
}

// block lays drawn rows out as exactly h rows of exactly w cells: a row
// too long is cut with an ellipsis (its styling kept), a short one padded,
// missing rows added blank and rows past h dropped. Panes draw rows that
// already fit, so this is a bound, and a cheap one: a row's width is
// counted once, without a grapheme walk for the common characters (see
// cellWidth), which keeps a frame of ten thousand asks fast (G-14).
func block(s string, w, h int) string {
	var b strings.Builder
	b.Grow(len(s) + w*2)
	row := 0
	for line := range strings.SplitSeq(s, "\n") {
		if row == h {
			break
		}
		if row > 0 {
			b.WriteByte('\n')
		}
		cw := cellWidth(line)
		if cw > w {
			line = ansi.Truncate(line, w, "…")
			cw = ansi.StringWidth(line)
		}
		b.WriteString(line)
		b.WriteString(spaces(w - cw))
		row++
	}
	for ; row < h; row++ {
		if row > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(spaces(w))
	}
	return b.String()
}

// cellWidth is how many cells a drawn row takes: its SGR styling takes
// none, ASCII and the narrow symbols the console draws with (rules,
// markers, arrows, brackets, control pictures) one each. Anything else
// (wide text, emoji, combining marks) is measured by grapheme clusters,
// as the renderer does.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j + 1
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !narrowSymbol(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// narrowSymbol reports whether r is one of the symbols that take one cell
// and never join the rune before or after into a wider cluster: Latin-1
// letters and signs, general punctuation (… · ‘ ’), arrows, mathematical
// brackets (⟦ ⟧ ⟨ ⟩), box drawing and blocks, the control pictures
// inert draws, and the geometric shapes the console marks states with.
// TestNarrowSymbolsAreOneCell holds every one of them to the renderer's
// count.
func narrowSymbol(r rune) bool {
	switch {
	case r >= 0xa1 && r <= 0xff && r != 0xad:
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x203b, r >= 0x203d && r <= 0x2048, r >= 0x204a && r <= 0x205e:
	case r >= 0x2190 && r <= 0x2193, r >= 0x2196 && r <= 0x21a8, r >= 0x21ab && r <= 0x21ff:
	case r == 0x23ce: // ⏎
	case r >= 0x2400 && r <= 0x2426:
	case r >= 0x2500 && r <= 0x259f:
	case r >= 0x25a0 && r <= 0x25a9, r >= 0x25ac && r <= 0x25b5, r >= 0x25b7 && r <= 0x25bf,
		r >= 0x25c1 && r <= 0x25fa:
	case r >= 0x27e6 && r <= 0x27ef:
	case r == 0x2713, r == 0x2717, r == 0x2205, r == 0x2298, r == 0x00d7:
	default:
		return false
	}
	return true
}
