package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"gatehouse/core/decisions"
)

// asksPane is the live queue of pending asks, oldest first (G-13.1). It
// draws only the rows that fit, so ten thousand waiting asks cost no more
// to show than ten (G-14).
type asksPane struct {
	ctx     *Context
	board   *board
	width   int
	height  int
	focused bool

	selected   int    // index into board.pending
	selectedID string // what the selection follows as the queue changes
	offset     int    // first row shown
}

func newAsksPane(ctx *Context, b *board) asksPane {
	return asksPane{ctx: ctx, board: b}
}

func (p *asksPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.keepVisible()
}

// rows is how many asks fit under the title.
func (p *asksPane) rows() int { return max(p.height-1, 1) }

// Selected is the ask under the cursor, if any.
func (p *asksPane) Selected() (decisions.Record, bool) {
	if p.selected < 0 || p.selected >= len(p.board.pending) {
		return decisions.Record{}, false
	}
	return p.board.pending[p.selected], true
}

// follow keeps the selection on the same ask when others arrive or leave;
// when the selected ask itself left, the selection stays at its place,
// which is now the next pending ask (G-13.5).
func (p *asksPane) follow() {
	if p.selectedID != "" {
		if i := p.board.indexOf(p.selectedID); i >= 0 {
			p.selected = i
			p.keepVisible()
			return
		}
	}
	p.selected = max(0, min(p.selected, len(p.board.pending)-1))
	p.selectedID = ""
	if r, ok := p.Selected(); ok {
		p.selectedID = r.ID
	}
	p.keepVisible()
}

func (p *asksPane) moveTo(i int) {
	p.selected = max(0, min(i, len(p.board.pending)-1))
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
	p.offset = max(0, min(p.offset, len(p.board.pending)-rows))
}

// Update moves the selection.
func (p *asksPane) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := p.ctx.Keys
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

// View draws the title and the visible rows.
func (p *asksPane) View() string {
	st := p.ctx.Styles
	n := len(p.board.pending)
	title := fmt.Sprintf("Asks · %d waiting · oldest first", n)
	if n > p.rows() {
		title += fmt.Sprintf(" · %d–%d shown", p.offset+1, min(p.offset+p.rows(), n))
	}
	lines := make([]string, 0, p.height)
	lines = append(lines, paneTitle(st, title, p.focused, p.width))
	if n == 0 {
		lines = append(lines, st.Dim.Render(fit("  No asks waiting. New ones appear here as agents raise them.", p.width)))
		return strings.Join(lines, "\n")
	}
	now := p.ctx.Now()
	ageW, agentW, sessionW := 5, 12, 14
	if p.width < 100 {
		agentW, sessionW = 11, 10
	}
	rest := p.width - 2 - ageW - agentW - sessionW - 3
	commandW := max(rest*3/5, 8)
	reasonW := max(rest-commandW-1, 0)
	end := min(p.offset+p.rows(), n)
	for i := p.offset; i < end; i++ {
		r := p.board.pending[i]
		marker := "  "
		if i == p.selected {
			marker = "▸ "
		}
		row := marker + fit(age(now.Sub(r.CreatedAt)), ageW) + fit(r.AgentID, agentW) + " " +
			fitLeft(shortSession(r.SessionID, r.AgentID), sessionW) + " " + fit(r.Command, commandW) + " " + fit(reasons(r), reasonW)
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
