package shell

import (
	"context"
	"path"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
)

// staticCmd is one command preflight can read (G-9.3).
type staticCmd struct {
	place   string
	argv    []string // literal words; for a partial command, the literal prefix
	partial bool     // some words expand at run time
	dynamic bool     // the command name itself expands at run time
	spelled string   // the call as written
	dir     string
	extra   []gate.Operand // literal redirection targets
}

// literalWord returns a word's value when it is spelled without any
// expansion: quotes and backslashes are fine, `$`, globs, braces and a
// leading tilde are not.
func literalWord(w *syntax.Word) (string, bool) {
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") && !escapedOnly(p.Value) {
				return "", false
			}
			if strings.Contains(p.Value, "{") && p.Value != "{}" && p.Value != "{" {
				return "", false
			}
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				return "", false
			}
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return "", false
				}
			}
		default:
			return "", false
		}
	}
	s, err := expand.Literal(&expand.Config{}, expand.Unescaped(w))
	if err != nil {
		return "", false
	}
	return s, true
}

// escapedOnly: every glob character in an unquoted literal is escaped.
func escapedOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return false
		}
	}
	return true
}

// walker collects the static commands of a line in line order.
type walker struct {
	s     *Shell
	dir   string
	cmds  []staticCmd
	funcs map[string]*syntax.Stmt // declared on this line
	depth int
	// inShell: the words being read are a nested bash's script, a new
	// shell that has none of the session's aliases.
	inShell bool
}

func (s *Shell) collect(file *syntax.File, dir string) []staticCmd {
	w := &walker{s: s, dir: dir, funcs: map[string]*syntax.Stmt{}}
	syntax.Walk(file, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			w.funcs[fd.Name.Value] = fd.Body
		}
		return true
	})
	w.walk(file, "")
	return w.cmds
}

func (w *walker) walk(node syntax.Node, prefix string) {
	if w.depth > w.s.limits.Depth {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			return false // a definition runs nothing; calls walk the body
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
				w.call(call, n.Redirs, prefix)
				// Words may hold $( ) bodies: walk them too, but not the
				// call again.
				for _, a := range call.Assigns {
					w.walk(a, prefix)
				}
				for _, a := range call.Args {
					w.walk(a, prefix)
				}
				for _, r := range n.Redirs {
					w.walk(r, prefix)
				}
				return false
			}
		}
		return true
	})
}

func (w *walker) call(call *syntax.CallExpr, redirs []*syntax.Redirect, prefix string) {
	place := placeAt(prefix, call.Args[0].Pos().Offset())
	words := call.Args
	var argv []string
	partial := false
	for _, word := range words {
		v, ok := literalWord(word)
		if !ok {
			partial = true
			break
		}
		argv = append(argv, v)
	}
	spelled := printWords(call.Args)
	if len(argv) == 0 {
		w.cmds = append(w.cmds, staticCmd{place: place, dynamic: true, spelled: spelled, dir: w.dir})
		return
	}
	var extra []gate.Operand
	for _, r := range redirs {
		if r.Word == nil || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc || r.Op == syntax.DplIn || r.Op == syntax.DplOut {
			continue
		}
		if v, ok := literalWord(r.Word); ok && w.dir != "" {
			write := r.Op != syntax.RdrIn
			extra = append(extra, gate.Operand{Arg: v, Path: utils.Join(w.dir, v), Write: write})
		}
	}
	name := argv[0]
	if w.s.isTreeInternal(name) {
		// The guard before a declaration: judge its keyword as a command.
		if name == w.s.envCheckName() && !partial && len(argv) >= 3 {
			decl := argv[2:]
			w.cmds = append(w.cmds, staticCmd{place: prefix + argv[1], argv: decl, spelled: strings.Join(decl, " "), dir: w.dir})
		}
		return
	}
	// A call of a function: its body runs framed under this place (G-3.3).
	if body := w.funcs[name]; body != nil || (w.s.isFunc(name) && !isShellBuiltin(name) && utils.Lookup(name) == nil) {
		if body == nil {
			body = w.s.funcBody(name)
		}
		if body != nil && w.depth < 16 {
			w.depth++
			// At run time the call is `eval 'f args'`: f sits at offset 0
			// of that text and passes unframed, so its body sits under this place
			// with the offsets of the text that defined it.
			w.walk(body, nestedPrefix(place))
			w.depth--
		}
		return
	}
	if isPathCommand(name) {
		// As at run time: /usr/bin/NAME is the utility NAME, any other
		// path a script, judged as the bash that runs it.
		if base := path.Base(name); utilityDirs.Get()[path.Dir(utils.Join(w.dir, name))] && w.s.installed(base) {
			argv = append([]string{base}, argv[1:]...)
		} else {
			argv = append([]string{"bash"}, argv...)
		}
	}
	w.cmds = append(w.cmds, staticCmd{place: place, argv: argv, partial: partial, spelled: spelled, dir: w.dir, extra: extra})
	if name == "cd" || name == "pushd" || name == "popd" {
		w.changeDir(argv, partial)
	}
	if partial {
		return
	}
	w.nested(argv, place)
}

// changeDir follows a directory change: a literal `cd DIR` moves the cwd
// later commands are judged in; any other (`cd $D`, `cd -`, `cd`, pushd,
// popd) leaves it unknown, and the commands after it are judged at the
// execution gate alone, where their real cwd is known. Preflight asking
// about a guessed cwd would show the human a path the line will not read,
// and the execution gate would ask again (G-9.3, G-9.5).
func (w *walker) changeDir(argv []string, partial bool) {
	switch {
	case !partial && argv[0] == "cd" && len(argv) == 2 && !strings.HasPrefix(argv[1], "-"):
		if w.dir != "" || strings.HasPrefix(argv[1], "/") {
			w.dir = utils.Join(w.dir, argv[1])
		}
	default:
		w.dir = ""
	}
}

// nested follows what a literal command evaluates or wraps (G-3.5, G-9.6).
func (w *walker) nested(argv []string, place string) {
	switch argv[0] {
	case "eval":
		w.text(strings.Join(argv[1:], " "), nestedPrefix(place))
		return
	case "bash", "sh":
		if s, ok := parseBashArgs(argv).script(); ok {
			was := w.inShell
			w.inShell = true
			w.text(s, nestedPrefix(place))
			w.inShell = was
		}
		return
	}
	inner, nestedPlace, partial := unwrapStatic(argv, place)
	if len(inner) == 0 {
		return
	}
	w.cmds = append(w.cmds, staticCmd{place: nestedPlace, argv: inner, partial: partial, spelled: strings.Join(inner, " "), dir: w.dir})
	if !partial {
		w.nested(inner, nestedPlace)
	}
}

func (w *walker) text(text, prefix string) {
	if w.depth >= 16 {
		return
	}
	// An eval string is read with the session's aliases, a nested bash's
	// script with none, as the run reads them (G-2.3).
	tbl := w.s.sessionAliases()
	if w.inShell {
		tbl = aliasTable{}
	}
	text, err := expandAliasText(text, tbl)
	if err != nil {
		return
	}
	f, err := w.s.parseNested(text)
	if err != nil {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			w.funcs[fd.Name.Value] = fd.Body
		}
		return true
	})
	w.depth++
	w.walk(f, prefix)
	w.depth--
}

// unwrapStatic returns the command a wrapper runs, where it sits, and
// whether its words are only partly known (xargs and find append operands).
func unwrapStatic(argv []string, place string) ([]string, string, bool) {
	skip := func(i int, withArg map[string]bool) int {
		for i < len(argv) {
			a := argv[i]
			if a == "--" {
				return i + 1
			}
			if !strings.HasPrefix(a, "-") || a == "-" {
				return i
			}
			if withArg[a] {
				i++
			}
			i++
		}
		return i
	}
	switch argv[0] {
	case "command", "builtin", "exec", "nohup":
		inner, lookup := unwrapDispatch(argv)
		if lookup {
			return nil, "", false
		}
		return inner, place, false
	case "time":
		return argv[skip(1, nil):], place, false
	case "nice":
		return argv[skip(1, map[string]bool{"-n": true}):], place, false
	case "env":
		i := skip(1, map[string]bool{"-u": true, "-C": true, "-S": true})
		for i < len(argv) && strings.Contains(argv[i], "=") {
			i++
		}
		return argv[i:], place, false
	case "timeout":
		i := skip(1, map[string]bool{"-s": true, "-k": true, "--signal": true, "--kill-after": true})
		if i < len(argv) {
			i++ // the duration
		}
		return argv[i:], place, false
	case "xargs":
		i := skip(1, map[string]bool{"-n": true, "-I": true, "-d": true, "-P": true, "-L": true, "-s": true, "-E": true, "-a": true, "-i": false})
		if i >= len(argv) {
			return []string{"echo"}, nestedPrefix(place) + "x", true
		}
		return argv[i:], nestedPrefix(place) + "x", true
	case "find":
		for i := 1; i < len(argv); i++ {
			switch argv[i] {
			case "-exec", "-execdir", "-ok", "-okdir":
				j := i + 1
				for j < len(argv) && argv[j] != ";" && argv[j] != "+" {
					j++
				}
				inner := argv[i+1 : j]
				partial := false
				for _, a := range inner {
					if strings.Contains(a, "{}") {
						partial = true
					}
				}
				// The first -exec only: preflight reads one; the run judges all.
				return inner, nestedPrefix(place) + "x", partial
			}
		}
	}
	return nil, "", false
}

// printWords spells words as the line wrote them. Plain literals, most
// words of most lines, are joined directly: a printer costs a 4 KiB buffer.
func printWords(words []*syntax.Word) string {
	var b strings.Builder
	var p *syntax.Printer
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if len(w.Parts) == 1 {
			if lit, ok := w.Parts[0].(*syntax.Lit); ok {
				b.WriteString(lit.Value)
				continue
			}
		}
		if p == nil {
			p = printers.Get().(*syntax.Printer)
			defer printers.Put(p)
		}
		p.Print(&b, w)
	}
	return b.String()
}

var printers = sync.Pool{New: func() any { return syntax.NewPrinter() }}

// judgeStatic judges one static command as the execution gate would.
func (s *Shell) judgeStatic(line string, c staticCmd) gate.Verdict {
	if c.dynamic {
		return gate.Verdict{Outcome: gate.Dynamic}
	}
	if !s.installed(c.argv[0]) {
		return gate.Verdict{Outcome: gate.NotFound}
	}
	if c.partial || c.dir == "" {
		// Only a command-axis deny can be read from a literal prefix (or
		// from a command whose cwd preflight cannot know): a deny pattern
		// that matches the prefix matches every completion of it.
		v := s.cfg.Profile.Judge(gate.Command{Argv: c.argv, Cwd: c.dir, Partial: true, Line: line, Session: s.sessionInfo(), Resolver: s.resolver})
		if v.Outcome == gate.Deny && v.Refusal != nil && v.Refusal.Scope == "command" && v.Refusal.Policy != "allow" {
			return v
		}
		return gate.Verdict{Outcome: gate.Dynamic}
	}
	return s.cfg.Profile.Judge(s.command(line, c.argv, c.dir, c.extra))
}

// preflight judges every literal command before anything runs (G-9.3) and
// settles the line's questions (G-9.8). stop reports that the line must not
// run; res is then its result.
func (s *Shell) preflight(ctx context.Context, ls *lineState, file *syntax.File) (Result, bool) {
	line := ls.text
	cmds := s.collect(file, s.runner.Dir)
	// In line order: a deny (by rule or by a host's deny-once) stops the
	// line at once and spends what it claimed so far; an ask takes its
	// standing answer if there is one (G-9.7).
	var unanswered []asked
	for _, c := range cmds {
		v := s.judgeStatic(line, c)
		if len(v.Waived) > 0 {
			ls.waiveOpens(v.Waived, c.extra) // the excepted command's own redirections
		}
		switch v.Outcome {
		case gate.Deny:
			if v.Refusal.Scope == "command" {
				return s.refuseLine(ls, c, v, *v.Refusal), true
			}
		case gate.Ask:
			a := asked{c: c, v: v, cmd: s.command(line, c.argv, c.dir, c.extra)}
			a.full = s.question(ls, c.place, c.argv, a.cmd, v)
			a.q = s.narrow(ctx, ls, a.full)
			if len(a.q.Rules) == 0 {
				ls.grantPaths(pathGrants(a.full)) // session grants settle it
				continue
			}
			if ls.reserved(a.q.Place, a.q.Facts) {
				continue
			}
			if s.cfg.Host != nil {
				if claim, ok := s.cfg.Host.Lookup(ctx, a.q); ok {
					ls.heard(claim, claim.Note)
					s.reserve(ctx, ls, a, claim)
					if claim.Standing == Denied {
						return s.refuseLine(ls, c, hostDenied, *refusalFromClaim(a.q, claim)), true
					}
					continue
				}
			}
			unanswered = append(unanswered, a)
		}
	}
	if len(unanswered) == 0 {
		return Result{}, false
	}
	if s.cfg.Host != nil && s.cfg.Host.Inline(ctx) {
		// One question at a time, in line order; the line waits (G-9.8).
		for _, a := range unanswered {
			// An earlier answer of this loop may have settled this
			// question's rules for the session.
			if a.q = s.narrow(ctx, ls, a.full); len(a.q.Rules) == 0 {
				ls.grantPaths(pathGrants(a.full))
				continue
			}
			standing, claim, held, ref, err := s.obtain(context.WithValue(ctx, preflightKey{}, true), ls, a.q)
			if err != nil {
				return s.waitLine(ls, a, withStatus(a.q.Refusal, "", "pending")), true
			}
			if held {
				s.reserve(ctx, ls, a, claim)
			}
			switch standing {
			case Denied:
				return s.refuseLine(ls, a.c, hostDenied, *ref), true
			case NoAnswer:
				return s.waitLine(ls, a, *ref), true
			}
		}
		return Result{}, false
	}
	// No one to wait on: raise every unanswered question at once and refuse
	// with the first.
	var records []gate.Refusal
	for _, a := range unanswered {
		r := withStatus(a.q.Refusal, "", "pending")
		if s.cfg.Host != nil {
			reply, err := s.cfg.Host.Ask(ctx, a.q)
			if err == nil {
				r.AskID = reply.AskID
			}
		}
		records = append(records, r)
	}
	res := s.waitLine(ls, unanswered[0], records[0])
	res.Refusals = records
	return res, true
}

// preflightKey marks the context of a Host.Ask that preflight makes,
// before anything of the line ran (see InPreflight).
type preflightKey struct{}

// InPreflight reports whether a Host.Ask call under ctx comes from
// preflight, before anything of its line ran. Such a question may be
// deferred: the host raises it and returns "pending" at once, the line is
// refused with the pending record having run nothing (and spends nothing,
// G-9.7), and the host's caller may wait for the answer outside the line
// (other lines of the session run meanwhile) and then run the line again,
// which finds the answer as a retry would. A question raised later, by the
// execution gate, must be waited for in place: part of the line has run.
func InPreflight(ctx context.Context) bool { return ctx.Value(preflightKey{}) != nil }

// asked is one question preflight raises: the static command, its verdict
// and gate command, the question with every rule (full) and narrowed by
// session grants (q).
type asked struct {
	c       staticCmd
	v       gate.Verdict
	cmd     gate.Command
	full, q Question
}

// reserve holds an answer preflight obtained for a literal command, for
// the execution gate to use when it reaches that command with the same
// facts (G-9.3, G-9.5). The execution gate judges a command without its
// redirections (the interpreter opens those itself, through the door,
// where the paths this answer showed are open to the line), so the facts
// it must meet are those of the command alone.
func (s *Shell) reserve(ctx context.Context, ls *lineState, a asked, claim Claim) {
	pc := &placeClaim{claim: claim, rules: a.q.ruleKeys(), asked: a.q.Facts, facts: a.q.Facts}
	if len(a.c.extra) > 0 {
		pc.rules, pc.facts = "", "" // the command alone meets no ask: never used by name
		bare := s.command(ls.text, a.c.argv, a.c.dir, nil)
		if v := s.cfg.Profile.Judge(bare); v.Outcome == gate.Ask {
			q := s.narrow(ctx, ls, s.question(ls, a.c.place, a.c.argv, bare, v))
			pc.rules, pc.facts = q.ruleKeys(), q.Facts
		}
	}
	ls.hold(a.q.Place, pc)
	if claim.Standing == Allowed {
		ls.grantPaths(pathGrants(a.full))
	}
}

func withStatus(r gate.Refusal, askID, status string) gate.Refusal {
	r.AskID, r.Status = askID, status
	return r
}

// refuseLine: a command of the line is denied; nothing runs, and the refusal
// spends what the line claimed (G-9.7).
func (s *Shell) refuseLine(ls *lineState, c staticCmd, v gate.Verdict, r gate.Refusal) Result {
	text, code := refusalText(v, c.argv)
	if v.Outcome == gate.Deny && r.Scope == "command" {
		code = 126
	}
	return Result{Stderr: text, ExitCode: code, Refusal: &r, Refusals: []gate.Refusal{r}}
}

// HostDenied is the result of a line that preflight refused with the
// pending record (a deferred question, see InPreflight) once a host has
// answered that question deny: the asked command refused whole, 126, with
// the deny record carrying the ask's id and the host's note (G-9.5), as a
// line that waited in place would have been refused. Nothing is claimed:
// the deny stands for the agent's retry (G-10.4).
func HostDenied(pending gate.Refusal, command, note string) Result {
	r := refusalFromClaim(Question{Refusal: pending}, Claim{Standing: Denied, AskID: pending.AskID, Note: note})
	text, _ := refusalText(hostDenied, []string{command})
	return Result{Stderr: text, ExitCode: 126, Refusal: r, Refusals: []gate.Refusal{*r}}
}

// waitLine: a question waits for its answer; the line does not run and
// spends nothing (G-9.4, G-9.7).
func (s *Shell) waitLine(ls *lineState, a asked, r gate.Refusal) Result {
	ls.mu.Lock()
	ls.waiting = true
	ls.mu.Unlock()
	text, _ := refusalText(askVoice(a.v, a.q, a.cmd), a.c.argv)
	return Result{Stderr: text, ExitCode: 126, Refusal: &r, Refusals: []gate.Refusal{r}}
}
