// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Printing a function as bash 5.2 does for declare -f and type (gatehouse
// patch 151): bash prints a function from its parsed form, not from its
// text, in a layout of its own: "NAME () ", "{ " on a line of its own,
// commands four spaces in, one a line, each but the last of a list ended
// by ";", the bodies of if, while and for ended by ";" too, redirections
// after the words with a space after the operator, here-document bodies
// after the line that starts them. The rules below follow bash's printer
// step by step, so its quirks come out the same (the ";" lost after a
// command that follows a here-document, "for i in "$@"" for a bare for).

// FuncText is the text declare -f prints for the function name, and false
// when there is no such function.
func (r *Runner) FuncText(name string) (string, bool) {
	body := r.Funcs[name]
	if body == nil {
		return "", false
	}
	if r.funcView != nil {
		body = r.funcView(body)
	}
	var p funcPrinter
	p.function(name, body)
	return p.b.String(), true
}

// FuncText is [Runner.FuncText] for a handler.
func (hc HandlerContext) FuncText(name string) (string, bool) {
	if hc.runner == nil {
		return "", false
	}
	return hc.runner.FuncText(name)
}

// FuncView gives declare -f and type the function body a host's program
// wrote, before the host rewrote it: view returns the body to print (a
// copy, never body itself changed).
func FuncView(view func(body *syntax.Stmt) *syntax.Stmt) RunnerOption {
	return func(r *Runner) error {
		r.funcView = view
		return nil
	}
}

type funcPrinter struct {
	b        strings.Builder
	indent   int
	skip     int                // the next command is not indented (skip_this_indent)
	deferred []*syntax.Redirect // here-documents whose bodies wait for a connector
	wasHdoc  bool               // the last connector printed here-document bodies
	inConn   int                // printing the commands of a list or a pair
}

func (p *funcPrinter) str(s string) { p.b.WriteString(s) }

func (p *funcPrinter) newline(s string) {
	p.str("\n")
	p.str(strings.Repeat(" ", p.indent))
	p.str(s)
}

// semicolon ends a body with ";" unless it already ends a line or a job.
func (p *funcPrinter) semicolon() {
	s := p.b.String()
	if n := len(s); n > 0 && (s[n-1] == '&' || s[n-1] == '\n') {
		return
	}
	p.str(";")
}

func (p *funcPrinter) function(name string, body *syntax.Stmt) {
	p.str(name + " () \n{ \n")
	p.indent = 4
	var redirs []*syntax.Redirect
	if b, ok := body.Cmd.(*syntax.Block); ok && !body.Negated && !body.Background {
		redirs = body.Redirs
		p.list(b.Stmts)
	} else {
		p.stmt(body)
	}
	p.flushHdocs("")
	p.indent = 0
	p.str("\n}")
	if len(redirs) > 0 {
		p.str(" ")
		p.redirs(redirs)
	}
}

// list prints statements as bash prints its connections of them.
func (p *funcPrinter) list(stmts []*syntax.Stmt) {
	if len(stmts) > 1 {
		p.inConn++
		defer func() { p.inConn-- }()
	}
	for i, st := range stmts {
		p.stmt(st)
		last := i == len(stmts)-1
		switch {
		case st.Background:
			p.flushHdocs(" &")
			if !last {
				p.str(" ")
				p.skip++
			}
		case last:
		case len(p.deferred) > 0:
			p.flushHdocs("")
			p.str("\n")
		default:
			if !p.wasHdoc {
				p.str(";")
			}
			p.wasHdoc = false
			p.str("\n")
		}
	}
}

// flushHdocs prints the connector s and the here-document bodies waiting
// for it.
func (p *funcPrinter) flushHdocs(s string) {
	if s != "" && s != ";" {
		p.str(s)
	}
	if len(p.deferred) > 0 {
		p.hdocBodies(p.deferred)
		if s != "" && s != ";" {
			p.str(" ")
		}
		p.wasHdoc = true
	}
	p.deferred = nil
}

func (p *funcPrinter) hdocBodies(hdocs []*syntax.Redirect) {
	p.str("\n")
	for _, rd := range hdocs {
		p.str(hdocBody(rd))
		p.str("\n")
	}
}

// hdocBody is a here-document's body and its closing delimiter.
func hdocBody(rd *syntax.Redirect) string {
	var b strings.Builder
	if rd.Hdoc != nil {
		for _, part := range rd.Hdoc.Parts {
			b.WriteString(written(part))
		}
	}
	body := b.String()
	if rd.Op == syntax.DashHdoc {
		// bash keeps the body with its leading tabs gone.
		lines := strings.Split(body, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, "\t")
		}
		body = strings.Join(lines, "\n")
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	delim := ""
	if rd.Word != nil {
		delim = strings.NewReplacer("'", "", `"`, "", `\`, "").Replace(written(rd.Word))
	}
	return body + delim
}

func (p *funcPrinter) stmt(st *syntax.Stmt) {
	if p.skip > 0 {
		p.skip--
	} else {
		p.str(strings.Repeat(" ", p.indent))
	}
	if st.Negated {
		p.str("! ")
	}
	p.command(st.Cmd)
	if len(st.Redirs) > 0 {
		p.str(" ")
		p.redirs(st.Redirs)
	}
}

func (p *funcPrinter) command(cmd syntax.Command) {
	switch c := cmd.(type) {
	case *syntax.BinaryCmd:
		p.binary(c)
	case *syntax.Block:
		p.str("{ \n")
		p.indent += 4
		p.list(c.Stmts)
		p.flushHdocs("")
		p.str("\n")
		p.indent -= 4
		p.str(strings.Repeat(" ", p.indent) + "}")
	case *syntax.Subshell:
		p.str("( ")
		p.skip++
		p.list(c.Stmts)
		p.flushHdocs("")
		p.str(" )")
	case *syntax.IfClause:
		p.ifClause(c)
	case *syntax.WhileClause:
		if c.Until {
			p.str("until ")
		} else {
			p.str("while ")
		}
		p.skip++
		p.list(c.Cond)
		p.flushHdocs("")
		p.semicolon()
		p.str(" do\n")
		p.body(c.Do)
		p.semicolon()
		p.newline("done")
	case *syntax.ForClause:
		p.forClause(c)
	case *syntax.CaseClause:
		p.str("case " + written(c.Word) + " in ")
		p.indent += 4
		for _, it := range c.Items {
			p.newline("")
			pats := make([]string, len(it.Patterns))
			for i, w := range it.Patterns {
				pats[i] = written(w)
			}
			p.str(strings.Join(pats, " | ") + ")\n")
			p.indent += 4
			p.list(it.Stmts)
			p.indent -= 4
			p.flushHdocs("")
			p.newline(it.Op.String())
		}
		p.indent -= 4
		p.newline("esac")
	case *syntax.ArithmCmd:
		text := written(c)
		text = strings.TrimSuffix(strings.TrimPrefix(text, "(("), "))")
		p.str("(( " + strings.TrimSpace(text) + " ))")
	case *syntax.FuncDecl:
		var inner funcPrinter
		inner.function(c.Name.Value, c.Body)
		// A definition inside a function says "function", as bash's does.
		p.str("function " + strings.ReplaceAll(inner.b.String(), "\n", "\n"+strings.Repeat(" ", p.indent)))
	default:
		// Simple commands, declarations, let, [[ ]], time: as written.
		p.str(written(cmd))
	}
}

// binary prints a pair joined by &&, || or a pipe.
func (p *funcPrinter) binary(c *syntax.BinaryCmd) {
	p.inConn++
	defer func() { p.inConn-- }()
	p.skip++
	p.stmt(c.X)
	switch c.Op {
	case syntax.Pipe, syntax.PipeAll:
		p.flushHdocs(" " + c.Op.String())
		p.str(" ")
	default:
		p.flushHdocs(" " + c.Op.String() + " ")
	}
	p.skip++
	p.stmt(c.Y)
}

func (p *funcPrinter) body(stmts []*syntax.Stmt) {
	p.indent += 4
	p.list(stmts)
	p.flushHdocs("")
	p.indent -= 4
}

func (p *funcPrinter) ifClause(c *syntax.IfClause) {
	p.str("if ")
	p.skip++
	p.list(c.Cond)
	p.flushHdocs("")
	p.semicolon()
	p.str(" then\n")
	p.body(c.Then)
	if e := c.Else; e != nil {
		p.semicolon()
		p.newline("else\n")
		p.indent += 4
		if len(e.Cond) > 0 {
			// elif is an if inside the else.
			p.str(strings.Repeat(" ", p.indent))
			p.ifClause(e)
		} else {
			p.list(e.Then)
			p.flushHdocs("")
		}
		p.indent -= 4
	}
	p.semicolon()
	p.newline("fi")
}

func (p *funcPrinter) forClause(c *syntax.ForClause) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		kw := "for "
		if c.Select {
			kw = "select "
		}
		p.str(kw + l.Name.Value + " in ")
		if !l.InPos.IsValid() && len(l.Items) == 0 {
			p.str(`"$@"`)
		}
		items := make([]string, len(l.Items))
		for i, w := range l.Items {
			items[i] = written(w)
		}
		p.str(strings.Join(items, " "))
		p.str(";")
	case *syntax.CStyleLoop:
		p.str("for ((" + arithText(l.Init) + "; " + arithText(l.Cond) + "; " + arithText(l.Post) + "))")
	}
	p.newline("do\n")
	p.body(c.Do)
	p.semicolon()
	p.newline("done")
}

func arithText(x syntax.ArithmExpr) string {
	if x == nil {
		return ""
	}
	text := written(&syntax.ArithmCmd{X: x})
	text = strings.ReplaceAll(text, "\\\n", "") // the printer's line breaks
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(text, "(("), "))"))
}

// redirs prints redirections as bash does: "2> f", "1>&2", "< f", here
// documents' headers now and their bodies once the command's connector is
// printed (at once when there is none).
func (p *funcPrinter) redirs(rs []*syntax.Redirect) {
	var hdocs []*syntax.Redirect
	p.wasHdoc = false
	for i, rd := range rs {
		if i > 0 {
			p.str(" ")
		}
		p.str(redirText(rd))
		if rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc {
			hdocs = append(hdocs, rd)
		}
	}
	switch {
	case len(hdocs) == 0:
	case p.inConn > 0:
		p.deferred = append(p.deferred, hdocs...)
	default:
		p.hdocBodies(hdocs)
	}
}

func redirText(rd *syntax.Redirect) string {
	n := ""
	if rd.N != nil {
		n = rd.N.Value
	}
	word := ""
	if rd.Word != nil {
		word = written(rd.Word)
	}
	fd := func(dflt string) string {
		if n == "" || n == dflt {
			return ""
		}
		return n
	}
	always := func(dflt string) string {
		if n == "" {
			return dflt
		}
		return n
	}
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		return fd("0") + rd.Op.String() + word
	case syntax.DplOut, syntax.DplIn:
		dflt := "1"
		if rd.Op == syntax.DplIn {
			dflt = "0"
		}
		switch {
		case word == "-":
			return always(dflt) + ">&-"
		case isDigits(word) || (strings.HasSuffix(word, "-") && isDigits(word[:len(word)-1])):
			return always(dflt) + rd.Op.String() + word
		case rd.Op == syntax.DplOut && n == "" && !strings.HasPrefix(word, "$"):
			return "&> " + word
		}
		return fd(dflt) + rd.Op.String() + word
	case syntax.RdrAll, syntax.AppAll:
		return rd.Op.String() + " " + word
	case syntax.RdrIn, syntax.RdrInOut, syntax.WordHdoc:
		return fd("0") + rd.Op.String() + " " + word
	}
	return fd("1") + rd.Op.String() + " " + word
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// written is a node as written, on one line where it fits.
func written(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n)
	return strings.TrimSuffix(b.String(), "\n")
}

// A CmdView is what a statement is to $BASH_COMMAND (patch 157).
type CmdView uint8

const (
	CmdPlain CmdView = iota // noted as bash notes it
	CmdSkip                 // a host's own bookkeeping: never noted
	// CmdWhole: a host's rewrite of one command the program wrote, noted
	// whole (printed through FuncView), the statements within it not.
	CmdWhole
)

// CommandView tells $BASH_COMMAND what the statements a host rewrote are.
func CommandView(fn func(st *syntax.Stmt) CmdView) RunnerOption {
	return func(r *Runner) error {
		r.cmdView = fn
		return nil
	}
}

// noteCommand makes st the command $BASH_COMMAND prints, as bash notes a
// simple command, a subshell, [[ ]] and (( )) before it runs them; a
// trap's action leaves it the command the trap came on. It reports
// whether st stands whole for the statements within it.
func (r *Runner) noteCommand(st *syntax.Stmt) bool {
	if r.handlingTrap || r.bashFreeze > 0 {
		return false
	}
	if r.cmdView != nil {
		switch r.cmdView(st) {
		case CmdSkip:
			return false
		case CmdWhole:
			r.bashCmd, r.bashWhole = st, st
			return true
		}
	}
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.Subshell, *syntax.TestClause, *syntax.ArithmCmd, *syntax.DeclClause, *syntax.LetClause:
		r.bashCmd = st
	}
	return false
}

// commandText is $BASH_COMMAND: the command noted last, printed as bash
// prints it (words as written, redirections after them, a here-document's
// body after its line), as the program wrote it before its host rewrote it.
func (r *Runner) commandText() string {
	st := r.bashCmd
	if st == nil {
		return ""
	}
	if r.funcView != nil {
		st = r.funcView(st)
	}
	st2 := *st
	st2.Background, st2.Disown = false, false
	var p funcPrinter
	p.stmt(&st2)
	p.flushHdocs("")
	return p.b.String()
}

// hostSubst reports whether cs is a host's own substitution (see
// CommandView): a call of its own, or a pipe into one, as gatehouse writes a
// process substitution, which keeps errexit as the subshell of a process
// substitution does.
func (r *Runner) hostSubst(cs *syntax.CmdSubst) bool {
	if r.cmdView == nil || len(cs.Stmts) != 1 {
		return false
	}
	st := cs.Stmts[0]
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe {
		st = b.Y
	}
	return r.cmdView(st) == CmdSkip
}
