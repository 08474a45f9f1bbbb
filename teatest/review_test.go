package consoletest

import (
	"strings"
	"testing"
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
