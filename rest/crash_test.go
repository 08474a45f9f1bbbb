package rest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
	"gatehouse/store/sqlite"
)

// The helper daemon reads its workspace document and ledger from these.
const (
	helperLedgerEnv   = "GATEHOUSE_REST_HELPER_LEDGER"
	helperDocumentEnv = "GATEHOUSE_REST_HELPER_DOCUMENT"
)

// TestHelperDaemon is not a test: TestKillDuringAnswersLosesNothing runs
// the test binary again with only this, as a daemon in a child process it
// can kill -9. It serves like `gatehouse serve` until it is killed.
func TestHelperDaemon(t *testing.T) {
	ledger := os.Getenv(helperLedgerEnv)
	if ledger == "" {
		t.Skip("runs only as the child process of TestKillDuringAnswersLosesNothing")
	}
	ws, err := core.LoadWorkspace(os.Getenv(helperDocumentEnv), core.WithLedger(ledger), core.OnAsk(AwaitAnswer))
	if err != nil {
		t.Fatal(err)
	}
	token, err := LoadOrCreateToken(ledger)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("listening %s\n", ln.Addr())
	New(ws, WithToken(token)).Serve(context.Background(), ln)
}

// TestKillDuringAnswersLosesNothing: hosts answer a queue of asks over REST
// while the daemon is killed with SIGKILL. Every answer acknowledged with a
// 200 before the kill is in the ledger afterwards, as it was given (G-10.1).
func TestKillDuringAnswersLosesNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	const asks = 300
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	ledger := filepath.Join(dir, "ledger.db")
	if err := os.WriteFile(doc, []byte(testDocument), 0o600); err != nil {
		t.Fatal(err)
	}
	ids := raiseAsks(t, doc, ledger, asks)

	child := exec.Command(os.Args[0], "-test.run=^TestHelperDaemon$")
	child.Env = append(os.Environ(), helperLedgerEnv+"="+ledger, helperDocumentEnv+"="+doc)
	child.Stderr = os.Stderr
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	addr := readListeningAddress(t, stdout)
	token, err := readTokenFile(TokenPath(ledger))
	if err != nil {
		t.Fatal(err)
	}
	client := &Client{BaseURL: "http://" + addr, Token: token}

	// Four hosts answer from one queue; the daemon dies once a fifth of the
	// asks are acknowledged, with answers still in flight.
	var mu sync.Mutex
	acknowledged := map[string]string{} // ask id -> outcome the 200 confirmed
	killed := make(chan struct{})
	var killOnce sync.Once
	queue := make(chan string, len(ids))
	for _, id := range ids {
		queue <- id
	}
	close(queue)
	var hosts sync.WaitGroup
	for range 4 {
		hosts.Go(func() {
			for id := range queue {
				outcome := outcomeFor(id)
				var err error
				if outcome == decisions.Allow {
					_, err = client.Allow(context.Background(), id, decisions.Once, "note "+id)
				} else {
					_, err = client.Deny(context.Background(), id, "note "+id)
				}
				if err != nil {
					return // the daemon is gone
				}
				mu.Lock()
				acknowledged[id] = outcome
				if len(acknowledged) == asks/5 {
					killOnce.Do(func() {
						child.Process.Kill() // SIGKILL: no shutdown, no flush
						close(killed)
					})
				}
				mu.Unlock()
			}
		})
	}
	hosts.Wait()
	select {
	case <-killed:
	default:
		t.Fatal("every answer went through before the kill; nothing was tested")
	}
	child.Wait()

	db, err := sqlite.Open(ledger)
	if err != nil {
		t.Fatalf("reopening the ledger after the kill: %v", err)
	}
	defer db.Close()
	if err := db.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	l := decisions.New(db)
	answered := 0
	for _, id := range ids {
		rec, err := l.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if !rec.Pending() {
			answered++
		}
		want, acked := acknowledged[id]
		if acked && (rec.Outcome != want || rec.Note != "note "+id || rec.AnsweredAt.IsZero()) {
			t.Errorf("acknowledged %s %s, ledger has %+v", want, id, rec)
		}
	}
	if answered < len(acknowledged) {
		t.Errorf("%d answers acknowledged, %d in the ledger", len(acknowledged), answered)
	}
	if len(acknowledged) == asks {
		t.Errorf("all %d answers were acknowledged: the kill came too late to test anything", asks)
	}
	t.Logf("%d of %d answers acknowledged before the kill; %d in the ledger", len(acknowledged), asks, answered)
}

// outcomeFor alternates allow and deny across asks, so both kinds of
// answer are checked.
func outcomeFor(id string) string {
	if id[len(id)-1]%2 == 0 {
		return decisions.Allow
	}
	return decisions.Deny
}

// raiseAsks leaves n pending asks in the ledger, as agents without a
// waiting host would.
func raiseAsks(t *testing.T, doc, ledger string, n int) []string {
	t.Helper()
	ws, err := core.LoadWorkspace(doc, core.WithLedger(ledger))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	sess, err := ws.CreateSession("agent-a", core.Profile("guarded"))
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, n)
	for i := range n {
		res := sess.Execute(context.Background(), askingLine(i))
		if res.Refusal == nil || res.Refusal.AskID == "" {
			t.Fatalf("line %d raised no ask: %+v", i, res)
		}
		ids = append(ids, res.Refusal.AskID)
	}
	return ids
}

// readListeningAddress waits for the child daemon's "listening ADDR" line.
func readListeningAddress(t *testing.T, stdout interface{ Read([]byte) (int, error) }) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
				found <- addr
				break
			}
		}
		for sc.Scan() { // keep the pipe drained
		}
	}()
	select {
	case addr := <-found:
		return addr
	case <-time.After(30 * time.Second):
		t.Fatal(errors.New("the helper daemon did not start within 30s"))
		return ""
	}
}
