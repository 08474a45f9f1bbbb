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
