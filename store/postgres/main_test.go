package postgres_test

import (
	"context"
	"os"
	"testing"

	"gatehouse/store"
	"gatehouse/store/postgres"
	"gatehouse/store/postgres/pgtest"
)

// TestMain stops the throwaway servers the tests and benchmarks started.
func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	if benchServer.srv != nil {
		benchServer.srv.Stop()
	}
	os.Exit(code)
}

var bg = context.Background()

// openURL opens a handle on the ledger at url and closes it when the test
// ends.
func openURL(tb testing.TB, url string) *postgres.Ledger {
	tb.Helper()
	l, err := postgres.Open(bg, url)
	if err != nil {
		tb.Fatalf("open %s: %v", store.Redact(url), err)
	}
	tb.Cleanup(func() { l.Close() })
	return l
}

// opener is the conformance suite's Opener: every test gets a ledger in a
// schema of its own on the shared server; another handle is another pool
// on the same schema, standing in for another host.
func opener(tb testing.TB) (store.Ledger, func(testing.TB) store.Ledger) {
	url := pgtest.Shared(tb).Schema(tb)
	return openURL(tb, url), func(tb testing.TB) store.Ledger { return openURL(tb, url) }
}
