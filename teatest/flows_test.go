package consoletest

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"gatehouse/core/decisions"
	"gatehouse/store/sqlite"
)

func oneAgent(t *testing.T, quiet bool) *harness {
	return start(t, harnessOptions{quiet: quiet, agents: []string{"responder:responder", "sre-bot:sre-bot"}})
}

// An ask arrives, y allows it once, and the agent's line completes with
// the output it was waiting for (G-13.2).
func TestFlowAllowOnceReleasesTheLine(t *testing.T) {
	h := oneAgent(t, true)
	rec := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.waitScreen("1 ask waiting", "break-glass needs a second pair of eyes")
	h.press("y")
	res := h.result()
	if res.ExitCode != 0 || res.Stdout != "call the security lead first\n" {
		t.Fatalf("line after y: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	got, err := h.ws.Decisions().Get(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != decisions.Allow || got.Scope != decisions.Once || got.AnsweredBy != "console" {
		t.Fatalf("ledger says %s %s by %s", got.Outcome, got.Scope, got.AnsweredBy)
	}
	h.waitScreen("no asks waiting", "✓ allow once: cat /vault/break-glass/failover.md")
}

// a allows for the session: the same command again runs without asking.
func TestFlowAllowSessionCoversTheRetry(t *testing.T) {
	h := oneAgent(t, true)
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.waitScreen("1 ask waiting")
	h.press("a")
	h.waitScreen("Allow for the rest of session responder-1 (agent responder), without asking again:",
		"any command reaching a path under /vault/break-glass/* · rule teatest/workspace.yaml:24:11:", "Allow these for the session? y/N")
	h.press("y")
	if res := h.result(); res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
	}
	if res := h.runDone("responder-1", "cat /vault/break-glass/failover.md"); res.ExitCode != 0 {
		t.Fatalf("the retry asked again or failed: exit %d %s", res.ExitCode, res.Stderr)
	}
	h.waitScreen("no asks waiting", "✓ allow session")
}

// N opens a note; enter denies with it; the agent reads the refusal and
// the ledger keeps the note.
func TestFlowDenyWithNote(t *testing.T) {
	h := oneAgent(t, true)
	rec := h.runAsking("sre-bot-1", `echo "replicas: 4" >> config/db.yaml`)
	h.waitScreen("1 ask waiting")
	h.press("N")
	h.waitScreen("Deny echo replicas: 4 (sre-bot, ask ask000000001), with a note the agent reads:")
	h.tm.Type("wait for the change window, q is fine here")
	h.key("enter")
	res := h.result()
	if res.ExitCode != 126 || res.Refusal == nil || res.Refusal.Kind != "deny" ||
		!strings.Contains(res.Stderr, "echo: Permission denied") {
		t.Fatalf("agent read: exit %d stderr %q refusal %+v", res.ExitCode, res.Stderr, res.Refusal)
	}
	got, err := h.ws.Decisions().Get(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != decisions.Deny || got.Note != "wait for the change window, q is fine here" {
		t.Fatalf("ledger: outcome %q note %q", got.Outcome, got.Note)
	}
	// q typed into the note did not quit: the console still answers.
	h.waitScreen("no asks waiting")
}

// An answer written by another process (a second handle on the same
// ledger file) releases the line and moves the ask to history.
func TestFlowAnswerFromAnotherProcess(t *testing.T) {
	h := oneAgent(t, true)
	rec := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.waitScreen("1 ask waiting")
	db, err := sqlite.Open(h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := decisions.New(db).Answer(context.Background(), rec.ID, decisions.Answer{Outcome: decisions.Allow, By: "cli"}); err != nil {
		t.Fatal(err)
	}
	if res := h.result(); res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
	}
	h.waitScreen("no asks waiting", "answered by cli")
	h.key("h")
	h.waitScreen("✓ allow once  cli", "cat /vault/break-glass/failover.md")
}

// Answering moves the selection to the next pending ask.
func TestFlowAnsweringWalksDownTheQueue(t *testing.T) {
	h := oneAgent(t, true)
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.runAsking("sre-bot-1", `echo "replicas: 4" >> config/db.yaml`)
	h.waitScreen("2 asks waiting", "Detail · ask ask000000001")
	h.press("n")
	h.result()
	h.waitScreen("1 ask waiting", "Detail · ask ask000000002", "▸ 42s  sre-bot")
}

// A line that stops waiting (its context ends) takes its ask out of the
// queue with the word saying why.
func TestFlowCancelledAskLeavesTheQueue(t *testing.T) {
	h := oneAgent(t, true)
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.waitScreen("1 ask waiting")
	h.cancel()
	h.result()
	h.waitScreen("no asks waiting", "left the queue: cancelled")
	h.key("h")
	h.waitScreen("⊘ cancelled")
}

// Y on a session asks first; anything but y leaves the asks alone, y
// allows every pending ask of that session once.
func TestFlowAllowAllOfASession(t *testing.T) {
	h := oneAgent(t, true)
	// Two asks of one session, as a host without an inline handler leaves
	// them (one session's lines wait one at a time in the console).
	ledger := h.ws.Decisions()
	for i, line := range []string{"head -n 1 /logs/app.log", "head -n 2 /logs/app.log"} {
		_, err := ledger.Raise(context.Background(), decisions.Record{SessionID: "sre-bot-1", AgentID: "sre-bot",
			Command: line, Argv: strings.Fields(line), Line: line, Place: "0", Cwd: "/deploy",
			Reason: "reading logs by hand is a human's call",
			Rules:  []decisions.AskRule{{Reason: "reading logs by hand is a human's call", Key: "key" + string(rune('a'+i))}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	h.waitScreen("2 asks waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions")
	h.key("j") // sre-bot
	h.waitScreen("Y allow all once")
	h.key("Y")
	h.waitScreen("Allow all 2 pending asks of sre-bot (sre-bot-1) once?", "head -n 1 /logs/app.log · in /deploy", "y/N")
	h.key("x")
	h.waitScreen("left sre-bot's asks as they were", "2 asks waiting")
	h.key("Y")
	h.waitScreen("y/N")
	h.press("y")
	h.waitScreen("no asks waiting", "allow once: 2 asks")
	all, _ := ledger.List(context.Background(), "sre-bot-1")
	for _, r := range all {
		if r.Outcome != decisions.Allow || r.Scope != decisions.Once {
			t.Fatalf("%s: %s %s", r.Command, r.Outcome, r.Scope)
		}
	}
}

// q quits, except while typing: in the history filter it is a letter.
func TestFlowQuitOnlyWhenNotTyping(t *testing.T) {
	h := oneAgent(t, true)
	h.key("/")
	h.key("q")
	h.waitScreen(`/ q`)
	h.key("esc")
	h.key("e")
	h.key("q")
	h.waitScreen("$ q")
	h.key("esc")
	h.key("q")
	h.tm.WaitFinished(t, teatest.WithFinalTimeout(patience))
}

// Answer keys are off, and out of the help bar, when nothing is selected.
func TestFlowAnswerKeysNeedASelection(t *testing.T) {
	h := oneAgent(t, true)
	s := h.waitScreen("no asks waiting")
	if strings.Contains(s, "allow once") {
		t.Fatalf("help bar offers y with nothing selected:\n%s", s)
	}
	h.key("y") // nothing to answer: nothing happens
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.waitScreen("1 ask waiting", "answer keys wait 0.4s")
	h.settle()
	h.waitScreen("1 ask waiting", "y allow once")
}

// A new ask rings the bell once; --quiet keeps it silent.
func TestFlowBell(t *testing.T) {
	h := oneAgent(t, false)
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.waitScreen("1 ask waiting")
	teatest.WaitFor(t, h.tm.Output(), func(b []byte) bool { return rings(b) }, teatest.WithDuration(patience))

	q := oneAgent(t, true)
	q.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	q.waitScreen("1 ask waiting")
	time.Sleep(100 * time.Millisecond)
	out := make([]byte, 1<<20)
	n, _ := q.tm.Output().Read(out)
	if rings(out[:n]) {
		t.Fatal("the bell rang although quiet")
	}
}

// rings finds a bell in terminal output, leaving out the BEL that ends an
// OSC sequence (the window title).
func rings(out []byte) bool {
	return bytes.Contains(oscSequence.ReplaceAll(out, nil), []byte("\a"))
}

var oscSequence = regexp.MustCompile(`\x1b\][^\x07\x1b]*(\x07|\x1b\\)`)

// The header counts new asks while another page has focus (G-13.5).
func TestFlowHeaderCountsWhileElsewhere(t *testing.T) {
	h := oneAgent(t, true)
	h.key("h")
	h.waitScreen("» History")
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.waitScreen("» History", "◆ 1 ask waiting")
}

// Resizing re-lays the screen: wide terminals put the detail beside the
// queue, narrow ones under it, and no row is wider than the terminal.
func TestFlowResize(t *testing.T) {
	h := oneAgent(t, true)
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	for _, size := range [][2]int{{160, 48}, {80, 24}, {60, 15}, {200, 60}} {
		h.tm.Send(teaWindowSize(size[0], size[1]))
		s := h.waitScreen("1 ask waiting")
		lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		if len(lines) > size[1] {
			t.Errorf("%dx%d: %d rows", size[0], size[1], len(lines))
		}
		for _, l := range lines {
			if w := displayWidth(l); w > size[0] {
				t.Errorf("%dx%d: row of %d cells: %q", size[0], size[1], w, l)
			}
		}
		if size[0] >= 200 && !strings.Contains(s, "│ status") {
			t.Errorf("%dx%d: detail not beside the queue:\n%s", size[0], size[1], s)
		}
	}
}

// The human answers what they see (G-13.2): when the ask under the cursor
// changes by itself (the answer walked the selection on, a new ask was
// selected, another host answered the selected one), the answering keys
// wait, and say so, until the console's clock has moved armDelay on; the
// human's own j/k does not make them wait; a question's y waits after the
// question opened. The clock moves only by settle: no sleep decides.
func TestFlowKeysWaitAfterTheAskChangedByItself(t *testing.T) {
	h := oneAgent(t, true)
	first := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	// A new ask under an empty cursor: y waits.
	h.waitScreen("1 ask waiting", "answer keys wait 0.4s")
	h.key("y")
	h.waitScreen("y waited: the ask changed to cat /vault/break-glass/failover.md; read it, press y again")
	h.expectPending(first.ID)

	// A second ask joins the queue below: the selection stays, y acts.
	h.settle()
	second := h.runAsking("sre-bot-1", `echo "replicas: 4" >> config/db.yaml`)
	h.waitScreen("2 asks waiting", "y allow once")
	h.key("y")
	h.result()
	// The answer walked the selection to the next ask: y waits again.
	h.waitScreen("1 ask waiting", "Detail · ask ask000000002", "answer keys wait 0.4s")
	h.key("n")
	h.waitScreen("n waited: the ask changed to echo replicas: 4; read it, press n again")
	h.expectPending(second.ID)
	h.settle()
	h.waitScreen("n deny")

	// Another host answers the selected ask; the one below slides up.
	third := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.waitScreen("2 asks waiting", "y allow once")
	// The human's own moves make nothing wait.
	h.key("j")
	if s := h.waitScreen("Detail · ask ask000000003"); !strings.Contains(s, "y allow once") {
		t.Fatalf("y waits after the human moved:\n%s", s)
	}
	h.key("k")
	if s := h.waitScreen("Detail · ask ask000000002"); !strings.Contains(s, "y allow once") {
		t.Fatalf("y waits after the human moved:\n%s", s)
	}
	answerElsewhere(t, h.dbPath, second.ID)
	h.result()
	h.waitScreen("1 ask waiting", "answered by cli", "answer keys wait 0.4s")
	h.key("a")
	h.waitScreen("a waited: the ask changed to")
	h.expectPending(third.ID)

	// A question ignores y while it has just opened, and says so.
	h.settle()
	h.key("a")
	h.waitScreen("Allow these for the session? y/N", "y waits 0.4s (the question just opened)")
	h.key("y")
	h.waitScreen("y waits 0.4s: the question has just opened", "Allow these for the session? y/N")
	h.expectPending(third.ID)
	h.settle()
	h.key("y")
	if res := h.result(); res.ExitCode != 0 {
		t.Fatalf("after the question: exit %d %s", res.ExitCode, res.Stderr)
	}
	h.waitScreen("no asks waiting", "✓ allow session")
}

// expectPending fails unless the ask is still unanswered.
func (h *harness) expectPending(id string) {
	h.t.Helper()
	r, err := h.ws.Decisions().Get(context.Background(), id)
	if err != nil || !r.Pending() {
		h.t.Fatalf("ask %s: %+v %v; want it unanswered", id, r, err)
	}
}

// answerElsewhere allows an ask through a second handle on the ledger
// file, as `gatehouse allow` in another process would.
func answerElsewhere(t *testing.T, dbPath, id string) {
	t.Helper()
	db, err := sqlite.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := decisions.New(db).Answer(context.Background(), id, decisions.Answer{Outcome: decisions.Allow, By: "cli"}); err != nil {
		t.Fatal(err)
	}
}

// Resizing from 160×48 to 80×24 and back draws the wide screen again as
// it was, and every size in between fits the terminal.
func TestFlowResizeAndBack(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{width: 160, height: 48})
	before := h.steady("2 asks waiting", "PLACE")
	h.tm.Send(teaWindowSize(80, 24))
	narrow := h.waitScreen("2 asks waiting", "↓")
	for _, l := range strings.Split(strings.TrimSuffix(narrow, "\n"), "\n") {
		if displayWidth(l) > 80 {
			t.Errorf("80×24: a row of %d cells: %q", displayWidth(l), l)
		}
	}
	h.tm.Send(teaWindowSize(160, 48))
	if after := h.waitScreen("2 asks waiting", "PLACE"); after != before {
		t.Errorf("160×48 after a resize differs from before it:\n%s\nbefore:\n%s", after, before)
	}
}

// A note longer than the line is typed, shown scrolled, and stored whole.
func TestFlowLongNoteIsStoredWhole(t *testing.T) {
	h := oneAgent(t, true)
	h.tm.Send(teaWindowSize(80, 24))
	rec := h.runAsking("sre-bot-1", `echo "replicas: 4" >> config/db.yaml`)
	h.waitScreen("1 ask waiting")
	h.press("N")
	h.waitScreen("with a note the agent reads")
	h.tm.Type(longNote)
	h.waitScreen("and the ticket number")
	h.key("enter")
	res := h.result()
	if res.ExitCode != 126 {
		t.Fatalf("exit %d", res.ExitCode)
	}
	got, err := h.ws.Decisions().Get(context.Background(), rec.ID)
	if err != nil || got.Note != longNote {
		t.Fatalf("the ledger keeps %q (%v), want the whole note", got.Note, err)
	}
}

// A question whose ask leaves the queue meanwhile (answered by another
// host, or its line gone) closes and says why; a y pressed after it
// answers nothing (G-13.6).
func TestFlowQuestionClosesWhenItsAskLeaves(t *testing.T) {
	h := oneAgent(t, true)
	rec := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.steady("1 ask waiting", "Detail · ask")
	h.press("a")
	h.waitScreen("Allow these for the session? y/N")
	answerElsewhere(t, h.dbPath, rec.ID)
	h.result()
	s := h.waitScreen("question closed: cat /vault/break-glass/failover.md was answered elsewhere", "no asks waiting")
	if strings.Contains(s, "y/N") {
		t.Fatalf("the question stayed open:\n%s", s)
	}
	h.press("y")
	got, err := h.ws.Decisions().Get(context.Background(), rec.ID)
	if err != nil || got.AnsweredBy != "cli" || got.Scope != decisions.Once {
		t.Fatalf("the ask after y: %+v %v", got, err)
	}
}

// The deny note's ask answered elsewhere while the note is typed: the
// input stays (the next keys are still text, not answers), says so, and
// enter sends nothing.
func TestFlowNoteWhoseAskLeft(t *testing.T) {
	h := oneAgent(t, true)
	rec := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.steady("1 ask waiting", "Detail · ask")
	h.press("N")
	h.tm.Type("not now")
	h.waitScreen("note › not now")
	answerElsewhere(t, h.dbPath, rec.ID)
	h.result()
	h.waitScreen("This ask was answered by cli: enter sends nothing now, esc closes.", "esc close · the ask has left the queue")
	h.tm.Type(", later")
	h.waitScreen("note › not now, later")
	h.key("enter")
	h.waitScreen("no answer given: cat /vault/break-glass/failover.md was answered by cli before the note was sent")
	got, err := h.ws.Decisions().Get(context.Background(), rec.ID)
	if err != nil || got.AnsweredBy != "cli" || got.Note != "" {
		t.Fatalf("the ask after the note: %+v %v", got, err)
	}
}
