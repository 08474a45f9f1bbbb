package consoletest

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Golden screens of the console's states (G-13.4): plain text, which also
// shows that no state is told by colour alone (G-13.3). Run
// `go test ./teatest -update` to rewrite them, and read every changed
// file before committing it.

func golden(t *testing.T, screen string) {
	t.Helper()
	teatest.RequireEqualOutput(t, []byte(screen))
}

// sizes are the terminals every state is pinned at: the smallest the
// console promises (G-13.3), the common one, and a wide one where the
// queue and the detail sit side by side.
var sizes = [][2]int{{80, 24}, {100, 30}, {160, 48}}

// sweep pins the screen at every size, resizing one console from size to
// size: what a resize draws is what a start at that size draws (the
// resize test checks that).
func sweep(t *testing.T, h *harness, want ...string) {
	t.Helper()
	for _, size := range sizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h.tm.Send(teaWindowSize(size[0], size[1]))
			golden(t, h.steady(want...))
		})
	}
}

func TestEmptyConsole(t *testing.T) {
	h := start(t, harnessOptions{quiet: true})
	golden(t, h.steady("no asks waiting", "No asks waiting"))
}

// crowdOfTwo starts three agents: the auditor works without asking, the
// responder and the sre-bot each wait on an ask, raised in a known order.
func crowdOfTwo(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	o.quiet = true
	o.agents = []string{"responder:responder", "sre-bot:sre-bot", "auditor:auditor"}
	h := start(t, o)
	h.runDone("auditor-1", "grep -c ERROR app.log")
	h.runDone("responder-1", "cat README.md")
	h.runAsking("responder-1", "cat steps.md && cat /vault/break-glass/failover.md")
	h.runAsking("sre-bot-1", `cd config && echo "replicas: 4" >> db.yaml`)
	// The queue hears of an ask (a ledger event) a moment before its
	// session says it waits (a workspace event): goldens show both.
	h.waitScreen("2 asks waiting", "3 sessions here · ● 0 running")
	return h
}

// The queue with the first ask's detail under (or beside) it.
func TestQueue(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	sweep(t, h, "2 asks waiting", "The whole line", "PLACE")
}

// An ask opened: the detail has the keys and scrolls.
func TestAsk(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting", "PLACE")
	h.key("j")
	h.key("enter")
	sweep(t, h, "» Detail", "replicas: 4", "mount:/deploy", "PLACE")
}

func TestExplain(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting", "PLACE")
	h.key("e")
	h.waitScreen("» Explain", "cat steps.md && cat /vault/break-glass/failover.md")
	h.key("enter")
	sweep(t, h, "explanation of: cat steps.md", "? ask", "✓ run")
}

func TestHistory(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.steady("2 asks waiting", "PLACE")
	h.press("y")
	h.result()
	h.waitScreen("1 ask waiting")
	h.press("N")
	h.tm.Type("not during the freeze")
	h.key("enter")
	h.result()
	h.waitScreen("no asks waiting")
	h.key("h")
	sweep(t, h, "» History · 2 decisions", "✓ allow once", "✗ deny", "note: ")
}

func TestHelp(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting")
	h.key("?")
	sweep(t, h, "» Keys", "allow once", "deny+note")
}

// longNote is longer than any terminal is wide: the input shows its tail
// with the cursor, and the ledger stores it whole.
const longNote = "not during the freeze: the change window opens at 14:00 UTC, ask again then and attach the rollback plan you tested on staging, together with the on-call engineer's sign-off and the ticket number"

// The deny note's input with a note longer than the line: the text
// scrolls so the cursor and the last words typed stay in view.
func TestNoteInput(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.steady("2 asks waiting", "PLACE")
	h.press("N")
	h.waitScreen("with a note the agent reads")
	h.tm.Type(longNote)
	sweep(t, h, "ticket number", "enter deny with this note")
}

func TestSessionTranscript(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions", "◆ waiting")
	h.key("j") // responder
	h.key("enter")
	golden(t, h.steady("» Transcript · responder", "Checkout incident runbook.", "waiting for an answer"))
}

func TestSessions(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting")
	h.key("tab")
	h.key("tab")
	h.key("j")
	golden(t, h.steady("» Sessions · 3 · 0 running · 2 waiting · 1 idle", "Y allow all once"))
}

// TrueColor screens on a dark and on a light terminal (G-13.3): the
// palette follows the background the terminal reports. These goldens
// keep the escape sequences; the ASCII ones above keep the text.
func TestColours(t *testing.T) {
	for _, bg := range []struct {
		name  string
		color color.Color
	}{
		{"dark", color.RGBA{R: 0x1e, G: 0x1e, B: 0x2e, A: 0xff}},
		{"light", color.RGBA{R: 0xfa, G: 0xfa, B: 0xf5, A: 0xff}},
	} {
		t.Run(bg.name, func(t *testing.T) {
			h := crowdOfTwo(t, harnessOptions{})
			h.tm.Send(tea.BackgroundColorMsg{Color: bg.color})
			h.steady("2 asks waiting", "PLACE")
			golden(t, h.rawScreen())
		})
	}
}

// The queue's filter: typing narrows the asks to those matching, by
// command, session, agent or path.
func TestQueueFilter(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting", "PLACE")
	h.key("/")
	h.tm.Type("path:/deploy")
	h.key("enter")
	s := h.steady("Asks · 1 of 2 waiting match", "/ path:/deploy", "PLACE")
	if strings.Contains(s, "cat /vault") || !strings.Contains(s, "Detail · ask ask000000002") {
		t.Errorf("the filter let the wrong asks through:\n%s", s)
	}
	golden(t, s)
}

// a's question names the session and, for the rule the ask names, what the
// session grant will cover from then on, before anything is written.
func TestAllowSessionQuestion(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.steady("2 asks waiting", "PLACE")
	h.press("a")
	sweep(t, h, "Allow for the rest of session responder-1", "Allow these for the session? y/N")
}

// Right after the ask under the cursor changed by itself (here: the
// answer walked the selection on), the answering keys wait and the help
// bar says for how long; a key pressed meanwhile names the ask now there.
func TestKeysWait(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{width: 80, height: 24})
	h.steady("2 asks waiting", "PLACE")
	h.press("y")
	h.result()
	h.waitScreen("1 ask waiting", "answer keys wait 0.4s")
	h.key("n")
	golden(t, h.waitScreen("n waited: the ask changed to echo replicas: 4; read it, press n again", "PLACE"))
	if p := h.pending(); len(p) != 1 {
		t.Fatalf("n answered while it waited: %d asks pending, want 1", len(p))
	}
}

// q with asks waiting asks first and says what becomes of them.
func TestQuitQuestion(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{width: 80, height: 24})
	h.steady("2 asks waiting", "PLACE")
	h.key("q")
	golden(t, h.steady("Quit? y/N"))
	h.key("n")
	h.waitScreen("2 asks waiting")
}

// Identical asks from two sessions: the detail counts them and Y asks
// before allowing them all once, naming the sessions.
func TestBatchQuestion(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, agents: []string{"responder:responder", "oncall:responder"}})
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.runAsking("oncall-1", "cat /vault/break-glass/failover.md")
	h.steady("2 asks waiting", "2 identical asks waiting", "PLACE")
	h.press("Y")
	golden(t, h.steady("Allow once all 2 pending asks identical to this one:", "y/N"))
	h.key("y")
	h.result()
	h.result()
	h.waitScreen("no asks waiting")
}

// A session's transcript after its ask was answered: the line shows the
// answer it got, by whom, and how the line then ended.
func TestSessionTranscriptAfterAnAnswer(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.steady("2 asks waiting", "PLACE")
	h.press("y")
	h.result()
	h.waitScreen("1 ask waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions")
	h.key("j") // responder
	h.key("enter")
	golden(t, h.steady("» Transcript · responder", "✓ allow once by console (ask ask000000001)", "call the security lead first"))
}

// History's filter (G-13.1): typing narrows the decisions, and a filter
// that matches none says so and how to clear it, instead of claiming
// there are no decisions at all.
func TestHistoryFilter(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{width: 80, height: 24})
	h.steady("2 asks waiting", "PLACE")
	h.press("y")
	h.result()
	h.waitScreen("1 ask waiting")
	h.press("n")
	h.result()
	h.waitScreen("no asks waiting")
	h.key("h")
	h.key("/")
	h.tm.Type("outcome:deny")
	h.key("enter")
	golden(t, h.steady("History · 1 of 2 match \"outcome:deny\"", "✗ deny"))
	h.key("/")
	h.tm.Type(" nothing-like-it")
	s := h.waitScreen("0 of 2 match", "No decision matches; esc clears the filter.")
	if strings.Contains(s, "No decisions yet") {
		t.Errorf("a filter matching nothing says there are no decisions:\n%s", s)
	}
	h.key("esc")
	h.waitScreen("History · 2 decisions")
}

// At 60 columns the key-wait notice still says that the key waited and
// names the ask now selected, in a wording that fits, not cut off.
func TestKeysWaitNarrow(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{width: 60, height: 20})
	h.steady("2 asks waiting", "Detail · ask")
	h.press("y")
	h.result()
	h.waitScreen("1 ask waiting", "answer keys wait 0.4s · j/k move")
	h.key("n")
	// The detail's table sits below the fold here: its scroll hint says
	// when the explanation has arrived.
	s := h.waitScreen("n waited: the ask is now echo replicas: 4", "↓ 11 more lines")
	checkChrome(t, 60, s)
	golden(t, s)
}

// checkChrome holds a screen's bars to the terminal: no row wider than w,
// and the message rule, the status bar and the help bar say what they say
// whole (a bar that does not fit takes a shorter wording; nothing is cut
// off with an ellipsis or wrapped into the next row).
func checkChrome(t *testing.T, w int, screen string) {
	t.Helper()
	rows := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
	for i, r := range rows {
		if displayWidth(r) > w {
			t.Errorf("%d columns: row %d takes %d cells: %q", w, i, displayWidth(r), r)
		}
	}
	if len(rows) < 5 {
		t.Fatalf("%d columns: a screen of %d rows:\n%s", w, len(rows), screen)
	}
	// A command the message names may be cut in the middle; the message
	// itself is not cut at its end.
	if strings.HasSuffix(strings.TrimRight(rows[2], "─ "), "…") {
		t.Errorf("%d columns: the message is cut: %q\n%s", w, rows[2], screen)
	}
	for _, r := range rows[len(rows)-2:] {
		if strings.Contains(r, "…") {
			t.Errorf("%d columns: a bar is cut: %q\n%s", w, r, screen)
		}
	}
}

// Every page's bars at 60 and 80 columns: the queue, an ask's wait, the
// questions of a and q, the note, help, sessions, a transcript, history,
// explain and the filter.
func TestNarrowBarsFit(t *testing.T) {
	for _, size := range [][2]int{{60, 20}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			w := size[0]
			h := crowdOfTwo(t, harnessOptions{width: w, height: size[1]})
			checkChrome(t, w, h.steady("2 asks waiting", "Detail · ask"))
			h.press("y")
			h.result()
			checkChrome(t, w, h.waitScreen("1 ask waiting", "answer keys wait"))
			h.key("a")
			checkChrome(t, w, h.waitScreen("waited"))
			h.settle()
			h.key("a")
			checkChrome(t, w, h.waitScreen("Allow these for the session? y/N", "y waits"))
			h.key("x")
			checkChrome(t, w, h.waitScreen("unanswered"))
			h.press("N")
			h.tm.Type(longNote)
			checkChrome(t, w, h.waitScreen("enter deny with this note"))
			h.key("esc")
			checkChrome(t, w, h.waitScreen("no answer given to"))
			h.key("q")
			checkChrome(t, w, h.waitScreen("Quit? y/N"))
			h.key("n")
			h.key("?")
			checkChrome(t, w, h.waitScreen("» Keys"))
			h.key("esc")
			h.key("/")
			h.tm.Type("replicas")
			checkChrome(t, w, h.waitScreen("/ replicas", "keep filter"))
			h.key("esc")
			h.key("e")
			checkChrome(t, w, h.waitScreen("» Explain", "echo"))
			h.key("enter")
			checkChrome(t, w, h.steady("explanation of:"))
			h.key("esc")
			h.key("h")
			checkChrome(t, w, h.steady("» History · 1 decision"))
			h.key("tab")
			checkChrome(t, w, h.steady("» Explain"))
			h.key("esc")
			h.key("tab")
			h.key("tab")
			checkChrome(t, w, h.waitScreen("» Sessions"))
			h.key("j")
			h.key("enter")
			checkChrome(t, w, h.steady("» Transcript"))
		})
	}
}

// The pages at 60 columns (G-13.3): the Sessions table sizes its columns
// to what it shows and leaves the directory out rather than cutting every
// row; History sizes its columns too, and wraps the selected decision's
// line under the list; Explain names the session in a shorter form and wraps its hint; an
// empty queue wraps its word. No row ends cut off.
func TestNarrowPages(t *testing.T) {
	noCut := func(t *testing.T, s string) {
		t.Helper()
		checkChrome(t, 60, s)
		for _, r := range strings.Split(s, "\n") {
			if strings.HasSuffix(r, "…") {
				t.Errorf("a row is cut: %q\n%s", r, s)
			}
		}
	}
	t.Run("empty", func(t *testing.T) {
		h := start(t, harnessOptions{width: 60, height: 20, quiet: true})
		s := h.steady("no asks waiting", "New ones appear here")
		noCut(t, s)
		golden(t, s)
	})
	h := crowdOfTwo(t, harnessOptions{width: 60, height: 20})
	h.waitScreen("2 asks waiting")
	t.Run("history", func(t *testing.T) {
		// The selected decision's line wraps under the list, whole.
		h.steady("2 asks waiting", "Detail · ask")
		h.press("y")
		h.result()
		h.waitScreen("1 ask waiting")
		h.key("h")
		s := h.steady("» History · 1 decision", "reason: break-glass")
		noCut(t, s)
		golden(t, s)
		h.key("esc")
	})
	t.Run("sessions", func(t *testing.T) {
		h.key("tab")
		h.key("tab")
		s := h.steady("» Sessions", "PENDING", "◆ waiting", "1 ask")
		noCut(t, s)
		golden(t, s)
	})
	t.Run("explain", func(t *testing.T) {
		h.key("e")
		s := h.steady("» Explain", "session  ", "judged for.")
		noCut(t, s)
		golden(t, s)
	})
}
