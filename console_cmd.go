package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"gatehouse/core"
	"gatehouse/demo"
	"gatehouse/internal/hostfile"
	"gatehouse/rest"
	"gatehouse/store"
	"gatehouse/tui"
)

// consoleConfig is what the console's flags say.
type consoleConfig struct {
	cmd           string // how the user called it: "console", "demo incident"
	wsFile        string // "" for the embedded incident demo
	db            string
	scenarioFile  string
	quiet         bool
	serveAddr     string
	serveProfiles nameList
	mcpAddr       string
	mcpProfile    string
}

// cmdConsole is `gatehouse console` (and `gatehouse` alone).
func cmdConsole(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("console")
	cfg := consoleConfig{cmd: "console"}
	fs.StringVar(&cfg.wsFile, "w", "", "Load the workspace from `FILE`, a YAML document (default: the embedded incident demo, on a copy of its document beside the ledger).")
	fs.StringVar(&cfg.db, "db", "", ledgerSentence)
	fs.StringVar(&cfg.scenarioFile, "scenario", "", "Replay the agents of the scenario `FILE` (YAML) in this console (default: the incident scenario without -w, none with it).")
	fs.BoolVar(&cfg.quiet, "quiet", false, "Do not ring the terminal bell when a new ask arrives.")
	fs.StringVar(&cfg.serveAddr, "serve", "", "Also serve the REST API on `ADDR` (for example 127.0.0.1:7878), so agents over HTTP show up in this console.")
	fs.Var(&cfg.serveProfiles, "serve-profile", "With --serve, a profile `NAME` agents may create sessions of without the host token; repeat it or give a comma list (default: the document's default profile).")
	fs.StringVar(&cfg.mcpAddr, "mcp", "", "Also serve MCP over streamable HTTP at http://`ADDR`/mcp: every MCP client is one agent session, answered here.")
	fs.StringVar(&cfg.mcpProfile, "mcp-profile", "", "The profile `NAME` of the MCP clients' sessions (default: the document's default profile).")
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return fs.usageError(stderr, "console takes no arguments (got %q)", pos[0])
	}
	return runConsole(cfg, stdout, stderr)
}

// noTerminal is what the console says where it cannot draw: one sentence
// that names what works without a terminal.
const noTerminal = "gatehouse: the console needs a terminal; without one, replay the demo with `gatehouse demo incident --headless`, run lines with `gatehouse exec -w FILE -- LINE`, and see the waiting asks with `gatehouse list-asks`.\n"

// runConsole opens the console (G-13.1): the workspace lives in this
// process, each scenario agent runs in its own goroutine, and the human
// answers their asks.
//
// Ledger: --db, else $GATEHOUSE_DB, else the XDG data directory, as for
// every command, so `gatehouse allow ID` from another terminal reaches it;
// the header shows the file. The embedded demo runs on a copy of its
// document beside the ledger (see demoDocument), so amending a rule never
// writes into a source tree.
func runConsole(cfg consoleConfig, stdout, stderr io.Writer) int {
	if !isTerminal(os.Stdin) || !isTerminal(stdout) {
		io.WriteString(stderr, noTerminal)
		return 2
	}
	ledgerPath := dbPath(cfg.db)
	// The screen is the console's: internal errors (a line's panic, with
	// its stack) go to a file beside the ledger, opened on first use.
	opts := []core.Option{core.OnAsk(tui.WaitForHuman), core.WithLedger(ledgerPath),
		core.WithLogger(log.New(&lazyFile{path: besideLedger(ledgerPath, ".log")}, "gatehouse: ", log.LstdFlags))}
	ws, scenario, err := loadConsoleWorkspace(cfg, ledgerPath, opts)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	defer ws.Close()
	holdMemoryNearBudget(ws)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The console subscribes before the agents start, so it sees every
	// session and every ask from the first.
	model := tui.New(ws, tui.Options{Context: ctx, Quiet: cfg.quiet, LedgerPath: store.Redact(ledgerPath), Document: ws.Config().Path})
	if cfg.serveAddr != "" {
		stop, err := serveBeside(ctx, ws, cfg.serveAddr, cfg.serveProfiles, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", err)
			return 2
		}
		defer stop()
	}
	if cfg.mcpAddr != "" {
		stop, err := serveMCPBeside(ctx, ws, cfg.mcpAddr, cfg.mcpProfile, "", stderr)
		if err != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", err)
			return 2
		}
		defer stop()
	}
	replayed := make(chan error, 1)
	if scenario != nil {
		go func() {
			_, err := demo.Replay(ctx, ws, scenario, demo.ReplayOptions{})
			replayed <- err
		}()
	} else {
		replayed <- nil
	}

	_, runErr := tea.NewProgram(model, tea.WithContext(ctx), tea.WithOutput(stdout)).Run()
	// Quitting (q, SIGINT, SIGTERM) ends the agents' lines at once: a line
	// still waiting for an answer is cancelled, and its ask leaves the queue
	// saying so. The console is gone within two seconds (G-12.3).
	waiting := pendingCount(ws)
	stopLines(ws)
	cancel()
	select {
	case err := <-replayed:
		if err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "gatehouse: scenario: %v\n", err)
		}
	case <-time.After(300 * time.Millisecond):
		fmt.Fprintln(stderr, "gatehouse: agents still running; leaving them")
	}
	io.WriteString(stderr, leftWaiting(waiting, pendingCount(ws), ledgerPath))
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) {
		fmt.Fprintf(stderr, "gatehouse: console: %v\n", runErr)
		return 1
	}
	return 0
}

// loadConsoleWorkspace loads the document (or the demo's copy) and the
// scenario the console replays.
func loadConsoleWorkspace(cfg consoleConfig, ledgerPath string, opts []core.Option) (*core.Workspace, *demo.Scenario, error) {
	doc := cfg.wsFile
	if doc == "" {
		var err error
		if doc, err = demoDocument(ledgerPath); err != nil {
			return nil, nil, err
		}
	}
	ws, err := core.LoadWorkspace(doc, opts...)
	if err != nil {
		return nil, nil, err
	}
	var scenario *demo.Scenario
	switch {
	case cfg.scenarioFile != "":
		scenario, err = demo.LoadScenario(cfg.scenarioFile)
	case cfg.wsFile == "":
		scenario, err = demo.IncidentScenario()
	}
	if err != nil {
		ws.Close()
		return nil, nil, err
	}
	return ws, scenario, nil
}

// demoDocument writes the embedded incident document to a file of its own
// beside the ledger, fresh at every start, and returns its path: the demo
// amends that copy, never the document it came from.
func demoDocument(ledgerPath string) (string, error) {
	path := filepath.Join(filepath.Dir(besideLedger(ledgerPath, "")), "gatehouse-demo", "incident-workspace.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("the demo's copy of its document: %w", err)
	}
	// Two consoles starting at once each write the whole document: one
	// never reads the other's half-written copy.
	if err := hostfile.Write(path, demo.IncidentDocument(), 0o600); err != nil {
		return "", fmt.Errorf("the demo's copy of its document: %w", err)
	}
	return path, nil
}

// pendingCount is how many asks the ledger holds unanswered (-1 when it
// cannot say).
func pendingCount(ws *core.Workspace) int {
	recs, err := ws.Decisions().Pending(context.Background(), "")
	if err != nil {
		return -1
	}
	return len(recs)
}

// leftWaiting is the word on exit about asks nobody answered: those whose
// lines ran in the console ended with it; the others stay in the ledger,
// to be answered from the CLI.
func leftWaiting(before, after int, ledgerPath string) string {
	var b strings.Builder
	if before > after && after >= 0 {
		fmt.Fprintf(&b, "gatehouse: %s of this console's agents ended with it, cancelled.\n", plural(before-after, "waiting ask", "waiting asks"))
	}
	if after > 0 {
		db := ""
		if ledgerPath != store.DefaultPath() {
			db = " --db " + store.Redact(ledgerPath)
		}
		fmt.Fprintf(&b, "gatehouse: %s still pending in %s; answer later with `gatehouse list-asks%s`, then `gatehouse allow ID%s` or `gatehouse deny ID%s`.\n",
			plural(after, "ask is", "asks are"), store.Redact(ledgerPath), db, db, db)
	}
	return b.String()
}

// plural is "1 ask" or "3 asks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// isTerminal reports whether w is a terminal the console can draw on.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// serveBeside runs the REST daemon on addr for the console's workspace
// (G-10.6): agents over HTTP get sessions here and their asks show up in
// the console. Its token lives beside the ledger.
func serveBeside(ctx context.Context, ws *core.Workspace, addr string, profiles nameList, stderr io.Writer) (func(), error) {
	for _, name := range profiles {
		if !ws.HasProfile(name) {
			return nil, fmt.Errorf("--serve-profile %s: unknown profile (known profiles: %s)", name, strings.Join(ws.ProfileNames(), ", "))
		}
	}
	tokenOpt, tokenText, err := hostTokenOption(ctx, ws, ws.Decisions().Path())
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	opts := []rest.Option{tokenOpt, rest.WithHosts(hostOf(addr))}
	if profiles != nil {
		opts = append(opts, rest.WithAgentProfiles(profiles...))
	}
	srv := rest.New(ws, opts...)
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(sctx, ln)
	}()
	fmt.Fprintf(stderr, "gatehouse: REST on http://%s (host token: %s)\n", ln.Addr(), tokenText)
	return func() { cancel(); <-done; srv.Close() }, nil
}

// lazyFile appends to a file it opens on the first write, so a console that
// never logs leaves no file behind.
type lazyFile struct {
	path string
	mu   sync.Mutex
	f    *os.File
	err  error
}

func (l *lazyFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil && l.err == nil {
		l.f, l.err = os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.f.Write(p)
}
