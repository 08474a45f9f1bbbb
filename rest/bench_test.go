package rest

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkAskRoundTrip measures G-14's ask round trip as a host and an
// agent see it over HTTP: the agent's execute asks and waits → the host's
// event stream shows the ask → the host allows it over REST → the agent's
// execute returns with the line run. It reports the median and 99th
// percentile (budget: p50 ≤ 10 ms, p99 ≤ 50 ms).
func BenchmarkAskRoundTrip(b *testing.B) {
	d := newDaemon(b)
	events := d.openEvents(b, "")
	sid := d.newSession(b, "agent-a", "guarded")
	trips := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		done := d.executeInBackground(sid, askingLine(i))
		ask := recordOf(b, nextEvent(b, events, eventAsk))
		if r := d.call(b, "POST", "/v1/asks/"+ask.ID+"/allow", testToken, ""); r.status != 200 {
			b.Fatalf("allow: %d %s", r.status, r.body)
		}
		if res := <-done; res.ExitCode != 0 {
			b.Fatalf("released line: %+v", res)
		}
		trips = append(trips, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(trips)
	ms := func(q float64) float64 {
		return float64(trips[int(q*float64(len(trips)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}
