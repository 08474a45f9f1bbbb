package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// The human must answer what they see (G-13.6). The ask under the cursor
// changes by itself: an answer walks the selection to the next ask, a new
// ask or a closed one shifts the queue, an answer from another terminal
// takes the selected ask away. A key pressed a moment after such a change
// was meant for what was there before, so the answering keys (y a n N A Y
// D) wait armDelay after the selection changed for any reason but the
// human's own move (j/k, the arrows, the page keys), and every question
// ignores y for armDelay after it opened. The wait shows on screen.

// armDelay is how long the answering keys wait after the ask under the
// cursor changed by itself, and a question's y after it opened.
const armDelay = 400 * time.Millisecond

// armMsg redraws the screen when the answering keys wake.
type armMsg struct{}

// armWait is how long the answering keys still wait (0: they act).
func (m *Model) armWait() time.Duration {
	return max(m.armedAt.Sub(m.ctx.Now()), 0)
}

// watchSelection runs at the end of every update: when the ask under the
// cursor is not the one it was and the human did not move there, the
// answering keys wait.
func (m *Model) watchSelection() tea.Cmd {
	cur, moved := m.asks.selectedID, m.navigated
	m.navigated = false
	if cur == m.shownAsk {
		return nil
	}
	m.shownAsk = cur
	if moved || cur == "" {
		return nil
	}
	m.armedAt = m.ctx.Now().Add(armDelay)
	return tea.Tick(armDelay, func(time.Time) tea.Msg { return armMsg{} })
}

// onAnswerKey handles the keys that answer the selected ask; ok is false
// for any other key.
func (m *Model) onAnswerKey(k tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	keys := m.ctx.Keys
	var act func(decisions.Record) tea.Cmd
	switch {
	case key.Matches(k, keys.AllowOnce):
		act = func(r decisions.Record) tea.Cmd {
			return m.answerSelected(r, decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Once})
		}
	case key.Matches(k, keys.Deny):
		act = func(r decisions.Record) tea.Cmd {
			return m.answerSelected(r, decisions.Answer{Outcome: decisions.Deny, Scope: decisions.Once})
		}
	case key.Matches(k, keys.AllowSession):
		act = func(r decisions.Record) tea.Cmd {
			return m.track("working out what a session grant covers for "+r.Command, sessionCovers(m.opts.Context, m.ws, r))
		}
	case key.Matches(k, keys.DenyNote):
		act = func(r decisions.Record) tea.Cmd { return m.openNote(r, decisions.Deny) }
	case key.Matches(k, keys.AllowNote):
		act = func(r decisions.Record) tea.Cmd { return m.openNote(r, decisions.Allow) }
	case key.Matches(k, keys.Amend):
		act = func(r decisions.Record) tea.Cmd {
			return m.track("working out a rule for "+r.Command, proposeAmendment(m.opts.Context, m.ws, r))
		}
	case key.Matches(k, keys.AllowSame):
		act = func(r decisions.Record) tea.Cmd { return m.askSame(r, decisions.Allow) }
	case key.Matches(k, keys.DenySame):
		act = func(r decisions.Record) tea.Cmd { return m.askSame(r, decisions.Deny) }
	default:
		return nil, false
	}
	r, selected := m.asks.Selected()
	if !selected {
		return nil, true
	}
	if m.answering(r.ID) {
		// An answer given here is on its way: a second one would be
		// refused as "already answered elsewhere" once the first lands.
		m.say(true, r.Command, fmt.Sprintf("%s: its answer is on its way to the ledger; %s did nothing", r.Command, k.String()))
		return nil, true
	}
	if wait := m.armWait(); wait > 0 {
		m.say(true, r.Command,
			fmt.Sprintf("%s waits %s: the ask under the cursor has just changed to %s; read it, then press %s again",
				k.String(), waitWords(wait), r.Command, k.String()),
			fmt.Sprintf("%s waited: the ask changed to %s; read it, press %s again", k.String(), r.Command, k.String()),
			fmt.Sprintf("%s waited: the ask is now %s", k.String(), r.Command))
		return nil, true
	}
	return act(r), true
}

// answerSelected answers the ask the key was pressed on. The selection
// moves to the next pending ask at once; the answered one leaves the
// queue when the ledger reports the answer.
func (m *Model) answerSelected(r decisions.Record, a decisions.Answer) tea.Cmd {
	a.By = "console"
	m.moveOffAnswered(r.ID)
	return m.track("answering "+r.Command, answer(m.opts.Context, m.ledger, []string{r.ID}, a), r.ID)
}

// openNote opens the note's input for the ask: N's, to deny with a
// reason, or m's, to allow once with a word for the agent.
func (m *Model) openNote(r decisions.Record, outcome string) tea.Cmd {
	m.note.SetValue("")
	m.note.Placeholder = "why the answer is no"
	if outcome == decisions.Allow {
		m.note.Placeholder = "what the agent should know"
	}
	m.push(&noteModal{rec: r, outcome: outcome})
	return m.note.Focus()
}

// coversMsg carries what allowing an ask for its session would cover,
// read off the UI goroutine (the session's profile may be the ledger's).
type coversMsg struct {
	rec    decisions.Record
	covers []core.SessionCover
}

func sessionCovers(ctx context.Context, ws *core.Workspace, r decisions.Record) tea.Cmd {
	return func() tea.Msg { return coversMsg{rec: r, covers: ws.SessionCovers(ctx, r)} }
}

// onCovers puts a's question: it names the session and, rule by rule, the
// commands and paths the grant will let run from now on.
func (m *Model) onCovers(msg coversMsg) {
	r := msg.rec
	m.push(&question{
		draw: func(w int) []string {
			st := m.ctx.Styles
			out := m.promptLines(fmt.Sprintf("Allow for the rest of session %s (agent %s), without asking again:", r.SessionID, r.AgentID), w)
			for _, c := range msg.covers {
				out = append(out, indentWrap(" • ", coverWords(c), w)...)
			}
			out = append(out, indentWrap(st.Label.Render("this ask")+" ", askWords(r), w)...)
			return append(out, m.promptLines("Allow these for the session? y/N", w)...)
		},
		yes: func() tea.Cmd {
			return m.answerSelected(r, decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Session})
		},
		no:      "left " + r.Command + " unanswered",
		about:   r.Command,
		asks:    []string{r.ID},
		yesHelp: "allow for the session",
		armedAt: m.ctx.Now().Add(armDelay),
	})
}

// coverWords says what one rule's session grant covers, in words a human
// can check against the command: patterns, paths, the mount, exceptions.
func coverWords(c core.SessionCover) string {
	var b strings.Builder
	switch {
	case c.Program != "":
		fmt.Fprintf(&b, "every question the policy program %s asks for this reason", c.Program)
	case !c.Known:
		fmt.Fprintf(&b, "every command the rule at %s covers (it is no longer in the running profile)", c.Rule)
	default:
		b.WriteString(commandWords(c.Commands))
		if len(c.Paths) > 0 {
			b.WriteString(" reaching a path under " + strings.Join(c.Paths, " or "))
		}
		switch {
		case c.Mount != "" && len(c.Paths) == 0:
			fmt.Fprintf(&b, ", run in %s or reaching a path inside it", c.Mount)
		case len(c.Paths) == 0:
			b.WriteString(", in any directory, with any paths")
		}
		if len(c.Except) > 0 {
			b.WriteString(" (it never asked about " + strings.Join(c.Except, "; ") + ")")
		}
	}
	fmt.Fprintf(&b, " · rule %s: %s", c.Rule, orDash(c.Reason))
	return b.String()
}

// commandWords reads command patterns: each matches the argv's first
// words, `*` any one word (G-3.4).
func commandWords(patterns []string) string {
	if len(patterns) == 0 {
		return "any command"
	}
	quoted := make([]string, len(patterns))
	for i, p := range patterns {
		if p == "*" {
			return "any command"
		}
		quoted[i] = "`" + p + "`"
	}
	return "every command starting with " + strings.Join(quoted, " or ") + " (any further words)"
}

// askWords is an ask in one line: the command, where it runs, what it
// reaches.
func askWords(r decisions.Record) string {
	s := r.Command + " · in " + r.Cwd
	if len(r.Paths) > 0 {
		s += " · paths " + strings.Join(r.Paths, " ")
	}
	return s
}

// askSame puts Y's or D's question: answer once every pending ask
// identical to r (same line, place, command, directory, paths and rules),
// whichever agent raised it. The question counts them and names their
// sessions.
func (m *Model) askSame(r decisions.Record, outcome string) tea.Cmd {
	same := m.board.sameAs(r)
	ids := make([]string, len(same))
	sessions := make([]string, len(same))
	for i, s := range same {
		ids[i], sessions[i] = s.ID, s.SessionID
	}
	verb, what := "Allow once", "allow once"
	if outcome == decisions.Deny {
		verb, what = "Deny", "deny"
	}
	m.push(&question{
		draw: func(w int) []string {
			st := m.ctx.Styles
			out := m.promptLines(fmt.Sprintf("%s all %d pending asks identical to this one:", verb, len(ids)), w)
			out = append(out, indentWrap(st.Label.Render("line")+"     ", r.Line, w)...)
			out = append(out, indentWrap(st.Label.Render("command")+"  ", askWords(r), w)...)
			out = append(out, indentWrap(st.Label.Render("sessions")+" ", strings.Join(sessions, ", "), w)...)
			return append(out, m.promptLines(fmt.Sprintf("%s all %d? y/N", verb, len(ids)), w)...)
		},
		yes: func() tea.Cmd {
			m.moveOffAnswered(r.ID)
			return m.track(fmt.Sprintf("answering %d asks", len(ids)),
				answer(m.opts.Context, m.ledger, ids, decisions.Answer{Outcome: outcome, Scope: decisions.Once, By: "console"}), ids...)
		},
		no:      fmt.Sprintf("left the %d asks as they were", len(ids)),
		asks:    ids,
		yesHelp: fmt.Sprintf("%s all %d", what, len(ids)),
		armedAt: m.ctx.Now().Add(armDelay),
	})
	return nil
}

// askAllowAllOfSession puts Y's question on the Sessions page: allow every
// pending ask of the selected session once? It lists them (G-13.5).
func (m *Model) askAllowAllOfSession() tea.Cmd {
	s, ok := m.sessions.Selected()
	if !ok {
		return nil
	}
	recs := m.board.pendingOf(s.ID)
	if len(recs) == 0 {
		m.setMessage(s.Agent+" has no pending asks", false)
		return nil
	}
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.ID
	}
	asks := "the pending ask"
	if len(ids) > 1 {
		asks = fmt.Sprintf("all %d pending asks", len(ids))
	}
	m.push(&question{
		draw: func(w int) []string {
			out := m.promptLines(fmt.Sprintf("Allow %s of %s (%s) once?", asks, s.Agent, s.ID), w)
			for i, r := range recs {
				if i == maxListed && len(recs) > maxListed+1 {
					out = append(out, fit(fmt.Sprintf(" • …and %d more (Asks page, / %s)", len(recs)-i, s.ID), w))
					break
				}
				out = append(out, indentWrap(" • ", askWords(r), w)...)
			}
			return append(out, m.promptLines("y/N", w)...)
		},
		yes: func() tea.Cmd {
			return m.track("answering "+plural(len(ids), "ask", "asks"),
				answer(m.opts.Context, m.ledger, ids, decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Once, By: "console"}), ids...)
		},
		no:      "left " + s.Agent + "'s asks as they were",
		asks:    ids,
		yesHelp: "allow " + asks + " once",
		armedAt: m.ctx.Now().Add(armDelay),
	})
	return nil
}

// maxListed is how many asks a question lists before it counts the rest.
const maxListed = 5
