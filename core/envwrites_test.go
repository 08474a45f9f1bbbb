package core

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// The tests of this file hold every way a line writes a variable to the
// profile's pre_session hooks (G-8.1): a recording policy must see each
// write with its name, value and verb, and a refusing policy must leave
// the variable untouched, whatever the syntax and wherever it runs.

// writeLog is a coded pre_session policy that records every write it is
// asked about and refuses those whose name starts with BLOCK.
type writeLog struct {
	mu     sync.Mutex
	writes []string // "KEY=VALUE/VERB"
}

func (l *writeLog) PreSession(ctx gate.SessionContext) gate.Decision {
	l.mu.Lock()
	l.writes = append(l.writes, ctx.Write.Key+"="+ctx.Write.Value+"/"+ctx.Write.Verb)
	l.mu.Unlock()
	if strings.HasPrefix(ctx.Write.Key, "BLOCK") {
		return gate.Refuse("BLOCK variables are frozen")
	}
	return gate.NoOpinion()
}

func (l *writeLog) seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.writes)
}

// envWriteSession is a session with every command installed, a file to
// source and a script to run, under a recording policy.
func envWriteSession(t *testing.T) (*Session, *writeLog) {
	t.Helper()
	log := &writeLog{}
	spec := gate.ProfileSpec{Name: "open", Cwd: "/work", Env: map[string]string{"TEAM": "sre"}}
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/work", Files: map[string]string{
		"set.sh":   "SOURCED=1\n",
		"block.sh": "BLOCK_SOURCED=1\n",
		"lines":    "one\ntwo\n",
	}}}, WithProfiles(spec), WithDefaultProfile("open"), WithPolicies(gate.Named{Name: "recorder", Policy: log}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("agent")
	if err != nil {
		t.Fatal(err)
	}
	// Setting up the session wrote nothing the policy was asked about.
	if got := log.seen(); len(got) != 0 {
		t.Fatalf("session set-up passed writes to pre_session: %q", got)
	}
	return s, log
}

// G-8.1: every form of write reaches pre_session with its key, value and
// verb (set, export or unset).
func TestEveryWriteReachesPreSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want []string // writes the policy must have seen, in this order
		not  []string // writes it must not have seen
	}{
		{line: "X=1", want: []string{"X=1/set"}},
		{line: "X=1 Y=2", want: []string{"X=1/set", "Y=2/set"}},
		{line: "X+=a; X+=b", want: []string{"X=a/set", "X=ab/set"}},
		{line: "export X=1", want: []string{"X=1/export"}},
		{line: "X=1; export X", want: []string{"X=1/set", "X=1/export"}},
		{line: "TEAM=ops", want: []string{"TEAM=ops/export"}},
		{line: "declare -x X=1", want: []string{"X=1/export"}},
		{line: "declare X=1; typeset Y=2; readonly Z=3", want: []string{"X=1/set", "Y=2/set", "Z=3/set"}},
		{line: "f() { local X=1; }; f", want: []string{"X=1/set"}},
		{line: "declare -a A=(a b); A[2]=c", want: []string{"A=a b/set", "A=a b c/set"}},
		{line: "declare -A M=([k]=v [j]=w)", want: []string{"M=w v/set"}},
		{line: "A=(x y z)", want: []string{"A=x y z/set"}},
		{line: "declare -n R=TARGET; R=5", want: []string{"R=TARGET/set", "TARGET=5/set"}},
		{line: "set -a; X=1", want: []string{"X=1/export"}},
		{line: "let X=1+1", want: []string{"X=2/set"}},
		{line: "(( X=3 ))", want: []string{"X=3/set"}},
		{line: "(( X++ )); (( X-- )); (( X+=5 ))", want: []string{"X=1/set", "X=0/set", "X=5/set"}},
		{line: "echo $(( X=4 ))", want: []string{"X=4/set"}},
		{line: "A[X=2]=v", want: []string{"X=2/set", "A=v/set"}},
		{line: "echo ${Y:$((X=1))}", want: []string{"X=1/set"}},
		{line: "[[ $(( X=5 )) -gt 0 ]]", want: []string{"X=5/set"}},
		{line: "for ((i=0; i<2; i++)); do :; done", want: []string{"i=0/set", "i=1/set", "i=2/set"}},
		{line: "for X in a b; do :; done", want: []string{"X=a/set", "X=b/set"}},
		{line: "select X in a b; do break; done <<< 2", want: []string{"REPLY=2/set", "X=b/set"}},
		{line: ": ${X:=7}; : ${Y=8}", want: []string{"X=7/set", "Y=8/set"}},
		{line: "read X Y <<< 'a b'", want: []string{"X=a/set", "Y=b/set"}},
		{line: "read <<< hi", want: []string{"REPLY=hi/set"}},
		{line: "read -a A <<< 'a b'", want: []string{"A=a b/set"}},
		{line: "printf -v X '%s-%d' a 1", want: []string{"X=a-1/set"}},
		{line: "printf -v 'A[1]' x", want: []string{"A=x/set"}},
		{line: "mapfile A < lines; readarray B < lines", want: []string{"A=one\n two\n/set", "B=one\n two\n/set"}},
		{line: "getopts a: O -a v", want: []string{"O=a/set", "OPTARG=v/set", "OPTIND=3/set"}},
		{line: "X=1 true", want: []string{"X=1/export"}, not: []string{"X=/unset"}},
		{line: "X=1 echo hi", want: []string{"X=1/export"}},
		{line: "env X=1 Y=2 true", want: []string{"X=1/export", "Y=2/export"}},
		{line: "env -u TEAM true; env TEAM=sre true", want: []string{"TEAM=/unset"}, not: []string{"TEAM=sre/export"}},
		{line: "env -i true", want: []string{"TEAM=/unset"}},
		{line: "unset TEAM", want: []string{"TEAM=/unset"}},
		{line: "unset NEVER_SET; declare NEVER_DECLARED", not: []string{"NEVER_SET=/unset", "NEVER_DECLARED=/unset"}},
		{line: "[[ abc =~ a(b) ]]", want: []string{"BASH_REMATCH=ab b/set"}},
		{line: `eval "X=1"`, want: []string{"X=1/set"}},
		{line: `eval 'eval "X=2"'`, want: []string{"X=2/set"}},
		{line: "source set.sh; . set.sh", want: []string{"SOURCED=1/set", "SOURCED=1/set"}},
		{line: "bash -c 'X=1'; sh -c 'Y=2'", want: []string{"X=1/set", "Y=2/set"}},
		{line: "bash set.sh", want: []string{"SOURCED=1/set"}},
		{line: "f() { X=1; }; f", want: []string{"X=1/set"}},
		{line: "(X=1)", want: []string{"X=1/set"}},
		{line: "{ X=1; } | cat", want: []string{"X=1/set"}},
		{line: "echo a | read X", want: []string{"X=a/set"}},
		{line: "Y=$(X=1; echo 2)", want: []string{"X=1/set", "Y=2/set"}},
		{line: "X=1 & wait", want: []string{"X=1/set"}},
		{line: "cd /; cd -", not: []string{"PWD=//set", "OLDPWD=/work/set", "PWD=/work/set"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			t.Parallel()
			s, log := envWriteSession(t)
			res := s.Execute(context.Background(), tt.line)
			got := log.seen()
			if !inOrder(got, tt.want) {
				t.Errorf("%s\npre_session saw %q, want %q among them in this order (stderr %q)", tt.line, got, tt.want, res.Stderr)
			}
			for _, w := range tt.not {
				if slices.Contains(got, w) {
					t.Errorf("%s\npre_session saw %q, which is not a write of the line (all: %q)", tt.line, w, got)
				}
			}
		})
	}
}

// inOrder reports whether want is a subsequence of got.
func inOrder(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// G-8.1: a write pre_session refuses does not happen, in every form; the
// refusal reads WHO: NAME: REASON at exit 1 and lands in the result's
// refusals; the line goes on.
func TestRefusedWritesDoNotHappen(t *testing.T) {
	t.Parallel()
	const why = "BLOCK variables are frozen"
	tests := []struct {
		line    string
		wantOut string
		wantErr string // the refusal's first word
	}{
		{`BLOCK=1; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "bash"},
		{`export BLOCK=1 && echo ran; echo "[${BLOCK-unset}]"`, "[unset]\n", "export"},
		{`declare -x BLOCK=1; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "declare"},
		{`A=1 BLOCK=2 C=3; echo "$?[$A][${BLOCK-unset}][${C-unset}]"`, "1[1][unset][unset]\n", "bash"},
		{`declare A=1 BLOCK=2 C=3; echo "$?[$A][${BLOCK-unset}][$C]"`, "1[1][unset][3]\n", "declare"},
		{`BLOCK=1 echo ran; echo "$?"`, "1\n", "bash"},
		{`env BLOCK=1 printenv BLOCK; echo "$?"`, "125\n", "env"},
		{`env BLOCK=1 bash -c 'echo "[${BLOCK-unset}]"'; echo "$?"`, "125\n", "env"},
		{`f() { local BLOCK=1; echo "in[${BLOCK-unset}]"; }; f`, "in[unset]\n", "local"},
		{`declare -n R=BLOCK_T; R=5; echo "$?[${BLOCK_T-unset}]"`, "1[unset]\n", "bash"},
		{`let BLOCK=1; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "let"},
		{`(( BLOCK=3 )); echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "bash"},
		{`echo $(( BLOCK=3 )); echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "bash"},
		{`A[BLOCK=3]=x; echo "$?[${BLOCK-unset}][${A[*]-unset}]"`, "1[unset][unset]\n", "bash"},
		{`echo ${x:$((BLOCK=1))}; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "bash"},
		{`for BLOCK in a b; do echo body; done; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "bash"},
		{`for ((BLOCK=0; BLOCK<3; BLOCK++)); do echo body; done; echo "$?"`, "1\n", "bash"},
		{`: ${BLOCK:=7}; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "bash"},
		{`read BLOCK <<< hi; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "read"},
		{`printf -v BLOCK x; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "printf"},
		{`mapfile BLOCK < lines; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "mapfile"},
		{`getopts a BLOCK -a; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "getopts"},
		{`eval "BLOCK=1"; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "bash"},
		{`source block.sh; echo "$?[${BLOCK_SOURCED-unset}]"`, "1[unset]\n", "block.sh: line 1"},
		{`bash -c 'BLOCK=1; echo "$?[${BLOCK-unset}]"'`, "1[unset]\n", "bash"},
		{`f() { BLOCK=9; }; f; echo "$?[${BLOCK-unset}]"`, "1[unset]\n", "environment: line 1"},
		{`echo x | { read BLOCK; echo "$?[${BLOCK-unset}]"; }`, "1[unset]\n", "read"},
		{`(BLOCK=1; echo "$?[${BLOCK-unset}]")`, "1[unset]\n", "bash"},
		{`BLOCK=1 & wait; echo "[${BLOCK-unset}]"`, "[unset]\n", "bash"},
		{`x=$(BLOCK=1; echo "[${BLOCK-unset}]"); echo "$x"`, "[unset]\n", "bash"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			t.Parallel()
			s, _ := envWriteSession(t)
			res := s.Execute(context.Background(), tt.line)
			if res.Stdout != tt.wantOut {
				t.Errorf("%s\nstdout = %q, want %q", tt.line, res.Stdout, tt.wantOut)
			}
			if want := tt.wantErr + ": BLOCK"; !strings.HasPrefix(res.Stderr, want) || !strings.Contains(res.Stderr, ": "+why+"\n") {
				t.Errorf("%s\nstderr = %q, want %q…: %s", tt.line, res.Stderr, want, why)
			}
			if res.Refusal == nil || res.Refusal.Hook != gate.HookPreSession || res.Refusal.Reason != why || res.Refusal.Scope != gate.ScopeEnv {
				t.Errorf("%s\nrefusal = %+v, want the pre_session deny", tt.line, res.Refusal)
			}
		})
	}
}

// G-8.1: with a pre_session program loaded, writes it allows behave as in
// bash; eval "OK=1" once failed with "OK1: command not found".
func TestPreSessionProgramLeavesAllowedWritesAlone(t *testing.T) {
	t.Parallel()
	programs := map[string]string{
		"starlark":   "def pre_session(ctx):\n    if ctx[\"write\"][\"key\"] == \"FROZEN\":\n        return {\"deny\": \"frozen\"}\n    return None\n",
		"javascript": "function preSession(ctx) { if (ctx.write.key === \"FROZEN\") { return {deny: \"frozen\"}; } return null; }",
	}
	lines := []struct{ line, want string }{
		{`eval "OK=1"; echo "$OK"`, "1\n"},
		{`eval 'export A=1 B=2'; echo "$A$B"`, "12\n"},
		{`bash -c 'X=1; export Y=2; echo "$X$Y"'`, "12\n"},
		{`eval "declare -a A=(a b)"; echo "${A[1]}"`, "b\n"},
		{`f() { local V=3; echo $V; }; eval f`, "3\n"},
		{`eval 'FROZEN=1'; echo "[${FROZEN-unset}]"`, "[unset]\n"},
	}
	for engine, code := range programs {
		for _, tt := range lines {
			t.Run(engine+"/"+tt.line, func(t *testing.T) {
				t.Parallel()
				spec := gate.ProfileSpec{Name: "p", Cwd: "/work", Policy: &gate.PolicySpec{Engine: engine, Name: "guard", Code: code, Timeout: int64(gate.MaxPolicyTimeout)}}
				ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/work"}}, WithProfiles(spec), WithDefaultProfile("p"))
				if err != nil {
					t.Fatal(err)
				}
				defer ws.Close()
				res := ws.Execute(context.Background(), tt.line)
				if res.Stdout != tt.want {
					t.Errorf("%s\nstdout = %q, want %q (stderr %q)", tt.line, res.Stdout, tt.want, res.Stderr)
				}
				if strings.Contains(res.Stderr, "command not found") {
					t.Errorf("%s\nstderr = %q", tt.line, res.Stderr)
				}
			})
		}
	}
}

// G-3.2: declaration keywords stay subjects of the command axis once
// assignments are judged by the interpreter's handler.
func TestDeclarationKeywordsAreJudgedAsCommands(t *testing.T) {
	t.Parallel()
	spec := gate.ProfileSpec{Name: "p", Cwd: "/work", Allow: []string{"echo", "eval", "declare"}}
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/work"}}, WithProfiles(spec), WithDefaultProfile("p"),
		WithPolicies(gate.Named{Name: "recorder", Policy: &writeLog{}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for _, tt := range []struct{ line, out, err string }{
		{`export X=1; echo "[${X-unset}]"`, "[unset]\n", "export: command not found\n"},
		{`eval 'local X=1'; echo "[${X-unset}]"`, "[unset]\n", "local: command not found\n"},
		{`let X=1; echo "[${X-unset}]"`, "[unset]\n", "let: command not found\n"},
		{`declare X=1; echo "[${X-unset}]"`, "[1]\n", ""},
		{`X=2; echo "[$X]"`, "[2]\n", ""},
	} {
		res := ws.Execute(context.Background(), tt.line)
		if res.Stdout != tt.out || res.Stderr != tt.err {
			t.Errorf("%s\ngot %q %q, want %q %q", tt.line, res.Stdout, res.Stderr, tt.out, tt.err)
		}
	}
}

var _ = fmt.Sprint

// oldpwdFrozen refuses writes to OLDPWD only.
type oldpwdFrozen struct{}

func (oldpwdFrozen) PreSession(ctx gate.SessionContext) gate.Decision {
	if ctx.Write.Key == "OLDPWD" {
		return gate.Refuse("OLDPWD is frozen")
	}
	return gate.NoOpinion()
}

// G-8.1: cd's PWD and OLDPWD are bookkeeping, not writes the agent chose;
// but a value the agent put in PWD is not laundered into OLDPWD by a cd.
func TestCdBookkeeping(t *testing.T) {
	t.Parallel()
	spec := gate.ProfileSpec{Name: "p", Cwd: "/work"}
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/work", Files: map[string]string{"d/f": "x\n"}}},
		WithProfiles(spec), WithDefaultProfile("p"), WithPolicies(gate.Named{Name: "pwd", Policy: oldpwdFrozen{}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for _, tt := range []struct{ line, out, err string }{
		{`cd d; echo "$? $PWD $OLDPWD"; cd - >/dev/null; pwd`, "0 /work/d /work\n/work\n", ""},
		{`PWD=/chosen; cd d; echo "$? $(pwd -P) ${OLDPWD-unset}"`, "1 /work unset\n", "bash: OLDPWD: OLDPWD is frozen\n"},
		{`OLDPWD=x; echo "$? ${OLDPWD-unset}"`, "1 unset\n", "bash: OLDPWD: OLDPWD is frozen\n"},
	} {
		s, err := ws.CreateSession("agent")
		if err != nil {
			t.Fatal(err)
		}
		res := s.Execute(context.Background(), tt.line)
		if res.Stdout != tt.out || res.Stderr != tt.err {
			t.Errorf("%s\ngot %q %q, want %q %q", tt.line, res.Stdout, res.Stderr, tt.out, tt.err)
		}
	}
}
