package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
)

// Refused is a command that did not run because the gate, a host's answer
// or the shell on the gate's behalf refused it, and the line goes on: Stderr
// is what the agent reads, in the command's voice; Code the exit status the
// command leaves in $?; Record the gate's record of the refusal, which the
// line's result lists, or nil when no rule or answer refused (a command
// not found). As an error it unwraps to the interpreter's exit status, so a
// handler returning it sets $? and the line goes on (G-7.1, G-7.3).
type Refused struct {
	Code   int
	Stderr string
	Record *gate.Refusal
}

// Error is the refusal's text without its line end.
func (r *Refused) Error() string { return strings.TrimSuffix(r.Stderr, "\n") }

// Unwrap is the exit status the refusal leaves.
func (r *Refused) Unwrap() error { return interp.ExitStatus(uint8(r.Code)) }

// refused renders the verdict v on argv: the refusal the agent reads, with
// record as its record.
func refused(v gate.Verdict, argv []string, record *gate.Refusal) *Refused {
	text, code := refusalText(v, argv)
	r := &Refused{Code: code, Stderr: text}
	if record != nil {
		rec := *record // the caller's copy, not the gate's
		r.Record = &rec
	}
	return r
}

// notFound is the refusal of a word that names no command the session has
// (G-3.1): bash's own text and status.
func notFound(name string) *Refused {
	return refused(gate.Verdict{Outcome: gate.NotFound}, []string{name}, nil)
}

// hostDenied renders a host's deny answer: the whole command, 126 (G-9.5).
var hostDenied = gate.Verdict{Outcome: gate.Deny, Refusal: &gate.Refusal{Scope: "command"}}

// voiced speaks a refusal in the voice of the text running: bash's own
// words ("bash: cd: …") start "FILE: line N: " in a script, a sourced file
// or a function either defined, as bash's do (explain reads a line, whose
// voice is bash's).
func voiced(hc interp.HandlerContext, text string) string {
	if rest, ok := strings.CutPrefix(text, "bash: "); ok {
		return hc.Voice() + rest
	}
	if v := hc.Voice(); v != "bash: " && strings.HasSuffix(text, ": command not found\n") {
		// A line says "NAME: command not found" (G-7.1); a file's text
		// says where, as bash does.
		return v + text
	}
	return text
}

// sayf prints a message the shell speaks ("bash: …") in the voice of the
// text running (see voiced).
func sayf(hc interp.HandlerContext, format string, a ...any) {
	io.WriteString(hc.Stderr, voiced(hc, fmt.Sprintf(format, a...)))
}

// refusalText is the one rendering of a refused command, shared by the run
// and by explain (G-11.1): stderr and exit code.
func refusalText(v gate.Verdict, argv []string) (string, int) {
	name := argv[0]
	switch v.Outcome {
	case gate.NotFound:
		return name + ": command not found\n", 127
	case gate.Deny, gate.Ask:
		code := 126
		if v.Refusal != nil && v.Refusal.Scope == "operand" && v.Operand != nil {
			if v.Outcome == gate.Deny {
				code = operandExit(name)
			}
			return voice(name, *v.Operand, v.Refusal.Reason), code
		}
		if v.Refusal.TimedOut() {
			// No rule refused: the agent reads which program ran too long.
			return name + ": " + v.Refusal.Reason + "\n", code
		}
		return name + ": Permission denied\n", code
	case gate.Hidden:
		if len(v.HiddenOperands) > 0 {
			return voice(name, v.HiddenOperands[0], "No such file or directory"), operandExit(name)
		}
	}
	return "", 0
}

// voice renders a failing operand in the command's GNU voice (G-7.3).
func voice(name string, op gate.Operand, msg string) string {
	if v, ok := builtinVoices.Get()[name]; ok {
		return v(op.Arg, msg)
	}
	if u := utils.Lookup(name); u != nil {
		kind := utils.Read
		if op.Write {
			kind = utils.Write
		}
		return u.RenderOperandVoice(kind, op.Arg, msg)
	}
	return name + ": " + op.Arg + ": " + msg + "\n"
}

func operandExit(name string) int {
	if u := utils.Lookup(name); u != nil && u.OperandExit != 0 {
		return u.OperandExit
	}
	return 1
}

// refuseName is the internal command that prints a parked refusal: the
// call handler cannot end a command without ending the line, so it hands
// the interpreter this name and the refusal's number, and the exec handler
// prints the refusal and returns it. The name carries the session's nonce,
// so no line can spell it.
func (s *Shell) refuseName() string { return s.capture + "_refuse" }

// refuseCall parks r on the line and returns the argv that has the exec
// handler print it and fail with it (see refuseName). Without a line there
// is nowhere to park it, and the refusal ends the run.
func (s *Shell) refuseCall(ls *lineState, r *Refused) ([]string, error) {
	if ls == nil {
		return nil, r
	}
	ls.mu.Lock()
	ls.parkedSeq++
	n := ls.parkedSeq
	if ls.parked == nil {
		ls.parked = map[int64]*Refused{}
	}
	ls.parked[n] = r
	ls.mu.Unlock()
	return []string{s.refuseName(), strconv.FormatInt(n, 10)}, nil
}

// takeRefused returns the refusal parked under the number arg and forgets
// it (the interpreter runs each rewritten call once), so a loop of refused
// calls holds none of them for long.
func (ls *lineState) takeRefused(arg string) *Refused {
	n, err := strconv.ParseInt(arg, 10, 64)
	if ls == nil || err != nil {
		return nil
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	r := ls.parked[n]
	delete(ls.parked, n)
	return r
}
