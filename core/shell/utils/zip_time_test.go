package utils

import (
	"testing"
	"time"
)

// zip -u and -f compare ages in DOS time's even seconds: a file is not newer
// than the entry made from it, whichever second it was written in (the
// differential case 'update unchanged' failed whenever the file's second
// was odd).
func TestZipNewerInDOSSeconds(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 12, 8, 2, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		file, entry int // seconds after base
		newer       bool
	}{
		{0, 0, false},
		{1, 1, false}, // odd second on both sides
		{1, 2, false}, // 1 rounds up to 2
		{2, 1, false},
		{3, 2, true},
		{3, 1, true},
		{2, 3, false},
		{4, 2, true},
	} {
		if got := zipNewer(base.Add(time.Duration(tc.file)*time.Second), base.Add(time.Duration(tc.entry)*time.Second)); got != tc.newer {
			t.Errorf("zipNewer(file +%ds, entry +%ds) = %v, want %v", tc.file, tc.entry, got, tc.newer)
		}
	}
}
