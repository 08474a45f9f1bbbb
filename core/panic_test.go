package core

import (
	"bytes"
	"context"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
	"gatehouse/core/vfs"
)

// Test utilities that panic, the way a utility bug would: in the line's
// goroutine, and in a goroutine the utility started itself.
func init() {
	utils.Register(&utils.Utility{Name: "gh-test-panic", Run: func(e *utils.Env) (int, error) {
		panic("boom from a test utility")
	}})
	utils.Register(&utils.Utility{Name: "gh-test-gopanic", Run: func(e *utils.Env) (int, error) {
		done := make(chan struct{})
		e.Go(func() {
			defer close(done)
			panic("boom from a test utility's goroutine")
		})
		<-done
		// The line is stopped; a utility that goes on notices through its
		// context, like any other cancellation.
		<-e.Ctx.Done()
		return 1, e.Ctx.Err()
	}})
}

// panickyPolicy is a coded policy with bugs: it panics on commands and
// operations that name "PANIC".
type panickyPolicy struct{}

func (panickyPolicy) PreCommand(ctx gate.CommandContext) gate.Decision {
	for _, a := range ctx.Argv {
		if strings.Contains(a, "PANIC-CMD") {
			panic("boom from a coded pre_command")
		}
	}
	return gate.NoOpinion()
}

func (panickyPolicy) PreOps(ctx gate.OpContext) gate.Decision {
	if strings.Contains(ctx.Op.Path, "PANIC-OP") {
		panic("boom from a coded pre_ops")
	}
	return gate.NoOpinion()
}

// syncBuffer is a log destination tests read while lines run.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func panicWorkspace(t *testing.T) (*Workspace, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: map[string]string{
		"a": "1\n", "PANIC-OP": "x\n", "list": "a\nb\nc\nd\n",
	}}},
		WithProfiles(gate.ProfileSpec{Name: "p"}),
		WithDefaultProfile("p"),
		WithPolicies(panickyPolicy{}),
		WithLogger(log.New(logs, "", 0)),
		WithLimits(Limits{WallTime: 20 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, logs
}

// G-12.3: a panic anywhere in a line — a utility, a goroutine a utility
// started, a coded policy judging a command or an operation, on the line's
// goroutine, a pipeline member's, a background job's or an xargs worker's —
// ends that line with exit 125 and an internal-error message, logs the
// stack for the operator, and leaves the process, the session and every
// other session running.
func TestPanicsEndOnlyTheirLine(t *testing.T) {
	t.Parallel()
	lines := []struct{ name, line string }{
		{"utility", "gh-test-panic"},
		{"utility after output", "echo before; gh-test-panic; echo notreached"},
		{"utility as pipeline writer", "gh-test-panic | cat"},
		{"utility as pipeline reader", "cat /w/list | gh-test-panic"},
		{"utility in the middle of a pipeline", "cat /w/list | gh-test-panic | wc -l"},
		{"utility in a command substitution", "echo $(gh-test-panic)"},
		{"utility in a process substitution", "cat <(gh-test-panic)"},
		{"utility in a subshell", "(gh-test-panic)"},
		{"utility in a background job", "gh-test-panic & wait"},
		{"utility in a background pipeline", "cat /w/list | gh-test-panic & wait"},
		{"utility under xargs", "echo x | xargs gh-test-panic"},
		{"utility under parallel xargs", "cat /w/list | xargs -P 3 -n 1 gh-test-panic"},
		{"utility under find -exec", "find /w -type f -exec gh-test-panic {} ';'"},
		{"utility in eval", "eval gh-test-panic"},
		{"utility in bash -c", "bash -c 'gh-test-panic | cat'"},
		{"utility in a function", "f() { gh-test-panic; }; f | cat"},
		{"goroutine of a utility", "gh-test-gopanic"},
		{"goroutine of a utility in a pipeline", "gh-test-gopanic | cat"},
	}
	for _, tc := range lines {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, logs := panicWorkspace(t)
			s, err := ws.CreateSession("victim")
			if err != nil {
				t.Fatal(err)
			}
			other, err := ws.CreateSession("bystander")
			if err != nil {
				t.Fatal(err)
			}
			// Another session is busy while the panic happens.
			busy := make(chan Result, 1)
			go func() { busy <- other.Execute(context.Background(), "for i in $(seq 200); do echo $i; done | wc -l") }()

			res := s.Execute(context.Background(), tc.line)
			if res.ExitCode != 125 || !strings.Contains(res.Stderr, "gatehouse: internal error") {
				t.Errorf("%s: exit %d stderr %q, want 125 and an internal error", tc.line, res.ExitCode, res.Stderr)
			}
			if strings.Contains(res.Stderr, "boom") || strings.Contains(res.Stderr, "goroutine ") {
				t.Errorf("%s: the agent sees the panic itself: %q", tc.line, res.Stderr)
			}
			if strings.Contains(res.Stdout, "notreached") {
				t.Errorf("%s: the line went on after the panic: %q", tc.line, res.Stdout)
			}
			log := logs.String()
			if !strings.Contains(log, "boom from") || !strings.Contains(log, "goroutine ") || !strings.Contains(log, s.ID()) {
				t.Errorf("%s: the operator's log lacks the panic, its stack or the session: %q", tc.line, log)
			}
			if r := <-busy; r.Stdout != "200\n" || r.ExitCode != 0 {
				t.Errorf("%s: the other session noticed: %+v", tc.line, r)
			}
			if r := s.Execute(context.Background(), "echo alive; cat /w/a"); r.Stdout != "alive\n1\n" || r.ExitCode != 0 {
				t.Errorf("%s: the session did not survive: %+v", tc.line, r)
			}
		})
	}
}

// G-8.4, G-12.3: a coded policy that panics, on whichever goroutine the
// line runs it, fails closed (its hook denies, the panic as reason): the
// line goes on as after any refusal, and the process, the session and other
// sessions live on.
func TestPanickingPoliciesFailClosed(t *testing.T) {
	t.Parallel()
	lines := []struct{ name, line, stderr string }{
		{"pre_command in preflight", "echo PANIC-CMD", "echo: Permission denied\n"},
		{"pre_command at the execution gate", "x=PANIC-CMD; echo $x", "echo: Permission denied\n"},
		{"pre_command in a pipeline member", "x=PANIC-CMD; echo $x | cat", "echo: Permission denied\n"},
		{"pre_command in a background job", "x=PANIC-CMD; { echo $x; } & wait", "echo: Permission denied\n"},
		{"pre_command under parallel xargs", "printf 'PANIC-CMD\\n' | xargs -P 2 -n 1 echo", ""},
		{"pre_ops on a read", "cat /w/PANIC-OP", "cat: /w/PANIC-OP: pre_ops panicked: boom from a coded pre_ops\n"},
		{"pre_ops in a redirection", "x=/w/PANIC-OP; cat < $x", "bash: /w/PANIC-OP: pre_ops panicked: boom from a coded pre_ops\n"},
		{"pre_ops in a pipeline member", "cat /w/PANIC-OP | cat", "cat: /w/PANIC-OP: pre_ops panicked: boom from a coded pre_ops\n"},
		{"pre_ops in a background job", "cat /w/PANIC-OP & wait", "cat: /w/PANIC-OP: pre_ops panicked: boom from a coded pre_ops\n"},
		{"pre_ops under find -exec", "find /w -name PANIC-OP -exec cat {} ';'", "cat: /w/PANIC-OP: pre_ops panicked: boom from a coded pre_ops\n"},
	}
	for _, tc := range lines {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, _ := panicWorkspace(t)
			s, err := ws.CreateSession("victim")
			if err != nil {
				t.Fatal(err)
			}
			res := s.Execute(context.Background(), tc.line)
			if tc.stderr != "" && res.Stderr != tc.stderr {
				t.Errorf("%s: exit %d stderr %q, want the refusal %q", tc.line, res.ExitCode, res.Stderr, tc.stderr)
			}
			if r := s.Execute(context.Background(), "echo alive; cat /w/a"); r.Stdout != "alive\n1\n" || r.ExitCode != 0 {
				t.Errorf("%s: the session did not survive: %+v", tc.line, r)
			}
		})
	}
}

// G-8.4, G-12.3: a dry run that meets a panicking policy explains the
// refusal it would give, and the process lives on.
func TestExplainSurvivesAPanickingPolicy(t *testing.T) {
	t.Parallel()
	ws, _ := panicWorkspace(t)
	s, err := ws.CreateSession("a")
	if err != nil {
		t.Fatal(err)
	}
	exps, err := s.Explain("echo PANIC-CMD")
	if err != nil || len(exps) != 1 || exps[0].Outcome != gate.Deny {
		t.Errorf("explain of a line whose policy panics: %+v %v", exps, err)
	}
	if exps, err := s.Explain("echo fine"); err != nil || len(exps) != 1 || exps[0].Outcome != gate.Run {
		t.Errorf("explain after the panic: %+v %v", exps, err)
	}
}

// G-12.3, G-10.4: an inline ask handler that panics is no answer: the ask
// stays pending, the line is refused at 126, and the process lives on.
func TestPanickingAskHandlerIsNoAnswer(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"a": "1\n"}}},
		WithProfiles(gate.ProfileSpec{Name: "p", Ask: []gate.Rule{{Reason: "check", Commands: []string{"cat"}}}}),
		WithDefaultProfile("p"),
		OnAsk(func(ctx context.Context, rec decisions.Record) (decisions.Answer, error) {
			panic("boom from an ask handler")
		}),
		WithAskTimeout(300*time.Millisecond),
		WithLogger(log.New(logs, "", 0)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("a")
	if err != nil {
		t.Fatal(err)
	}
	res := s.Execute(context.Background(), "cat /w/a")
	if res.ExitCode != 126 || res.Refusal == nil || res.Refusal.Status != "pending" {
		t.Errorf("ask with a panicking handler: %+v", res)
	}
	if !strings.Contains(logs.String(), "boom from an ask handler") {
		t.Errorf("the operator's log lacks the panic: %q", logs.String())
	}
}
