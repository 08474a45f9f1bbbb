//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ptyOutput collects what a program writes to its terminal.
type ptyOutput struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *ptyOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

// text is the output so far without escape sequences and blanks (the
// renderer may move the cursor over blanks instead of writing them).
func (o *ptyOutput) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.NewReplacer(" ", "", "\r", "", "\n", "").Replace(escapes.ReplaceAllString(o.buf.String(), ""))
}

// squash drops blanks, as text does.
func squash(s string) string { return strings.ReplaceAll(s, " ", "") }

var escapes = regexp.MustCompile(`\x1b\[[0-9;:?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]`)

// A bare `gatehouse` on a terminal: the demo console finds its ledger
// through $GATEHOUSE_DB like every command, runs on a copy of its
// document beside the ledger, and names both in its header; started in
// another directory it writes nothing there. Quitting with asks waiting
// asks first, and the console says on exit what became of them.
func TestDemoConsoleShowsItsLedgerAndDocument(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a console")
	}
	dir, cwd := t.TempDir(), t.TempDir()
	db := filepath.Join(dir, "ledger.db")
	copyPath := filepath.Join(dir, "gatehouse-demo", "incident-workspace.yaml")
	ptmx, pts := openPTY(t)
	defer ptmx.Close()
	unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 220})
	cmd := exec.Command(os.Args[0], "--quiet")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "TERM=xterm", "GATEHOUSE_DB="+db)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close()
	out := &ptyOutput{}
	// drained is closed once the terminal has delivered everything the
	// console wrote: the read fails only after the last writer is gone
	// and its output is read, which can be well after the process exited.
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan struct{}) // closed when the console has ended
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })

	// The renderer writes only what changed, so the row's "ledger" may
	// come from an earlier, narrower frame: look for the paths.
	header := squash(db + " · workspace " + copyPath)
	deadline := time.Now().Add(time.Minute) // a bound on failure only
	for !(strings.Contains(out.text(), header) && strings.Contains(out.text(), "◆1askwaiting")) {
		if time.Now().After(deadline) {
			t.Fatalf("the header never named %s; the terminal got:\n%q", header, out.text())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if data, err := os.ReadFile(copyPath); err != nil || !bytes.Contains(data, []byte("profiles:")) {
		t.Fatalf("the demo's copy of its document: %v", err)
	}
	ptmx.Write([]byte("q"))
	waitFor(t, func() bool { return strings.Contains(out.text(), "Quit?y/N") })
	ptmx.Write([]byte("q"))
	select {
	case <-exited:
	case <-time.After(time.Minute):
		t.Fatal("the console did not quit")
	}
	select {
	case <-drained:
	case <-time.After(time.Minute):
		t.Fatal("the terminal never reported the console's end")
	}
	if text := out.text(); !strings.Contains(text, squash("of this console's agents ended with it, cancelled.")) {
		t.Errorf("no word on exit about the waiting asks:\n%s", text[max(len(text)-600, 0):])
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Errorf("the console wrote into its working directory: %v", entries)
	}
}
