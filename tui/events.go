package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// Messages the console's own commands produce.
type (
	// ledgerMsg is one change to the ledger (ask, answer, closed), from
	// this process or another.
	ledgerMsg decisions.Event
	// workspaceMsg is one thing a session did (session, line-start,
	// line-end, waiting).
	workspaceMsg core.Event
	// streamEndedMsg says a subscription channel closed (the console is
	// shutting down).
	streamEndedMsg struct{}
	// tickMsg makes ages advance and session states refresh without a
	// keypress.
	tickMsg struct{}
	// answeredMsg reports what the ledger said to an answer the console
	// gave.
	answeredMsg struct {
		what   string // "allow once", "allow session", "deny"
		recs   []decisions.Record
		errs   []error
		failed []string // the ids errs are about
	}
	// explainedMsg carries an explanation computed off the UI goroutine;
	// key says what it was for, so a late answer to an old question is
	// dropped.
	explainedMsg struct {
		key  string
		exps []core.Explanation
		err  error
	}
)

// tickEvery is how often ages and states refresh.
const tickEvery = time.Second

// reconcileTicks is how many ticks pass between two re-reads of the queue
// from the ledger.
const reconcileTicks = 5

// reconciledMsg carries what a re-read of the ledger found the board
// lacks or holds wrongly: asks pending in the ledger but not on the board,
// and the current records of asks on the board no longer pending.
type reconciledMsg struct {
	recs []decisions.Record
	err  error // the ledger could not be read: the queue may be stale
}

// reloadedMsg carries every record of the ledger, read again after it
// could not be read (at start, or since).
type reloadedMsg struct{ recs []decisions.Record }

// reload reads every record again, off the UI goroutine.
func reload(ctx context.Context, ledger *decisions.Ledger) tea.Cmd {
	return func() tea.Msg {
		all, err := ledger.List(ctx, "")
		if err != nil {
			return reconciledMsg{err: err}
		}
		return reloadedMsg{recs: all}
	}
}

// reconcile re-reads the queue off the UI goroutine and compares it with
// the ids the board held when it was asked: the event stream is the fast
// path, and a subscriber that falls behind loses events, so the ledger
// stays the one source of the queue and of every count drawn from it.
func reconcile(ctx context.Context, ledger *decisions.Ledger, held []string) tea.Cmd {
	return func() tea.Msg {
		pending, err := ledger.Pending(ctx, "")
		if err != nil {
			return reconciledMsg{err: err}
		}
		onBoard := make(map[string]bool, len(held))
		for _, id := range held {
			onBoard[id] = true
		}
		var msg reconciledMsg
		for _, r := range pending {
			if !onBoard[r.ID] {
				msg.recs = append(msg.recs, r)
			}
			delete(onBoard, r.ID)
		}
		for id := range onBoard {
			// Answered or closed meanwhile: its record says which.
			if r, err := ledger.Get(ctx, id); err == nil && !(r.Pending() && r.Closed == "") {
				msg.recs = append(msg.recs, r)
			}
		}
		return msg
	}
}

func tick() tea.Cmd {
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return tickMsg{} })
}

// nextLedgerEvent reads one event and hands it to Update, which issues
// this command again: the subscription is a loop through Update, so the
// model is only ever touched on the UI goroutine.
func nextLedgerEvent(ch <-chan decisions.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return streamEndedMsg{}
		}
		return ledgerMsg(ev)
	}
}

// nextWorkspaceEvent is nextLedgerEvent for the workspace's events.
func nextWorkspaceEvent(ch <-chan core.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return streamEndedMsg{}
		}
		return workspaceMsg(ev)
	}
}

// answer writes answers to the ledger, which releases the waiting lines
// (G-13.2). It runs off the UI goroutine: a write may wait for the file's
// lock while another process writes.
func answer(ctx context.Context, ledger *decisions.Ledger, ids []string, a decisions.Answer) tea.Cmd {
	what := a.Outcome
	if a.Outcome == decisions.Allow {
		what += " " + a.Scope
	}
	return func() tea.Msg {
		msg := answeredMsg{what: what}
		for _, id := range ids {
			rec, err := ledger.Answer(ctx, id, a)
			if err != nil {
				msg.errs, msg.failed = append(msg.errs, err), append(msg.failed, id)
				continue
			}
			msg.recs = append(msg.recs, rec)
		}
		return msg
	}
}

// explain judges a line for a live session, off the UI goroutine.
func explain(ws *core.Workspace, key, sessionID, line string) tea.Cmd {
	return func() tea.Msg {
		if _, ok := ws.Session(sessionID); !ok {
			return explainedMsg{key: key, err: fmt.Errorf("session %s is not live in this console", sessionID)}
		}
		exps, err := ws.Explain(line, sessionID)
		return explainedMsg{key: key, exps: exps, err: err}
	}
}

// answerError words an answer the ledger refused.
func answerError(err error) string {
	switch {
	case errors.Is(err, decisions.ErrAlreadyAnswered):
		return "already answered elsewhere"
	case errors.Is(err, decisions.ErrNotFound):
		return "no such ask"
	}
	long, _ := answerProblem(err)
	return long + " (" + err.Error() + ")"
}

// answerProblem words why the ledger did not take an answer, at two
// lengths: a file another process holds locked, or any other failure to
// write (a database server gone).
func answerProblem(err error) (long, short string) {
	if ledgerLocked(err) {
		return "the ledger is locked by another process", "ledger locked"
	}
	return "the ledger could not be written", "ledger not written"
}

// answerStands reports whether an ask an answer failed on still waits for
// one: it does unless another host answered it or it is gone.
func answerStands(err error) bool {
	return !errors.Is(err, decisions.ErrAlreadyAnswered) && !errors.Is(err, decisions.ErrNotFound)
}

// ledgerLocked reports whether err is SQLite's word for a write lock that
// another process would not let go of.
func ledgerLocked(err error) bool {
	s := err.Error()
	return strings.Contains(s, "SQLITE_BUSY") || strings.Contains(s, "database is locked")
}

// WaitForHuman is the inline ask handler a workspace hosted by the console
// takes (core.OnAsk): it gives no answer of its own and holds the line
// until its context ends. Meanwhile core waits on the ledger, so the
// console's answer (or `gatehouse allow ID` from another process) releases
// the line the moment it is written (G-10.4, G-13.1).
func WaitForHuman(ctx context.Context, _ decisions.Record) (decisions.Answer, error) {
	<-ctx.Done()
	return decisions.Answer{}, ctx.Err()
}
