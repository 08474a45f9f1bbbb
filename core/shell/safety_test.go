package shell

import (
	"bytes"
	"context"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// panicHost is a ledger with a bug: every lookup panics. The gate consults
// it inside the execution gate, on whichever goroutine reaches the command:
// the line's own, a pipeline member's, a background job's, an xargs
// worker's. That is outside any utility, so it exercises the recover
// boundaries of the interpreter's goroutines and of wrapper runs.
type panicHost struct{}

func (panicHost) Settled(context.Context, string, []string) []string { panic("boom from the ledger") }
func (panicHost) Lookup(context.Context, Question) (Claim, bool)     { panic("boom from the ledger") }
func (panicHost) Peek(context.Context, Question) (Claim, bool)       { panic("boom from the ledger") }
func (panicHost) Ask(context.Context, Question) (Reply, error)       { panic("boom from the ledger") }
func (panicHost) Inline(context.Context) bool                        { return false }
func (panicHost) Spend([]Claim)                                      {}
func (panicHost) Release([]Claim)                                    {}

type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func panicShell(t *testing.T) (*Shell, *lockedLog) {
	t.Helper()
	specs := []vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"a": "1\n", "list": "a\nb\n"}}}
	fsys, err := vfs.New(specs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	var gm []gate.Mount
	for _, m := range fsys.Mounts() {
		gm = append(gm, gate.Mount{Prefix: m.Prefix, ReadOnly: m.ReadOnly})
	}
	prof, err := gate.Compile(gate.ProfileSpec{Name: "p", Ask: []gate.Rule{{Reason: "check", Commands: []string{"cat"}, Source: "test"}}}, gm)
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedLog{}
	sh, err := New(Config{VFS: fsys, Profile: prof, SessionID: "s-test", AgentID: "a", Host: panicHost{},
		Logger: log.New(logs, "", 0), Limits: Limits{WallTime: 20 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	return sh, logs
}

// G-12.3: a panic in the gate's machinery on any goroutine of a line ends
// that line with exit 125, logs the stack, and the shell runs the next line.
func TestPanicOnEveryGoroutineOfALine(t *testing.T) {
	t.Parallel()
	// c=cat is dynamic: preflight leaves it to the execution gate.
	lines := []struct{ name, line string }{
		{"preflight", "cat /w/a"},
		{"line goroutine", "c=cat; $c /w/a; echo notreached"},
		{"pipeline writer", "c=cat; $c /w/a | wc -l; echo notreached"},
		{"pipeline middle", "c=cat; echo x | $c | wc -l; echo notreached"},
		{"background job", "c=cat; $c /w/a & wait; echo notreached"},
		{"background pipeline", "c=cat; { echo x | $c; } & wait; echo notreached"},
		{"command substitution", "c=cat; echo $($c /w/a); echo notreached"},
		{"command substitution in a pipeline", "c=cat; echo $($c /w/a) | wc -c; echo notreached"},
		{"process substitution", "c=cat; wc -l <($c /w/a); echo notreached"},
		{"xargs", "c=cat; echo /w/a | xargs $c; echo notreached"},
		{"parallel xargs", "c=cat; cat2=$c; printf '/w/a\\n/w/list\\n' | xargs -P 2 -n 1 $c; echo notreached"},
		{"find -exec in a pipeline", "c=cat; find /w -type f -exec $c {} ';' | wc -l; echo notreached"},
		{"eval in a pipeline", "eval 'c=cat; $c /w/a' | wc -l; echo notreached"},
		{"bash -c in a background job", "bash -c 'c=cat; $c /w/a' & wait; echo notreached"},
		{"function in a pipeline", "f() { c=cat; $c /w/a; }; f | wc -l; echo notreached"},
	}
	for _, tc := range lines {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sh, logs := panicShell(t)
			res := sh.Run(context.Background(), tc.line)
			if res.ExitCode != 125 || !strings.Contains(res.Stderr, "gatehouse: internal error") {
				t.Errorf("%s: exit %d stderr %q, want 125 and an internal error", tc.line, res.ExitCode, res.Stderr)
			}
			if strings.Contains(res.Stdout, "notreached") {
				t.Errorf("%s: the line went on: %q", tc.line, res.Stdout)
			}
			if strings.Contains(res.Stderr, "boom") {
				t.Errorf("%s: the agent sees the panic: %q", tc.line, res.Stderr)
			}
			if l := logs.String(); !strings.Contains(l, "boom from the ledger") || !strings.Contains(l, "goroutine ") {
				t.Errorf("%s: the log lacks the panic or its stack: %q", tc.line, l)
			}
			if r := sh.Run(context.Background(), "echo alive"); r.Stdout != "alive\n" || r.ExitCode != 0 {
				t.Errorf("%s: the shell did not survive: %+v", tc.line, r)
			}
		})
	}
}

// G-12.3: explain meets the same ledger bug as an error, not a crash.
func TestExplainPanicIsAnError(t *testing.T) {
	t.Parallel()
	sh, logs := panicShell(t)
	if _, err := sh.Explain(context.Background(), "cat /w/a"); err == nil {
		t.Error("explain over a panicking ledger gave no error")
	}
	if !strings.Contains(logs.String(), "boom from the ledger") {
		t.Errorf("the log lacks the panic: %q", logs.String())
	}
}

// stuckHost is a ledger with another bug: a lookup blocks without looking
// at its context until the test ends.
type stuckHost struct {
	panicHost
	release chan struct{}
}

func (h stuckHost) Lookup(context.Context, Question) (Claim, bool) {
	<-h.release
	return Claim{}, false
}

func (h stuckHost) Peek(context.Context, Question) (Claim, bool) { return Claim{}, false }

func (h stuckHost) Settled(context.Context, string, []string) []string { return nil }

func (h stuckHost) Ask(context.Context, Question) (Reply, error) { return Reply{}, context.Canceled }

// G-12.3: a command that neither returns nor looks at the line's context
// (a bug) still lets the line end: its caller gets the wall-time result
// a few seconds later, the log names the line, and the session goes on in
// a fresh shell that kept the working directory.
func TestStuckCommandLeavesTheLine(t *testing.T) {
	t.Parallel()
	sh, logs := panicShell(t)
	host := stuckHost{release: make(chan struct{})}
	t.Cleanup(func() { close(host.release) })
	sh.cfg.Host = host
	sh.limits.WallTime = 300 * time.Millisecond
	if r := sh.Run(context.Background(), "cd /w; x=kept; echo $x"); r.Stdout != "kept\n" {
		t.Fatalf("setup: %+v", r)
	}
	start := time.Now()
	// c=cat is dynamic: the execution gate asks the ledger, which hangs.
	res := sh.Run(context.Background(), "c=cat; $c /w/a; echo notreached")
	if d := time.Since(start); d > stopGrace+2*time.Second {
		t.Errorf("the line took %v", d)
	}
	if res.ExitCode != 124 || !strings.Contains(res.Stderr, "wall-time limit") || !strings.Contains(res.Stderr, "shell was restarted") {
		t.Errorf("exit %d stderr %q, want 124, the wall-time message and the restart", res.ExitCode, res.Stderr)
	}
	if !strings.Contains(logs.String(), "did not stop") || !strings.Contains(logs.String(), "notreached") {
		t.Errorf("the log does not name the line: %q", logs.String())
	}
	if r := sh.Run(context.Background(), "echo alive ${x-gone}; pwd"); r.Stdout != "alive gone\n/w\n" || r.ExitCode != 0 {
		t.Errorf("the shell did not go on: %+v", r)
	}
}
