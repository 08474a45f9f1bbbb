package postgres_test

import (
	"testing"

	"gatehouse/store/storetest"
)

// The PostgreSQL ledger meets the store.Ledger contract; a second handle
// (its own pool and listening connection) stands in for a second host.
func TestConformance(t *testing.T) {
	storetest.Run(t, opener)
}
