// Package storetest opens throwaway ledgers for tests of packages built on
// package store.
package storetest

import (
	"path/filepath"
	"testing"

	"gatehouse/store"
)

// MustOpen opens a fresh ledger file in the test's temporary directory and
// closes it when the test ends. It fails the test if the file cannot be
// opened.
func MustOpen(tb testing.TB, opts ...store.Option) *store.DB {
	tb.Helper()
	return MustOpenFile(tb, filepath.Join(tb.TempDir(), "ledger.db"), opts...)
}

// MustOpenFile opens the ledger at path, which may already be open through
// another handle: two handles on one file stand in for two processes.
func MustOpenFile(tb testing.TB, path string, opts ...store.Option) *store.DB {
	tb.Helper()
	db, err := store.Open(path, opts...)
	if err != nil {
		tb.Fatalf("open ledger %s: %v", path, err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Errorf("close ledger %s: %v", path, err)
		}
	})
	return db
}
