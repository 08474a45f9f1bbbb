package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// sessionsPane lists every session with its agent, profile, state and
// pending count; enter opens a session's live transcript (G-13.1).
type sessionsPane struct {
	ctx     *Context
	board   *board
	width   int
	height  int
	focused bool

	selected int
	offset   int

	// viewing is the session whose transcript is open ("" = the list).
	viewing string
	lines   scroller
	// runRows are the transcript's rows of lines still running: they
	// carry the spinner's frame.
	runRows []int
	// following keeps the transcript's newest line in view; scrolling up
	// stops it, scrolling back to the end resumes it.
	following bool
}

func newSessionsPane(ctx *Context, b *board) sessionsPane {
	return sessionsPane{ctx: ctx, board: b}
}

func (p *sessionsPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.Refresh()
}

// Selected is the session under the cursor.
func (p *sessionsPane) Selected() (sessionInfo, bool) {
	if p.selected < 0 || p.selected >= len(p.board.sessions) {
		return sessionInfo{}, false
	}
	return p.board.sessions[p.selected], true
}

// Viewing reports whether a transcript is open.
func (p *sessionsPane) Viewing() bool { return p.viewing != "" }

// Open shows a session's transcript, following its output.
func (p *sessionsPane) Open(id string) {
	p.viewing, p.following = id, true
	p.Refresh()
}

// Close goes back to the list.
func (p *sessionsPane) Close() { p.viewing = "" }

// Refresh re-lays the transcript after new events.
func (p *sessionsPane) Refresh() {
	p.selected = max(0, min(p.selected, len(p.board.sessions)-1))
	if p.viewing == "" {
		return
	}
	p.lines.setLines(p.transcriptLines())
	if p.following {
		p.lines.toEnd(p.height - 1)
	}
}

func (p *sessionsPane) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := p.ctx.Keys
	if p.viewing != "" {
		body := p.height - 1
		switch {
		case key.Matches(k, keys.Up):
			p.lines.scroll(-1, body)
		case key.Matches(k, keys.Down):
			p.lines.scroll(1, body)
		case key.Matches(k, keys.PageUp):
			p.lines.scroll(-body+1, body)
		case key.Matches(k, keys.PageDown):
			p.lines.scroll(body-1, body)
		}
		p.following = p.lines.atEnd(body)
		return nil
	}
	switch {
	case key.Matches(k, keys.Up):
		p.selected = max(p.selected-1, 0)
	case key.Matches(k, keys.Down):
		p.selected = min(p.selected+1, len(p.board.sessions)-1)
	}
	p.selected = max(p.selected, 0)
	return nil
}

func (p *sessionsPane) View() string {
	if p.viewing != "" {
		return p.transcriptView()
	}
	st := p.ctx.Styles
	b := p.board
	title := fmt.Sprintf("Sessions · %d · %d running · %d waiting · %d idle",
		len(b.sessions), b.count("running"), b.count("waiting"), b.count("idle"))
	lines := []string{paneTitle(st, title, p.focused, p.width)}
	if len(b.sessions) == 0 {
		for _, l := range wrap("No sessions yet. Agents' sessions appear here as they start: replayed, over REST or MCP.", max(p.width-2, 10)) {
			lines = append(lines, st.Dim.Render("  "+l))
		}
		return strings.Join(lines, "\n")
	}
	agentW, idW, profileW, stateW, pendW, restW := p.columns()
	head := "  " + fit("AGENT", agentW) + fit("SESSION", idW) + fit("PROFILE", profileW) + fit("STATE", stateW) + fit("PENDING", pendW) + fit("CWD", restW)
	lines = append(lines, st.Dim.Render(fit(head, p.width)))
	rows := max(p.height-2, 1)
	if p.selected < p.offset {
		p.offset = p.selected
	}
	if p.selected >= p.offset+rows {
		p.offset = p.selected - rows + 1
	}
	for i := p.offset; i < min(p.offset+rows, len(b.sessions)); i++ {
		s := b.sessions[i]
		marker := "  "
		if i == p.selected {
			marker = "▸ "
		}
		pending := "—"
		if n := b.bySession[s.ID]; n > 0 {
			pending = fmt.Sprintf("%d ask", n)
			if n > 1 {
				pending += "s"
			}
		}
		profile := s.Profile
		if profile == "" {
			profile = "(none)"
		}
		cells := []string{marker + fit(s.Agent, agentW-1) + " " + fitLeft(s.ID, idW-1) + " " + fit(profile, profileW),
			fit(stateLabel(s.State), stateW), fit(pending, pendW) + fit(s.Cwd, restW)}
		var row string
		if i == p.selected && p.focused {
			row = st.Selected.Render(fit(strings.Join(cells, ""), p.width))
		} else {
			row = cells[0] + st.stateStyle(s.State).Render(cells[1]) + cells[2]
		}
		lines = append(lines, row)
	}
	return strings.Join(lines, "\n")
}

// columns sizes the Sessions table to what it shows: each column as wide
// as its widest cell and two blanks, the directory taking what is left. A
// narrow terminal leaves the directory out, then keeps one blank between
// names, then cuts session ids from the left (their tail tells them
// apart), then agents, so the rows fit instead of each being cut off.
func (p *sessionsPane) columns() (agentW, idW, profileW, stateW, pendW, restW int) {
	agentW, idW, profileW, stateW, pendW = len("AGENT"), len("SESSION"), len("PROFILE"), textWidth("◆ waiting"), len("PENDING")
	for _, s := range p.board.sessions {
		agentW = max(agentW, textWidth(inert(s.Agent)))
		idW = max(idW, textWidth(inert(s.ID)))
		profileW = max(profileW, textWidth(inert(s.Profile)), len("(none)"))
		if n := p.board.bySession[s.ID]; n > 9 {
			pendW = max(pendW, len(fmt.Sprint(n))+len(" asks"))
		}
	}
	agentW, idW, profileW = min(agentW, 20)+2, min(idW, 24)+2, min(profileW, 16)+2
	stateW, pendW = stateW+2, pendW+2
	over := func() int { return 2 + agentW + idW + profileW + stateW + pendW - p.width }
	if d := over(); d > 0 {
		agentW, idW, profileW = agentW-1, idW-1, profileW-1 // one blank between names
	}
	if d := over(); d > 0 {
		idW = max(idW-d, 9)
	}
	if d := over(); d > 0 {
		agentW = max(agentW-d, 9)
	}
	restW = max(p.width-2-agentW-idW-profileW-stateW-pendW, 0)
	if restW < 8 {
		restW = 0 // no room for a directory worth reading
	}
	return
}

func (p *sessionsPane) transcriptView() string {
	st := p.ctx.Styles
	info := sessionInfo{ID: p.viewing}
	for _, s := range p.board.sessions {
		if s.ID == p.viewing {
			info = s
		}
	}
	follow := "following"
	if !p.following {
		follow = "paused · scroll to the end to follow"
	}
	short := "following"
	if !p.following {
		short = "paused"
	}
	id, state := shortSession(info.ID, info.Agent), stateLabel(info.State)
	// A narrow terminal drops the profile, then says less of following,
	// then the id, rather than cut the title mid-word.
	title := fitting1(max(p.width-2, 10),
		fmt.Sprintf("Transcript · %s · %s · %s · %s · %s", info.Agent, id, orDash(info.Profile), state, follow),
		fmt.Sprintf("Transcript · %s · %s · %s · %s", info.Agent, id, state, follow),
		fmt.Sprintf("Transcript · %s · %s · %s · %s", info.Agent, id, state, short),
		fmt.Sprintf("Transcript · %s · %s · %s", info.Agent, state, short))
	for _, i := range p.runRows {
		if i < len(p.lines.lines) {
			p.lines.lines[i] = runningRow(p.ctx) // the spinner turns
		}
	}
	return paneTitle(st, title, p.focused, p.width) + "\n" + p.lines.view(st, p.height-1)
}

// transcriptLines lays out a session's lines with what each produced.
func (p *sessionsPane) transcriptLines() []string {
	st := p.ctx.Styles
	w := max(p.width, 20)
	p.runRows = p.runRows[:0]
	t := p.board.lines[p.viewing]
	if t == nil || len(t.entries) == 0 {
		return []string{st.Dim.Render("No lines yet.")}
	}
	var out []string
	for _, e := range t.entries {
		out = append(out, indentWrap("$ ", e.Line, w)...)
		out = append(out, p.answerLines(e, w)...)
		if !e.Done {
			if e.Waiting != "" {
				out = append(out, st.Waiting.Render("  ◆ waiting for an answer to ask "+e.Waiting))
			} else {
				p.runRows = append(p.runRows, len(out))
				out = append(out, runningRow(p.ctx))
			}
			continue
		}
		r := e.Result
		if s := strings.TrimSuffix(r.Stdout, "\n"); s != "" {
			out = append(out, indentWrap("  ", expandTabs(s), w)...)
		}
		if s := strings.TrimSuffix(expandTabs(r.Stderr), "\n"); s != "" {
			for _, l := range indentWrap("  ! ", s, w) {
				out = append(out, st.Stderr.Render(l))
			}
		}
		mark, exit := "  ✓ ", fmt.Sprintf("exit %d", r.ExitCode)
		if r.ExitCode != 0 {
			mark = "  ✗ "
		}
		if r.Refusal != nil {
			ref := r.Refusal
			exit += fmt.Sprintf(" · refused: %s %s", ref.Kind, ref.Scope)
			if ref.Reason != "" {
				exit += " · " + ref.Reason
			}
			if ref.Rule != "" {
				exit += " · rule " + ref.Rule
			}
			if ref.Status != "" {
				exit += " · " + ref.Status
			}
			if ref.Note != "" {
				exit += " · note from reviewer: " + ref.Note
			}
		}
		style := st.Dim
		if r.ExitCode != 0 {
			style = st.Deny
		}
		// The rest of a long exit row hangs under its first word, so it
		// never reads as a line the agent typed or a line of output.
		for _, l := range indentWrap(mark, exit, w) {
			out = append(out, style.Render(l))
		}
	}
	return out
}

// running reports whether the open transcript shows a line still
// running.
func (p *sessionsPane) running() bool { return p.viewing != "" && len(p.runRows) > 0 }

// runningRow is a transcript's row for a line still running.
func runningRow(ctx *Context) string {
	return ctx.Styles.Running.Render("  " + ctx.Spin + " running…")
}

// answerLines says how each ask a line waited on was answered (or why it
// left the queue), so the transcript shows each line's outcome and who
// decided it.
func (p *sessionsPane) answerLines(e transcriptEntry, w int) []string {
	st := p.ctx.Styles
	var out []string
	for _, id := range e.Asked {
		r, ok := p.board.decided[id]
		if !ok || id == e.Waiting && !e.Done && r.Pending() {
			continue
		}
		word, styleKey := decisionLabel(r)
		text := word
		if r.AnsweredBy != "" {
			text += " by " + r.AnsweredBy
		}
		text += " (ask " + id + ")"
		if r.Note != "" {
			text += " · note: " + r.Note
		}
		// Its rest hangs under its words, past the symbol, as the exit
		// row's does, so a long note does not read as rows of its own.
		mark, words, _ := strings.Cut(text, " ")
		for _, l := range indentWrap("  "+mark+" ", words, w) {
			out = append(out, st.outcomeStyle(styleKey).Render(l))
		}
	}
	return out
}
