// Package consoletest holds the console's golden tests (G-13.4) and its
// end-to-end flows: a real workspace with agents in goroutines, the
// console driven by teatest at a fixed size with colour pinned to ASCII,
// and a fake clock.
package consoletest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"gatehouse/core"
	"gatehouse/core/decisions"
	"gatehouse/store"
	"gatehouse/store/sqlite"
	"gatehouse/tui"
)

// The ledger's clock is pinned and the console's starts pinned: every ask
// is raised at askedAt and the console looks at it 42 seconds later. The
// console's clock moves only when a test moves it (settle), so goldens do
// not depend on how fast the machine is, and no sleep stands in for the
// moment the answering keys wait.
var (
	askedAt = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	seenAt  = askedAt.Add(42 * time.Second)
)

// armDelay is how long the console's answering keys wait after the ask
// under the cursor changed by itself, and a question's y after it opened
// (tui's armDelay; the tests move the clock past it).
const armDelay = 400 * time.Millisecond

// clock is the console's clock, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// harness is one console over one workspace, with agents to drive.
type harness struct {
	t      *testing.T
	clock  *clock
	ws     *core.Workspace
	dbPath string
	tm     *teatest.TestModel
	ctx    context.Context // the agents' lines run under it
	cancel context.CancelFunc
	// stopConsole ends the console's subscriptions, apart from the lines.
	stopConsole context.CancelFunc
	lines       chan core.Result
	flaky       *flakyStore // with harnessOptions.flaky
	docPath     string      // the document's file, with harnessOptions.docOnDisk
	// running counts the lines still executing: close waits for them, so
	// none writes to the ledger after it is closed and its directory
	// removed.
	running sync.WaitGroup
}

type harnessOptions struct {
	width, height int
	quiet         bool
	agents        []string // "agent:profile", sessions created before the console starts
	// flaky puts the ledger behind a switch (harness.flaky) that makes
	// its reads or its answers fail, as a database server that went away
	// or a file another process holds locked.
	flaky bool
	// unreadable, with flaky, makes the ledger's reads fail from before
	// the console opens.
	unreadable error
	// docOnDisk loads the document from a copy in a temporary directory,
	// which A (allow and add a rule) can write; the header still names it
	// teatest/workspace.yaml. harness.docPath is the copy.
	docOnDisk bool
}

// flakyStore is a ledger whose reads and answers fail while told to.
type flakyStore struct {
	store.Ledger
	mu                sync.Mutex
	readErr, writeErr error
	// hold, while not nil, keeps every answer waiting until it closes:
	// a ledger that takes its time.
	hold chan struct{}
}

func (f *flakyStore) holdAnswers() chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold = make(chan struct{})
	return f.hold
}

func (f *flakyStore) fail(read, write error) {
	f.mu.Lock()
	f.readErr, f.writeErr = read, write
	f.mu.Unlock()
}

func (f *flakyStore) errs() (read, write error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.readErr, f.writeErr
}

func (f *flakyStore) ListAsks(ctx context.Context, sessionID string, pendingOnly bool) ([]store.Record, error) {
	if err, _ := f.errs(); err != nil {
		return nil, err
	}
	return f.Ledger.ListAsks(ctx, sessionID, pendingOnly)
}

func (f *flakyStore) AnswerAsk(ctx context.Context, id string, s store.Settlement) (store.Record, error) {
	if _, err := f.errs(); err != nil {
		return store.Record{}, err
	}
	f.mu.Lock()
	hold := f.hold
	f.mu.Unlock()
	if hold != nil {
		<-hold
	}
	return f.Ledger.AnswerAsk(ctx, id, s)
}

// start builds the workspace, creates the sessions and opens the console.
func start(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	return startOn(t, filepath.Join(t.TempDir(), "ledger.db"), o)
}

// startOn is start on a given ledger file, which another console may
// share, as two processes would.
func startOn(t *testing.T, dbPath string, o harnessOptions) *harness {
	t.Helper()
	if o.width == 0 {
		o.width, o.height = 100, 30
	}
	data, err := os.ReadFile("testdata/workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docPath := "teatest/workspace.yaml"
	if o.docOnDisk {
		docPath = filepath.Join(t.TempDir(), "workspace.yaml")
		if err := os.WriteFile(docPath, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := core.ParseDocument(docPath, data)
	if err != nil {
		t.Fatal(err)
	}
	ledgerOpt := core.WithLedger(dbPath)
	var flaky *flakyStore
	if o.flaky {
		l, err := sqlite.Open(dbPath)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() }) // after the workspace closes (cleanups run last first)
		flaky = &flakyStore{Ledger: l}
		ledgerOpt = core.WithStore(flaky)
	}
	ws, err := core.FromConfig(cfg, ledgerOpt, core.OnAsk(tui.WaitForHuman),
		core.WithClock(func() time.Time { return askedAt }))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range o.agents {
		name, profile, _ := strings.Cut(a, ":")
		if _, err := ws.CreateSession(name, core.Profile(profile), core.SessionID(name+"-1")); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	consoleCtx, stopConsole := context.WithCancel(context.Background())
	h := &harness{t: t, clock: &clock{now: seenAt}, ws: ws, dbPath: dbPath, ctx: ctx, cancel: cancel, stopConsole: stopConsole, lines: make(chan core.Result, 16), flaky: flaky, docPath: docPath}
	if flaky != nil && o.unreadable != nil {
		flaky.fail(o.unreadable, nil)
	}
	model := tui.New(ws, tui.Options{Context: consoleCtx, Now: h.clock.Now, Quiet: o.quiet, LedgerPath: "ledger.db", Document: "teatest/workspace.yaml"})
	h.tm = teatest.NewTestModel(t, model,
		teatest.WithInitialTermSize(o.width, o.height),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii), tea.WithFilter(answerProbes)))
	t.Cleanup(h.close)
	return h
}

// close quits the console, ends the agents' lines and closes the ledger.
func (h *harness) close() {
	h.tm.Quit()
	h.tm.WaitFinished(h.t, teatest.WithFinalTimeout(patience))
	h.cancel()
	h.stopConsole()
	done := make(chan struct{})
	go func() { h.running.Wait(); close(done) }()
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-h.lines: // results nobody reads any more
		case <-time.After(patience):
			h.t.Error("a line was still running a minute after its context ended")
			waiting = false
		}
	}
	h.ws.Close()
}

// run starts a line in an agent's session; its result arrives on h.lines.
func (h *harness) run(sessionID, line string) {
	h.t.Helper()
	s, ok := h.ws.Session(sessionID)
	if !ok {
		h.t.Fatalf("no session %s", sessionID)
	}
	h.running.Add(1)
	go func() {
		defer h.running.Done()
		h.lines <- s.Execute(h.ctx, line)
	}()
}

// runAsking starts a line that asks and waits until its ask is pending,
// so asks are raised one after another, in a known order.
func (h *harness) runAsking(sessionID, line string) decisions.Record {
	h.t.Helper()
	before := len(h.pending())
	h.run(sessionID, line)
	var recs []decisions.Record
	h.eventually(func() bool { recs = h.pending(); return len(recs) > before }, "an ask from "+line)
	return recs[len(recs)-1]
}

// runDone runs a line that does not ask and waits for its result.
func (h *harness) runDone(sessionID, line string) core.Result {
	h.t.Helper()
	h.run(sessionID, line)
	return h.result()
}

// result waits for the next line to end.
func (h *harness) result() core.Result {
	h.t.Helper()
	select {
	case r := <-h.lines:
		return r
	case <-time.After(patience):
		h.t.Fatal("no line ended within a minute")
		return core.Result{}
	}
}

func (h *harness) pending() []decisions.Record {
	recs, err := h.ws.Decisions().Pending(context.Background(), "")
	if err != nil {
		h.t.Fatal(err)
	}
	return recs
}

func (h *harness) eventually(cond func() bool, what string) {
	h.t.Helper()
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	h.t.Fatalf("timed out waiting for %s", what)
}

// key presses one key (a letter, or a name such as "enter", "tab", "esc").
func (h *harness) key(k string) {
	switch k {
	case "enter":
		h.tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	case "tab":
		h.tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	case "esc":
		h.tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	case "pgdown":
		h.tm.Send(tea.KeyPressMsg{Code: tea.KeyPgDown})
	case "pgup":
		h.tm.Send(tea.KeyPressMsg{Code: tea.KeyPgUp})
	default:
		h.tm.Type(k)
	}
}

// settle moves the console's clock past the moment its answering keys
// (and an open question's y) wait after the screen changed by itself, as
// a human who reads before answering would.
func (h *harness) settle() { h.clock.advance(armDelay) }

// patience bounds every wait for the console or the agents: a bound on
// failure only, generous because on a loaded machine (CI on two cores)
// lines, explanations and frames come late.
const patience = time.Minute

// explaining is what a pane shows while the explanation of its line is
// still being computed; it arrives on its own, a moment later.
const explaining = "explaining…"

// steady waits until the screen shows every one of want, lets the
// answering keys wake, and returns the screen then: what a golden pins.
// A screen still explaining a line is not steady: the table replaces that
// word whenever the explanation arrives, which under load is after want
// showed.
func (h *harness) steady(want ...string) string {
	h.t.Helper()
	h.waitScreen(want...)
	h.settle()
	return h.waitScreenWhere(fmt.Sprintf("%q and no %q", want, explaining), func(s string) bool {
		return showsAll(s, want) && !strings.Contains(s, explaining)
	})
}

// press settles, then presses an answering key: the human read the ask.
func (h *harness) press(k string) {
	h.t.Helper()
	h.settle()
	h.key(k)
}

// screenProbe asks the running program for its screen.
type screenProbe struct{ reply chan string }

// answerProbes is a program filter: it answers a probe with the model's
// view, on the program's own goroutine, and swallows it.
func answerProbes(m tea.Model, msg tea.Msg) tea.Msg {
	if p, ok := msg.(screenProbe); ok {
		p.reply <- m.View().Content
		return nil
	}
	return msg
}

// screen is what the console shows now, as plain text with ask ids
// replaced by stable names.
func (h *harness) screen() string {
	h.t.Helper()
	reply := make(chan string, 1)
	h.tm.Send(screenProbe{reply})
	select {
	case s := <-reply:
		return h.stable(plain(s))
	case <-time.After(patience):
		h.t.Fatal("the console did not answer a screen probe")
		return ""
	}
}

// rawScreen is the screen with its escape sequences: the colour goldens.
func (h *harness) rawScreen() string {
	h.t.Helper()
	reply := make(chan string, 1)
	h.tm.Send(screenProbe{reply})
	select {
	case s := <-reply:
		return h.stable(s) + "\n"
	case <-time.After(patience):
		h.t.Fatal("the console did not answer a screen probe")
		return ""
	}
}

// waitScreen waits until the screen shows every one of want.
func (h *harness) waitScreen(want ...string) string {
	h.t.Helper()
	return h.waitScreenWhere(fmt.Sprintf("%q", want), func(s string) bool { return showsAll(s, want) })
}

// waitScreenWhere waits until the screen satisfies ok (described by what)
// and returns it, or fails the test after patience.
func (h *harness) waitScreenWhere(what string, ok func(screen string) bool) string {
	h.t.Helper()
	var s string
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s = h.screen(); ok(s) {
			return s
		}
	}
	h.t.Fatalf("the screen never showed %s; last screen:\n%s", what, s)
	return ""
}

// showsAll reports whether screen contains every one of want.
func showsAll(screen string, want []string) bool {
	for _, w := range want {
		if !strings.Contains(screen, w) {
			return false
		}
	}
	return true
}

var ansiSequence = regexp.MustCompile(`\x1b\[[0-9;:?]*[A-Za-z]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)`)

// plain drops styling: the goldens are the screen's text, which also
// shows that no state is told by colour alone (G-13.3).
func plain(s string) string {
	lines := strings.Split(ansiSequence.ReplaceAllString(s, ""), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// stable names asks by the order they were raised (ask000000001, …), the
// same width as real ids, so goldens do not change with random ids.
func (h *harness) stable(s string) string {
	all, err := h.ws.Decisions().List(context.Background(), "")
	if err != nil {
		return s // a ledger made to fail (flaky): ids as they are
	}
	for i, r := range all {
		s = strings.ReplaceAll(s, r.ID, fmt.Sprintf("ask%09d", i+1))
	}
	return s
}

func teaWindowSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func displayWidth(s string) int { return lipgloss.Width(s) }
