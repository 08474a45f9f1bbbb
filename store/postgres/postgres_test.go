package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"syscall"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/store"
	"gatehouse/store/postgres"
	"gatehouse/store/postgres/pgtest"
	"gatehouse/store/storetest"
)

// waitFor runs WaitForChange(mark) in the background; the channel gets the
// moment it returned.
func waitFor(l store.Ledger, mark uint64, timeout time.Duration) <-chan time.Time {
	woke := make(chan time.Time, 1)
	go func() {
		ctx, cancel := context.WithTimeout(bg, timeout)
		defer cancel()
		if _, err := l.WaitForChange(ctx, mark); err == nil {
			woke <- time.Now()
		}
		close(woke)
	}()
	return woke
}

// G-10.7: a line waiting on one host is released by an answer from
// another although every connection to the server was dropped in between
// (pg_terminate_backend, as a network failure or a database failover
// would): the listening connection is replaced, and the handles' pools
// dial afresh instead of failing on their dead connections. Not parallel:
// it ends every connection on the server.
func TestWaitSurvivesDroppedConnections(t *testing.T) {
	srv := pgtest.Shared(t)
	if !srv.Throwaway() {
		t.Skip("the server is not one this test may drop every connection to")
	}
	url := srv.Schema(t)
	waiting := decisions.New(openURL(t, url))
	answering := decisions.New(openURL(t, url))
	asked, err := waiting.Raise(bg, decisions.Record{SessionID: "s1", Line: "rm a", Place: "0",
		Rules: []decisions.AskRule{{Key: "k"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := answering.Get(bg, asked.ID); err != nil { // the answering pool holds a connection
		t.Fatal(err)
	}
	released := make(chan decisions.Record, 1)
	go func() {
		ctx, cancel := context.WithTimeout(bg, 30*time.Second)
		defer cancel()
		rec, _ := waiting.Wait(ctx, asked.ID)
		released <- rec
	}()
	time.Sleep(200 * time.Millisecond) // the wait is listening
	if err := srv.DropConnections(bg); err != nil {
		t.Fatal(err)
	}
	if _, err := answering.Answer(bg, asked.ID, decisions.Answer{Outcome: decisions.Allow}); err != nil {
		t.Fatalf("answer after the connections dropped: %v", err)
	}
	select {
	case rec := <-released:
		if rec.Outcome != decisions.Allow {
			t.Fatalf("released with %+v, want the allow", rec)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting line was not released after the connections dropped")
	}
}

// G-10.7: the server restarting (every connection gone, the server away
// for a moment) loses no waiting line either: the answer given once it is
// back releases the line waiting since before. Not parallel: it restarts
// the shared server.
func TestWaitSurvivesServerRestart(t *testing.T) {
	srv := pgtest.Shared(t)
	if !srv.Throwaway() {
		t.Skip("the server is not one this test may restart")
	}
	url := srv.Schema(t)
	waiting, answering := openURL(t, url), openURL(t, url)
	mark, err := waiting.WaitForChange(bg, 0)
	if err != nil {
		t.Fatal(err)
	}
	woke := waitFor(waiting, mark, 60*time.Second)
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	// The restart itself may wake the wait (a reconnection reads as a
	// change); what matters is that an answer after it is seen.
	select {
	case <-woke:
		mark, _ = waiting.WaitForChange(bg, 0)
		woke = waitFor(waiting, mark, 30*time.Second)
	case <-time.After(3 * time.Second):
	}
	if _, _, err := answering.RaiseAsk(bg, storetest.Question("s1", "rm a", "0")); err != nil {
		t.Fatalf("raise after the restart: %v", err)
	}
	select {
	case _, ok := <-woke:
		if !ok {
			t.Fatal("the wait failed instead of waking")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a commit after the restart did not wake the wait")
	}
}

// G-10.3: waiting costs no CPU: a handle waiting a second for a change that
// does not come spends a few milliseconds at most (a loop polling the
// server would spend most of that second). Not parallel: it measures this
// process's CPU time.
func TestWaitingSpendsNoCPU(t *testing.T) {
	l := openURL(t, pgtest.Shared(t).Schema(t))
	mark, err := l.WaitForChange(bg, 0)
	if err != nil {
		t.Fatal(err)
	}
	before := cpuTime()
	ctx, cancel := context.WithTimeout(bg, time.Second)
	defer cancel()
	if _, err := l.WaitForChange(ctx, mark); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitForChange = %v, want the deadline", err)
	}
	if spent := cpuTime() - before; spent > 100*time.Millisecond {
		t.Errorf("a one-second wait spent %v of CPU", spent)
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// G-10.7: ledgers in two schemas of one database are two ledgers: neither
// sees the other's asks, and a commit to one wakes no wait on the other.
func TestSchemasAreSeparateLedgers(t *testing.T) {
	t.Parallel()
	srv := pgtest.Shared(t)
	a, b := openURL(t, srv.Schema(t)), openURL(t, srv.Schema(t))
	mark, err := a.WaitForChange(bg, 0)
	if err != nil {
		t.Fatal(err)
	}
	woke := waitFor(a, mark, 2*time.Second)
	if _, _, err := b.RaiseAsk(bg, storetest.Question("s1", "rm a", "0")); err != nil {
		t.Fatal(err)
	}
	select {
	case at, ok := <-woke:
		if ok {
			t.Fatalf("a commit to another schema woke the wait (%v)", at)
		}
	case <-time.After(300 * time.Millisecond):
	}
	if asks, _ := a.ListAsks(bg, "", false); len(asks) != 0 {
		t.Errorf("schema a holds %d asks raised in schema b", len(asks))
	}
}

// G-10.7: a search_path naming a schema that does not exist gets it, and
// hosts opening a fresh ledger at once apply each migration exactly once.
func TestFreshLedgerOpenedByManyAtOnce(t *testing.T) {
	t.Parallel()
	srv := pgtest.Shared(t)
	name := fmt.Sprintf("fresh_%d", time.Now().UnixNano())
	u := srv.URL(url.Values{"search_path": {name}})
	if !srv.Throwaway() {
		t.Cleanup(func() { srv.Exec(bg, `DROP SCHEMA `+name+` CASCADE`) })
	}
	const hosts = 8
	ledgers := make([]*postgres.Ledger, hosts)
	errs := make([]error, hosts)
	var wg sync.WaitGroup
	for i := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ledgers[i], errs[i] = postgres.Open(bg, u)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("host %d: %v", i, err)
		}
		defer ledgers[i].Close()
		if ledgers[i].Schema() != name {
			t.Errorf("host %d keeps its ledger in %q, want %q", i, ledgers[i].Schema(), name)
		}
	}
	v, err := ledgers[0].SchemaVersion(bg)
	if err != nil || v < 1 {
		t.Fatalf("schema version = %d, %v", v, err)
	}
	if _, _, err := ledgers[3].RaiseAsk(bg, storetest.Question("s1", "rm a", "0")); err != nil {
		t.Fatal(err)
	}
}

// G-10.6, G-10.7: the host token of a server ledger is kept as a hash; of
// daemons issuing one at once on a fresh ledger exactly one keeps its
// token, and a rotation leaves only the new one.
func TestHostTokens(t *testing.T) {
	t.Parallel()
	url := pgtest.Shared(t).Schema(t)
	const daemons = 6
	handles := make([]*postgres.Ledger, daemons)
	for i := range handles {
		handles[i] = openURL(t, url)
	}
	kept := make([]bool, daemons)
	var wg sync.WaitGroup
	for i := range daemons {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if kept[i], err = handles[i].KeepHostToken(bg, fmt.Sprint("hash-", i), false); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	winner := -1
	for i, k := range kept {
		if k {
			if winner >= 0 {
				t.Fatalf("daemons %d and %d both kept a token", winner, i)
			}
			winner = i
		}
	}
	if winner < 0 {
		t.Fatal("no daemon kept a token")
	}
	for i := range daemons {
		ok, err := handles[0].HasHostToken(bg, fmt.Sprint("hash-", i))
		if err != nil || ok != (i == winner) {
			t.Errorf("HasHostToken(hash-%d) = %v, %v; want %v", i, ok, err, i == winner)
		}
	}
	if ok, err := handles[1].KeepHostToken(bg, "rotated", true); err != nil || !ok {
		t.Fatalf("rotation = %v, %v", ok, err)
	}
	for hash, want := range map[string]bool{"rotated": true, fmt.Sprint("hash-", winner): false} {
		if ok, _ := handles[2].HasHostToken(bg, hash); ok != want {
			t.Errorf("after rotation HasHostToken(%s) = %v, want %v", hash, ok, want)
		}
	}
}
