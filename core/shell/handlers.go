package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
	_ "gatehouse/core/shell/utils/awk" // registers awk and gawk
	_ "gatehouse/core/shell/utils/git" // registers git
	"gatehouse/core/vfs"
)

// Internal command names. The call handler produces them by rewriting a
// call; a call the agent spells with this prefix is "not found".
const (
	cmdEval   = "__gh_eval"   // __gh_eval PLACE WORDS...
	cmdFunc   = "__gh_fn"     // __gh_fn PLACE NAME ARGS...
	cmdSource = "__gh_source" // __gh_source PLACE FILE ARGS...
	cmdLookup = "__gh_lookup" // __gh_lookup MODE NAMES... (type / command -v)
	cmdPwd    = "__gh_pwd"    // __gh_pwd (pwd -P)
	cmdUtil   = "__gh_util"   // __gh_util NAME ARGS... (a utility in a builtin's place)
	cmdPrintV = "__gh_printv" // __gh_printv NAME FORMAT ARGS... (printf -v NAME)
	internalP = "__gh_"
)

func (s *Shell) isTreeInternal(name string) bool {
	return strings.HasPrefix(name, s.capture)
}

// callHandler sees every simple command, builtins and function calls
// included, after expansion (G-3.2, G-9.4).
func (s *Shell) callHandler(ctx context.Context, args []string) ([]string, error) {
	if isInternal(ctx) {
		return args, nil
	}
	name := args[0]
	if s.isTreeInternal(name) {
		return args, nil
	}
	if strings.HasPrefix(name, internalP) {
		return s.refuseCall(lineOf(ctx), notFound(name))
	}
	hc := interp.HandlerCtx(ctx)
	fr := frameOf(ctx)
	place := placeAt(fr.prefix, hc.Pos.Offset())
	ls := lineOf(ctx)

	// Functions are exempt (G-3.3); their bodies get places of their own.
	direct := fr.direct == name && fr.directUsed != nil && !fr.directUsed.Swap(true)
	if !direct && s.isFunc(name) {
		if ls != nil && ls.commands.Add(1) > int64(s.limits.Commands) {
			return nil, s.halt(ctx, &errHalt{125, "gatehouse: line exceeded the limit of " + itoa(s.limits.Commands) + " commands"})
		}
		return append([]string{cmdFunc, place}, args...), nil
	}
	if !isShellBuiltin(name) {
		return args, nil // the exec handler judges every other command
	}
	if direct {
		// A function named like a builtin, being called: the name is still
		// judged, then the function runs, not the builtin.
		if a := s.admit(ctx, ls, place, args[:1], hc.Dir, nil); !a.run {
			return s.refusedCall(ctx, a)
		}
		return args, nil
	}
	if name == "unset" {
		s.noteUnset(args[1:])
	}
	// Builtins that dispatch another command: judge the wrapper, then the
	// command it runs, at the same place (G-3.5).
	if name == "command" || name == "builtin" || name == "exec" {
		inner, lookup := unwrapDispatch(args)
		if lookup {
			if a := s.admit(ctx, ls, place, args[:1], hc.Dir, nil); !a.run {
				return s.refusedCall(ctx, a)
			}
			return append([]string{cmdLookup, "command"}, args[1:]...), nil
		}
		if a := s.admit(ctx, ls, place, args[:1], hc.Dir, nil); !a.run {
			return s.refusedCall(ctx, a)
		}
		if name == "builtin" && len(inner) > 0 && (!interp.IsBuiltin(inner[0]) || !s.installed(inner[0])) {
			// A builtin missing from the tool set reads exactly like one
			// bash never had (G-3.2).
			return s.refuseCall(ls, &Refused{Code: 1, Stderr: "bash: builtin: " + inner[0] + ": not a shell builtin\n"})
		}
		if name == "exec" && len(inner) > 0 && isShellBuiltin(inner[0]) && utils.Lookup(inner[0]) == nil {
			// exec runs a program, never a builtin: `exec eval ...` is
			// not found, as the exec handler says, and ends the line.
			return args, nil
		}
		if len(inner) > 0 && isShellBuiltin(inner[0]) {
			if a := s.admit(ctx, ls, place, inner, hc.Dir, nil); !a.run {
				return s.refusedCall(ctx, a)
			}
			// `builtin eval S`, `command source F`, `builtin type X`,
			// `command pwd -P` run as the plain spellings do: framed,
			// depth-counted, never along the host $PATH or on the host's
			// files (G-3.5, G-12.1, G-12.3).
			if own, ok := s.ownBuiltin(ls, place, inner); ok {
				return own, nil
			}
		}
		return args, nil
	}
	a := s.admit(ctx, ls, place, args, hc.Dir, nil)
	if !a.run {
		return s.refusedCall(ctx, a)
	}
	if own, ok := s.ownBuiltin(ls, place, args); ok {
		return own, nil
	}
	if name == "cd" || name == "pushd" {
		if text, code, bad := s.checkCd(ctx, ls, a.scope, hc.Dir, args); bad {
			return s.refuseCall(ls, &Refused{Code: code, Stderr: text})
		}
	}
	return args, nil
}

// ownBuiltin rewrites an admitted builtin call that gatehouse runs itself
// rather than the interpreter: evaluation (eval, source), lookups the
// interpreter would answer from the host's $PATH (type, hash, compgen,
// help, enable, command -v), pwd -P (host symlinks), and printf (the
// utility's formats). Dispatchers (builtin, command, exec) are followed to
// the builtin they run. ok is false for any other call, which runs as is.
func (s *Shell) ownBuiltin(ls *lineState, place string, args []string) ([]string, bool) {
	name := args[0]
	switch name {
	case "eval":
		return append([]string{cmdEval, place}, args[1:]...), true
	case "source", ".":
		if len(args) < 2 {
			own, _ := s.refuseCall(ls, &Refused{Code: 2, Stderr: name + ": filename argument required\n" + name + ": usage: " + name + " filename [arguments]\n"})
			return own, own != nil
		}
		return append([]string{cmdSource, place}, args[1:]...), true
	case "type", "hash", "compgen", "help", "enable":
		return append([]string{cmdLookup, name}, args[1:]...), true
	case "printf":
		// The interpreter's printf lacks precision and %e/%f/%g; the
		// utility has them. `printf -v VAR` formats with the utility and
		// assigns through the interpreter, so the write passes pre_session.
		if len(args) < 2 || args[1] != "-v" {
			return append([]string{cmdUtil}, args...), true
		}
		if len(args) >= 4 {
			return append([]string{cmdPrintV}, args[2:]...), true
		}
	case "pwd":
		for _, a := range args[1:] {
			if a == "-P" {
				return []string{cmdPwd}, true
			}
		}
	case "command", "builtin", "exec":
		inner, lookup := unwrapDispatch(args)
		if lookup {
			return append([]string{cmdLookup, "command"}, args[1:]...), true
		}
		if len(inner) > 0 && isShellBuiltin(inner[0]) {
			return s.ownBuiltin(ls, place, inner)
		}
	}
	return nil, false
}

// refusedCall turns a refused admission into the internal refusal command,
// or halts the line for an unanswered ask.
func (s *Shell) refusedCall(ctx context.Context, a admission) ([]string, error) {
	if a.halt != nil {
		return nil, s.halt(ctx, a.halt)
	}
	return s.refuseCall(lineOf(ctx), a.refused)
}

// halt ends the line: it prints the refusal, cancels the line (pipelines and
// background jobs with it) and returns the error that stops the runner.
func (s *Shell) halt(ctx context.Context, err error) error {
	var h *errHalt
	if errors.As(err, &h) {
		hc := interp.HandlerCtx(ctx)
		if hc.Stderr != nil && h.msg != "" {
			io.WriteString(hc.Stderr, h.msg+"\n")
			h = &errHalt{code: h.code} // printed once
		}
		if ls := lineOf(ctx); ls != nil {
			ls.cancel(h)
		}
		return h
	}
	return err
}

// unwrapDispatch returns the command `command`/`builtin`/`exec` would run,
// and whether it is a lookup (`command -v`/`-V`).
func unwrapDispatch(args []string) (inner []string, lookup bool) {
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if args[0] == "command" && (strings.Contains(a, "v") || strings.Contains(a, "V")) {
			lookup = true
		}
	}
	return args[i:], lookup
}

// execMiddleware is the only exec handler: it never calls next, so nothing
// can reach the host (G-12.1).
func (s *Shell) execMiddleware(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		return s.exec(ctx, args)
	}
}

func (s *Shell) exec(ctx context.Context, args []string) (err error) {
	hc := interp.HandlerCtx(ctx)
	ls := lineOf(ctx)
	fr := frameOf(ctx)
	switch args[0] {
	case cmdEval:
		return s.evalNested(ctx, hc, args[1], strings.Join(args[2:], " "), "", nil)
	case cmdFunc:
		call := make([]string, 0, len(args)-2)
		for _, a := range args[2:] {
			q, qerr := syntax.Quote(a, syntax.LangBash)
			if qerr != nil {
				q = "''"
			}
			call = append(call, q)
		}
		return s.evalNested(ctx, hc, args[1], strings.Join(call, " "), args[2], nil)
	case cmdSource:
		return s.source(ctx, hc, args[1], args[2], args[3:])
	case cmdLookup:
		return s.lookup(hc, args[1], args[2:])
	case cmdPwd:
		return s.pwdPhysical(ctx, hc)
	case cmdPrintV:
		return s.printfVar(ctx, hc, ls, args[1], args[2:])
	case cmdUtil:
		code, err := s.runCommand(asBuiltin(withPlace(ctx, placeAt(fr.prefix, hc.Pos.Offset()))), ls, args[1:], hc.Dir, hc.Env, nil, hc.Stdin, hc.Stdout, hc.Stderr)
		if err != nil {
			return s.halt(ctx, err)
		}
		if code != 0 {
			return interp.ExitStatus(uint8(code))
		}
		return nil
	}
	if isShellBuiltin(args[0]) && utils.Lookup(args[0]) == nil {
		// Only exec hands a builtin's name to the exec handler.
		sayf(hc, "bash: exec: %s: not found\n", args[0])
		return interp.ExitStatus(127)
	}
	if args[0] == s.refuseName() {
		if r := ls.takeRefused(args[1]); r != nil {
			io.WriteString(hc.Stderr, voiced(hc, r.Stderr))
			return r
		}
		return s.halt(ctx, &errHalt{125, "gatehouse: internal error: a refusal went missing"})
	}
	if args[0] == s.capture {
		return s.captureFD(ctx, hc)
	}
	if args[0] == s.envCheckName() {
		return s.envCheck(ctx, hc, args[1:])
	}
	if args[0] == s.capture+"_job" {
		if ls != nil {
			ls.jobStarted()
			if ls.jobs.Load()-1 > int64(s.limits.BackgroundJobs) {
				return s.halt(ctx, &errHalt{125, "gatehouse: line exceeded the limit of " + itoa(s.limits.BackgroundJobs) + " background jobs"})
			}
		}
		return nil
	}
	if args[0] == s.capture+"_done" {
		if ls != nil {
			ls.jobEnded()
		}
		// The job's own status, for `wait $!`.
		if len(args) > 1 {
			if n, err := strconv.Atoi(args[1]); err == nil && n > 0 && n < 256 {
				return interp.ExitStatus(n)
			}
		}
		return nil
	}
	if args[0] == s.capture+"_out" {
		// A >(…) outside a simple command's words (a loop's list, [[ ]]).
		io.WriteString(hc.Stderr, "bash: >(...): process substitution for writing is only supported in a command's words and redirections\n")
		io.WriteString(hc.Stdout, "/dev/null")
		return nil
	}
	if op, ok := strings.CutPrefix(args[0], s.capture); ok && len(args) > 1 {
		switch op {
		case "_wout", "_wsave", "_win", "_wrestore", "_wdefer":
			return s.writeSubst(ctx, hc, op, args[1], args[2:])
		}
	}
	place := placeAt(fr.prefix, hc.Pos.Offset())
	if isPathCommand(args[0]) {
		run, msg, code := s.scriptArgv(ctx, ls, hc.Dir, args)
		if run == nil {
			io.WriteString(hc.Stderr, voiced(hc, msg))
			return interp.ExitStatus(uint8(code))
		}
		args = run
	}
	a := s.admit(ctx, ls, place, args, hc.Dir, nil)
	if a.halt != nil {
		return s.halt(ctx, a.halt)
	}
	if !a.run {
		io.WriteString(hc.Stderr, voiced(hc, a.refused.Stderr))
		return a.refused
	}
	if isShellBuiltin(args[0]) {
		// `exec echo hi`, `command -p echo` reach here with a builtin.
		if own, ok := s.ownBuiltin(ls, place, args); ok {
			return s.exec(ctx, own)
		}
		return hc.Builtin(ctx, args)
	}
	code, err := s.runCommand(withPlace(ctx, place), ls, args, hc.Dir, hc.Env, a.scope, hc.Stdin, hc.Stdout, hc.Stderr)
	if err != nil {
		return s.halt(ctx, err)
	}
	if code != 0 {
		return interp.ExitStatus(uint8(code))
	}
	return nil
}

type placeKey struct{}

// builtinKey marks a run of a utility as the shell's builtin of its name
// (utils.Env.Builtin): the line's printf is bash's, not coreutils'.
type builtinKey struct{}

func asBuiltin(ctx context.Context) context.Context {
	return context.WithValue(ctx, builtinKey{}, true)
}

func withPlace(ctx context.Context, place string) context.Context {
	return context.WithValue(ctx, placeKey{}, place)
}

func placeOf(ctx context.Context) string {
	p, _ := ctx.Value(placeKey{}).(string)
	return p
}

// runCommand runs an admitted utility, `bash`/`sh`, or a builtin as a program.
func (s *Shell) runCommand(ctx context.Context, ls *lineState, argv []string, dir string, env expand.Environ, scope *gate.OpScope, stdin io.Reader, stdout, stderr io.Writer) (code int, err error) {
	if argv[0] == "bash" || argv[0] == "sh" {
		return s.runNested(ctx, ls, argv, dir, env, stdin, stdout, stderr)
	}
	u := utils.Lookup(argv[0])
	if u == nil {
		r := notFound(argv[0])
		io.WriteString(stderr, r.Stderr)
		return r.Code, nil
	}
	defer func() {
		if p := recover(); p != nil {
			code, err = 125, s.panicked(ctx, argv[0], p, debug.Stack())
		}
	}()
	noStdin := stdin == nil
	if noStdin {
		stdin = strings.NewReader("")
	}
	// Output to a closed or read-only descriptor fails; GNU tools then
	// say so as they exit (bash's builtins too).
	if interp.IsBadFd(stdout) {
		badOut := &badOutput{w: stdout}
		stdout = badOut
		who := argv[0]
		if builtin, _ := ctx.Value(builtinKey{}).(bool); builtin {
			who = "bash: " + who
		}
		errw := stderr
		defer func() {
			if badOut.tried && err == nil {
				io.WriteString(errw, who+": write error: Bad file descriptor\n")
				code = max(code, 1)
			}
		}()
	}
	// Every stream and file stops with the line, whether or not the
	// utility looks at its context (G-12.3).
	mem := &utilMemory{ls: ls}
	defer mem.release()
	var watch *opaqueRun
	if u.Opaque {
		var stop func()
		watch, stop = watchOpaque(ls)
		defer stop()
	}
	stdin, stdout, stderr, view := stoppable(ctx, mem, u.Keeps, stdin, stdout, stderr, s.viewUmask(ls, scope, umaskOf(ctx)))
	builtin, _ := ctx.Value(builtinKey{}).(bool)
	if builtin {
		ctx = context.WithValue(ctx, builtinKey{}, false) // not for what it runs
	}
	e := &utils.Env{
		Ctx:     ctx,
		Builtin: builtin,
		Args:    argv,
		Stdin:   stdin,
		NoStdin: noStdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Dir:     dir,
		FS:      &stdioFS{FS: view, fds: s.fds, stdin: stdin, stdout: stdout, stderr: stderr},
		Environ: s.environ(env),
		Procs:   func() []utils.Proc { return s.procs(ctx, argv) },
		Umask:   func() fs.FileMode { return umaskOf(ctx) },
		LookPath: func(name string) bool {
			if isPathCommand(name) {
				// A script: present if the file is (exec reports the rest).
				info, err := s.view(ls, scope).Stat(utils.Join(dir, name))
				return err == nil && !info.IsDir()
			}
			return s.installed(name)
		},
	}
	exec := s.nestedExec(ctx, ls, argv[0], dir, env)
	// A wrapper may run its commands on goroutines of its own (xargs -P):
	// each run, the gate included, has its own recover boundary.
	guarded := func(c context.Context, a []string, environ []string, in io.Reader, out, errw io.Writer) (code int, err error) {
		defer func() {
			if p := recover(); p != nil {
				code, err = 125, s.panicked(c, argv[0], p, debug.Stack())
			}
		}()
		return exec(c, a, environ, in, out, errw)
	}
	e.Exec = func(c context.Context, a []string, in io.Reader, out, errw io.Writer) (int, error) {
		return guarded(c, a, nil, in, out, errw)
	}
	e.ExecEnv = func(c context.Context, a []string, environ []string, in io.Reader, out, errw io.Writer) (int, error) {
		if environ == nil {
			environ = []string{}
		}
		return guarded(c, a, environ, in, out, errw)
	}
	e.OnPanic = func(p any, stack []byte) { s.panicked(ctx, argv[0], p, stack) }
	e.Memory = mem.grow
	if watch != nil {
		e.Watch = watch
	}
	return u.Run(e)
}

// badOutput is standard output on a bad descriptor, remembering whether
// the utility tried to write.
type badOutput struct {
	w     io.Writer
	tried bool
}

func (b *badOutput) Write(p []byte) (int, error) {
	if len(p) > 0 {
		b.tried = true
	}
	return b.w.Write(p)
}

// nestedExec is how wrappers and evaluators run their command: through the
// gate again, at the wrapper's place (env, timeout, nice, nohup) or nested
// under it (xargs, find -exec: every batch one place, G-9.6).
func (s *Shell) nestedExec(ctx context.Context, ls *lineState, caller, dir string, env expand.Environ) func(context.Context, []string, []string, io.Reader, io.Writer, io.Writer) (int, error) {
	place := placeOf(ctx)
	if caller == "xargs" || caller == "find" {
		place = nestedPrefix(place) + "x"
	}
	return func(cctx context.Context, argv []string, environ []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
		if len(argv) == 0 {
			return 0, nil
		}
		if isPathCommand(argv[0]) {
			run, msg, code := s.scriptArgv(cctx, ls, dir, argv)
			if run == nil {
				io.WriteString(stderr, msg)
				return code, nil
			}
			argv = run
		}
		a := s.admit(cctx, ls, place, argv, dir, nil)
		if a.halt != nil {
			if h, ok := a.halt.(*errHalt); ok && h.msg != "" {
				io.WriteString(stderr, h.msg+"\n")
				a.halt = &errHalt{code: h.code}
			}
			if ls != nil {
				ls.cancel(a.halt)
			}
			return 126, a.halt
		}
		if !a.run {
			io.WriteString(stderr, a.refused.Stderr)
			return a.refused.Code, nil
		}
		cenv := env
		if environ != nil {
			// `env NAME=VALUE CMD`, `env -u NAME`, `env -i` write the
			// command's environment as `NAME=VALUE CMD` would (G-8.1).
			if msg := s.judgeEnviron(cctx, ls, dir, caller, s.environ(env), environ); msg != "" {
				io.WriteString(stderr, msg)
				return 125, nil
			}
			cenv = expand.ListEnviron(environ...)
		}
		return s.runCommand(withPlace(cctx, place), ls, argv, dir, cenv, a.scope, stdin, stdout, stderr)
	}
}

// environ lists the exported variables a command sees, hidden ones absent.
// Arrays are never exported, as in bash.
func (s *Shell) environ(env expand.Environ) []string {
	var list []string
	env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() && vr.Kind == expand.String && !s.cfg.Profile.VarHidden(name) {
			list = append(list, name+"="+vr.String())
		}
		return true
	})
	return list
}

// view is the door-checked filesystem for one command of a line.
func (s *Shell) view(ls *lineState, scope *gate.OpScope) vfs.FS {
	return s.viewUmask(ls, scope, vfs.DefaultUmask)
}

// umaskOf is the umask of the shell running the command of ctx; a
// command run outside any shell (none today) creates under the default.
func umaskOf(ctx context.Context) (mask fs.FileMode) {
	defer func() {
		if recover() != nil { // interp.HandlerCtx panics without a shell
			mask = vfs.DefaultUmask
		}
	}()
	return interp.HandlerCtx(ctx).Umask
}

// viewUmask is view for a command that creates files under the shell's
// umask.
func (s *Shell) viewUmask(ls *lineState, scope *gate.OpScope, umask fs.FileMode) vfs.FS {
	door := s.cfg.Profile.Door(scope)
	if ls != nil {
		door = lineDoor{door: door, ls: ls, outside: scope == nil}
	}
	return s.cfg.VFS.ViewUmask(door, umask)
}

// lineDoor lets an op through that an answered question of this line
// opened: exactly the path it showed, through exactly the rule it named.
// Outside any command (a redirection), it also spends a redirection an
// ask rule's exception covers.
type lineDoor struct {
	door    vfs.Door
	ls      *lineState
	outside bool
}

func (d lineDoor) CheckOp(op vfs.Op) error {
	err := d.door.CheckOp(op)
	if err == nil {
		return nil
	}
	var re *vfs.RefusedError
	if errors.As(err, &re) {
		if r, ok := re.Detail.(*gate.Refusal); ok && r.Kind == "ask" &&
			(d.ls.pathGranted(op.Path, r, op.Write) || d.outside && d.ls.useWaivedOpen(op.Path, op.Write, r)) {
			return nil
		}
	}
	return err
}

// CheckCarry passes a rename's carried entry to the profile's door, which
// judges it at both ends; an ask this line had answered for the entry's old
// path, written (moved, removed), was shown to the human, so carrying it on
// is what they allowed. An answer that only read it is not: moving its
// directory would take the entry out from under its rule for good.
func (d lineDoor) CheckCarry(from, to vfs.Op) error {
	var err error
	if cd, ok := d.door.(vfs.CarryDoor); ok {
		err = cd.CheckCarry(from, to)
	} else {
		err = vfs.CarryByOps(d.door, from, to)
	}
	var re *vfs.RefusedError
	if errors.As(err, &re) {
		if r, ok := re.Detail.(*gate.Refusal); ok && r.Kind == "ask" && d.ls.pathGranted(from.Path, r, true) {
			return nil
		}
	}
	return err
}

// CarryClear passes through to the profile's door.
func (d lineDoor) CarryClear(from, to string) bool {
	cd, ok := d.door.(vfs.CarryDoor)
	return ok && cd.CarryClear(from, to)
}

// Hider passes a listing through to the profile's door: an answered ask
// opens refused paths, never hidden ones.
func (d lineDoor) Hider(dir string) func(name string) bool {
	if ld, ok := d.door.(vfs.ListingDoor); ok {
		return ld.Hider(dir)
	}
	return func(name string) bool {
		err := d.CheckOp(vfs.Op{Name: vfs.OpStat, Path: path.Join(dir, name), Listing: true})
		return errors.Is(err, vfs.ErrHidden)
	}
}

// errText is an error that prints as its text alone, for bash's voice.
type errText string

func (e errText) Error() string { return string(e) }

// shellError renders a file error for the interpreter's own messages
// ("bash: PATH: No such file or directory").
func shellError(path string, err error) error {
	return &os.PathError{Op: "bash:", Path: path, Err: errText(errnoText(err))}
}

func (s *Shell) openHandler(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	abs := utils.Join(hc.Dir, path)
	switch abs {
	case "/dev/stdin":
		if hc.Stdin == nil {
			return nopRWC{Reader: strings.NewReader("")}, nil
		}
		return nopRWC{Reader: hc.Stdin}, nil
	case "/dev/stdout":
		return nopRWC{Writer: hc.Stdout}, nil
	case "/dev/stderr":
		return nopRWC{Writer: hc.Stderr}, nil
	}
	if strings.HasPrefix(abs, "/dev/fd/") {
		if k, ok := s.fds.sink(abs); ok && flag&(os.O_WRONLY|os.O_RDWR) != 0 {
			return nopRWC{Writer: k}, nil
		}
		if data, ok := s.fds.get(abs); ok {
			return nopRWC{Reader: strings.NewReader(data)}, nil
		}
		return nil, shellError(path, syscall.ENOENT)
	}
	if flag&os.O_CREATE != 0 {
		perm = 0o666 // less the shell's umask, as a redirection creates
	}
	f, err := s.viewUmask(lineOf(ctx), nil, hc.Umask).OpenFile(abs, flag, perm)
	if err != nil {
		return nil, shellError(path, err)
	}
	return f, nil
}

type nopRWC struct {
	io.Reader
	io.Writer
}

func (n nopRWC) Read(p []byte) (int, error) {
	if n.Reader == nil {
		return 0, io.EOF
	}
	return n.Reader.Read(p)
}

func (n nopRWC) Write(p []byte) (int, error) {
	if n.Writer == nil {
		return 0, syscall.EBADF
	}
	return n.Writer.Write(p)
}

func (nopRWC) Close() error { return nil }

func (s *Shell) readDirHandler(ctx context.Context, path string) ([]fs.DirEntry, error) {
	return s.view(lineOf(ctx), nil).ReadDir(path)
}

func (s *Shell) statHandler(ctx context.Context, path string, follow bool) (fs.FileInfo, error) {
	v := s.view(lineOf(ctx), nil)
	if follow {
		return v.Stat(path)
	}
	return v.Lstat(path)
}

// accessHandler answers test -r/-w/-x from the VFS: readable when an open
// for reading would pass the door, writable when a write would.
func (s *Shell) accessHandler(ctx context.Context, path string, mode interp.AccessMode) error {
	v := s.view(lineOf(ctx), nil)
	info, err := v.Stat(path)
	if err != nil {
		return err
	}
	switch mode {
	case interp.AccessRead:
		if info.IsDir() {
			_, err = v.ReadDir(path)
			return err
		}
		f, err := v.Open(path)
		if err != nil {
			return err
		}
		return f.Close()
	case interp.AccessWrite:
		if info.IsDir() {
			// Writable when a change inside would pass: the door, the
			// mount's mode, the profile's narrowing (G-5.1, G-5.2).
			return v.CheckWrite(path)
		}
		f, err := v.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	case interp.AccessExec:
		if info.IsDir() || info.Mode()&0o111 != 0 {
			return nil
		}
		return fs.ErrPermission
	}
	return nil
}
