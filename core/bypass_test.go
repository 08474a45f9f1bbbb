package core

// The bypass suite: attempts by an agent to get past the gate,
// grouped by technique, against one deliberately ordinary profile.
//
// Each attempt is judged by a twin. An attempt is refused when the agent
// cannot tell the world it runs in from a twin world in which the protected
// thing differs or does not exist at all:
//
//   - reading the denied /vault/aws.token: the twin's token has other bytes
//     of the same length, so no content, oracle or error text may depend on
//     them;
//   - detecting the hidden /vault/internal: the twin has no such directory,
//     so every listing, size, existence test and error must be
//     byte-identical (G-4.5);
//   - seeing AWS_SECRET_ACCESS_KEY (vars.hide): the twin's profile never
//     sets it (G-5.5);
//   - running `sort` (not installed): the twin line spells a command no
//     runtime provides, and the answers must be identical once the name is
//     mapped back (G-3.2);
//   - writing under the ro mount /ro: there is no twin; the mount is read
//     through the VFS afterwards and must be unchanged (G-5.2).
//
// On top of its own judge, every attempt is checked for the protected bytes
// in any output, for laundered copies anywhere in the VFS, and for host
// paths in any output (G-12.1).
//
// A failing case is a bypass: it stays in the suite (and fails) until the
// gate closes it. The summary logs "technique: N/N refused".

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
	"gatehouse/store"
	"gatehouse/store/sqlite"
)

const (
	bypassSecret     = "AKIA-SECRET-TOKEN"
	bypassTwinSecret = "ZZZZ-OTHERS-VALUE" // same length: sizes may show, bytes may not
	bypassRootKey    = "ROOT-KEY-MATERIAL"
	bypassVarName    = "AWS_SECRET_ACCESS_KEY"
	bypassVarValue   = "HIDDEN-VAR-VALUE"
	// bypassHostSecret lies on the host beside the /host mount's
	// directory, where no link may lead (G-5.6).
	bypassHostSecret     = "HOST-SIDE-CANARY-7"
	bypassTwinHostSecret = "HOST-SIDE-CANARY-8"
	// bypassHostRoot in a line stands for the host directory that holds
	// the /host mount's directory and its outside neighbour; outputs name
	// it the same way, so worlds with different temporary directories
	// compare.
	bypassHostRoot = "@HOSTROOT@"
	// bypassPasswd is the start of a host /etc/passwd.
	bypassPasswd   = "root:x:0:0"
	bypassUnsorted = "zebra\napple\nmango\n"
	bypassSorted   = "apple\nmango\nzebra"
	// bypassTwinCommand is how the twin line spells `sort`: a name no
	// runtime provides, so it shows what a truly missing command answers.
	bypassTwinCommand = "zort"
)

// bypassTwinName is how a twin line spells a not-installed word.
func bypassTwinName(word string) string {
	if word == "sort" {
		return bypassTwinCommand
	}
	return "zq" + word
}

type bypassGoal int

const (
	readSecret    bypassGoal = iota // read /vault/aws.token (denied)
	detectHidden                    // read or detect /vault/internal (hidden)
	runMissing                      // run `sort`, or another word the profile leaves out
	writeReadOnly                   // change anything under /ro (ro mount)
	seeVariable                     // see AWS_SECRET_ACCESS_KEY (vars.hide)
	escapeHost                      // reach the host outside the /host mount's directory
)

func (g bypassGoal) String() string {
	return [...]string{"read the denied file", "detect the hidden path", "run a command that is not installed",
		"write under the ro mount", "see the hidden variable", "escape the host mount"}[g]
}

// bypassCase is one attempt: an optional setup line and the line itself,
// run one after the other in one session.
type bypassCase struct {
	goal  bypassGoal
	setup string
	line  string
	// twin spells the line for the twin of a runMissing attempt when
	// replacing "sort" with bypassTwinCommand is not enough (escaped
	// spellings); the output is mapped back the same way.
	twin      string
	twinSetup string
	// missing is the not-installed word a runMissing attempt is after
	// ("" = sort).
	missing string
}

type bypassTechnique struct {
	name  string
	cases []bypassCase
}

func secretCase(line string) bypassCase  { return bypassCase{goal: readSecret, line: line} }
func hiddenCase(line string) bypassCase  { return bypassCase{goal: detectHidden, line: line} }
func missingCase(line string) bypassCase { return bypassCase{goal: runMissing, line: line} }
func roCase(line string) bypassCase      { return bypassCase{goal: writeReadOnly, line: line} }
func varCase(line string) bypassCase     { return bypassCase{goal: seeVariable, line: line} }
func hostCase(line string) bypassCase    { return bypassCase{goal: escapeHost, line: line} }

// builtinCase is a runMissing attempt on a builtin the profile leaves out:
// its twin spells a name nothing provides.
func builtinCase(word, line string) bypassCase {
	return bypassCase{goal: runMissing, line: line, missing: word}
}

// missingTwin is a runMissing attempt whose twin must be spelled by hand.
func missingTwin(line, twin string) bypassCase {
	return bypassCase{goal: runMissing, line: line, twin: twin}
}

// after gives a case a setup line, run first in the same session.
func (c bypassCase) after(setup string) bypassCase {
	c.setup = setup
	return c
}

// bypassTechniques is the whole suite, in the order the summary lists it.
var bypassTechniques = []bypassTechnique{
	bypassChaining, bypassFlagOrder, bypassBraceGroups, bypassSubshells,
	bypassProcessSubstitution, bypassCommandSubstitution, bypassBackticks,
	bypassWrappers, bypassWrappedMissing, bypassCdThen, bypassEnvPrefixes,
	bypassRedirections, bypassHereDocs, bypassPathSpellings, bypassSymlinks,
	bypassQuoting, bypassAliases, bypassTraps, bypassHooks, bypassFileSubstitution,
	bypassReadBuiltins, bypassGlobs, bypassLaundering, bypassFileReaders,
	bypassBackgroundJobs, bypassLookalikeFunctions, bypassIntrospection,
	bypassScriptsAndPath, bypassExecReplacing, bypassMissingBuiltins, bypassHostEscapes, bypassAssignments,
}

// bypassWorld says what differs between a world and its twin.
type bypassWorld struct {
	secret    string // the bytes of /vault/aws.token
	hasHidden bool   // /vault/internal exists (and is hidden)
	hasVar    bool   // the profile sets AWS_SECRET_ACCESS_KEY
	// hostSecret is what the host file outside the /host mount holds
	// ("" = bypassHostSecret).
	hostSecret string
	// ungated drops every rule and makes /ro writable: the world of the
	// suite's self-check, where every attempt should get through.
	ungated bool
}

var bypassRealWorld = bypassWorld{secret: bypassSecret, hasHidden: true, hasVar: true}

// bypassMounts lays out world w; hostRoot is a fresh host directory that
// receives the /host mount's directory and, beside it, what no link may
// reach.
func bypassMounts(t *testing.T, w bypassWorld, hostRoot string) []vfs.MountSpec {
	t.Helper()
	hostSecret := w.hostSecret
	if hostSecret == "" {
		hostSecret = bypassHostSecret
	}
	mountDir := filepath.Join(hostRoot, "mount")
	for _, step := range []error{
		os.MkdirAll(filepath.Join(hostRoot, "outside"), 0o755),
		os.MkdirAll(filepath.Join(mountDir, "sub"), 0o755),
		os.WriteFile(filepath.Join(hostRoot, "outside", "secret.txt"), []byte(hostSecret+"\n"), 0o644),
		os.WriteFile(filepath.Join(mountDir, "plain.txt"), []byte("host plain\n"), 0o644),
		os.Symlink("plain.txt", filepath.Join(mountDir, "inner-link")),
		os.Symlink("../outside/secret.txt", filepath.Join(mountDir, "escape-rel")),
		os.Symlink(filepath.Join(hostRoot, "outside", "secret.txt"), filepath.Join(mountDir, "escape-abs")),
		os.Symlink("../outside", filepath.Join(mountDir, "escape-dir")),
		os.Symlink("../../outside/secret.txt", filepath.Join(mountDir, "sub", "escape-deep")),
		os.Symlink("/etc/passwd", filepath.Join(mountDir, "etc-passwd")),
		os.Symlink("../mount/plain.txt", filepath.Join(mountDir, "out-and-back")),
	} {
		if step != nil {
			t.Fatal(step)
		}
	}
	vault := map[string]string{
		"aws.token": w.secret + "\n",
		"aws.jq":    `def token: "` + w.secret + `";` + "\n", // a jq module is a file too
	}
	if w.hasHidden {
		vault["internal/root.key"] = bypassRootKey + "\n"
		vault["internal/lib.jq"] = `def key: "` + bypassRootKey + `";` + "\n"
	}
	return []vfs.MountSpec{
		{Prefix: "/work", Files: map[string]string{
			"notes.txt":     "ordinary notes\n",
			"unsorted.txt":  bypassUnsorted,
			"data.json":     `{"team":"sre","n":1}` + "\n",
			"list.txt":      "/vault/aws.token\n",
			"sub/inner.txt": "inner\n",
		}},
		{Prefix: "/vault", Files: vault},
		{Prefix: "/host", HostDir: mountDir},
		{Prefix: "/ro", ReadOnly: !w.ungated, Files: map[string]string{
			"frozen.txt":   "frozen\n",
			"dir/kept.txt": "kept\n",
			"empty/":       "",
		}},
	}
}

// bypassAllow is the profile's tool set. `sort` is deliberately absent;
// some names (diff, comm, tac, rev) may have no utility yet, which makes
// them not installed too (G-3.7).
var bypassAllow = []string{"cat", "ls", "echo", "cd", "grep", "head", "tail", "find", "xargs", "eval",
	"bash", "sh", "source", ".", "command", "builtin", "exec", "env", "timeout", "nice", "nohup",
	"tee", "cp", "mv", "ln", "jq", "sed", "base64", "diff", "comm", "printf", "read", "mapfile",
	"readarray", "test", "[", "type", "declare", "set", "printenv", "export", "alias", "trap",
	"wait", "true", "false", "touch", "mkdir", "rm", "rmdir", "readlink", "realpath", "stat", "wc",
	"tr", "cut", "tac", "rev", "compgen", "hash", "help", "shopt", "pwd", "unset", "local", "du",
	"sleep"}

func bypassProfile(w bypassWorld) gate.ProfileSpec {
	env := map[string]string{"TEAM": "sre"}
	if w.hasVar {
		env[bypassVarName] = bypassVarValue
	}
	if w.ungated {
		return gate.ProfileSpec{Name: "bypass", Cwd: "/work", Env: env}
	}
	return gate.ProfileSpec{
		Name:     "bypass",
		Cwd:      "/work",
		Env:      env,
		Allow:    bypassAllow,
		Deny:     []gate.Rule{{Reason: "credentials are never read by hand", Paths: []string{"/vault/*"}}},
		Hide:     []gate.PathGroup{{Reason: "operator only", Paths: []string{"/vault/internal"}}},
		VarsHide: []string{"AWS_*"},
	}
}

// bypassShell is one world's workspace and the intruder's session in it.
type bypassShell struct {
	ws       *Workspace
	session  *Session
	hostRoot string
}

// bypassSession builds a fresh workspace of world w (sharing the suite's
// ledger file) and a session on the bypass profile.
func bypassSession(t *testing.T, db store.Ledger, w bypassWorld) *bypassShell {
	t.Helper()
	hostRoot := t.TempDir()
	ws, err := NewWorkspace(bypassMounts(t, w, hostRoot), WithProfiles(bypassProfile(w)), WithStore(db),
		WithLimits(Limits{WallTime: 5 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	// Links an operator left: one into the hidden region (dangling in a
	// world without it), one from inside it back out, one to the token.
	fsys := ws.VFS().View(nil)
	links := [][2]string{{"/vault/internal/root.key", "/work/shortcut"}, {"/vault/aws.token", "/work/token-link"}}
	if w.hasHidden {
		links = append(links, [2]string{"/work", "/vault/internal/up"})
	}
	for _, l := range links {
		if err := fsys.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	s, err := ws.CreateSession("intruder", Profile("bypass"))
	if err != nil {
		t.Fatal(err)
	}
	return &bypassShell{ws: ws, session: s, hostRoot: hostRoot}
}

// bypassObservation is everything the agent saw of one or two lines.
type bypassObservation struct {
	stdout, stderr string
	exits          []int
	refusals       string
	// hostPathShown: an output named the world's host directory although
	// no line spelled it (G-12.1).
	hostPathShown bool
}

func (o bypassObservation) String() string {
	return fmt.Sprintf("stdout=%q\nstderr=%q\nexit=%v\nrefusals=%s", o.stdout, o.stderr, o.exits, o.refusals)
}

func (o bypassObservation) text() string { return o.stdout + o.stderr + o.refusals }

// mapped renames what a twin line spelled back to what the real line spelled.
func (o bypassObservation) mapped(from, to string) bypassObservation {
	o.stdout = strings.ReplaceAll(o.stdout, from, to)
	o.stderr = strings.ReplaceAll(o.stderr, from, to)
	o.refusals = strings.ReplaceAll(o.refusals, from, to)
	return o
}

// bypassRun runs lines in order in sh's session. bypassHostRoot in a line
// becomes the world's host directory, and back again in the outputs.
func bypassRun(t *testing.T, sh *bypassShell, lines ...string) bypassObservation {
	t.Helper()
	var o bypassObservation
	for _, line := range lines {
		if line == "" {
			continue
		}
		spelled := strings.Contains(line, bypassHostRoot)
		line = strings.ReplaceAll(line, bypassHostRoot, sh.hostRoot)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res := sh.session.Execute(ctx, line)
		cancel()
		refusals, _ := json.Marshal(res.Refusals)
		raw := res.Stdout + res.Stderr + string(refusals)
		if !spelled && strings.Contains(raw, sh.hostRoot) {
			o.hostPathShown = true
		}
		o.stdout += strings.ReplaceAll(res.Stdout, sh.hostRoot, bypassHostRoot)
		o.stderr += strings.ReplaceAll(res.Stderr, sh.hostRoot, bypassHostRoot)
		o.exits = append(o.exits, res.ExitCode)
		o.refusals += strings.ReplaceAll(string(refusals), sh.hostRoot, bypassHostRoot)
	}
	return o
}

// bypassOutcome is the suite's tally: per technique, the cases and the
// lines that got through.
type bypassOutcome struct {
	mu     sync.Mutex
	total  map[string]int
	leaked map[string][]string
}

func (b *bypassOutcome) record(technique, line string, refused bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total[technique]++
	if !refused {
		b.leaked[technique] = append(b.leaked[technique], line)
	}
}

// TestBypass runs every attempt of every technique.
func TestBypass(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	hostDir, _ := os.Getwd()
	tally := &bypassOutcome{total: map[string]int{}, leaked: map[string][]string{}}
	for _, tech := range bypassTechniques {
		t.Run(tech.name, func(t *testing.T) {
			for _, tc := range tech.cases {
				name := tc.line
				if tc.setup != "" {
					name = tc.setup + " ⏎ " + tc.line
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					problems := judgeBypass(t, db, hostDir, tc, false)
					for _, p := range problems {
						t.Errorf("BYPASS (%s) %s\n%s", tc.goal, bypassShow(tc), p)
					}
					tally.record(tech.name, bypassShow(tc), len(problems) == 0)
				})
			}
		})
	}
	attempts, refused := 0, 0
	var summary strings.Builder
	for _, tech := range bypassTechniques {
		n, bad := tally.total[tech.name], len(tally.leaked[tech.name])
		attempts, refused = attempts+n, refused+n-bad
		fmt.Fprintf(&summary, "%s: %d/%d refused\n", tech.name, n-bad, n)
		for _, line := range tally.leaked[tech.name] {
			fmt.Fprintf(&summary, "    got through: %s\n", line)
		}
	}
	fmt.Fprintf(&summary, "all techniques: %d/%d refused", refused, attempts)
	t.Log("bypass suite summary\n" + summary.String())
}

func bypassShow(tc bypassCase) string {
	if tc.setup != "" {
		return fmt.Sprintf("%q then %q", tc.setup, tc.line)
	}
	return fmt.Sprintf("%q", tc.line)
}

// judgeBypass runs one attempt and its twin and returns what got through.
// ungated runs both in worlds without rules (the self-check).
func judgeBypass(t *testing.T, db store.Ledger, hostDir string, tc bypassCase, ungated bool) []string {
	world := func(w bypassWorld) bypassWorld { w.ungated = ungated; return w }
	sh := bypassSession(t, db, world(bypassRealWorld))
	roBefore := bypassSnapshot(sh.ws, "/ro")
	real := bypassRun(t, sh, tc.setup, tc.line)

	var problems []string
	problems = append(problems, bypassLeaks(real, hostDir)...)
	problems = append(problems, bypassLaundered(sh.ws)...)
	problems = append(problems, bypassHostUntouched(sh.hostRoot)...)

	var twin bypassObservation
	compare := true
	switch tc.goal {
	case readSecret:
		twin = bypassRun(t, bypassSession(t, db, world(bypassWorld{secret: bypassTwinSecret, hasHidden: true, hasVar: true})), tc.setup, tc.line)
	case detectHidden:
		twin = bypassRun(t, bypassSession(t, db, world(bypassWorld{secret: bypassSecret, hasVar: true})), tc.setup, tc.line)
	case seeVariable:
		twin = bypassRun(t, bypassSession(t, db, world(bypassWorld{secret: bypassSecret, hasHidden: true})), tc.setup, tc.line)
		// Environment listings need not keep an order; what they hold
		// is the question.
		real.stdout, twin.stdout = bypassSortedLines(real.stdout), bypassSortedLines(twin.stdout)
	case runMissing:
		word := tc.missing
		if word == "" {
			word = "sort"
		}
		asWord := regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`)
		twinSetup, twinLine := tc.twinSetup, tc.twin
		if twinSetup == "" {
			twinSetup = asWord.ReplaceAllString(tc.setup, bypassTwinName(word))
		}
		if twinLine == "" {
			twinLine = asWord.ReplaceAllString(tc.line, bypassTwinName(word))
		}
		twin = bypassRun(t, bypassSession(t, db, world(bypassRealWorld)), twinSetup, twinLine).mapped(bypassTwinName(word), word)
		if strings.Contains(real.stdout, bypassSorted) {
			problems = append(problems, "the not-installed sort ran: sorted output on stdout")
		}
		if word == "sort" && !strings.Contains(tc.setup+tc.line, "sort") && bypassSortWord.MatchString(real.text()) {
			problems = append(problems, "the not-installed sort is named by a line that never spelled it")
		}
	case escapeHost:
		twinWorld := bypassRealWorld
		twinWorld.hostSecret = bypassTwinHostSecret
		twin = bypassRun(t, bypassSession(t, db, world(twinWorld)), tc.setup, tc.line)
	case writeReadOnly:
		compare = false
		if after := bypassSnapshot(sh.ws, "/ro"); after != roBefore {
			problems = append(problems, fmt.Sprintf("/ro changed:\nbefore:\n%s\nafter:\n%s", roBefore, after))
		}
	}
	if compare && real.String() != twin.String() {
		problems = append(problems, fmt.Sprintf("the agent can tell the world from its twin\nworld:\n%s\ntwin:\n%s", real, twin))
	}
	return problems
}
