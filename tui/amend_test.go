package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"gatehouse/core"
)

const amendDocument = `# the on-call workspace
mounts:
  /runbook:
    files: {notes.txt: "n\n"}
profiles:
  responder:
    cwd: /runbook
    commands:
      ask:
        - reason: removal needs sign-off   # keep this comment
          command: rm
`

// flat is text with every run of blanks and newlines one space, to find
// wrapped text on a screen.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// pressKey runs one key through the console and then the command it
// returned (A and y do their work off the UI goroutine), as Bubble Tea
// would.
func pressKey(m *Model, k string) {
	_, cmd := m.Update(tea.KeyPressMsg{Code: []rune(k)[0], Text: k})
	if cmd == nil {
		return
	}
	if msg := cmd(); msg != nil {
		m.Update(msg)
	}
}

// TestAmendFromConsole: A on a waiting ask shows the diff and a y/N
// question; y writes the rule, applies it and releases the line, anything
// else changes nothing.
func TestAmendFromConsole(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, answer string
		written      bool
	}{
		{name: "y writes, applies and allows once", answer: "y", written: true},
		{name: "n leaves everything", answer: "n", written: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			doc := filepath.Join(dir, "workspace.yaml")
			if err := os.WriteFile(doc, []byte(amendDocument), 0o644); err != nil {
				t.Fatal(err)
			}
			ws, err := core.LoadWorkspace(doc, core.WithLedger(filepath.Join(dir, "ledger.db")), core.OnAsk(WaitForHuman))
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			s, err := ws.CreateSession("agent-1", core.Profile("responder"))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			done := make(chan core.Result, 1)
			go func() { done <- s.Execute(ctx, "rm notes.txt && echo removed") }()
			for {
				if p, _ := ws.Decisions().Pending(ctx, s.ID()); len(p) == 1 {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}

			clk := newClock(t0)
			m := New(ws, Options{Context: ctx, Quiet: true, LedgerPath: "ledger.db", Now: clk.Now})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			clk.Advance(armDelay) // the ask under the cursor is new: keys wait
			pressKey(m, "A")
			screen := plain(m.render())
			for _, want := range []string{
				"Allow rm notes.txt once and add this rule to " + doc + ":",
				"+          except: [{command: rm notes.txt, cwd: /runbook, paths: [/runbook/notes.txt]}]",
				`the rule ` + doc + `:10:11 then never asks about exactly: "rm notes.txt" word for word, with nothing added, run in /runbook (it reaches /runbook/notes.txt)`,
				"then rm notes.txt would: run",
				"y/N",
			} {
				if !strings.Contains(flat(screen), flat(want)) {
					t.Errorf("screen lacks %q:\n%s", want, screen)
				}
			}
			clk.Advance(armDelay) // the question has just opened: y waits
			pressKey(m, tc.answer)

			data, _ := os.ReadFile(doc)
			if got := string(data) != amendDocument; got != tc.written {
				t.Fatalf("document written = %v, want %v:\n%s", got, tc.written, data)
			}
			if !tc.written {
				if !strings.Contains(m.render(), "left workspace.yaml and the ask as they were") {
					t.Error("no word that nothing changed")
				}
				return
			}
			if !strings.Contains(string(data), "command: rm\n          except: [{command: rm notes.txt, cwd: /runbook, paths: [/runbook/notes.txt]}]\n") ||
				!strings.Contains(string(data), "# keep this comment") {
				t.Errorf("document:\n%s", data)
			}
			select {
			case res := <-done:
				if res.ExitCode != 0 || res.Stdout != "removed\n" {
					t.Errorf("released line: %+v", res)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the waiting line was not released")
			}
			if !strings.Contains(m.render(), "rule added to workspace.yaml; allowed once: rm notes.txt") {
				t.Errorf("no confirmation message:\n%s", m.render())
			}
		})
	}
}
