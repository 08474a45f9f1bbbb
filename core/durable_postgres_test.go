package core

import (
	"os"
	"testing"

	"gatehouse/store/postgres/pgtest"
)

// TestMain stops the throwaway PostgreSQL server the tests started, if any.
func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// Durable mounts on a ledger kept on a PostgreSQL server (G-5.6, G-10.7):
// the processes of a workspace share what their agents wrote through the
// server as they do through a SQLite file: across processes and restarts,
// the line that ends last winning, and a reset reaching a running process.
func TestDurableMountsOnPostgres(t *testing.T) {
	t.Parallel()
	srv := pgtest.Shared(t)
	for name, scenario := range map[string]func(*testing.T, *durableWorld){
		"across processes": durableAcrossProcesses,
		"last line wins":   durableLastLineWins,
		"reset":            durableReset,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newDurableWorld(t, durableDoc)
			w.db = srv.Schema(t)
			scenario(t, w)
		})
	}
}
