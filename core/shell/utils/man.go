package utils

import (
	"strings"
)

const manHelp = `Usage: man [SECTION] PAGE...
Show the manual of an installed command.

In a workspace a command's manual page is its --help text: man PAGE
prints it for every command installed for the session, and says "No
manual entry for PAGE" (exit 16) for anything else, shell builtins
included (their help is "help NAME" in bash).

      --help     display this help and exit
`

// manUtility makes the man utility (see builtins).
func manUtility(string) *Utility {
	return &Utility{Name: "man", Run: runMan, OperandExit: 16, Help: manHelp}
}

// runMan prints the help of each installed utility named.
func runMan(e *Env) (int, error) {
	t := newTool(e, "man", manHelp, 1)
	var pages []string
	for _, a := range e.Args[1:] {
		switch {
		case a == "--help":
			t.writeString(manHelp)
			return t.end(0)
		case a == "--":
		case len(a) > 1 && a[0] == '-':
			opt := strings.TrimLeft(a, "-")
			if opt == "" {
				opt = "-"
			}
			t.warn("invalid option -- '" + opt[:1] + "'")
			t.rawStderr("Try 'man --help' or 'man --usage' for more information.\n")
			return t.end(1)
		case len(pages) == 0 && manIsSection(a):
			// "man 1 ls": every page here is in section 1.
		default:
			pages = append(pages, a)
		}
	}
	if len(pages) == 0 {
		t.rawStderr("What manual page do you want?\nFor example, try 'man man'.\n")
		return t.end(1)
	}
	status := 0
	for i, page := range pages {
		u := Lookup(page)
		installed := e.LookPath == nil || e.LookPath(page)
		if u == nil || !installed || u.Help == "" {
			t.rawStderr("No manual entry for " + page + "\n")
			status = 16
			continue
		}
		if i > 0 {
			t.writeString("\n")
		}
		t.writeString(u.Help)
	}
	return t.end(status)
}

func manIsSection(a string) bool {
	return len(a) == 1 && a[0] >= '1' && a[0] <= '9' || a == "1p" || a == "3p"
}
