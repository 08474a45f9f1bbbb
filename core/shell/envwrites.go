package shell

import (
	"context"
	"io"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
)

// Environment writes do not all pass the call handler: declarations
// (declare, local, export, readonly, typeset) and plain assignments are
// syntax to mvdan/sh. So a line is rewritten before it runs:
//
//	export A=1      →  ENVCHECK PLACE export A=1 && export A=1
//	A=1 B=$x        →  ENVCHECK PLACE '' A=1 B=$x && A=1 B=$x   (only under a pre_session hook)
//
// ENVCHECK receives the words as written (nothing is expanded twice): it
// judges the declaration keyword as a command (G-3.2: builtins are
// subjects) and each write against pre_session (G-8.1). Only if all pass
// does the write itself run. Writers that are real builtins (read, mapfile,
// unset, printf -v, getopts) are checked in the call handler.

const envSep = "\x00"

func (s *Shell) envCheckName() string { return s.capture + "_env" }

// rewriteEnvWrites guards every declaration, and every assignment when the
// profile judges environment writes.
func (s *Shell) rewriteEnvWrites(f *syntax.File) {
	assigns := s.cfg.Profile.JudgesEnvWrites()
	made := map[*syntax.Stmt]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || made[st] {
			return true
		}
		var check []string
		switch cm := st.Cmd.(type) {
		case *syntax.DeclClause:
			check = append([]string{s.envCheckName(), placeAt("", cm.Pos().Offset()), cm.Variant.Value}, declEntries(cm.Args)...)
		case *syntax.LetClause:
			// `let` is a builtin the parser reads as syntax (G-3.2).
			check = append([]string{s.envCheckName(), placeAt("", cm.Pos().Offset()), "let"}, letEntries(cm.Exprs)...)
		case *syntax.CallExpr:
			if !assigns || len(cm.Assigns) == 0 {
				return true
			}
			check = append([]string{s.envCheckName(), placeAt("", cm.Pos().Offset()), ""}, declEntries(cm.Assigns)...)
		default:
			return true
		}
		inner := &syntax.Stmt{Cmd: st.Cmd, Position: st.Position}
		made[inner] = true
		guard := callStmt(check...)
		made[guard] = true
		st.Cmd = &syntax.BinaryCmd{Op: syntax.AndStmt, X: guard, Y: inner}
		return true
	})
}

// declEntries encodes the names and raw values of assignments: "-x" for a
// flag, "NAME\x00VALUE" for a write, "\x00" for a name known only at run time.
func declEntries(args []*syntax.Assign) []string {
	var out []string
	for _, as := range args {
		if as.Name != nil {
			out = append(out, as.Name.Value+envSep+rawWord(as.Value))
			continue
		}
		if as.Value == nil {
			continue
		}
		v, ok := literalWord(as.Value)
		switch {
		case !ok:
			out = append(out, envSep)
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			out = append(out, v)
		default:
			k, val, _ := strings.Cut(v, "=")
			out = append(out, k+envSep+val)
		}
	}
	return out
}

// rawWord is a word's value when literal, else its text as written.
func rawWord(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if v, ok := literalWord(w); ok {
		return v
	}
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// envCheck runs ENVCHECK: args are PLACE VARIANT ENTRIES...
func (s *Shell) envCheck(ctx context.Context, hc interp.HandlerContext, args []string) error {
	ls := lineOf(ctx)
	place := frameOf(ctx).prefix + args[0]
	variant := args[1]
	var flags []string
	var writes [][2]string
	for _, e := range args[2:] {
		if k, v, ok := strings.Cut(e, envSep); ok {
			writes = append(writes, [2]string{k, v})
		} else {
			flags = append(flags, e)
		}
	}
	if variant != "" {
		a := s.admit(ctx, ls, place, append([]string{variant}, flags...), hc.Dir, nil)
		if a.halt != nil {
			return s.halt(ctx, a.halt)
		}
		if !a.run {
			io.WriteString(hc.Stderr, a.stderr)
			return interp.ExitStatus(uint8(a.exit))
		}
	}
	verb := gate.EnvSet
	if variant == "export" || containsFlag(flags, 'x') {
		verb = gate.EnvExport
	}
	for _, w := range writes {
		if msg, code := s.judgeEnvWrite(ctx, ls, hc.Dir, variant, w[0], w[1], verb); code != 0 {
			io.WriteString(hc.Stderr, msg)
			return interp.ExitStatus(uint8(code))
		}
	}
	return nil
}

func containsFlag(flags []string, f byte) bool {
	for _, fl := range flags {
		if strings.HasPrefix(fl, "-") && strings.IndexByte(fl[1:], f) >= 0 {
			return true
		}
	}
	return false
}

// judgeEnvWrite asks pre_session about one write; it returns the message
// and exit status of a refusal, or 0.
func (s *Shell) judgeEnvWrite(ctx context.Context, ls *lineState, dir, who, key, value, verb string) (string, int) {
	p := s.cfg.Profile
	if !p.JudgesEnvWrites() {
		return "", 0
	}
	if who == "" {
		who = "bash"
	}
	if key == "" {
		return who + ": a variable name known only at run time cannot be judged by the session policy\n", 1
	}
	line := ""
	if ls != nil {
		line = ls.text
	}
	r := p.JudgeEnvWrite(gate.EnvWrite{Key: key, Value: value, Verb: verb, Session: s.sessionInfo(), Line: line, Cwd: dir})
	if r == nil {
		return "", 0
	}
	if ls != nil {
		ls.addRefusal(*r)
	}
	return who + ": " + key + ": " + r.Reason + "\n", 1
}

func (s *Shell) sessionInfo() gate.SessionInfo {
	return gate.SessionInfo{ID: s.cfg.SessionID, AgentID: s.cfg.AgentID, Profile: s.cfg.Profile.Name()}
}

// builtinEnvWrites lists the variables a builtin call would write.
func builtinEnvWrites(argv []string) (names []string, verb string) {
	verb = gate.EnvSet
	args := argv[1:]
	switch argv[0] {
	case "read":
		withArg := "dnNptu"
		for i := 0; i < len(args); i++ {
			a := args[i]
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				if a == "-a" && i+1 < len(args) {
					names = append(names, args[i+1])
					i++
				} else if strings.ContainsAny(a[len(a)-1:], withArg) && len(a) == 2 {
					i++
				}
				continue
			}
			names = append(names, a)
		}
		if len(names) == 0 {
			names = []string{"REPLY"}
		}
	case "mapfile", "readarray":
		name := "MAPFILE"
		for i := 0; i < len(args); i++ {
			a := args[i]
			if strings.HasPrefix(a, "-") && len(a) == 2 && strings.ContainsAny(a[1:], "dnOsuC") {
				i++
				continue
			}
			if !strings.HasPrefix(a, "-") {
				name = a
			}
		}
		names = []string{name}
	case "unset":
		verb = gate.EnvUnset
		for _, a := range args {
			if a == "-f" {
				return nil, verb
			}
			if !strings.HasPrefix(a, "-") {
				names = append(names, a)
			}
		}
	case "printf":
		for i := 0; i+1 < len(args); i++ {
			if args[i] == "-v" {
				names = append(names, args[i+1])
			}
		}
	case "getopts":
		if len(args) >= 2 {
			names = []string{args[1], "OPTARG", "OPTIND"}
		}
	}
	return names, verb
}

// letEntries names the variables `let` expressions assign.
func letEntries(exprs []syntax.ArithmExpr) []string {
	var out []string
	for _, e := range exprs {
		syntax.Walk(e, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.BinaryArithm:
				if n.Op >= syntax.Assgn && n.Op <= syntax.ShrAssgn {
					if w, ok := n.X.(*syntax.Word); ok {
						if name, ok := literalWord(w); ok {
							out = append(out, name+envSep)
						} else {
							out = append(out, envSep)
						}
					}
				}
			case *syntax.UnaryArithm:
				if n.Op == syntax.Inc || n.Op == syntax.Dec {
					if w, ok := n.X.(*syntax.Word); ok {
						if name, ok := literalWord(w); ok {
							out = append(out, name+envSep)
						}
					}
				}
			}
			return true
		})
	}
	return out
}
