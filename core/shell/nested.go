package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
)

// evalNested runs text as a line within the line, framed under place
// (G-9.6): eval bodies, sourced files and function calls. direct names the
// function call this frame was made for.
func (s *Shell) evalNested(ctx context.Context, hc interp.HandlerContext, place, text, direct string, params []string) error {
	fr := frameOf(ctx)
	if fr.depth+1 > s.limits.Depth {
		return s.halt(ctx, &errHalt{125, "gatehouse: line exceeded the nesting depth limit of " + strconv.Itoa(s.limits.Depth)})
	}
	nf := &frame{prefix: nestedPrefix(place), depth: fr.depth + 1}
	if direct != "" {
		nf.direct = direct
		nf.directUsed = new(atomic.Bool)
	}
	var f *syntax.File
	var reread interp.Reread
	var err error
	if direct == "" {
		// An eval string or a sourced file is read as bash reads it, with
		// the aliases defined so far, and read again from a line on as
		// its run defines others (G-2.3).
		var rd *textReader
		if f, rd, err = s.readText(text, tableOf(hc.Aliases())); errors.Is(err, errAliasBound) {
			fmt.Fprintf(hc.Stderr, "bash: eval: %v\n", err)
			return interp.ExitStatus(2)
		} else if err == nil {
			reread = rd.reread
		}
	} else {
		f, err = s.parseNested(text)
	}
	if err != nil {
		// bash's voice for a body that does not parse: "bash: eval: line
		// 1: …", status 2, and the line goes on.
		fmt.Fprintf(hc.Stderr, "bash: eval: %s\n", parseErrorText(err))
		return interp.ExitStatus(2)
	}
	// The eval runs f as rewritten, so its lines stay the text's.
	ctx = interp.Parsed(withFrame(ctx, nf), f, reread)
	if direct != "" {
		ctx = interp.StandIn(ctx) // the call itself, for the ERR trap
		// BASH_LINENO gives the line of the call, not of the eval's text.
		ctx = interp.CallLine(ctx, hc.Pos.Line())
	}
	return hc.Builtin(ctx, []string{"eval", text})
}

// parseNested parses a nested text (an eval string, a sourced file, a bash
// -c script) and applies the rewrites a top-level line gets (process
// substitution, job tracking, declaration guards) in place, keeping the
// text's positions: the run and the preflight both read it so, so places
// agree, and errors name the text's own lines.
func (s *Shell) parseNested(text string) (*syntax.File, error) {
	f, err := parse(text)
	if err != nil {
		return nil, err
	}
	s.rewriteProcSubst(f)
	s.rewriteEnvWrites(f)
	return f, nil
}

// source reads a file through the door and evaluates it (G-3.5). The
// interpreter's own `source` would look along the host $PATH.
func (s *Shell) source(ctx context.Context, hc interp.HandlerContext, place, file string, args []string) error {
	name := "source"
	data, err := s.readFile(ctx, utils.Join(hc.Dir, file))
	if err != nil {
		sayf(hc, "bash: %s: %s\n", file, errnoText(err))
		return interp.ExitStatus(1)
	}
	_ = name
	// return ends the file, and its arguments are $1… while it runs.
	ctx = interp.CallLine(interp.Sourced(ctx, file, args), hc.Pos.Line())
	return s.evalNested(ctx, hc, place, string(data), "", args)
}

func (s *Shell) readFile(ctx context.Context, path string) ([]byte, error) {
	f, err := s.view(lineOf(ctx), nil).Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// runNested runs `bash -c S`, `bash FILE` or `bash` reading stdin, as a new
// shell process would: a fresh interpreter with the exported environment,
// framed under the command's place.
func (s *Shell) runNested(ctx context.Context, ls *lineState, argv []string, dir string, env expand.Environ, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	name := argv[0]
	var script, scriptName string
	var params []string
	inv := parseBashArgs(argv)
	if inv.usage != "" {
		fmt.Fprintf(stderr, "%s: %s\n", name, inv.usage)
		if inv.invalid {
			io.WriteString(stderr, bashUsage)
		}
		return 2, nil
	}
	rest := inv.operands
	switch {
	case inv.fromString:
		if len(rest) == 0 {
			fmt.Fprintf(stderr, "%s: -c: option requires an argument\n", name)
			return 2, nil
		}
		script, scriptName, params = rest[0], name, rest[1:]
		if len(params) > 0 {
			scriptName, params = params[0], params[1:]
		}
	case len(rest) > 0 && !inv.fromStdin:
		data, err := s.readFile(ctx, utils.Join(dir, rest[0]))
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s: %s\n", name, rest[0], errnoText(err))
			return 127, nil
		}
		script, scriptName, params = string(data), rest[0], rest[1:]
	default:
		if stdin == nil {
			return 0, nil
		}
		data, _ := io.ReadAll(stdin)
		script, params = string(data), rest
		stdin = strings.NewReader("")
	}
	if scriptName == "" {
		scriptName = name
	}
	fr := frameOf(ctx)
	if fr.depth+1 > s.limits.Depth {
		return 125, &errHalt{125, "gatehouse: line exceeded the nesting depth limit of " + strconv.Itoa(s.limits.Depth)}
	}
	// A new shell starts with no aliases, and expands none until its
	// script turns expand_aliases on (G-2.3).
	script, err := expandAliasText(script, aliasTable{})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2, nil
	}
	file, err := s.parseNested(script)
	if err != nil {
		where := scriptName
		if inv.fromString {
			where = name + ": -c"
		}
		fmt.Fprintf(stderr, "%s: %s\n", where, parseErrorText(err))
		return 2, nil
	}
	file.Name = scriptName // $0
	s.noteFuncs(file)
	r, err := s.freshRunner(s.environ(env), dir, s.pid, name)
	if err != nil {
		return 125, err
	}
	interp.Umask(umaskOf(ctx))(r) // a child shell inherits it
	if !inv.fromString && !inv.fromStdin && len(rest) > 0 {
		r.RunsScript(scriptName) // BASH_SOURCE and FUNCNAME's main
	}
	if len(params) > 0 || len(inv.setOptions) > 0 {
		interp.Params(append(append(inv.setOptions, "--"), params...)...)(r)
	}
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	interp.StdIO(stdin, stdout, stderr)(r)
	nctx := withFrame(ctx, &frame{prefix: nestedPrefix(placeOf(ctx)), depth: fr.depth + 1})
	var runErr error
	mark := ls.deferredMark()
	if path.Base(name) == "sh" || inv.interactive || !s.bashEnv(nctx, r, env, dir, &runErr) {
		runErr = r.Run(nctx, file)
	}
	// What an exec > >(…) of this shell sent to its body goes on as it
	// ends (rewrite.go).
	s.runDeferredFrom(nctx, r, mark, stdout, stderr)
	if ls != nil {
		// The nested shell's variables go with it.
		ls.charge(-r.MemoryHeld())
	}
	var h *errHalt
	if errors.As(runErr, &h) {
		return h.code, h
	}
	if runErr != nil {
		if code, ok := exitStatus(runErr); ok {
			return int(code), nil
		}
		if code := exitCodeOf(runErr); code == 2 {
			return 2, nil // nested past a bound: that shell ends, as bash's child would
		}
		if ls != nil && context.Cause(ctx) != nil {
			return 125, context.Cause(ctx)
		}
		return 125, nil
	}
	return 0, nil
}

// bashEnv sources $BASH_ENV in a non-interactive bash before its script,
// as bash does: the value's variables expanded, a file that cannot be read
// skipped without a word. The source command is a command of the nested
// shell, judged like any other, framed apart from the script's own places.
// It reports whether the file ended the shell (exit), with runErr set.
func (s *Shell) bashEnv(ctx context.Context, r *interp.Runner, env expand.Environ, dir string, runErr *error) bool {
	v := env.Get("BASH_ENV")
	if !v.IsSet() || v.String() == "" {
		return false
	}
	p := os.Expand(v.String(), func(k string) string { return env.Get(k).String() })
	if p == "" {
		return false
	}
	if _, err := s.readFile(ctx, utils.Join(dir, p)); err != nil {
		return false
	}
	q, err := syntax.Quote(p, syntax.LangBash)
	if err != nil {
		return false
	}
	f, err := parse(". " + q)
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	fr := frameOf(ctx)
	err = r.Run(withFrame(ctx, &frame{prefix: fr.prefix + "env/", depth: fr.depth}), f.Stmts[0])
	if r.Exited() {
		*runErr = err
		return true
	}
	// The script starts with $? at 0, whatever the file returned.
	if colon, err := parse(":"); err == nil {
		r.Run(context.WithValue(ctx, internalKey{}, true), colon.Stmts[0])
	}
	return false
}

// defaultPath is the PATH a shell sets when it starts without one: Debian's
// bash 5.2 and dash, the shells bash and sh name there.
func defaultPath(name string) string {
	if path.Base(name) == "sh" {
		return "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	}
	return "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."
}

// freshRunner is a new interpreter for a nested shell process.
func (s *Shell) freshRunner(env []string, dir string, ppid int, name string) (*interp.Runner, error) {
	setup := shellVariables
	if !hasVar(env, "HOME") {
		// The interpreter would fill an unset HOME from the host's.
		env = append(env, "HOME=")
		setup += "unset HOME\n"
	}
	if !hasVar(env, "PATH") {
		// A shell started without PATH sets its compiled-in default, not
		// exported: bash's, or dash's for sh. Commands are never looked
		// up along it (G-3.2); scripts only read it.
		setup += "PATH=" + defaultPath(name) + "\n"
	}
	r, err := s.newRunner(env, dir, false, s.pids.next(), ppid)
	if err != nil {
		return nil, err
	}
	if ppid == s.pid {
		// kill -SIG $PPID reaches the session's shell, which takes the
		// signal after the command running the nested shell.
		parent := s.runner
		interp.SignalParent(parent.Signal)(r)
	}
	r.Reset()
	f, _ := syntax.NewParser().Parse(strings.NewReader(setup), "")
	r.Run(context.WithValue(context.Background(), internalKey{}, true), f)
	r.ClearPipeStatus()
	return r, nil
}

// lookup answers type, command -v/-V, hash, compgen, help and enable from
// the session's tool set alone: the host $PATH is never searched (G-3.2).
func (s *Shell) lookup(hc interp.HandlerContext, mode string, args []string) error {
	var out io.Writer = hc.Stdout
	status := 0
	var bad *badOutput
	if interp.IsBadFd(out) && (mode == "type" || mode == "help" || mode == "enable") {
		// Output to a bad descriptor fails as these builtins of bash's
		// do (command -v and compgen say nothing).
		bad = &badOutput{w: out}
		out = bad
	}
	var flags []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		flags = append(flags, args[0])
		args = args[1:]
	}
	has := func(f string) bool {
		for _, x := range flags {
			if strings.Contains(x, f) {
				return true
			}
		}
		return false
	}
	kind := func(name string) string {
		switch {
		case syntax.IsKeyword(name):
			return "keyword"
		case s.isFunc(name):
			return "function"
		case isShellBuiltin(name) && s.installed(name):
			return "builtin"
		case s.installed(name):
			return "file"
		}
		return ""
	}
	switch mode {
	case "type":
		status = s.lookupType(hc, out, args, has, kind)
	case "command":
		// bash's status is 1 only when no name was found.
		verbose, found := has("V"), false
		for _, n := range args {
			if als, ok := hc.Alias(n); ok {
				found = true
				if verbose {
					fmt.Fprintf(out, "%s is aliased to `%s'\n", n, als)
				} else {
					fmt.Fprintf(out, "alias %s=%s\n", n, singleQuoted(als))
				}
				continue
			}
			k := kind(n)
			found = found || k != ""
			switch {
			case k == "":
				if verbose {
					sayf(hc, "bash: command: %s: not found\n", n)
				}
			case verbose && k == "file":
				fmt.Fprintf(out, "%s is /usr/bin/%s\n", n, n)
			case verbose:
				fmt.Fprintf(out, "%s is a shell %s\n", n, k)
			case k == "file":
				fmt.Fprintf(out, "/usr/bin/%s\n", n)
			default:
				fmt.Fprintln(out, n)
			}
		}
		if !found && len(args) > 0 {
			status = 1
		}
	case "hash":
		for _, n := range args {
			if !s.installed(n) || isShellBuiltin(n) {
				sayf(hc, "bash: hash: %s: not found\n", n)
				status = 1
			}
		}
	case "compgen":
		prefix := ""
		if len(args) > 0 {
			prefix = args[len(args)-1]
		}
		if has("c") || has("b") {
			for _, n := range s.toolNames(has("b")) {
				if strings.HasPrefix(n, prefix) {
					fmt.Fprintln(out, n)
				}
			}
		}
	case "help":
		for _, n := range args {
			if !s.installed(n) || !isShellBuiltin(n) {
				sayf(hc, "bash: help: no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.\n", n, n, n)
				status = 1
				continue
			}
			fmt.Fprintf(out, "%s: %s is a shell builtin\n", n, n)
		}
		if len(args) == 0 {
			for _, n := range s.toolNames(true) {
				fmt.Fprintln(out, n)
			}
		}
	case "enable":
		status = s.enable(hc, out, flags, args)
	}
	if bad != nil && bad.tried {
		sayf(hc, "bash: %s: write error: Bad file descriptor\n", mode)
		status = max(status, 1)
	}
	if status != 0 {
		return interp.ExitStatus(uint8(status))
	}
	return nil
}

// lookupType answers type for names: an alias first (unless -P), then a
// keyword, a function, a builtin or a file of the tool set.
func (s *Shell) lookupType(hc interp.HandlerContext, out io.Writer, args []string, has func(string) bool, kind func(string) string) int {
	status := 0
	for _, n := range args {
		// An alias comes first, as bash describes a name; -P
		// looks for a file alone.
		als, isAlias := hc.Alias(n)
		if isAlias && !has("P") {
			switch {
			case has("t"):
				fmt.Fprintln(out, "alias")
			case has("p"):
			default:
				fmt.Fprintf(out, "%s is aliased to `%s'\n", n, als)
			}
			if !has("a") {
				continue
			}
		}
		k := kind(n)
		switch {
		case k == "" && isAlias && !has("P"):
		case k == "":
			if !has("t") && !has("p") && !has("P") {
				sayf(hc, "bash: type: %s: not found\n", n)
			}
			status = 1
		case has("t"):
			fmt.Fprintln(out, k)
		case has("p") || has("P"):
			if k == "file" {
				fmt.Fprintf(out, "/usr/bin/%s\n", n)
			}
		case k == "keyword":
			fmt.Fprintf(out, "%s is a shell keyword\n", n)
		case k == "function":
			fmt.Fprintf(out, "%s is a function\n", n)
			if text, ok := hc.FuncText(n); ok {
				fmt.Fprintln(out, text)
			}
		case k == "builtin":
			fmt.Fprintf(out, "%s is a shell builtin\n", n)
		default:
			fmt.Fprintf(out, "%s is /usr/bin/%s\n", n, n)
		}
	}
	return status
}

// singleQuoted quotes text in single quotes as bash's alias and command -v
// print an alias: a quote inside ends the quoting, is escaped with a
// backslash and the quoting begins again.
func singleQuoted(text string) string {
	return "'" + strings.ReplaceAll(text, "'", `'\''`) + "'"
}

// enable answers bash's enable from the tool set: with no names it lists
// the installed builtins ("enable NAME"); a name must be an installed
// builtin. Builtins cannot be disabled or loaded here: -n accepts an
// installed builtin and changes nothing (its utility twin, if any, behaves
// the same), and -f says dynamic loading is not available.
func (s *Shell) enable(hc interp.HandlerContext, out io.Writer, flags, names []string) int {
	for _, f := range flags {
		if strings.ContainsAny(f, "fd") {
			sayf(hc, "bash: enable: dynamic loading not available\n")
			return 1
		}
	}
	if len(names) == 0 {
		for _, n := range s.toolNames(true) {
			fmt.Fprintf(out, "enable %s\n", n)
		}
		return 0
	}
	status := 0
	for _, n := range names {
		if !s.installed(n) || !isShellBuiltin(n) {
			sayf(hc, "bash: enable: %s: not a shell builtin\n", n)
			status = 1
		}
	}
	return status
}

// toolNames lists the installed commands, builtins only when asked.
func (s *Shell) toolNames(builtinsOnly bool) []string {
	return installedNames(s.cfg.Profile, builtinsOnly)
}

// Commands lists, sorted, the commands that exist for a session of the
// profile (G-3.1, G-3.2): its tool set less what the shell does not have.
// It is what `compgen -c` would list there.
func Commands(p *gate.Profile) []string { return installedNames(p, false) }

func installedNames(p *gate.Profile, builtinsOnly bool) []string {
	var names []string
	for _, n := range shellBuiltinNames {
		if p.Installed(n) && interp.IsBuiltin(n) {
			names = append(names, n)
		}
	}
	if !builtinsOnly {
		for _, n := range utils.Names() {
			if p.Installed(n) && !isShellBuiltin(n) {
				names = append(names, n)
			}
		}
		for _, n := range []string{"bash", "sh"} {
			if p.Installed(n) {
				names = append(names, n)
			}
		}
	}
	sortStrings(names)
	return names
}

// pwdPhysical is `pwd -P` resolved through the VFS, never the host.
func (s *Shell) pwdPhysical(ctx context.Context, hc interp.HandlerContext) error {
	p, err := s.view(lineOf(ctx), nil).Resolve(hc.Dir)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "pwd: error retrieving current directory: %s\n", errnoText(err))
		return interp.ExitStatus(1)
	}
	if _, err := fmt.Fprintln(hc.Stdout, p); err != nil && interp.IsBadFd(hc.Stdout) {
		sayf(hc, "bash: pwd: write error: Bad file descriptor\n")
		return interp.ExitStatus(1)
	}
	return nil
}

// checkCd gives `cd` bash's voice for a missing, hidden or refused target
// (G-4.5: a hidden directory reads "No such file or directory").
func (s *Shell) checkCd(ctx context.Context, ls *lineState, scope *gate.OpScope, dir string, args []string) (string, int, bool) {
	// The operand as bash's cd reads it: after the options, alone (the
	// builtin reports the other cases itself).
	ops := args[1:]
	for len(ops) > 0 && len(ops[0]) > 1 && ops[0][0] == '-' {
		opt := ops[0]
		ops = ops[1:]
		if opt == "--" {
			break
		}
	}
	if len(ops) != 1 || ops[0] == "" || ops[0] == "-" {
		return "", 0, false
	}
	target := ops[0]
	v := s.view(ls, scope)
	info, err := v.Stat(utils.Join(dir, target))
	if err == nil && !info.IsDir() {
		err = syscall.ENOTDIR
	}
	if err == nil {
		_, err = v.ReadDir(utils.Join(dir, target))
		if errors.Is(err, syscall.ENOTDIR) {
			err = nil
		}
	}
	if err != nil {
		return "bash: " + args[0] + ": " + target + ": " + errnoText(err) + "\n", 1, true
	}
	return "", 0, false
}

// errnoText is the C library's text for an error, or a refusal's reason.
func errnoText(err error) string { return utils.ErrText(err) }

// Function registry: names the session's lines declared.

func (s *Shell) isFunc(name string) bool {
	s.funcsMu.Lock()
	defer s.funcsMu.Unlock()
	_, ok := s.funcs[name]
	return ok
}

func (s *Shell) noteFuncs(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			s.funcsMu.Lock()
			s.funcs[fd.Name.Value] = fd.Body
			s.funcsMu.Unlock()
		}
		return true
	})
}

func (s *Shell) noteUnset(args []string) {
	s.funcsMu.Lock()
	defer s.funcsMu.Unlock()
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			delete(s.funcs, a)
		}
	}
}

func (s *Shell) funcBody(name string) *syntax.Stmt {
	s.funcsMu.Lock()
	defer s.funcsMu.Unlock()
	return s.funcs[name]
}

// fdTable holds process-substitution outputs, served as /dev/fd/N, and
// the sinks a command writes to through >(…) paths.
type fdTable struct {
	mu     sync.Mutex
	next   int
	data   map[string]string
	sinks  map[string]*fdSink // by path
	keys   map[string]string  // a >(…) site's key: its sink's path
	status map[string]int     // a >(…) site's key: its command's status
}

func newFDTable() *fdTable {
	return &fdTable{next: 63, data: map[string]string{}, sinks: map[string]*fdSink{}, keys: map[string]string{}, status: map[string]int{}}
}

// path takes the next /dev/fd/N; t.mu is held.
func (t *fdTable) path() string {
	p := "/dev/fd/" + strconv.Itoa(t.next)
	t.next--
	if t.next < 10 {
		t.next = 63
	}
	delete(t.data, p)
	delete(t.sinks, p)
	return p
}

func (t *fdTable) put(data string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.path()
	t.data[p] = data
	return p
}

// openSink makes the path a >(…) site's command writes to.
func (t *fdTable) openSink(key string, k *fdSink) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.path()
	t.sinks[p] = k
	t.keys[key] = p
	return p
}

func (t *fdTable) sink(p string) (*fdSink, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k, ok := t.sinks[p]
	return k, ok
}

func (t *fdTable) get(p string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if k, ok := t.sinks[p]; ok {
		return k.String(), true
	}
	d, ok := t.data[p]
	return d, ok
}

func (t *fdTable) reset() {
	t.mu.Lock()
	t.next = 63
	clear(t.data)
	clear(t.sinks)
	clear(t.keys)
	clear(t.status)
	t.mu.Unlock()
}

// fdSink collects what a command writes to a >(…) path, for the body of
// the substitution to read once the command is done; it is charged to the
// line and bounded like a capture.
type fdSink struct {
	mu    sync.Mutex
	buf   []byte
	ls    *lineState
	limit int64
}

func (k *fdSink) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if int64(len(k.buf)+len(p)) > k.limit {
		return 0, syscall.EFBIG
	}
	if k.ls != nil {
		if err := k.ls.charge(int64(len(p))); err != nil {
			return 0, err
		}
	}
	k.buf = append(k.buf, p...)
	return len(p), nil
}

func (k *fdSink) String() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return string(k.buf)
}

// writeSubst answers the internal commands of a rewritten >(…) (see
// rewrite.go): WOUT KEY opens the site's sink and prints its path, WSAVE
// KEY N keeps the command's status, WIN KEY prints the path again for the
// body to read, WRESTORE KEY gives the status back.
func (s *Shell) writeSubst(ctx context.Context, hc interp.HandlerContext, op, key string, args []string) error {
	switch op {
	case "_wout":
		io.WriteString(hc.Stdout, s.fds.openSink(key, &fdSink{ls: lineOf(ctx), limit: s.limits.OutputBytes}))
	case "_wsave":
		n := 0
		if len(args) > 0 {
			n, _ = strconv.Atoi(args[0])
		}
		s.fds.mu.Lock()
		s.fds.status[key] = n
		s.fds.mu.Unlock()
	case "_win":
		s.fds.mu.Lock()
		p, ok := s.fds.keys[key]
		s.fds.mu.Unlock()
		if !ok {
			p = "/dev/null"
		}
		io.WriteString(hc.Stdout, p)
	case "_wdefer":
		if ls := lineOf(ctx); ls != nil {
			ls.mu.Lock()
			ls.deferred = append(ls.deferred, key)
			ls.mu.Unlock()
		}
	case "_wrestore":
		s.fds.mu.Lock()
		n := s.fds.status[key]
		s.fds.mu.Unlock()
		if n > 0 && n < 256 {
			return interp.ExitStatus(uint8(n))
		}
	}
	return nil
}

// captureFD stores a process substitution's output and prints its path.
func (s *Shell) captureFD(ctx context.Context, hc interp.HandlerContext) error {
	var data []byte
	if hc.Stdin != nil {
		data, _ = io.ReadAll(io.LimitReader(hc.Stdin, s.limits.OutputBytes))
	}
	if ls := lineOf(ctx); ls != nil {
		// Held in the fd table until the line ends.
		if ls.charge(int64(len(data))) != nil {
			return interp.ExitStatus(125)
		}
	}
	io.WriteString(hc.Stdout, s.fds.put(string(data)))
	return nil
}

func sortStrings(a []string) { sort.Strings(a) }

func hasVar(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}
