package tui

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// Waits the human can see. Work the human started (an answer written to
// the ledger, a rule worked out for A, what a's grant covers) runs off the
// UI goroutine; while it runs past workShowAfter, the rule under the
// header says what the console is doing, with a spinner, so a ledger that
// takes its time (a file another process holds locked) does not look like
// a key that did nothing. Explanations being computed spin too. The
// spinner ticks only while something is in flight.

// workShowAfter is how long work runs before the rule says so: most
// answers land within a frame, and a word that came and went at once
// would only flicker.
const workShowAfter = 250 * time.Millisecond

// workItem is one piece of work in flight.
type workItem struct {
	token int
	what  string // "answering cat /vault/…", for the rule
	since time.Time
	asks  []string // the asks an answer in flight settles
}

// workDoneMsg carries the message a tracked command produced, with the
// token that says which work ended.
type workDoneMsg struct {
	token int
	msg   tea.Msg
}

// newSpinner is the console's one spinner.
func newSpinner() spinner.Model { return spinner.New(spinner.WithSpinner(spinner.MiniDot)) }

// track runs cmd as work the rule shows while it lasts; what says what it
// does, with the command it is about, and asks which asks it answers.
func (m *Model) track(what string, cmd tea.Cmd, asks ...string) tea.Cmd {
	if cmd == nil {
		return nil
	}
	m.workSeq++
	tok := m.workSeq
	m.work = append(m.work, workItem{token: tok, what: what, since: m.ctx.Now(), asks: asks})
	return func() tea.Msg { return workDoneMsg{token: tok, msg: cmd()} }
}

// onWorkDone files the end of a piece of work and hands on its message.
func (m *Model) onWorkDone(msg workDoneMsg) (tea.Model, tea.Cmd) {
	for i, w := range m.work {
		if w.token == msg.token {
			m.work = append(m.work[:i:i], m.work[i+1:]...)
			break
		}
	}
	return m.Update(msg.msg)
}

// answering reports whether an answer to ask id is on its way to the
// ledger.
func (m *Model) answering(id string) bool {
	for _, w := range m.work {
		if slices.Contains(w.asks, id) {
			return true
		}
	}
	return false
}

// shownWork is the oldest work that has run long enough to be shown.
func (m *Model) shownWork() (workItem, bool) {
	now := m.ctx.Now()
	for _, w := range m.work {
		if now.Sub(w.since) >= workShowAfter {
			return w, true
		}
	}
	return workItem{}, false
}

// busy reports whether anything in flight is on screen to spin for.
func (m *Model) busy() bool {
	return len(m.work) > 0 || m.detail.explaining() || m.explain.explaining() ||
		(m.focus == focusSessions && m.sessions.running())
}

// spin keeps the spinner turning while the console is busy and lets it
// stop when nothing is: it returns the tick to start it, or nil.
func (m *Model) spin() tea.Cmd {
	if m.spinning || !m.busy() {
		return nil
	}
	m.spinning = true
	return m.spinner.Tick
}

// onSpinnerTick turns the spinner, while there is something to spin for.
func (m *Model) onSpinnerTick(msg spinner.TickMsg) tea.Cmd {
	if !m.busy() {
		m.spinning = false
		return nil
	}
	var cmd tea.Cmd
	m.spinner, cmd = m.spinner.Update(msg)
	m.ctx.Spin = m.spinner.View()
	return cmd
}
