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
	running := make(chan Result, 1)
	go func() { running <- a.Execute(context.Background(), "sleep 1000") }()
	time.Sleep(200 * time.Millisecond)

	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := ws.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v (lines or jobs still running after %v)", err, time.Since(start))
	}
	select {
	case res := <-running:
		if res.ExitCode != 125 || !strings.Contains(res.Stderr, "shutting down") {
			t.Errorf("the running line: %+v", res)
		}
	default:
		t.Error("Shutdown returned before the running line did")
	}
	if res := a.Execute(context.Background(), "echo after"); res.ExitCode != 125 || res.Stdout != "" || !strings.Contains(res.Stderr, "shutting down") {
		t.Errorf("a line after Shutdown: %+v", res)
	}
	if _, err := ws.VFS().View(nil).Stat("/tmp/late"); err == nil {
		t.Error("the background job outlived Shutdown")
	}
}
