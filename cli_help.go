package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"gatehouse/internal/lazy"
)

// commandHelp is what `gatehouse CMD --help` says besides the flags: the
// usage line, what the command does, and examples to copy.
type commandHelp struct {
	synopsis string // after "gatehouse "
	about    string
	examples []string
}

// ledgerSentence is how every command that keeps asks says where.
const ledgerSentence = "Keep asks, answers and sessions in the ledger `FILE`; the default is $GATEHOUSE_DB, else $XDG_DATA_HOME/gatehouse/ledger.db, else ~/.local/share/gatehouse/ledger.db; a postgres:// URL names a ledger on a PostgreSQL server instead."

// helps holds every command's help, by the name newFlags is given.
var helps = lazy.Value[map[string]commandHelp]{New: func() map[string]commandHelp {
	return map[string]commandHelp{
		"console": {
			synopsis: "console [-w FILE] [--db FILE] [--scenario FILE] [--quiet] [--serve ADDR [--serve-profile NAME]...] [--mcp ADDR [--mcp-profile NAME]]",
			about: "Opens the console: the workspace runs in this process, agents' asks arrive in a live queue, and you answer them (press ? inside for every key). " +
				"It is also what runs when no command is given. It needs a terminal; without one, use `demo incident --headless`, `exec` and `list-asks`.\n\n" +
				"Without -w it opens the incident demo, on a copy of the demo's document beside the ledger, so amending a rule never touches the document it was copied from.",
			examples: []string{
				"gatehouse",
				"gatehouse console -w workspace.yaml",
				"gatehouse console -w workspace.yaml --serve 127.0.0.1:7878 --serve-profile reader",
				"GATEHOUSE_DB=/tmp/ledger.db gatehouse console --quiet",
			},
		},
		"exec": {
			synopsis: "exec -w FILE [-p PROFILE] [-s SESSION] [--agent NAME] [--db FILE] [--json] -- LINE",
			about: "Runs one line in a session, as an agent would, and exits with the line's exit code. " +
				"The session is created the first time it is used and kept in the ledger, so exec, allow, exec works across processes. " +
				"A line refused for want of an answer exits 126 and prints `requires approval: REASON (ask ID)`.",
			examples: []string{
				"gatehouse exec -w workspace.yaml -p responder -- cat README.md",
				"gatehouse exec -w workspace.yaml -s triage-1 --json -- 'grep -c ERROR /logs/app.log'",
			},
		},
		"explain": {
			synopsis: "explain -w FILE [-p PROFILE] [--json] -- LINE",
			about: "Judges every command of a line without running it: which rule speaks, where it is written, and the exit code and stderr the agent would get. " +
				"It raises no ask, uses up no grant and touches no file.",
			examples: []string{
				"gatehouse explain -w workspace.yaml -p responder -- 'ls /vault; rm notes.txt'",
				"gatehouse explain -w workspace.yaml -p responder --json -- cat /vault/token",
			},
		},
		"list-asks": {
			synopsis: "list-asks [--all] [--session ID] [--json] [--db FILE] [--server URL]",
			about:    "Prints the asks waiting for an answer, oldest first, with their ids for `allow` and `deny`.",
			examples: []string{
				"gatehouse list-asks",
				"gatehouse list-asks --all --session responder-1 --json",
			},
		},
		"allow": {
			synopsis: "allow ID [--scope once|session] [--amend] [--note TEXT] [--json] [--db FILE] [--server URL]",
			about: "Allows one ask and prints the settled record; the waiting line goes on at once. " +
				"Once (the default) covers exactly the line the record shows; session covers every command the record's rules cover, for that session. " +
				"Exit 1 when the ask is unknown or already answered.",
			examples: []string{
				"gatehouse allow 3f9c2a71b0de",
				"gatehouse allow 3f9c2a71b0de --scope session --note 'fine during the incident'",
				"gatehouse allow 3f9c2a71b0de --amend",
			},
		},
		"deny": {
			synopsis: "deny ID [--note TEXT] [--json] [--db FILE] [--server URL]",
			about: "Refuses one ask, once, and prints the settled record: the agent's retry is refused with the note, and the next attempt asks again. " +
				"Exit 1 when the ask is unknown or already answered.",
			examples: []string{
				"gatehouse deny 3f9c2a71b0de --note 'not during the freeze'",
			},
		},
		"serve": {
			synopsis: "serve -w FILE [--db FILE] [--addr ADDR] [-p PROFILE]...",
			about: "Runs the REST daemon: agents create sessions and run lines over HTTP, hosts list and answer asks with the token written beside the ledger. " +
				"It stops within two seconds of SIGINT or SIGTERM.",
			examples: []string{
				"gatehouse serve -w workspace.yaml",
				"gatehouse serve -w workspace.yaml --addr 127.0.0.1:9000 -p reader,triage",
			},
		},
		"mcp": {
			synopsis: "mcp -w FILE [-p PROFILE] [--agent NAME] [--db FILE] [--http ADDR]",
			about: "Serves one MCP client (Claude Code, Codex, an SDK program) over stdin and stdout: the client is one agent session, and a line that asks waits until a host answers it in the ledger. " +
				"stdout carries only the protocol. With --http it serves streamable HTTP at http://ADDR/mcp instead, every client its own session, until a signal.",
			examples: []string{
				"gatehouse mcp -w workspace.yaml -p responder",
				"gatehouse mcp -w workspace.yaml -p responder --http 127.0.0.1:7879",
				"claude mcp add gatehouse -- gatehouse mcp -w workspace.yaml -p responder",
			},
		},
		"reset": {
			synopsis: "reset --mounts -w FILE [--mount PREFIX]... [--db FILE]",
			about: "Returns the workspace's memory mounts to the files its document seeds them with. " +
				"What agents write in memory mounts is kept in the ledger, per workspace document, so it outlives each exec and every restart; reset forgets it, " +
				"here and in every process that has the workspace open, from its next line. A mount with persist: false is never kept.",
			examples: []string{
				"gatehouse reset --mounts -w workspace.yaml",
				"gatehouse reset --mounts -w workspace.yaml --mount /runbook",
			},
		},
		"migrate": {
			synopsis: "migrate --from FILE --to URL",
			about: "Copies a SQLite ledger into an empty ledger on a PostgreSQL server, in one transaction: sessions, asks pending and answered, grants with their claims, " +
				"the memory mounts' files, and the hash of the host token kept beside the file (hosts holding it go on answering). " +
				"Stop the processes using the file first: what they write after the copy is not copied.",
			examples: []string{
				"gatehouse migrate --from ~/.local/share/gatehouse/ledger.db --to postgres://gatehouse@db.internal/gatehouse",
			},
		},
		"token": {
			synopsis: "token [--db FILE|URL] [--rotate | --revoke-sessions]",
			about: "Prints the host token that hosts give to answer asks over REST (as $GATEHOUSE_TOKEN), alone on stdout. " +
				"A file ledger's token is the 0600 file beside it (made if missing). A ledger on a PostgreSQL server keeps only a hash: " +
				"its first token is issued here if no daemon has issued one, and --rotate issues a new one that replaces every earlier token. " +
				"It also keeps the key agents' session tokens are signed with, shared by its daemons and kept across restarts; " +
				"--revoke-sessions replaces that key, so every session token given before stops working.",
			examples: []string{
				"gatehouse token",
				"export GATEHOUSE_TOKEN=$(gatehouse token --rotate --db postgres://gatehouse@db.internal/gatehouse)",
			},
		},
		"demo": {
			synopsis: "demo NAME [flags]",
			about: "Runs a worked example: permissions (three roles, three filesystems), policy (policy programs), ask and ask-pending (inline and queued answers), incident (the console on a crowd of agents; --headless prints the replay instead). " +
				"Run `gatehouse demo NAME --help` for a demo's own flags.",
			examples: []string{
				"gatehouse demo permissions",
				"gatehouse demo incident --headless --answer deny",
			},
		},
		"demo incident": {
			synopsis: "demo incident [--quiet] [--db FILE] | demo incident --headless [--answer allow|deny|session]",
			about: "Opens the console on the incident scenario: five agents work a checkout outage and their asks wait for you. " +
				"With --headless it needs no terminal: every ask is answered the same way and the transcript is printed.",
			examples: []string{
				"gatehouse demo incident",
				"gatehouse demo incident --headless --answer session",
			},
		},
	}
}}

// demoHelp is the help of the demos that take no flags.
func demoHelp(name string) commandHelp {
	return commandHelp{
		synopsis: "demo " + name,
		about:    "Runs the " + name + " example and prints its table; it takes no flags.",
		examples: []string{"gatehouse demo " + name},
	}
}

// helpOf finds a command's help.
func helpOf(cmd string) commandHelp {
	if h, ok := helps.Get()[cmd]; ok {
		return h
	}
	if name, ok := strings.CutPrefix(cmd, "demo "); ok {
		return demoHelp(name)
	}
	return commandHelp{synopsis: cmd}
}

// commandNames lists the commands run dispatches, for the did-you-mean of
// a mistyped one.
func commandNames() []string {
	names := []string{"help"}
	for n := range helps.Get() {
		if !strings.Contains(n, " ") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// unknownCommand says a command does not exist, with the nearest one.
func unknownCommand(stderr io.Writer, name string) int {
	msg := fmt.Sprintf("gatehouse: unknown command %q", name)
	if near := closest(name, commandNames()); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	fmt.Fprintln(stderr, msg)
	fmt.Fprint(stderr, usageText)
	return 2
}
