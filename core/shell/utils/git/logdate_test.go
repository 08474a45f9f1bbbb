package git

import (
	"testing"
	"time"
)

// TestHumanDate holds what git 2.39.5's --date=human printed on the host
// for commits made the given seconds before now (Mon Dec 7 23:44:57 2026
// UTC, TZ=UTC), in their own zones.
func TestHumanDate(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 7, 23, 44, 57, 0, time.UTC)
	east := time.FixedZone("", 2*3600)
	for _, c := range []struct {
		ago  int64
		zone *time.Location
		want string
	}{
		{600, time.UTC, "10 minutes ago"},
		{600, east, "Tue Dec 8 01:34"},
		{7200, time.UTC, "2 hours ago"},
		{7200, east, "2 hours ago"},
		{90000, time.UTC, "Sun 22:44"},
		{90000, east, "25 hours ago"},
		{259200, time.UTC, "Fri 23:44"},
		{259200, east, "Sat 01:44 +0200"},
		{864000, time.UTC, "Fri Nov 27 23:44"},
		{864000, east, "Sat Nov 28 01:44"},
		{5000000, time.UTC, "Sun Oct 11 02:51"},
		{40000000, east, "Sep 1 2025"},
	} {
		c := c
		when := time.Unix(now.Unix()-c.ago, 0).In(c.zone)
		t.Run(when.Format(time.RFC3339), func(t *testing.T) {
			t.Parallel()
			if got := humanDate(when, now); got != c.want {
				t.Errorf("humanDate(%v) = %q, want %q", when, got, c.want)
			}
		})
	}
}
