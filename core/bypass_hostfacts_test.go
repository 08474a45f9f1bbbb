package core

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gatehouse/core/vfs"
)

// hostFactLines are lines an agent would try to learn about the host behind
// the workspace: its pids, users, uids, hostname, home directories, paths
// and binaries (G-12.1). Their output is checked for every host fact the
// test can name.
var hostFactLines = []string{
	`echo "$$ $PPID $BASHPID $UID $EUID $GID $USER $LOGNAME $HOME $HOSTNAME $HOSTTYPE $OSTYPE $MACHTYPE $BASH $BASH_VERSION $SHELL $PWD $OLDPWD $TMPDIR $SECONDS"`,
	`set`, `env`, `export -p`, `declare -p`, `printenv`,
	`echo ~root ~nobody ~daemon ~bin ~` + hostUser() + ` ~` + hostUser() + `/x`,
	`cd ~root; pwd`, `cd ~` + hostUser() + `; pwd`,
	`sleep 0 & echo $!; wait`,
	`(echo $BASHPID $$); echo $(echo $BASHPID)`,
	`bash -c 'echo $$ $PPID $BASHPID $HOSTNAME $UID'`,
	`trap 'echo $$ $PPID ~root' EXIT; exit`,
	`p=~root:~` + hostUser() + `:/x; echo $p; export Q=a:~root; echo $Q PATH=~root:~` + hostUser() + ` ${u:-~root} ~+ ~-`,
	`type -a bash sh python3 go; type -p bash; command -v python3 go sh; which python3 go`,
	`builtin type python3 go bash; builtin command -v python3 go; command type -p go sh; exec type python3`,
	`builtin hash go; hash python3; builtin command -V go`,
	`pwd -P; builtin pwd -P; command pwd -P; cd /tmp; pwd -P`,
	`umask; ulimit -a; times`,
	`ls /; ls -la /proc /etc /home /root /sys /usr 2>&1`,
	`cat /proc/self/status /proc/self/environ /etc/hostname /etc/passwd 2>&1`,
	`[ -O /w/a ] && echo own; [ -G /w/a ] && echo group; test -O /etc/passwd && echo host-owner`,
	`source ` + os.Args[0] + ` 2>&1 | head -c 300`,
	`cat <(echo $$) <(echo $PPID)`,
	`echo $RANDOM $SRANDOM`,
	`id; whoami; hostname; uname -a; ps; env | sort`,
}

func hostUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "nobody-known"
}

// hostFacts are strings that must never appear in what a line prints: the
// host's hostname, user name, uid and gid (when not the session's own),
// home directory, working directory, temporary directory, the test binary's
// path, and the ledger's directory.
func hostFacts(t *testing.T, ledgerDir string) []string {
	var facts []string
	add := func(s string) {
		if len(s) >= 4 && s != "/tmp" && s != "agent" && s != "1000" {
			facts = append(facts, s)
		}
	}
	if h, err := os.Hostname(); err == nil {
		add(h)
	}
	if u, err := user.Current(); err == nil {
		add(u.Username)
		add(u.HomeDir)
		add(u.Uid)
		add(u.Gid)
	}
	if wd, err := os.Getwd(); err == nil {
		add(wd)
	}
	add(strings.TrimSuffix(os.TempDir(), "/"))
	add(os.Args[0])
	add(ledgerDir)
	add(strconv.Itoa(os.Getpid()))
	add(strconv.Itoa(os.Getppid()))
	return facts
}

// showsFact reports whether out contains the host fact f; a number counts
// only as a whole number, as 2345 inside the virtual pid 12345 is no leak.
func showsFact(out, f string) bool {
	if strings.Trim(f, "0123456789") != "" {
		return strings.Contains(out, f)
	}
	for i := strings.Index(out, f); i >= 0; {
		end := i + len(f)
		if (i == 0 || !isDigit(out[i-1])) && (end == len(out) || !isDigit(out[end])) {
			return true
		}
		j := strings.Index(out[i+1:], f)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// G-12.1: nothing a line prints reveals a host fact, through variables,
// tilde expansion, lookups, builtins reached through command/builtin/exec,
// traps, nested shells or the filesystem.
func TestBypassNoHostFacts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"a": "1\n"}}},
		WithLedger(filepath.Join(dir, "ledger.db")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	facts := hostFacts(t, dir)
	for _, line := range hostFactLines {
		s, err := ws.CreateSession("curious")
		if err != nil {
			t.Fatal(err)
		}
		res := s.Execute(context.Background(), line)
		out := res.Stdout + res.Stderr
		for _, f := range facts {
			// Echoing the agent's own words back is no leak (the test may
			// run as root, whose name the lines spell).
			if showsFact(out, f) && !strings.Contains(line, f) {
				t.Errorf("%s: the output shows the host fact %q:\n%s", line, f, out)
			}
		}
		if strings.Contains(out, "__gh_") {
			t.Errorf("%s: the output shows an internal name:\n%s", line, out)
		}
		if strings.Contains(res.Stderr, "internal error") {
			t.Errorf("%s: %s", line, res.Stderr)
		}
	}
}

// G-12.1: $$, $PPID, $BASHPID and $! are the session's own numbers: stable
// for the session across lines, plausible, different in subshells, jobs and
// nested shells where bash's are, and never the host process's.
func TestVirtualProcessIDs(t *testing.T) {
	t.Parallel()
	s := limitsWorkspace(t, Limits{})
	run := func(line string) []int {
		t.Helper()
		res := s.Execute(context.Background(), line)
		var ids []int
		for _, f := range strings.Fields(res.Stdout) {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s: %q is not a pid (%+v)", line, f, res)
			}
			if n <= 1 || n >= 4194304 {
				t.Errorf("%s: %d is not a plausible pid", line, n)
			}
			if n == os.Getpid() || n == os.Getppid() {
				t.Errorf("%s: %d is the host's", line, n)
			}
			ids = append(ids, n)
		}
		return ids
	}
	first := run(`echo $$ $PPID $BASHPID`)
	if len(first) != 3 || first[0] != first[2] || first[0] == first[1] {
		t.Fatalf("$$ $PPID $BASHPID = %v", first)
	}
	if again := run(`echo $$ $PPID`); again[0] != first[0] || again[1] != first[1] {
		t.Errorf("$$/$PPID changed between lines: %v then %v", first, again)
	}
	sub := run(`echo $(echo $$ $BASHPID) ; (echo $$ $BASHPID)`)
	if sub[0] != first[0] || sub[1] == first[0] || sub[2] != first[0] || sub[3] == first[0] || sub[1] == sub[3] {
		t.Errorf("subshells: $$ stays, $BASHPID differs: %v (shell %d)", sub, first[0])
	}
	jobs := run(`sleep 0 & a=$!; sleep 0 & b=$!; echo $a $b`)
	if len(jobs) != 2 || jobs[0] == jobs[1] || jobs[0] == first[0] {
		t.Errorf("$! of two jobs: %v", jobs)
	}
	if res := s.Execute(context.Background(), `(exit 3) & a=$!; true & b=$!; wait $a; echo $?; wait $b; echo $?`); res.Stdout != "3\n0\n" {
		t.Errorf("wait on $! of two jobs: %+v", res)
	}
	nested := run(`bash -c 'echo $$ $PPID'`)
	if nested[0] == first[0] || nested[1] != first[0] {
		t.Errorf("bash -c: $$ %d should be new and $PPID %d the shell's %d", nested[0], nested[1], first[0])
	}
	// ps lists the session's shell, its jobs and itself by virtual id, and
	// no host process (the test binary's name would be one).
	res := s.Execute(context.Background(), `sleep 5 & echo $$ $!; ps -o pid=,ppid=,comm=; ps -ef | grep -c test; kill $!`)
	if err := checkPsRows(strings.Fields(res.Stdout)); err != "" {
		t.Errorf("ps lists other than the session's own processes (%s): %+v", err, res)
	}
	if res := s.Execute(context.Background(), `wait 99999`); res.ExitCode != 127 || !strings.Contains(res.Stderr, "not a child of this shell") {
		t.Errorf("wait on a pid that is no job: %+v", res)
	}
}

// G-12.1: ~NAME expands for the session's own user only; other users stay
// literal, as bash leaves a user it does not know.
func TestTildeNeverReadsTheHostsUsers(t *testing.T) {
	t.Parallel()
	s := limitsWorkspace(t, Limits{})
	cases := []struct{ line, want string }{
		{`echo ~`, "/tmp\n"},
		{`echo ~/x`, "/tmp/x\n"},
		{`echo ~agent ~agent/x`, "/tmp /tmp/x\n"},
		{`echo ~root ~nobody ~root/x`, "~root ~nobody ~root/x\n"},
		{`HOME=/w; echo ~ ~agent`, "/w /w\n"},
		{`x=~root; echo $x`, "~root\n"},
		{`x=~root:~:~agent/b; echo $x PATH=~:~root`, "~root:/w:/w/b PATH=/w:~root\n"},
	}
	for _, tc := range cases {
		if res := s.Execute(context.Background(), tc.line); res.Stdout != tc.want {
			t.Errorf("%s: %+v, want %q", tc.line, res, tc.want)
		}
	}
}

// G-12.1, G-3.2: a lookup reached through builtin, command or exec answers
// from the session's tool set like the plain spelling, never from the
// host's $PATH: python3 is not found even where the host has it.
func TestDispatchedLookupsNeverSearchTheHost(t *testing.T) {
	t.Parallel()
	s := limitsWorkspace(t, Limits{})
	for _, line := range []string{
		`type python3`, `builtin type python3`, `command type python3`,
		`builtin builtin type python3`, `command type -p python3`, `builtin type -P python3`,
		`command -v python3`, `builtin command -v python3`, `command command -V python3`,
		`hash python3`, `builtin hash python3`,
	} {
		res := s.Execute(context.Background(), line)
		if res.ExitCode != 1 || res.Stdout != "" || strings.Contains(res.Stderr, "/") {
			t.Errorf("%s: %+v, want not found", line, res)
		}
	}
	// exec runs programs only: bash's `exec type` is not found at all.
	if res := s.Execute(context.Background(), `exec type python3`); res.ExitCode != 127 || res.Stderr != "bash: exec: type: not found\n" {
		t.Errorf("exec type python3: %+v, want bash's not found", res)
	}
	for _, line := range []string{`builtin pwd -P`, `command pwd -P`, `builtin command pwd -P`} {
		if res := s.Execute(context.Background(), "cd /w/d; "+line); res.Stdout != "/w/d\n" || res.ExitCode != 0 {
			t.Errorf("%s: %+v", line, res)
		}
	}
}

// checkPsRows checks the output of `echo $$ $!; ps -o pid=,ppid=,comm=;
// ps -ef | grep -c test` as fields: the shell, the job and ps itself by
// their virtual ids (jobs of earlier lines may still be listed, as
// sleeps), and no host process.
func checkPsRows(f []string) string {
	if len(f) < 3 || (len(f)-3)%3 != 0 {
		return "layout"
	}
	shell, job := f[0], f[1]
	if f[len(f)-1] != "0" {
		return "a host process matched"
	}
	seen := map[string]bool{}
	for i := 2; i+2 < len(f); i += 3 {
		pid, ppid, comm := f[i], f[i+1], f[i+2]
		switch {
		case pid == shell && comm == "bash":
			seen["shell"] = true
		case pid == job && ppid == shell && comm == "sleep":
			seen["job"] = true
		case ppid == shell && comm == "ps":
			seen["ps"] = true
		case ppid == shell && comm == "sleep":
		default:
			return "row " + pid + " " + ppid + " " + comm
		}
	}
	if len(seen) != 3 {
		return "missing rows"
	}
	return ""
}
