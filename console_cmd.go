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

	"gatehouse/core"
	"gatehouse/demo"
	"gatehouse/rest"
	"gatehouse/store"
	"gatehouse/tui"
)

// incidentConsole is how `demo incident` opens the console: the incident
// demo is the console under another name (G-15.4), wired here because the
// console sits above package demo.
func incidentConsole(stderr io.Writer) demo.ConsoleFunc {
	return func(ctx context.Context, args []string, stdout io.Writer) error {
		if code := cmdConsole(args, stdout, stderr); code != 0 {
			return fmt.Errorf("console exited with status %d", code)
		}
		return nil
	}
}

// cmdConsole opens the console (G-13.1): the workspace lives in this
// process, each scenario agent runs in its own goroutine, and the human
// answers their asks.
//
// Ledger: with --db the console uses that file. Without it, a console on a
// workspace document (-w) uses the CLI's default ledger, so that
// `gatehouse allow ID` from another terminal reaches it; the embedded
// incident demo (no -w) uses a temporary ledger that goes away with the
// console, so demo asks never pile up in the real one. The status bar
// shows which file is in use.
func cmdConsole(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("console", stderr)
	wsFile := fs.String("w", "", "workspace document (default: the embedded incident demo)")
	db := fs.String("db", "", "ledger database (default: the CLI's ledger with -w, a temporary one for the demo)")
	scenarioFile := fs.String("scenario", "", "scenario to replay (default: the incident scenario without -w, none with it)")
	quiet := fs.Bool("quiet", false, "do not ring the bell when an ask arrives")
	serveAddr := fs.String("serve", "", "also serve the REST API on ADDR (e.g. 127.0.0.1:7878), so agents over HTTP show up here")
	mcpAddr := fs.String("mcp", "", "also serve MCP over streamable HTTP on ADDR (e.g. 127.0.0.1:7879, URL http://ADDR/mcp): one agent session per MCP client, answered here")
	mcpProfile := fs.String("mcp-profile", "", "profile of the MCP clients' sessions (default: the document's default profile)")
	var serveProfiles nameList
	fs.Var(&serveProfiles, "serve-profile", "with --serve: a profile agents may create sessions of without the token (repeat, or a comma list; default: the document's default profile)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) > 0 {
		return usageError(stderr, "console takes no arguments (got %q)", pos[0])
	}

	opts := []core.Option{core.OnAsk(tui.WaitForHuman)}
	logPath := filepath.Join(os.TempDir(), "gatehouse-console.log")
	switch {
	case *db != "":
		opts = append(opts, core.WithLedger(*db))
		logPath = *db + ".log"
	case *wsFile != "":
		opts = append(opts, core.WithLedger(store.DefaultPath()))
		logPath = store.DefaultPath() + ".log"
	}
	// The screen is the console's: internal errors (a line's panic, with
	// its stack) go to a file beside the ledger, opened on first use.
	opts = append(opts, core.WithLogger(log.New(&lazyFile{path: logPath}, "gatehouse: ", log.LstdFlags)))
	var ws *core.Workspace
	var scenario *demo.Scenario
	if *wsFile == "" {
		ws, err = demo.LoadIncident(opts...)
		if err == nil && *scenarioFile == "" {
			scenario, err = demo.IncidentScenario()
		}
	} else {
		ws, err = core.LoadWorkspace(*wsFile, opts...)
	}
	if err == nil && *scenarioFile != "" {
		scenario, err = demo.LoadScenario(*scenarioFile)
	}
	if err != nil {
		if ws != nil {
			ws.Close()
		}
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	defer ws.Close()
	holdMemoryNearBudget(ws)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The console subscribes before the agents start, so it sees every
	// session and every ask from the first.
	model := tui.New(ws, tui.Options{Context: ctx, Quiet: *quiet})
	if *serveAddr != "" {
		stop, err := serveBeside(ctx, ws, *serveAddr, serveProfiles, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", err)
			return 2
		}
		defer stop()
	}
	if *mcpAddr != "" {
		stop, err := serveMCPBeside(ctx, ws, *mcpAddr, *mcpProfile, stderr)
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
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) {
		fmt.Fprintf(stderr, "gatehouse: console: %v\n", runErr)
		return 1
	}
	return 0
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
	token, err := rest.LoadOrCreateToken(ws.Decisions().Path())
	tokenPath := rest.TokenPath(ws.Decisions().Path())
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	opts := []rest.Option{rest.WithToken(token), rest.WithHosts(hostOf(addr))}
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
	fmt.Fprintf(stderr, "gatehouse: REST on http://%s (token in %s)\n", ln.Addr(), tokenPath)
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
