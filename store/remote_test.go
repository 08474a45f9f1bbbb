package store_test

import (
	"testing"

	"gatehouse/store"
)

// G-10.7: a postgres:// or postgresql:// URL names a server ledger, any
// other name a file; printed, a URL hides its password.
func TestLedgerNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		isURL  bool
		redact string
	}{
		{"/var/lib/gatehouse/ledger.db", false, "/var/lib/gatehouse/ledger.db"},
		{"ledger.db", false, "ledger.db"},
		{"postgres.db", false, "postgres.db"},
		{"./postgres://x", false, "./postgres://x"},
		{"postgres://gh@db.example/ledger", true, "postgres://gh@db.example/ledger"},
		{"PostgreSQL://gh:s3cret@db.example:5433/ledger?sslmode=require", true, "postgresql://gh:xxxxx@db.example:5433/ledger?sslmode=require"},
		{"postgres://gh@/ledger?host=%2Ftmp&password=s3cret", true, "postgres://gh@/ledger?host=%2Ftmp&password=xxxxx"},
		{"mysql://gh@db/ledger", false, "mysql://gh@db/ledger"},
	}
	for _, tt := range tests {
		if got := store.IsURL(tt.name); got != tt.isURL {
			t.Errorf("IsURL(%q) = %v, want %v", tt.name, got, tt.isURL)
		}
		if got := store.Redact(tt.name); got != tt.redact {
			t.Errorf("Redact(%q) = %q, want %q", tt.name, got, tt.redact)
		}
	}
}
