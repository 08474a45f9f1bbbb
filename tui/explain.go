package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
)

// explainPane is a dry run at the host's fingertips: type a line, pick a
// session, and see how the gate reads each command of it for that
// session's profile and cwd (G-13.1, G-11). Nothing runs, nothing is asked.
type explainPane struct {
	ctx     *Context
	board   *board
	ws      *core.Workspace
	width   int
	height  int
	focused bool

	input   textinput.Model
	typing  bool
	session string // the chosen session's id
	// original is the ask's line the input was filled with, and filled
	// what the input showed of it: a line on one row, made inert. Run
	// unchanged, the input explains the original, newlines and all.
	original, filled string

	asked  string // "session\x00line" of the last explanation asked for
	exps   []core.Explanation
	expErr error
	shown  string // what the table explains, for its title
	scroll scroller
}

func newExplainPane(ctx *Context, b *board, ws *core.Workspace) explainPane {
	return explainPane{ctx: ctx, board: b, ws: ws, input: newInput("$ ", "type a line, enter to explain")}
}

func (p *explainPane) SetSize(w, h int) {
	p.width, p.height = w, h
	setInputWidth(&p.input, max(w-4, 10))
	p.rebuild()
}

// Typing reports whether the input has the keys, so q types a q.
func (p *explainPane) Typing() bool { return p.typing }

// Start gives the keys to the input, optionally with a line and session to
// begin from (the selected ask's, when there is one).
func (p *explainPane) Start(line, sessionID string) tea.Cmd {
	if line != "" {
		p.input.SetValue(inert(strings.ReplaceAll(line, "\n", "⏎")))
		p.input.CursorEnd()
		p.original, p.filled = line, p.input.Value()
	}
	if sessionID != "" {
		p.session = sessionID
	}
	p.pickSession(0)
	p.typing = true
	return p.input.Focus()
}

// pickSession moves the choice by delta through the live sessions,
// keeping it valid as sessions come and go.
func (p *explainPane) pickSession(delta int) {
	ss := p.board.sessions
	if len(ss) == 0 {
		p.session = ""
		return
	}
	i := 0
	for j, s := range ss {
		if s.ID == p.session {
			i = j
		}
	}
	i = ((i+delta)%len(ss) + len(ss)) % len(ss)
	p.session = ss[i].ID
}

func (p *explainPane) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(explainedMsg); ok {
		if m.key == p.asked {
			p.exps, p.expErr = m.exps, m.err
			if p.exps == nil && p.expErr == nil {
				p.exps = []core.Explanation{} // a line of no commands: explained
			}
			p.rebuild()
		}
		return nil
	}
	k, isKey := msg.(tea.KeyPressMsg)
	keys := p.ctx.Keys
	if p.typing {
		switch {
		case isKey && key.Matches(k, keys.Run):
			return p.run()
		case isKey && key.Matches(k, keys.PrevSession): // j and k are letters here
			p.pickSession(-1)
			return nil
		case isKey && key.Matches(k, keys.NextSession):
			p.pickSession(1)
			return nil
		case isKey && key.Matches(k, keys.TableUp):
			p.scroll.scroll(-p.tableHeight()+1, p.tableHeight())
			return nil
		case isKey && key.Matches(k, keys.TableDown):
			p.scroll.scroll(p.tableHeight()-1, p.tableHeight())
			return nil
		}
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		return cmd
	}
	if !isKey {
		return nil
	}
	body := p.tableHeight()
	switch {
	case key.Matches(k, keys.EditLine):
		return p.Start("", "")
	case key.Matches(k, keys.Up):
		p.scroll.scroll(-1, body)
	case key.Matches(k, keys.Down):
		p.scroll.scroll(1, body)
	case key.Matches(k, keys.PageUp):
		p.scroll.scroll(-body+1, body)
	case key.Matches(k, keys.PageDown):
		p.scroll.scroll(body-1, body)
	}
	return nil
}

// run asks for the explanation of the typed line.
func (p *explainPane) run() tea.Cmd {
	line := strings.TrimSpace(p.input.Value())
	if p.original != "" && p.input.Value() == p.filled {
		line = p.original // the ask's own line, not its one-row picture
	}
	p.pickSession(0)
	if line == "" || p.session == "" {
		return nil
	}
	p.asked = p.session + "\x00" + line
	p.shown = line
	p.exps, p.expErr = nil, nil
	p.scroll.offset = 0
	p.rebuild()
	return explain(p.ws, p.asked, p.session, line)
}

// tableHeight is the rows under the title, input, session and heading.
func (p *explainPane) tableHeight() int { return max(p.height-4, 1) }

// explaining reports whether an explanation is being computed.
func (p *explainPane) explaining() bool { return p.asked != "" && p.exps == nil && p.expErr == nil }

// overflows reports whether the table is taller than its window.
func (p *explainPane) overflows() bool { return len(p.scroll.lines) > p.tableHeight() }

func (p *explainPane) rebuild() {
	st := p.ctx.Styles
	switch {
	case p.asked == "":
		var lines []string
		text := "Type a line and press enter; ↑/↓ choose the session it is judged for."
		if len(p.board.sessions) < 2 {
			text = "Type a line and press enter: it is judged for the session above."
		}
		for _, l := range wrap(text, max(p.width, 20)) {
			lines = append(lines, st.Dim.Render(l))
		}
		p.scroll.setLines(lines)
	case p.expErr != nil:
		p.scroll.setLines(wrap("explain failed: "+p.expErr.Error(), max(p.width, 20)))
	case p.exps == nil:
		p.scroll.setLines([]string{explainingRow(p.ctx)})
	default:
		p.scroll.setLines(explainTable(st, p.exps, max(p.width, 20)))
	}
}

// sessionRow names the session a line is judged for: the agent, the id,
// the profile and the directory, with the key that changes it; a narrow
// terminal gets the id, profile and directory alone (the help bar names
// the keys).
func (p *explainPane) sessionRow() string {
	session, short := "no sessions yet", ""
	for _, s := range p.board.sessions {
		if s.ID == p.session {
			profile := s.Profile
			if profile == "" {
				profile = "(none)"
			}
			session = fmt.Sprintf("%s · %s · profile %s · cwd %s", s.Agent, s.ID, profile, s.Cwd)
			short = fmt.Sprintf("%s · profile %s · %s", s.ID, profile, s.Cwd)
		}
	}
	hint := " (↑/↓ to change)"
	switch {
	case !p.typing:
		hint = " (enter to edit)"
	case len(p.board.sessions) < 2:
		hint = "" // the only one: ↑/↓ change nothing
	}
	for _, row := range []string{session + hint, session, short} {
		if row != "" && textWidth(inert("  session  "+row)) <= p.width {
			return "  session  " + row
		}
	}
	return "  session  " + short
}

func (p *explainPane) View() string {
	st := p.ctx.Styles
	lines := []string{paneTitle(st, "Explain · a dry run: nothing runs, nothing is asked", p.focused, p.width)}
	lines = append(lines, " "+p.input.View())
	lines = append(lines, fit(p.sessionRow(), p.width))
	heading := "  explanation"
	if p.shown != "" {
		heading += " of: " + p.shown
	}
	// A long line keeps both ends: what it starts with and where it goes.
	lines = append(lines, st.Label.Render(fitMiddle(heading, p.width)))
	if p.asked == "" {
		p.rebuild() // its words depend on how many sessions there are
	}
	if p.explaining() && len(p.scroll.lines) == 1 {
		p.scroll.lines[0] = explainingRow(p.ctx) // the spinner turns
	}
	lines = append(lines, p.scroll.view(st, p.tableHeight()))
	return strings.Join(lines, "\n")
}
