package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
			return m.track("writing the rule and answering "+p.rec.Command, applyAmendment(m.opts.Context, m.ws, p), p.rec.ID)
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
	var diff [][]string // each diff line's rows
	for _, l := range strings.Split(strings.TrimSuffix(p.a.Diff, "\n"), "\n") {
		diff = append(diff, m.diffRows(l, w))
	}
	rows := func(ls [][]string) int {
		n := 0
		for _, l := range ls {
			n += len(l)
		}
		return n
	}
	room := m.ctx.Height - chromeRows - 1 - 3 - len(head) - len(foot)
	if rows(diff) > room {
		// The changes alone, the last ones first (counted in rows: a
		// long line wraps); the question's own guard cuts what is left.
		var changes [][]string
		for _, d := range diff {
			if l := plainRow(d[0]); strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
				changes = append(changes, d)
			}
		}
		for len(changes) > 2 && rows(changes) > room {
			changes = changes[1:]
		}
		diff = changes
	}
	lines := head
	for _, d := range diff {
		lines = append(lines, d...)
	}
	return append(lines, foot...)
}

// diffRows draws one line of the diff at width w: a long line wraps under
// its own sign, so its rest never reads as a line of context (and the
// sign, not the colour alone, says what it is), hanging under the line's
// own indentation, so it does not read as a line of YAML further left.
func (m *Model) diffRows(l string, w int) []string {
	st := m.ctx.Styles
	style := st.Dim.Render
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "@@"):
		var out []string
		for _, r := range wrap(l, w) {
			out = append(out, style(r))
		}
		return out
	case strings.HasPrefix(l, "+"):
		style = st.Allow.Render
	case strings.HasPrefix(l, "-"):
		style = st.Deny.Render
	}
	sign, text := l[:min(len(l), 1)], l[min(len(l), 1):]
	indent := len(text) - len(strings.TrimLeft(text, " "))
	if indent > (w-1)/2 {
		indent = 0
	}
	hang := strings.Repeat(" ", indent+2)
	var out []string
	for i, part := range indentWrap(text[:indent], text[indent:], max(w-3, 1)) {
		if i > 0 {
			part = hang + strings.TrimLeft(part, " ")
		}
		out = append(out, style(sign+part))
	}
	return out
}

// plainRow is a drawn row without its styling.
func plainRow(s string) string { return ansi.Strip(s) }

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
