package tui

import (
	"strings"
	"testing"
	"time"

	"gatehouse/core/decisions"
)

// A status message stays by the console's clock, not by how many ticks
// arrived: under load ticks come late or bunched, and a screen test that
// pins the clock sees the message for as long as it looks. A long message
// and an error stay longer than a short one.
func TestMessagesStayByTheClock(t *testing.T) {
	m, clk := newTestModelClock(t)
	m.Update(ledgerMsg(decisions.Event{Kind: decisions.EventAsk, Record: ask(1)}))
	closed := ask(1)
	closed.Closed = "cancelled"
	m.Update(ledgerMsg(decisions.Event{Kind: decisions.EventClosed, Record: closed}))
	const want = "left the queue: cancelled"
	if !strings.Contains(plain(m.render()), want) {
		t.Fatalf("no message:\n%s", plain(m.render()))
	}
	for range 20 { // twenty ticks, the clock pinned: still there
		m.Update(tickMsg{})
	}
	if !strings.Contains(plain(m.render()), want) {
		t.Fatal("the message left after twenty ticks while the clock stood still")
	}
	clk.Advance(messageMinLife - time.Second)
	m.Update(tickMsg{})
	if !strings.Contains(plain(m.render()), want) {
		t.Fatalf("the message left before %s", messageMinLife)
	}
	clk.Advance(time.Second)
	m.Update(tickMsg{})
	if strings.Contains(plain(m.render()), want) {
		t.Fatalf("the message stayed past %s", messageMinLife)
	}
	for _, tc := range []struct {
		text  string
		isErr bool
		want  time.Duration
	}{
		{"✓ allow once: rm x (agent)", false, messageMinLife},
		{"one two three four five six seven eight nine ten eleven twelve", false, messageMinLife + 2*messagePerWord},
		{"rm not answered: the ledger is locked", true, 2 * messageMinLife},
	} {
		if got := messageLife(tc.text, tc.isErr); got != tc.want {
			t.Errorf("messageLife(%q, %v) = %s, want %s", tc.text, tc.isErr, got, tc.want)
		}
	}
}
