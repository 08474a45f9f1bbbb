package utils

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

func TestEnv(t *testing.T) {
	t.Parallel()
	base := []string{"HOME=/w", "TEAM=sre"}
	runCases(t, []utilCase{
		{name: "prints environment", args: []string{"env"}, env: base, wantOut: "HOME=/w\nTEAM=sre\n"},
		{name: "adds assignment", args: []string{"env", "X=1"}, env: base, wantOut: "HOME=/w\nTEAM=sre\nX=1\n"},
		{name: "replaces assignment", args: []string{"env", "TEAM=ops"}, env: base, wantOut: "HOME=/w\nTEAM=ops\n"},
		{name: "ignore environment", args: []string{"env", "-i", "A=b"}, env: base, wantOut: "A=b\n"},
		{name: "dash ignores environment", args: []string{"env", "-"}, env: base},
		{name: "unset", args: []string{"env", "-u", "HOME"}, env: base, wantOut: "TEAM=sre\n"},
		{name: "null separated", args: []string{"env", "-0"}, env: base, wantOut: "HOME=/w\x00TEAM=sre\x00"},
		{name: "runs command with changed environment", args: []string{"env", "-i", "ONLY=1", "printenv"}, env: base, wantOut: "ONLY=1\n"},
		{name: "runs command", args: []string{"env", "printenv", "TEAM"}, env: base, wantOut: "sre\n"},
		{name: "command status", args: []string{"env", "false"}, env: base, wantExit: 1},
		{name: "missing command", args: []string{"env", "nosuch"}, env: base,
			wantErr: "env: 'nosuch': No such file or directory\n", wantExit: 127},
		{name: "invalid option", args: []string{"env", "-z"},
			wantErr: "env: invalid option -- 'z'\nTry 'env --help' for more information.\n", wantExit: 125},
		{name: "bad unset", args: []string{"env", "-u", "A=B"}, env: base, wantErr: "env: cannot unset 'A=B': Invalid argument\n", wantExit: 125},
		{name: "options after command belong to it", args: []string{"env", "echo", "-i"}, env: base, wantOut: "-i\n"},
	})
}

func TestEnvWithoutExecEnvRefusesChangedEnvironment(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	ran := false
	e := &Env{Ctx: context.Background(), Args: []string{"env", "X=1", "echo"}, Stdout: &out, Stderr: &errb, Dir: "/",
		Environ: []string{"A=1"},
		Exec: func(context.Context, []string, io.Reader, io.Writer, io.Writer) (int, error) {
			ran = true
			return 0, nil
		}}
	status, err := Lookup("env").Run(e)
	if err != nil || status != 125 || ran || !strings.Contains(errb.String(), "changed environment") {
		t.Errorf("env X=1 without ExecEnv = %d, %v, ran=%v, %q", status, err, ran, errb.String())
	}
}

func TestPrintenv(t *testing.T) {
	t.Parallel()
	base := []string{"HOME=/w", "TEAM=sre", "EMPTY="}
	runCases(t, []utilCase{
		{name: "all", args: []string{"printenv"}, env: base, wantOut: "HOME=/w\nTEAM=sre\nEMPTY=\n"},
		{name: "one", args: []string{"printenv", "TEAM"}, env: base, wantOut: "sre\n"},
		{name: "several", args: []string{"printenv", "TEAM", "HOME"}, env: base, wantOut: "sre\n/w\n"},
		{name: "empty value", args: []string{"printenv", "EMPTY"}, env: base, wantOut: "\n"},
		{name: "missing", args: []string{"printenv", "NOPE", "TEAM"}, env: base, wantOut: "sre\n", wantExit: 1},
		{name: "hidden variables are simply absent", args: []string{"printenv", "AWS_SECRET"}, env: base, wantExit: 1},
		{name: "null", args: []string{"printenv", "-0", "TEAM"}, env: base, wantOut: "sre\x00"},
		{name: "invalid option", args: []string{"printenv", "-x"},
			wantErr: "printenv: invalid option -- 'x'\nTry 'printenv --help' for more information.\n", wantExit: 2},
	})
}

func TestWhich(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "installed", args: []string{"which", "cat"}, wantOut: "/usr/bin/cat\n"},
		{name: "several", args: []string{"which", "grep", "ls"}, wantOut: "/usr/bin/grep\n/usr/bin/ls\n"},
		{name: "missing is silent", args: []string{"which", "python3"}, wantExit: 1},
		{name: "some missing", args: []string{"which", "nosuch", "cat"}, wantOut: "/usr/bin/cat\n", wantExit: 1},
		{name: "all matches", args: []string{"which", "-a", "cat"}, wantOut: "/usr/bin/cat\n"},
		{name: "no arguments", args: []string{"which"}, wantExit: 1},
		{name: "builtin without a program", args: []string{"which", "cd"}, wantExit: 1},
		{name: "program path", args: []string{"which", "/usr/bin/cat"}, wantOut: "/usr/bin/cat\n"},
		{name: "bad option", args: []string{"which", "-s", "cat"}, wantOut: "Usage: /usr/bin/which [-a] args\n", wantErr: "Illegal option -s\n", wantExit: 2},
	})
}
