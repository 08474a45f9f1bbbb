package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// "Allow and add a rule" (A): the console proposes the narrowest change to
// the workspace document that would have let the selected ask's command run
// (core.ProposeAmendment: an exception for exactly that command on the ask
// rule that put it), shows it as a diff, and on y writes it, applies it to
// the running workspace and allows the ask once. Anything but y leaves the
// document and the ask as they were.

type (
	// amendProposedMsg carries a proposal computed off the UI goroutine.
	amendProposedMsg struct {
		rec decisions.Record
		a   *core.Amendment
		err error
	}
	// amendAppliedMsg reports the written amendment and the answer.
	amendAppliedMsg struct {
		a        *core.Amendment
		answered decisions.Record
		err      error // the document was not amended
		answer   error // amended, but the ask could not be allowed
	}
)

// proposeAmendment computes the change off the UI goroutine: it reads the
// document and compiles the amended profile.
func proposeAmendment(ctx context.Context, ws *core.Workspace, rec decisions.Record) tea.Cmd {
	return func() tea.Msg {
		a, err := ws.ProposeAmendment(ctx, rec)
		return amendProposedMsg{rec: rec, a: a, err: err}
	}
}

// applyAmendment writes the document, waives the command in the running
// workspace, and then allows the ask once, so the waiting line goes on.
func applyAmendment(ctx context.Context, ws *core.Workspace, p *amendProposal) tea.Cmd {
	return func() tea.Msg {
		if err := ws.ApplyAmendment(p.a); err != nil {
			return amendAppliedMsg{a: p.a, err: err}
		}
		rec, err := ws.Decisions().Answer(ctx, p.rec.ID, decisions.Answer{
			Outcome: decisions.Allow, Scope: decisions.Once, Note: "rule added: " + p.a.Rule, By: "console",
		})
		return amendAppliedMsg{a: p.a, answered: rec, answer: err}
	}
}

// onAmendProposed puts A's question: the diff, exactly which command the
// new exception covers, what the gate would then say, and y/N. y waits
// armDelay after the question opened, since it opens by itself when the
// proposal is ready (G-13.6).
func (m *Model) onAmendProposed(msg amendProposedMsg) {
	if msg.err != nil {
		text := msg.err.Error()
		if errors.Is(msg.err, core.ErrNoAmendment) {
			text = strings.TrimPrefix(text, core.ErrNoAmendment.Error()+": ")
		}
		m.say(true, msg.rec.Command, "no rule to add for "+msg.rec.Command+": "+text)
		return
	}
	p := &amendProposal{rec: msg.rec, a: msg.a}
	doc := filepath.Base(p.a.Document)
	m.push(&question{
		draw: func(w int) []string { return m.amendLines(p, w) },
		yes: func() tea.Cmd {
			m.moveOffAnswered(p.rec.ID)
			return applyAmendment(m.opts.Context, m.ws, p)
		},
		no:      "left " + doc + " and the ask as they were",
		asks:    []string{p.rec.ID},
		yesHelp: "write the rule and allow once",
		armedAt: m.ctx.Now().Add(armDelay),
	})
}

// amendProposal is A's open question: the ask and the change proposed.
type amendProposal struct {
	rec decisions.Record
	a   *core.Amendment
}

func (m *Model) onAmendApplied(msg amendAppliedMsg) {
	doc := filepath.Base(msg.a.Document)
	switch {
	case errors.Is(msg.err, core.ErrDocumentChanged):
		m.setMessage(doc+" changed meanwhile; nothing written (press A again)", true)
	case msg.err != nil:
		m.setMessage("rule not added: "+msg.err.Error(), true)
	case msg.answer != nil:
		m.setMessage(fmt.Sprintf("rule added to %s; ask %s not allowed: %s", doc, msg.a.AskID, answerError(msg.answer)), true)
	default:
		m.say(false, msg.answered.Command, fmt.Sprintf("rule added to %s; allowed once: %s (%s)", doc, msg.answered.Command, msg.answered.AgentID))
	}
}

// amendLines is A's question as screen lines: what it does, the diff
// (wrapped, never cut sideways: the exception is the point), what the gate
// would then say of the command, and the y/N question. On a short terminal
// the diff's context lines go first, so the change and the question always
// show.
func (m *Model) amendLines(p *amendProposal, w int) []string {
	st := m.ctx.Styles
	render := func(style func(...string) string, text string) []string {
		var out []string
		for _, l := range wrap(text, w) {
			out = append(out, style(l))
		}
		return out
	}
	head := render(st.Prompt.Render, fmt.Sprintf("Allow %s once and add this rule to %s:", p.rec.Command, p.a.Document))
	foot := render(st.Label.Render, "the rule "+p.a.Rule+" then never asks about exactly: "+exceptionWords(p.a.Exception.Argv, p.a.Exception.Cwd, p.rec.Paths))
	foot = append(foot, render(st.Label.Render, "then "+p.rec.Command+" would: "+p.a.After)...)
	foot = append(foot, render(st.Prompt.Render, "Write it, apply it now and allow the ask once? y/N")...)
	diff := strings.Split(strings.TrimSuffix(p.a.Diff, "\n"), "\n")
	room := m.ctx.Height - chromeRows - 1 - 3 - len(head) - len(foot)
	if len(diff) > room {
		var changes []string
		for _, l := range diff {
			if strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
				changes = append(changes, l)
			}
		}
		diff = changes[max(len(changes)-max(room, 2), 0):]
	}
	lines := head
	for _, l := range diff {
		style := st.Dim.Render
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "@@"):
		case strings.HasPrefix(l, "+"):
			style = st.Allow.Render
		case strings.HasPrefix(l, "-"):
			style = st.Deny.Render
		}
		if sign := l[:min(len(l), 1)]; (sign == "+" || sign == "-" || sign == " ") && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			// A long diff line wraps under its own sign, so its rest
			// never reads as a line of context (and the sign, not the
			// colour alone, says what it is).
			for _, part := range wrap(l[1:], max(w-1, 1)) {
				lines = append(lines, style(sign+part))
			}
			continue
		}
		lines = append(lines, render(style, l)...)
	}
	return append(lines, foot...)
}

// exceptionWords says what an exception covers: these words and no
// others, in that directory (or any), reaching those paths.
func exceptionWords(argv []string, cwd string, paths []string) string {
	s := strconv.Quote(strings.Join(argv, " ")) + " word for word, with nothing added"
	if cwd != "" {
		s += ", run in " + cwd
	} else {
		s += ", from any directory"
	}
	if len(paths) > 0 {
		s += " (it reaches " + strings.Join(paths, " ") + ")"
	}
	return s
}
