package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"gatehouse/core/decisions"
)

// modal is a question or an input over the panes. The open modals form a
// stack on the Model; the top one sees every key first and the panes see
// none until it closes (STYLE §5).
type modal interface {
	// key takes one key press; done closes the modal. It must not do I/O:
	// work goes into the returned command.
	key(m *Model, k tea.KeyPressMsg) (cmd tea.Cmd, done bool)
	// lines draws the modal at width w, between the body and the status
	// bar.
	lines(m *Model, w int) []string
	// bar is the help bar's text while the modal is open.
	bar(m *Model) string
}

// inputModal is a modal with a text input: it also takes the messages that
// are not keys (pastes, the cursor's own).
type inputModal interface {
	modal
	input(m *Model, msg tea.Msg) tea.Cmd
}

// screenModal covers the whole body instead of sitting under it (the key
// screen).
type screenModal interface {
	modal
	screen(m *Model, w, h int) string
}

// top is the open modal, or nil.
func (m *Model) top() modal {
	if len(m.modals) == 0 {
		return nil
	}
	return m.modals[len(m.modals)-1]
}

// push opens a modal over what is open.
func (m *Model) push(md modal) {
	m.modals = append(m.modals, md)
	m.closeStaleQuestion() // it may come when its ask has already gone
	m.layout()
}

// pop closes the top modal.
func (m *Model) pop() {
	if len(m.modals) > 0 {
		m.modals = m.modals[:len(m.modals)-1]
	}
	m.layout()
}

// onModalKey hands a key to the top modal and closes it when it is done.
func (m *Model) onModalKey(md modal, k tea.KeyPressMsg) tea.Cmd {
	cmd, done := md.key(m, k)
	if done && m.top() == md {
		m.pop()
	}
	return cmd
}

// question is a y/N question: y does yes, any other key declines (the
// default is No). A question that opens by itself, or as the screen
// changes, ignores y until armDelay has passed since it opened, so a key
// meant for the screen before cannot answer it (G-13.6).
type question struct {
	// draw words the question for width w: what yes will do, exactly.
	draw func(w int) []string
	// yes is what y does; no is the word shown when declined.
	yes func() tea.Cmd
	no  string
	// about is the command no names, cut in the middle when it is long.
	about string
	// asks are the ids the question answers: when every one of them has
	// left the queue (answered elsewhere, cancelled, timed out) the
	// question closes, saying so, rather than wait over nothing.
	asks []string
	// yesHelp names y in the help bar ("allow all 3 once").
	yesHelp string
	// armedAt is when y starts to count; zero for at once.
	armedAt time.Time
	// quit makes the quit key a yes too (the quit question).
	quit bool
}

func (q *question) key(m *Model, k tea.KeyPressMsg) (tea.Cmd, bool) {
	keys := m.ctx.Keys
	yes := key.Matches(k, keys.Confirm) || (q.quit && key.Matches(k, keys.Quit))
	if !yes {
		m.say(false, q.about, q.no)
		return nil, true
	}
	if wait := q.armedAt.Sub(m.ctx.Now()); wait > 0 {
		m.say(true, "", fmt.Sprintf("%s waits %s: the question has just opened; read it, then press %s again", k.String(), waitWords(wait), k.String()),
			fmt.Sprintf("%s waited: the question just opened; press %s again", k.String(), k.String()))
		return nil, false
	}
	return q.yes(), true
}

func (q *question) lines(m *Model, w int) []string { return q.draw(w) }

// bar names what y does; while y still waits it says for how long.
func (q *question) bar(m *Model) string {
	if wait := q.armedAt.Sub(m.ctx.Now()); wait > 0 {
		return fitting1(m.ctx.Width, fmt.Sprintf(" ◌ y waits %s (the question just opened) · any other key: no", waitWords(wait)),
			fmt.Sprintf(" ◌ y waits %s · any other key: no", waitWords(wait)))
	}
	return " y " + q.yesHelp + " · any other key: no"
}

// noteModal is N's input, the reason a deny gives, or m's, what an allow
// once tells the agent: typed in a line that scrolls with the cursor,
// stored whole, read by the agent in its result.
type noteModal struct {
	rec     decisions.Record
	outcome string // decisions.Deny or decisions.Allow
}

func (n *noteModal) key(m *Model, k tea.KeyPressMsg) (tea.Cmd, bool) {
	keys := m.ctx.Keys
	switch {
	case key.Matches(k, keys.SendNote) && n.gone(m):
		m.note.Blur()
		m.say(true, n.rec.Command, "no answer given: "+n.rec.Command+" "+n.why(m)+" before the note was sent")
		return nil, true
	case key.Matches(k, keys.SendNote):
		note := m.note.Value()
		m.note.Blur()
		m.moveOffAnswered(n.rec.ID)
		return m.track("answering "+n.rec.Command,
			answer(m.opts.Context, m.ledger, []string{n.rec.ID}, decisions.Answer{Outcome: n.outcome, Scope: decisions.Once, Note: note, By: "console"}), n.rec.ID), true
	case key.Matches(k, keys.Back):
		m.note.Blur()
		m.say(false, n.rec.Command, "no answer given to "+n.rec.Command)
		return nil, true
	}
	var cmd tea.Cmd
	m.note, cmd = m.note.Update(k)
	return cmd, false
}

func (n *noteModal) input(m *Model, msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.note, cmd = m.note.Update(msg)
	return cmd
}

func (n *noteModal) lines(m *Model, w int) []string {
	st := m.ctx.Styles
	var out []string
	verb := "Deny"
	if n.outcome == decisions.Allow {
		verb = "Allow once"
	}
	for _, l := range wrap(fmt.Sprintf("%s %s (%s, ask %s), with a note the agent reads:", verb, n.rec.Command, n.rec.AgentID, n.rec.ID), w) {
		out = append(out, st.Prompt.Render(l))
	}
	if n.gone(m) {
		for _, l := range wrap("This ask "+n.why(m)+": enter sends nothing now, esc closes.", w) {
			out = append(out, st.Error.Render(l))
		}
	}
	return append(out, m.note.View())
}

// gone reports whether the ask the note is for has left the queue while
// the note was typed: it stays open, so the keys typed next are still
// text, and says so.
func (n *noteModal) gone(m *Model) bool { return !m.board.queued[n.rec.ID] }

// why says how the ask left the queue.
func (n *noteModal) why(m *Model) string {
	r := m.board.decided[n.rec.ID]
	switch {
	case r.Closed != "":
		return "left the queue (" + r.Closed + ")"
	case r.AnsweredBy != "":
		return "was answered by " + r.AnsweredBy
	}
	return "has left the queue"
}

// noteInputChrome is what the note line spends besides the text: the
// prompt and the cursor's cell.
const noteInputChrome = len("note › ") + 1

func (n *noteModal) bar(m *Model) string {
	if n.gone(m) {
		return " esc close · the ask has left the queue"
	}
	if n.outcome == decisions.Allow {
		return " enter allow once with this note · esc cancel"
	}
	return " enter deny with this note · esc cancel"
}

// helpModal is the `?` screen: every key, and what the answers mean. It
// scrolls when the terminal is too short for it.
type helpModal struct{ scroll scroller }

func (h *helpModal) key(m *Model, k tea.KeyPressMsg) (tea.Cmd, bool) {
	keys := m.ctx.Keys
	rows := m.bodyHeight() - 1
	switch {
	case key.Matches(k, keys.Quit):
		m.pop()
		return m.quit(), false
	case key.Matches(k, keys.Help, keys.Back):
		return nil, true
	case key.Matches(k, keys.Up):
		h.scroll.scroll(-1, rows)
	case key.Matches(k, keys.Down):
		h.scroll.scroll(1, rows)
	case key.Matches(k, keys.PageUp):
		h.scroll.scroll(-rows+1, rows)
	case key.Matches(k, keys.PageDown):
		h.scroll.scroll(rows-1, rows)
	}
	return nil, false
}

func (*helpModal) lines(*Model, int) []string { return nil }

// bar offers j/k only when the key screen is taller than its window.
func (h *helpModal) bar(m *Model) string {
	if len(h.scroll.lines) > m.bodyHeight()-1 {
		return " ? or esc close help · j/k scroll · q quit"
	}
	return " ? or esc close help · q quit"
}

func (h *helpModal) screen(m *Model, w, height int) string {
	st := m.ctx.Styles
	lines := keyColumns(st, m.ctx.Keys.fullHelp(), w)
	lines = append(lines, "")
	for _, l := range []string{
		"Answers go to the ledger first, then release the waiting line at once.",
		"y allows this line once; a allows, for the rest of the session, every command the ask's rules cover (it says which, and asks first);",
		"n refuses the line once; N does too, with a note the agent reads and the ledger keeps; m allows it once with a note the agent reads.",
		"Y and D answer every pending ask identical to the selected one (same line, command, directory and rules), after a question that counts them; Y on a session (Sessions page) allows all its pending asks once.",
		"A allows the ask once and adds a rule: an exception for exactly that command, shown as a diff of the workspace document, written after a y/N question.",
		"After the ask under the cursor changes by itself (an answer, a new or closed ask), and after a question opens, the answering keys wait a moment, so a key meant for what was there cannot answer what came.",
		"/ filters the queue (Asks) or the decisions (History) by command, session, agent, path or any word.",
		"Another terminal can answer too: gatehouse allow ID --db " + m.opts.LedgerPath,
	} {
		lines = append(lines, wrap(l, w)...)
	}
	h.scroll.lines = lines
	return st.PaneTitleFocused.Render(fit("» Keys · ? or esc to close", w)) + "\n" + h.scroll.view(st, height-1)
}

// keyColumns lays groups of keys out side by side, as many groups to a
// row as the width holds, each key with its words: nothing is cut.
func keyColumns(st Styles, groups [][]key.Binding, w int) []string {
	type block struct {
		lines []string
		width int
	}
	var blocks []block
	for _, g := range groups {
		keyW := 0
		for _, b := range g {
			keyW = max(keyW, lipgloss.Width(b.Help().Key))
		}
		var bl block
		for _, b := range g {
			l := st.Help.FullKey.Render(fit(b.Help().Key, keyW)) + " " + st.Help.FullDesc.Render(b.Help().Desc)
			bl.lines = append(bl.lines, l)
			bl.width = max(bl.width, lipgloss.Width(l))
		}
		blocks = append(blocks, bl)
	}
	const gap = 4
	var out []string
	for len(blocks) > 0 {
		n, used := 0, 0
		for n < len(blocks) && (n == 0 || used+gap+blocks[n].width <= w) {
			if n > 0 {
				used += gap
			}
			used += blocks[n].width
			n++
		}
		row := blocks[:n]
		blocks = blocks[n:]
		height := 0
		for _, b := range row {
			height = max(height, len(b.lines))
		}
		for i := range height {
			var l strings.Builder
			for j, b := range row {
				cell := ""
				if i < len(b.lines) {
					cell = b.lines[i]
				}
				if j < len(row)-1 {
					cell += strings.Repeat(" ", b.width-lipgloss.Width(cell)+gap)
				}
				l.WriteString(cell)
			}
			out = append(out, strings.TrimRight(l.String(), " "))
		}
		if len(blocks) > 0 {
			out = append(out, "")
		}
	}
	return out
}

// waitWords is a short wait in tenths of a second, rounded up: "0.4s".
func waitWords(d time.Duration) string {
	tenths := (d + 100*time.Millisecond - 1) / (100 * time.Millisecond)
	return fmt.Sprintf("%d.%ds", tenths/10, tenths%10)
}
