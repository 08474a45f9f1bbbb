package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"gatehouse/store"
)

func runSessions(t *testing.T, open Opener) {
	t.Run("sessions persist", func(t *testing.T) { t.Parallel(); sessionsPersist(t, open) })
	t.Run("racing opens of one id make one session", func(t *testing.T) { t.Parallel(); ensureSession(t, open) })
	t.Run("cwd", func(t *testing.T) { t.Parallel(); sessionCwd(t, open) })
}

// G-10.6, G-11.4: a session outlives its handle; ids are unique.
func sessionsPersist(t *testing.T, open Opener) {
	l, another := open(t)
	made, err := l.CreateSession(bg, store.SessionRow{ID: "s1", AgentID: "agent_a", Profile: "responder", Cwd: "/runbook"})
	if err != nil {
		t.Fatal(err)
	}
	generated, err := l.CreateSession(bg, store.SessionRow{AgentID: "agent_b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(generated.ID) != 12 || generated.Cwd != "/" || generated.CreatedAt.IsZero() {
		t.Errorf("session with defaults = %+v, want a 12-char id, cwd / and created_at", generated)
	}
	if _, err := l.CreateSession(bg, store.SessionRow{ID: "s1"}); !errors.Is(err, store.ErrExists) {
		t.Errorf("creating s1 twice = %v, want ErrExists", err)
	}
	other := another(t)
	got, err := other.GetSession(bg, "s1")
	if err != nil || got != made {
		t.Errorf("GetSession(s1) = %+v, %v; want %+v", got, err, made)
	}
	if _, err := other.GetSession(bg, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetSession(nope) = %v, want ErrNotFound", err)
	}
	all, err := other.ListSessions(bg)
	if err != nil || len(all) != 2 || all[0].ID != "s1" || all[1].ID != generated.ID {
		t.Errorf("ListSessions = %+v, %v; want s1 then %s", all, err, generated.ID)
	}
}

// G-11.4: processes racing to open one session id (`gatehouse exec -s ID`
// run twice at once) all get the one row, and exactly one created it.
func ensureSession(t *testing.T, open Opener) {
	first, another := open(t)
	ledgers := []store.Ledger{first, another(t), another(t)}
	for round := range 5 {
		id := fmt.Sprintf("cli-%d", round)
		const racers = 9
		rows := make([]store.SessionRow, racers)
		created := make([]bool, racers)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range racers {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				var err error
				rows[i], created[i], err = ledgers[i%len(ledgers)].EnsureSession(bg,
					store.SessionRow{ID: id, AgentID: fmt.Sprint("agent-", i), Profile: "p"})
				if err != nil {
					t.Error(err)
				}
			}()
		}
		start.Done()
		done.Wait()
		n := 0
		for i := range racers {
			if created[i] {
				n++
			}
			if rows[i] != rows[0] {
				t.Errorf("round %d: racer %d got %+v, racer 0 %+v", round, i, rows[i], rows[0])
			}
		}
		if n != 1 {
			t.Errorf("round %d: %d racers created the session, want 1", round, n)
		}
	}
	all, _ := first.ListSessions(bg)
	if len(all) != 5 {
		t.Errorf("%d sessions, want 5", len(all))
	}
	if _, _, err := first.EnsureSession(bg, store.SessionRow{}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("EnsureSession without an id = %v, want ErrInvalid", err)
	}
}

// G-2.3: the cwd a line left is what the next process resumes with; a
// session the ledger does not know is not found.
func sessionCwd(t *testing.T, open Opener) {
	l, another := open(t)
	if _, err := l.CreateSession(bg, store.SessionRow{ID: "s1"}); err != nil {
		t.Fatal(err)
	}
	if err := l.SetSessionCwd(bg, "s1", "/data/x"); err != nil {
		t.Fatal(err)
	}
	if got, _ := another(t).GetSession(bg, "s1"); got.Cwd != "/data/x" {
		t.Errorf("cwd = %q, want /data/x", got.Cwd)
	}
	if err := l.SetSessionCwd(bg, "nope", "/"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetSessionCwd(nope) = %v, want ErrNotFound", err)
	}
}
