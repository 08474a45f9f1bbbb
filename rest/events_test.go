package rest

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"gatehouse/core"
)

// TestEventsAskThenAnswer: a host following the stream sees the ask and
// then its answer, with increasing ids.
func TestEventsAskThenAnswer(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	events := d.openEvents(t, "")
	sid := d.newSession(t, "agent-a", "guarded")
	id := d.pendingAsk(t, sid, askingLine(1))
	d.call(t, "POST", "/v1/asks/"+id+"/allow", testToken, `{"note":"ok"}`)

	asked := nextEvent(t, events, eventAsk, eventAnswer)
	answered := nextEvent(t, events, eventAsk, eventAnswer)
	if asked.kind != eventAsk || answered.kind != eventAnswer {
		t.Fatalf("events %s then %s, want ask then answer", asked.kind, answered.kind)
	}
	if rec := recordOf(t, asked); rec.ID != id || !rec.Pending() || rec.SessionID != sid {
		t.Errorf("ask event %+v", rec)
	}
	if rec := recordOf(t, answered); rec.ID != id || rec.Outcome != "allow" || rec.Note != "ok" {
		t.Errorf("answer event %+v", rec)
	}
	if eventID(t, answered) <= eventID(t, asked) {
		t.Errorf("ids %s then %s do not increase", asked.id, answered.id)
	}
}

func eventID(t testing.TB, ev sseEvent) int64 {
	t.Helper()
	n, err := strconv.ParseInt(ev.id, 10, 64)
	if err != nil {
		t.Fatalf("event id %q: %v", ev.id, err)
	}
	return n
}

// TestEventsSessionsAndLines: creating a session and running a line show up
// as session and line events.
func TestEventsSessionsAndLines(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	events := d.openEvents(t, "")
	sid := d.newSession(t, "agent-a", "guarded")
	d.execute(t, sid, "cat notes.txt", true)

	var session sessionJSON
	json.Unmarshal([]byte(nextEvent(t, events, eventSession).data), &session)
	if session.ID != sid || session.AgentID != "agent-a" || session.Cwd != "/work" {
		t.Errorf("session event %+v", session)
	}
	var started, ended core.Event
	json.Unmarshal([]byte(nextEvent(t, events, eventLine).data), &started)
	json.Unmarshal([]byte(nextEvent(t, events, eventLine).data), &ended)
	if started.Kind != core.EventLineStart || started.Line != "cat notes.txt" || started.SessionID != sid {
		t.Errorf("first line event %+v", started)
	}
	if ended.Kind != core.EventLineEnd || ended.Result == nil || ended.Result.Stdout != "hello\n" {
		t.Errorf("second line event %+v", ended)
	}
}

// TestEventsResume: a client reconnecting with Last-Event-ID gets exactly
// what it missed, in order; one whose id is no longer kept is told so.
func TestEventsResume(t *testing.T) {
	t.Parallel()
	d := newDaemon(t, WithEventHistory(16))
	first := d.openEvents(t, "")
	sid := d.newSession(t, "agent-a", "guarded")
	ask := d.pendingAsk(t, sid, askingLine(1))
	seen := nextEvent(t, first, eventAsk)
	d.call(t, "POST", "/v1/asks/"+ask+"/deny", testToken, "")
	// What the first client saw after the ask, up to the answer.
	var missed []sseEvent
	for {
		ev := nextEvent(t, first, eventAsk, eventAnswer, eventClosed, eventLine, eventSession)
		missed = append(missed, ev)
		if ev.kind == eventAnswer {
			break
		}
	}

	t.Run("from a kept id", func(t *testing.T) {
		t.Parallel()
		resumed := d.openEvents(t, seen.id)
		for _, want := range missed {
			got := nextEvent(t, resumed, eventAsk, eventAnswer, eventClosed, eventLine, eventSession)
			if got.id != want.id || got.kind != want.kind || got.data != want.data {
				t.Fatalf("resumed with %s %s, want %s %s", got.id, got.kind, want.id, want.kind)
			}
		}
	})
	t.Run("from an id no longer kept", func(t *testing.T) {
		t.Parallel()
		resumed := d.openEvents(t, "1")
		var warned bool
		for ev := range resumed {
			if strings.Contains(ev.comment, "no longer kept") {
				warned = true
			}
			if ev.kind != "" {
				break
			}
		}
		if !warned {
			t.Error("no warning that events were lost")
		}
	})
}

// TestEventsHeartbeat: an idle stream gets comment lines.
func TestEventsHeartbeat(t *testing.T) {
	t.Parallel()
	d := newDaemon(t, WithHeartbeat(10*time.Millisecond))
	events := d.openEvents(t, "")
	timeout := time.After(5 * time.Second)
	for beats := 0; beats < 2; {
		select {
		case ev := <-events:
			if ev.comment == "heartbeat" {
				beats++
			}
		case <-timeout:
			t.Fatal("no heartbeats")
		}
	}
}

// TestEventsNeedTheToken: the stream shows every agent's lines, so it is
// for hosts only.
func TestEventsNeedTheToken(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	if r := d.call(t, "GET", "/v1/events", "", ""); r.status != 401 {
		t.Fatalf("status %d", r.status)
	}
}

// TestCloseEndsStreams: closing the server ends its event streams, so a
// daemon can shut down while hosts follow it.
func TestCloseEndsStreams(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	events := d.openEvents(t, "")
	d.server.Close()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-events:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatal("stream still open after Close")
		}
	}
}

// TestHistoryIsBounded: the kept history holds at most its configured
// count, and a stream that fell behind it is told how much it missed.
func TestHistoryIsBounded(t *testing.T) {
	t.Parallel()
	d := newDaemon(t, WithEventHistory(3))
	for i := range 10 {
		d.server.events.publish(eventLine, map[string]int{"n": i})
	}
	d.server.events.mu.Lock()
	kept := len(d.server.events.history)
	newest := d.server.events.nextID - 1
	d.server.events.mu.Unlock()
	if kept != 3 {
		t.Errorf("kept %d events, want 3", kept)
	}
	events, missed := d.server.events.since(newest - 10)
	if len(events) != 3 || missed != 7 {
		t.Errorf("since: %d events, %d missed; want 3 and 7", len(events), missed)
	}
}

// TestServeShutsDownWithStreamsOpen: a daemon asked to stop does so at once
// even while hosts follow its events, and returns nil.
func TestServeShutsDownWithStreamsOpen(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- d.server.Serve(ctx, ln) }()

	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("events: %d", resp.StatusCode)
	}
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Serve did not return with a stream open")
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Errorf("stream did not end cleanly: %v", err)
	}
}
