// Package tui is gatehouse's console (G-13): a Bubble Tea program that
// hosts a workspace in process and lets a human watch its agents and
// answer their asks. Only Model is a tea.Model; the panes are components
// with Update, View and SetSize that share one Context.
package tui

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// Options configure a console.
type Options struct {
	// Context ends the console's subscriptions; default Background.
	Context context.Context
	// Now is the clock ages are measured with; default time.Now.
	Now func() time.Time
	// Quiet keeps the terminal bell silent when asks arrive.
	Quiet bool
	// LedgerPath is what the header calls the ledger; default the
	// ledger file's path.
	LedgerPath string
	// Document is what the header calls the workspace document; default
	// the path the workspace was loaded from ("" for one built in Go).
	Document string
}

// Model is the console.
type Model struct {
	ws     *core.Workspace
	ledger *decisions.Ledger
	opts   Options
	ctx    *Context
	board  *board

	ledgerEvents <-chan decisions.Event
	wsEvents     <-chan core.Event
	firstCmd     tea.Cmd

	focus    focus
	asks     asksPane
	detail   detailPane
	sessions sessionsPane
	history  historyPane
	explain  explainPane

	help     help.Model
	fullHelp bool

	note    textinput.Model
	noteFor string         // the ask a deny note is being written for
	confirm *confirmation  // Y's question, while it waits for y or no
	amend   *amendProposal // A's question, while it waits for y or no

	message     string
	messageErr  bool
	messageTick int // ticks the message has been shown

	lastBell time.Time
}

// confirmation is the pending question of Y: allow every pending ask of
// one session once?
type confirmation struct {
	agent, sessionID string
	ids              []string
}

// messageTicks is how long a status message stays (in ticks).
const messageTicks = 6

// New builds a console over ws. It subscribes to the ledger and the
// workspace before reading what is already there, so nothing that
// happens from here on is missed.
func New(ws *core.Workspace, opts Options) *Model {
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.LedgerPath == "" {
		opts.LedgerPath = ws.Decisions().Path()
	}
	ctx := &Context{Width: 80, Height: 24, Styles: NewStyles(true), Keys: DefaultKeyMap(), Now: opts.Now}
	m := &Model{ws: ws, ledger: ws.Decisions(), opts: opts, ctx: ctx, board: newBoard()}
	m.ledgerEvents = m.ledger.Subscribe(opts.Context)
	m.wsEvents = ws.Watch(opts.Context)
	if all, err := m.ledger.List(opts.Context, ""); err != nil {
		m.setMessage("could not read the ledger: "+err.Error(), true)
	} else {
		m.board.load(all)
	}
	m.board.refreshSessions(ws)
	m.asks = newAsksPane(ctx, m.board)
	m.detail = newDetailPane(ctx, ws, m.board)
	m.sessions = newSessionsPane(ctx, m.board)
	m.history = newHistoryPane(ctx, m.board)
	m.explain = newExplainPane(ctx, m.board, ws)
	m.help = help.New()
	m.help.Styles = ctx.Styles.Help
	m.help.ShortSeparator = "  " // " · " would not fit the asks' bar in 80 columns
	m.note = newInput("note › ", "why the answer is no (enter to deny, esc to cancel)")
	m.asks.follow()
	m.firstCmd = m.detail.Show(m.asks.Selected())
	m.setFocus(focusQueue)
	m.layout()
	return m
}

// Init starts the event loops, the clock and the background query.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(nextLedgerEvent(m.ledgerEvents), nextWorkspaceEvent(m.wsEvents), tick(),
		tea.RequestBackgroundColor, m.firstCmd)
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.ctx.Width, m.ctx.Height = msg.Width, msg.Height
		m.layout()
	case tea.BackgroundColorMsg:
		m.restyle(msg.IsDark())
	case ledgerMsg:
		cmds = append(cmds, m.onLedger(decisions.Event(msg)), nextLedgerEvent(m.ledgerEvents))
	case workspaceMsg:
		m.board.record(core.Event(msg))
		m.board.refreshSessions(m.ws)
		m.sessions.Refresh()
		if _, ok := m.asks.Selected(); !ok {
			m.detail.rebuild() // the activity feed moved
		}
		cmds = append(cmds, nextWorkspaceEvent(m.wsEvents))
	case tickMsg:
		m.board.refreshSessions(m.ws)
		m.sessions.Refresh()
		m.detail.rebuild() // the ask's age moved on
		if m.message != "" {
			if m.messageTick++; m.messageTick >= messageTicks {
				m.message = ""
			}
		}
		cmds = append(cmds, tick())
	case answeredMsg:
		m.onAnswered(msg)
	case amendProposedMsg:
		m.onAmendProposed(msg)
	case amendAppliedMsg:
		m.onAmendApplied(msg)
	case explainedMsg:
		m.detail.Explained(msg)
		cmds = append(cmds, m.explain.Update(msg))
	case tea.KeyPressMsg:
		cmds = append(cmds, m.onKey(msg))
	default:
		cmds = append(cmds, m.routeToInput(msg))
	}
	m.syncKeys()
	return m, tea.Batch(cmds...)
}

// onLedger files a ledger change and keeps the selection and the detail in
// step; a new ask rings the bell.
func (m *Model) onLedger(ev decisions.Event) tea.Cmd {
	r := ev.Record
	added := m.board.apply(r)
	switch ev.Kind {
	case decisions.EventClosed:
		// The line that asked is gone; say so, since the row vanishes.
		m.setMessage(fmt.Sprintf("ask %s (%s, %s) left the queue: %s", r.ID, r.AgentID, r.Command, r.Closed), false)
	case decisions.EventAnswer:
		if r.AnsweredBy != "console" {
			word, _ := decisionLabel(r)
			m.setMessage(fmt.Sprintf("ask %s (%s) answered by %s: %s", r.ID, r.Command, orDash(r.AnsweredBy), word), false)
		}
	}
	m.layout() // the queue grows and shrinks with its asks
	m.asks.follow()
	cmd := m.detail.Show(m.asks.Selected())
	if added && !m.opts.Quiet && time.Since(m.lastBell) > time.Second {
		// One ring per new ask; a burst of asks in the same second
		// shares one, so the terminal does not chatter.
		m.lastBell = time.Now()
		return tea.Batch(cmd, tea.Raw("\a"))
	}
	return cmd
}

func (m *Model) onAnswered(msg answeredMsg) {
	switch {
	case len(msg.errs) > 0 && len(msg.recs) == 0:
		m.setMessage("not answered: "+answerError(msg.errs[0]), true)
	case len(msg.recs) == 1:
		r := msg.recs[0]
		word, _ := decisionLabel(r)
		text := fmt.Sprintf("%s: %s (%s)", word, r.Command, r.AgentID)
		if r.Note != "" {
			text += " · note stored"
		}
		m.setMessage(text, false)
	default:
		text := fmt.Sprintf("%s: %d asks", msg.what, len(msg.recs))
		if len(msg.errs) > 0 {
			text += fmt.Sprintf(" (%d already answered elsewhere)", len(msg.errs))
		}
		m.setMessage(text, false)
	}
}

func (m *Model) setMessage(text string, isErr bool) {
	m.message, m.messageErr, m.messageTick = text, isErr, 0
}

// typing reports whether a text input has the keys: then letters are
// text, and q types a q instead of quitting.
func (m *Model) typing() bool {
	return m.noteFor != "" || (m.focus == focusHistory && m.history.Typing()) ||
		(m.focus == focusExplain && m.explain.Typing())
}

// onKey decides who a key press is for: a modal question first, then a
// text input, then the console's own keys, then the focused pane.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	keys := m.ctx.Keys
	if k.String() == "ctrl+c" {
		return tea.Quit
	}
	if m.confirm != nil {
		c := m.confirm
		m.confirm = nil
		if k.String() == "y" {
			return answer(m.opts.Context, m.ledger, c.ids, decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Once, By: "console"})
		}
		m.setMessage("left "+c.agent+"'s asks as they were", false)
		return nil
	}
	if m.amend != nil {
		return m.onAmendKey(k)
	}
	if m.noteFor != "" {
		return m.onNoteKey(k)
	}
	if m.typing() && !key.Matches(k, keys.NextPane, keys.PrevPane) {
		return m.routeToFocused(k)
	}
	if m.fullHelp {
		switch {
		case key.Matches(k, keys.Quit):
			return tea.Quit
		case key.Matches(k, keys.Help, keys.Back):
			m.fullHelp = false
		}
		return nil
	}
	switch {
	case key.Matches(k, keys.Quit):
		return tea.Quit
	case key.Matches(k, keys.Help):
		m.fullHelp = true
	case key.Matches(k, keys.NextPane):
		m.setFocus((m.focus + 1) % focusCount)
	case key.Matches(k, keys.PrevPane):
		m.setFocus((m.focus + focusCount - 1) % focusCount)
	case key.Matches(k, keys.AllowOnce):
		return m.answerSelected(decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Once})
	case key.Matches(k, keys.AllowSession):
		return m.answerSelected(decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Session})
	case key.Matches(k, keys.Deny):
		return m.answerSelected(decisions.Answer{Outcome: decisions.Deny, Scope: decisions.Once})
	case key.Matches(k, keys.Amend):
		return m.startAmend()
	case key.Matches(k, keys.DenyNote):
		if r, ok := m.asks.Selected(); ok {
			m.noteFor = r.ID
			m.note.SetValue("")
			m.layout()
			return m.note.Focus()
		}
	case key.Matches(k, keys.AllowAllOnce):
		m.askAllowAll()
	case key.Matches(k, keys.Explain) && m.focus != focusExplain:
		line, session := "", ""
		if r, ok := m.asks.Selected(); ok && (m.focus == focusQueue || m.focus == focusDetail) {
			line, session = r.Line, r.SessionID
		} else if s, ok := m.sessions.Selected(); ok && m.focus == focusSessions {
			session = s.ID
		}
		m.setFocus(focusExplain)
		return m.explain.Start(line, session)
	case key.Matches(k, keys.History):
		m.setFocus(focusHistory)
	case key.Matches(k, keys.Filter):
		m.setFocus(focusHistory)
		return m.history.StartFilter()
	case key.Matches(k, keys.Open) && m.focus == focusQueue:
		if _, ok := m.asks.Selected(); ok {
			m.setFocus(focusDetail)
		}
	case key.Matches(k, keys.Open) && m.focus == focusSessions && !m.sessions.Viewing():
		if s, ok := m.sessions.Selected(); ok {
			m.sessions.Open(s.ID)
		}
	case key.Matches(k, keys.Back) && m.focus == focusDetail:
		m.setFocus(focusQueue)
	case key.Matches(k, keys.Back) && m.focus == focusSessions && m.sessions.Viewing():
		m.sessions.Close()
	default:
		return m.routeToFocused(k)
	}
	return nil
}

// onNoteKey edits the deny note; enter denies with it (the note is stored
// on the record), esc gives up.
func (m *Model) onNoteKey(k tea.KeyPressMsg) tea.Cmd {
	keys := m.ctx.Keys
	switch {
	case key.Matches(k, keys.Open):
		id, note := m.noteFor, m.note.Value()
		m.noteFor = ""
		m.note.Blur()
		m.layout()
		m.moveOffAnswered(id)
		return answer(m.opts.Context, m.ledger, []string{id}, decisions.Answer{Outcome: decisions.Deny, Scope: decisions.Once, Note: note, By: "console"})
	case key.Matches(k, keys.Back):
		m.noteFor = ""
		m.note.Blur()
		m.layout()
		return nil
	}
	var cmd tea.Cmd
	m.note, cmd = m.note.Update(k)
	return cmd
}

// answerSelected answers the selected ask. The selection moves to the next
// pending ask at once; the answered one leaves the queue when the ledger
// reports the answer, which it does before Answer returns.
func (m *Model) answerSelected(a decisions.Answer) tea.Cmd {
	r, ok := m.asks.Selected()
	if !ok {
		return nil
	}
	a.By = "console"
	m.moveOffAnswered(r.ID)
	return answer(m.opts.Context, m.ledger, []string{r.ID}, a)
}

// moveOffAnswered points the selection at the ask after id (or before it,
// when id is the last), so answering walks down the queue (G-13.5).
func (m *Model) moveOffAnswered(id string) {
	i := m.board.indexOf(id)
	if i < 0 {
		return
	}
	switch {
	case i+1 < len(m.board.pending):
		m.asks.selectedID = m.board.pending[i+1].ID
	case i > 0:
		m.asks.selectedID = m.board.pending[i-1].ID
	default:
		m.asks.selectedID = ""
	}
}

// askAllowAll puts Y's question: allow every pending ask of the selected
// session once? Anything but y answers no (G-13.5).
func (m *Model) askAllowAll() {
	s, ok := m.sessions.Selected()
	if !ok || m.focus != focusSessions {
		return
	}
	recs := m.board.pendingOf(s.ID)
	if len(recs) == 0 {
		m.setMessage(s.Agent+" has no pending asks", false)
		return
	}
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.ID
	}
	m.confirm = &confirmation{agent: s.Agent, sessionID: s.ID, ids: ids}
	m.layout()
}

func (m *Model) setFocus(f focus) {
	if m.focus == focusExplain && f != focusExplain && m.explain.Typing() {
		m.explain.typing = false
		m.explain.input.Blur()
	}
	if m.focus == focusHistory && f != focusHistory && m.history.Typing() {
		m.history.filtering = false
		m.history.filter.Blur()
	}
	if f == focusExplain {
		m.explain.pickSession(0) // a session is chosen before anything is typed
	}
	m.focus = f
	m.asks.focused = f == focusQueue
	m.detail.focused = f == focusDetail
	m.sessions.focused = f == focusSessions
	m.history.focused = f == focusHistory
	m.explain.focused = f == focusExplain
}

func (m *Model) routeToFocused(msg tea.Msg) tea.Cmd {
	switch m.focus {
	case focusQueue:
		cmd := m.asks.Update(msg)
		return tea.Batch(cmd, m.detail.Show(m.asks.Selected()))
	case focusDetail:
		return m.detail.Update(msg)
	case focusSessions:
		return m.sessions.Update(msg)
	case focusHistory:
		return m.history.Update(msg)
	case focusExplain:
		return m.explain.Update(msg)
	}
	return nil
}

// routeToInput hands other messages (pastes, cursor updates) to whichever
// input has the keys.
func (m *Model) routeToInput(msg tea.Msg) tea.Cmd {
	switch {
	case m.noteFor != "":
		var cmd tea.Cmd
		m.note, cmd = m.note.Update(msg)
		return cmd
	case m.typing():
		return m.routeToFocused(msg)
	}
	return nil
}

// syncKeys enables each key exactly when it can act, which is also what
// the help bar shows (G-13.2).
func (m *Model) syncKeys() {
	_, selected := m.asks.Selected()
	modal := m.confirm != nil || m.amend != nil || m.noteFor != "" || m.fullHelp
	m.ctx.Keys.setAnswering(selected && !modal && (m.focus == focusQueue || m.focus == focusDetail))
	s, ok := m.sessions.Selected()
	m.ctx.Keys.AllowAllOnce.SetEnabled(ok && !modal && m.focus == focusSessions && !m.sessions.Viewing() && m.board.bySession[s.ID] > 0)
}

// restyle switches the palette for a light or dark background.
func (m *Model) restyle(isDark bool) {
	m.ctx.Styles = NewStyles(isDark)
	m.help.Styles = m.ctx.Styles.Help
	for _, in := range []*textinput.Model{&m.note, &m.history.filter, &m.explain.input} {
		s := textinput.DefaultStyles(isDark)
		s.Cursor.Blink = false
		in.SetStyles(s)
	}
	m.layout()
}
