package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
	"gatehouse/internal/heapfloor"
	"gatehouse/rest"
	"gatehouse/store"
	"gatehouse/store/ledgers"
)

// run dispatches a command line; it returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return cmdConsole(nil, stdout, stderr)
	}
	switch args[0] {
	case "exec":
		return cmdExec(args[1:], stdout, stderr)
	case "explain":
		return cmdExplain(args[1:], stdout, stderr)
	case "list-asks":
		return cmdListAsks(args[1:], stdout, stderr)
	case "allow":
		return cmdAnswer(decisions.Allow, args[1:], stdout, stderr)
	case "deny":
		return cmdAnswer(decisions.Deny, args[1:], stdout, stderr)
	case "demo":
		return cmdDemo(args[1:], stdout, stderr)
	case "console":
		return cmdConsole(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "mcp":
		return cmdMCP(args[1:], stdin, stdout, stderr)
	case "reset":
		return cmdReset(args[1:], stdout, stderr)
	case "migrate":
		return cmdMigrate(args[1:], stdout, stderr)
	case "token":
		return cmdToken(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			// gatehouse help exec is gatehouse exec --help.
			return run(append(args[1:], "--help"), stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usageText)
		return 0
	}
	if strings.HasPrefix(args[0], "-") {
		return cmdConsole(args, stdout, stderr)
	}
	return unknownCommand(stderr, args[0])
}

func dbPath(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	return store.DefaultPath()
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func cmdExec(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("exec")
	wsFile := fs.String("w", "", "Load the workspace from `FILE`, a YAML document; required.")
	profile := fs.String("p", "", "Bind a new session to the profile `PROFILE` (default: the document's default profile); an existing session keeps the profile it was created with.")
	session := fs.String("s", "", "Run in the session `ID`, created the first time it is used (default: the session of this document, profile and agent, named cli-PROFILE-HASH).")
	agent := fs.String("agent", "cli", "Name the agent `NAME` in the ledger and the console; each agent has its own default session.")
	db := fs.String("db", "", ledgerSentence)
	asJSON := fs.Bool("json", false, "Print the result object (stdout, stderr, exit_code, refusal, refusals) as JSON instead of the line's output.")
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if *wsFile == "" {
		return fs.usageError(stderr, "exec needs -w FILE")
	}
	if len(pos) == 0 {
		return fs.usageError(stderr, "exec needs a line after --")
	}
	line := strings.Join(pos, " ")
	ws, err := core.LoadWorkspace(*wsFile, core.WithLedger(dbPath(*db)))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	holdMemoryNearBudget(ws)
	heapfloor.Keep(execHeapFloor) // after the limit: it lowers it for a while
	defer ws.Close()
	id := *session
	if id == "" {
		id = cliSessionID(ws, *profile, *agent)
	}
	s, err := ws.OpenSession(id, *agent, core.Profile(*profile))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	if *profile != "" && s.ProfileName() != *profile {
		fmt.Fprintf(stderr, "gatehouse: session %s is bound to profile %q, not %q\n", id, s.ProfileName(), *profile)
		return 2
	}
	res := s.Execute(context.Background(), line)
	if *asJSON {
		writeJSON(stdout, res)
		return res.ExitCode
	}
	io.WriteString(stdout, res.Stdout)
	io.WriteString(stderr, res.Stderr)
	io.WriteString(stderr, core.RefusalLines(res))
	return res.ExitCode
}

// cliSessionID names exec's default session: one per workspace document,
// profile and agent, so that another document on the same ledger, or the
// same profile name in another document, is another session with its own
// cwd and shell state (G-2.1, G-11.4). The name says the profile; the hash
// tells the documents and agents apart.
func cliSessionID(ws *core.Workspace, profile, agent string) string {
	if profile == "" {
		profile = ws.Config().Default
	}
	label := profile
	if label == "" {
		label = "default"
	}
	sum := sha256.Sum256([]byte(ws.Document() + "\x00" + profile + "\x00" + agent))
	return "cli-" + label + "-" + hex.EncodeToString(sum[:4])
}

func cmdExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explain")
	wsFile := fs.String("w", "", "Load the workspace from `FILE`, a YAML document; required.")
	profile := fs.String("p", "", "Judge the line for the profile `PROFILE` (default: the document's default profile).")
	asJSON := fs.Bool("json", false, "Print the explanations as a JSON list instead of a table.")
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if *wsFile == "" {
		return fs.usageError(stderr, "explain needs -w FILE")
	}
	if len(pos) == 0 {
		return fs.usageError(stderr, "explain needs a line after --")
	}
	ws, err := core.LoadWorkspace(*wsFile)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	defer ws.Close()
	s, err := ws.CreateSession("explain", core.Profile(*profile))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	exps, err := s.Explain(strings.Join(pos, " "))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	if *asJSON {
		writeJSON(stdout, exps)
		return 0
	}
	writeExplainTable(stdout, exps)
	return 0
}

// writeExplainTable prints explanations as a table, one row per command.
func writeExplainTable(w io.Writer, exps []core.Explanation) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PLACE\tOUTCOME\tCOMMAND\tEXIT\tREASON\tRULE\tSTDERR")
	for _, e := range exps {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", e.Place, e.Outcome, e.Command, e.ExitCode, e.Reason, e.Rule, strings.TrimSuffix(e.Stderr, "\n"))
	}
	tw.Flush()
}

func openLedger(path string, stderr io.Writer) (*decisions.Ledger, func(), bool) {
	db, err := ledgers.Open(context.Background(), dbPath(path))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return nil, nil, false
	}
	return decisions.New(db), func() { db.Close() }, true
}

func cmdListAsks(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list-asks")
	all := fs.Bool("all", false, "List every decision (answered, and closed unanswered), not only the asks still waiting.")
	session := fs.String("session", "", "List only the asks of the session `ID`.")
	db := fs.String("db", "", ledgerSentence)
	server := fs.String("server", "", "Read from the REST daemon (gatehouse serve) at `URL` instead of the ledger file; the host token is read from the file beside the ledger.")
	asJSON := fs.Bool("json", false, "Print the records as JSON instead of a table.")
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return fs.usageError(stderr, "list-asks takes no arguments (got %q)", pos[0])
	}
	var err error
	var recs []decisions.Record
	if *server != "" {
		c, cerr := rest.NewClient(*server, dbPath(*db))
		if cerr != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", cerr)
			return 1
		}
		recs, err = c.ListAsks(context.Background(), *session, *all)
	} else {
		l, done, ok := openLedger(*db, stderr)
		if !ok {
			return 1
		}
		defer done()
		if *all {
			recs, err = l.List(context.Background(), *session)
		} else {
			recs, err = l.Pending(context.Background(), *session)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	if *asJSON {
		if recs == nil {
			recs = []decisions.Record{}
		}
		writeJSON(stdout, recs)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAGE\tSESSION\tAGENT\tSTATUS\tCOMMAND\tREASON")
	now := time.Now()
	for _, r := range recs {
		status := r.State()
		if r.Outcome == decisions.Allow {
			status += " " + r.Scope // allowed once, allowed session
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, age(now.Sub(r.CreatedAt)), r.SessionID, r.AgentID, status, r.Command, reasonsOf(r))
	}
	tw.Flush()
	return 0
}

// reasonsOf is every rule's reason a record names, in order (G-4.10): an
// answer settles all of them.
func reasonsOf(r decisions.Record) string {
	if len(r.Rules) < 2 {
		return r.Reason
	}
	reasons := make([]string, len(r.Rules))
	for i, rule := range r.Rules {
		reasons[i] = rule.Reason
	}
	return strings.Join(reasons, "; ")
}

func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func cmdAnswer(outcome string, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(outcome)
	scopeUsage := "Answer for `SCOPE`: once (the default) covers exactly the line the record shows; session covers every command the record's rules cover, for the rest of that session."
	if outcome == decisions.Deny {
		scopeUsage = "Only once (the default) is valid: a deny answers once, and the next attempt asks again; `SCOPE` session is a usage error."
	}
	scope := fs.String("scope", decisions.Once, scopeUsage)
	note := fs.String("note", "", "Store `TEXT` on the record; the agent reads it with a deny.")
	db := fs.String("db", "", ledgerSentence)
	server := fs.String("server", "", "Answer through the REST daemon (gatehouse serve) at `URL` instead of the ledger file; the host token is read from the file beside the ledger.")
	asJSON := fs.Bool("json", false, "Print the settled record as JSON.")
	amend := false
	if outcome == decisions.Allow {
		fs.BoolVar(&amend, "amend", false, "Also write an exception for exactly this command (its words, directory and paths) into the workspace document its session was opened from, so it never asks again; prints the change as a diff and refuses when the document changed on disk since that session's process loaded it.")
	}
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return fs.usageError(stderr, "%s needs exactly one ask id", outcome)
	}
	if *scope != decisions.Once && *scope != decisions.Session {
		return fs.usageError(stderr, "--scope must be once or session, not %q", *scope)
	}
	if outcome == decisions.Deny && *scope == decisions.Session {
		return fs.usageError(stderr, "deny answers once: --scope session is invalid")
	}
	var err error
	answer := decisions.Answer{Outcome: outcome, Scope: *scope, Note: *note, By: "cli"}
	var rec decisions.Record
	switch {
	case amend && *server != "":
		c, cerr := rest.NewClient(*server, dbPath(*db))
		if cerr != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", cerr)
			return 1
		}
		var diff string
		rec, diff, err = c.AllowAmend(context.Background(), pos[0], answer)
		fmt.Fprint(stdout, diff)
	case amend:
		rec, err = amendAndAllow(*db, pos[0], answer, stdout, stderr)
	case *server != "":
		// The daemon's errors wrap the ledger's, so the switch below words
		// them the same way.
		c, cerr := rest.NewClient(*server, dbPath(*db))
		if cerr != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", cerr)
			return 1
		}
		rec, err = c.Answer(context.Background(), pos[0], answer)
	default:
		l, done, ok := openLedger(*db, stderr)
		if !ok {
			return 1
		}
		defer done()
		rec, err = l.Answer(context.Background(), pos[0], answer)
	}
	switch {
	case errors.Is(err, decisions.ErrNotFound):
		fmt.Fprintf(stderr, "gatehouse: ask %s not found\n", pos[0])
		return 1
	case errors.Is(err, decisions.ErrAlreadyAnswered):
		fmt.Fprintf(stderr, "gatehouse: ask %s already answered\n", pos[0])
		return 1
	case errors.Is(err, decisions.ErrInvalid):
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	case errors.Is(err, core.ErrNoAmendment), errors.Is(err, core.ErrDocumentChanged):
		fmt.Fprintf(stderr, "gatehouse: cannot amend for ask %s: %v; the ask is still waiting\n", pos[0], err)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 1
	}
	if *asJSON {
		writeJSON(stdout, rec)
		return 0
	}
	fmt.Fprintf(stdout, "%s %s %s: %s (session %s)\n", rec.ID, rec.Outcome, rec.Scope, rec.Command, rec.SessionID)
	if rec.Note != "" {
		fmt.Fprintf(stdout, "note: %s\n", rec.Note)
	}
	return 0
}

// amendAndAllow writes the exception for ask id into the document its
// session was opened from (by that document's absolute path, from any
// directory), prints the change, and then allows the ask once. Nothing is
// answered when the document cannot be amended.
func amendAndAllow(db, id string, answer decisions.Answer, stdout, stderr io.Writer) (decisions.Record, error) {
	ctx := context.Background()
	ledger, done, ok := openLedger(db, stderr)
	if !ok {
		return decisions.Record{}, errors.New("no ledger")
	}
	rec, err := ledger.Get(ctx, id)
	var row decisions.SessionRow
	if err == nil {
		row, err = ledger.GetSession(ctx, rec.SessionID)
	}
	done()
	if err != nil {
		return rec, err
	}
	if rec.State() != decisions.StatePending {
		return rec, decisions.ErrAlreadyAnswered
	}
	if !filepath.IsAbs(row.Workspace) {
		return rec, fmt.Errorf("%w: session %s does not record the absolute path of its workspace document", core.ErrNoAmendment, row.ID)
	}
	ws, err := core.LoadWorkspace(row.Workspace, core.WithLedger(dbPath(db)))
	if err != nil {
		return rec, err
	}
	defer ws.Close()
	a, err := ws.ProposeAmendment(ctx, rec)
	if err != nil {
		return rec, err
	}
	if err := ws.ApplyAmendment(a); err != nil {
		return rec, err
	}
	fmt.Fprint(stdout, a.Diff)
	if a.After != "run" {
		fmt.Fprintf(stdout, "after the amendment the command would still not run: %s\n", a.After)
	}
	return ws.Decisions().Answer(ctx, id, answer)
}
