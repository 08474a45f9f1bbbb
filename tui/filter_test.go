package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"gatehouse/core/decisions"
)

// A filter typed on finds its matches among the old ones; whatever is
// typed, taken back or turned into a field, the queue shows exactly what
// a fresh scan would (G-13.1).
func TestFilterNarrowsAsItIsTyped(t *testing.T) {
	m := newTestModel(t)
	for i := range 300 {
		m.board.apply(ask(i))
	}
	m.asks.follow()
	fresh := func(q string) []string {
		terms := strings.Fields(strings.ToLower(q))
		var ids []string
		for _, r := range m.board.pending {
			if matchesAll(r, terms) {
				ids = append(ids, r.ID)
			}
		}
		return ids
	}
	press(m, "/")
	typed := ""
	check := func() {
		t.Helper()
		var got []string
		for i := range m.asks.count() {
			got = append(got, m.asks.at(i).ID)
		}
		want := fresh(typed)
		if strings.TrimSpace(typed) == "" {
			want = fresh("")
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("filter %q shows %d asks, a fresh scan %d", typed, len(got), len(want))
		}
	}
	for _, step := range []string{"a", "g", "e", "n", "t", "-", "3", " ", "p", "a", "t", "h", ":", "/", "d", "\b", "\b", "\b", "\b", "1", "2", "\b", "\b", "\b", "\b", "\b", "F", "I", "L", "E", "-", "1"} {
		if step == "\b" {
			m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
			typed = typed[:len(typed)-1]
		} else {
			press(m, step)
			typed += step
		}
		check()
	}
	// The queue changes while the filter stands: scanned again.
	m.Update(ledgerMsg(decisions.Event{Kind: decisions.EventAsk, Record: ask(1001)}))
	check()
	for _, tc := range []struct {
		old, terms string
		want       bool
	}{
		{"", "rm", true},
		{"rm", "rm /d", true},
		{"file-1", "file-12", true},
		{"path", "path:", false}, // a word became a field
		{"path:/d", "path:/data", true},
		{"cmd:rm", "command:rm -f", true},
		{"agent:a", "agent-3", false},
		{"rm x", "rm", false},
		{"file-12", "file-1", false},
	} {
		if got := narrows(strings.Fields(tc.old), strings.Fields(tc.terms)); got != tc.want {
			t.Errorf("narrows(%q, %q) = %v, want %v", tc.old, tc.terms, got, tc.want)
		}
	}
}
