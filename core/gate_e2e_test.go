package core

import (
	"context"
	"strings"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// seedMounts is the SPEC's G-1.1 example, as memory mounts.
func seedMounts() []vfs.MountSpec {
	return []vfs.MountSpec{
		{Prefix: "/runbook", Files: map[string]string{
			"README.md":         "Incident runbook\n",
			"frozen/restore.md": "1. page the on-call\n",
			"old.bak":           "old notes\n",
			"secret.txt":        "s3cret\n",
		}},
		{Prefix: "/vault", Files: map[string]string{
			"aws.token":     "AKIA-EXAMPLE\n",
			"public/ca.pem": "-----BEGIN CERTIFICATE-----\n",
			"internal/k":    "internal\n",
		}},
		{Prefix: "/repo", ReadOnly: false, Files: map[string]string{"main.go": "package main\n", "id.key": "KEY\n"}},
		{Prefix: "/ro", ReadOnly: true, Files: map[string]string{"f": "x\n"}},
	}
}

var responder = gate.ProfileSpec{
	Name: "responder",
	Cwd:  "/runbook",
	Env:  map[string]string{"TEAM": "sre", "AWS_KEY": "hidden-value", "GITHUB_TOKEN": "gh"},
	Allow: []string{"cat", "ls", "echo", "cd", "rm", "grep", "head", "wc", "touch", "find", "xargs",
		"eval", "bash", "sh", "command", "builtin", "exec", "env", "type", "test", "[", "pwd",
		"printenv", "mkdir", "cp", "mv", "true", "false", "source", ".", "timeout", "nice", "nohup", "which", "ln"},
	Ask: []gate.Rule{{Reason: "removal needs sign-off", Commands: []string{"rm"}}},
	Deny: []gate.Rule{
		{Reason: "credentials are never read by hand", Paths: []string{"/vault/*"}},
		{Reason: "no recursive grep in the vault", Commands: []string{"grep -r"}},
	},
	Hide: []gate.PathGroup{
		{Paths: []string{"/vault/internal"}},
		{Reason: "operator only", Paths: []string{"/runbook/*.bak"}},
	},
	Show:     []gate.ShowEntry{{Path: "/vault/public", Mode: "ro"}},
	VarsHide: []string{"AWS_*", "GITHUB_TOKEN"},
	Mounts: map[string]gate.MountRules{
		"/repo":    {ReadOnly: true, Hide: []gate.PathGroup{{Paths: []string{"*.key"}}}},
		"/runbook": {Deny: []gate.Rule{{Reason: "the frozen runbook is edited in review", Commands: []string{"mkdir"}}}},
	},
}

func newTestWorkspace(t testing.TB, opts ...Option) *Workspace {
	t.Helper()
	opts = append([]Option{WithProfiles(responder), WithDefaultProfile("responder")}, opts...)
	ws, err := NewWorkspace(seedMounts(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

type lineCase struct {
	name       string
	line       string
	wantOut    string
	wantErr    string
	wantExit   int
	wantScope  string // refusal scope, "" = no refusal
	wantKind   string
	errContain bool
}

func runCases(t *testing.T, cases []lineCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := newTestWorkspace(t)
			res := ws.Execute(context.Background(), tc.line)
			if res.Stdout != tc.wantOut {
				t.Errorf("%s\nstdout = %q, want %q", tc.line, res.Stdout, tc.wantOut)
			}
			if tc.errContain {
				if !strings.Contains(res.Stderr, tc.wantErr) {
					t.Errorf("%s\nstderr = %q, want it to contain %q", tc.line, res.Stderr, tc.wantErr)
				}
			} else if res.Stderr != tc.wantErr {
				t.Errorf("%s\nstderr = %q, want %q", tc.line, res.Stderr, tc.wantErr)
			}
			if res.ExitCode != tc.wantExit {
				t.Errorf("%s\nexit = %d, want %d", tc.line, res.ExitCode, tc.wantExit)
			}
			switch {
			case tc.wantScope == "" && res.Refusal != nil:
				t.Errorf("%s\nunexpected refusal %+v", tc.line, *res.Refusal)
			case tc.wantScope != "" && res.Refusal == nil:
				t.Errorf("%s\nno refusal, want %s/%s", tc.line, tc.wantKind, tc.wantScope)
			case tc.wantScope != "" && (res.Refusal.Scope != tc.wantScope || res.Refusal.Kind != tc.wantKind):
				t.Errorf("%s\nrefusal %+v, want %s/%s", tc.line, *res.Refusal, tc.wantKind, tc.wantScope)
			}
		})
	}
}

const enoent = "No such file or directory"

func TestCommandAxis(t *testing.T) {
	t.Parallel()
	runCases(t, []lineCase{
		// G-3.1 / G-3.2: a word missing from the tool set is not a command.
		{name: "G-3.2 not installed", line: "sort README.md", wantErr: "sort: command not found\n", wantExit: 127},
		{name: "G-3.2 not installed after a command runs", line: "echo a; sort z; echo b", wantOut: "a\nb\n", wantErr: "sort: command not found\n"},
		{name: "G-3.2 type says not found", line: "type sort", wantErr: "bash: type: sort: not found\n", wantExit: 1},
		{name: "G-3.2 command -v is silent", line: "command -v sort; echo $?", wantOut: "1\n"},
		{name: "G-3.2 which prints nothing", line: "which sort; echo $?", wantOut: "1\n"},
		{name: "G-12.2 type of an installed utility", line: "type cat; which cat; command -v cat", wantOut: "cat is /usr/bin/cat\n/usr/bin/cat\n/usr/bin/cat\n"},
		{name: "G-3.2 declaration keywords are subjects too", line: "export X=1; echo \"[$X]\"", wantOut: "[]\n", wantErr: "export: command not found\n"},
		{name: "G-3.2 local is a subject", line: "f() { local y=1; echo \"[$y]\"; }; f", wantOut: "[]\n", wantErr: "environment: line 1: local: command not found\n"},
		// G-3.1 step 3 / G-7.4: a whole-command ask refuses the line at 126.
		{name: "G-7.4 whole-command ask", line: "rm README.md", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "G-9.3 ask refuses before anything runs", line: "echo first; rm README.md", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		// G-3.4 prefixes: grep -r is denied, plain grep is not.
		{name: "G-3.4 prefix pattern denies", line: "grep -r Incident /runbook", wantErr: "grep: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "deny"},
		{name: "G-3.4 other argv passes", line: "grep Incident README.md", wantOut: "Incident runbook\n"},
		{name: "G-9.3 deny refuses the whole line first", line: "echo before; grep -r x /runbook", wantErr: "grep: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "deny"},
		// G-3.5 wrappers are transparent.
		{name: "G-3.5 command wrapper", line: "command rm README.md", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "G-3.5 env wrapper", line: "env rm README.md", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "G-3.5 env assignment wrapper", line: "env X=1 grep -r a /runbook", wantErr: "grep: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "deny"},
		{name: "G-3.5 timeout wrapper", line: "timeout 5 rm README.md", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "G-3.5 xargs wrapper", line: "echo README.md | xargs grep -r x", wantErr: "grep: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "deny"},
		{name: "G-3.5 find -exec wrapper", line: "find /runbook -name README.md -exec grep -r x {} \\;", wantErr: "grep: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "deny"},
		{name: "G-3.5 eval", line: "eval 'rm README.md'", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "G-3.5 bash -c", line: "bash -c 'rm README.md'", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "G-3.5 sh -c in eval", line: "eval \"sh -c 'grep -r x /'\"", wantErr: "grep: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "deny"},
		{name: "G-3.6 leading assignment", line: "X=1 rm README.md", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		// Quoting is no disguise.
		{name: "quoting c''at", line: "c''at /vault/aws.token", wantErr: "cat: /vault/aws.token: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		{name: "quoting \\rm", line: `\rm README.md`, wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "quoting $'\\x72m'", line: `$'\x72m' README.md`, wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "brace group", line: "{ rm README.md; }", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "subshell", line: "( rm README.md )", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "command substitution", line: "echo $(rm README.md)", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		{name: "function body", line: "f() { rm README.md; }; f", wantErr: "rm: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "ask"},
		// G-12.1: nothing of the host.
		{name: "G-12.1 type python3", line: "type python3", wantErr: "bash: type: python3: not found\n", wantExit: 1},
		{name: "G-12.1 command -v sh", line: "command -v sh", wantOut: "/usr/bin/sh\n"},
		{name: "G-12.1 source /etc/profile", line: "source /etc/profile", wantErr: "bash: /etc/profile: " + enoent + "\n", wantExit: 1},
		{name: "G-12.1 cat /etc/passwd", line: "cat /etc/passwd", wantErr: "cat: /etc/passwd: " + enoent + "\n", wantExit: 1},
		// Where `which` says a utility lives, that spelling runs it (never
		// a host binary); a missing one reads as bash reads a missing file.
		{name: "G-12.1 /bin/ls", line: "/bin/ls /", wantOut: "dev\nrepo\nro\nrunbook\ntmp\nvault\n"},
		{name: "G-12.1 /usr/bin/sort not installed", line: "/usr/bin/sort x", wantErr: "bash: /usr/bin/sort: No such file or directory\n", wantExit: 127},
		{name: "G-12.1 pwd -P", line: "cd /runbook/frozen && pwd -P", wantOut: "/runbook/frozen\n"},
	})
}

func TestPathAxis(t *testing.T) {
	t.Parallel()
	runCases(t, []lineCase{
		// G-7.3 operand deny in the command's voice.
		{name: "G-7.3 cat operand deny", line: "cat /vault/aws.token", wantErr: "cat: /vault/aws.token: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		{name: "G-4.10 other operands still run", line: "cat README.md /vault/aws.token", wantOut: "Incident runbook\n", wantErr: "cat: /vault/aws.token: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		{name: "G-4.9 relative operand", line: "cd /vault && cat aws.token", wantErr: "cat: aws.token: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		{name: "G-4.6 denied path listed", line: "ls /vault", wantOut: "aws.token\npublic\n"},
		// G-4.5 hidden paths read exactly as missing ones.
		{name: "G-4.5 hidden reads as missing", line: "cat /vault/internal/k", wantErr: "cat: /vault/internal/k: " + enoent + "\n", wantExit: 1},
		{name: "G-4.5 hidden cd", line: "cd /vault/internal", wantErr: "bash: cd: /vault/internal: " + enoent + "\n", wantExit: 1},
		{name: "G-4.5 hidden test -e", line: "test -e /vault/internal && echo yes || echo no", wantOut: "no\n"},
		{name: "G-4.5 hidden by glob pattern", line: "cat old.bak", wantErr: "cat: old.bak: " + enoent + "\n", wantExit: 1},
		{name: "G-4.5 glob skips hidden names", line: "echo /runbook/*", wantOut: "/runbook/README.md /runbook/frozen /runbook/secret.txt\n"},
		{name: "G-4.5 glob over the vault", line: "echo /vault/*", wantOut: "/vault/aws.token /vault/public\n"},
		{name: "G-4.5 ls of hidden", line: "ls /vault/internal", wantErr: "ls: cannot access '/vault/internal': " + enoent + "\n", wantExit: 2},
		{name: "G-4.5 redirect from hidden", line: "cat < /vault/internal/k", wantErr: "bash: /vault/internal/k: " + enoent + "\n", wantExit: 1},
		{name: "G-4.7 show re-opens", line: "cat /vault/public/ca.pem", wantOut: "-----BEGIN CERTIFICATE-----\n"},
		{name: "G-4.7 show ro", line: "touch /vault/public/new", wantErr: "touch: cannot touch '/vault/public/new': Read-only file system\n", wantExit: 1},
		// G-6.1a: no spelling routes around a rule.
		{name: "G-6.1a dotdot", line: "cat /runbook/../vault/aws.token", wantErr: "cat: /runbook/../vault/aws.token: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		{name: "G-6.1a double slash", line: "cat //vault//aws.token", wantErr: "cat: //vault//aws.token: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		{name: "G-6.1a dot", line: "cat /vault/./internal/k", wantErr: "cat: /vault/./internal/k: " + enoent + "\n", wantExit: 1},
		{name: "G-6.1a redirect onto denied", line: "cat < /vault/aws.token", wantErr: "bash: /vault/aws.token: credentials are never read by hand\n", wantExit: 1},
		{name: "G-6.1a glob onto denied", line: "cat /vault/aws.*", wantErr: "cat: /vault/aws.token: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		{name: "G-6.1a xargs onto denied", line: "echo /vault/aws.token | xargs cat", wantErr: "cat: /vault/aws.token: credentials are never read by hand\n", wantExit: 123, wantScope: "operand", wantKind: "deny"},
		{name: "G-6.1a find -exec onto denied", line: "find /vault -name aws.token -exec cat {} \\;", wantErr: "cat: /vault/aws.token: credentials are never read by hand\n", wantExit: 0, wantScope: "operand", wantKind: "deny"},
		{name: "G-6.1a symlink into the vault", line: "cd /tmp && ln -s /vault/aws.token t 2>/dev/null; cat /tmp/t", wantErr: "cat: /tmp/t: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		{name: "G-6.1a $(<file)", line: "echo $(</vault/aws.token)", wantErr: "bash: /vault/aws.token: credentials are never read by hand\n", wantExit: 0, errContain: true},
		{name: "G-6.1a source a denied file", line: "source /vault/aws.token", wantErr: "bash: /vault/aws.token: credentials are never read by hand\n", wantExit: 1, wantScope: "operand", wantKind: "deny"},
		// G-5: mounts.
		{name: "G-5.1 profile narrows to ro", line: "touch /repo/new", wantErr: "touch: cannot touch '/repo/new': Read-only file system\n", wantExit: 1},
		{name: "G-5.2 ro mount", line: "touch /ro/x", wantErr: "touch: cannot touch '/ro/x': Read-only file system\n", wantExit: 1},
		{name: "G-5.2 ro redirect", line: "echo x > /ro/x", wantErr: "bash: /ro/x: Read-only file system\n", wantExit: 1},
		{name: "G-4.1 mount-level hide anchors to the mount", line: "ls /repo", wantOut: "main.go\n"},
		{name: "G-5.3 mount deny by cwd", line: "cd /runbook/frozen && mkdir x", wantErr: "mkdir: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "deny"},
		{name: "G-5.3 mount deny by operand", line: "cd /tmp && mkdir /runbook/x", wantErr: "mkdir: Permission denied\n", wantExit: 126, wantScope: "command", wantKind: "deny"},
		{name: "G-5.3 elsewhere allowed", line: "cd /tmp && mkdir x && ls", wantOut: "x\n"},
		{name: "G-5.4 cwd and env seeded", line: "pwd; echo $TEAM", wantOut: "/runbook\nsre\n"},
		{name: "G-5.5 vars.hide", line: "echo \"[$AWS_KEY][$GITHUB_TOKEN]\"; printenv AWS_KEY; env | grep -c AWS", wantOut: "[][]\n0\n", wantExit: 1},
		{name: "G-5.7 ls /", line: "ls /", wantOut: "dev\nrepo\nro\nrunbook\ntmp\nvault\n"},
		{name: "G-5.7 /tmp writable", line: "echo hi > /tmp/x; cat /tmp/x", wantOut: "hi\n"},
		{name: "G-5.7 /dev/null", line: "echo hi > /dev/null; cat /dev/null", wantOut: ""},
		// G-4.11: creating a hidden name is EACCES.
		{name: "G-4.11 create hidden name", line: "touch /runbook/new.bak", wantErr: "touch: cannot touch '/runbook/new.bak': Permission denied\n", wantExit: 1},
	})
}
