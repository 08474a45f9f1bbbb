package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gatehouse/store/postgres/pgtest"
)

// TestMain lets tests run the real command in a child process: the test
// binary re-executes itself with GATEHOUSE_TEST_MAIN=1.
func TestMain(m *testing.M) {
	if os.Getenv("GATEHOUSE_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

type cli struct {
	t  *testing.T
	db string
}

// gatehouse runs the command as its own process against the test's ledger.
func (c *cli) gatehouse(args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	return c.gatehouseIn("", args...)
}

// gatehouseIn is gatehouse run from the directory dir ("" = the test's).
func (c *cli) gatehouseIn(dir string, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GATEHOUSE_DB="+c.db)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func newCLI(t *testing.T) *cli {
	return &cli{t: t, db: filepath.Join(t.TempDir(), "ledger.db")}
}

const permissions = "demo/permissions/workspace.yaml"

var askID = regexp.MustCompile(`\(ask ([0-9a-f]{12})\)`)

// G-11.4, G-10.5: exec → allow → exec works across processes.
func TestExecAllowExecAcrossProcesses(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	_, stderr, code := c.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md")
	if code != 126 || !strings.HasPrefix(stderr, "rm: Permission denied\nrequires approval: removal needs sign-off (ask ") {
		t.Fatalf("first exec: code %d stderr %q", code, stderr)
	}
	id := askID.FindStringSubmatch(stderr)[1]
	out, _, code := c.gatehouse("list-asks")
	if code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "rm frozen/restore.md") {
		t.Fatalf("list-asks: %d %q", code, out)
	}
	out, _, code = c.gatehouse("allow", id, "--json")
	var rec map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rec) != nil || rec["outcome"] != "allow" || rec["scope"] != "once" {
		t.Fatalf("allow: %d %q", code, out)
	}
	if _, stderr, code := c.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md"); code != 0 {
		t.Fatalf("retry: %d %q", code, stderr)
	}
	// The once grant is spent: the next identical line asks again.
	if _, _, code := c.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md"); code != 126 {
		t.Fatalf("second retry: %d, want 126", code)
	}
	// G-10.5: answering an answered ask is exit 1 and says so.
	_, stderr, code = c.gatehouse("deny", id)
	if code != 1 || !strings.Contains(stderr, "already answered") {
		t.Fatalf("deny answered: %d %q", code, stderr)
	}
}

func TestCLIExitCodes(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	cases := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"exec", "-w", permissions, "-p", "responder", "--", "cat", "README.md"}, 0, "Incident runbook\n", ""},
		{[]string{"exec", "-w", permissions, "-p", "responder", "--", "sort README.md"}, 127, "", "sort: command not found\n"},
		{[]string{"exec", "-w", permissions, "-p", "responder", "--", "cat /vault/aws.token"}, 1, "", "cat: /vault/aws.token: credentials are never read by hand\n"},
		{[]string{"exec", "-w", permissions, "-p", "intern", "--", "cat /vault/aws.token"}, 1, "", "cat: /vault/aws.token: No such file or directory\n"},
		{[]string{"exec", "-w", permissions, "-p", "nobody", "--", "true"}, 2, "", "unknown profile \"nobody\" (known profiles: auditor, intern, responder)"},
		{[]string{"exec", "--", "true"}, 2, "", "exec needs -w FILE"},
		{[]string{"exec", "-w", permissions, "--bogus", "--", "true"}, 2, "", "gatehouse exec: unknown flag --bogus"},
		{[]string{"allow", "000000000000"}, 1, "", "gatehouse: ask 000000000000 not found\n"},
		{[]string{"deny", "000000000000", "--scope", "session"}, 2, "", "deny answers once"},
		{[]string{"allow"}, 2, "", "allow needs exactly one ask id"},
		{[]string{"frobnicate"}, 2, "", "unknown command \"frobnicate\""},
		{[]string{"demo", "nope"}, 2, "", "unknown demo"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, code := c.gatehouse(tc.args...)
			if code != tc.code || stdout != tc.stdout || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("got %d %q %q, want %d %q ~%q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// G-11.1, G-11.2: explain's table and JSON agree with exec.
func TestExplainMatchesExec(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	out, _, code := c.gatehouse("explain", "-w", permissions, "-p", "responder", "--json", "--", "cat /vault/aws.token")
	var exps []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &exps) != nil || len(exps) != 1 {
		t.Fatalf("explain: %d %q", code, out)
	}
	_, stderr, execCode := c.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "cat /vault/aws.token")
	if exps[0]["stderr"] != stderr || int(exps[0]["exit_code"].(float64)) != execCode || exps[0]["outcome"] != "deny" {
		t.Errorf("explain %v vs exec %d %q", exps[0], execCode, stderr)
	}
	if exps[0]["rule"] != "demo/permissions/workspace.yaml:35:11" {
		t.Errorf("rule %v", exps[0]["rule"])
	}
	table, _, _ := c.gatehouse("explain", "-w", permissions, "-p", "responder", "--", "ls /vault; rm x")
	for _, want := range []string{"PLACE", "run", "ask", "removal needs sign-off", "rm: Permission denied"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}
