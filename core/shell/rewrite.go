package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Two rewrites make a parsed line safe to run on the interpreter:
//
//   - Process substitution `<(BODY)` becomes `$( { BODY; } | CAPTURE )`: the
//     body runs through the gate like any command, CAPTURE stores its output
//     in the session's fd table and prints "/dev/fd/N", which the open
//     handler serves. The interpreter's own FIFOs in the host $TMPDIR are
//     never made (G-12.1). `>(BODY)` is refused with a message.
//   - A background statement `C &` becomes `{ JOB; { ( C ); DONE; } & }` so
//     the line knows when each job it launched ends, and spends its grants
//     only then (G-9.9). C keeps its own nodes, hence its places.

func (s *Shell) needsRewrite(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ProcSubst:
			found = true
		case *syntax.Stmt:
			if n.Background {
				found = true
			}
		case *syntax.DeclClause, *syntax.LetClause:
			found = true
		}
		return !found
	})
	return found
}

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
