package core

import (
	"context"
	"strings"
	"testing"
	"time"
)

// G-12.3: Shutdown cancels running lines and the background jobs lines
// left behind, waits for them, and refuses lines started afterwards.
func TestShutdownStopsLinesAndJobs(t *testing.T) {
	t.Parallel()
	ws, err := NewWorkspace(nil, WithLimits(Limits{WallTime: time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	a, _ := ws.CreateSession("a")
	b, _ := ws.CreateSession("b")
	// b's line returns at once; its job would write after 30 s.
	if res := b.Execute(context.Background(), "{ sleep 30; echo late > /tmp/late; } &"); res.ExitCode != 0 {
		t.Fatalf("job: %+v", res)
	}
	watch, stopWatching := context.WithCancel(context.Background())
	defer stopWatching()
	events := ws.Watch(watch)
	running := make(chan Result, 1)
	// The line moves: its cwd is saved to the ledger after the run.
	go func() { running <- a.Execute(context.Background(), "cd /tmp; sleep 1000") }()
	for ev := range events {
		if ev.Kind == EventLineStart && ev.SessionID == a.ID() {
			break
		}
	}

	// Both the line (1000 s) and the job (30 s) outlast this bound unless
	// Shutdown cancels them; it is generous for a loaded machine.
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := ws.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v (lines or jobs still running after %v)", err, time.Since(start))
	}
	// The line's end is announced as its last act: Shutdown must have
	// waited for it (events are queued before publish returns).
	ended := false
	for len(events) > 0 && !ended {
		ev := <-events
		ended = ev.Kind == EventLineEnd && ev.SessionID == a.ID()
	}
	if !ended {
		t.Error("Shutdown returned before the running line did")
	}
	res := <-running
	if res.ExitCode != 125 || !strings.Contains(res.Stderr, "shutting down") {
		t.Errorf("the running line: %+v", res)
	}
	if res := a.Execute(context.Background(), "echo after"); res.ExitCode != 125 || res.Stdout != "" || !strings.Contains(res.Stderr, "shutting down") {
		t.Errorf("a line after Shutdown: %+v", res)
	}
	if _, err := ws.VFS().View(nil).Stat("/tmp/late"); err == nil {
		t.Error("the background job outlived Shutdown")
	}
}
