package shell

import (
	"strconv"
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Two rewrites make a parsed line safe to run on the interpreter:
//
//   - Process substitution `<(BODY)` becomes `$( { BODY; } | CAPTURE )`: the
//     body runs through the gate like any command, CAPTURE stores its output
//     in the session's fd table and prints "/dev/fd/N", which the open
//     handler serves. The interpreter's own FIFOs in the host $TMPDIR are
//     never made (G-12.1).
//   - A simple command C holding `>(BODY)` in its words or redirections
//     becomes `{ C'; WSAVE K $?; ( BODY ) <"$(WIN K)"; WRESTORE K; }`,
//     where C' has `$(WOUT K)` in its place: C writes to a /dev/fd/N sink
//     in the fd table, then BODY runs with what C wrote as its input and
//     C's own output, and the statement keeps C's status. bash runs BODY
//     beside C; here it runs after C, so its output comes after C's. When C
//     is an exec of redirections alone, the shell's own descriptors point
//     at the sink from then on: BODY is kept (Shell.wbodies) and WDEFER K
//     stands in its place, so it runs as the line ends, reading all the
//     line wrote there (Shell.runDeferred), judged then like any command.
//   - A background statement `C &` becomes `{ JOB; { ( C ); DONE; } & }` so
//     the line knows when each job it launched ends, and spends its grants
//     only then (G-9.9). C keeps its own nodes, hence its places.

func lit(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

func callStmt(words ...string) *syntax.Stmt {
	ws := make([]*syntax.Word, len(words))
	for i, w := range words {
		ws[i] = lit(w)
	}
	return &syntax.Stmt{Cmd: &syntax.CallExpr{Args: ws}}
}

// doneStmt is `NAME $?`: a job's end, passing on its status so that
// `wait $!` reports the job's, not the bookkeeping's.
func doneStmt(name string) *syntax.Stmt {
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: "?"}}}}
	return &syntax.Stmt{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit(name), status}}}
}

func (s *Shell) rewriteProcSubst(f *syntax.File) {
	made := map[*syntax.Stmt]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			for i, part := range n.Parts {
				ps, ok := part.(*syntax.ProcSubst)
				if !ok {
					continue
				}
				var inner *syntax.Stmt
				if ps.Op == syntax.CmdIn {
					inner = &syntax.Stmt{Cmd: &syntax.BinaryCmd{
						Op: syntax.Pipe,
						X:  &syntax.Stmt{Cmd: &syntax.Block{Stmts: ps.Stmts}},
						Y:  callStmt(s.capture),
					}}
				} else {
					inner = callStmt(s.capture + "_out")
				}
				n.Parts[i] = &syntax.CmdSubst{Stmts: []*syntax.Stmt{inner}}
			}
		case *syntax.Stmt:
			if !n.Background {
				s.rewriteWriteSubst(n)
			}
			if n.Background && !made[n] {
				job := *n
				job.Background = false
				job.Redirs = nil
				sub := &syntax.Stmt{Cmd: &syntax.Subshell{Stmts: []*syntax.Stmt{{Cmd: job.Cmd, Negated: job.Negated, Redirs: n.Redirs, Comments: nil}}}}
				launched := &syntax.Stmt{
					Cmd:        &syntax.Block{Stmts: []*syntax.Stmt{sub, doneStmt(s.capture + "_done")}},
					Background: true,
				}
				made[launched] = true
				n.Cmd = &syntax.Block{Stmts: []*syntax.Stmt{callStmt(s.capture + "_job"), launched}}
				n.Background = false
				n.Negated = false
				n.Redirs = nil
				// Walk into the original command still (it is now inside sub).
				return true
			}
		}
		return true
	})
}

// writeSubstSeq numbers the >(…) sites rewritten, for their keys.
var writeSubstSeq atomic.Int64

// rewriteWriteSubst rewrites the >(…) of a simple command's own words and
// redirections (see the top of this file).
func (s *Shell) rewriteWriteSubst(n *syntax.Stmt) {
	call, ok := n.Cmd.(*syntax.CallExpr)
	if !ok {
		return
	}
	words := append([]*syntax.Word{}, call.Args...)
	for _, r := range n.Redirs {
		if r.Word != nil {
			words = append(words, r.Word)
		}
	}
	var keys []string
	var bodies []*syntax.Stmt
	for _, w := range words {
		for i, part := range w.Parts {
			ps, ok := part.(*syntax.ProcSubst)
			if !ok || ps.Op != syntax.CmdOut {
				continue
			}
			key := strconv.FormatInt(writeSubstSeq.Add(1), 10)
			keys = append(keys, key)
			w.Parts[i] = &syntax.CmdSubst{Stmts: []*syntax.Stmt{callStmt(s.capture+"_wout", key)}}
			in := &syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Stmts: []*syntax.Stmt{callStmt(s.capture+"_win", key)}}}}
			bodies = append(bodies, &syntax.Stmt{
				Cmd:    &syntax.Subshell{Stmts: ps.Stmts}, // a process of its own, as in bash
				Redirs: []*syntax.Redirect{{Op: syntax.RdrIn, Word: in}},
			})
		}
	}
	if len(keys) == 0 {
		return
	}
	inner := *n
	inner.Negated = false
	save := callStmt(s.capture+"_wsave", keys[0])
	save.Cmd.(*syntax.CallExpr).Args = append(save.Cmd.(*syntax.CallExpr).Args, doneStmt("").Cmd.(*syntax.CallExpr).Args[1])
	if len(call.Args) == 1 && call.Args[0].Lit() == "exec" && s.keepBodies(bodies) {
		// exec > >(BODY) points the shell's own descriptor at the sink:
		// BODY reads what the rest of the shell writes, so it runs when
		// the line ends (WDEFER, Shell.runDeferred), not now.
		for i, b := range bodies {
			s.wbodies.Store(keys[i], b)
			bodies[i] = callStmt(s.capture+"_wdefer", keys[i])
		}
	}
	stmts := append([]*syntax.Stmt{&inner, save}, bodies...)
	stmts = append(stmts, callStmt(s.capture+"_wrestore", keys[0]))
	n.Cmd = &syntax.Block{Stmts: stmts}
	n.Redirs = nil
}

// jobText names a background statement as jobs lists it: the command the
// line wrote, not the bookkeeping the rewrite wrapped it in.
func (s *Shell) jobText(st *syntax.Stmt) string {
	cmd := st
	if b, ok := st.Cmd.(*syntax.Block); ok && len(b.Stmts) == 2 {
		done, _ := b.Stmts[1].Cmd.(*syntax.CallExpr)
		sub, _ := b.Stmts[0].Cmd.(*syntax.Subshell)
		if done != nil && len(done.Args) > 0 && done.Args[0].Lit() == s.capture+"_done" && sub != nil && len(sub.Stmts) == 1 {
			cmd = sub.Stmts[0]
		}
	}
	c := *cmd
	c.Background, c.Disown, c.Comments = false, false, nil
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true), syntax.SpaceRedirects(true)).Print(&b, &c)
	text := strings.TrimSpace(b.String())
	if _, ok := c.Cmd.(*syntax.Subshell); ok && len(c.Redirs) == 0 && strings.HasSuffix(text, ")") {
		text = "( " + text[1:len(text)-1] + " )" // bash's spacing
	}
	return text + " &"
}

// writtenFunc is a function's body as the line wrote it, for declare -f and
// type: a copy (printed and parsed again) with the rewrites above and the
// declaration guards (envwrites.go) undone, so no internal name shows.
func (s *Shell) writtenFunc(body *syntax.Stmt) *syntax.Stmt {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, body); err != nil {
		return body
	}
	f, err := parse(b.String())
	if err != nil || len(f.Stmts) != 1 {
		return body
	}
	st := f.Stmts[0]
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			for i, part := range n.Parts {
				if ps := s.writtenProcSubst(part); ps != nil {
					n.Parts[i] = ps
				}
			}
		case *syntax.Stmt:
			s.undoStmtRewrite(n)
		}
		return true
	})
	return st
}

// isCall reports whether st is the internal call name.
func isCall(st *syntax.Stmt, name string) bool {
	call, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) > 0 && call.Args[0].Lit() == name
}

// writtenProcSubst is the <(…) a rewritten part stands for, or nil.
func (s *Shell) writtenProcSubst(part syntax.WordPart) *syntax.ProcSubst {
	cs, ok := part.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return nil
	}
	if isCall(cs.Stmts[0], s.capture+"_out") {
		return &syntax.ProcSubst{Op: syntax.CmdOut, OpPos: cs.Left, Rparen: cs.Right}
	}
	pipe, ok := cs.Stmts[0].Cmd.(*syntax.BinaryCmd)
	if !ok || pipe.Op != syntax.Pipe || !isCall(pipe.Y, s.capture) {
		return nil
	}
	if block, ok := pipe.X.Cmd.(*syntax.Block); ok {
		return &syntax.ProcSubst{Op: syntax.CmdIn, OpPos: cs.Left, Rparen: cs.Right, Stmts: block.Stmts}
	}
	return nil
}

// undoStmtRewrite gives n back the command it had before a job, a >(…) or
// a declaration guard rewrote it.
func (s *Shell) undoStmtRewrite(n *syntax.Stmt) {
	switch c := n.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt && isCall(c.X, s.envCheckName()) {
			n.Cmd = c.Y.Cmd
		}
	case *syntax.Block:
		k := len(c.Stmts)
		switch {
		case k == 2 && isCall(c.Stmts[0], s.capture+"_job") && c.Stmts[1].Background:
			inner, _ := c.Stmts[1].Cmd.(*syntax.Block)
			if inner == nil || len(inner.Stmts) != 2 {
				return
			}
			sub, _ := inner.Stmts[0].Cmd.(*syntax.Subshell)
			if sub == nil || len(sub.Stmts) != 1 {
				return
			}
			job := sub.Stmts[0]
			n.Cmd, n.Negated, n.Redirs, n.Background = job.Cmd, job.Negated, job.Redirs, true
		case k >= 3 && isCall(c.Stmts[1], s.capture+"_wsave") && isCall(c.Stmts[k-1], s.capture+"_wrestore"):
			s.undoWriteSubst(n, c.Stmts[0], c.Stmts[2:k-1])
		}
	}
}

// undoWriteSubst puts the bodies of a command's >(…) back in its words.
func (s *Shell) undoWriteSubst(n, inner *syntax.Stmt, bodies []*syntax.Stmt) {
	syntax.Walk(inner, func(node syntax.Node) bool {
		w, ok := node.(*syntax.Word)
		if !ok {
			return true
		}
		for i, part := range w.Parts {
			cs, ok := part.(*syntax.CmdSubst)
			if !ok || len(cs.Stmts) != 1 || !isCall(cs.Stmts[0], s.capture+"_wout") || len(bodies) == 0 {
				continue
			}
			ps := &syntax.ProcSubst{Op: syntax.CmdOut, OpPos: cs.Left, Rparen: cs.Right}
			if c, ok := bodies[0].Cmd.(*syntax.CallExpr); ok && isCall(bodies[0], s.capture+"_wdefer") && len(c.Args) == 2 {
				if b, ok := s.wbodies.Load(c.Args[1].Lit()); ok {
					bodies[0] = b.(*syntax.Stmt)
				}
			}
			if sub, ok := bodies[0].Cmd.(*syntax.Subshell); ok {
				ps.Stmts, ps.OpPos, ps.Rparen = sub.Stmts, sub.Lparen, sub.Rparen
			}
			bodies = bodies[1:]
			w.Parts[i] = ps
		}
		return true
	})
	n.Cmd, n.Redirs = inner.Cmd, inner.Redirs
}

// commandView is what a statement is to $BASH_COMMAND: the internal calls
// the rewrites add are never shown, and a command rewritten for its >(…)
// or as a job is shown whole, as the line wrote it (writtenFunc).
func (s *Shell) commandView(st *syntax.Stmt) interp.CmdView {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) > 0 && s.isTreeInternal(c.Args[0].Lit()) {
			return interp.CmdSkip
		}
	case *syntax.Block:
		k := len(c.Stmts)
		if k == 2 && isCall(c.Stmts[0], s.capture+"_job") || k >= 3 && isCall(c.Stmts[1], s.capture+"_wsave") {
			return interp.CmdWhole
		}
	}
	return interp.CmdPlain
}

// Bounds on the exec >(…) bodies a session keeps (they live as long as the
// functions that may hold them): past them, a body runs right after its
// exec, as every >(…) body does.
const (
	maxWBodies    = 1024
	maxWBodyBytes = 1 << 20
)

// keepBodies reports whether the session may keep bodies for later, and
// counts them if so.
func (s *Shell) keepBodies(bodies []*syntax.Stmt) bool {
	size := int64(0)
	for _, b := range bodies {
		size += 64
		if sub, ok := b.Cmd.(*syntax.Subshell); ok && len(sub.Stmts) > 0 {
			size += int64(sub.Stmts[len(sub.Stmts)-1].End().Offset()) - int64(sub.Stmts[0].Pos().Offset())
		}
	}
	if s.wbodyCount.Add(int64(len(bodies))) > maxWBodies || s.wbodyBytes.Add(size) > maxWBodyBytes {
		s.wbodyCount.Add(-int64(len(bodies)))
		s.wbodyBytes.Add(-size)
		return false
	}
	return true
}
