// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

// Job control without a terminal, as a non-interactive bash has it: the
// background statements of a shell are its jobs, numbered from 1, which
// jobs lists, kill ends with a signal, disown forgets and wait waits for,
// each named by its process id or a jobspec (%N, %%, %+, %-, %NAME,
// %?TEXT). A job that has finished leaves the table; wait still finds it
// by its process id. Also umask, the file mode creation mask handlers see.

import (
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// job is the bookkeeping of one background statement.
type job struct {
	number int
	text   string // the statement as jobs shows it
	cancel context.CancelFunc
	// signal is the signal a kill sent it, 0 if none: the statement ends
	// with 128 plus it.
	signal atomic.Int32
	// disowned jobs are no longer listed, signalled or waited for by
	// jobspec (a pipeline's shell reads it while its parent may set it).
	disowned atomic.Bool
	// reaped: the job had ended when the shell last waited for a command
	// in the foreground, and bash then drops it from its table (patch 93).
	reaped atomic.Bool
}

// reap drops a job that wait reported from the table.
func (bg bgProc) reap() {
	if bg.job != nil {
		bg.job.reaped.Store(true)
	}
}

// reapJobs drops the jobs that have ended from the table, as bash does
// when it has waited for a foreground command.
func (r *Runner) reapJobs() {
	for _, bg := range r.bgProcs {
		if bg.job != nil && bg.finished() {
			bg.job.reaped.Store(true)
		}
	}
}

// tableJobs returns the jobs bash still has in its table: running ones
// and those that ended since the shell last waited in the foreground.
func (r *Runner) tableJobs() []bgProc {
	var out []bgProc
	for _, list := range [][]bgProc{r.shownJobs, r.bgProcs} {
		for _, bg := range list {
			if bg.job != nil && !bg.job.disowned.Load() && !bg.job.reaped.Load() {
				out = append(out, bg)
			}
		}
	}
	return out
}

// Job describes one of the shell's background jobs to a handler.
type Job struct {
	Number  int
	PID     int    // the virtual process id, with [ProcessIDs]; else 0
	Command string // the statement, as jobs shows it
}

// Jobs returns the running jobs of the shell the handler was called from,
// oldest first: what the jobs builtin lists.
func (hc HandlerContext) Jobs() []Job {
	if hc.runner == nil {
		return nil
	}
	var out []Job
	for _, bg := range hc.runner.liveJobs() {
		out = append(out, Job{Number: bg.job.number, PID: bg.pid, Command: bg.job.text})
	}
	return out
}

// Alias returns the text of the alias name as the type builtin reports it,
// when aliases are expanded (shopt expand_aliases) and name is one
// (gatehouse, patch 122). It sees the aliases defined so far, including
// those of the line running.
func (hc HandlerContext) Alias(name string) (string, bool) {
	r := hc.runner
	if r == nil || !r.opts[optExpandAliases] {
		return "", false
	}
	als, ok := r.alias[name]
	return als, ok
}

// Voice is how the shell starts an error message where the handler runs:
// "bash: " in a line or a bash -c script, "FILE: line N: " in the text of
// a script, a sourced file or a function either defined (patch 132).
func (hc HandlerContext) Voice() string {
	if hc.runner == nil {
		return "bash: "
	}
	return hc.runner.voice()
}

// Aliases copies the aliases defined so far, including those of the line
// running, for a handler that reads text as bash reads it: an eval string
// or a sourced file (gatehouse patch 130).
func (hc HandlerContext) Aliases() Aliases {
	if hc.runner == nil {
		return Aliases{}
	}
	return hc.runner.Aliases()
}

// newJob numbers a new background statement after the highest running
// job (so numbering starts again at 1 once all have finished) and gives
// it a context that kill cancels.
func (r *Runner) newJob(ctx context.Context, st *syntax.Stmt) (*job, context.Context) {
	number := 1
	for _, bg := range r.liveJobs() {
		number = max(number, bg.job.number+1)
	}
	text := jobText(st)
	if r.jobText != nil {
		text = r.jobText(st)
	}
	j := &job{number: number, text: text}
	ctx, j.cancel = context.WithCancel(ctx)
	return j, ctx
}

// JobText makes the runner name each background statement with fn (in
// jobs' listing, and for [HandlerContext.Jobs]) rather than print it: a
// caller that rewrote the statement gives back what was written.
func JobText(fn func(st *syntax.Stmt) string) RunnerOption {
	return func(r *Runner) error {
		r.jobText = fn
		return nil
	}
}

// jobText prints a background statement on one line, as bash shows it.
func jobText(st *syntax.Stmt) string {
	var b strings.Builder
	st2 := *st
	st2.Background, st2.Disown, st2.Comments = false, false, nil
	syntax.NewPrinter(syntax.SingleLine(true), syntax.SpaceRedirects(true)).Print(&b, &st2)
	return strings.TrimSpace(b.String()) + " &"
}

// finished reports whether a background statement has ended.
func (bg bgProc) finished() bool {
	select {
	case <-bg.done:
		return true
	default:
		return false
	}
}

// liveJobs returns the jobs still running and not disowned, oldest
// first; a pipeline's or substitution's shell shows its parent's.
func (r *Runner) liveJobs() []bgProc {
	var out []bgProc
	for _, list := range [][]bgProc{r.shownJobs, r.bgProcs} {
		for _, bg := range list {
			if bg.job != nil && !bg.job.disowned.Load() && !bg.finished() {
				out = append(out, bg)
			}
		}
	}
	return out
}

// jobMark is jobs' mark of a job: + for the current (newest), - for the
// previous, a blank for the rest.
func jobMark(live []bgProc, i int) byte {
	switch i {
	case len(live) - 1:
		return '+'
	case len(live) - 2:
		return '-'
	}
	return ' '
}

// findJob resolves a jobspec among the running jobs; the error is bash's
// words after "NAME: ".
func (r *Runner) findJob(spec string) (bgProc, string) {
	live := r.tableJobs()
	noSuch := spec + ": no such job"
	rest := strings.TrimPrefix(spec, "%")
	pick := func(i int) (bgProc, string) {
		if i < 0 || i >= len(live) {
			return bgProc{}, noSuch
		}
		return live[i], ""
	}
	switch {
	case rest == "" || rest == "%" || rest == "+":
		return pick(len(live) - 1)
	case rest == "-":
		if len(live) == 1 {
			return pick(0)
		}
		return pick(len(live) - 2)
	}
	if n, err := strconv.Atoi(rest); err == nil {
		for i, bg := range live {
			if bg.job.number == n {
				return pick(i)
			}
		}
		return bgProc{}, noSuch
	}
	match := strings.HasPrefix
	if text, ok := strings.CutPrefix(rest, "?"); ok {
		rest, match = text, strings.Contains
	}
	found := -1
	for i, bg := range live {
		if match(strings.TrimSuffix(bg.job.text, " &"), rest) {
			if found >= 0 {
				return bgProc{}, rest + ": ambiguous job spec"
			}
			found = i
		}
	}
	return pick(found)
}

// builtinJobs is jobs [-lnprs] [jobspec ...].
func (r *Runner) builtinJobs(args []string) exitStatus {
	var exit exitStatus
	long, pids, stopped := false, false, false
	fp := flagParser{remaining: args}
	for fp.more() {
		switch flag := fp.flag(); flag {
		case "-l":
			long = true
		case "-p":
			pids = true
		case "-s":
			stopped = true // none ever is
		case "-n", "-r":
		default:
			r.errf("bash: jobs: %s: invalid option\njobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n", flag)
			exit.code = 2
			return exit
		}
	}
	live := r.liveJobs()
	show := make([]bool, len(live))
	if specs := fp.args(); len(specs) > 0 {
		for _, spec := range specs {
			bg, msg := r.findJob(spec)
			if msg != "" {
				r.errf("bash: jobs: %s\n", msg)
				exit.code = 1
				continue
			}
			for i := range live {
				show[i] = show[i] || live[i].job == bg.job
			}
		}
	} else {
		for i := range show {
			show[i] = true
		}
	}
	for i, bg := range live {
		switch {
		case !show[i] || stopped:
		case pids:
			r.outf("%d\n", bg.pid)
		case long:
			r.outf("[%d]%c %5d %-24s%s\n", bg.job.number, jobMark(live, i), bg.pid, "Running", bg.job.text)
		default:
			r.outf("[%d]%c  %-24s%s\n", bg.job.number, jobMark(live, i), "Running", bg.job.text)
		}
	}
	return exit
}

// builtinDisown is disown [-h] [-ar] [jobspec ... | pid ...].
func (r *Runner) builtinDisown(args []string) exitStatus {
	var exit exitStatus
	all, keep := false, false
	fp := flagParser{remaining: args}
	for fp.more() {
		switch flag := fp.flag(); flag {
		case "-a", "-r":
			all = true
		case "-h":
			keep = true // no SIGHUP is ever sent: nothing to mark
		default:
			r.errf("bash: disown: %s: invalid option\ndisown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\n", flag)
			exit.code = 2
			return exit
		}
	}
	var targets []*job
	specs := fp.args()
	switch {
	case all:
		for _, bg := range r.liveJobs() {
			targets = append(targets, bg.job)
		}
	case len(specs) == 0:
		bg, msg := r.findJob("%+")
		if msg != "" {
			r.errf("bash: disown: current: no such job\n")
			exit.code = 1
			return exit
		}
		targets = append(targets, bg.job)
	}
	for _, spec := range specs {
		bg, msg := r.jobOrPID(spec)
		if msg != "" {
			r.errf("bash: disown: %s\n", msg)
			exit.code = 1
			continue
		}
		targets = append(targets, bg.job)
	}
	if !keep {
		for _, j := range targets {
			j.disowned.Store(true)
		}
	}
	return exit
}

// jobOrPID finds a running job by jobspec or by process id.
func (r *Runner) jobOrPID(arg string) (bgProc, string) {
	if strings.HasPrefix(arg, "%") {
		return r.findJob(arg)
	}
	if pid, err := strconv.Atoi(arg); err == nil {
		for _, bg := range r.liveJobs() {
			if bg.pid == pid {
				return bg, ""
			}
		}
	}
	return bgProc{}, arg + ": no such job"
}

// builtinKill is kill [-s SIGSPEC | -n SIGNUM | -SIGSPEC] pid | jobspec ...
// and kill -l [SIGSPEC]. The processes it reaches are the shell's jobs
// and the shell itself; no other process exists here.
func (r *Runner) builtinKill(args []string) exitStatus {
	var exit exitStatus
	usage := func() exitStatus {
		r.errf("kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n")
		exit.code = 2
		return exit
	}
	sig := 15
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		flag := args[0]
		args = args[1:]
		switch flag {
		case "--":
		case "-l", "-L":
			return r.killList(args)
		case "-s", "-n":
			if len(args) == 0 {
				r.errf("bash: kill: %s: option requires an argument\n", flag)
				return usage()
			}
			n, ok := signalNumber(args[0])
			if !ok {
				r.errf("bash: kill: %s: invalid signal specification\n", args[0])
				exit.code = 1
				return exit
			}
			sig, args = n, args[1:]
		default:
			n, ok := signalNumber(flag[1:])
			if !ok {
				r.errf("bash: kill: %s: invalid signal specification\n", flag[1:])
				exit.code = 1
				return exit
			}
			sig = n
		}
		if flag == "--" {
			break
		}
	}
	if len(args) == 0 {
		return usage()
	}
	for _, arg := range args {
		if msg := r.signal(arg, sig, &exit); msg != "" {
			r.errf("bash: kill: %s\n", msg)
			exit.code = 1
		}
	}
	return exit
}

// signal sends sig to one target: a job ends with 128+sig (signals whose
// default is to be ignored, and 0, only check that it is there), the
// shell itself exits so.
func (r *Runner) signal(arg string, sig int, exit *exitStatus) string {
	var bg bgProc
	if strings.HasPrefix(arg, "%") {
		var msg string
		if bg, msg = r.findJob(arg); msg != "" {
			return msg
		}
	} else {
		pid, err := strconv.Atoi(arg)
		if err != nil {
			return arg + ": arguments must be process or job IDs"
		}
		switch {
		case r.procIDs != nil && pid == r.procIDs.pid:
			// The shell itself takes it once this command is done.
			r.Signal(sig)
			return ""
		case r.procIDs != nil && pid == r.bashPID && r.bashPID != 0:
			r.ownSignals = append(r.ownSignals, sig) // a subshell's own
			return ""
		case r.procIDs != nil && pid == r.procIDs.ppid && r.procIDs.parent != nil:
			r.procIDs.parent(sig)
			return ""
		case pid > 0:
			found := false
			for _, b := range r.bgProcs {
				if b.job != nil && b.pid == pid && !b.finished() {
					bg, found = b, true
				}
			}
			if !found {
				return "(" + arg + ") - No such process"
			}
		default:
			return "(" + arg + ") - No such process"
		}
	}
	if signalStops(sig) {
		return "(" + strconv.Itoa(bg.pid) + ") - Operation not supported"
	}
	if !signalIgnored(sig) && bg.job.signal.CompareAndSwap(0, int32(sig)) {
		bg.job.cancel()
	}
	return ""
}

// killList is kill -l: every signal, or the names of the numbers (and
// exit statuses above 128) and the numbers of the names given.
func (r *Runner) killList(args []string) exitStatus {
	var exit exitStatus
	if len(args) == 0 {
		var b strings.Builder
		k := 0
		for n, name := range signalNames {
			if name == "" || n == 0 {
				continue
			}
			k++
			fmt.Fprintf(&b, "%2d) SIG%s", n, name)
			if k%5 == 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte('\t')
			}
		}
		if k%5 != 0 {
			b.WriteByte('\n')
		}
		r.out(b.String())
		return exit
	}
	for _, arg := range args {
		if n, err := strconv.Atoi(arg); err == nil {
			if n > 128 {
				n -= 128
			}
			if n >= 0 && n < len(signalNames) && signalNames[n] != "" {
				r.outf("%s\n", signalNames[n])
				continue
			}
		} else if n, ok := signalNumber(arg); ok {
			r.outf("%d\n", n)
			continue
		}
		r.errf("bash: kill: %s: invalid signal specification\n", arg)
		exit.code = 1
	}
	return exit
}

// signalNames are Linux's signals by number, as kill -l names them
// (without SIG); 0 is EXIT, 32 and 33 are the C library's own.
// They are written out (34 to 64 are RTMIN, RTMIN+1 ... RTMIN+15,
// RTMAX-14 ... RTMAX-1, RTMAX) so that no code builds them at start-up.
var signalNames = []string{
	"EXIT", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL",
	"USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT",
	"STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF",
	"WINCH", "IO", "PWR", "SYS", "", "", "RTMIN", "RTMIN+1", "RTMIN+2", "RTMIN+3",
	"RTMIN+4", "RTMIN+5", "RTMIN+6", "RTMIN+7", "RTMIN+8", "RTMIN+9", "RTMIN+10",
	"RTMIN+11", "RTMIN+12", "RTMIN+13", "RTMIN+14", "RTMIN+15", "RTMAX-14",
	"RTMAX-13", "RTMAX-12", "RTMAX-11", "RTMAX-10", "RTMAX-9", "RTMAX-8",
	"RTMAX-7", "RTMAX-6", "RTMAX-5", "RTMAX-4", "RTMAX-3", "RTMAX-2", "RTMAX-1",
	"RTMAX",
}

// signalNumber reads a signal given by number or by name, with or
// without SIG, in any case.
func signalNumber(spec string) (int, bool) {
	if n, err := strconv.Atoi(spec); err == nil {
		return n, n >= 0 && n < len(signalNames) && signalNames[n] != ""
	}
	name := strings.TrimPrefix(strings.ToUpper(spec), "SIG")
	for n, s := range signalNames {
		if s != "" && s == name {
			return n, true
		}
	}
	return 0, false
}

// signalIgnored: 0 and the signals a process ignores unless it asks.
func signalIgnored(sig int) bool {
	return sig == 0 || sig == 17 || sig == 18 || sig == 23 || sig == 28
}

// signalStops: the signals that stop a process, which a job here cannot be.
func signalStops(sig int) bool { return sig >= 19 && sig <= 22 }

// Umask sets the runner's file mode creation mask, 022 by default: a
// nested shell takes its parent's.
func Umask(mask fs.FileMode) RunnerOption {
	return func(r *Runner) error {
		r.umask, r.origUmask = mask.Perm(), mask.Perm()
		return nil
	}
}

// builtinUmask is umask [-p] [-S] [mode].
func (r *Runner) builtinUmask(args []string) exitStatus {
	var exit exitStatus
	symbolic, reusable := false, false
	// Not flagParser: a mode may start with '+'.
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		flag := args[0]
		args = args[1:]
		if flag == "--" {
			break
		}
		for _, c := range flag[1:] {
			switch c {
			case 'S':
				symbolic = true
			case 'p':
				reusable = true
			default:
				r.errf("bash: umask: -%c: invalid option\numask: usage: umask [-p] [-S] [mode]\n", c)
				exit.code = 2
				return exit
			}
		}
	}
	if len(args) == 0 {
		prefix := ""
		if reusable {
			prefix = "umask "
			if symbolic {
				prefix += "-S "
			}
		}
		if symbolic {
			r.outf("%s%s\n", prefix, umaskSymbolic(r.umask))
		} else {
			r.outf("%s%04o\n", prefix, uint32(r.umask))
		}
		return exit
	}
	mode := args[0]
	if mode[0] >= '0' && mode[0] <= '9' {
		n, ok := umaskOctal(mode)
		if !ok {
			r.errf("bash: umask: %s: octal number out of range\n", mode)
			exit.code = 1
			return exit
		}
		r.umask = fs.FileMode(n) & 0o777
	} else {
		perm, msg := umaskClauses(mode, ^r.umask&0o777)
		if msg != "" {
			r.errf("bash: umask: %s\n", msg)
			exit.code = 1
			return exit
		}
		r.umask = ^perm & 0o777
	}
	if symbolic {
		r.outf("%s\n", umaskSymbolic(r.umask))
	}
	return exit
}

// umaskOctal reads an octal mode of at most 07777.
func umaskOctal(s string) (int, bool) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '7' {
			return 0, false
		}
		if n = n*8 + int(c-'0'); n > 0o7777 {
			return 0, false
		}
	}
	return n, true
}

// umaskSymbolic spells the permissions a mask leaves, u=...,g=...,o=....
func umaskSymbolic(mask fs.FileMode) string {
	perm := ^mask & 0o777
	var b strings.Builder
	for i, who := range []string{"u", "g", "o"} {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(who + "=")
		bits := perm >> (6 - 3*i) & 7
		for k, c := range "rwx" {
			if bits&(4>>k) != 0 {
				b.WriteRune(c)
			}
		}
	}
	return b.String()
}

// umaskClauses applies symbolic clauses ([ugoa]*[+-=][rwx]*, comma
// separated) to the permissions perm, as bash's umask reads them: who
// defaults to everyone, and copying another class's bits (g=u) is not
// taken.
func umaskClauses(mode string, perm fs.FileMode) (fs.FileMode, string) {
	s := mode + "\x00"
	i := 0
	for {
		var who, bits fs.FileMode
		for ; strings.IndexByte("agou", s[i]) >= 0 && s[i] != 0; i++ {
			who |= map[byte]fs.FileMode{'u': 0o700, 'g': 0o070, 'o': 0o007, 'a': 0o777}[s[i]]
		}
		op := s[i]
		if op != '+' && op != '-' && op != '=' {
			return 0, "`" + string(op) + "': invalid symbolic mode operator"
		}
		for i++; s[i] == 'r' || s[i] == 'w' || s[i] == 'x'; i++ {
			bits |= map[byte]fs.FileMode{'r': 0o444, 'w': 0o222, 'x': 0o111}[s[i]]
		}
		if s[i] != 0 && s[i] != ',' {
			return 0, "`" + string(s[i]) + "': invalid symbolic mode character"
		}
		if who != 0 {
			bits &= who
		}
		switch op {
		case '+':
			perm |= bits
		case '-':
			perm &^= bits
		case '=':
			if who == 0 {
				who = 0o777
			}
			perm = perm&^who | bits
		}
		if s[i] == 0 {
			return perm, ""
		}
		i++
	}
}

// isDecimal reports whether s is a process id as wait reads one: decimal
// digits only.
func isDecimal(s string) bool {
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
