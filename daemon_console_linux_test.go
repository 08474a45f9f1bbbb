//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the console needs a terminal.
func openPTY(t *testing.T) (ptmx, pts *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 80})
	return ptmx, pts
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// G-12.3: the console (on a terminal, serving REST beside it) exits within
// two seconds of SIGTERM or SIGINT while agents' lines run: a sleeping one
// and one waiting for the human's answer, whose ask leaves the queue as
// cancelled.
func TestConsoleStopsWithinTwoSecondsOfASignal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a console")
	}
	for _, sig := range []os.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			doc, db := filepath.Join(dir, "workspace.yaml"), filepath.Join(dir, "ledger.db")
			if err := os.WriteFile(doc, []byte(safetyDocument), 0o600); err != nil {
				t.Fatal(err)
			}
			addr := freePort(t)
			ptmx, pts := openPTY(t)
			defer ptmx.Close()
			cmd := exec.Command(os.Args[0], "console", "-w", doc, "--db", db, "--serve", addr, "--quiet")
			cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "TERM=xterm")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pts.Close()
			go io.Copy(io.Discard, ptmx)
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() { cmd.Process.Kill(); <-exited })
			d := &daemon{t: t, cmd: cmd, db: db, exited: exited}
			c := newRESTClient(t, "http://"+addr)
			var ids []string
			waitFor(t, func() bool {
				code, sess, err := c.post("/v1/sessions", map[string]any{"agent_id": "a"})
				if err == nil && code/100 == 2 {
					ids = append(ids, sess["id"].(string))
				}
				return len(ids) == 2
			})
			results := make(chan map[string]any, 2)
			for i, line := range []string{"sleep 1000", "cat /w/a"} {
				go func() {
					_, res, _ := c.post("/v1/sessions/"+ids[i]+"/execute", map[string]any{"line": line})
					results <- res
				}()
			}
			waitFor(t, func() bool { return len(d.asks()) == 1 })
			time.Sleep(200 * time.Millisecond)
			if took := d.signalAndTime(sig); took > 2*time.Second {
				t.Errorf("the console took %v to exit after %v", took, sig)
			}
			for range 2 {
				select {
				case res := <-results:
					if res != nil && res["exit_code"] == float64(0) {
						t.Errorf("a cancelled line reported success: %v", res)
					}
				case <-time.After(3 * time.Second):
					t.Error("a request got no answer")
				}
			}
			recs := d.asks()
			if len(recs) != 1 || recs[0]["closed"] != "cancelled" {
				raw, _ := json.Marshal(recs)
				t.Errorf("the waiting line's ask after the console: %s", raw)
			}
		})
	}
}
