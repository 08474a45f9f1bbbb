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

// A transcript's long exit row (a refusal with its reason, rule and the
// human's note) wraps under its own words at 60 and 80 columns: no row of
// the transcript starts at the left edge but a line the agent typed ($).
func TestTranscriptExitRowsHang(t *testing.T) {
	for _, w := range []int{60, 80} {
		h := start(t, harnessOptions{quiet: true, width: w, height: 24, agents: []string{"responder:responder"}})
		h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
		h.steady("1 ask waiting")
		h.press("N")
		h.tm.Type("use the runbook copy instead")
		h.key("enter")
		h.result()
		h.waitScreen("no asks waiting")
		h.key("tab")
		h.key("tab")
		h.waitScreen("» Sessions")
		h.key("enter")
		s := h.steady("» Transcript · responder", "note from")
		rows := strings.Split(s, "\n")
		for _, r := range rows[4 : len(rows)-3] { // the transcript, under its title, above the bars
			if r != "" && !strings.HasPrefix(r, "$ ") && !strings.HasPrefix(r, " ") && !strings.HasPrefix(r, "↑") && !strings.HasPrefix(r, "↓") {
				t.Errorf("at %d columns a transcript row starts at the edge: %q\n%s", w, r, s)
			}
		}
	}
}

// The note's input at 60 columns shows its whole placeholder: what enter
// and esc do is the bar's to say, right under it, so the placeholder is
// not cut mid-word ("(enter to allow once, es").
func TestNoteInputFitsNarrow(t *testing.T) {
	h := start(t, harnessOptions{quiet: true, width: 60, height: 20, agents: []string{"responder:responder"}})
	h.runAsking("responder-1", "cat /vault/break-glass/failover.md")
	h.steady("1 ask waiting")
	for _, tc := range []struct{ key, placeholder, bar string }{
		{"N", "note › why the answer is no", "enter deny with this note · esc cancel"},
		{"m", "note › what the agent should know", "enter allow once with this note · esc cancel"},
	} {
		h.press(tc.key)
		s := h.waitScreen(tc.bar)
		for _, r := range strings.Split(s, "\n") {
			if strings.HasPrefix(r, "note ›") && r != tc.placeholder {
				t.Errorf("%s's input reads %q, want %q", tc.key, r, tc.placeholder)
			}
		}
		h.key("esc")
		h.waitScreen("no answer given")
	}
}
