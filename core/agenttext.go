package core

import (
	"fmt"
	"strings"

	"gatehouse/core/gate"
)

// RefusalLines is what a text rendering for agents (the CLI's stderr, the
// MCP tool result, a console transcript) adds after a line's stderr, so
// that the agent reads why it was refused and what the human said, not
// only the command's own voice (G-7.4, G-9.5):
//
//	denied: REASON                                  a rule refused the whole command
//	denied by a reviewer (ask ID)                   a human answered no
//	note from reviewer: NOTE                        the human's note on that answer
//	requires approval: REASON (ask ID)              a question still waits for a human
//	allowed by a reviewer (ask ID)                  a human answered yes, with a note:
//	note from reviewer: NOTE                        the note follows
//
// A refusal of one operand says its reason in the command's voice already
// (`cat: /vault/aws.token: credentials are never read by hand`) and adds
// nothing; a line repeated for a refusal met many times (a loop) is
// written once. Every line ends with a newline; "" when there is nothing
// to add.
func RefusalLines(res Result) string {
	var b strings.Builder
	seen := map[string]bool{}
	add := func(format string, a ...any) {
		line := fmt.Sprintf(format, a...)
		if !seen[line] {
			seen[line] = true
			b.WriteString(line)
		}
	}
	for _, r := range res.Refusals {
		switch {
		case r.Kind == "ask" && r.Status == "pending":
			add("requires approval: %s (ask %s)\n", reasonOrNone(r.Reason), r.AskID)
		case r.Kind != "deny":
		case r.AskID != "":
			add("denied by a reviewer (ask %s)\n", r.AskID)
			if note := strings.TrimSpace(r.Note); note != "" {
				add("note from reviewer: %s\n", oneLine(note))
			}
		case r.Scope == gate.ScopeCommand && r.Reason != "" && !r.TimedOut():
			add("denied: %s\n", oneLine(r.Reason))
		}
	}
	for _, n := range res.Notes {
		if note := strings.TrimSpace(n.Note); note != "" {
			add("allowed by a reviewer (ask %s)\n", n.AskID)
			add("note from reviewer: %s\n", oneLine(note))
		}
	}
	return b.String()
}

func reasonOrNone(reason string) string {
	if reason == "" {
		return "no reason given"
	}
	return oneLine(reason)
}

// oneLine keeps a human's multi-line note on the one line the agent reads
// it from, so it cannot pass for output or for another refusal.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
