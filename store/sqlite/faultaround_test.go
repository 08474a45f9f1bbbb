package sqlite

import (
	"runtime"
	"strings"
	"testing"
)

// TestSQLiteCodeIsCovered holds sqliteCode's two functions to the ends of
// SQLite's code as this build lays it out: each within one 64 KiB window of
// its end, or the ledger's first open faults page by page through what is
// left out (a newer SQLite may need other functions).
func TestSQLiteCodeIsCovered(t *testing.T) {
	t.Parallel()
	const page, window = 4096, 64 << 10
	inSQLite := func(pc uintptr) bool {
		f := runtime.FuncForPC(pc)
		return f != nil && strings.HasPrefix(f.Name(), "modernc.org/sqlite/lib.")
	}
	first, last := sqliteCode()
	if !inSQLite(first) || !inSQLite(last) || first > last {
		t.Fatalf("sqliteCode() = %#x, %#x: not SQLite's code in order", first, last)
	}
	start := first
	for inSQLite(start - page) {
		start -= page
	}
	end := last
	for inSQLite(end + page) {
		end += page
	}
	if first-start > window || end-last > window {
		t.Errorf("SQLite's code spans about %#x-%#x; sqliteCode() names %#x-%#x, leaving %d KiB before and %d KiB after uncovered",
			start, end, first, last, (first-start)>>10, (end-last)>>10)
	}
}
