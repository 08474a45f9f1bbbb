package consoletest

import (
	"errors"
	"strings"
	"testing"
)

// Error states are said plainly, with what to do next.

// An answer the ledger would not take (another process held its write
// lock) says so, names the ask, and says it still waits; the ask stays in
// the queue, and answering again once the lock is gone releases the line.
func TestLedgerLockedAnswer(t *testing.T) {
	h := start(t, harnessOptions{width: 80, height: 24, quiet: true, flaky: true, agents: []string{"responder:responder"}})
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.steady("1 ask waiting", "Detail · ask")
	h.flaky.fail(nil, errors.New("database is locked (5) (SQLITE_BUSY)"))
	h.press("y")
	s := h.waitScreen("not answered: the ledger is locked", "answer it again", "1 ask waiting", "PLACE")
	checkChrome(t, 80, s)
	golden(t, s)
	h.flaky.fail(nil, nil)
	h.press("y")
	if res := h.result(); res.ExitCode != 0 {
		t.Fatalf("after the lock: exit %d %s", res.ExitCode, res.Stderr)
	}
	h.waitScreen("no asks waiting", "✓ allow once")
}

// A ledger that cannot be read (its database server went away) is said on
// the rule under the header for as long as it lasts, with what that means
// for the queue; when it answers again the console says so and the
// warning goes.
func TestLedgerUnreachable(t *testing.T) {
	h := start(t, harnessOptions{width: 80, height: 24, quiet: true, flaky: true, agents: []string{"responder:responder"}})
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.steady("1 ask waiting", "Detail · ask")
	h.flaky.fail(errors.New("dial tcp 10.0.0.5:5432: connect: connection refused"), nil)
	s := h.waitScreen("⚠ the ledger cannot be read", "the queue may be out of date")
	checkChrome(t, 80, s)
	h.tm.Send(teaWindowSize(100, 30))
	s = h.waitScreenWhere("the warning with its reason at 100 columns", func(s string) bool {
		return strings.Contains(s, "⚠ the ledger cannot be read for") && strings.Contains(s, "refused): the queue may be out of date")
	})
	checkChrome(t, 100, s)
	h.tm.Send(teaWindowSize(160, 48))
	h.waitScreen("⚠ the ledger cannot be read for", "(dial tcp 10.0.0.5:5432: connect: connection refused): the queue may be out of date; retrying every 5 s")
	h.tm.Send(teaWindowSize(60, 20))
	checkChrome(t, 60, h.waitScreen("⚠ ledger unreadable"))
	h.flaky.fail(nil, nil)
	s = h.waitScreen("the ledger answers again", "1 ask waiting")
	if strings.Contains(s, "⚠") {
		t.Errorf("the warning stayed after the ledger came back:\n%s", s)
	}
}

// A ledger that cannot be read when the console opens is said at once,
// not shown as an empty queue; once it reads, the asks waiting in it
// appear, and History holds the decisions made before.
func TestLedgerUnreadableAtStart(t *testing.T) {
	h := start(t, harnessOptions{width: 80, height: 24, quiet: true, flaky: true, agents: []string{"responder:responder"}})
	rec := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	answerElsewhere(t, h.dbPath, rec.ID)
	h.result()
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")

	// A second console on the same ledger, which it cannot read at first.
	h2 := startOn(t, h.dbPath, harnessOptions{width: 80, height: 24, quiet: true, flaky: true,
		unreadable: errors.New("dial tcp 10.0.0.5:5432: connect: connection refused")})
	s := h2.waitScreen("⚠ the ledger cannot be read for", "the queue may be out of date")
	checkChrome(t, 80, s)
	h2.flaky.fail(nil, nil)
	h2.waitScreen("the ledger answers again", "1 ask waiting")
	h2.key("h")
	h2.waitScreen("History · 1 decision", "✓ allow once")
}
