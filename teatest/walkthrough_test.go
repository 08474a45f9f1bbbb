package consoletest

import (
	"strings"
	"testing"
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
