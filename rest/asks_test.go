package rest

import (
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core/decisions"
)

// TestAnswerEndpoints covers every status G-10.6 gives the answer door.
func TestAnswerEndpoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// answered first answers the ask once over REST.
		answered   bool
		method     string
		path       string // "{ask}" is replaced by the ask id
		auth       string // the whole Authorization header; "" sends none
		body       string
		wantStatus int
		wantInBody string
		// wantOutcome and wantScope check the settled record on a 200.
		wantOutcome, wantScope string
	}{
		{name: "allow once", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer " + testToken,
			body: `{"scope":"once","note":"looks fine"}`, wantStatus: 200, wantOutcome: "allow", wantScope: "once", wantInBody: `"note":"looks fine"`},
		{name: "allow with no body is allow once", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer " + testToken,
			wantStatus: 200, wantOutcome: "allow", wantScope: "once"},
		{name: "allow for the session", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer " + testToken,
			body: `{"scope":"session"}`, wantStatus: 200, wantOutcome: "allow", wantScope: "session"},
		{name: "deny", method: "POST", path: "/v1/asks/{ask}/deny", auth: "Bearer " + testToken,
			body: `{"note":"not today"}`, wantStatus: 200, wantOutcome: "deny", wantScope: "once"},
		{name: "bearer is case-insensitive", method: "POST", path: "/v1/asks/{ask}/allow", auth: "bearer " + testToken,
			wantStatus: 200, wantOutcome: "allow", wantScope: "once"},
		{name: "deny with scope session is 422", method: "POST", path: "/v1/asks/{ask}/deny", auth: "Bearer " + testToken,
			body: `{"scope":"session"}`, wantStatus: 422, wantInBody: "scope session"},
		{name: "unknown scope is 422", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer " + testToken,
			body: `{"scope":"forever"}`, wantStatus: 422, wantInBody: "forever"},
		{name: "unknown ask is 404", method: "POST", path: "/v1/asks/000000000000/allow", auth: "Bearer " + testToken,
			wantStatus: 404, wantInBody: "not found"},
		{name: "answered ask is 409", answered: true, method: "POST", path: "/v1/asks/{ask}/deny", auth: "Bearer " + testToken,
			wantStatus: 409, wantInBody: `"error":"already answered"`},
		{name: "truncated JSON is 400", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer " + testToken,
			body: `{"scope":`, wantStatus: 400, wantInBody: "malformed body"},
		{name: "unknown field is 400", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer " + testToken,
			body: `{"scope":"once","by":"me"}`, wantStatus: 400, wantInBody: "unknown field"},
		{name: "array body is 400", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer " + testToken,
			body: `["once"]`, wantStatus: 400},
		{name: "two objects are 400", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer " + testToken,
			body: `{} {}`, wantStatus: 400},
		{name: "no token is 401", method: "POST", path: "/v1/asks/{ask}/allow",
			wantStatus: 401, wantInBody: "token"},
		{name: "wrong token is 401", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Bearer nope",
			wantStatus: 401},
		{name: "token without the scheme is 401", method: "POST", path: "/v1/asks/{ask}/allow", auth: testToken,
			wantStatus: 401},
		{name: "basic auth is 401", method: "POST", path: "/v1/asks/{ask}/allow", auth: "Basic " + testToken,
			wantStatus: 401},
		{name: "reading the queue needs the token", method: "GET", path: "/v1/asks",
			wantStatus: 401},
		{name: "reading an ask needs the token", method: "GET", path: "/v1/asks/{ask}",
			wantStatus: 401},
		{name: "read one ask", method: "GET", path: "/v1/asks/{ask}", auth: "Bearer " + testToken,
			wantStatus: 200, wantInBody: `"outcome":null`},
		{name: "read an unknown ask is 404", method: "GET", path: "/v1/asks/ffffffffffff", auth: "Bearer " + testToken,
			wantStatus: 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDaemon(t)
			sid := d.newSession(t, "agent-a", "guarded")
			ask := d.pendingAsk(t, sid, askingLine(0))
			if tc.answered {
				if r := d.call(t, "POST", "/v1/asks/"+ask+"/allow", testToken, ""); r.status != 200 {
					t.Fatalf("first answer: %d %s", r.status, r.body)
				}
			}
			r := d.callRaw(t, tc.method, strings.ReplaceAll(tc.path, "{ask}", ask), tc.auth, tc.body)
			if r.status != tc.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", r.status, tc.wantStatus, r.body)
			}
			if !strings.Contains(string(r.body), tc.wantInBody) {
				t.Errorf("body %s does not contain %q", r.body, tc.wantInBody)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			if tc.wantStatus == 401 && r.header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
			if tc.wantOutcome != "" {
				var rec decisions.Record
				r.decode(t, &rec)
				if rec.ID != ask || rec.Outcome != tc.wantOutcome || rec.Scope != tc.wantScope {
					t.Errorf("settled %s %s/%s, want %s %s/%s", rec.ID, rec.Outcome, rec.Scope, ask, tc.wantOutcome, tc.wantScope)
				}
				if !strings.HasPrefix(rec.AnsweredBy, "rest:") || rec.AnsweredAt.IsZero() {
					t.Errorf("answered_by %q at %v", rec.AnsweredBy, rec.AnsweredAt)
				}
			}
			// A refused answer changes nothing: the ask is still pending.
			if tc.wantStatus != 200 && !tc.answered && tc.method == "POST" {
				if rec := d.getAsk(t, ask); !rec.Pending() {
					t.Errorf("a %d answer settled the ask: %+v", tc.wantStatus, rec)
				}
			}
		})
	}
}

// TestAlreadyAnsweredNamesTheWinner: the losing host learns what was
// decided, not merely that it lost.
func TestAlreadyAnsweredNamesTheWinner(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	ask := d.pendingAsk(t, sid, askingLine(0))
	d.call(t, "POST", "/v1/asks/"+ask+"/deny", testToken, `{"note":"no"}`)
	r := d.call(t, "POST", "/v1/asks/"+ask+"/allow", testToken, "")
	var eb errorBody
	r.decode(t, &eb)
	if r.status != 409 || eb.Error != "already answered" || eb.Ask == nil || eb.Ask.Outcome != "deny" || eb.Ask.Note != "no" {
		t.Fatalf("got %d %s", r.status, r.body)
	}
}

// TestConcurrentAnswers: two hosts answering one ask at once get exactly
// one 200 and one 409 (G-10.1), and the record holds the winner's answer.
func TestConcurrentAnswers(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	for round := range 5 {
		ask := d.pendingAsk(t, sid, askingLine(round))
		paths := []string{"/v1/asks/" + ask + "/allow", "/v1/asks/" + ask + "/deny"}
		start := make(chan struct{})
		replies := make([]reply, len(paths))
		var wg sync.WaitGroup
		for i, p := range paths {
			wg.Go(func() {
				<-start
				replies[i] = d.call(t, "POST", p, testToken, "")
			})
		}
		close(start)
		wg.Wait()
		var won, lost int
		var winner string
		for i, r := range replies {
			switch r.status {
			case 200:
				won++
				winner = []string{"allow", "deny"}[i]
			case 409:
				lost++
				if r.errorText(t) != "already answered" {
					t.Errorf("409 body %s", r.body)
				}
			default:
				t.Errorf("status %d %s", r.status, r.body)
			}
		}
		if won != 1 || lost != 1 {
			t.Fatalf("round %d: %d successes and %d conflicts, want 1 and 1", round, won, lost)
		}
		if rec := d.getAsk(t, ask); rec.Outcome != winner {
			t.Errorf("record says %s, the 200 went to %s", rec.Outcome, winner)
		}
	}
}

// TestListAsks: the queue, the history, one session's share, and an empty
// queue as [].
func TestListAsks(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	if r := d.call(t, "GET", "/v1/asks", testToken, ""); strings.TrimSpace(string(r.body)) != "[]" {
		t.Fatalf("empty queue = %s", r.body)
	}
	a := d.newSession(t, "agent-a", "guarded")
	b := d.newSession(t, "agent-b", "guarded")
	first := d.pendingAsk(t, a, askingLine(1))
	second := d.pendingAsk(t, b, askingLine(2))
	third := d.pendingAsk(t, a, askingLine(3))
	d.call(t, "POST", "/v1/asks/"+first+"/allow", testToken, "")

	tests := []struct {
		name  string
		query string
		want  []string
	}{
		{"pending, oldest first", "", []string{second, third}},
		{"every decision", "?all=1", []string{first, second, third}},
		{"all=true reads the same", "?all=true", []string{first, second, third}},
		{"one session's pending", "?session_id=" + a, []string{third}},
		{"one session's history", "?session_id=" + a + "&all=1", []string{first, third}},
		{"unknown session", "?session_id=nobody", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := d.call(t, "GET", "/v1/asks"+tc.query, testToken, "")
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			var recs []decisions.Record
			r.decode(t, &recs)
			got := []string{}
			for _, rec := range recs {
				got = append(got, rec.ID)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("ids %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("all must be a boolean", func(t *testing.T) {
		t.Parallel()
		if r := d.call(t, "GET", "/v1/asks?all=yes", testToken, ""); r.status != 400 {
			t.Errorf("all=yes: %d %s", r.status, r.body)
		}
	})
}

// TestDenyNoteInExecuteResult: the agent that waited on an ask over REST
// reads the human's note in the execute result's refusal record (G-9.5).
func TestDenyNoteInExecuteResult(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	done := d.executeInBackground(sid, askingLine(0))
	var id string
	for deadline := time.Now().Add(10 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if p := d.pending(t); len(p) > 0 {
			id = p[0].ID
		}
	}
	if id == "" {
		t.Fatal("no pending ask")
	}
	d.call(t, "POST", "/v1/asks/"+id+"/deny", testToken, `{"note":"use the staging copy"}`)
	res := <-done
	if res.Refusal == nil || res.Refusal.Note != "use the staging copy" || res.ExitCode != 126 {
		t.Fatalf("execute result after a deny with a note: %+v", res)
	}
}
