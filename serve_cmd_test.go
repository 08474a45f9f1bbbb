package main

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// daemonProcess is `gatehouse serve` running as its own process.
type daemonProcess struct {
	url string
	cmd *exec.Cmd
}

// startServe runs `gatehouse serve -w permissions --addr 127.0.0.1:0 ARGS`
// and waits for its banner.
func startServe(t *testing.T, args ...string) *daemonProcess {
	t.Helper()
	db := filepath.Join(t.TempDir(), "ledger.db")
	cmd := exec.Command(os.Args[0], append([]string{"serve", "-w", permissions, "--db", db, "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	banner := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)`)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if m := banner.FindStringSubmatch(lines.Text()); m != nil {
			go func() {
				for lines.Scan() {
				}
			}()
			return &daemonProcess{url: m[1], cmd: cmd}
		}
	}
	t.Fatal("serve printed no address")
	return nil
}

func (d *daemonProcess) post(t *testing.T, path, host, body string) int {
	t.Helper()
	req, err := http.NewRequest("POST", d.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// G-10.6: `serve -p NAME…` opens exactly those profiles to agents; the
// default is the document's default profile; a foreign Host is refused;
// SIGTERM ends the daemon.
func TestServeOpensProfilesToAgents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want map[string]int
	}{
		{nil, map[string]int{"responder": 201, "auditor": 403, "intern": 403, "": 201}},
		{[]string{"-p", "auditor", "-p", "intern"}, map[string]int{"responder": 403, "auditor": 201, "intern": 201, "": 403}},
		{[]string{"-p", "auditor,responder"}, map[string]int{"responder": 201, "auditor": 201, "intern": 403}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			d := startServe(t, tt.args...)
			for profile, want := range tt.want {
				if got := d.post(t, "/v1/sessions", "", `{"agent_id":"a","profile":"`+profile+`"}`); got != want {
					t.Errorf("profile %q: %d, want %d", profile, got, want)
				}
			}
			if got := d.post(t, "/v1/sessions", "rebound.example:80", `{"agent_id":"a","profile":"responder"}`); got != http.StatusMisdirectedRequest {
				t.Errorf("a foreign Host: %d", got)
			}
			d.cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan error, 1)
			go func() { done <- d.cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("serve ended with %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("serve did not end within 5s of SIGTERM")
			}
		})
	}
}

// G-10.6: serve refuses to open a profile the document does not define.
func TestServeUnknownProfile(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	_, stderr, code := c.gatehouse("serve", "-w", permissions, "--addr", "127.0.0.1:0", "-p", "root")
	if code != 2 || !strings.Contains(stderr, "serve -p root: unknown profile (known profiles: auditor, intern, responder)") {
		t.Errorf("code %d stderr %q", code, stderr)
	}
}
