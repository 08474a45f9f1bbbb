// Command gatehouse runs AI agents' shell lines through an admission gate and
// lets humans watch and answer them. See README.md and docs/cli.md.
package main

import (
	"os"

	// First, for its side effect: the kernel maps only the pages of the
	// binary that the process reads.
	_ "gatehouse/internal/faultaround"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageText is printed for `gatehouse help` and for a command that does
// not exist.
const usageText = `usage: gatehouse [command] [flags]

commands:
  console      open the console (the default; the incident demo without -w):
               console [-w FILE] [--db FILE] [--scenario FILE] [--quiet] [--serve ADDR [--serve-profile NAME]...] [--mcp ADDR]
  exec         run one line in a session:      exec -w FILE [-p PROFILE] [-s SESSION] [--agent NAME] [--db FILE] [--json] -- LINE
  explain      judge a line without running it: explain -w FILE [-p PROFILE] [--json] -- LINE
  list-asks    list pending asks:               list-asks [--all] [--session ID] [--json] [--db FILE] [--server URL]
  allow        answer an ask:                   allow ID [--scope once|session] [--note TEXT] [--json] [--db FILE] [--server URL]
  deny         refuse an ask:                   deny ID [--note TEXT] [--json] [--db FILE] [--server URL]
  serve        the REST daemon:                 serve -w FILE [--db FILE] [--addr 127.0.0.1:7878] [-p PROFILE...]
  mcp          an MCP server over stdio:        mcp -w FILE [-p PROFILE] [--agent NAME] [--db FILE]
  reset        forget the agents' files:       reset --mounts -w FILE [--mount PREFIX...] [--db FILE]
  migrate      copy a ledger to PostgreSQL:     migrate --from FILE --to postgres://USER@HOST/DB
  token        print the REST host token:       token [--db FILE|URL] [--rotate]
  demo         worked examples:                 demo permissions|policy|ask|ask-pending|incident [--headless --answer allow|deny|session]

Every command takes --help (or: gatehouse help COMMAND) for its flags and examples.
The ledger is --db, else $GATEHOUSE_DB, else $XDG_DATA_HOME/gatehouse/ledger.db,
else ~/.local/share/gatehouse/ledger.db, for every command.
`
