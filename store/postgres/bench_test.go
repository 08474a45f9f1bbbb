package postgres_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/store"
	"gatehouse/store/postgres/pgtest"
	"gatehouse/store/storetest"
)

// benchServer is a server with PostgreSQL's durable defaults (fsync and
// synchronous commits on), started by the first benchmark that needs it;
// the tests' shared server skips both, which would flatter the figures.
var benchServer struct {
	once sync.Once
	srv  *pgtest.Server
	err  error
}

func durableServer(b *testing.B) *pgtest.Server {
	benchServer.once.Do(func() { benchServer.srv, benchServer.err = pgtest.Start(pgtest.Options{Durable: true}) })
	if benchServer.err != nil {
		pgtest.Unavailable(b, benchServer.err)
	}
	return benchServer.srv
}

// backends opens two handles on one fresh ledger of each kind: the agent's
// host and the human's, as two processes (or machines) would.
func backends(b *testing.B) map[string]func(b *testing.B) (store.Ledger, store.Ledger) {
	return map[string]func(b *testing.B) (store.Ledger, store.Ledger){
		"sqlite": func(b *testing.B) (store.Ledger, store.Ledger) {
			first := storetest.MustOpen(b)
			return first, storetest.MustOpenFile(b, first.Path())
		},
		"postgres": func(b *testing.B) (store.Ledger, store.Ledger) {
			url := durableServer(b).Schema(b)
			return openURL(b, url), openURL(b, url)
		},
		// The same server with the ledger's sessions committing without
		// waiting for the disk (durable against any gatehouse process
		// dying, as SQLite's default is; a crash of the server itself may
		// lose the last moments).
		"postgres-async-commit": func(b *testing.B) (store.Ledger, store.Ledger) {
			url := durableServer(b).Schema(b) + "&synchronous_commit=off"
			return openURL(b, url), openURL(b, url)
		},
	}
}

var backendNames = []string{"sqlite", "postgres", "postgres-async-commit"}

// BenchmarkAskRoundTrip is one ask's trip through the ledger between two
// hosts (G-10.3): a line raises an ask on the agent's handle and waits;
// the human's handle, watching the ledger, hears of it and answers; the
// waiting line hears the answer. It reports the median and 99th
// percentile of that trip. On SQLite both hearings wait for a 25 ms poll;
// on PostgreSQL both are notifications.
func BenchmarkAskRoundTrip(b *testing.B) {
	for _, name := range backendNames {
		b.Run(name, func(b *testing.B) {
			agentStore, humanStore := backends(b)[name](b)
			agent, human := decisions.New(agentStore), decisions.New(humanStore)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			events := human.Subscribe(ctx)
			go func() { // the human answers every ask it hears of
				for ev := range events {
					if ev.Kind == decisions.EventAsk {
						human.Answer(ctx, ev.Record.ID, decisions.Answer{Outcome: decisions.Allow, By: "bench"})
					}
				}
			}()
			trips := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				rec, err := agent.Raise(ctx, decisions.Record{SessionID: "s1", Line: "rm a", Place: fmt.Sprint(i),
					Rules: []decisions.AskRule{{Key: "k"}}})
				if err != nil {
					b.Fatal(err)
				}
				waitCtx, stop := context.WithTimeout(ctx, 10*time.Second)
				settled, err := agent.Wait(waitCtx, rec.ID)
				stop()
				if err != nil || settled.Outcome != decisions.Allow {
					b.Fatalf("wait: %+v, %v", settled, err)
				}
				trips = append(trips, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(trips)
			b.ReportMetric(float64(trips[len(trips)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(trips[len(trips)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkAnswers is how many answers a ledger takes per second from two
// hosts answering one queue at once, four answers in flight on each: every
// answer is a transaction that settles the ask and leaves its grant.
func BenchmarkAnswers(b *testing.B) {
	for _, name := range backendNames {
		b.Run(name, func(b *testing.B) {
			one, two := backends(b)[name](b)
			ctx := context.Background()
			ids := make([]string, b.N)
			for i := range b.N {
				rec, _, err := one.RaiseAsk(ctx, storetest.Question("s1", "rm a", fmt.Sprint(i)))
				if err != nil {
					b.Fatal(err)
				}
				ids[i] = rec.ID
			}
			queue := make(chan string, b.N)
			for _, id := range ids {
				queue <- id
			}
			close(queue)
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for _, host := range []store.Ledger{one, two} {
				for range 4 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for id := range queue {
							if _, err := host.AnswerAsk(ctx, id, store.Settlement{Outcome: store.Allow,
								Scope: store.Once, Grant: store.GrantOnce}); err != nil {
								b.Error(err)
							}
						}
					}()
				}
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "answers/s")
		})
	}
}
