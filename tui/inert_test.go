package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

func TestInert(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"rm -rf /data", "rm -rf /data"},
		{"a\nb", "a\nb"},
		{"clear\x1b[2J\x1b[H", "clear␛[2J␛[H"},
		{"title \x1b]0;pwned\x07", "title ␛]0;pwned␇"},
		{"rm x\rls", "rm x␍ls"},
		{"a\tb\x7f", "a␉b␡"},
		{"csi \u009b31m", "csi ⟨U+009B⟩31m"},
		{"bad \xff byte", "bad ⟨0xFF⟩ byte"},
		{"safe \u202eexe.txt", "safe ⟨U+202E⟩exe.txt"},
		{"r\u200bm", "r⟨U+200B⟩m"},
		{"r\u200dm", "r⟨U+200D⟩m"},
		{"tag\U000E0041", "tag⟨U+E0041⟩"},
		{"故障 👨\u200d👩\u200d👧 ❤️", "故障 👨\u200d👩\u200d👧 ❤️"},
	} {
		if got := inert(tc.in); got != tc.want {
			t.Errorf("inert(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Every narrow symbol cellWidth counts without a grapheme walk takes one
// cell by the renderer's count too, next to ASCII on either side.
func TestNarrowSymbolsAreOneCell(t *testing.T) {
	t.Parallel()
	for r := rune(0x80); r < 0x3000; r++ {
		if !narrowSymbol(r) {
			continue
		}
		for _, s := range []string{string(r), "a" + string(r) + "b", string(r) + string(r)} {
			if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
				t.Errorf("U+%04X in %q: cellWidth %d, renderer %d", r, s, got, want)
			}
		}
	}
}

// hostile is agent-written text with everything a terminal would act on
// or hide: screen clearing, cursor moves, a window title, a hyperlink,
// concealed text, a carriage return, C1 CSI, a bidirectional override
// and a zero-width space.
const hostile = "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]8;;http://evil\x07link\x1b]8;;\x07\x1b[8mhidden\x1b[0m\rover\u009b31m\u202eevil\u200bx\x1b[38;5;1m"

// An agent must not repaint the human's screen (G-13.3): whatever it puts
// in a line, an argument, a path, a note, its output or a reason, every
// page draws it as visible stand-ins, and the only escape sequences on
// screen are the console's own colours.
func TestAgentTextIsInert(t *testing.T) {
	m, clk := newTestModelClock(t)
	a := raised(1)
	a.Line = "cat " + hostile + " && rm /data/a"
	a.Place = "0"
	a.Command, a.Argv = "cat "+hostile, []string{"cat", hostile}
	a.Cwd, a.Paths = "/data/"+hostile, []string{"/data/" + hostile}
	a.Reason, a.Note, a.AgentID, a.SessionID = "reason "+hostile, "note "+hostile, "agent"+hostile, "s-"+hostile
	a.Rules[0].Reason = a.Reason
	feed(m, decisions.EventAsk, a)
	m.board.sessions = []sessionInfo{{ID: a.SessionID, Agent: a.AgentID, Profile: "p", State: "waiting", Cwd: a.Cwd}}
	m.board.record(core.Event{Kind: core.EventLineStart, SessionID: a.SessionID, AgentID: a.AgentID, Line: a.Line})
	m.board.record(core.Event{Kind: core.EventLineEnd, SessionID: a.SessionID, AgentID: a.AgentID, Line: a.Line,
		Result: &core.Result{ExitCode: 1, Stdout: "out " + hostile + "\n", Stderr: "err " + hostile + "\n"}})
	done := a
	done.ID, done.Outcome, done.Scope, done.AnsweredBy = "000000000099", decisions.Deny, decisions.Once, "console"
	m.board.apply(done)
	clk.Advance(armDelay)
	screens := map[string]string{}
	for _, w := range []int{60, 80, 200} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		screens["asks"] = m.render()
		press(m, "enter")
		screens["detail"] = m.render()
		press(m, "esc", "N")
		m.Update(tea.PasteMsg{Content: "pasted " + hostile})
		screens["note"] = m.render()
		press(m, "esc", "e")
		screens["explain"] = m.render()
		press(m, "esc", "h")
		screens["history"] = m.render()
		press(m, "tab")
		screens["sessions"] = m.render()
		m.sessions.Open(a.SessionID)
		screens["transcript"] = m.render()
		m.sessions.Close()
		press(m, "tab", "tab", "tab")
		for page, s := range screens {
			checkInert(t, w, page, s)
		}
	}
	if s := plain(screens["detail"]); !strings.Contains(s, "␛[2J␛[H␛]0;pwned␇") || !strings.Contains(s, "⟨U+202E⟩evil⟨U+200B⟩x") {
		t.Errorf("the detail does not show what the agent wrote:\n%s", s)
	}
}

// checkInert fails when a screen holds anything but text, newlines and
// colour (SGR) sequences, or an SGR sequence the agent wrote.
func checkInert(t *testing.T, w int, page, screen string) {
	t.Helper()
	for _, agents := range []string{"\x1b[8m", "\x1b[38;5;1m"} {
		if strings.Contains(screen, agents) {
			t.Errorf("%d cols, %s: the agent's %q reached the screen", w, page, agents)
		}
	}
	rest := sgr.ReplaceAllString(screen, "")
	for i, r := range rest {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == 0x202e || r == 0x200b {
			t.Errorf("%d cols, %s: %U at %d reaches the terminal: %q", w, page, r, i, rest[max(i-20, 0):min(i+20, len(rest))])
			return
		}
	}
}

// sgr is a colour or style sequence, the only kind the console draws.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
