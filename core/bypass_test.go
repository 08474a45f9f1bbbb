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

	"gatehouse/core/bypasstest"
	"gatehouse/store"
	"gatehouse/store/sqlite"
)

// The world's protected values, shared with every door's run of the file
// corpus (package bypasstest).
const (
	bypassSecret         = bypasstest.Secret
	bypassTwinSecret     = bypasstest.TwinSecret
	bypassRootKey        = bypasstest.RootKey
	bypassVarName        = bypasstest.VarName
	bypassVarValue       = bypasstest.VarValue
	bypassHostSecret     = bypasstest.HostSecret
	bypassTwinHostSecret = bypasstest.TwinHostSecret
	bypassHostRoot       = bypasstest.HostRoot
	bypassPasswd         = bypasstest.Passwd
	bypassUnsorted       = bypasstest.Unsorted
	bypassSorted         = bypasstest.Sorted
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
	readSecret   bypassGoal = iota // read /vault/aws.token (denied)
	detectHidden                   // read or detect /vault/internal (hidden)
	// hiddenIsMissing: tell a hidden path from a missing one. The twin has
	// neither the hidden content nor the hide rules, so a hidden name must
	// answer byte for byte as a name that is simply not there, under the
	// same denies (G-4.5).
	hiddenIsMissing
	// judgedAsTarget: reach a path through a symlink (or a cd) to be
	// judged less strictly than the path itself. The twin is the direct
	// line, run in the gated world; its stdout and stderr, with the
	// target's spelling mapped to the link's, must be the attempt's.
	judgedAsTarget
	runMissing    // run `sort`, or another word the profile leaves out
	writeReadOnly // change anything under /ro (ro mount)
	seeVariable   // see AWS_SECRET_ACCESS_KEY (vars.hide)
	escapeHost    // reach the host outside the /host mount's directory
)

func (g bypassGoal) String() string {
	return [...]string{"read the denied file", "detect the hidden path", "tell hidden from missing",
		"be judged less strictly through a link", "run a command that is not installed",
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
	// spelled/target: a judgedAsTarget attempt names target as spelled.
	spelled, target string
}

type bypassTechnique struct {
	name  string
	cases []bypassCase
}

func secretCase(line string) bypassCase { return bypassCase{goal: readSecret, line: line} }
func hiddenCase(line string) bypassCase { return bypassCase{goal: detectHidden, line: line} }
func missingLikeCase(line string) bypassCase {
	return bypassCase{goal: hiddenIsMissing, line: line}
}

// asTarget is a judgedAsTarget attempt: after setup, line reaches target by
// the spelling spelled (a link, or a cd then a relative name), and must be
// judged as direct, which names target itself.
func asTarget(setup, line, direct, spelled, target string) bypassCase {
	return bypassCase{goal: judgedAsTarget, setup: setup, line: line, twin: direct, spelled: spelled, target: target}
}
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
	bypassProcessSubstitution, bypassCommandSubstitution, bypassBackticks, bypassWordExpansion,
	bypassWrappers, bypassWrappedMissing, bypassCdThen, bypassEnvPrefixes,
	bypassRedirections, bypassHereDocs, bypassPathSpellings, bypassSymlinks,
	bypassQuoting, bypassAliases, bypassTraps, bypassHooks, bypassFileSubstitution,
	bypassReadBuiltins, bypassGlobs, bypassLaundering, bypassFileReaders, bypassArchives, bypassDataUtilities,
	bypassBackgroundJobs, bypassLookalikeFunctions, bypassIntrospection,
	bypassScriptsAndPath, bypassExecReplacing, bypassMissingBuiltins, bypassHostEscapes, bypassAssignments,
	bypassRenames, bypassScopedRules, bypassHiddenOrMissing, bypassSweep,
}

// bypassWorld says what differs between a world and its twin.
type bypassWorld = bypasstest.World

var bypassRealWorld = bypasstest.RealWorld

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
	ws, err := NewWorkspace(bypasstest.Mounts(t, w, hostRoot), WithProfiles(bypasstest.Profile(w)), WithStore(db),
		WithLimits(Limits{WallTime: 5 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	bypasstest.LayLinks(t, ws.fs.View(nil), w)
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
// bypassTimings matches the durations of a time report.
var bypassTimings = regexp.MustCompile(`(?m)^((?:real|user|sys)\t)[0-9]+m[0-9]+\.[0-9]+s`)

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
		// time's report differs between any two runs; what it timed is
		// the question, not how long it took.
		o.stdout += bypassTimings.ReplaceAllString(strings.ReplaceAll(res.Stdout, sh.hostRoot, bypassHostRoot), "${1}0m0.000s")
		o.stderr += bypassTimings.ReplaceAllString(strings.ReplaceAll(res.Stderr, sh.hostRoot, bypassHostRoot), "${1}0m0.000s")
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
	world := func(w bypassWorld) bypassWorld { w.Ungated = ungated; return w }
	sh := bypassSession(t, db, world(bypassRealWorld))
	roBefore := bypasstest.Snapshot(sh.ws.fs.View(nil), "/ro")
	real := bypassRun(t, sh, tc.setup, tc.line)

	var problems []string
	problems = append(problems, bypassLeaks(real, hostDir)...)
	problems = append(problems, bypasstest.Laundered(sh.ws.fs.View(nil))...)
	problems = append(problems, bypasstest.HostUntouched(sh.hostRoot)...)

	var twin bypassObservation
	compare := true
	switch tc.goal {
	case readSecret:
		twin = bypassRun(t, bypassSession(t, db, world(bypassWorld{Secret: bypassTwinSecret, HasHidden: true, HasVar: true})), tc.setup, tc.line)
	case detectHidden:
		twin = bypassRun(t, bypassSession(t, db, world(bypassWorld{Secret: bypassSecret, HasVar: true})), tc.setup, tc.line)
		// And as a name that is simply missing, without the hide rule
		// (G-4.5), which the denies around it must not tell apart.
		missing := bypassRun(t, bypassSession(t, db, world(bypassWorld{Secret: bypassSecret, HasVar: true, Unhidden: true})), tc.setup, tc.line)
		if missing.String() != real.String() {
			problems = append(problems, fmt.Sprintf("the agent can tell the hidden path from a missing one\nworld:\n%s\nwithout it or its rule:\n%s", real, missing))
		}
	case hiddenIsMissing:
		twin = bypassRun(t, bypassSession(t, db, world(bypassWorld{Secret: bypassSecret, HasVar: true, Unhidden: true})), tc.setup, tc.line)
	case judgedAsTarget:
		// The direct line always runs gated: in an ungated world the
		// attempt gets through, and differs from it.
		twin = bypassRun(t, bypassSession(t, db, bypassRealWorld), tc.setup, tc.twin)
		twin.stdout = strings.ReplaceAll(twin.stdout, tc.target, tc.spelled)
		twin.stderr = strings.ReplaceAll(twin.stderr, tc.target, tc.spelled)
	case seeVariable:
		twin = bypassRun(t, bypassSession(t, db, world(bypassWorld{Secret: bypassSecret, HasHidden: true})), tc.setup, tc.line)
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
		twinWorld.HostSecret = bypassTwinHostSecret
		twin = bypassRun(t, bypassSession(t, db, world(twinWorld)), tc.setup, tc.line)
	case writeReadOnly:
		compare = false
		if after := bypasstest.Snapshot(sh.ws.fs.View(nil), "/ro"); after != roBefore {
			problems = append(problems, fmt.Sprintf("/ro changed:\nbefore:\n%s\nafter:\n%s", roBefore, after))
		}
	}
	if compare && real.String() != twin.String() {
		problems = append(problems, fmt.Sprintf("the agent can tell the world from its twin\nworld:\n%s\ntwin:\n%s", real, twin))
	}
	return problems
}
