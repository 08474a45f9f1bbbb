package consoletest

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// A day with the console (session 30): each test is something a reviewer
// who knows Charm apps noticed, pinned on screen.

// hintRow is the row of screen that starts with one of the scroll
// hint's arrows, or "".
func hintRow(screen string) string {
	for _, r := range strings.Split(screen, "\n") {
		if strings.HasPrefix(r, "↓ ") || strings.HasPrefix(r, "↕ ") || strings.HasPrefix(r, "↑ ") {
			return r
		}
	}
	return ""
}

// A window's scroll hint names the keys that scroll it where the human
// is: under the queue j/k move the selection, so the detail's hint says
// tab; while a note has the keys it names none; while Explain's line has
// the keys (j and k are letters) its table scrolls with pgup/pgdn, and
// the hint and the bar say so. Before, every hint said "j/k scroll".
func TestScrollHintsNameTheKeysThatScroll(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{width: 80, height: 24})
	s := h.steady("2 asks waiting", "PLACE")
	if hint := hintRow(s); !strings.HasSuffix(hint, "more lines · tab to scroll") {
		t.Errorf("under the queue the detail's hint reads %q\n%s", hint, s)
	}
	h.key("tab")
	s = h.waitScreen("» Detail")
	if hint := hintRow(s); !strings.HasSuffix(hint, "more lines · j/k scroll") {
		t.Errorf("with the keys the detail's hint reads %q", hint)
	}
	h.key("j")
	if hint := hintRow(h.waitScreen("↕ 1 above")); !strings.HasSuffix(hint, "below · j/k scroll") {
		t.Errorf("after j the detail's hint reads %q", hint)
	}
	h.key("esc")
	h.press("N")
	s = h.waitScreen("note ›")
	if hint := hintRow(s); hint == "" || strings.Contains(hint, "scroll") {
		t.Errorf("while the note has the keys the detail's hint reads %q\n%s", hint, s)
	}
	h.key("esc")
	h.waitScreen("no answer given")

	// Explain at 80x16: the table of the ask's two commands overflows.
	h.tm.Send(teaWindowSize(80, 16))
	h.key("e")
	h.key("enter")
	s = h.steady("» Explain", "PLACE")
	if hint := hintRow(s); !strings.HasSuffix(hint, "more lines · pgup/pgdn scroll") {
		t.Fatalf("while the line has the keys Explain's hint reads %q\n%s", hint, s)
	}
	if bar := helpRow(s); !strings.Contains(bar, "pgup/pgdn scroll") {
		t.Errorf("the bar does not say how the table scrolls: %q", bar)
	}
	h.key("j")
	h.key("pgdown")
	s = h.waitScreen("lines above · pgup scrolls back")
	if !strings.Contains(s, "$ cat steps.md && cat /vault/break-glass/failover.mdj") {
		t.Errorf("j did not type a j into the line:\n%s", s)
	}
	h.key("pgup")
	h.waitScreen("more lines · pgup/pgdn scroll")
}

// A question taller than the terminal leaves it room for its own last
// rows and the bars: A's question at 100×20 (its diff counted in wrapped
// rows) and Y's over a long line at 80×24 end in their y/N and the bar
// that says what y does. Before, the bars fell off the bottom: the
// screen kept its top rows. A diff line too long for a row hangs under
// its own indentation, so its rest does not read as a line of YAML
// further left.
func TestTallQuestionsKeepTheirBars(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, docOnDisk: true, width: 100, height: 20, agents: []string{"sre-bot:sre-bot"}})
	h.runAsking("sre-bot-1", `echo "replicas: 4" >> config/db.yaml`)
	h.steady("1 ask waiting", "Detail · ask")
	h.press("A")
	s := h.steady("Write it, apply it now and allow the ask once? y/N")
	if bar := helpRow(s); bar != " y write the rule and allow once · any other key: no" {
		t.Errorf("A's question at 100×20 ends in %q\n%s", bar, s)
	}
	rows := strings.Split(s, "\n")
	for i, r := range rows[:len(rows)-1] {
		if strings.HasPrefix(r, "+          ask:") && !strings.HasPrefix(rows[i+1], "+            ") {
			t.Errorf("the rest of a long diff line does not hang under it: %q\n%s", rows[i+1], s)
		}
	}
	h.key("n")
	h.waitScreen("left workspace.yaml and the ask as they were")

	h = start(t, harnessOptions{quiet: true, width: 80, height: 24, agents: []string{"responder:responder", "oncall:responder"}})
	long := "cat" + strings.Repeat(" /vault/break-glass/failover.md", 40)
	h.runAsking("responder-1", long)
	h.runAsking("oncall-1", long)
	h.steady("2 asks waiting", "2 identical asks waiting")
	h.press("Y")
	s = h.steady("Allow once all 2 pending asks identical to this one:", "Allow once all 2? y/N", "rows hidden here")
	if bar := helpRow(s); bar != " y allow once all 2 · any other key: no" {
		t.Errorf("Y's question over a long line ends in %q\n%s", bar, s)
	}
	if n := strings.Count(s, "\n"); n != 24 {
		t.Errorf("the screen has %d rows, not 24:\n%s", n, s)
	}
}

// tab onto an empty Explain page gives its line the keys: its
// placeholder says "type a line", and before, what was typed there was
// lost (the line waited for enter or e). shift+tab gets there too, and
// tab moves on.
func TestTabToExplainTypes(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 80, height: 24, agents: []string{"responder:responder"}})
	h.steady("no asks waiting")
	for range 4 {
		h.key("tab")
	}
	h.waitScreen("» Explain")
	h.tm.Type("ls /vault")
	h.key("enter")
	s := h.steady("$ ls /vault", "explanation of: ls /vault", "✓ run")
	if bar := helpRow(s); !strings.HasPrefix(bar, " enter explain") {
		t.Errorf("the bar on Explain after typing: %q", bar)
	}
	h.key("tab")
	h.waitScreen("» Asks")
	h.tm.Send(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	s = h.waitScreen("» Explain")
	if !strings.Contains(s, "$ ls /vault") || !strings.HasPrefix(helpRow(s), " enter/e edit line") {
		t.Errorf("back on Explain with a line, the line does not wait for e:\n%s", s)
	}
}

// An ask that arrives while a note is typed takes nothing from it: the
// keys typed before and after stay in the note, the note stays with the
// ask it was opened for (enter answers that one, not the new one, nor
// the one under the cursor), and the new ask waits in the queue.
func TestAskArrivingWhileTypingANote(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 80, height: 24, agents: []string{"responder:responder", "sre-bot:sre-bot"}})
	first := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.steady("1 ask waiting")
	h.press("N")
	h.tm.Type("use the ")
	h.waitScreen("note › use the")
	second := h.runAsking("sre-bot-1", `echo "replicas: 4" >> config/db.yaml`)
	h.waitScreen("2 asks waiting", "Deny cat /vault/break-glass/failover.md (responder, ask ask000000001)")
	h.tm.Type("runbook copy")
	h.waitScreen("note › use the runbook copy")
	h.key("enter")
	res := h.result()
	if res.ExitCode == 0 {
		t.Fatalf("the first ask's line ran: %+v", res)
	}
	got, err := h.ws.Decisions().Get(context.Background(), first.ID)
	if err != nil || got.Outcome != decisions.Deny || got.Note != "use the runbook copy" {
		t.Fatalf("the first ask: %+v %v", got, err)
	}
	if got, err := h.ws.Decisions().Get(context.Background(), second.ID); err != nil || !got.Pending() {
		t.Fatalf("the second ask: %+v %v", got, err)
	}
	h.waitScreen("1 ask waiting", "✗ deny: cat /vault/break-glass/failover.md (responder) · note stored")
}

// An answer the ledger takes its time over (a file another process holds
// locked) shows as a wait: once it has run a quarter of a second, the
// rule under the header says what the console is doing, with a spinner,
// until the answer lands. Before, nothing showed: the key looked as if it
// did nothing. An answer that lands at once shows no such word.
func TestSlowAnswerShowsAWait(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, flaky: true, agents: []string{"responder:responder"}})
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.steady("1 ask waiting", "PLACE")
	release := h.flaky.holdAnswers()
	h.press("y")
	// The key reaches the console a moment after it is sent: the clock
	// moves on while the screen is read, as a human's would.
	s := h.waitScreenWhere("the wait", func(s string) bool {
		h.clock.advance(100 * time.Millisecond)
		return strings.Contains(s, "answering cat /vault/break-glass/failover.md…")
	})
	rule := strings.Split(s, "\n")[2]
	if !strings.ContainsAny(rule, "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏") {
		t.Errorf("the wait has no spinner: %q", rule)
	}
	close(release)
	if res := h.result(); res.ExitCode != 0 {
		t.Fatalf("after y: exit %d %s", res.ExitCode, res.Stderr)
	}
	s = h.waitScreen("✓ allow once: cat /vault/break-glass/failover.md")
	if strings.Contains(s, "answering") {
		t.Errorf("the wait stayed after the answer:\n%s", s)
	}
}

// A line still running shows in its transcript with a spinner, not a
// dot that looks like the Sessions page's state mark: the wait is seen
// as one.
func TestTranscriptRunningLineSpins(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 80, height: 24, agents: []string{"sleeper:sleeper"}})
	h.run("sleeper-1", "sleep 30")
	h.steady("no asks waiting", "● 1 running")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions")
	h.key("enter")
	s := h.waitScreen("» Transcript · sleeper", "$ sleep 30", "running…")
	for _, r := range strings.Split(s, "\n") {
		if strings.HasSuffix(r, "running…") && !strings.ContainsAny(r, "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏") {
			t.Errorf("the running line has no spinner: %q", r)
		}
	}
}

// Explain's heading over a line longer than the row keeps both its ends,
// as the queue's command column does: the start of the line and where it
// goes (the end was cut off, mid-word).
func TestExplainHeadingKeepsBothEnds(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 80, height: 24, agents: []string{"auditor:auditor"}})
	h.steady("no asks waiting")
	h.tm.Send(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	h.waitScreen("» Explain")
	line := "ls /logs && grep -c ERROR /logs/app.log && cat /logs/app.log /logs/app.log /logs/the-last-one.log"
	h.tm.Type(line)
	h.key("enter")
	s := h.steady("explanation of: ls /logs", "PLACE")
	for _, r := range strings.Split(s, "\n") {
		if strings.HasPrefix(r, "  explanation of:") && !strings.HasSuffix(r, "/logs/the-last-one.log") {
			t.Errorf("the heading lost the line's end: %q", r)
		}
	}
}

// A decision whose line is too long for History's footer says so, and e
// opens it in Explain, command by command, in its session; esc goes back
// to History. Before, the rest of the line could not be read anywhere in
// History, and e opened Explain on whatever it held before.
func TestHistoryLongLineOpensInExplain(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 80, height: 24, agents: []string{"responder:responder"}})
	long := "cat /vault/break-glass/failover.md" + strings.Repeat(" && ls /runbook", 60) + " && cat /runbook/steps.md"
	h.runAsking("responder-1", long)
	h.steady("1 ask waiting")
	h.press("n")
	h.result()
	h.key("h")
	s := h.waitScreen("» History · 1 decision", "(e explains the whole line)")
	if bar := helpRow(s); !strings.Contains(bar, "e explain") {
		t.Errorf("History's bar does not offer e: %q", bar)
	}
	h.key("e")
	h.waitScreen("» Explain", "cat /runbook/steps.md", "session  responder · responder-1")
	h.key("enter")
	s = h.steady("PLACE")
	if !strings.Contains(s, "38    ✓ run            ls /runbook") {
		t.Errorf("Explain does not show the decision's line:\n%s", s)
	}
	h.key("esc")
	h.waitScreen("» History · 1 decision")
}

// A page with nothing in its list offers no key that opens, moves through
// or filters it: before, an empty Sessions page offered enter and ↑/↓,
// an empty History / and ↑/↓, and an empty queue /, none of which did
// anything.
func TestEmptyPagesOfferNoListKeys(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 80, height: 24})
	bar := helpRow(h.steady("no asks waiting"))
	if strings.Contains(bar, "/ filter") {
		t.Errorf("the empty queue offers / filter: %q", bar)
	}
	h.key("tab")
	h.key("tab")
	bar = helpRow(h.waitScreen("» Sessions · 0"))
	for _, k := range []string{"enter open", "↑/k up", "↓/j down"} {
		if strings.Contains(bar, k) {
			t.Errorf("the empty Sessions page offers %q: %q", k, bar)
		}
	}
	h.key("tab")
	bar = helpRow(h.waitScreen("» History · 0 decisions"))
	for _, k := range []string{"/ filter", "↑/k up", "↓/j down", "e explain"} {
		if strings.Contains(bar, k) {
			t.Errorf("the empty History offers %q: %q", k, bar)
		}
	}
}

// A transcript's title at 60 columns drops what matters least (the
// profile) instead of being cut mid-way: it still says whether it
// follows the session.
func TestTranscriptTitleFitsNarrow(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 60, height: 20, agents: []string{"capacity-bot:responder"}})
	h.runDone("capacity-bot-1", "cat /runbook/README.md")
	h.steady("no asks waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions")
	h.key("enter")
	s := h.waitScreen("» Transcript")
	title := strings.Split(s, "\n")[3]
	if !strings.HasSuffix(title, "· following") || strings.Contains(title, "…") {
		t.Errorf("the transcript's title at 60 columns: %q", title)
	}
}

// With one session, Explain does not offer ↑/↓ to choose among sessions
// (they changed nothing); with two it does.
func TestExplainOffersSessionKeysOnlyWithAChoice(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 80, height: 24, agents: []string{"auditor:auditor"}})
	h.steady("no asks waiting")
	h.key("e")
	s := h.waitScreen("» Explain", "session  auditor · auditor-1")
	if strings.Contains(s, "↑/↓") {
		t.Errorf("with one session Explain offers ↑/↓:\n%s", s)
	}
	if _, err := h.ws.CreateSession("scribe", core.Profile("auditor"), core.SessionID("scribe-1")); err != nil {
		t.Fatal(err)
	}
	s = h.waitScreen("2 sessions here", "↑/↓ session", "(↑/↓ to change)")
	if !strings.Contains(s, "↑/↓ choose the session") {
		t.Errorf("with two sessions Explain's words do not say ↑/↓ choose:\n%s", s)
	}
	h.tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	h.waitScreen("session  scribe · scribe-1")
}

// How a line's ask was answered, with a long note, hangs under its own
// words in the transcript (past its ✗ or ✓), as the exit row under it
// does: before, its rest started where the row did and read as rows of
// their own.
func TestTranscriptAnswerRowsHang(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 80, height: 30, agents: []string{"responder:responder"}})
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.steady("1 ask waiting")
	h.press("N")
	h.tm.Type("not now: the security lead has not signed off, so read the runbook's copy and wait for the page")
	h.key("enter")
	h.result()
	h.waitScreen("no asks waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions")
	h.key("enter")
	s := h.steady("» Transcript · responder", "✗ deny by console")
	rows := strings.Split(s, "\n")
	for i, r := range rows {
		if !strings.HasPrefix(r, "  ✗ deny by console") {
			continue
		}
		for _, next := range rows[i+1:] {
			if strings.HasPrefix(next, "  ! ") || strings.HasPrefix(next, "  ✗ exit") {
				break
			}
			if !strings.HasPrefix(next, "    ") {
				t.Errorf("the answer's row goes on at %q\n%s", next, s)
			}
		}
		return
	}
	t.Fatalf("no answer row:\n%s", s)
}

// While an answer given here is on its way to the ledger, the answering
// keys do nothing on that ask and say why: before, a second key on it
// (after moving back to it) was written too and came back as "already
// answered elsewhere" once the first landed.
func TestAnswerInFlightIsNotAnsweredTwice(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, flaky: true, agents: []string{"responder:responder", "sre-bot:sre-bot"}})
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.runAsking("sre-bot-1", `echo "replicas: 4" >> config/db.yaml`)
	h.steady("2 asks waiting", "PLACE")
	release := h.flaky.holdAnswers()
	selected := func(agent string) func(string) bool {
		return func(s string) bool {
			for _, r := range strings.Split(s, "\n") {
				if strings.HasPrefix(r, "▸ ") {
					return strings.Contains(r, " "+agent+" ")
				}
			}
			return false
		}
	}
	h.press("y")
	h.waitScreenWhere("the sre-bot's ask selected", selected("sre-bot"))
	h.key("k")
	h.waitScreenWhere("the responder's ask selected again", selected("responder"))
	h.press("n")
	h.waitScreen("cat /vault/break-glass/failover.md: its answer is on its way to the ledger; n did nothing")
	close(release)
	if res := h.result(); res.ExitCode != 0 {
		t.Fatalf("the first answer was not the one written: exit %d %s", res.ExitCode, res.Stderr)
	}
	s := h.waitScreen("1 ask waiting")
	if strings.Contains(s, "elsewhere") {
		t.Errorf("a second answer was written:\n%s", s)
	}
}
