package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// sessionsCommand is G-14's "1,000 concurrent sessions in one process":
// what an idle session costs, how many lines a second the sessions run
// together, and that every ask answered by concurrent hosts releases its
// line (no lost answers).
func sessionsCommand(args []string) error {
	fs := flag.NewFlagSet("sessions", flag.ExitOnError)
	n := fs.Int("sessions", 1000, "sessions in the process")
	lines := fs.Int("lines", 20, "lines each session runs in the throughput phase")
	hosts := fs.Int("hosts", 4, "concurrent hosts answering asks")
	timeout := fs.Duration("timeout", 2*time.Minute, "a line still waiting after this has lost its answer")
	fs.Parse(args)

	files := map[string]string{"notes.md": "TODO: page on-call\nfine\nTODO: rotate keys\n"}
	for i := range *n {
		files[fmt.Sprintf("scratch/s%04d.tmp", i)] = "scratch\n"
	}
	ws, err := core.NewWorkspace([]vfs.MountSpec{{Prefix: "/work", Files: files}},
		core.WithProfiles(gate.ProfileSpec{
			Name:  "worker",
			Cwd:   "/work",
			Allow: []string{"echo", "cat", "grep", "wc", "rm", "ls", "head"},
			Ask:   []gate.Rule{{Reason: "removal needs sign-off", Commands: []string{"rm"}}},
		}),
		// The handler never answers: it only makes lines wait, so the
		// answers must come from the hosts below, through the ledger.
		core.OnAsk(func(ctx context.Context, _ decisions.Record) (decisions.Answer, error) {
			<-ctx.Done()
			return decisions.Answer{}, ctx.Err()
		}))
	if err != nil {
		return err
	}
	defer ws.Close()

	// Idle memory: what the heap and the process grew by for n sessions
	// that have been created and have not run anything yet.
	heap0, rss0 := heapInUse(), residentBytes()
	start := time.Now()
	sessions := make([]*core.Session, *n)
	for i := range sessions {
		if sessions[i], err = ws.CreateSession(fmt.Sprintf("agent-%04d", i), core.Profile("worker")); err != nil {
			return err
		}
	}
	created := time.Since(start)
	heap1, rss1 := heapInUse(), residentBytes()
	fmt.Printf("sessions: %d created in %.2fs (%.0f µs each)\n", *n, created.Seconds(),
		float64(created.Microseconds())/float64(*n))
	perSession := float64(heap1-heap0) / float64(*n)
	fmt.Printf("idle session: %.1f KiB Go heap in use, %.1f KiB resident (RSS, includes SQLite's cache)  (budget ≤ 100 KiB: %s)\n",
		perSession/1024, float64(rss1-rss0)/float64(*n)/1024, metWord(perSession <= 100*1024))

	// Throughput: every session runs its lines at once.
	var failures atomic.Int64
	var firstFailure atomic.Value
	start = time.Now()
	runAll(sessions, func(i int, s *core.Session) {
		for k := range *lines {
			line, want := "cat notes.md | grep -c TODO", "2\n"
			if k%2 == 1 {
				line, want = fmt.Sprintf("echo agent %d line %d | wc -w", i, k), "4\n"
			}
			if res := s.Execute(context.Background(), line); res.ExitCode != 0 || res.Stdout != want {
				failures.Add(1)
				firstFailure.CompareAndSwap(nil, fmt.Sprintf("%q: %+v", line, res))
			}
		}
	})
	took := time.Since(start)
	total := *n * *lines
	fmt.Printf("throughput: %d lines in %.2fs across %d sessions = %.0f lines/s (%d failed)\n",
		total, took.Seconds(), *n, float64(total)/took.Seconds(), failures.Load())
	if f := firstFailure.Load(); f != nil {
		fmt.Printf("  first failure: %v\n", f)
	}
	heap2 := heapInUse()
	fmt.Printf("idle session after its lines: %.1f KiB Go heap in use\n", float64(heap2-heap0)/float64(*n)/1024)

	return answerAll(ws, sessions, *hosts, *timeout)
}

// answerAll has every session run a line that asks and waits, while
// several hosts answer from the ledger's queue at once; it verifies that
// each ask is answered exactly once and each answer releases its line.
func answerAll(ws *core.Workspace, sessions []*core.Session, hosts int, timeout time.Duration) error {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var answered, alreadyAnswered atomic.Int64
	var hostErr atomic.Value
	var hostsDone sync.WaitGroup
	for h := range hosts {
		hostsDone.Add(1)
		go func() {
			defer hostsDone.Done()
			answerAsHost(ctx, ws.Decisions(), fmt.Sprintf("bench-host-%d", h), &answered, &alreadyAnswered, &hostErr)
		}()
	}

	n := len(sessions)
	trips := make([]time.Duration, n)
	var released, lost atomic.Int64
	start := time.Now()
	runAll(sessions, func(i int, s *core.Session) {
		lineCtx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		t0 := time.Now()
		res := s.Execute(lineCtx, fmt.Sprintf("rm scratch/s%04d.tmp", i))
		trips[i] = time.Since(t0)
		if res.ExitCode == 0 {
			released.Add(1)
		} else {
			lost.Add(1)
		}
	})
	took := time.Since(start)
	stop()
	hostsDone.Wait()

	pending, err := ws.Decisions().Pending(context.Background(), "")
	if err != nil {
		return err
	}
	left := sessions[0].Execute(context.Background(), "ls scratch | wc -l")
	slices.Sort(trips)
	fmt.Printf("asks: %d lines asked and waited; %d hosts answered %d (%d more tries found it answered already: exactly one answer wins) in %.2fs\n",
		n, hosts, answered.Load(), alreadyAnswered.Load(), took.Seconds())
	fmt.Printf("  ask → answer → line done under load: p50 %.1f ms, p99 %.1f ms\n",
		ms(trips[n/2]), ms(trips[(n-1)*99/100]))
	ok := lost.Load() == 0 && answered.Load() == int64(n) && len(pending) == 0 && strings.TrimSpace(left.Stdout) == "0"
	fmt.Printf("  released %d, lost %d, still pending %d, files left %s  (budget: no lost answers: %s)\n",
		released.Load(), lost.Load(), len(pending), strings.TrimSpace(left.Stdout), metWord(ok))
	if e := hostErr.Load(); e != nil {
		fmt.Printf("  host error: %v\n", e)
	}
	return nil
}

// answerAsHost is one host working the queue: it reads Pending whenever
// the ledger changes (and on a tick, since a subscriber that falls behind
// drops events) and allows everything it finds.
func answerAsHost(ctx context.Context, l *decisions.Ledger, name string, answered, raced *atomic.Int64, hostErr *atomic.Value) {
	events := l.Subscribe(ctx)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-events:
		case <-tick.C:
		}
		recs, err := l.Pending(ctx, "")
		if err != nil {
			if ctx.Err() == nil {
				hostErr.CompareAndSwap(nil, err)
			}
			continue
		}
		for _, rec := range recs {
			_, err := l.Answer(ctx, rec.ID, decisions.Answer{Outcome: decisions.Allow, By: name})
			switch {
			case err == nil:
				answered.Add(1)
			case errors.Is(err, decisions.ErrAlreadyAnswered):
				raced.Add(1)
			case ctx.Err() == nil:
				hostErr.CompareAndSwap(nil, err)
			}
		}
	}
}

// runAll runs fn for every session in its own goroutine, all released at
// once, and waits for them.
func runAll(sessions []*core.Session, fn func(int, *core.Session)) {
	var ready, done sync.WaitGroup
	gate := make(chan struct{})
	for i, s := range sessions {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-gate
			fn(i, s)
		}()
	}
	ready.Wait()
	close(gate)
	done.Wait()
}

func heapInUse() int64 {
	runtime.GC()
	runtime.GC() // the second cycle frees what the first one's finalizers released
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// residentBytes is the process's RSS from /proc/self/status (0 elsewhere).
func residentBytes() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
