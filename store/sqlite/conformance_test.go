package sqlite_test

import (
	"testing"

	"gatehouse/store/storetest"
)

// The SQLite ledger meets the store.Ledger contract; a second handle on
// the same file stands in for a second process.
func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.SQLite())
}
