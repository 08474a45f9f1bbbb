//go:build unix

package sqlite_test

// Crash consistency of the ledger file (G-10.1): a child process
// raises and answers 1,000 asks and spends the once-grants the answers
// give, printing an acknowledgement after each commit returns; the parent
// kills it with SIGKILL at random points, restarts it until it has done
// everything, then reopens the file and checks that no acknowledged write
// was lost, no ask was answered twice and no once-grant was spent twice.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gatehouse/store"
	"gatehouse/store/sqlite"
)

const (
	crashLedgerEnv  = "GATEHOUSE_CRASH_LEDGER"
	crashQuestions  = 1000
	crashSession    = "crash-session"
	crashWorkers    = 4
	crashMaxRounds  = 200
	crashDoneMarker = "done"
)

func crashLine(i int) string { return fmt.Sprintf("line-%04d", i) }
func crashKey(line string) string {
	return "key-" + strings.TrimPrefix(line, "line-")
}

// crashAcks is what the parent read from every child, in order.
type crashAcks struct {
	raised   map[string]string // ask id -> line
	answered map[string]int    // ask id -> times acknowledged
	spent    map[string]int    // grant id -> times acknowledged
	lines    int
}

func TestCrashConsistency(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a child process many times")
	}
	path := filepath.Join(t.TempDir(), "ledger.db")
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	t.Logf("random seed %d", seed)

	acks := &crashAcks{raised: map[string]string{}, answered: map[string]int{}, spent: map[string]int{}}
	rounds, kills, finished := 0, 0, false
	for rounds < crashMaxRounds && !finished {
		rounds++
		// Half the rounds die after a number of acknowledgements, half
		// after a delay (which also lands in start-up and migrations).
		var afterAcks int
		var afterDelay time.Duration
		if rng.IntN(2) == 0 {
			afterAcks = 1 + rng.IntN(400)
		} else {
			afterDelay = time.Duration(1+rng.IntN(150)) * time.Millisecond
		}
		killed, done := crashRound(t, path, acks, afterAcks, afterDelay)
		if killed {
			kills++
		}
		finished = done
	}
	if !finished {
		t.Fatalf("the child never finished in %d rounds", rounds)
	}

	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lost := crashVerify(t, db, acks)
	answers, spends := 0, 0
	for _, n := range acks.answered {
		answers += n
	}
	for _, n := range acks.spent {
		spends += n
	}
	t.Logf("crash consistency: %d rounds, %d killed with SIGKILL; acknowledged %d raises, %d answers, %d spends; lost %d",
		rounds, kills, len(acks.raised), answers, spends, lost)
}

// crashRound starts the child and kills it when it has acknowledged
// afterAcks writes or afterDelay has passed (whichever is set). It reads
// every complete acknowledgement the child wrote, the ones still in the
// pipe after the kill included.
func crashRound(t *testing.T, path string, acks *crashAcks, afterAcks int, afterDelay time.Duration) (killed, done bool) {
	t.Helper()
	child := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	child.Env = append(os.Environ(), crashLedgerEnv+"="+path)
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	// Only this test sends SIGKILL, so the wait status alone says whether
	// the child died of it; no flag is shared with the timer's goroutine.
	var killOnce sync.Once
	kill := func() { killOnce.Do(func() { child.Process.Signal(syscall.SIGKILL) }) }
	if afterDelay > 0 {
		timer := time.AfterFunc(afterDelay, kill)
		defer timer.Stop()
	}
	seen := 0
	scanner := bufio.NewScanner(out)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		switch {
		case len(fields) == 3 && fields[0] == "raised":
			acks.raised[fields[1]] = fields[2]
		case len(fields) == 2 && fields[0] == "answered":
			acks.answered[fields[1]]++
		case len(fields) == 3 && fields[0] == "spent":
			acks.spent[fields[1]]++
		case len(fields) == 1 && fields[0] == crashDoneMarker:
			done = true
			continue
		default:
			continue // the test binary's own words
		}
		acks.lines++
		if seen++; afterAcks > 0 && seen == afterAcks {
			kill()
		}
	}
	err = child.Wait()
	if status, ok := child.ProcessState.Sys().(syscall.WaitStatus); ok && status.Signaled() && status.Signal() == syscall.SIGKILL {
		return true, false // killed before or after "done": run again
	}
	if err != nil {
		t.Fatalf("child failed on its own: %v", err)
	}
	return false, done
}

// crashVerify reopens what the children left and checks it against every
// acknowledgement. It returns how many acknowledged writes are missing.
func crashVerify(t *testing.T, db store.Ledger, acks *crashAcks) (lost int) {
	t.Helper()
	ctx := context.Background()
	records, err := db.ListAsks(ctx, crashSession, false)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]store.Record{}
	perLine := map[string]int{}
	for _, r := range records {
		byID[r.ID] = r
		perLine[r.Line]++
	}
	if len(records) != crashQuestions {
		t.Errorf("the ledger holds %d asks, want exactly %d (one per question)", len(records), crashQuestions)
	}
	for line, n := range perLine {
		if n != 1 {
			t.Errorf("question %s was raised %d times", line, n)
		}
	}
	for id, line := range acks.raised {
		if r, ok := byID[id]; !ok || r.Line != line {
			t.Errorf("acknowledged raise %s (%s) is missing", id, line)
			lost++
		}
	}
	for id, n := range acks.answered {
		r, ok := byID[id]
		switch {
		case !ok || r.Outcome != store.Allow || r.Scope != store.Once:
			t.Errorf("acknowledged answer of %s is missing: %+v", id, r)
			lost++
		case n != 1:
			t.Errorf("ask %s was answered %d times", id, n)
		}
	}
	for _, r := range records {
		if r.Outcome != store.Allow {
			t.Errorf("ask %s (%s) was never answered", r.ID, r.Line)
		}
	}

	// Grants: one per answered ask, each spent once, none left available.
	grants, err := db.ListGrants(ctx, crashSession)
	if err != nil {
		t.Fatal(err)
	}
	perAsk := map[string]int{}
	state := map[string]string{}
	for _, g := range grants {
		perAsk[g.AskID]++
		state[fmt.Sprint(g.ID)] = map[bool]string{true: "spent", false: "available"}[g.Spent]
		if g.Kind != store.GrantOnce {
			t.Errorf("grant %d of ask %s is %q, want a once-grant", g.ID, g.AskID, g.Kind)
		}
	}
	for askID, n := range perAsk {
		if n != 1 {
			t.Errorf("ask %s left %d grants: answered twice", askID, n)
		}
	}
	if len(perAsk) != crashQuestions {
		t.Errorf("%d asks left a grant, want %d", len(perAsk), crashQuestions)
	}
	for id, n := range acks.spent {
		switch {
		case state[id] != "spent":
			t.Errorf("acknowledged spend of grant %s is missing (state %q)", id, state[id])
			lost++
		case n != 1:
			t.Errorf("once-grant %s was spent %d times", id, n)
		}
	}
	for id, st := range state {
		if st != "spent" {
			t.Errorf("grant %s is still %s after the last child finished", id, st)
		}
	}
	return lost
}

// TestCrashChild is the child process of TestCrashConsistency, not a test.
// Every run picks up where the last one died: it raises the questions that
// have no ask yet, answers the pending asks (several workers race for each,
// so exactly one may win), and spends every grant still available. Each
// acknowledgement is printed in one write, after its commit returned.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashLedgerEnv)
	if path == "" {
		t.Skip("runs only as the child process of TestCrashConsistency")
	}
	ctx := context.Background()
	ledger, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ack := func(format string, args ...any) { os.Stdout.WriteString(fmt.Sprintf(format, args...) + "\n") }

	existing, err := ledger.ListAsks(ctx, crashSession, false)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, r := range existing {
		known[r.Line] = true
	}
	for i := 0; i < crashQuestions; i++ {
		line := crashLine(i)
		if known[line] {
			continue
		}
		rec, _, err := ledger.RaiseAsk(ctx, store.Record{SessionID: crashSession, AgentID: "crash", Command: "rm x",
			Argv: []string{"rm", "x"}, Line: line, Place: "0", Reason: "crash test",
			Rules: []store.AskRule{{Reason: "crash test", Key: crashKey(line)}}})
		if err != nil {
			t.Fatal(err)
		}
		ack("raised %s %s", rec.ID, line)
	}

	pending, err := ledger.ListAsks(ctx, crashSession, true)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < crashWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range pending {
				rec := pending[(k+w*len(pending)/crashWorkers)%len(pending)]
				_, err := ledger.AnswerAsk(ctx, rec.ID, store.Settlement{Outcome: store.Allow, Scope: store.Once, By: "crash", Grant: store.GrantOnce})
				switch {
				case err == nil:
					ack("answered %s", rec.ID)
				case !errors.Is(err, store.ErrAlreadyAnswered):
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()

	all, err := ledger.ListAsks(ctx, crashSession, false)
	if err != nil {
		t.Fatal(err)
	}
	for w := 0; w < crashWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One owner per ask: the spend itself is what must not repeat.
			for k := w; k < len(all); k += crashWorkers {
				rec := all[k]
				g, ok, err := ledger.FindGrant(ctx, store.Question{SessionID: crashSession, Line: rec.Line, Place: rec.Place})
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					continue
				}
				if err := ledger.SpendGrants(ctx, g.ID); err != nil {
					t.Error(err)
					return
				}
				ack("spent %d %s", g.ID, rec.ID)
			}
		}()
	}
	wg.Wait()
	if !t.Failed() {
		ack(crashDoneMarker)
	}
}
