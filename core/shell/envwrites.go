package shell

import (
	"context"
	"io"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
)

// Environment writes reach the profile's pre_session hooks through one
// door: the interpreter calls varWrite before it writes any variable,
// whatever the syntax (third_party/mvdan-sh, patch 1). Assignments,
// declarations, arithmetic anywhere, ${X:=…}, loops, read, mapfile,
// printf -v, getopts and unset all funnel there, in eval, source, bash -c,
// functions, subshells, pipelines and background jobs alike, so no walk
// over the syntax tree has to guess which words write (G-8.1).
//
// The declaration keywords are another matter: declare, local, export,
// readonly, typeset and let are syntax to mvdan/sh, so they never reach the
// call handler, yet they are builtins a profile may leave out (G-3.2). A
// line is rewritten before it runs so that each is judged as a command:
//
//	export A=1   →   GUARD PLACE export && export A=1
//
// GUARD gets the keyword and its literal option words only; the writes
// themselves are judged by varWrite when they happen.

func (s *Shell) envCheckName() string { return s.capture + "_env" }

// rewriteEnvWrites puts a guard before every declaration keyword.
func (s *Shell) rewriteEnvWrites(f *syntax.File) {
	made := map[*syntax.Stmt]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || made[st] {
			return true
		}
		var check []string
		switch cm := st.Cmd.(type) {
		case *syntax.DeclClause:
			check = append([]string{s.envCheckName(), placeAt("", cm.Pos().Offset()), cm.Variant.Value}, declFlags(cm.Args)...)
		case *syntax.LetClause:
			check = []string{s.envCheckName(), placeAt("", cm.Pos().Offset()), "let"}
		default:
			return true
		}
		inner := &syntax.Stmt{Cmd: st.Cmd, Position: st.Position}
		made[inner] = true
		guard := callStmt(check...)
		guard.Position = st.Position // its refusal names the declaration's line
		made[guard] = true
		st.Cmd = &syntax.BinaryCmd{Op: syntax.AndStmt, X: guard, Y: inner}
		return true
	})
}

// declFlags lists a declaration's literal option words (`-x`, `+r`), which
// allow patterns such as "declare -p" may name.
func declFlags(args []*syntax.Assign) []string {
	var out []string
	for _, as := range args {
		if as.Name != nil || as.Value == nil {
			continue
		}
		if v, ok := literalWord(as.Value); ok && (strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+")) {
			out = append(out, v)
		}
	}
	return out
}

// envCheck runs GUARD: args are PLACE KEYWORD FLAGS..., judged as the
// command KEYWORD FLAGS... at PLACE.
func (s *Shell) envCheck(ctx context.Context, hc interp.HandlerContext, args []string) error {
	ls := lineOf(ctx)
	place := frameOf(ctx).prefix + args[0]
	a := s.admit(ctx, ls, place, args[1:], hc.Dir, nil)
	if a.halt != nil {
		return s.halt(ctx, a.halt)
	}
	if !a.run {
		io.WriteString(hc.Stderr, voiced(hc, a.refused.Stderr))
		return a.refused
	}
	return nil
}

// varWrite is the interpreter's variable handler, installed when the
// profile has a pre_session hook: it asks the hooks about one write and
// refuses it in today's voice, `WHO: NAME: REASON` at exit status 1, where
// WHO is the builtin or keyword that writes, or bash for an assignment.
// gatehouse's own setup lines are not judged.
func (s *Shell) varWrite(ctx context.Context, w interp.VarWrite) error {
	if isInternal(ctx) {
		return nil
	}
	ls := lineOf(ctx)
	hc := interp.HandlerCtx(ctx)
	r := s.cfg.Profile.JudgeEnvWrite(gate.EnvWrite{
		Key: w.Name, Value: varText(w.Var), Verb: envVerb(w.Var),
		Session: s.sessionInfo(), Line: ls.lineText(), Cwd: hc.Dir,
	})
	if r == nil {
		return nil
	}
	if ls != nil {
		ls.addRefusal(*r)
	}
	who := w.By
	if who == "" {
		who = "bash"
	}
	return errText(who + ": " + w.Name + ": " + r.Reason)
}

// envVerb is pre_session's verb for a write that leaves vr (G-8.1): unset
// when it removes the variable, export when the variable is (or stays) in
// the environment commands receive, else set.
func envVerb(vr expand.Variable) string {
	switch {
	case !vr.Declared():
		return gate.EnvUnset
	case vr.Exported:
		return gate.EnvExport
	}
	return gate.EnvSet
}

// varText is the value pre_session sees: a string as it is, an array's
// elements joined by spaces as "${NAME[*]}" gives them, an associative
// array's in the order of their keys.
func varText(vr expand.Variable) string {
	switch vr.Kind {
	case expand.Indexed:
		return strings.Join(vr.List, " ")
	case expand.Associative:
		keys := make([]string, 0, len(vr.Map))
		for k := range vr.Map {
			keys = append(keys, k)
		}
		sortStrings(keys)
		vals := make([]string, len(keys))
		for i, k := range keys {
			vals[i] = vr.Map[k]
		}
		return strings.Join(vals, " ")
	}
	return vr.Str
}

func (s *Shell) sessionInfo() gate.SessionInfo {
	return gate.SessionInfo{ID: s.cfg.SessionID, AgentID: s.cfg.AgentID, Profile: s.cfg.Profile.Name()}
}

// printfVar is `printf -v NAME FORMAT ARGS...`: the printf utility formats,
// and the interpreter's own printf -v assigns the text, so the write is
// judged like any other (G-8.1). As in bash, a conversion error still
// assigns what was formatted, and the status is the utility's.
func (s *Shell) printfVar(ctx context.Context, hc interp.HandlerContext, ls *lineState, name string, args []string) error {
	var out strings.Builder
	fr := frameOf(ctx)
	code, err := s.runCommand(asBuiltin(withPlace(ctx, placeAt(fr.prefix, hc.Pos.Offset()))), ls, append([]string{"printf"}, args...), hc.Dir, hc.Env, nil, hc.Stdin, &out, hc.Stderr)
	if err != nil {
		return s.halt(ctx, err)
	}
	if berr := hc.Builtin(ctx, []string{"printf", "-v", name, "%s", out.String()}); berr != nil || code != 0 {
		if code == 0 {
			return berr
		}
		return interp.ExitStatus(uint8(code))
	}
	return nil
}

// judgeEnviron asks pre_session about the writes a wrapper such as env
// makes to the environment it hands its command: every variable it adds or
// changes is an export, every one it drops an unset, in name order. It
// returns the first refusal in who's voice (`env: NAME: REASON`), or "".
func (s *Shell) judgeEnviron(ctx context.Context, ls *lineState, dir, who string, before, after []string) string {
	if !s.cfg.Profile.JudgesEnvWrites() {
		return ""
	}
	old := make(map[string]string, len(before))
	for _, kv := range before {
		k, v, _ := strings.Cut(kv, "=")
		old[k] = v
	}
	var writes []gate.EnvWrite
	seen := make(map[string]bool, len(after))
	for _, kv := range after {
		k, v, _ := strings.Cut(kv, "=")
		seen[k] = true
		if was, ok := old[k]; !ok || was != v {
			writes = append(writes, gate.EnvWrite{Key: k, Value: v, Verb: gate.EnvExport})
		}
	}
	for k := range old {
		if !seen[k] {
			writes = append(writes, gate.EnvWrite{Key: k, Verb: gate.EnvUnset})
		}
	}
	slices.SortStableFunc(writes, func(a, b gate.EnvWrite) int { return strings.Compare(a.Key, b.Key) })
	for _, w := range writes {
		w.Session, w.Line, w.Cwd = s.sessionInfo(), ls.lineText(), dir
		if r := s.cfg.Profile.JudgeEnvWrite(w); r != nil {
			if ls != nil {
				ls.addRefusal(*r)
			}
			return who + ": " + w.Key + ": " + r.Reason + "\n"
		}
	}
	return ""
}
