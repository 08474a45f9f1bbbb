package rest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

func TestCreateSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		body        string
		wantStatus  int
		wantProfile string
		wantCwd     string
		wantInBody  string
	}{
		{name: "with a profile", body: `{"agent_id":"agent-a","profile":"guarded"}`,
			wantStatus: 201, wantProfile: "guarded", wantCwd: "/work"},
		{name: "without a profile, unrestricted, needs the token", body: `{"agent_id":"agent-a"}`,
			wantStatus: 403, wantInBody: "an unrestricted session is not open to agents"},
		{name: "unknown profile names the known ones", body: `{"agent_id":"agent-a","profile":"root"}`,
			wantStatus: 422, wantInBody: "guarded, reader"},
		{name: "agent_id is required", body: `{"profile":"guarded"}`,
			wantStatus: 400, wantInBody: "agent_id"},
		{name: "unknown field", body: `{"agent_id":"a","profile":"guarded","cwd":"/"}`,
			wantStatus: 400, wantInBody: "unknown field"},
		{name: "empty body", body: ``, wantStatus: 400},
		{name: "not JSON", body: `agent_id=a`, wantStatus: 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDaemon(t)
			r := d.call(t, "POST", "/v1/sessions", "", tc.body)
			if r.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
			if !strings.Contains(string(r.body), tc.wantInBody) {
				t.Errorf("body %s lacks %q", r.body, tc.wantInBody)
			}
			if tc.wantStatus != 201 {
				return
			}
			var s sessionJSON
			r.decode(t, &s)
			if s.ID == "" || s.AgentID != "agent-a" || s.Profile != tc.wantProfile || s.Cwd != tc.wantCwd || s.CreatedAt.IsZero() {
				t.Errorf("session %+v", s)
			}
			for _, field := range []string{`"id"`, `"agent_id"`, `"profile"`, `"cwd"`, `"created_at"`} {
				if !jsonHas(r.body, field) {
					t.Errorf("session JSON %s lacks %s", r.body, field)
				}
			}
			if loc := r.header.Get("Location"); loc != "/v1/sessions/"+s.ID {
				t.Errorf("Location = %q", loc)
			}
			if !strings.HasPrefix(s.Token, sessionTokenPrefix) || len(s.Token) != len(sessionTokenPrefix)+64 {
				t.Errorf("session token %q", s.Token)
			}
			var listed []sessionJSON
			d.call(t, "GET", "/v1/sessions", s.Token, "").decode(t, &listed)
			if len(listed) != 1 || listed[0].ID != s.ID {
				t.Errorf("GET /v1/sessions = %+v", listed)
			}
		})
	}
}

// TestExecute runs lines over REST, including the refusals an agent reads.
func TestExecute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		profile    string
		line       string
		wantExit   int
		wantStdout string
		wantStderr string
		wantKind   string // kind of the first refusal; "" = none
	}{
		{name: "a line that runs", profile: "guarded", line: "cat notes.txt", wantExit: 0, wantStdout: "hello\n"},
		{name: "a denied operand", profile: "guarded", line: "cat secret.txt", wantExit: 1,
			wantStderr: "cat: secret.txt: secrets stay put", wantKind: "deny"},
		{name: "a command not installed", profile: "reader", line: "echo hi", wantExit: 127,
			wantStderr: "echo: command not found"},
		{name: "state stays with the session", profile: "guarded", line: "cd archive; ls", wantExit: 0, wantStdout: "report.txt\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDaemon(t)
			res := d.execute(t, d.newSession(t, "agent-a", tc.profile), tc.line, true)
			if res.ExitCode != tc.wantExit || res.Stdout != tc.wantStdout || !strings.Contains(res.Stderr, tc.wantStderr) {
				t.Errorf("got exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
			}
			kind := ""
			if res.Refusal != nil {
				kind = res.Refusal.Kind
			}
			if kind != tc.wantKind {
				t.Errorf("refusal kind %q, want %q", kind, tc.wantKind)
			}
		})
	}
}

// TestExecuteWaitsForAnAnswer: a line that asks holds its request until a
// host answers over REST, then finishes as the answer says.
func TestExecuteWaitsForAnAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		answer     string
		wantExit   int
		wantStdout string
		wantStderr string
	}{
		{"allowed, the line runs", "allow", 0, "quarterly numbers\n", ""},
		{"denied, the read is refused (G-9.5)", "deny", 126, "", "cat: Permission denied"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDaemon(t)
			events := d.openEvents(t, "")
			sid := d.newSession(t, "agent-a", "guarded")
			done := d.executeInBackground(sid, askingLine(1))

			ask := recordOf(t, nextEvent(t, events, eventAsk))
			select {
			case res := <-done:
				t.Fatalf("execute returned before any answer: %+v", res)
			case <-time.After(50 * time.Millisecond):
			}
			if r := d.call(t, "POST", "/v1/asks/"+ask.ID+"/"+tc.answer, testToken, ""); r.status != 200 {
				t.Fatalf("answer: %d %s", r.status, r.body)
			}
			select {
			case res := <-done:
				if res.ExitCode != tc.wantExit || res.Stdout != tc.wantStdout || !strings.Contains(res.Stderr, tc.wantStderr) {
					t.Errorf("released with exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the answer did not release the line")
			}
		})
	}
}

// TestExecuteWithoutWaiting: ?wait=false answers at once with the pending
// refusal (G-7.4), and the ask waits in the queue for a host.
func TestExecuteWithoutWaiting(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	start := time.Now()
	res := d.execute(t, sid, askingLine(1), false)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("wait=false took %v", took)
	}
	if res.ExitCode != 126 || res.Refusal == nil || res.Refusal.Kind != "ask" || res.Refusal.Status != "pending" {
		t.Fatalf("result %+v", res)
	}
	queue := d.pending(t)
	if len(queue) != 1 || queue[0].ID != res.Refusal.AskID || queue[0].SessionID != sid || queue[0].Line != askingLine(1) {
		t.Fatalf("queue %+v, refusal %+v", queue, res.Refusal)
	}
	// Answered, the agent's retry runs (allow once).
	d.call(t, "POST", "/v1/asks/"+res.Refusal.AskID+"/allow", testToken, "")
	if retry := d.execute(t, sid, askingLine(1), false); retry.ExitCode != 0 || retry.Stdout != "quarterly numbers\n" {
		t.Errorf("retry after allow: %+v", retry)
	}
}

// TestAgentEndpointsCannotAnswer: the host token opens nothing on the agent
// side; a line run with it still waits for a host like any other.
func TestAgentEndpointsCannotAnswer(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	r := d.call(t, "POST", "/v1/sessions/"+sid+"/execute?wait=false", testToken, lineJSON(askingLine(1)))
	var res core.Result
	r.decode(t, &res)
	if res.Refusal == nil || res.Refusal.Status != "pending" {
		t.Fatalf("with the host token the line was not refused pending: %+v", res)
	}
	if rec := d.getAsk(t, res.Refusal.AskID); !rec.Pending() {
		t.Fatalf("the ask was answered: %+v", rec)
	}
	// Every route that answers is a host route.
	for _, rt := range d.server.routes() {
		answers := strings.HasSuffix(rt.path, "/allow") || strings.HasSuffix(rt.path, "/deny")
		if answers && !rt.hostOnly {
			t.Errorf("%s %s answers without the token", rt.method, rt.path)
		}
		if strings.HasPrefix(rt.path, "/v1/sessions") && rt.hostOnly {
			t.Errorf("agent route %s %s demands the host token", rt.method, rt.path)
		}
	}
}

func TestExecuteAndExplainRequests(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	tests := []struct {
		name, path, body string
		wantStatus       int
	}{
		{"execute in an unknown session", "/v1/sessions/s-000000000000/execute", `{"line":"ls"}`, 401},
		{"explain in an unknown session", "/v1/sessions/s-000000000000/explain", `{"line":"ls"}`, 401},
		{"execute without a line", "/v1/sessions/" + sid + "/execute", `{}`, 400},
		{"execute with a malformed body", "/v1/sessions/" + sid + "/execute", `{"line":`, 400},
		{"execute with an unknown field", "/v1/sessions/" + sid + "/execute", `{"line":"ls","cmd":"ls"}`, 400},
		{"wait must be a boolean", "/v1/sessions/" + sid + "/execute?wait=later", `{"line":"ls"}`, 400},
		{"explain without a line", "/v1/sessions/" + sid + "/explain", `{"lines":["ls"]}`, 400},
		{"explain a line that does not parse", "/v1/sessions/" + sid + "/explain", `{"line":"if then"}`, 422},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if r := d.call(t, "POST", tc.path, "", tc.body); r.status != tc.wantStatus {
				t.Errorf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
		})
	}
}

// TestExplain: the dry run names the rule and raises nothing (G-11.3).
func TestExplain(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	r := d.call(t, "POST", "/v1/sessions/"+sid+"/explain", "", lineJSON("cat notes.txt && cat archive/report.txt"))
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var exps []core.Explanation
	r.decode(t, &exps)
	if len(exps) != 2 || exps[0].Outcome != "run" || exps[1].Outcome != "ask" || exps[1].ExitCode != 126 ||
		!strings.Contains(exps[1].Reason, "archive needs sign-off") {
		t.Fatalf("explanations %+v", exps)
	}
	if q := d.pending(t); len(q) != 0 {
		t.Errorf("explain raised asks: %+v", q)
	}
}

// TestHangingUpCancelsTheLine: an agent that gives up on a waiting execute
// takes its ask out of the queue, marked cancelled (G-13.5).
func TestHangingUpCancelsTheLine(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	events := d.openEvents(t, "")
	sid := d.newSession(t, "agent-a", "guarded")
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", d.http.URL+"/v1/sessions/"+sid+"/execute",
		strings.NewReader(lineJSON(askingLine(1))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+d.tokenFor("/v1/sessions/"+sid+"/"))
	go func() {
		if resp, err := d.http.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	ask := recordOf(t, nextEvent(t, events, eventAsk))
	cancel()
	closed := recordOf(t, nextEvent(t, events, eventClosed))
	if closed.ID != ask.ID || closed.Closed != "cancelled" {
		t.Fatalf("closed event %+v", closed)
	}
	if q := d.pending(t); len(q) != 0 {
		t.Errorf("queue still holds %+v", q)
	}
}

// TestSessionsOutliveTheDaemon: a session the ledger kept from an earlier
// run is resumed by its id, with its profile and last cwd, for the token
// the earlier daemon (on the same ledger, so the same host token) gave.
func TestSessionsOutliveTheDaemon(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	row, err := d.ws.Decisions().CreateSession(context.Background(), decisions.SessionRow{
		ID: "s-earlier", AgentID: "agent-z", Profile: "guarded", Cwd: "/work/archive",
	})
	if err != nil {
		t.Fatal(err)
	}
	earlier := New(d.ws, WithToken(testToken))
	defer earlier.Close()
	token := sessionToken(earlier.sessionKey, row.ID)
	d.remember(sessionJSON{ID: row.ID, Token: token})
	res := d.execute(t, row.ID, "ls", true)
	if res.ExitCode != 0 || res.Stdout != "report.txt\n" {
		t.Fatalf("resumed session ran %+v", res)
	}
	var listed []sessionJSON
	d.call(t, "GET", "/v1/sessions", token, "").decode(t, &listed)
	if len(listed) != 1 || listed[0].ID != "s-earlier" || listed[0].Profile != "guarded" {
		t.Errorf("sessions %+v", listed)
	}
	if r := d.call(t, "DELETE", "/v1/sessions", "", ""); r.status != http.StatusMethodNotAllowed {
		t.Errorf("DELETE /v1/sessions: %d", r.status)
	}
}
