// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

// This file is not part of upstream mvdan.cc/sh: it is gatehouse's patch 1
// (see PATCHES.md), a handler that sees every write of a shell variable.

package interp

import (
	"context"
	"errors"

	"mvdan.cc/sh/v3/expand"
)

// VarWrite describes one write of a shell variable, as passed to a
// [VarHandlerFunc].
type VarWrite struct {
	// Name is the variable being written, after following any namerefs.
	Name string

	// Var is the variable as the write would leave it. Attribute-only
	// writes such as `export foo` carry the current value; unsetting a
	// variable passes the zero value, for which [expand.Variable.Declared]
	// is false.
	Var expand.Variable

	// By names the builtin or declaration keyword making the write, such as
	// "declare", "export", "read", "printf", "getopts", "unset" or "let". It
	// is empty for assignments (including those before a command), for
	// loops, arithmetic and parameter expansions like ${foo:=bar}.
	By string
}

// VarHandlerFunc is a handler which is called before the interpreter writes a
// shell variable, whatever the syntax that writes it: assignments, the
// declaration builtins, arithmetic anywhere (including array subscripts and
// `let`), parameter expansions like ${foo:=bar}, for and select loops, and the
// builtins read, mapfile, printf -v, getopts and unset. Subshells, functions,
// eval and source bodies call it too.
//
// The interpreter's own bookkeeping is not passed to the handler: the
// variables set by [Runner.Reset], the restoring of a variable after a
// command with an assignment prefix like `foo=bar cmd`, and the PWD and
// OLDPWD updates of cd, pushd and popd.
//
// The context includes a [HandlerContext] value, built for the running
// statement's runner.
//
// Returning a nil error lets the write happen. Any other error refuses it:
// the variable is left as it was, the error's text is printed to standard
// error followed by a newline, and the command at hand fails with exit
// status 1. A refused assignment before a command keeps the command from
// running, a refused loop variable ends the loop, and a refused write in an
// expansion fails the command the way a write to a read-only variable does.
type VarHandlerFunc func(ctx context.Context, w VarWrite) error

// VarHandler sets the variable write handler. See [VarHandlerFunc] for more
// info.
func VarHandler(f VarHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.varHandler = f
		return nil
	}
}

// varRefusedError is a write the var handler refused; its text is the
// handler's error alone.
type varRefusedError struct{ err error }

func (e *varRefusedError) Error() string { return e.err.Error() }
func (e *varRefusedError) Unwrap() error { return e.err }

// isVarRefused reports whether err is, or wraps, a write the var handler
// refused.
func isVarRefused(err error) bool {
	var refused *varRefusedError
	return errors.As(err, &refused)
}

// checkVarWrite asks the var handler about writing vr to name. A refusal is
// counted in varRefusals, so that callers writing through [Runner.setVar]
// can tell that a write did not happen.
func (r *Runner) checkVarWrite(name string, vr expand.Variable) error {
	if r.varHandler == nil || r.varBookkeeping {
		return nil
	}
	if vr.Kind == expand.KeepValue {
		// An attribute change: show the handler the value it keeps.
		prev := r.writeEnv.Get(name)
		vr.Kind, vr.Str, vr.List, vr.Indexes, vr.Map, vr.Keys = prev.Kind, prev.Str, prev.List, prev.Indexes, prev.Map, prev.Keys
		vr.Set = vr.Set || prev.Set
	}
	if !vr.Declared() && !r.writeEnv.Get(name).Declared() {
		return nil // unsetting what is not there changes nothing
	}
	ctx := r.ectx
	if ctx == nil {
		ctx = context.Background()
	}
	err := r.varHandler(r.handlerCtx(ctx, handlerKindVar, todoPos), VarWrite{Name: name, Var: vr, By: r.varWriter})
	if err == nil {
		return nil
	}
	r.varRefusals++
	return &varRefusedError{err}
}

// writesVars reports whether the builtin name writes shell variables of its
// own; builtins that run other code (eval, source, command, builtin) do not
// count, since what their code writes is named by that code.
func writesVars(name string) bool {
	switch name {
	case "read", "mapfile", "readarray", "printf", "getopts", "unset",
		"declare", "typeset", "local", "export", "readonly", "let":
		return true
	}
	return false
}

// varWriterScope names the builtin that writes variables until the returned
// function runs; that function also fails the builtin if a write was
// refused while it ran.
func (r *Runner) varWriterScope(name string, exit *exitStatus) func() {
	oldWriter, refusals := r.varWriter, r.varRefusals
	r.varWriter = name
	return func() {
		r.varWriter = oldWriter
		if r.varRefusals != refusals && exit.ok() {
			exit.code = 1
		}
	}
}
