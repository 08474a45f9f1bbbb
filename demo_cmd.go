package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"gatehouse/demo"
)

// cmdDemo runs a worked example (G-15). Each demo has flags of its own
// (none, for most) and a --help of its own.
func cmdDemo(args []string, stdout, stderr io.Writer) int {
	top := newFlags("demo")
	if len(args) == 0 {
		return top.usageError(stderr, "demo needs a name: %s", strings.Join(demo.Names(), ", "))
	}
	if strings.HasPrefix(args[0], "-") {
		// demo --help, or a flag where the name belongs.
		if _, code, ok := top.parse(args, stdout, stderr); !ok {
			return code
		}
		return top.usageError(stderr, "demo needs a name: %s", strings.Join(demo.Names(), ", "))
	}
	name := args[0]
	if !slices.Contains(demo.Names(), name) {
		msg := fmt.Sprintf("unknown demo %q", name)
		if near := closest(name, demo.Names()); near != "" {
			msg += fmt.Sprintf("; did you mean %s?", near)
		} else {
			msg += "; the demos are " + strings.Join(demo.Names(), ", ")
		}
		return top.usageError(stderr, "%s", msg)
	}
	if name == "incident" {
		return cmdDemoIncident(args[1:], stdout, stderr)
	}
	fs := newFlags("demo " + name)
	pos, code, ok := fs.parse(args[1:], stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return fs.usageError(stderr, "demo %s takes no arguments (got %q)", name, pos[0])
	}
	return demoExit(stderr, demo.Run(context.Background(), name, nil, stdout, demo.Options{}))
}

// cmdDemoIncident is `demo incident`: the console on the incident
// scenario, or its headless replay.
func cmdDemoIncident(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("demo incident")
	headless := fs.Bool("headless", false, "Replay the scenario without a terminal, answering every ask the same way, and print the transcript.")
	answer := fs.String("answer", "allow", "With --headless, answer every ask with `HOW`: allow (once), session (allow for the session) or deny.")
	quiet := fs.Bool("quiet", false, "Do not ring the terminal bell when a new ask arrives.")
	db := fs.String("db", "", ledgerSentence)
	pos, code, ok := fs.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return fs.usageError(stderr, "demo incident takes no arguments (got %q)", pos[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !*headless {
		if set["answer"] {
			return fs.usageError(stderr, "--answer goes with --headless; in the console you answer")
		}
		console := func(context.Context, []string, io.Writer) error {
			if code := runConsole(consoleConfig{cmd: "demo incident", db: *db, quiet: *quiet}, stdout, stderr); code != 0 {
				return consoleExit(code)
			}
			return nil
		}
		return demoExit(stderr, demo.Run(context.Background(), "incident", nil, stdout, demo.Options{Console: console}))
	}
	if !slices.Contains([]string{"allow", "deny", "session"}, *answer) {
		return fs.usageError(stderr, "--answer must be allow, deny or session, not %q", *answer)
	}
	if set["quiet"] || set["db"] {
		return fs.usageError(stderr, "--headless keeps its asks in a ledger of its own and rings no bell: --quiet and --db go with the console")
	}
	err := demo.Run(context.Background(), "incident", []string{"--headless", "--answer", *answer}, stdout, demo.Options{})
	return demoExit(stderr, err)
}

// consoleExit carries the console's exit code through demo.Run.
type consoleExit int

func (c consoleExit) Error() string { return fmt.Sprintf("the console exited with status %d", int(c)) }

// demoExit turns a demo's error into the exit code: the console's own
// code (it has said why already), else 1 with the error.
func demoExit(stderr io.Writer, err error) int {
	var ce consoleExit
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ce):
		return int(ce)
	}
	fmt.Fprintf(stderr, "gatehouse: %v\n", err)
	return 1
}
