package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"gatehouse/core/decisions"
)

// The console at scale (G-14): ten thousand waiting asks, or ten thousand
// decisions in History, cost a frame no more than a handful do. Each
// benchmark is one human action (a key) and the frame it draws.

// crowded is a console at w×h with n pending asks, the queue focused.
func crowded(b *testing.B, n, w, h int) *Model {
	m := newTestModel(b)
	for i := range n {
		m.board.apply(ask(i))
	}
	m.asks.follow()
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// answered is ask i settled: allowed, or denied with a note.
func answered(i int) decisions.Record {
	r := ask(i)
	r.Outcome, r.Scope, r.AnsweredBy = decisions.Allow, decisions.Once, "console"
	if i%3 == 0 {
		r.Outcome, r.Note = decisions.Deny, "not now"
	}
	r.AnsweredAt = r.CreatedAt.Add(time.Second)
	return r
}

func BenchmarkView10kAsks80x24(b *testing.B) {
	m := crowded(b, 10000, 80, 24)
	for b.Loop() {
		_ = m.View()
	}
}

// j then k, each with its frame: the selection walks the queue.
func BenchmarkScroll10kAsks(b *testing.B) {
	m := crowded(b, 10000, 160, 48)
	press(m, "tab") // the detail scrolls with j/k; the queue moves
	press(m, "esc")
	for b.Loop() {
		press(m, "j")
		_ = m.View()
		press(m, "k")
		_ = m.View()
	}
}

// A letter typed into the queue's filter and taken back, each with its
// frame: every key re-reads ten thousand asks.
func BenchmarkFilterKey10kAsks(b *testing.B) {
	m := crowded(b, 10000, 160, 48)
	press(m, "/", "f", "i", "l", "e")
	for b.Loop() {
		press(m, "-")
		_ = m.View()
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
		_ = m.View()
	}
}

// History with ten thousand decisions: a frame, and a filtered frame.
func BenchmarkHistoryView10k(b *testing.B) {
	m := crowded(b, 0, 160, 48)
	for i := range 10000 {
		m.board.apply(answered(i))
	}
	press(m, "h")
	for b.Loop() {
		press(m, "j")
		_ = m.View()
	}
}

func BenchmarkHistoryFilter10k(b *testing.B) {
	m := crowded(b, 0, 160, 48)
	for i := range 10000 {
		m.board.apply(answered(i))
	}
	press(m, "h", "/", "d", "e", "n", "y", "enter")
	for b.Loop() {
		press(m, "j")
		_ = m.View()
	}
}

// Opening on a ledger of ten thousand decisions.
func BenchmarkLoad10kDecisions(b *testing.B) {
	all := make([]decisions.Record, 10000)
	for i := range all {
		all[i] = answered(i)
	}
	for b.Loop() {
		newBoard().load(all)
	}
}

// Typing a ten-character filter into the queue, each key with its frame,
// then esc: a key that narrows the filter looks only at the asks that
// matched before it.
func BenchmarkTypeFilter10kAsks(b *testing.B) {
	for _, typed := range []string{"agent-3 rm", "/data/file"} {
		b.Run(typed, func(b *testing.B) {
			m := crowded(b, 10000, 160, 48)
			for b.Loop() {
				press(m, "/")
				for _, r := range typed {
					press(m, string(r))
					_ = m.View()
				}
				press(m, "esc")
			}
		})
	}
}
