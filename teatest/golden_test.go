package consoletest

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Golden screens of the console's states (G-13.4), at 100×30 unless the
// test says otherwise; run `go test ./teatest -update` to rewrite them.

func golden(t *testing.T, screen string) {
	t.Helper()
	teatest.RequireEqualOutput(t, []byte(screen))
}

func TestEmptyConsole(t *testing.T) {
	h := start(t, harnessOptions{quiet: true})
	golden(t, h.waitScreen("no asks waiting", "No asks waiting"))
}

func TestAsksWaiting(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	golden(t, h.waitScreen("2 asks waiting", "The whole line", "PLACE"))
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
	h.waitScreen("0 running · ◆ 2 waiting")
	return h
}

func TestDetail(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting", "PLACE")
	h.key("j")
	h.key("enter")
	golden(t, h.waitScreen("» Detail", "replicas: 4", "mount:/deploy", "stderr:"))
}

func TestSessionTranscript(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting")
	h.key("tab")
	h.key("tab")
	h.waitScreen("» Sessions", "◆ waiting")
	h.key("j") // responder
	h.key("enter")
	golden(t, h.waitScreen("» Transcript · responder", "Checkout incident runbook.", "waiting for an answer"))
}

func TestExplain(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting", "PLACE")
	h.key("e")
	h.waitScreen("» Explain", "cat steps.md && cat /vault/break-glass/failover.md")
	h.key("enter")
	golden(t, h.waitScreen("explanation of: cat steps.md", "? ask", "✓ run"))
}

func TestHistory(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting", "PLACE")
	h.key("y")
	h.result()
	h.waitScreen("1 ask waiting")
	h.key("N")
	h.tm.Type("not during the freeze")
	h.key("enter")
	h.result()
	h.waitScreen("no asks waiting")
	h.key("h")
	golden(t, h.waitScreen("» History · 2 decisions", "✓ allow once", "✗ deny", "note: "))
}

func TestHelp(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting")
	h.key("?")
	golden(t, h.waitScreen("» Keys", "allow once", "deny+note"))
}

func TestNarrow80x24(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{width: 80, height: 24})
	golden(t, h.waitScreen("2 asks waiting", "The whole line"))
}

func TestSessions(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting")
	h.key("tab")
	h.key("tab")
	h.key("j")
	golden(t, h.waitScreen("» Sessions · 3 · 0 running · 2 waiting · 1 idle", "Y allow all once"))
}
