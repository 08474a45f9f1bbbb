package gate_test

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/gate/internal/policyrun"
)

// stopBound is how long a refusal may take in these tests: the time-out
// (100 ms of the call's CPU) plus the wall backstop, plus a generous margin
// for a loaded machine. Every program below ran for minutes, or took the
// process down, before the bounds existed.
const stopBound = 10 * time.Second

// A ReDoS input for the lookahead and backreference patterns below.
const redos = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

// G-8.4: programs stop on time whatever they are stuck in, the line is
// refused with a reason that names the program, and the profile keeps
// working for the next command.
func TestPolicyStopsOnTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, engine, body string
		// want is what the deny reason holds: "timed out" for a program
		// stopped at its time-out, else the bound's exception.
		want string
	}{
		{"an endless loop", "javascript", `for (;;) {}`, "timed out"},
		{"an endless loop", "starlark", "while True:\n            pass", "timed out"},
		{"a lookahead that backtracks", "javascript", `return /^(?=(a+)+b)/.test("` + redos + `") ? "deny" : null;`, "timed out"},
		{"a backreference that backtracks", "javascript", `return /^(a*)*\1b/.test("` + redos + `") ? "deny" : null;`, "timed out"},
		{"backtracking matches caught in a loop", "javascript", `for (;;) { try { /^(?=(a+)+b)/.test("` + redos + `"); } catch (e) {} }`, "timed out"},
		{"a backtracking pattern built at run time", "javascript", `return new RegExp("^(?=(a+)+b)").test("` + redos + `") ? null : "deny";`, "timed out"},
		{"a backtracking String.prototype.match", "javascript", `return "` + redos + `".match("^(a+)+\\1b") ? null : "deny";`, "timed out"},
		{"recursion without end", "javascript", `function f(n) { return f(n + 1) + 1; } f(0);`, "Maximum call stack size exceeded"},
		{"recursion through a builtin", "javascript", `function g() { return [1].map(g); } g();`, "Maximum call stack size exceeded"},
		{"recursion without end", "starlark", "def f(n):\n            return f(n + 1)\n        f(0)", "ran past"},
		{"a huge string repeat", "javascript", `"a".repeat(1 << 29);`, "String.prototype.repeat: the result would be over"},
		{"a huge padEnd", "javascript", `"a".padEnd(1 << 29);`, "String.prototype.padEnd: the result would be over"},
		{"a huge fill", "javascript", `new Array(1e8).fill(1);`, "Array.prototype.fill: a length over"},
		{"a huge join", "javascript", `new Array(1e9).join("x");`, "Array.prototype.join: a length over"},
		{"a huge Array.from", "javascript", `Array.from({length: 1e8});`, "Array.from: a length over"},
		{"a huge indexOf", "javascript", `new Array(1e9).indexOf(1);`, "Array.prototype.indexOf: a length over"},
		{"a typed array", "javascript", `new Uint8Array(1 << 30);`, "Uint8Array is not defined"},
		{"JSON nested millions deep", "javascript", `JSON.parse("[".repeat(3000000));`, "JSON.parse: nested deeper than 1000"},
		{"a huge range", "starlark", "x = list(range(1 << 27))", "range: more than"},
	}
	for _, tt := range tests {
		t.Run(tt.engine+"/"+tt.name, func(t *testing.T) {
			t.Parallel()
			code := "def pre_command(ctx):\n    if ctx[\"command\"] == \"cat\":\n        " + tt.body + "\n    return None\n"
			if tt.engine == "javascript" {
				code = "function preCommand(ctx) { if (ctx.command === \"cat\") { " + tt.body + " } return null; }"
			}
			timed := strings.Contains(tt.want, "timed out") || strings.Contains(tt.want, "ran past")
			timeout := gate.DefaultPolicyTimeout
			if !timed {
				timeout = patientTimeout // the bound answers, not the clock
			}
			p, _ := compileGuardedTimeout(t, tt.engine, code, timeout)
			start := time.Now()
			v := p.Judge(catReadme)
			if took := time.Since(start); took > stopBound {
				t.Errorf("the refusal took %v", took)
			}
			if v.Outcome != gate.Deny || v.Refusal == nil || !strings.Contains(v.Refusal.Reason, tt.want) {
				t.Fatalf("got %s, want a deny holding %q", verdictText(v), tt.want)
			}
			if timed {
				want := "policy " + programName(tt.engine) + " timed out: " + hookName(tt.engine, "pre_command") + " ran past 100ms"
				if v.Refusal.Reason != want || !v.Refusal.TimedOut() {
					t.Errorf("reason %q (timed out %v), want %q", v.Refusal.Reason, v.Refusal.TimedOut(), want)
				}
			} else if v.Refusal.TimedOut() {
				t.Errorf("a bound's exception reads as a time-out: %s", verdictText(v))
			}
			if v := p.Judge(line("/repo", "ls", words("ls"))); v.Outcome != gate.Run {
				t.Errorf("after it, ls = %s, want run", verdictText(v))
			}
		})
	}
}

// G-8.4: a backtracking match stopped by its own bound reads as "no match"
// to the program; the call is refused as timed out all the same, never
// answered as if the pattern had not matched.
func TestBacktrackingNeverFailsOpen(t *testing.T) {
	t.Parallel()
	code := `function preCommand(ctx) { if (/^(?=(a+)+b)/.test(ctx.argv[1] || "")) { return {deny: "a match"}; } return null; }`
	p, _ := compileGuardedTimeout(t, "javascript", code, gate.DefaultPolicyTimeout)
	v := p.Judge(line("/repo", "cat "+redos, words("cat", redos)))
	if v.Outcome != gate.Deny || !v.Refusal.TimedOut() {
		t.Fatalf("got %s, want the time-out", verdictText(v))
	}
	if v := p.Judge(line("/repo", "cat aab", words("cat", "aab"))); v.Outcome != gate.Deny || v.Refusal.Reason != "a match" {
		t.Errorf("a plain match: %s", verdictText(v))
	}
}

// G-8.4: the time-out counts the call's own running time. A call that is
// slow only because other goroutines hold every CPU is not denied; wall
// time alone would have denied it. Past the wall backstop a refusal is
// right whatever the CPU clock says, and how far a call is starved also
// depends on the rest of the machine: an attempt that ran past the
// backstop proves nothing either way and is made again.
func TestStarvedCallsAreNotDenied(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the per-thread CPU clock is read on Linux")
	}
	t.Parallel()
	const timeout = 200 * time.Millisecond
	backstop := timeout + policyrun.BackstopSlack
	// Calibrate a hook that does a quarter of the time-out's work.
	code := func(n int) string {
		return "def pre_command(ctx):\n    x = 0\n    for i in range(" + itoa(n) + "):\n        x += i\n    return None\n"
	}
	n := 1000
	for {
		p, _ := compileGuardedTimeout(t, "starlark", code(n), gate.MaxPolicyTimeout)
		start := time.Now()
		p.Judge(catReadme)
		if time.Since(start) > timeout/4 || n > policyrun.MaxElements/2 {
			break
		}
		n *= 2
	}
	p, _ := compileGuardedTimeout(t, "starlark", code(n), timeout)
	for attempt := 1; ; attempt++ {
		v, took := judgeStarved(p)
		if took < backstop {
			if v.Outcome != gate.Run {
				t.Errorf("a starved call (%v of wall time for about %v of work) was refused: %s", took, timeout/4, verdictText(v))
			}
			t.Logf("the starved call took %v of wall time", took)
			return
		}
		t.Logf("attempt %d: the call took %v, past the wall backstop: the machine starved it further than the test did", attempt, took)
		if attempt == 5 {
			t.Skip("every attempt ran past the wall backstop: the machine is too loaded to tell")
		}
	}
}

// judgeStarved judges catReadme while spinners outnumbering the CPUs
// several times over starve the call, and says how long it took.
func judgeStarved(p *gate.Profile) (gate.Verdict, time.Duration) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
			}
		}()
	}
	start := time.Now()
	v := p.Judge(catReadme)
	took := time.Since(start)
	stop.Store(true)
	wg.Wait()
	return v, took
}

// G-8.4: a document may not ask for more than MaxPolicyTimeout per call,
// and the top level of a program is bounded like a call.
func TestPolicyTimeoutBounds(t *testing.T) {
	t.Parallel()
	fsys := policyFS(t)
	spec := guardedSpec("starlark", "def pre_command(ctx):\n    return None\n", gate.MaxPolicyTimeout+time.Millisecond)
	if _, err := gate.Compile(spec, gateMounts(fsys), withEngines, gate.WithFS(fsys)); err == nil || !strings.Contains(err.Error(), "timeout 2.001s is over the limit of 2s per call") {
		t.Errorf("a 2.001s time-out: %v", err)
	}
	spec = guardedSpec("javascript", `/^(?=(a+)+b)/.test("`+redos+`");`, 0)
	spec.Policy.Name = "guard.js"
	if _, err := gate.Compile(spec, gateMounts(fsys), withEngines, gate.WithFS(fsys)); err == nil || !strings.Contains(err.Error(), "the top level timed out after 100ms") {
		t.Errorf("a top level stuck in a regular expression: %v", err)
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
