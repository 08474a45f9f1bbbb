package core

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gatehouse/core/decisions"
	"gatehouse/store"
	"gatehouse/store/storetest"
)

// G-2.2: however many callers ask for the default session at once, one
// session is made, and every caller gets it.
func TestDefaultSessionIsOneUnderConcurrency(t *testing.T) {
	t.Parallel()
	for round := range 5 {
		ws, err := NewWorkspace(dataMount())
		if err != nil {
			t.Fatal(err)
		}
		const callers = 12
		got := make([]*Session, callers)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range callers {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				s, err := ws.DefaultSession()
				if err != nil {
					t.Error(err)
				}
				got[i] = s
			}()
		}
		start.Done()
		done.Wait()
		for i := range got {
			if got[i] != got[0] {
				t.Fatalf("round %d: caller %d got session %p, caller 0 %p", round, i, got[i], got[0])
			}
		}
		rows, _ := ws.Decisions().ListSessions(context.Background())
		if len(rows) != 1 || len(ws.Sessions()) != 1 {
			t.Errorf("round %d: %d sessions in the ledger, %d live; want 1", round, len(rows), len(ws.Sessions()))
		}
		ws.Close()
	}
}

// G-11.4: resuming one id from many goroutines gives one live session, not
// one shell per caller; and two processes opening one new id at once (two
// handles on one ledger file) share one ledger row.
func TestSessionsOpenOnce(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ledger.db")
	first := newAskFixture(t, WithLedger(path))
	// The session lives in the ledger, not yet in this second workspace.
	second, err := NewWorkspace(dataMount(), WithProfiles(guarded), WithLedger(path))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	const callers = 10
	resumed := make([]*Session, callers)
	var start, wg sync.WaitGroup
	start.Add(1)
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, err := NewWorkspace(dataMount(), WithProfiles(guarded), WithLedger(path))
			if err != nil {
				t.Error(err)
				return
			}
			defer ws.Close()
			s, err := ws.OpenSession("cli-guarded", "cli", Profile("guarded"))
			if err != nil {
				t.Errorf("process %d: %v", i, err)
				return
			}
			if s.ProfileName() != "guarded" {
				t.Errorf("process %d: profile %q", i, s.ProfileName())
			}
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			start.Wait()
			s, err := second.ResumeSession(first.s.ID())
			if err != nil {
				t.Error(err)
			}
			resumed[i] = s
		}()
	}
	start.Done()
	wg.Wait()
	for i, s := range resumed {
		if s != resumed[0] || s.ProfileName() != "guarded" {
			t.Errorf("resume %d gave another Session for one id", i)
		}
	}
	if n := len(second.Sessions()); n != 1 {
		t.Errorf("%d live sessions after resuming one id, want 1", n)
	}
	rows, _ := first.ws.Decisions().ListSessions(context.Background())
	n := 0
	for _, r := range rows {
		if r.ID == "cli-guarded" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d ledger rows for cli-guarded, want 1", n)
	}
	if _, err := first.ws.ResumeSession("nobody"); !errors.Is(err, decisions.ErrNotFound) {
		t.Errorf("resuming an unknown id = %v, want ErrNotFound", err)
	}
}

// failingCwd is a ledger whose SetSessionCwd fails.
type failingCwd struct{ store.Ledger }

func (failingCwd) SetSessionCwd(context.Context, string, string) error {
	return errors.New("disk full")
}

// A line that moved the session's directory but could not save it says so:
// a later process resuming the session would start elsewhere.
func TestUnsavedCwdIsReported(t *testing.T) {
	t.Parallel()
	ws, err := NewWorkspace(dataMount(), WithStore(failingCwd{storetest.MustOpen(t)}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	s, err := ws.CreateSession("agent")
	if err != nil {
		t.Fatal(err)
	}
	res := s.Execute(context.Background(), "cd /data")
	if res.ExitCode != 0 || !strings.Contains(res.Stderr, "the session's directory was not saved: disk full") {
		t.Errorf("cd with a failing ledger: exit %d, stderr %q; want the failure reported", res.ExitCode, res.Stderr)
	}
	if res := s.Execute(context.Background(), "pwd"); res.Stderr != "" {
		t.Errorf("a line that does not move reports nothing: %q", res.Stderr)
	}
}
