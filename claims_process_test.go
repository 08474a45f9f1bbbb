//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gatehouse/rest"
	"gatehouse/store/sqlite"
)

// claimsWorkspace is a workspace whose one guarded file is behind an ask.
const claimsWorkspace = `mounts:
  /data:
    files:
      secret.txt: "the secret\n"
      plain.txt: "plain\n"
profiles:
  default: agent
  agent:
    cwd: /data
    commands:
      allow: [cat, sleep, echo, true]
      ask:
        - {reason: secrets need sign-off, paths: [/data/secret.txt]}
`

func writeClaimsWorkspace(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "workspace.yaml")
	if err := os.WriteFile(path, []byte(claimsWorkspace), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

type execResult struct {
	stdout, stderr string
	code           int
}

// execAll starts n `gatehouse exec` processes of one line at (nearly) the
// same instant and returns what each printed.
func (c *cli) execAll(n int, args ...string) []execResult {
	c.t.Helper()
	cmds := make([]*exec.Cmd, n)
	outs := make([]*bytes.Buffer, n)
	errs := make([]*bytes.Buffer, n)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], args...)
		cmds[i].Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GATEHOUSE_DB="+c.db)
		outs[i], errs[i] = &bytes.Buffer{}, &bytes.Buffer{}
		cmds[i].Stdout, cmds[i].Stderr = outs[i], errs[i]
	}
	var wg sync.WaitGroup
	results := make([]execResult, n)
	for i, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			c.t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Wait()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				c.t.Error(err)
			}
			results[i] = execResult{outs[i].String(), errs[i].String(), code}
		}()
	}
	wg.Wait()
	return results
}

// G-9.7, G-10.1 across processes: an allow once is claimed in the ledger in
// one atomic step, so of N `gatehouse exec` processes retrying the allowed
// line at once exactly one runs it; the others ask anew (one new question
// between them, G-9.8). The line holds its claim for a second (sleep), so
// every racer judges it while the winner still runs. Several rounds, each
// on a fresh session that the racing processes also create at once.
func TestAllowOnceRunsOnceAcrossProcesses(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts dozens of processes")
	}
	c := newCLI(t)
	ws := writeClaimsWorkspace(t)
	const racers = 8
	for round := range 3 {
		session := fmt.Sprintf("race-%d", round)
		line := []string{"exec", "-w", ws, "-s", session, "--", "cat secret.txt; sleep 1"}

		// The first ask, from N processes opening a new session at once:
		// every one is refused pending, all on one question.
		first := c.execAll(racers, line...)
		ids := map[string]bool{}
		for i, r := range first {
			m := askID.FindStringSubmatch(r.stderr)
			if r.code != 126 || m == nil {
				t.Fatalf("round %d, racer %d before the answer: %d %q", round, i, r.code, r.stderr)
			}
			ids[m[1]] = true
		}
		if len(ids) != 1 {
			t.Fatalf("round %d: %d questions raised for one line, want 1: %v", round, len(ids), ids)
		}
		var id string
		for id = range ids {
		}
		if _, stderr, code := c.gatehouse("allow", id); code != 0 {
			t.Fatalf("allow: %d %q", code, stderr)
		}

		ran, asked := 0, map[string]bool{}
		for i, r := range c.execAll(racers, line...) {
			switch m := askID.FindStringSubmatch(r.stderr); {
			case r.code == 0 && r.stdout == "the secret\n":
				ran++
			case r.code == 126 && m != nil && m[1] != id:
				asked[m[1]] = true
			default:
				t.Errorf("round %d, racer %d: %d %q %q", round, i, r.code, r.stdout, r.stderr)
			}
		}
		if ran != 1 || len(asked) != 1 {
			t.Errorf("round %d: %d of %d processes ran the line allowed once (want 1); the rest raised %d new questions (want 1)",
				round, ran, racers, len(asked))
		}
	}
}

// A claim is the use: a process killed (SIGKILL) while its line runs on an
// allow once keeps the grant claimed, so the retry in another process asks
// anew instead of running on it again. Once means once.
func TestClaimOfAKilledProcessIsNotOfferedAgain(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	ws := writeClaimsWorkspace(t)
	line := []string{"exec", "-w", ws, "-s", "killed", "--", "cat secret.txt; sleep 20"}
	_, stderr, code := c.gatehouse(line...)
	m := askID.FindStringSubmatch(stderr)
	if code != 126 || m == nil {
		t.Fatalf("first: %d %q", code, stderr)
	}
	if _, stderr, code := c.gatehouse("allow", m[1]); code != 0 {
		t.Fatalf("allow: %d %q", code, stderr)
	}

	victim := exec.Command(os.Args[0], line...)
	victim.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GATEHOUSE_DB="+c.db)
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the victim holds the claim (the ledger says so), then
	// kill it mid-line.
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _, _ := c.gatehouse("list-asks", "--all", "--json")
		if strings.Contains(out, `"outcome": "allow"`) && claimHeld(t, c.db) {
			break
		}
		if time.Now().After(deadline) {
			victim.Process.Kill()
			t.Fatal("the victim never claimed the grant")
		}
		time.Sleep(20 * time.Millisecond)
	}
	victim.Process.Signal(syscall.SIGKILL)
	victim.Wait()

	_, stderr, code = c.gatehouse(line...)
	m2 := askID.FindStringSubmatch(stderr)
	if code != 126 || m2 == nil || m2[1] == m[1] {
		t.Fatalf("retry after the holder died: %d %q; want a new question", code, stderr)
	}
}

// claimHeld reports whether some grant of the session "killed" is claimed
// and not spent.
func claimHeld(t *testing.T, db string) bool {
	t.Helper()
	l, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	grants, err := l.ListGrants(context.Background(), "killed")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range grants {
		if g.ClaimedBy != "" && !g.Spent {
			return true
		}
	}
	return false
}

// startServe runs `gatehouse serve` on the test's ledger as its own process
// and returns its base URL; the daemon is stopped when the test ends.
func (c *cli) startServe(ws string) string {
	c.t.Helper()
	cmd := exec.Command(os.Args[0], "serve", "-w", ws, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GATEHOUSE_DB="+c.db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	scanner := bufio.NewScanner(out)
	for scanner.Scan() {
		if _, url, ok := strings.Cut(scanner.Text(), " on "); ok && strings.HasPrefix(url, "http://") {
			go io.Copy(io.Discard, out)
			return url
		}
	}
	c.t.Fatal("serve never said where it listens")
	return ""
}

// G-9.7 across doors: a `serve` daemon's agents and `gatehouse exec`
// processes retrying one allowed line at once, on one ledger: exactly one
// of them runs it.
func TestAllowOnceRunsOnceAcrossDoors(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a daemon and several processes")
	}
	c := newCLI(t)
	ws := writeClaimsWorkspace(t)
	base := c.startServe(ws)
	hostToken, err := rest.ReadTokenFile(c.db)
	if err != nil {
		t.Fatal(err)
	}
	line := "cat secret.txt; sleep 1"
	for round := range 2 {
		session := fmt.Sprintf("doors-%d", round)
		args := []string{"exec", "-w", ws, "-s", session, "--", line}
		_, stderr, code := c.gatehouse(args...)
		m := askID.FindStringSubmatch(stderr)
		if code != 126 || m == nil {
			t.Fatalf("round %d, first: %d %q", round, code, stderr)
		}
		if _, stderr, code := c.gatehouse("allow", m[1]); code != 0 {
			t.Fatalf("allow: %d %q", code, stderr)
		}

		var wg sync.WaitGroup
		var mu sync.Mutex
		ran := 0
		count := func(stdout string, code int) {
			mu.Lock()
			defer mu.Unlock()
			if code == 0 && stdout == "the secret\n" {
				ran++
			} else if code != 126 {
				t.Errorf("round %d: a racer ended %d %q", round, code, stdout)
			}
		}
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := strings.NewReader(`{"line":` + strconv.Quote(line) + `}`)
				req, _ := http.NewRequest("POST", base+"/v1/sessions/"+session+"/execute?wait=false", body)
				req.Header.Set("Content-Type", "application/json")
				// The CLI's session has no agent token: the daemon's
				// racers resume it as the host does.
				req.Header.Set("Authorization", "Bearer "+hostToken)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				var res struct {
					Stdout   string `json:"stdout"`
					ExitCode int    `json:"exit_code"`
				}
				if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
					t.Errorf("REST execute: %s: %v", resp.Status, err)
					return
				}
				count(res.Stdout, res.ExitCode)
			}()
		}
		for _, r := range c.execAll(4, args...) {
			count(r.stdout, r.code)
		}
		wg.Wait()
		if ran != 1 {
			t.Errorf("round %d: %d of 8 racers (4 REST, 4 exec) ran the line allowed once, want 1", round, ran)
		}
	}
}
