package consoletest

import (
	"context"
	"strings"
	"testing"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// A new user's walk through the console (session 29): each test is a
// surprise met on the way, pinned on screen.

// helpRow is the screen's last row: the help bar.
func helpRow(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return rows[len(rows)-1]
}

// While an input has the keys (a filter, Explain's line), ? types a ?, so
// the help bar does not offer "? help" (nor "? more"): the bar says only
// what the keys do there (G-13.2).
func TestTypingBarOffersNoHelpKey(t *testing.T) {
	h := crowdOfTwo(t, harnessOptions{})
	h.waitScreen("2 asks waiting", "PLACE")
	for _, page := range []struct{ open, typing string }{
		{"/", "keep filter"},
		{"h/", "keep filter"},
		{"e", "enter explain"},
	} {
		h.key("esc")
		h.key("esc")
		for _, k := range page.open {
			h.key(string(k))
		}
		bar := helpRow(h.waitScreen(page.typing))
		if strings.Contains(bar, "? help") || strings.Contains(bar, "? more") {
			t.Errorf("after %q the bar offers ?, which types a ?: %q", page.open, bar)
		}
		h.key("?")
		if s := h.waitScreen(page.typing); strings.Contains(s, "» Keys") {
			t.Fatalf("after %q, ? opened the help instead of typing:\n%s", page.open, s)
		}
	}
	h.key("esc")
	if bar := helpRow(h.steady("» Asks")); !strings.Contains(bar, "? more") && !strings.Contains(bar, "? help") {
		t.Errorf("outside inputs the bar lost ?: %q", bar)
	}
}

// m allows once with a note: the line runs, the agent's result carries
// the note (core.RefusalLines says it as "note from reviewer: …"), the
// ledger keeps it, and the transcript and History show it. Before, a
// human in the console could write a note only on a deny (G-9.5, G-13.2).
func TestFlowAllowWithNote(t *testing.T) {
	h := oneAgent(t, true)
	rec := h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	if bar := helpRow(h.steady("1 ask waiting", "break-glass needs a second pair of eyes")); !strings.Contains(bar, "m allow+note") {
		t.Errorf("the bar at 100 columns does not offer m: %q", bar)
	}
	h.press("m")
	h.waitScreen("Allow once cat /vault/break-glass/failover.md (responder, ask ask000000001), with a note",
		"enter allow once with this note · esc cancel")
	const note = "read it, then call the security lead"
	h.tm.Type(note)
	h.key("enter")
	res := h.result()
	if res.ExitCode != 0 || res.Stdout != "call the security lead first\n" {
		t.Fatalf("line after m: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if len(res.Notes) != 1 || res.Notes[0].Note != note || res.Notes[0].AskID != rec.ID {
		t.Fatalf("the agent's result carries notes %+v", res.Notes)
	}
	if said := core.RefusalLines(res); !strings.Contains(said, "note from reviewer: "+note) {
		t.Errorf("the agent reads %q", said)
	}
	got, err := h.ws.Decisions().Get(context.Background(), rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != decisions.Allow || got.Scope != decisions.Once || got.Note != note {
		t.Fatalf("ledger: %s %s note %q", got.Outcome, got.Scope, got.Note)
	}
	h.waitScreen("no asks waiting", "✓ allow once: cat /vault/break-glass/failover.md (responder) · note stored")
	h.key("h")
	h.waitScreen("» History · 1 decision", note)
}
