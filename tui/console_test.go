package tui

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

var t0 = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

// clock is a console clock a test moves by hand: no sleep ever stands in
// for a wait the console measures.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock(t time.Time) *clock { return &clock{now: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// newTestModel is a console over an empty workspace with a temporary
// ledger, sized 80×24, its clock pinned.
func newTestModel(tb testing.TB) *Model {
	m, _ := newTestModelClock(tb)
	return m
}

// newTestModelClock is newTestModel with the clock, to move it.
func newTestModelClock(tb testing.TB) (*Model, *clock) {
	tb.Helper()
	cfg, err := core.ParseDocument("t.yaml", []byte("mounts: {/data: {files: {a: \"x\\n\"}}}\nprofiles: {p: {commands: {ask: [cat]}}}\n"))
	if err != nil {
		tb.Fatal(err)
	}
	ws, err := core.FromConfig(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ws.Close() })
	clk := newClock(t0.Add(time.Minute))
	m := New(ws, Options{Now: clk.Now, Quiet: true, LedgerPath: "ledger.db"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return m, clk
}

func ask(i int) decisions.Record {
	return decisions.Record{
		ID: fmt.Sprintf("%012x", i), SessionID: fmt.Sprintf("s-%d", i%5), AgentID: fmt.Sprintf("agent-%d", i%5),
		Command: fmt.Sprintf("rm /data/file-%d", i), Argv: []string{"rm", fmt.Sprintf("/data/file-%d", i)},
		Line: fmt.Sprintf("cd /data && rm /data/file-%d", i), Place: "11", Cwd: "/data",
		Reason: "removal needs sign-off", Rule: "t.yaml:1:1", CreatedAt: t0.Add(time.Duration(i) * time.Millisecond),
	}
}

func TestFit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"a\nb", 3, "a⏎b"},
		{"", 0, ""},
	} {
		if got := fit(tc.in, tc.w); got != tc.want {
			t.Errorf("fit(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
	if got := fitLeft("responder-3f2a", 8); got != "…er-3f2a" {
		t.Errorf("fitLeft = %q", got)
	}
	// A reason in the queue's column is cut after a word when that keeps
	// most of the column ("needs a se…" read as a word of its own), and
	// where the column ends when a word cut would keep little of it.
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"break-glass needs a second pair of eyes", 23, "break-glass needs a…   "},
		{"break-glass needs a second pair of eyes", 32, "break-glass needs a second pair…"},
		{"changing the deployment needs sign-off", 23, "changing the deploymen…"},
		{"changing the deployment needs sign-off", 20, "changing the deploy…"},
		{"short", 8, "short   "},
	} {
		if got := fitNearWord(tc.in, tc.w); got != tc.want {
			t.Errorf("fitNearWord(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}

// Detail wraps; it never cuts (G-13.5).
func TestWrapKeepsEverything(t *testing.T) {
	long := strings.Repeat("x", 50) + " " + strings.Repeat("y", 7)
	lines := wrap(long, 20)
	if got := strings.Join(lines, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(long, " ", "") {
		t.Fatalf("wrap lost text: %q", lines)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > 20 {
			t.Fatalf("line too wide: %q", l)
		}
	}
}

func TestAskedSpan(t *testing.T) {
	for _, tc := range []struct{ line, place, want string }{
		{"cat a && rm -rf 'x; y' ; ls", "9", "rm -rf 'x; y'"},
		{"rm x", "0", "rm x"},
		{"cd /d && echo \"a: b\" >> f | cat", "9", "echo \"a: b\" >> f"},
		{"eval 'rm x'", "0/0", "eval 'rm x'"},
	} {
		s, e, ok := askedSpan(tc.line, tc.place)
		if !ok || tc.line[s:e] != tc.want {
			t.Errorf("askedSpan(%q, %q) = %q, want %q", tc.line, tc.place, tc.line[s:e], tc.want)
		}
	}
	if _, _, ok := askedSpan("ls", "99"); ok {
		t.Error("a place past the line's end was accepted")
	}
}

// The board files records idempotently, and an answered ask never comes
// back to the queue (events and the initial load overlap).
func TestBoardApply(t *testing.T) {
	b := newBoard()
	a := ask(1)
	if !b.apply(a) || b.apply(a) {
		t.Fatal("a new ask is added once")
	}
	closed := a
	closed.Closed = "timed out"
	b.apply(closed)
	if len(b.pending) != 0 || len(b.history) != 1 || b.historyAt(0).Closed != "timed out" {
		t.Fatalf("closed: pending %d history %+v", len(b.pending), b.history)
	}
	if !b.apply(a) || len(b.history) != 0 {
		t.Fatal("a closed ask raised again returns to the queue")
	}
	answered := a
	answered.Outcome, answered.Scope = decisions.Allow, decisions.Once
	b.apply(answered)
	if b.apply(a) || len(b.pending) != 0 || b.bySession[a.SessionID] != 0 {
		t.Fatal("a stale pending copy of an answered ask came back")
	}
	older := ask(0)
	b.apply(ask(2))
	b.apply(older)
	if b.pending[0].ID != older.ID {
		t.Fatal("the queue is not oldest first")
	}
}

func TestHistoryFilter(t *testing.T) {
	allowed, denied := ask(1), ask(2)
	allowed.Outcome, allowed.Scope = decisions.Allow, decisions.Session
	denied.Outcome, denied.Note = decisions.Deny, "not now"
	for _, tc := range []struct {
		q    string
		want []bool
	}{
		{"outcome:deny", []bool{false, true}},
		{"outcome:session", []bool{true, false}},
		{"session:s-1", []bool{true, false}},
		{"agent-2 now", []bool{false, true}},
		{"file-1", []bool{true, false}},
		{"nothing-like-it", []bool{false, false}},
	} {
		terms := strings.Fields(tc.q)
		if got := []bool{matchesAll(allowed, terms), matchesAll(denied, terms)}; got[0] != tc.want[0] || got[1] != tc.want[1] {
			t.Errorf("%q: %v, want %v", tc.q, got, tc.want)
		}
	}
}

func press(m *Model, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab}
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "shift+tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
		default:
			msg = tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		}
		m.Update(msg)
	}
}

// The answering keys are enabled only while an ask is selected in the
// Asks page, and the help bar shows them only then (G-13.2).
func TestAnswerKeysFollowTheSelection(t *testing.T) {
	m, clk := newTestModelClock(t)
	if m.ctx.Keys.AllowOnce.Enabled() || strings.Contains(plain(m.render()), "allow once") {
		t.Fatal("y is offered with an empty queue")
	}
	m.Update(ledgerMsg(decisions.Event{Kind: decisions.EventAsk, Record: ask(1)}))
	clk.Advance(armDelay)
	if !m.ctx.Keys.AllowOnce.Enabled() || !strings.Contains(plain(m.render()), "y allow once") {
		t.Fatal("y is not offered with an ask selected")
	}
	press(m, "tab", "tab") // Sessions
	if m.ctx.Keys.AllowOnce.Enabled() {
		t.Fatal("y stays enabled on the Sessions page")
	}
}

// Typing q into an input types it; outside inputs q quits.
func TestQuitOnlyOutsideInputs(t *testing.T) {
	m := newTestModel(t)
	press(m, "/")
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"}); isQuit(cmd) {
		t.Fatal("q quit from the filter input")
	}
	if m.asks.filter.Value() != "q" {
		t.Fatalf("filter = %q", m.asks.filter.Value())
	}
	press(m, "esc")
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"}); !isQuit(cmd) {
		t.Fatal("q did not quit")
	}
}

var ansiSequence = regexp.MustCompile(`\x1b\[[0-9;:?]*[A-Za-z]`)

// plain is the screen without styling.
func plain(s string) string { return ansiSequence.ReplaceAllString(s, "") }

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			if isQuit(c) {
				return true
			}
		}
		return false
	}
	_, ok := msg.(tea.QuitMsg)
	return ok
}

// A closed ask leaves the queue with the word saying why, and the header
// count follows whatever page has focus.
func TestClosedAskSaysWhy(t *testing.T) {
	m := newTestModel(t)
	press(m, "h")
	a := ask(1)
	m.Update(ledgerMsg(decisions.Event{Kind: decisions.EventAsk, Record: a}))
	if !strings.Contains(plain(m.render()), "1 ask waiting") {
		t.Fatal("the header missed an ask while History had focus")
	}
	a.Closed = "timed out"
	m.Update(ledgerMsg(decisions.Event{Kind: decisions.EventClosed, Record: a}))
	screen := plain(m.render())
	if !strings.Contains(screen, "left the queue: timed out") || !strings.Contains(screen, "⊘ timed out") {
		t.Fatalf("no word on why:\n%s", screen)
	}
}

// Every screen fits the terminal, at any size.
func TestEveryPageFits(t *testing.T) {
	m := newTestModel(t)
	for i := range 30 {
		m.Update(ledgerMsg(decisions.Event{Kind: decisions.EventAsk, Record: ask(i)}))
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}, {40, 10}, {120, 30}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for page := range int(focusCount) + 1 {
			if page == int(focusCount) {
				press(m, "?")
			}
			lines := strings.Split(m.render(), "\n")
			if len(lines) > size[1] {
				t.Errorf("%v page %d: %d rows", size, page, len(lines))
			}
			for _, l := range lines {
				if lipgloss.Width(l) > size[0] {
					t.Errorf("%v page %d: %d cells: %q", size, page, lipgloss.Width(l), l)
				}
			}
			if page == int(focusCount) {
				press(m, "?")
			} else {
				press(m, "tab")
			}
		}
	}
}

// G-14: View with 10,000 pending asks draws only the visible rows
// (target ≤ 5 ms).
func BenchmarkView10kAsks(b *testing.B) {
	m := newTestModel(b)
	for i := range 10000 {
		m.board.apply(ask(i))
	}
	m.asks.follow()
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	if got := strings.Count(m.render(), "\n") + 1; got > 48 {
		b.Fatalf("%d rows", got)
	}
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}

// G-4.10: an ask naming several rules shows every one, with its paths, in
// the detail pane, and says so in the queue: the answer settles them all.
func TestAskWithSeveralRulesShowsThemAll(t *testing.T) {
	m := newTestModel(t)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	a := ask(1)
	a.Command, a.Argv = "cat a/x b/y", []string{"cat", "a/x", "b/y"}
	a.Reason, a.Rule = "team A's files", "t.yaml:3:5"
	a.Rules = []decisions.AskRule{
		{Reason: "team A's files", Rule: "t.yaml:3:5", Policy: "profile:p", Paths: []string{"/data/a/x"}},
		{Reason: "team B's files", Rule: "t.yaml:4:5", Policy: "profile:p", Paths: []string{"/data/b/y"}},
	}
	m.Update(ledgerMsg(decisions.Event{Kind: decisions.EventAsk, Record: a}))
	screen := plain(m.render())
	for _, want := range []string{
		"2 rules: team A",
		"rule 1   team A's files · t.yaml:3:5 (profile:p) · /data/a/x",
		"rule 2   team B's files · t.yaml:4:5 (profile:p) · /data/b/y",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
}
