package utils

import "strings"

const yesHelp = `Usage: yes [STRING]...
  or:  yes OPTION
Repeatedly output a line with all specified STRING(s), or 'y'.

      --help        display this help and exit
      --version     output version information and exit
`

// yesUtility makes the yes utility (see builtins).
func yesUtility(string) *Utility {
	return &Utility{Name: "yes", Run: runYes, OperandExit: 1, Help: yesHelp}
}

// runYes writes its line until stdout fails (the reader of the pipe went
// away) or the line is cancelled; both end it.
func runYes(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "yes", defs: nil, mode: parseMode{stopAtOperand: false}, usageExit: 1, help: yesHelp})
	if done {
		return status, nil
	}
	words := args.operandStrings(e.Args)
	line := "y\n"
	if len(words) > 0 {
		line = strings.Join(words, " ") + "\n"
	}
	// Fill a block with whole lines so each write is large.
	block := strings.Repeat(line, max(1, 8192/len(line)))
	for !t.stopped() {
		if !t.writeString(block) {
			break
		}
	}
	t.flush()
	if t.ctx.Err() != nil {
		return 1, t.ctx.Err()
	}
	return 1, nil
}
