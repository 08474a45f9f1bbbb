package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// detailPane shows everything about the selected ask: the whole line with
// the asked command marked, argv, cwd, paths, reason, the rule and where
// it is written, and the explain table of the whole line (G-13.1). Long
// content wraps and scrolls; nothing is cut off (G-13.5).
type detailPane struct {
	ctx     *Context
	ws      *core.Workspace
	board   *board
	width   int
	height  int
	focused bool

	rec    decisions.Record
	has    bool
	exps   []core.Explanation
	expErr error
	scroll scroller
	// waitRow is the row that says the line is being explained (it
	// carries the spinner's frame), or -1.
	waitRow int
}

func newDetailPane(ctx *Context, ws *core.Workspace, b *board) detailPane {
	return detailPane{ctx: ctx, ws: ws, board: b, waitRow: -1}
}

func (p *detailPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.rebuild()
}

// Show points the pane at an ask (or at none). A different ask starts at
// the top and asks for its line to be explained.
func (p *detailPane) Show(rec decisions.Record, ok bool) tea.Cmd {
	if ok == p.has && rec.ID == p.rec.ID {
		p.rec = rec
		p.rebuild()
		return nil
	}
	p.rec, p.has = rec, ok
	p.exps, p.expErr = nil, nil
	p.scroll.offset = 0
	p.rebuild()
	if !ok {
		return nil
	}
	return explain(p.ws, "detail:"+rec.ID, rec.SessionID, rec.Line)
}

// Explained takes an explanation computed for this pane.
func (p *detailPane) Explained(msg explainedMsg) {
	if msg.key != "detail:"+p.rec.ID {
		return
	}
	p.exps, p.expErr = msg.exps, msg.err
	if p.exps == nil && p.expErr == nil {
		p.exps = []core.Explanation{} // a line of no commands: explained
	}
	p.rebuild()
}

// Update scrolls.
func (p *detailPane) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	body := p.height - 1
	keys := p.ctx.Keys
	switch {
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

// statusRow is the detail's first row: where the ask stands and how long
// ago it arrived (drawn at every frame: the age moves).
func (p *detailPane) statusRow() string {
	st := p.ctx.Styles
	word, styleKey := decisionLabel(p.rec)
	word = inert(word)
	rest := fit(" · asked "+age(p.ctx.Now().Sub(p.rec.CreatedAt))+" ago", max(max(p.width, 20)-labelWidth-textWidth(word), 1))
	return st.Label.Render(fit("status", labelWidth)) + st.outcomeStyle(styleKey).Render(word) + strings.TrimRight(rest, " ")
}

func (p *detailPane) View() string {
	st := p.ctx.Styles
	title := "Detail · activity"
	if p.has {
		title = "Detail · ask " + p.rec.ID
		if len(p.scroll.lines) > 0 {
			p.scroll.lines[0] = p.statusRow()
		}
		if p.waitRow >= 0 && p.waitRow < len(p.scroll.lines) {
			p.scroll.lines[p.waitRow] = explainingRow(p.ctx)
		}
	}
	return paneTitle(st, title, p.focused, p.width) + "\n" + p.scroll.view(st, p.height-1)
}

// explaining reports whether the pane waits for its line's explanation.
func (p *detailPane) explaining() bool { return p.has && p.exps == nil && p.expErr == nil }

// explainingRow says a line is being explained, with the spinner.
func explainingRow(ctx *Context) string { return ctx.Styles.Dim.Render(ctx.Spin + " explaining…") }

// labelWidth is the column the values start at.
const labelWidth = 9

// rebuild lays the content out for the current width.
func (p *detailPane) rebuild() {
	st := p.ctx.Styles
	w := max(p.width, 20)
	p.waitRow = -1
	if !p.has {
		p.scroll.setLines(p.activityRows(w))
		return
	}
	r := p.rec
	var lines []string
	// field lays a labelled value out with the value wrapped under itself.
	field := func(label, value string) {
		for i, l := range indentWrap(fit(label, labelWidth), value, w) {
			if i == 0 {
				l = st.Label.Render(l[:labelWidth]) + l[labelWidth:]
			}
			lines = append(lines, l)
		}
	}
	lines = append(lines, p.statusRow()) // drawn again at every View: the age moves
	if n := p.board.sameCount(r); n > 1 {
		field("same", fmt.Sprintf("%d identical asks waiting (Y allows, D denies them all)", n))
	}
	field("session", fmt.Sprintf("%s · agent %s", r.SessionID, r.AgentID))
	lines = append(lines, p.lineRows(w)...)
	field("command", r.Command)
	field("argv", quoteAll(r.Argv))
	field("cwd", r.Cwd)
	if len(r.Paths) > 0 {
		field("paths", strings.Join(r.Paths, " "))
	}
	if len(r.Rules) > 1 {
		// Every rule the answer settles, each with the paths it reaches
		// (G-4.10): the human answers for all of them.
		for i, rule := range r.Rules {
			text := rule.Reason + " · " + ruleSource(rule.Rule, rule.Policy)
			if len(rule.Paths) > 0 {
				text += " · " + strings.Join(rule.Paths, " ")
			}
			field(fmt.Sprintf("rule %d", i+1), text)
		}
	} else {
		field("reason", orDash(r.Reason))
		field("rule", ruleSource(r.Rule, r.Policy))
	}
	field("place", r.Place)
	if r.Note != "" {
		field("note", r.Note)
	}
	lines = append(lines, "", st.Label.Render("The whole line, as the gate reads it now:"))
	switch {
	case p.expErr != nil:
		lines = append(lines, wrap("explain unavailable: "+p.expErr.Error(), w)...)
	case p.exps == nil:
		p.waitRow = len(lines)
		lines = append(lines, explainingRow(p.ctx))
	default:
		lines = append(lines, explainTable(st, p.exps, w)...)
	}
	p.scroll.setLines(lines)
}

// activityRows is what the agents are doing, newest first, shown while
// there is no ask to look at, so a quiet queue still shows a busy crowd.
func (p *detailPane) activityRows(w int) []string {
	st := p.ctx.Styles
	lines := wrap("No ask selected. When one arrives its whole line, the rule that asked and how the gate reads the line show here.", w)
	if len(p.board.recent) == 0 {
		return lines
	}
	lines = append(lines, "", st.Label.Render("Recent activity, newest first:"))
	for i := len(p.board.recent) - 1; i >= 0 && len(lines) < p.height+1; i-- {
		a := p.board.recent[i]
		state, style := "● running", st.Running
		switch {
		case a.Done && a.Refused != "":
			state, style = fmt.Sprintf("✗ %s %d", a.Refused, a.Exit), st.Deny
		case a.Done && a.Exit != 0:
			state, style = fmt.Sprintf("✗ exit %d", a.Exit), st.Deny
		case a.Done:
			state, style = "✓ exit 0", st.Allow
		}
		lines = append(lines, style.Render(fit(state, 11))+fit(a.Agent, 13)+fit(a.Line, max(w-24, 8)))
	}
	return lines
}

// lineRows shows the whole line, wrapped, with the asked command between
// ⟦ ⟧ and highlighted: the brackets carry the mark where colour cannot.
func (p *detailPane) lineRows(w int) []string {
	st := p.ctx.Styles
	text := p.rec.Line
	start, end, ok := askedSpan(text, p.rec.Place)
	if ok {
		text = text[:start] + "⟦" + text[start:end] + "⟧" + text[end:]
	}
	rows := indentWrap(fit("line", labelWidth), text, w)
	inside := false
	for i, row := range rows {
		var b strings.Builder
		if i == 0 {
			b.WriteString(st.Label.Render(row[:labelWidth]))
			row = row[labelWidth:]
		}
		// Style the marked run piece by piece: it may span wrapped rows,
		// and each bracket is drawn once, where the text has it.
		for row != "" {
			cut := "⟦"
			if inside {
				cut = "⟧"
			}
			before, after, found := strings.Cut(row, cut)
			switch {
			case inside && found:
				b.WriteString(st.Asked.Render(before + cut))
			case inside:
				b.WriteString(st.Asked.Render(before))
			case found:
				b.WriteString(before + st.Asked.Render(cut))
			default:
				b.WriteString(before)
			}
			if !found {
				break
			}
			inside = !inside
			row = after
		}
		rows[i] = b.String()
	}
	return rows
}

func quoteAll(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = strconv.Quote(a)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// ruleSource is where a rule was written and who spoke.
func ruleSource(rule, policy string) string {
	s := orDash(rule)
	if policy != "" {
		s += " (" + policy + ")"
	}
	return s
}
