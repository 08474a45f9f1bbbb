package core

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"gatehouse/core/vfs"
)

func limitsWorkspace(t *testing.T, l Limits) *Session {
	t.Helper()
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"a": "1\n", "d/b": "2\n"}}}, WithLimits(l))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("t")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// G-12.2: pipelines behave as in bash, and writers stop when readers do.
func TestPipelinesTerminate(t *testing.T) {
	t.Parallel()
	s := limitsWorkspace(t, Limits{})
	cases := []struct{ line, want string }{
		{"seq 1 1000000 | sort -rn | head -3", "1000000\n999999\n999998\n"},
		{"yes | head -5", "y\ny\ny\ny\ny\n"},
		{"yes abc | head -c 8", "abc\nabc\n"},
		{"find /w -type f | wc -l", "2\n"},
		{"cat /dev/zero | head -c 3 | wc -c", "3\n"},
	}
	for _, tc := range cases {
		start := time.Now()
		res := s.Execute(context.Background(), tc.line)
		if res.Stdout != tc.want || res.ExitCode != 0 {
			t.Errorf("%s: %+v", tc.line, res)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s took %v", tc.line, d)
		}
	}
}

// G-12.3: each runaway line ends with 124/125 and a clear message; the
// session survives for the next line.
func TestRunawayLinesEndAndSessionSurvives(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		limits Limits
		line   string
		code   int
		msg    string
	}{
		{"endless loop", Limits{WallTime: 300 * time.Millisecond, Commands: 1 << 30}, "while true; do :; done", 124, "wall-time limit"},
		{"endless output", Limits{OutputBytes: 1 << 16, Commands: 1 << 30}, "while true; do echo x; done", 125, "output"},
		{"cat /dev/zero", Limits{OutputBytes: 1 << 16}, "cat /dev/zero", 125, "output"},
		{"command count", Limits{Commands: 100}, "for i in $(seq 1 1000); do true; done", 125, "limit of 100 commands"},
		{"nesting depth", Limits{Depth: 10}, "f() { f; }; f", 125, "nesting depth limit of 10"},
		{"background jobs", Limits{BackgroundJobs: 3}, "for i in 1 2 3 4 5; do sleep 1 & done", 125, "limit of 3 background jobs"},
		{"sleep past wall time", Limits{WallTime: 200 * time.Millisecond}, "sleep 10", 124, "wall-time limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := limitsWorkspace(t, tc.limits)
			start := time.Now()
			res := s.Execute(context.Background(), tc.line)
			if res.ExitCode != tc.code || !strings.Contains(res.Stderr, tc.msg) {
				t.Errorf("exit %d stderr %q, want %d and %q", res.ExitCode, tail(res.Stderr), tc.code, tc.msg)
			}
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("took %v", d)
			}
			if len(res.Stdout) > 1<<20 {
				t.Errorf("stdout grew to %d bytes", len(res.Stdout))
			}
			next := s.Execute(context.Background(), "echo alive; cat /w/a")
			if next.Stdout != "alive\n1\n" || next.ExitCode != 0 {
				t.Errorf("the session did not survive: %+v", next)
			}
		})
	}
}

func tail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}

// G-12.3: a fork bomb's parent returns at once, as in bash; its jobs hit the
// background-job limit and are stopped with the line, and the session goes on.
func TestForkBombIsContained(t *testing.T) {
	t.Parallel()
	s := limitsWorkspace(t, Limits{WallTime: 10 * time.Second})
	before := runtime.NumGoroutine()
	start := time.Now()
	res := s.Execute(context.Background(), ":(){ :|:& };:")
	// 0 when the parent returns before its jobs trip a limit, as in bash;
	// 124/125 when a limit ends the line first (slow machines, -race).
	if res.ExitCode != 0 && res.ExitCode != 124 && res.ExitCode != 125 {
		t.Errorf("bomb: %+v", res)
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before+50 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+50 {
		t.Errorf("%d goroutines still running %v after the bomb", n, time.Since(start))
	}
	if next := s.Execute(context.Background(), "echo alive"); next.Stdout != "alive\n" {
		t.Errorf("the session did not survive: %+v", next)
	}
}

// G-12.3: wall time ends lines whose utilities loop over endless input or
// output without looking at the time themselves, blocked pipelines and
// reads included; the session runs the next line.
func TestWallTimeEndsEveryLine(t *testing.T) {
	t.Parallel()
	lines := []string{
		"cat /dev/zero > /dev/null",
		"cp /dev/zero /dev/null",
		"wc -c /dev/zero",
		"sha256sum /dev/zero",
		"md5sum < /dev/zero",
		"tr -d x < /dev/zero > /dev/null",
		"od /dev/zero > /dev/null",
		"tee /dev/null < /dev/zero > /dev/null",
		"yes > /dev/null",
		"yes | tail -1",
		"yes | head -n -1 > /dev/null",
		"seq 1e18 > /dev/null",
		"sleep 100 | cat",
		"cat /dev/zero | cat > /dev/null",
		"read x < /dev/zero",
		"cat /dev/zero | read x",
		"while :; do :; done",
		"sleep 1000 & wait",
		"echo $(sleep 1000)",
		"cat <(sleep 1000)",
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			s := limitsWorkspace(t, Limits{WallTime: 500 * time.Millisecond, Commands: 1 << 30})
			start := time.Now()
			res := s.Execute(context.Background(), line)
			if res.ExitCode != 124 || !strings.HasSuffix(res.Stderr, "gatehouse: line exceeded the wall-time limit (500ms)\n") {
				t.Errorf("exit %d stderr %q, want 124 and the wall-time message last", res.ExitCode, tail(res.Stderr))
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %v", d)
			}
			if next := s.Execute(context.Background(), "echo alive"); next.Stdout != "alive\n" {
				t.Errorf("the session did not survive: %+v", next)
			}
		})
	}
}

// G-12.3: a pattern matched against a large value ([[ == ]], [[ =~ ]],
// case, ${x%pat}, ${x/pat/rep}, ${x^^pat}) ends with the line rather than
// when the match does (one regular expression search over 10 MB can run
// for minutes). Each match takes at least 2.5 s on 40 MB on an idle
// machine (the lightest, ${x^^[abc]} and =~, about 0.6-0.8 s per 10 MB),
// so a 1 s wall time must be what ends it.
func TestLongMatchesEndWithTheLine(t *testing.T) {
	t.Parallel()
	const build = `x=$(printf '%*s' 40000000 ''); echo built; `
	matches := []string{
		`[[ $x == *' '*' '*' '*' '*' '*' '*' '*' '*' '*' '*' '*x ]]`,
		`[[ $x =~ ((a|b| |c|.)*)*x ]]`,
		`case $x in *' '*' '*' '*' '*' '*' '*' '*' '*' '*' '*' '*x) ;; esac`,
		`y=${x%%* * * * * * * * * * * *x}`,
		`y=${x/* * * * * * * * * * * *x/}`,
		`y=${x#* * * * * * * * * * * *x}`,
		`y=${x^^[abc]}`,
	}
	for _, m := range matches {
		t.Run(m, func(t *testing.T) {
			t.Parallel()
			s := limitsWorkspace(t, Limits{WallTime: time.Second, Commands: 1 << 30})
			start := time.Now()
			res := s.Execute(context.Background(), build+m+"; echo notreached")
			if res.ExitCode != 124 || !strings.HasSuffix(res.Stderr, "gatehouse: line exceeded the wall-time limit (1s)\n") || strings.Contains(res.Stdout, "notreached") {
				t.Errorf("exit %d stdout %q stderr %q, want 124 and the wall-time message last", res.ExitCode, res.Stdout, tail(res.Stderr))
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// G-12.3: the stoppable matching of large values gives the answers of the
// ordinary one.
func TestLargeValuesMatchAsSmallOnes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("matches over 4 MB")
	}
	s := limitsWorkspace(t, Limits{WallTime: time.Minute, Commands: 1 << 30})
	// 800,000 lines of "ab c" and END: 4,000,003 bytes.
	if res := s.Execute(context.Background(), `x=$(yes 'ab c' | head -n 800000); x=$x$'\nEND'; echo ${#x}`); res.Stdout != "4000003\n" {
		t.Fatalf("setup: %+v", res)
	}
	// What bash answers (checked on three lines).
	cases := []struct{ line, want string }{
		{`[[ $x == a*c?E*D ]] && echo yes`, "yes\n"},
		{`[[ $x == a*c?E*X ]] || echo no`, "no\n"},
		{`[[ $x =~ (ab c[^E])+E(N)D$ ]] && echo ${BASH_REMATCH[2]} ${#BASH_REMATCH[0]}`, "N 4000003\n"},
		{`case $x in a*c?END) echo case;; esac`, "case\n"},
		{`y=${x%%[bc ]*}; echo "[$y]"`, "[a]\n"},
		{`y=${x%[bc ]*}; echo ${#y}`, "3999998\n"},
		{`y=${x#[ab]*b}; echo ${#y}`, "4000001\n"},
		{`echo "${x##*c?}"`, "END\n"},
		{`y=${x/c?E/Z}; echo ${#y} ${y: -3}`, "4000001 ZND\n"},
		{`y=${x//[bc] /_}; echo ${#y} ${y:0:3}`, "3200003 a_c\n"},
		{`y=${x^^[a-c]}; echo "${y:0:4} ${y: -3}"`, "AB C END\n"},
	}
	for _, tc := range cases {
		if res := s.Execute(context.Background(), tc.line); res.Stdout != tc.want || res.ExitCode != 0 {
			t.Errorf("%s: exit %d stdout %q stderr %q, want %q", tc.line, res.ExitCode, tail(res.Stdout), tail(res.Stderr), tc.want)
		}
	}
}

// G-12.3: the Session's file operations end with the wall time too: a read
// of a device without end fails with the wall-time message, and the
// session goes on.
func TestFileOperationsEndWithTheWallTime(t *testing.T) {
	t.Parallel()
	s := limitsWorkspace(t, Limits{WallTime: 300 * time.Millisecond})
	start := time.Now()
	_, err := s.ReadFile(context.Background(), "/dev/zero", FileWindow{})
	var fe *FileError
	if !errors.As(err, &fe) || fe.ExitCode != 124 || !strings.Contains(fe.Stderr, "wall-time limit") {
		t.Errorf("read_file /dev/zero: %v", err)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("took %v", d)
	}
	if text, err := s.ReadFile(context.Background(), "/w/a", FileWindow{}); err != nil || len(text.Lines) != 1 {
		t.Errorf("the session did not survive: %+v %v", text, err)
	}
}
