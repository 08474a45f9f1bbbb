package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"gatehouse/core/decisions"
)

// historyPane lists every decision, newest first: answered asks with who
// answered and how, and asks that left the queue unanswered with the word
// saying why. `/` filters it by session, agent, path, outcome or text
// (G-13.1).
type historyPane struct {
	ctx     *Context
	board   *board
	width   int
	height  int
	focused bool

	filter    textinput.Model
	filtering bool // the filter input has the keys
	selected  int  // index into the filtered rows
	offset    int
	// shown are the decisions the filter lets through, as indexes newest
	// first (see board.historyAt), for the history version and filter
	// text they were computed for; nil with no filter means all.
	shown        []int
	shownVersion int
	shownFilter  string
}

func newHistoryPane(ctx *Context, b *board) historyPane {
	return historyPane{ctx: ctx, board: b, shownVersion: -1, filter: newInput("/ ", "session:ID outcome:deny path:/dir or any words")}
}

func (p *historyPane) SetSize(w, h int) {
	p.width, p.height = w, h
	setInputWidth(&p.filter, max(w-4, 10))
}

// Typing reports whether the filter input has the keys, so q types a q.
func (p *historyPane) Typing() bool { return p.filtering }

// StartFilter gives the keys to the filter input.
func (p *historyPane) StartFilter() tea.Cmd {
	p.filtering = true
	return p.filter.Focus()
}

func (p *historyPane) Update(msg tea.Msg) tea.Cmd {
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
		p.selected, p.offset = 0, 0
		return cmd
	}
	if !isKey {
		return nil
	}
	n := p.count()
	switch {
	case key.Matches(k, keys.Up):
		p.selected--
	case key.Matches(k, keys.Down):
		p.selected++
	case key.Matches(k, keys.PageUp):
		p.selected -= p.listHeight()
	case key.Matches(k, keys.PageDown):
		p.selected += p.listHeight()
	}
	p.selected = max(0, min(p.selected, n-1))
	return nil
}

// clearFilter shows every decision again.
func (p *historyPane) clearFilter() {
	p.filtering = false
	p.filter.Blur()
	p.filter.SetValue("")
	p.selected, p.offset = 0, 0
}

// refresh recomputes which decisions the filter lets through when the
// history or the filter changed since the last time, not at every frame.
func (p *historyPane) refresh() {
	q := strings.TrimSpace(p.filter.Value())
	if p.shownVersion == p.board.historyVersion && p.shownFilter == q {
		return
	}
	p.shownVersion, p.shownFilter = p.board.historyVersion, q
	if q == "" {
		p.shown = nil
		return
	}
	terms := strings.Fields(strings.ToLower(q))
	p.shown = []int{}
	for i := range len(p.board.history) {
		if p.board.matches(p.board.historyAt(i), terms) {
			p.shown = append(p.shown, i)
		}
	}
}

// count is how many decisions the filter lets through.
func (p *historyPane) count() int {
	if p.refresh(); p.shown == nil {
		return len(p.board.history)
	}
	return len(p.shown)
}

// at is the i-th decision the filter lets through, newest first.
func (p *historyPane) at(i int) decisions.Record {
	if p.shown == nil {
		return p.board.historyAt(i)
	}
	return p.board.historyAt(p.shown[i])
}

// matchesAll reads a filter (the queue's and the history's):
// `session:X` matches the session id or agent, `agent:X` the agent,
// `path:X` a path the ask reaches or its directory, `command:X` the
// command or its line, `outcome:X` the decision's word (allow, deny,
// once, session, pending, cancelled, timed out), and any other word any of
// those or the id, reason, note or who answered. Terms are lower case;
// every one must match.
func matchesAll(r decisions.Record, terms []string) bool {
	return matchTerms(searchText(r), terms)
}

// searchFields is the text of a record a filter reads, lower-cased: each
// scoped term's field, and everything for a plain word.
type searchFields struct {
	session, agent, path, command, outcome, all string
}

func searchText(r decisions.Record) *searchFields {
	word, _ := decisionLabel(r)
	paths := strings.Join(r.Paths, " ")
	return &searchFields{
		session: strings.ToLower(r.SessionID + " " + r.AgentID),
		agent:   strings.ToLower(r.AgentID),
		path:    strings.ToLower(paths + " " + r.Cwd),
		command: strings.ToLower(r.Command + " " + r.Line),
		outcome: strings.ToLower(word),
		all:     strings.ToLower(strings.Join([]string{r.ID, r.Command, r.Line, r.Reason, r.Note, r.AgentID, r.SessionID, word, r.AnsweredBy, r.Cwd, paths}, " ")),
	}
}

// matchTerms reports whether every (lower-case) term matches f.
func matchTerms(f *searchFields, terms []string) bool {
	for _, t := range terms {
		field, value, scoped := strings.Cut(t, ":")
		var hay string
		switch {
		case scoped && field == "session":
			hay = f.session
		case scoped && field == "agent":
			hay = f.agent
		case scoped && field == "path":
			hay = f.path
		case scoped && (field == "command" || field == "cmd"):
			hay = f.command
		case scoped && field == "outcome":
			hay = f.outcome
		default:
			value, hay = t, f.all
		}
		if !strings.Contains(hay, value) {
			return false
		}
	}
	return true
}

// listHeight is the rows left for decisions under the title, the filter
// line and the selected decision's footer.
func (p *historyPane) listHeight() int { return max(p.height-6, 1) }

func (p *historyPane) View() string {
	st := p.ctx.Styles
	n := p.count()
	title := fmt.Sprintf("History · %d decisions", len(p.board.history))
	if len(p.board.history) == 1 {
		title = "History · 1 decision"
	}
	if q := p.filter.Value(); q != "" {
		title = fmt.Sprintf("History · %d of %d match %q", n, len(p.board.history), q)
	}
	lines := []string{paneTitle(st, title, p.focused, p.width)}
	if p.filtering || p.filter.Value() != "" {
		lines = append(lines, " "+p.filter.View())
	} else {
		lines = append(lines, st.Dim.Render(fit("  / to filter: session:ID, outcome:deny, or any words", p.width)))
	}
	switch {
	case len(p.board.history) == 0:
		for _, l := range wrap("No decisions yet. Every answer lands here, given in this console, with gatehouse allow or deny, or over REST, and so does every ask that left the queue unanswered.", max(p.width-2, 10)) {
			lines = append(lines, st.Dim.Render("  "+l))
		}
		return strings.Join(lines, "\n")
	case n == 0:
		lines = append(lines, st.Dim.Render(fit("  No decision matches; esc clears the filter.", p.width)))
		return strings.Join(lines, "\n")
	}
	p.selected = max(0, min(p.selected, n-1))
	foot := p.footer(p.at(p.selected))
	h := max(p.height-len(lines)-1-len(foot), 1)
	if p.selected < p.offset {
		p.offset = p.selected
	}
	if p.selected >= p.offset+h {
		p.offset = p.selected - h + 1
	}
	now := p.ctx.Now()
	whenW, outcomeW, byW, agentW := p.columns(p.offset, min(p.offset+h, n))
	cmdW := max(p.width-2-whenW-outcomeW-byW-agentW, 8)
	for i := p.offset; i < min(p.offset+h, n); i++ {
		r := p.at(i)
		word, styleKey := decisionLabel(r)
		when := r.AnsweredAt
		if when.IsZero() {
			when = r.CreatedAt
		}
		marker := "  "
		if i == p.selected {
			marker = "▸ "
		}
		by := r.AnsweredBy
		if by == "" {
			by = "—"
		}
		cells := []string{marker + fit(age(now.Sub(when)), whenW), fit(word, outcomeW), fit(by, byW) + fit(r.AgentID, agentW-1) + " " + fitMiddle(r.Command, cmdW)}
		if i == p.selected && p.focused {
			lines = append(lines, st.Selected.Render(fit(strings.Join(cells, ""), p.width)))
		} else {
			lines = append(lines, cells[0]+st.outcomeStyle(styleKey).Render(cells[1])+cells[2])
		}
	}
	for len(lines) < p.height-len(foot) {
		lines = append(lines, "")
	}
	return strings.Join(append(lines, foot...), "\n")
}

// columns sizes History's cells to the rows shown, as the queue does: the
// outcome, who answered and the agent as wide as their widest, so the
// command gets the rest.
func (p *historyPane) columns(from, to int) (whenW, outcomeW, byW, agentW int) {
	whenW, outcomeW, byW, agentW = 5, 0, 2, 5
	for i := from; i < to; i++ {
		r := p.at(i)
		word, _ := decisionLabel(r)
		outcomeW = max(outcomeW, textWidth(inert(word)))
		byW = max(byW, textWidth(inert(r.AnsweredBy)))
		agentW = max(agentW, textWidth(inert(r.AgentID)))
	}
	return whenW, min(outcomeW, 20) + 2, min(byW, 12) + 2, min(agentW, 16) + 2
}

// footer shows the selected decision's line, reason and note in full
// width, wrapped, so a cut-off row can always be read whole (up to half
// the page; the rest of a very long note is cut with an ellipsis).
func (p *historyPane) footer(r decisions.Record) []string {
	st := p.ctx.Styles
	note := r.Note
	if note == "" {
		note = "—"
	}
	out := []string{st.Rule.Render(strings.Repeat("─", p.width))}
	out = append(out, wrap(fmt.Sprintf("%s · %s · %s", r.ID, r.SessionID, r.Line), p.width)...)
	out = append(out, wrap(fmt.Sprintf("reason: %s · note: %s", orDash(r.Reason), note), p.width)...)
	if limit := max(p.height/2, 3); len(out) > limit {
		// A very long line or note: as much as half the page shows.
		out = append(out[:limit-1], fit(strings.Join(out[limit-1:], " "), p.width))
	}
	return out
}

// setInputWidth sizes an input and scrolls its text again, so that after
// a resize the cursor and the text around it are still in view.
func setInputWidth(in *textinput.Model, w int) {
	in.SetWidth(w)
	in.SetCursor(in.Position())
}

// newInput is a one-line text input that does not blink, so screens are
// the same from one frame (and one test run) to the next.
func newInput(prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	s := in.Styles()
	s.Cursor.Blink = false
	in.SetStyles(s)
	return in
}
