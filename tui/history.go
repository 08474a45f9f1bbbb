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
	// first (see board.historyAt).
	shown filterCache
}

func newHistoryPane(ctx *Context, b *board) historyPane {
	return historyPane{ctx: ctx, board: b, shown: newFilterCache(), filter: newInput("/ ", "session:ID outcome:deny path:/dir or any words")}
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

// Selected is the decision under the cursor, if any.
func (p *historyPane) Selected() (decisions.Record, bool) {
	if n := p.count(); n == 0 || p.selected < 0 || p.selected >= n {
		return decisions.Record{}, false
	}
	return p.at(p.selected), true
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
	p.shown.update(p.board.historyVersion, p.filter.Value(), len(p.board.history), p.board.historySearch)
}

// count is how many decisions the filter lets through.
func (p *historyPane) count() int {
	if p.refresh(); p.shown.indexes == nil {
		return len(p.board.history)
	}
	return len(p.shown.indexes)
}

// at is the i-th decision the filter lets through, newest first.
func (p *historyPane) at(i int) decisions.Record {
	if p.shown.indexes == nil {
		return p.board.historyAt(i)
	}
	return p.board.historyAt(p.shown.indexes[i])
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
func matchTerms(f *searchFields, terms []string) bool { return matchParsed(f, parseTerms(terms)) }

// filterTerm is one term of a filter, read (see parseTerm).
type filterTerm struct{ field, value string }

func parseTerms(terms []string) []filterTerm {
	out := make([]filterTerm, len(terms))
	for i, t := range terms {
		out[i].field, out[i].value = parseTerm(t)
	}
	return out
}

// matchParsed reports whether every term matches f.
func matchParsed(f *searchFields, terms []filterTerm) bool {
	for _, t := range terms {
		var hay string
		switch t.field {
		case "session":
			hay = f.session
		case "agent":
			hay = f.agent
		case "path":
			hay = f.path
		case "command":
			hay = f.command
		case "outcome":
			hay = f.outcome
		default:
			hay = f.all
		}
		if !strings.Contains(hay, t.value) {
			return false
		}
	}
	return true
}

// parseTerm reads one filter term: the field a scoped term names (cmd is
// command) and its value, or "" and the whole term for any other word.
func parseTerm(t string) (field, value string) {
	field, value, scoped := strings.Cut(t, ":")
	switch {
	case !scoped:
	case field == "session" || field == "agent" || field == "path" || field == "command" || field == "outcome":
		return field, value
	case field == "cmd":
		return "command", value
	}
	return "", t
}

// narrows reports whether every record that passes terms passes old too:
// each old term has a term in terms that reads the same field and
// contains its value. Typing on at the end of a filter narrows it, so its
// matches are found among the old ones instead of in every record; a word
// becoming a field ("path" to "path:") does not.
func narrows(old, terms []string) bool {
	for _, o := range old {
		of, ov := parseTerm(o)
		found := false
		for _, t := range terms {
			if f, v := parseTerm(t); f == of && strings.Contains(v, ov) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// filterCache is which of a list's records a filter lets through, for the
// list's version and the filter text it was computed for: a frame reads
// it, and a key that narrows the filter looks only at the records that
// matched before (ten thousand asks cost one scan, then fewer each key).
type filterCache struct {
	indexes []int // into the list; nil with no filter means all
	version int
	query   string
	terms   []string
}

func newFilterCache() filterCache { return filterCache{version: -1} }

// update recomputes indexes for the list's version and the filter text q,
// when either changed; n is the list's length and text its i-th record's
// search text.
func (c *filterCache) update(version int, q string, n int, text func(int) *searchFields) {
	q = strings.TrimSpace(q)
	if c.version == version && c.query == q {
		return
	}
	terms := strings.Fields(strings.ToLower(q))
	narrower := c.version == version && c.indexes != nil && narrows(c.terms, terms)
	c.version, c.query, c.terms = version, q, terms
	if q == "" {
		c.indexes = nil
		return
	}
	parsed := parseTerms(terms)
	if narrower {
		kept := c.indexes[:0]
		for _, i := range c.indexes {
			if matchParsed(text(i), parsed) {
				kept = append(kept, i)
			}
		}
		c.indexes = kept
		return
	}
	c.indexes = []int{}
	for i := range n {
		if matchParsed(text(i), parsed) {
			c.indexes = append(c.indexes, i)
		}
	}
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
	lineCut := len(out)
	out = append(out, wrap(fmt.Sprintf("reason: %s · note: %s", orDash(r.Reason), note), p.width)...)
	if limit := max(p.height/2, 3); len(out) > limit {
		// A very long line or note: as much as half the page shows; when
		// the line is what is cut, its last row says where it shows whole.
		more := ""
		if lineCut > limit-1 {
			more = " (e explains the whole line)"
		}
		out = append(out[:limit-1], fit(strings.Join(out[limit-1:], " "), max(p.width-len(more), 8))+st.Dim.Render(more))
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
