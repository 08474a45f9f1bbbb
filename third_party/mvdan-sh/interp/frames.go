// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"context"
	"strconv"
)

// voice is how the shell starts an error message (gatehouse patch 132):
// bash -c and a line say "bash: ", while the text of a file (a script run
// by bash FILE, a sourced file, a function either defined) says
// "FILE: line N: ". A function defined in the line itself says
// "environment: line N: " as bash -c's do, N counted in the line's text
// (patch 150).
func (r *Runner) voice() string {
	if r.curSource == "" {
		return "bash: "
	}
	return r.curSource + ": line " + strconv.FormatUint(uint64(r.curLine), 10) + ": "
}

// callFrame is one function or sourced file running (gatehouse patch 131).
type callFrame struct {
	name   string // the function, or "source"
	source string // the file the function was defined in, or the file sourced
	line   uint   // the line of the call, in the text that made it
	isFunc bool
}

type callLineKey struct{}

// CallLine marks ctx for an eval that a handler runs in place of a
// function call or a source command it handles: line is the line of that
// command in the text that holds it, for BASH_LINENO (the eval's own text
// starts at line 1).
func CallLine(ctx context.Context, line uint) context.Context {
	return context.WithValue(ctx, callLineKey{}, line)
}

// RunsScript makes the runner run name as `bash FILE` does: BASH_SOURCE
// names it at the bottom, with line 0, and FUNCNAME ends with "main" while
// a function runs.
func (r *Runner) RunsScript(name string) {
	r.script, r.curSource = name, name
}

// pushFrame enters a function or a sourced file; the context it returns
// no longer carries a call line for the calls inside.
func (r *Runner) pushFrame(ctx context.Context, name, source string, line uint, isFunc bool) context.Context {
	if l, ok := ctx.Value(callLineKey{}).(uint); ok && l > 0 {
		line = l
		ctx = context.WithValue(ctx, callLineKey{}, uint(0))
	}
	r.frames = append(r.frames, callFrame{name: name, source: r.curSource, line: line, isFunc: isFunc})
	// The frame keeps the file to go back to; BASH_SOURCE reads the file
	// each frame runs from the next one's.
	r.frames[len(r.frames)-1].source, r.curSource = r.curSource, source
	return ctx
}

func (r *Runner) popFrame() {
	f := r.frames[len(r.frames)-1]
	r.frames = r.frames[:len(r.frames)-1]
	r.curSource = f.source
}

// funcSource is the file a function was defined in: bash -c and an
// interactive shell say "environment" for one defined in their own text.
func (r *Runner) funcSource(name string) string {
	if src, ok := r.funcSrc[name]; ok && src != "" {
		return src
	}
	return "environment"
}

func (r *Runner) noteFuncSource(name string) {
	if r.funcSrc == nil {
		r.funcSrc = make(map[string]string, 4)
	}
	r.funcSrc[name] = r.curSource
}

// frameList is FUNCNAME, BASH_SOURCE or BASH_LINENO: one element per frame,
// innermost first, then the script's own when the runner runs one. FUNCNAME
// exists only while a function runs; the others while anything is framed.
func (r *Runner) frameList(name string) []string {
	inFunc := false
	for _, f := range r.frames {
		inFunc = inFunc || f.isFunc
	}
	if name == "FUNCNAME" && !inFunc {
		return nil
	}
	var list []string
	for i := len(r.frames) - 1; i >= 0; i-- {
		f := r.frames[i]
		switch name {
		case "FUNCNAME":
			list = append(list, f.name)
		case "BASH_SOURCE":
			src := r.curSource
			if i+1 < len(r.frames) {
				src = r.frames[i+1].source
			}
			list = append(list, src)
		case "BASH_LINENO":
			list = append(list, strconv.FormatUint(uint64(f.line), 10))
		}
	}
	if r.script != "" {
		switch name {
		case "FUNCNAME":
			list = append(list, "main")
		case "BASH_SOURCE":
			list = append(list, r.script)
		case "BASH_LINENO":
			list = append(list, "0")
		}
	}
	return list
}
