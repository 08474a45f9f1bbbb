package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkOpenExisting is what every `gatehouse exec` pays for its ledger:
// open a file already at the latest schema, read from it, close it.
func BenchmarkOpenExisting(b *testing.B) {
	path := filepath.Join(b.TempDir(), "ledger.db")
	l, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	l.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		l, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.SchemaVersion(ctx); err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
}
