package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// The console as a newcomer meets it: each test is one surprise that must
// not happen, at the widths people use.

// raised is ask(i) as the ledger takes it: with a rule and its key.
func raised(i int) decisions.Record {
	r := ask(i)
	r.Rules = []decisions.AskRule{{Reason: r.Reason, Rule: r.Rule, Policy: "profile:p", Key: fmt.Sprintf("key-%d", i)}}
	return r
}

// feed hands the model a ledger event, as the subscription would.
func feed(m *Model, kind string, r decisions.Record) {
	m.Update(ledgerMsg(decisions.Event{Kind: kind, Record: r}))
}

// A line that wraps marks the asked command once: one opening bracket
// where it starts and one closing bracket where it ends, whatever the
// number of rows between.
func TestWrappedLineMarksTheAskedCommandOnce(t *testing.T) {
	for _, width := range []int{40, 80, 100} {
		m, clk := newTestModelClock(t)
		m.Update(tea.WindowSizeMsg{Width: width, Height: 40})
		a := ask(1)
		a.Line = "cd /data && " + strings.Repeat("rm -rf /data/some/very/long/path/segment ", 6) + "&& echo done"
		a.Place = "12"
		feed(m, decisions.EventAsk, a)
		clk.Advance(armDelay)
		screen := plain(m.render())
		if o, c := strings.Count(screen, "⟦"), strings.Count(screen, "⟧"); o != 1 || c != 1 {
			t.Errorf("%d columns: %d ⟦ and %d ⟧:\n%s", width, o, c, screen)
		}
	}
}

// A wider terminal never gives the queue fewer columns than 100 do (at
// 160 it has all of them; from 200 it sits beside the detail), and its
// columns grow with the room, so a command is not cut short beside empty
// space.
func TestWideTerminalGivesTheQueueRoom(t *testing.T) {
	m, clk := newTestModelClock(t)
	a := ask(1)
	a.Command = "grep -rn --include=*.yaml replicas /deploy/config/prod"
	a.Reason = "reading production config needs a human eye"
	feed(m, decisions.EventAsk, a)
	clk.Advance(armDelay)
	widths := map[int]int{}
	for _, w := range []int{100, 140, 160, 200} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		widths[w] = m.asks.width
		whole := strings.Contains(plain(m.render()), a.Command+"  "+a.Reason)
		if whole != (w != 100) {
			t.Errorf("%d columns: row whole = %v:\n%s", w, whole, plain(m.render()))
		}
	}
	if widths[140] < widths[100] || widths[160] < widths[140] || widths[200] < widths[100] {
		t.Errorf("the queue narrows as the terminal widens: %v", widths)
	}
}

// At 80 columns an agent's name of twelve cells ("capacity-bot") shows
// whole in the queue, not "capacity-b…" beside columns with room.
func TestNarrowQueueShowsATwelveCellAgent(t *testing.T) {
	m, clk := newTestModelClock(t)
	a := ask(1)
	a.AgentID = "capacity-bot"
	feed(m, decisions.EventAsk, a)
	clk.Advance(armDelay)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	s := plain(m.render())
	for _, r := range strings.Split(s, "\n") {
		if strings.HasPrefix(r, "▸ ") && !strings.Contains(r, " capacity-bot ") {
			t.Errorf("the agent is cut at 80 columns: %q", r)
		}
	}
}

// The header's count is the ledger's: asks raised in another process and
// missed by the event stream (a subscriber that falls behind loses
// events) show up at the next re-read, and so do answers given
// elsewhere. The status bar counts sessions, not asks, so no two counts
// can disagree.
func TestTheCountIsTheLedgers(t *testing.T) {
	m := newTestModel(t)
	ctx := context.Background()
	var ids []string
	for i := range 3 {
		r, err := m.ledger.Raise(ctx, raised(i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	// No event was delivered: the re-read finds them.
	m.Update(reconcile(ctx, m.ledger, m.board.pendingIDs())())
	screen := plain(m.render())
	if !strings.Contains(screen, "◆ 3 asks waiting") || !strings.Contains(screen, "Asks · 3 waiting") {
		t.Fatalf("after the re-read:\n%s", screen)
	}
	if _, err := m.ledger.Answer(ctx, ids[1], decisions.Answer{Outcome: decisions.Deny, By: "cli"}); err != nil {
		t.Fatal(err)
	}
	m.Update(reconcile(ctx, m.ledger, m.board.pendingIDs())())
	screen = plain(m.render())
	if !strings.Contains(screen, "◆ 2 asks waiting") || !strings.Contains(screen, "Asks · 2 waiting") {
		t.Fatalf("after an answer elsewhere:\n%s", screen)
	}
	status := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if bar := status[len(status)-2]; strings.Contains(bar, "waiting") || !strings.Contains(bar, "sessions here") {
		t.Errorf("the status bar counts asks (or nothing): %q", bar)
	}
}

// q with asks waiting asks first and says what becomes of them; anything
// but y (or q again) keeps the console; with no ask waiting q quits.
func TestQuitAsksWhileAsksWait(t *testing.T) {
	m, clk := newTestModelClock(t)
	if _, cmd := m.Update(keyPress("q")); !isQuit(cmd) {
		t.Fatal("q with nothing waiting did not quit")
	}
	feed(m, decisions.EventAsk, ask(1))
	feed(m, decisions.EventAsk, ask(2))
	clk.Advance(armDelay)
	if _, cmd := m.Update(keyPress("q")); isQuit(cmd) {
		t.Fatal("q quit with asks waiting, without a word")
	}
	screen := flat(plain(m.render()))
	if !strings.Contains(screen, "2 asks are waiting. 2 asks from elsewhere stay in the ledger: answer them later with gatehouse list-asks, allow ID, deny ID. Quit? y/N") {
		t.Fatalf("the question:\n%s", screen)
	}
	if _, cmd := m.Update(keyPress("x")); isQuit(cmd) || m.top() != nil {
		t.Fatal("a key other than y quit, or left the question open")
	}
	m.Update(keyPress("q"))
	clk.Advance(armDelay)
	if _, cmd := m.Update(keyPress("y")); !isQuit(cmd) {
		t.Fatal("y did not quit")
	}
	m.Update(keyPress("q"))
	clk.Advance(armDelay)
	if _, cmd := m.Update(keyPress("q")); !isQuit(cmd) {
		t.Fatal("q, q did not quit")
	}
}

// At 80 columns the help bar keeps the keys that matter on the page and
// says `? more` for the rest; where everything fits it says `? help`.
func TestNarrowHelpBarSaysThereIsMore(t *testing.T) {
	m, clk := newTestModelClock(t)
	feed(m, decisions.EventAsk, ask(1))
	clk.Advance(armDelay)
	for _, tc := range []struct {
		width int
		want  []string
		not   string
	}{
		{80, []string{"y allow once", "a allow session", "n deny", "N deny+note", "q quit", "? more"}, "? help"},
		{160, []string{"A allow+add rule", "e explain", "h history", "/ filter", "? help"}, "? more"},
	} {
		m.Update(tea.WindowSizeMsg{Width: tc.width, Height: 30})
		lines := strings.Split(plain(m.render()), "\n")
		bar := lines[len(lines)-1]
		for _, w := range tc.want {
			if !strings.Contains(bar, w) {
				t.Errorf("%d columns: the bar lacks %q: %q", tc.width, w, bar)
			}
		}
		if strings.Contains(bar, tc.not) || lipgloss.Width(bar) > tc.width {
			t.Errorf("%d columns: %q", tc.width, bar)
		}
	}
}

// esc leaves Explain for the list it came from, whatever the pane was
// doing: just opened, after typing, after a result.
func TestEscLeavesExplain(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"just opened", []string{"e"}},
		{"after typing", []string{"e", "l", "s"}},
		{"after a result", []string{"e", "l", "s", "enter"}},
		{"not typing", []string{"e", "l", "s", "enter", "tab", "shift+tab"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestModel(t)
			press(m, tc.keys...)
			if m.focus != focusExplain {
				t.Fatalf("not in Explain after %v", tc.keys)
			}
			press(m, "esc")
			if m.focus != focusQueue || m.explain.Typing() {
				t.Fatalf("esc left focus %d, typing %v", m.focus, m.explain.Typing())
			}
		})
	}
}

// The header names the ledger the console reads and the document its
// workspace came from, keeping a long path's end.
func TestHeaderShowsTheLedgerAndTheDocument(t *testing.T) {
	m := newTestModel(t)
	m.ledgerShown = "/var/lib/gatehouse/" + strings.Repeat("x", 60) + "/ledger.db"
	for _, w := range []int{80, 100, 160} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		row := strings.Split(plain(m.render()), "\n")[1]
		if !strings.HasPrefix(row, " ledger ") || !strings.Contains(row, "/ledger.db · workspace t.yaml") || lipgloss.Width(row) > w {
			t.Errorf("%d columns: %q", w, row)
		}
	}
	// A short ledger beside a long document is not padded apart from it.
	m.ledgerShown = "/tmp/ledger.db"
	m.documentShown = "/home/someone/work/" + strings.Repeat("y", 60) + "/incident-workspace.yaml"
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 24})
	if row := strings.Split(plain(m.render()), "\n")[1]; !strings.HasPrefix(row, " ledger /tmp/ledger.db · workspace …") || lipgloss.Width(row) > 60 {
		t.Errorf("60 columns: %q", row)
	}
}

// Wrapping breaks at blanks; a path longer than the row breaks after a
// slash, so no row ends inside a file name; a word with nowhere to break
// breaks where the row ends.
func TestWrapBreaksPathsAfterASlash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		w    int
		want []string
	}{
		{"rule /tmp/c6/gatehouse-demo/incident-workspace.yaml:45:11 (profile:responder)", 40,
			[]string{"rule /tmp/c6/gatehouse-demo/", "incident-workspace.yaml:45:11", "(profile:responder)"}},
		{"/tmp/c6/gatehouse-demo/incident-workspace.yaml:45:11", 30, []string{"/tmp/c6/gatehouse-demo/", "incident-workspace.yaml:45:11"}},
		{"/a/" + strings.Repeat("x", 30), 20, []string{"/a/" + strings.Repeat("x", 17), strings.Repeat("x", 13)}},
		{strings.Repeat("z", 25), 10, []string{strings.Repeat("z", 10), strings.Repeat("z", 10), strings.Repeat("z", 5)}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			if got := wrap(tc.in, tc.w); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("wrap(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
			}
		})
	}
}

// / filters the queue by command, session, agent, path or any word, and
// the answering keys act on what the filter shows.
func TestQueueFilter(t *testing.T) {
	m, clk := newTestModelClock(t)
	for i := range 10 {
		a := ask(i)
		if i == 7 {
			a.Paths, a.Cwd = []string{"/vault/token"}, "/vault"
		}
		feed(m, decisions.EventAsk, a)
	}
	for _, tc := range []struct {
		filter string
		want   int
	}{
		{"file-3", 1}, {"session:s-2", 2}, {"agent:agent-4", 2}, {"path:/vault", 1}, {"rm data", 10}, {"nothing", 0},
	} {
		press(m, "/")
		for _, r := range tc.filter {
			m.Update(keyPress(string(r)))
		}
		press(m, "enter")
		if got := m.asks.count(); got != tc.want {
			t.Errorf("%q: %d asks shown, want %d", tc.filter, got, tc.want)
		}
		if tc.want > 0 {
			clk.Advance(armDelay)
			r, _ := m.asks.Selected()
			if !matchesAll(r, strings.Fields(tc.filter)) {
				t.Errorf("%q: the selection %s is not among the matches", tc.filter, r.Command)
			}
		}
		press(m, "esc")
		if m.asks.count() != 10 {
			t.Fatalf("esc did not clear the filter")
		}
	}
}

// Y and D answer every pending ask identical to the selected one, after a
// question that counts them and names their sessions; asks that differ
// in anything the human saw stay.
func TestIdenticalAsksAnsweredTogether(t *testing.T) {
	m, clk := newTestModelClock(t)
	ctx := context.Background()
	same := func(i int) decisions.Record {
		r := raised(i)
		r.Command, r.Argv, r.Line, r.Place, r.Paths = "cat /data/a", []string{"cat", "/data/a"}, "cat /data/a", "0", []string{"/data/a"}
		r.Rules[0].Key = "same-rule"
		return r
	}
	var recs []decisions.Record
	for i, r := range []decisions.Record{same(1), same(2), same(3), raised(4)} {
		if i == 2 {
			r.Cwd = "/elsewhere" // same words, another directory: not the same
		}
		got, err := m.ledger.Raise(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, got)
		feed(m, decisions.EventAsk, got)
	}
	clk.Advance(armDelay)
	screen := plain(m.render())
	if !strings.Contains(screen, "×2 same") || !strings.Contains(screen, "2 identical asks waiting") {
		t.Fatalf("the count of identical asks is not shown:\n%s", screen)
	}
	m.Update(keyPress("Y"))
	screen = flat(plain(m.render()))
	if !strings.Contains(screen, "Allow once all 2 pending asks identical to this one:") || !strings.Contains(screen, "sessions s-1, s-2") {
		t.Fatalf("the question:\n%s", screen)
	}
	clk.Advance(armDelay)
	_, cmd := m.Update(keyPress("y"))
	drain(m, cmd)
	for i, want := range []string{decisions.Allow, decisions.Allow, "", ""} {
		got, err := m.ledger.Get(ctx, recs[i].ID)
		if err != nil || got.Outcome != want {
			t.Errorf("ask %d: outcome %q, want %q (%v)", i, got.Outcome, want, err)
		}
	}
}

// The session view shows each line with its outcome: the answer its ask
// got and by whom, and how the line ended.
func TestTranscriptShowsEachLinesOutcome(t *testing.T) {
	m := newTestModel(t)
	a := ask(1)
	m.board.sessions = []sessionInfo{{ID: a.SessionID, Agent: a.AgentID, Profile: "p", State: "idle"}}
	m.board.record(coreEvent(a.SessionID, "line-start", a.Line, ""))
	m.board.record(coreEvent(a.SessionID, "waiting", a.Line, a.ID))
	a.Outcome, a.Scope, a.AnsweredBy, a.Note = decisions.Deny, decisions.Once, "console", "not now"
	feed(m, decisions.EventAnswer, a)
	m.board.record(coreEventEnd(a.SessionID, a.Line, 126))
	m.sessions.Open(a.SessionID)
	m.setFocus(focusSessions)
	screen := plain(m.render())
	for _, want := range []string{"$ " + a.Line, "✗ deny by console (ask " + a.ID + ") · note: not now", "✗ exit 126"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, screen)
		}
	}
}

func keyPress(k string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: []rune(k)[0], Text: k} }

func coreEvent(session, kind, line, askID string) core.Event {
	return core.Event{Kind: kind, SessionID: session, Line: line, AskID: askID}
}

func coreEventEnd(session, line string, exit int) core.Event {
	return core.Event{Kind: core.EventLineEnd, SessionID: session, Line: line, Result: &core.Result{ExitCode: exit}}
}

// drain runs a command the way Bubble Tea would, batches included, and
// hands the model what each produced. (A tick among them takes its time.)
func drain(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		msgs := make([]tea.Msg, len(batch))
		var wg sync.WaitGroup
		for i, c := range batch {
			if c == nil {
				continue
			}
			wg.Add(1)
			go func() { defer wg.Done(); msgs[i] = c() }()
		}
		wg.Wait()
		for _, msg := range msgs {
			if msg != nil {
				m.Update(msg)
			}
		}
		return
	}
	if msg != nil {
		m.Update(msg)
	}
}
