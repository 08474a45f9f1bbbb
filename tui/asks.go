package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"gatehouse/core/decisions"
)

// asksPane is the live queue of pending asks, oldest first (G-13.1), with
// a filter (/) over command, session, agent, path and any word. It draws
// only the rows that fit, so ten thousand waiting asks cost no more to
// show than ten (G-14).
type asksPane struct {
	ctx     *Context
	board   *board
	width   int
	height  int
	focused bool

	filter    textinput.Model
	filtering bool // the filter input has the keys
	// shown are the indexes into board.pending the filter lets through.
	shown filterCache

	selected   int    // index into the asks shown
	selectedID string // what the selection follows as the queue changes
	offset     int    // first row shown
}

func newAsksPane(ctx *Context, b *board) asksPane {
	return asksPane{ctx: ctx, board: b, shown: newFilterCache(),
		filter: newInput("/ ", "command, session:ID, agent:NAME, path:/dir or any words")}
}

func (p *asksPane) SetSize(w, h int) {
	p.width, p.height = w, h
	setInputWidth(&p.filter, max(w-4, 10))
	p.keepVisible()
}

// rows is how many asks fit under the title (and the filter line).
func (p *asksPane) rows() int {
	h := p.height - 1
	if p.filterShown() {
		h--
	}
	return max(h, 1)
}

// filterShown reports whether the filter line is on screen.
func (p *asksPane) filterShown() bool { return p.filtering || p.filter.Value() != "" }

// Typing reports whether the filter input has the keys, so q types a q.
func (p *asksPane) Typing() bool { return p.filtering }

// StartFilter gives the keys to the filter input.
func (p *asksPane) StartFilter() tea.Cmd {
	p.filtering = true
	return p.filter.Focus()
}

// clearFilter shows every ask again.
func (p *asksPane) clearFilter() {
	p.filtering = false
	p.filter.Blur()
	p.filter.SetValue("")
	p.follow()
}

// count is how many asks the pane shows (all, or those matching).
func (p *asksPane) count() int {
	if p.refresh(); p.shown.indexes == nil {
		return len(p.board.pending)
	}
	return len(p.shown.indexes)
}

// at is the i-th ask shown.
func (p *asksPane) at(i int) decisions.Record {
	if p.shown.indexes == nil {
		return p.board.pending[i]
	}
	return p.board.pending[p.shown.indexes[i]]
}

// refresh recomputes which asks the filter lets through when the queue or
// the filter changed since the last time.
func (p *asksPane) refresh() {
	p.shown.update(p.board.version, p.filter.Value(), len(p.board.pending), p.board.pendingSearch)
}

// Selected is the ask under the cursor, if any.
func (p *asksPane) Selected() (decisions.Record, bool) {
	if p.selected < 0 || p.selected >= p.count() {
		return decisions.Record{}, false
	}
	return p.at(p.selected), true
}

// indexOf finds an ask among those shown.
func (p *asksPane) indexOf(id string) int {
	i := p.board.indexOf(id)
	if p.refresh(); i < 0 || p.shown.indexes == nil {
		return i
	}
	if j, found := slices.BinarySearch(p.shown.indexes, i); found {
		return j
	}
	return -1
}

// follow keeps the selection on the same ask when others arrive or leave;
// when the selected ask itself left, the selection stays at its place,
// which is now the next pending ask (G-13.5).
func (p *asksPane) follow() {
	if p.selectedID != "" {
		if i := p.indexOf(p.selectedID); i >= 0 {
			p.selected = i
			p.keepVisible()
			return
		}
	}
	p.moveTo(p.selected)
}

// stepOff points the selection at the ask after id among those shown (or
// the one before, when id is the last), so answering walks down the queue.
func (p *asksPane) stepOff(id string) {
	i := p.indexOf(id)
	if i < 0 {
		return
	}
	switch n := p.count(); {
	case i+1 < n:
		p.moveTo(i + 1)
	case i > 0:
		p.moveTo(i - 1)
	default:
		p.selected, p.selectedID = 0, ""
	}
}

func (p *asksPane) moveTo(i int) {
	p.selected = max(0, min(i, p.count()-1))
	p.selectedID = ""
	if r, ok := p.Selected(); ok {
		p.selectedID = r.ID
	}
	p.keepVisible()
}

func (p *asksPane) keepVisible() {
	rows := p.rows()
	if p.selected < p.offset {
		p.offset = p.selected
	}
	if p.selected >= p.offset+rows {
		p.offset = p.selected - rows + 1
	}
	p.offset = max(0, min(p.offset, p.count()-rows))
}

// isMove reports whether k is one of the keys that move the selection:
// the human's own navigation.
func (p *asksPane) isMove(k tea.KeyPressMsg) bool {
	keys := p.ctx.Keys
	return key.Matches(k, keys.Up, keys.Down, keys.PageUp, keys.PageDown)
}

// Update moves the selection, or edits the filter while it has the keys.
func (p *asksPane) Update(msg tea.Msg) tea.Cmd {
	k, isKey := msg.(tea.KeyPressMsg)
	keys := p.ctx.Keys
	if p.filtering {
		switch {
		case isKey && key.Matches(k, keys.KeepFilter):
			p.filtering = false
			p.filter.Blur()
			return nil
		case isKey && key.Matches(k, keys.ClearFilter):
			p.clearFilter()
			return nil
		}
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		p.follow()
		return cmd
	}
	if !isKey {
		return nil
	}
	switch {
	case key.Matches(k, keys.Up):
		p.moveTo(p.selected - 1)
	case key.Matches(k, keys.Down):
		p.moveTo(p.selected + 1)
	case key.Matches(k, keys.PageUp):
		p.moveTo(p.selected - p.rows())
	case key.Matches(k, keys.PageDown):
		p.moveTo(p.selected + p.rows())
	}
	return nil
}

// View draws the title, the filter when there is one, and the visible rows.
func (p *asksPane) View() string {
	st := p.ctx.Styles
	n, all := p.count(), len(p.board.pending)
	title := fmt.Sprintf("Asks · %d waiting · oldest first", all)
	if p.shown.indexes != nil {
		title = fmt.Sprintf("Asks · %d of %d waiting match", n, all)
	}
	if n > p.rows() {
		title += fmt.Sprintf(" · %d–%d shown", p.offset+1, min(p.offset+p.rows(), n))
	}
	lines := make([]string, 0, p.height)
	lines = append(lines, paneTitle(st, title, p.focused, p.width))
	if p.filterShown() {
		lines = append(lines, " "+p.filter.View())
	}
	switch {
	case all == 0:
		for _, l := range wrap("No asks waiting. New ones appear here as agents raise them.", max(p.width-2, 10)) {
			lines = append(lines, st.Dim.Render("  "+l))
		}
		return strings.Join(lines, "\n")
	case n == 0:
		lines = append(lines, st.Dim.Render(fit("  No waiting ask matches; esc clears the filter.", p.width)))
		return strings.Join(lines, "\n")
	}
	end := min(p.offset+p.rows(), n)
	cols := p.columns(p.offset, end)
	now := p.ctx.Now()
	for i := p.offset; i < end; i++ {
		r := p.at(i)
		marker := "  "
		if i == p.selected {
			marker = "▸ "
		}
		reason := p.reasonCell(r)
		row := marker + fit(age(now.Sub(r.CreatedAt)), cols.age) + fit(r.AgentID, cols.agent) + colGap +
			fitLeft(shortSession(r.SessionID, r.AgentID), cols.session) + colGap + fitMiddle(r.Command, cols.command) + colGap + fitNearWord(reason, cols.reason)
		row = fit(row, p.width)
		if i == p.selected && p.focused {
			row = st.Selected.Render(row)
		} else if i == p.selected {
			row = st.Label.Render(row)
		}
		lines = append(lines, row)
	}
	return strings.Join(lines, "\n")
}

// colGap separates a queue row's cells.
const colGap = "  "

// reasonCell is a row's reason, after the count of identical asks when
// there are several.
func (p *asksPane) reasonCell(r decisions.Record) string {
	if same := p.board.sameCount(r); same > 1 {
		return fmt.Sprintf("×%d same · %s", same, reasons(r))
	}
	return reasons(r)
}

// queueColumns are the widths of a queue row's cells.
type queueColumns struct{ age, agent, session, command, reason int }

// columns sizes the cells to the rows on screen: names as wide as the
// widest shown (within bounds), the command as much as it needs before the
// reason, so wide terminals show whole commands instead of cutting them
// short beside empty space.
func (p *asksPane) columns(from, to int) queueColumns {
	c := queueColumns{age: 5, agent: 5, session: 2}
	cmdNeed, reasonNeed := 0, 0
	for i := from; i < to; i++ {
		r := p.at(i)
		c.agent = max(c.agent, lipgloss.Width(r.AgentID))
		c.session = max(c.session, lipgloss.Width(shortSession(r.SessionID, r.AgentID)))
		cmdNeed = max(cmdNeed, lipgloss.Width(r.Command))
		reasonNeed = max(reasonNeed, lipgloss.Width(p.reasonCell(r)))
	}
	c.agent = min(c.agent, 16)
	c.session = min(c.session, 16)
	if p.width < 100 {
		c.agent, c.session = min(c.agent, 12), min(c.session, 10) // "capacity-bot" whole
	}
	rest := max(p.width-2-c.age-c.agent-c.session-3*len(colGap), 10)
	switch {
	case cmdNeed+reasonNeed <= rest:
		c.command = cmdNeed
	default:
		c.command = max(min(cmdNeed, rest*3/5), rest-reasonNeed, 8)
	}
	c.reason = max(rest-c.command, 0)
	return c
}

// shortSession drops the agent's name from a session id that starts with
// it (the demo's "responder-3f2a"), since the agent column already says it.
func shortSession(id, agent string) string {
	if rest, ok := strings.CutPrefix(id, agent+"-"); ok && agent != "" && rest != "" {
		return "#" + rest
	}
	return id
}

// paneTitle is a pane's first row; the focused pane says so with a marker
// as well as a colour.
func paneTitle(st Styles, title string, focused bool, width int) string {
	if focused {
		return st.PaneTitleFocused.Render(fit("» "+title, width))
	}
	return st.PaneTitle.Render(fit("  "+title, width))
}

// reasons is the reason a queue row shows: the first rule's, after how
// many rules the answer settles when more than one (G-4.10), so a narrow
// column cuts the reason, not the count.
func reasons(r decisions.Record) string {
	if len(r.Rules) > 1 {
		return fmt.Sprintf("%d rules: %s", len(r.Rules), r.Reason)
	}
	return r.Reason
}
