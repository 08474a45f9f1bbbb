package consoletest

import (
	"os"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Screen tests for the console clauses the goldens do not reach on their
// own (G-13.1, G-13.2, G-13.3): A's question end to end, D's question,
// esc one level back, Explain on a typed line for a chosen session, a
// transcript following live output, and an agent's text drawn inert on
// every page a real line reaches.

// A (allow once and add a rule) asks first, showing the document's diff
// and exactly what the new exception covers; y writes the document,
// allows the ask once and releases the line.
func TestAmendQuestion(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, docOnDisk: true, agents: []string{"sre-bot:sre-bot"}})
	h.runAsking("sre-bot-1", `echo "replicas: 4" >> config/db.yaml`)
	h.steady("1 ask waiting", "Detail · ask")
	h.press("A")
	s := h.waitScreen("Allow echo replicas: 4 once and add this rule to", "+", "except:",
		"then never asks about exactly:", `"echo replicas: 4" word for word`, "Write it, apply it now and allow the ask once? y/N")
	checkChrome(t, 100, s)
	// At 80×24 the diff's long lines wrap under their own sign, and no
	// rule is drawn above a detail that has no row left.
	h.tm.Send(teaWindowSize(80, 24))
	s = h.waitScreenWhere("A's question at 80 columns", func(s string) bool {
		return strings.Contains(s, "Write it, apply it now and allow the ask once? y/N") && strings.Count(s, "+++") == 1 &&
			!strings.Contains(s, "─────\n─────")
	})
	rows := strings.Split(s, "\n")
	inDiff := false
	for _, r := range rows {
		switch {
		case strings.HasPrefix(r, "+++"):
			inDiff = true
		case strings.HasPrefix(r, "the rule "):
			inDiff = false
		case inDiff && r != "" && !strings.ContainsAny(r[:1], "+- @"):
			t.Errorf("a diff row without its sign: %q\n%s", r, s)
		}
	}
	h.tm.Send(teaWindowSize(100, 30))
	h.press("y")
	if res := h.result(); res.ExitCode != 0 {
		t.Fatalf("after A: exit %d %s", res.ExitCode, res.Stderr)
	}
	h.waitScreen("no asks waiting", "rule added to workspace.yaml; allowed once: echo replicas: 4 (sre-bot)")
	doc, err := os.ReadFile(h.docPath)
	if err != nil || !strings.Contains(string(doc), "except:") {
		t.Fatalf("the document after A (%v):\n%s", err, doc)
	}
}

// D denies every pending ask identical to the selected one, after a
// question that counts them and names their sessions.
func TestDenySameQuestion(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, agents: []string{"responder:responder", "oncall:responder"}})
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.runAsking("oncall-1", "cat /vault/break-glass/failover.md")
	h.steady("2 asks waiting", "2 identical asks waiting", "PLACE")
	h.press("D")
	golden(t, h.steady("Deny all 2 pending asks identical to this one:", "sessions responder-1, oncall-1", "Deny all 2? y/N"))
	h.press("y")
	for range 2 {
		if res := h.result(); res.ExitCode != 126 {
			t.Fatalf("a line after D: exit %d %s", res.ExitCode, res.Stderr)
		}
	}
	h.waitScreen("no asks waiting", "deny: 2 asks")
}

// esc goes one level back: from a filter to the whole list, from a
// transcript to the sessions, from Explain to where it was opened, from
// History to the queue (G-13.2).
func TestEscOneLevelBack(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting", "PLACE")
	h.key("/")
	h.tm.Type("replicas")
	h.key("enter")
	h.waitScreen("Asks · 1 of 2 waiting match")
	h.key("esc")
	h.waitScreen("Asks · 2 waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions")
	h.key("j")
	h.key("enter")
	h.waitScreen("» Transcript · responder")
	h.key("esc")
	h.waitScreen("» Sessions · 3")
	h.key("e")
	h.waitScreen("» Explain")
	h.key("esc")
	h.waitScreen("» Sessions · 3")
	h.key("h")
	h.waitScreen("» History")
	h.key("esc")
	h.waitScreen("» Asks · 2 waiting")
}

// Explain: type a line, choose the session it is judged for with ↑/↓, and
// read the table: the same line reads differently for two profiles.
func TestExplainTypedLine(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions")
	h.key("e")
	h.waitScreen("» Explain", "session  auditor · auditor-1")
	h.tm.Type("head -n 1 /logs/app.log")
	h.key("enter")
	h.steady("explanation of: head -n 1 /logs/app.log", "∅ not-found")
	h.tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	h.tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	h.waitScreen("session  sre-bot · sre-bot-1")
	h.key("enter")
	golden(t, h.steady("explanation of: head -n 1 /logs/app.log", "? ask", "reading logs by hand is a human's call"))
}

// A transcript follows a session's output as its lines run.
func TestTranscriptFollowsLiveOutput(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions")
	h.key("enter") // auditor
	h.waitScreen("» Transcript · auditor", "following", "$ grep -c ERROR app.log")
	h.runDone("auditor-1", "grep -c INFO app.log")
	h.waitScreen("$ grep -c INFO app.log", "✓ exit 0")
}

// hostileName is what an agent might put in a file name or its own name
// to repaint the human's screen: clear it, set the title, hide text, move
// the cursor back, reverse the text's direction.
const hostileName = "x\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b[8mhidden\x1b[0m\rover\u009b31m\u202eevil\u200bz"

// An agent's text is inert on every page a real line reaches (G-13.3):
// its name, its line and the words in it, the note a human pasted, through the queue, the detail, a's and Y's questions,
// the note, Explain, History, Sessions and the transcript, and the
// messages under the header.
func TestAgentTextIsInertOnEveryPage(t *testing.T) {
	evil := "ev" + hostileName
	h := start(t, harnessOptions{quiet: true, agents: []string{evil + ":responder", "oncall:responder"}})
	line := `echo "` + hostileName + `" >> /deploy/config/db.yaml`
	h.runAsking(evil+"-1", line)
	h.runAsking("oncall-1", line)
	screens := map[string]string{}
	look := func(page string, want ...string) {
		t.Helper()
		h.waitScreen(want...)
		screens[page] = h.rawScreen()
	}
	look("queue", "2 asks waiting", "PLACE")
	h.key("enter")
	look("detail", "» Detail", "␛[2J")
	h.press("a")
	look("a's question", "Allow these for the session? y/N")
	h.key("x")
	h.press("Y")
	look("Y's question", "identical to this one")
	h.key("x")
	h.press("N")
	h.tm.Send(tea.PasteMsg{Content: "pasted " + hostileName})
	look("note", "note › pasted")
	h.key("enter")
	h.result()
	look("message", "─ ✗ deny: echo")
	h.key("e")
	h.key("enter")
	look("explain", "explanation of: echo", "stderr:")
	h.key("esc")
	h.key("h")
	look("history", "» History · 1 decision", "note: pasted")
	h.key("tab")
	h.key("esc")
	h.key("tab")
	h.key("tab")
	look("sessions", "» Sessions · 2")
	h.key("enter")
	look("transcript", "» Transcript", "✗ deny by console")
	for page, s := range screens {
		if i := agentEscape(s); i >= 0 {
			t.Errorf("%s: the agent's text reaches the terminal at %d: %q", page, i, s[max(i-30, 0):min(i+30, len(s))])
		}
	}
	if !strings.Contains(plain(screens["detail"]), "␛[2J␛[H␛]0;pwned␇") {
		t.Errorf("the detail does not show what the agent wrote:\n%s", plain(screens["detail"]))
	}
}

// agentEscape is where a screen holds what a terminal would act on other
// than the console's own colours (SGR) and the line ends: an escape,
// a bell, a carriage return, a C1 control, a bidirectional override, a
// zero-width space. -1 when there is none.
func agentEscape(screen string) int {
	rest := sgrOnly.ReplaceAllStringFunc(screen, func(m string) string { return strings.Repeat("m", len(m)) })
	for i, r := range rest {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == 0x202e || r == 0x200b {
			return i
		}
	}
	return -1
}

var sgrOnly = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
