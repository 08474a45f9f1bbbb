package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
	"gatehouse/demo"
	"gatehouse/rest"
	"gatehouse/store"
	"gatehouse/store/sqlite"
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
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usageText)
		return 0
	}
	if strings.HasPrefix(args[0], "-") {
		return cmdConsole(args, stdout, stderr)
	}
	return usageError(stderr, "unknown command %q", args[0])
}

// parseFlags parses flags that may come before or after positional words
// (`allow ID --scope session`); words after "--" are positional as they are.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// flag stops at "--" (consumed) or at the first positional word.
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
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
	fs := newFlags("exec", stderr)
	wsFile := fs.String("w", "", "workspace document")
	profile := fs.String("p", "", "profile of a new session")
	session := fs.String("s", "", "session id (created on first use)")
	db := fs.String("db", "", "ledger database (default $GATEHOUSE_DB or ~/.local/share/gatehouse/ledger.db)")
	asJSON := fs.Bool("json", false, "print the result object")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if *wsFile == "" {
		return usageError(stderr, "exec needs -w FILE")
	}
	if len(pos) == 0 {
		return usageError(stderr, "exec needs a line after --")
	}
	line := strings.Join(pos, " ")
	ws, err := core.LoadWorkspace(*wsFile, core.WithLedger(dbPath(*db)))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return 2
	}
	holdMemoryNearBudget(ws)
	defer ws.Close()
	id := *session
	if id == "" {
		id = "cli-" + *profile
		if *profile == "" {
			id = "cli-default"
		}
	}
	s, err := ws.OpenSession(id, "cli", core.Profile(*profile))
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
	io.WriteString(stderr, approvalText(res))
	return res.ExitCode
}

// approvalText is the agent adapter's line for a pending ask (G-7.4).
func approvalText(res core.Result) string {
	var b strings.Builder
	for _, r := range res.Refusals {
		if r.Kind == "ask" && r.Status == "pending" {
			fmt.Fprintf(&b, "requires approval: %s (ask %s)\n", r.Reason, r.AskID)
		}
	}
	return b.String()
}

func cmdExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explain", stderr)
	wsFile := fs.String("w", "", "workspace document")
	profile := fs.String("p", "", "profile")
	asJSON := fs.Bool("json", false, "print a JSON list")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if *wsFile == "" {
		return usageError(stderr, "explain needs -w FILE")
	}
	if len(pos) == 0 {
		return usageError(stderr, "explain needs a line after --")
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
	db, err := sqlite.Open(dbPath(path))
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		return nil, nil, false
	}
	return decisions.New(db), func() { db.Close() }, true
}

func cmdListAsks(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list-asks", stderr)
	all := fs.Bool("all", false, "every decision, not only pending asks")
	session := fs.String("session", "", "only this session")
	db := fs.String("db", "", "ledger database")
	server := fs.String("server", "", "read from the `gatehouse serve` daemon at URL (token from the file beside --db)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) > 0 {
		return usageError(stderr, "list-asks takes no arguments")
	}
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
		status := "pending"
		if !r.Pending() {
			status = r.Outcome + " " + r.Scope
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
	fs := newFlags(outcome, stderr)
	scope := fs.String("scope", decisions.Once, "once or session")
	note := fs.String("note", "", "a note stored on the record")
	db := fs.String("db", "", "ledger database")
	server := fs.String("server", "", "answer through the `gatehouse serve` daemon at URL (token from the file beside --db)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		return usageError(stderr, "%s needs exactly one ask id", outcome)
	}
	if *scope != decisions.Once && *scope != decisions.Session {
		return usageError(stderr, "--scope must be once or session, not %q", *scope)
	}
	if outcome == decisions.Deny && *scope == decisions.Session {
		return usageError(stderr, "deny answers once: --scope session is invalid (G-9.5)")
	}
	answer := decisions.Answer{Outcome: outcome, Scope: *scope, Note: *note, By: "cli"}
	var rec decisions.Record
	if *server != "" {
		// The daemon's errors wrap the ledger's, so the switch below words
		// them the same way.
		c, cerr := rest.NewClient(*server, dbPath(*db))
		if cerr != nil {
			fmt.Fprintf(stderr, "gatehouse: %v\n", cerr)
			return 1
		}
		rec, err = c.Answer(context.Background(), pos[0], answer)
	} else {
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

func cmdDemo(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return usageError(stderr, "demo needs a name: %s", strings.Join(demo.Names(), ", "))
	}
	if err := demo.Run(context.Background(), args[0], args[1:], stdout, demo.Options{Console: incidentConsole(stderr)}); err != nil {
		fmt.Fprintf(stderr, "gatehouse: %v\n", err)
		if errors.Is(err, demo.ErrUnknown) {
			return 2
		}
		return 1
	}
	return 0
}
