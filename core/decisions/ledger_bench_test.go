package decisions_test

import (
	"fmt"
	"testing"

	"gatehouse/core/decisions"
	"gatehouse/store/storetest"
)

// BenchmarkRaiseAndAnswer is one ask's whole life in the ledger: the
// refused line raises it, a host answers it (two write transactions, each
// committed to the SQLite file in WAL mode).
func BenchmarkRaiseAndAnswer(b *testing.B) {
	l := decisions.New(storetest.MustOpen(b))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		rec := question("s-bench", fmt.Sprintf("rm notes%d.txt", i), "1:1")
		raised, err := l.Raise(bg, rec)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.Answer(bg, raised.ID, decisions.Answer{Outcome: decisions.Allow, By: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnswerCommit is the answer's commit alone, the step a host
// waits for after pressing y; the raise happens outside the timer.
func BenchmarkAnswerCommit(b *testing.B) {
	l := decisions.New(storetest.MustOpen(b))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		raised, err := l.Raise(bg, question("s-bench", fmt.Sprintf("rm notes%d.txt", i), "1:1"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := l.Answer(bg, raised.ID, decisions.Answer{Outcome: decisions.Allow, By: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}
