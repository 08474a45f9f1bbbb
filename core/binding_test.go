package core

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"gatehouse/core/decisions"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// bound asks about secrets and about two teams' directories, and about rm.
var bound = gate.ProfileSpec{
	Name: "bound",
	Cwd:  "/data",
	Ask: []gate.Rule{
		{Reason: "secrets need sign-off", Paths: []string{"/data/secret*.txt", "/data/secrets/*", "/data/sub/secret.txt"}},
		{Reason: "team A's files", Paths: []string{"/data/a"}},
		{Reason: "team B's files", Paths: []string{"/data/b"}},
		{Reason: "removal needs sign-off", Commands: []string{"rm"}},
	},
}

func boundMount() []vfs.MountSpec {
	return []vfs.MountSpec{{Prefix: "/data", Files: map[string]string{
		"secret.txt":     "s3cret\n",
		"secret2.txt":    "two\n",
		"secret3.txt":    "l1\nl2\n",
		"secrets/one":    "1\n",
		"secrets/two":    "2\n",
		"sub/secret.txt": "sub-secret\n",
		"plain.txt":      "plain\n",
		"s.sh":           "cat secret.txt\n",
		"a/x":            "ax\n",
		"a/y":            "ay\n",
		"b/y":            "by\n",
		"b/z":            "bz\n",
	}}}
}

func newBoundFixture(t *testing.T, opts ...Option) *askFixture {
	t.Helper()
	ws, err := NewWorkspace(boundMount(), append([]Option{WithProfiles(bound)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("agent", Profile("bound"))
	if err != nil {
		t.Fatal(err)
	}
	return &askFixture{t: t, ws: ws, s: s}
}

// runs runs lines that must succeed without asking.
func (f *askFixture) runs(lines ...string) {
	f.t.Helper()
	for _, l := range lines {
		if res := f.run(l); res.ExitCode != 0 || res.Refusal != nil {
			f.t.Fatalf("%s: exit %d, stderr %q, refusal %+v", l, res.ExitCode, res.Stderr, res.Refusal)
		}
	}
}

// hostDo changes the workspace as a host process would, behind the agent's
// back: link NAME=TARGET, write NAME=TEXT.
func (f *askFixture) hostDo(steps ...string) {
	f.t.Helper()
	v := f.ws.VFS().View(nil)
	for _, step := range steps {
		verb, arg, _ := strings.Cut(step, " ")
		name, val, _ := strings.Cut(arg, "=")
		var err error
		switch verb {
		case "link":
			v.Remove(name)
			err = v.Symlink(val, name)
		case "write":
			var file vfs.File
			if file, err = v.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); err == nil {
				_, err = io.WriteString(file.(io.Writer), val)
				file.Close()
			}
		default:
			err = fmt.Errorf("unknown step %q", step)
		}
		if err != nil {
			f.t.Fatalf("%s: %v", step, err)
		}
	}
}

// G-9.5 as amended: an answer authorises what its record showed. The same
// line text meaning something else at the retry (another target, another
// command) asks anew, and what it would now reach is never read. Each case
// first checks that the unchanged retry does run on the answer.
func TestAnswerIsBoundToWhatTheRecordShowed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		setup     []string // lines run first (no asks)
		host      []string // host changes before the first ask
		line      string
		change    []string // lines run after the answer (no asks)
		hostAfter []string // host changes after the answer
		forbidden string   // what the changed line would print
	}{
		{name: "cd between lines", line: "cat secret.txt", change: []string{"cd /data/sub"}, forbidden: "sub-secret"},
		{name: "cd through a variable in the line", setup: []string{"D=/data"}, line: "cd $D && cat secret.txt",
			change: []string{"D=/data/sub"}, forbidden: "sub-secret"},
		{name: "a changed variable", setup: []string{"F=secret.txt"}, line: "cat $F", change: []string{"F=secret2.txt"}, forbidden: "two"},
		{name: "a changed sourced script", line: "source s.sh", change: []string{"echo 'cat secret2.txt' > s.sh"}, forbidden: "two"},
		{name: "a sourced script running another command", line: "source s.sh", change: []string{"echo 'tac secret3.txt' > s.sh"}, forbidden: "l2\nl1"},
		{name: "a glob matching new files", line: "cat secrets/*", hostAfter: []string{"write /data/secrets/three=3\n"}, forbidden: "3"},
		{name: "a symlink pointed elsewhere", host: []string{"link /data/secrets/cur=one"}, line: "cat secrets/cur",
			hostAfter: []string{"link /data/secrets/cur=two"}, forbidden: "2"},
		{name: "an alias redefined", setup: []string{"shopt -s expand_aliases; alias c=cat"}, line: "c secret.txt",
			change: []string{"alias c='cat secret2.txt'"}, forbidden: "two"},
		{name: "an alias named like the command", setup: []string{"shopt -s expand_aliases"}, line: "cat secret3.txt",
			change: []string{"alias cat=tac"}, forbidden: "l2\nl1"},
		{name: "PATH pointed elsewhere and a hashed path", line: "cat secret3.txt",
			change: []string{"PATH=/nowhere; hash -p /usr/bin/tac cat; cat() { tac secret3.txt; }"}, forbidden: "l2\nl1"},
		{name: "a function redefined", setup: []string{"f() { cat secret.txt; }"}, line: "f",
			change: []string{"f() { cat secret2.txt; }"}, forbidden: "two"},
		{name: "a function shadowing the command", line: "cat secret.txt",
			change: []string{"cat() { command tac secret3.txt; }"}, forbidden: "l2\nl1"},
		{name: "an eval string from a variable", setup: []string{"C='cat secret.txt'"}, line: `eval "$C"`,
			change: []string{"C='cat secret2.txt'"}, forbidden: "two"},
		{name: "an eval string running another command", setup: []string{"C='cat secret3.txt'"}, line: `eval "$C"`,
			change: []string{"C='tac secret3.txt'"}, forbidden: "l2\nl1"},
		{name: "bash -c from a variable", setup: []string{"C='cat secret.txt'"}, line: `bash -c "$C"`,
			change: []string{"C='cat secret2.txt'"}, forbidden: "two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newBoundFixture(t)
			f.hostDo(tt.host...)
			f.runs(tt.setup...)

			// Control: the unchanged retry runs on its answer.
			f.allowAll(f.pendingIDs(f.run(tt.line), 1))
			if res := f.run(tt.line); res.ExitCode != 0 || res.Refusal != nil {
				t.Fatalf("the unchanged retry: %+v", res)
			}

			first := f.pendingIDs(f.run(tt.line), 1)
			f.allowAll(first)
			f.runs(tt.change...)
			f.hostDo(tt.hostAfter...)
			res := f.run(tt.line)
			again := f.pendingIDs(res, 1)
			if again[0] == first[0] {
				t.Errorf("the retry with other facts reused ask %s", first[0])
			}
			if strings.Contains(res.Stdout, tt.forbidden) {
				t.Errorf("the retry printed %q: %q", tt.forbidden, res.Stdout)
			}
			rec, err := f.ws.Decisions().Get(context.Background(), again[0])
			if err != nil || !rec.Pending() {
				t.Errorf("the new question: %+v, %v", rec, err)
			}
		})
	}
}

// G-9.5, G-9.7 within one run: later iterations of the same command at the
// place run on its answer, but never a different command there.
func TestLoopRunsTheAnsweredCommandOnly(t *testing.T) {
	t.Parallel()
	f := newBoundFixture(t)
	line := "for c in cat tac; do $c secret3.txt; done"
	first := f.pendingIDs(f.run(line), 1)
	if rec, _ := f.ws.Decisions().Get(context.Background(), first[0]); rec.Command != "cat secret3.txt" {
		t.Fatalf("the question is about %q, want cat", rec.Command)
	}
	f.allowAll(first)
	res := f.run(line)
	ids := f.pendingIDs(res, 1)
	if res.Stdout != "l1\nl2\n" || ids[0] == first[0] {
		t.Fatalf("answered for cat, the loop printed %q and asked %v; want cat's output and a new question for tac", res.Stdout, ids)
	}
	if rec, _ := f.ws.Decisions().Get(context.Background(), ids[0]); rec.Command != "tac secret3.txt" {
		t.Errorf("the second question is about %q, want tac", rec.Command)
	}

	// The same command over other operands in later iterations rides on
	// the answer (as xargs batches do).
	g := newBoundFixture(t)
	line = "for f in secret.txt secret2.txt; do cat $f; done"
	g.allowAll(g.pendingIDs(g.run(line), 1))
	if res := g.run(line); res.ExitCode != 0 || res.Stdout != "s3cret\ntwo\n" {
		t.Errorf("later iterations of the answered command: %+v", res)
	}
}

// G-4.10: a command meeting two ask rules raises one record naming both
// rules and their paths; answering it once runs the command.
func TestOneRecordNamesEveryRule(t *testing.T) {
	t.Parallel()
	f := newBoundFixture(t)
	ids := f.pendingIDs(f.run("cat a/x b/y secret.txt"), 1)
	rec, err := f.ws.Decisions().Get(context.Background(), ids[0])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rec.Rules {
		got = append(got, r.Reason+"@"+strings.Join(r.Paths, ","))
	}
	want := []string{"team A's files@/data/a/x", "team B's files@/data/b/y", "secrets need sign-off@/data/secret.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("record rules = %q, want %q", got, want)
	}
	if rec.Reason != "team A's files" || !slices.Equal(rec.Paths, []string{"/data/a/x", "/data/b/y", "/data/secret.txt"}) {
		t.Errorf("record = %+v", rec)
	}
	f.allowAll(ids)
	if res := f.run("cat a/x b/y secret.txt"); res.ExitCode != 0 || res.Stdout != "ax\nby\ns3cret\n" {
		t.Fatalf("retry: %+v", res)
	}

	// A command-axis ask and a path ask: one record, both rules.
	ids = f.pendingIDs(f.run("rm secret2.txt"), 1)
	rec, _ = f.ws.Decisions().Get(context.Background(), ids[0])
	if len(rec.Rules) != 2 || rec.Rules[0].Reason != "removal needs sign-off" || rec.Rules[1].Reason != "secrets need sign-off" ||
		!slices.Equal(rec.Rules[1].Paths, []string{"/data/secret2.txt"}) || len(rec.Rules[0].Paths) != 0 {
		t.Errorf("rm of a secret: rules %+v", rec.Rules)
	}
}

// G-9.5, G-4.10: allow for session settles each rule its record named, and
// nothing else: a command meeting another rule too asks for that rule
// alone, and its record names only it.
func TestSessionAnswerSettlesItsRulesOnly(t *testing.T) {
	t.Parallel()
	f := newBoundFixture(t)
	ids := f.pendingIDs(f.run("cat a/x"), 1)
	f.answer(ids[0], decisions.Allow, decisions.Session)
	f.runs("cat a/y", "cat a/x a/y")
	line := "cat a/x b/y"
	res := f.run(line)
	ids = f.pendingIDs(res, 1)
	if res.Stderr != "cat: b/y: team B's files\n" || res.Refusal.Reason != "team B's files" {
		t.Errorf("the rule left asking: stderr %q, refusal %+v", res.Stderr, res.Refusal)
	}
	rec, _ := f.ws.Decisions().Get(context.Background(), ids[0])
	if len(rec.Rules) != 1 || rec.Rules[0].Reason != "team B's files" || rec.Reason != "team B's files" {
		t.Errorf("record rules = %+v, want team B's alone", rec.Rules)
	}
	f.allowAll(ids)
	if res := f.run(line); res.ExitCode != 0 || res.Stdout != "ax\nby\n" {
		t.Errorf("retry: %+v", res)
	}
	// Team B was answered once: it asks again; team A stays settled.
	f.pendingIDs(f.run("cat b/z"), 1)
}

// G-4.10: an answer opens at the op door only the rules its record named
// at the paths it showed. A link the command reads through into another
// rule's files is judged on both paths, so its record names both rules
// (G-6.1a); pointed elsewhere after the answer, it meets the refusal there.
func TestAnswerNeverOpensAnotherRule(t *testing.T) {
	t.Parallel()
	f := newBoundFixture(t)
	f.hostDo("link /data/a/link=../b/y")
	line := "cat a/link"
	ids := f.pendingIDs(f.run(line), 1)
	rec, _ := f.ws.Decisions().Get(context.Background(), ids[0])
	var shown []string
	for _, r := range rec.Rules {
		shown = append(shown, r.Reason+" "+strings.Join(r.Paths, ","))
	}
	slices.Sort(shown)
	if want := []string{"team A's files /data/a/link", "team B's files /data/b/y"}; !slices.Equal(shown, want) {
		t.Fatalf("record rules = %q, want %q", shown, want)
	}
	f.allowAll(ids)
	if res := f.run(line); res.ExitCode != 0 || res.Stdout != "by\n" {
		t.Fatalf("the answered retry: %+v", res)
	}
	f.hostDo("link /data/a/link=../b/z")
	res := f.run(line)
	if strings.Contains(res.Stdout, "bz") || res.ExitCode != 126 || res.Refusal == nil || res.Refusal.Status != "pending" {
		t.Errorf("an answer for team B's y read its z: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}

	// A line's answered path opens a redirection of that very path, not
	// another path of the same rule.
	g := newBoundFixture(t)
	line = "cat a/x; cat < a/y"
	g.allowAll(g.pendingIDs(g.run(line), 2))
	if res := g.run(line); res.ExitCode != 0 || res.Stdout != "ax\nay\n" {
		t.Fatalf("both answered: %+v", res)
	}
	line = "cat a/x; F=a/y; cat < $F"
	g.allowAll(g.pendingIDs(g.run(line), 1))
	if res := g.run(line); strings.Contains(res.Stdout, "ay") {
		t.Errorf("a redirection reached another path of the answered rule: %+v", res)
	}
}

// G-10.4 with G-4.10 and G-9.5: an inline handler is shown the record with
// every rule; its once answer runs exactly that command, and a retry with
// other facts asks the handler again.
func TestInlineAnswerIsBoundToo(t *testing.T) {
	t.Parallel()
	var asked []decisions.Record
	handler := func(ctx context.Context, rec decisions.Record) (decisions.Answer, error) {
		asked = append(asked, rec)
		return decisions.Answer{Outcome: decisions.Allow}, nil
	}
	f := newBoundFixture(t, OnAsk(handler))
	f.runs("F=a/x")
	if res := f.run("cat $F b/y"); res.ExitCode != 0 || res.Stdout != "ax\nby\n" {
		t.Fatalf("answered inline: %+v", res)
	}
	if len(asked) != 1 || len(asked[0].Rules) != 2 {
		t.Fatalf("the handler saw %+v, want one record naming both rules", asked)
	}
	f.runs("F=a/y")
	if res := f.run("cat $F b/y"); res.ExitCode != 0 || res.Stdout != "ay\nby\n" {
		t.Fatalf("second line: %+v", res)
	}
	if len(asked) != 2 || asked[1].Argv[1] != "a/y" {
		t.Errorf("the changed line was not asked again: %d records", len(asked))
	}
}

// G-9.3, G-9.5: after a cd preflight cannot read, the commands that follow
// are asked about where they really run (at the execution gate), not about
// a guessed cwd: one question, showing the path the line reads, and its
// answer runs the line.
func TestUnknownCwdIsAskedWhereTheLineRuns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ setup, line string }{
		{"D=/data/sub", "cd $D && cat secret.txt"},
		{"cd /data/sub", "cd - >/dev/null; cd - >/dev/null && cat secret.txt"},
		{"", "pushd /data/sub >/dev/null && cat secret.txt"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			f := newBoundFixture(t)
			if tc.setup != "" {
				f.runs(tc.setup)
			}
			ids := f.pendingIDs(f.run(tc.line), 1)
			rec, _ := f.ws.Decisions().Get(context.Background(), ids[0])
			if !slices.Equal(rec.Paths, []string{"/data/sub/secret.txt"}) || rec.Cwd != "/data/sub" {
				t.Errorf("the question shows cwd %q, paths %q; want where the line reads", rec.Cwd, rec.Paths)
			}
			f.allowAll(ids)
			if res := f.run(tc.line); res.ExitCode != 0 || res.Stdout != "sub-secret\n" {
				t.Errorf("retry after the one answer: %+v", res)
			}
		})
	}
}

// G-9.5: an allow for session settles the rule the human saw. When the
// document is edited so that another rule (another reason, other paths)
// now stands where it was written, that rule asks: the grant does not pass
// to whatever sits at the old position.
func TestSessionGrantDoesNotPassToAnotherRuleAtItsPlace(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/ledger.db"
	open := func(reason string, paths ...string) *Session {
		spec := bound
		spec.Ask = []gate.Rule{{Reason: reason, Paths: paths}} // one call site: one Rule string
		ws, err := NewWorkspace(boundMount(), WithProfiles(spec), WithLedger(path))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		s, err := ws.OpenSession("s1", "agent", Profile("bound"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ctx := context.Background()
	before := open("secrets need sign-off", "/data/secret.txt")
	res := before.Execute(ctx, "cat secret.txt")
	if res.Refusal == nil || res.Refusal.AskID == "" {
		t.Fatalf("first: %+v", res)
	}
	if _, err := before.ws.Decisions().Answer(ctx, res.Refusal.AskID, decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Session}); err != nil {
		t.Fatal(err)
	}
	if res := before.Execute(ctx, "cat secret.txt"); res.ExitCode != 0 {
		t.Fatalf("after allow for session: %+v", res)
	}
	after := open("the plain file is audited", "/data/plain.txt")
	if res := after.Execute(ctx, "cat plain.txt"); res.ExitCode != 126 || res.Refusal == nil || res.Refusal.Status != "pending" {
		t.Errorf("another rule at the old rule's place ran on its session grant: %+v", res)
	}
}

// G-10.4, G-9.5: an inline allow for session settles its rule for the rest
// of the same line too: a later command meeting only that rule runs
// without asking the host again.
func TestInlineSessionAnswerCoversTheRestOfTheLine(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := 0
	handler := func(ctx context.Context, rec decisions.Record) (decisions.Answer, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		return decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Session}, nil
	}
	f := newBoundFixture(t, OnAsk(handler))
	f.runs("F=a/y")
	if res := f.run("cat a/x; cat $F; cat a/x"); res.ExitCode != 0 || res.Stdout != "ax\nay\nax\n" {
		t.Fatalf("%+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 {
		t.Errorf("the handler was asked %d times, want once", calls)
	}
}

// G-9.5, G-9.7: an allow once is one run. When the retry runs the answered
// command and then stops on a question the run met later (a path known only
// once a variable was expanded), the answer was used: the next retry asks
// again rather than running the command a second time. An answer for a
// command the run never reached before it stopped still stands.
func TestAllowOnceRunsOnceWhenALaterQuestionWaits(t *testing.T) {
	t.Parallel()
	lines := []struct{ name, line string }{
		{"an answered command", "echo hi | tee -a a/log >/dev/null; F=b/y; cat $F"},
		{"an answered redirection", "echo hi >> a/log; F=b/y; cat $F"},
		{"in a loop body", "for f in a/log b/y; do echo hi >> a/log; cat $f; break; done; F=b/y; cat $F"},
	}
	for _, tt := range lines {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newBoundFixture(t)
			f.allowAll(f.pendingIDs(f.run(tt.line), 1))
			for range 3 {
				res := f.run(tt.line)
				f.pendingIDs(res, 1)
			}
			f.assertFile("/data/a/log", "hi\n") // allowed once, it ran once
		})
	}

	// The run stopped before it reached the answered command: the answer
	// stands for the retry once the other question is answered.
	f := newBoundFixture(t)
	line := "F=b/y; cat $F; cat a/x"
	f.allowAll(f.pendingIDs(f.run(line), 1))
	f.allowAll(f.pendingIDs(f.run(line), 1))
	if res := f.run(line); res.ExitCode != 0 || res.Stdout != "by\nax\n" {
		t.Fatalf("with both questions answered the retry: %+v", res)
	}
}

// G-9.5: an answer to a question that read a path lets the rest of the line
// read it, not write, move or remove it. The later write is known only when
// the run reaches it (a variable, a utility's own output file, a directory
// above the asked path), so no question showed it to the human.
func TestReadAnswerNeverLetsTheLineWrite(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, line string }{
		{"a redirection through a variable", `F=secret.txt; cat secret.txt; echo pwned > $F`},
		{"an appending redirection", `F=secret.txt; cat secret.txt; echo pwned >> $F`},
		{"a utility's own output file", `cat secret.txt; awk -v f=secret.txt 'BEGIN { print "pwned" > f }'`},
		{"the asked file moved away", `cat secret.txt; F=secret.txt; mv $F opened.txt`},
		{"its directory moved away", `cat sub/secret.txt; D=sub; mv $D opened`},
		{"its directory renamed through find", `cat sub/secret.txt; find . -maxdepth 1 -name su? -exec mv {} opened \;`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newBoundFixture(t)
			f.allowAll(f.pendingIDs(f.run(tt.line), 1))
			res := f.run(tt.line)
			if !strings.Contains(res.Stdout, "s3cret") && !strings.Contains(res.Stdout, "sub-secret") {
				t.Fatalf("the answered read did not run: %+v", res)
			}
			f.assertFile("/data/secret.txt", "s3cret\n")
			f.assertFile("/data/sub/secret.txt", "sub-secret\n")
			for _, p := range []string{"/data/opened", "/data/opened.txt"} {
				if _, err := f.ws.VFS().View(nil).Stat(p); err == nil {
					t.Errorf("%s exists: the asked file left its rule", p)
				}
			}
		})
	}

	// A question that showed the write lets the line make it.
	f := newBoundFixture(t)
	line := "echo more >> secret.txt; cat secret.txt"
	f.allowAll(f.pendingIDs(f.run(line), 2))
	if res := f.run(line); res.ExitCode != 0 || res.Stdout != "s3cret\nmore\n" {
		t.Errorf("the answered write: %+v", res)
	}
}
