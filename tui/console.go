// Package tui is gatehouse's console (G-13): a Bubble Tea program that
// hosts a workspace in process and lets a human watch its agents and
// answer their asks. Only Model is a tea.Model; the panes are components
// with Update, View and SetSize that share one Context, and questions and
// inputs are modals on a stack (modal.go).
package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// Options configure a console.
type Options struct {
	// Context ends the console's subscriptions; default Background.
	Context context.Context
	// Now is the console's clock: ask ages, and how long the answering
	// keys wait after the screen changed (tests pin and advance it);
	// default time.Now.
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
	// explainFrom is the page esc goes back to from Explain.
	explainFrom focus

	help help.Model
	note textinput.Model // the deny note's input (noteModal)
	// ledgerShown and documentShown are the header's second row: the
	// ledger and the document, with the home directory written as ~.
	ledgerShown, documentShown string

	// modals are the open questions and inputs, the top one last.
	modals []modal

	// message is the last thing that happened, on the rule under the
	// header (see messageRule): its wordings, longest first, and the
	// part of them (a command) that may be cut in the middle to fit.
	message      string
	messageShort []string
	messageAbout string
	messageErr   bool
	// messageUntil is when the message leaves the rule, by the console's
	// clock (see messageLife): a test that pins the clock keeps it.
	messageUntil time.Time
	// messageAt is when it was said: a message said after a wait showed
	// on the rule takes the rule back (it answers a key just pressed).
	messageAt time.Time

	// Arming (G-13.6): shownAsk is the ask the answering keys act on as
	// of the last update; navigated says the human moved the selection in
	// this update; armedAt is when the answering keys act again after the
	// selection changed by itself.
	shownAsk  string
	navigated bool
	armedAt   time.Time

	// work is what the human started that is still in flight (see
	// work.go); the spinner turns while anything is.
	work     []workItem
	workSeq  int
	spinner  spinner.Model
	spinning bool

	ticks    int // for the ledger's periodic re-read
	lastBell time.Time

	// ledgerErr is why the ledger could not be read, at start or at the
	// last periodic re-read, since ledgerErrAt: until a re-read works
	// the rule under the header says the queue may be out of date.
	ledgerErr   error
	ledgerErrAt time.Time
}

// A status message stays long enough to be read: messageMinLife, and
// more for a long one (messagePerWord a word past the first ten), twice
// as long for an error, which says what to do next.
const (
	messageMinLife = 8 * time.Second
	messagePerWord = 400 * time.Millisecond
)

// messageLife is how long a message of text stays on the rule.
func messageLife(text string, isErr bool) time.Duration {
	d := messageMinLife + time.Duration(max(len(strings.Fields(text))-10, 0))*messagePerWord
	if isErr {
		d *= 2
	}
	return d
}

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
	if opts.Document == "" {
		opts.Document = ws.Config().Path
	}
	ctx := &Context{Width: 80, Height: 24, Styles: NewStyles(true), Keys: DefaultKeyMap(), Now: opts.Now}
	m := &Model{ws: ws, ledger: ws.Decisions(), opts: opts, ctx: ctx, board: newBoard(),
		ledgerShown: homeShort(opts.LedgerPath), documentShown: homeShort(opts.Document)}
	m.ledgerEvents = m.ledger.Subscribe(opts.Context)
	m.wsEvents = ws.Watch(opts.Context)
	if all, err := m.ledger.List(opts.Context, ""); err != nil {
		m.ledgerErr, m.ledgerErrAt = err, opts.Now()
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
	m.spinner = newSpinner()
	ctx.Spin = m.spinner.View()
	m.help.Styles = ctx.Styles.Help
	m.help.ShortSeparator = "  "                         // " · " would not fit the asks' bar in 80 columns
	m.note = newInput("note › ", "why the answer is no") // the bar under it says what enter and esc do
	m.asks.follow()
	m.firstCmd = m.detail.Show(m.asks.Selected())
	m.setFocus(focusQueue)
	m.layout()
	return m
}

// homeShort writes a path under the home directory with ~, for the
// header.
func homeShort(p string) string {
	home, _ := os.UserHomeDir()
	if abs, err := filepath.Abs(p); err == nil && p != "" && home != "" && strings.HasPrefix(abs, home+string(filepath.Separator)) {
		return "~" + abs[len(home):]
	}
	return p
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
		cmds = append(cmds, m.onTick())
	case reconciledMsg:
		cmds = append(cmds, m.onReconciled(msg))
	case reloadedMsg:
		m.board.load(msg.recs)
		cmds = append(cmds, m.queueChanged())
	case armMsg:
		// The answering keys woke: redraw.
	case workDoneMsg:
		return m.onWorkDone(msg)
	case spinner.TickMsg:
		cmds = append(cmds, m.onSpinnerTick(msg))
	case answeredMsg:
		m.onAnswered(msg)
	case coversMsg:
		m.onCovers(msg)
	case amendProposedMsg:
		m.onAmendProposed(msg)
	case amendAppliedMsg:
		m.onAmendApplied(msg)
	case explainedMsg:
		m.detail.Explained(msg)
		cmds = append(cmds, m.explain.Update(msg))
	case tea.KeyPressMsg:
		cmds = append(cmds, m.onKey(msg))
	case tea.PasteMsg:
		// A paste can carry what an agent wrote: the inputs show it, and
		// a note stores it, made inert like everything else on screen.
		msg.Content = inert(strings.ReplaceAll(msg.Content, "\t", " "))
		cmds = append(cmds, m.routeToInput(msg))
	default:
		cmds = append(cmds, m.routeToInput(msg))
	}
	cmds = append(cmds, m.watchSelection(), m.spin())
	m.syncKeys()
	return m, tea.Batch(cmds...)
}

// onTick makes ages advance, refreshes the sessions' states and, every
// few ticks, re-reads the queue from the ledger.
func (m *Model) onTick() tea.Cmd {
	m.board.refreshSessions(m.ws)
	m.sessions.Refresh()
	if m.message != "" && !m.ctx.Now().Before(m.messageUntil) {
		m.message = ""
	}
	m.ticks++
	if m.ticks%reconcileTicks == 0 {
		return tea.Batch(tick(), reconcile(m.opts.Context, m.ledger, m.board.pendingIDs()))
	}
	return tick()
}

// onLedger files a ledger change and keeps the selection and the detail in
// step; a new ask rings the bell.
func (m *Model) onLedger(ev decisions.Event) tea.Cmd {
	r := ev.Record
	added := m.board.apply(r)
	switch ev.Kind {
	case decisions.EventClosed:
		// The line that asked is gone; say so, since the row vanishes.
		m.say(false, r.Command, fmt.Sprintf("ask %s (%s, %s) left the queue: %s", r.ID, r.AgentID, r.Command, r.Closed),
			fmt.Sprintf("%s's %s left the queue: %s", r.AgentID, r.Command, r.Closed))
	case decisions.EventAnswer:
		if r.AnsweredBy != "console" {
			word, _ := decisionLabel(r)
			m.say(false, r.Command, fmt.Sprintf("ask %s (%s) answered by %s: %s", r.ID, r.Command, orDash(r.AnsweredBy), word),
				fmt.Sprintf("%s answered by %s: %s", r.Command, orDash(r.AnsweredBy), word))
		}
	}
	m.sessions.Refresh() // a transcript shows how its asks were answered
	cmd := m.queueChanged()
	if added && !m.opts.Quiet && time.Since(m.lastBell) > time.Second {
		// One ring per new ask; a burst of asks in the same second
		// shares one, so the terminal does not chatter.
		m.lastBell = time.Now()
		return tea.Batch(cmd, tea.Raw("\a"))
	}
	return cmd
}

// queueChanged re-lays the Asks page after the queue grew or shrank, keeps
// the selection on its ask, and points the detail at it.
func (m *Model) queueChanged() tea.Cmd {
	m.closeStaleQuestion()
	m.layout() // the queue grows and shrinks with its asks
	m.asks.follow()
	return m.detail.Show(m.asks.Selected())
}

// closeStaleQuestion closes the open question when every ask it would
// answer has left the queue, and says why, so a y pressed next answers
// nothing the human did not see.
func (m *Model) closeStaleQuestion() {
	q, ok := m.top().(*question)
	if !ok || len(q.asks) == 0 {
		return
	}
	for _, id := range q.asks {
		if m.board.queued[id] {
			return
		}
	}
	m.pop()
	r := m.board.decided[q.asks[0]]
	why := "was answered elsewhere"
	if r.Closed != "" {
		why = "left the queue: " + r.Closed
	}
	if len(q.asks) > 1 {
		m.setMessage(fmt.Sprintf("question closed: its %d asks %s", len(q.asks), strings.Replace(why, "was ", "were ", 1)), false)
		return
	}
	m.say(false, r.Command, fmt.Sprintf("question closed: %s %s", r.Command, why))
}

// onReconciled files what a re-read of the ledger found that the event
// stream did not deliver (a subscriber that falls behind loses events):
// the queue and the header count stay the ledger's.
func (m *Model) onReconciled(msg reconciledMsg) tea.Cmd {
	if msg.err != nil {
		if m.ledgerErr == nil {
			m.ledgerErrAt = m.ctx.Now()
		}
		m.ledgerErr = msg.err
		return nil
	}
	if m.ledgerErr != nil {
		// Back: read it all again, since events were missed meanwhile.
		m.ledgerErr = nil
		m.setMessage("the ledger answers again: the queue is up to date", false)
		return reload(m.opts.Context, m.ledger)
	}
	if len(msg.recs) == 0 {
		return nil
	}
	for _, r := range msg.recs {
		m.board.apply(r)
	}
	return m.queueChanged()
}

func (m *Model) onAnswered(msg answeredMsg) {
	switch {
	case len(msg.errs) > 0 && len(msg.recs) == 0:
		m.notAnswered(msg)
	case len(msg.recs) == 1:
		r := msg.recs[0]
		word, _ := decisionLabel(r)
		text := fmt.Sprintf("%s: %s (%s)", word, r.Command, r.AgentID)
		if r.Note != "" {
			text += " · note stored"
		}
		m.say(false, r.Command, text)
	default:
		text := fmt.Sprintf("%s: %d asks", msg.what, len(msg.recs))
		if len(msg.errs) > 0 {
			text += fmt.Sprintf(" (%d already answered elsewhere)", len(msg.errs))
		}
		m.setMessage(text, false)
	}
}

// notAnswered says why an answer was not written, naming the ask, and
// what to do: an ask that still waits can be answered again (its row is
// still in the queue), here or with gatehouse allow/deny.
func (m *Model) notAnswered(msg answeredMsg) {
	err := msg.errs[0]
	what := "the ask"
	if len(msg.failed) > 0 {
		if i := m.board.indexOf(msg.failed[0]); i >= 0 {
			what = m.board.pending[i].Command
		}
	}
	if len(msg.errs) > 1 {
		what = plural(len(msg.errs), "ask", "asks")
	}
	if !answerStands(err) {
		m.say(true, what, fmt.Sprintf("%s not answered: %s", what, answerError(err)))
		return
	}
	long, short := answerProblem(err)
	m.say(true, what,
		fmt.Sprintf("%s not answered: %s; it still waits: answer it again", what, answerError(err)),
		fmt.Sprintf("%s not answered: %s; answer it again", what, long),
		fmt.Sprintf("not answered: %s; answer it again", long),
		fmt.Sprintf("not answered: %s; answer it again", short))
}

func (m *Model) setMessage(text string, isErr bool) { m.say(isErr, "", text) }

// say puts a message on the rule under the header: the first of its
// wordings that fits the terminal, with about (a command it names, which
// every wording contains) cut in the middle when that is what makes it
// fit, so the words around it (what happened, what to do) always show.
func (m *Model) say(isErr bool, about string, wordings ...string) {
	m.message, m.messageShort, m.messageAbout = inert(wordings[0]), nil, inert(about)
	for _, w := range wordings[1:] {
		m.messageShort = append(m.messageShort, inert(w))
	}
	m.messageErr, m.messageUntil, m.messageAt = isErr, m.ctx.Now().Add(messageLife(wordings[0], isErr)), m.ctx.Now()
}

// typing reports whether a pane's text input has the keys: then letters
// are text, and q types a q instead of quitting.
func (m *Model) typing() bool {
	return (m.focus == focusHistory && m.history.Typing()) ||
		(m.focus == focusExplain && m.explain.Typing()) ||
		(m.focus == focusQueue && m.asks.Typing())
}

// onKey decides who a key press is for: a modal first, then a text input,
// then the console's own keys, then the focused pane (STYLE §5).
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	keys := m.ctx.Keys
	if key.Matches(k, keys.ForceQuit) {
		return tea.Quit
	}
	if md := m.top(); md != nil {
		return m.onModalKey(md, k)
	}
	if m.focus == focusExplain && key.Matches(k, keys.Back) {
		m.back() // from the line, the table or its input alike
		return nil
	}
	if m.typing() && !key.Matches(k, keys.NextPane, keys.PrevPane) {
		return m.routeToFocused(k)
	}
	if cmd, ok := m.onAnswerKey(k); ok {
		return cmd
	}
	switch {
	case key.Matches(k, keys.Quit):
		return m.quit()
	case key.Matches(k, keys.Help):
		m.push(&helpModal{})
	case key.Matches(k, keys.NextPane):
		return m.toPane((m.focus + 1) % focusCount)
	case key.Matches(k, keys.PrevPane):
		return m.toPane((m.focus + focusCount - 1) % focusCount)
	case key.Matches(k, keys.AllowAllOnce):
		return m.askAllowAllOfSession()
	case key.Matches(k, keys.Explain) && m.focus != focusExplain:
		return m.openExplain()
	case key.Matches(k, keys.History):
		m.setFocus(focusHistory)
	case key.Matches(k, keys.Filter):
		return m.startFilter()
	case key.Matches(k, keys.Open) && m.focus == focusQueue:
		if _, ok := m.asks.Selected(); ok {
			m.setFocus(focusDetail)
		}
	case key.Matches(k, keys.Open) && m.focus == focusSessions && !m.sessions.Viewing():
		if s, ok := m.sessions.Selected(); ok {
			m.sessions.Open(s.ID)
		}
	case key.Matches(k, keys.Back):
		m.back()
	default:
		return m.routeToFocused(k)
	}
	return nil
}

// toPane is tab's and shift+tab's move. An empty Explain page gives its
// line the keys at once: typing is all there is to do there, and its
// placeholder says to type (letters typed after tab were lost).
func (m *Model) toPane(f focus) tea.Cmd {
	m.setFocus(f)
	if f == focusExplain && m.explain.input.Value() == "" {
		m.explainFrom = focusQueue
		return m.explain.Start("", "")
	}
	return nil
}

// back is esc outside inputs: one level back, towards the list.
func (m *Model) back() {
	switch {
	case m.focus == focusDetail:
		m.setFocus(focusQueue)
	case m.focus == focusSessions && m.sessions.Viewing():
		m.sessions.Close()
	case m.focus == focusExplain:
		m.setFocus(m.explainFrom)
	case m.focus == focusHistory && m.history.filter.Value() != "":
		m.history.clearFilter()
	case m.focus == focusHistory:
		m.setFocus(focusQueue)
	case m.focus == focusQueue && m.asks.filter.Value() != "":
		m.asks.clearFilter()
		m.queueChanged()
	}
}

// openExplain opens the Explain page on the selected ask's line (or the
// selected session), remembering where esc goes back to.
func (m *Model) openExplain() tea.Cmd {
	line, session := "", ""
	from := m.focus
	if r, ok := m.asks.Selected(); ok && (m.focus == focusQueue || m.focus == focusDetail) {
		line, session = r.Line, r.SessionID
		from = focusQueue
	} else if s, ok := m.sessions.Selected(); ok && m.focus == focusSessions {
		session = s.ID
	} else if r, ok := m.history.Selected(); ok && m.focus == focusHistory {
		// A decision's line, however long, read command by command.
		line, session = r.Line, r.SessionID
	}
	if from == focusDetail {
		from = focusQueue
	}
	m.explainFrom = from
	m.setFocus(focusExplain)
	return m.explain.Start(line, session)
}

// startFilter gives the keys to the filter of the page in view: the
// queue's on the Asks page, the decisions' on History.
func (m *Model) startFilter() tea.Cmd {
	switch m.focus {
	case focusHistory:
		return m.history.StartFilter()
	case focusQueue, focusDetail:
		m.setFocus(focusQueue)
		return m.asks.StartFilter()
	}
	return nil
}

// quit ends the console, after a question when asks are waiting: their
// agents' lines end with the console, and the rest stay in the ledger.
func (m *Model) quit() tea.Cmd {
	n := len(m.board.pending)
	if n == 0 {
		return tea.Quit
	}
	here := 0
	for _, r := range m.board.pending {
		if _, ok := m.ws.Session(r.SessionID); ok {
			here++
		}
	}
	m.push(&question{
		draw: func(w int) []string {
			text := fmt.Sprintf("%s waiting.", plural(n, "ask is", "asks are"))
			if here > 0 {
				text += fmt.Sprintf(" %s of agents in this console %s with it, cancelled.", plural(here, "ask", "asks"), verb(here, "ends", "end"))
			}
			if n > here {
				text += fmt.Sprintf(" %s from elsewhere %s in the ledger: answer them later with gatehouse list-asks, allow ID, deny ID.", plural(n-here, "ask", "asks"), verb(n-here, "stays", "stay"))
			}
			// The question keeps a row of its own: it never wraps apart.
			return append(m.promptLines(text, w), m.promptLines("Quit? y/N", w)...)
		},
		yes:     func() tea.Cmd { return tea.Quit },
		no:      "still here",
		yesHelp: "(or q) quit",
		quit:    true,
	})
	return nil
}

// promptLines wraps a question's text in the prompt's style.
func (m *Model) promptLines(text string, w int) []string {
	var out []string
	for _, l := range wrap(text, w) {
		out = append(out, m.ctx.Styles.Prompt.Render(l))
	}
	return out
}

// moveOffAnswered points the selection at the ask after id (or before it,
// when id is the last), so answering walks down the queue (G-13.5). The
// ask that slides under the cursor is not the human's choice: the
// answering keys wait before they act on it (see watchSelection).
func (m *Model) moveOffAnswered(id string) {
	m.asks.stepOff(id)
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
	if m.focus == focusQueue && f != focusQueue && m.asks.Typing() {
		m.asks.filtering = false
		m.asks.filter.Blur()
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
		before, filter := m.asks.selectedID, m.asks.filter.Value()
		cmd := m.asks.Update(msg)
		if k, ok := msg.(tea.KeyPressMsg); ok && !m.asks.Typing() && m.asks.isMove(k) {
			m.navigated = true
		}
		if m.asks.selectedID != before || m.asks.filter.Value() != filter {
			m.layout()
		}
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
	if in, ok := m.top().(inputModal); ok {
		return in.input(m, msg)
	}
	if m.top() == nil && m.typing() {
		return m.routeToFocused(msg)
	}
	return nil
}

// syncKeys enables each key exactly when it can act, which is also what
// the help bar shows (G-13.2).
func (m *Model) syncKeys() {
	r, selected := m.asks.Selected()
	open := m.top() != nil
	onAsks := !open && (m.focus == focusQueue || m.focus == focusDetail) && !m.asks.Typing()
	m.ctx.Keys.setAnswering(selected && onAsks, selected && m.board.sameCount(r) > 1)
	s, ok := m.sessions.Selected()
	m.ctx.Keys.AllowAllOnce.SetEnabled(ok && !open && m.focus == focusSessions && !m.sessions.Viewing() && m.board.bySession[s.ID] > 0)
	m.ctx.Keys.Session.SetEnabled(len(m.board.sessions) > 1) // ↑/↓ choose among several
	m.ctx.Keys.TableScroll.SetEnabled(!open && m.focus == focusExplain && m.explain.Typing() && m.explain.overflows())
}

// restyle switches the palette for a light or dark background.
func (m *Model) restyle(isDark bool) {
	m.ctx.Styles = NewStyles(isDark)
	m.help.Styles = m.ctx.Styles.Help
	for _, in := range []*textinput.Model{&m.note, &m.history.filter, &m.explain.input, &m.asks.filter} {
		s := textinput.DefaultStyles(isDark)
		s.Cursor.Blink = false
		in.SetStyles(s)
	}
	m.layout()
}

// verb agrees with a count: "ends" for one, "end" for more.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// plural is "1 ask" or "3 asks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
