package rest

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/core/decisions"
)

// withTimeouts shortens the bounds on a request's header and body.
func withTimeouts(header, body time.Duration) Option {
	return func(s *settings) { s.headerTimeout, s.bodyTimeout = header, body }
}

// markerLine writes /work/marker when it runs: a request that was refused
// must leave no marker.
const markerLine = "echo ran > /work/marker"

func (d *daemon) marked(t testing.TB) bool {
	t.Helper()
	_, err := d.ws.VFS().View(nil).Stat("/work/marker")
	return err == nil
}

// G-10.6: a Host that is neither a loopback name nor one the daemon was told
// to serve is refused before any route, with or without the token (DNS
// rebinding).
func TestHostHeaderIsChecked(t *testing.T) {
	t.Parallel()
	d := newDaemon(t, WithHosts("gatehouse.internal"))
	sid := d.newSession(t, "agent-a", "guarded")
	port := d.http.Listener.Addr().(*net.TCPAddr).Port
	at := func(host string) string { return net.JoinHostPort(host, itoa(port)) }
	tests := []struct {
		host string
		want int
	}{
		{at("127.0.0.1"), 200},
		{at("localhost"), 200},
		{at("LocalHost"), 200},
		{"localhost.:" + itoa(port), 200},
		{at("app.localhost"), 200},
		{at("::1"), 200},
		{at("127.8.9.10"), 200},
		{"localhost", 200},
		{at("gatehouse.internal"), 200},
		{at("evil.example"), 421},
		{"evil.example", 421},
		{at("localhost.evil.example"), 421},
		{at("192.168.1.5"), 421},
		{at("0.0.0.0"), 421},
		{at("gatehouse.internal.evil.example"), 421},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			t.Parallel()
			for _, req := range []struct{ method, path, token, body string }{
				{"GET", "/v1/sessions", "", ""},
				{"GET", "/v1/asks", testToken, ""},
				{"POST", "/v1/sessions/" + sid + "/explain", "", lineJSON("ls")},
			} {
				h := http.Header{"Host": {tt.host}}
				if req.token != "" {
					h.Set("Authorization", "Bearer "+req.token)
				}
				if req.method == "POST" {
					h.Set("Content-Type", "application/json")
				}
				r := d.callHeader(t, req.method, req.path, h, req.body)
				if r.status != tt.want {
					t.Errorf("%s %s with Host %q: %d, want %d: %s", req.method, req.path, tt.host, r.status, tt.want, r.body)
				}
			}
		})
	}
	// A rebound name never runs a line.
	h := http.Header{"Host": {at("evil.example")}, "Content-Type": {"application/json"}}
	if r := d.callHeader(t, "POST", "/v1/sessions/"+sid+"/execute", h, lineJSON(markerLine)); r.status != 421 || d.marked(t) {
		t.Errorf("execute with a foreign Host: %d, marker written %v", r.status, d.marked(t))
	}
}

// G-10.6: Serve answers to the address it listens on; an unspecified one
// admits every address, never a name.
func TestHostsServed(t *testing.T) {
	t.Parallel()
	var h *hostSet
	h = h.withHost("10.1.2.3")
	for host, want := range map[string]bool{"10.1.2.3:7878": true, "10.1.2.4:7878": false, "localhost:1": true, "x.example": false} {
		if got := h.serves(host); got != want {
			t.Errorf("told 10.1.2.3: serves(%q) = %v", host, got)
		}
	}
	h = h.withHost("0.0.0.0")
	for host, want := range map[string]bool{"10.1.2.4:7878": true, "[fe80::1]:7878": true, "x.example:7878": false} {
		if got := h.serves(host); got != want {
			t.Errorf("told 0.0.0.0: serves(%q) = %v", host, got)
		}
	}
}

// G-10.6: a browser request from another origin is refused (403); the
// daemon's own origin and clients that send none pass.
func TestForeignOriginIsRefused(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	own := d.http.URL // http://127.0.0.1:PORT
	tests := []struct {
		name   string
		header http.Header
		want   int
	}{
		{"no Origin (not a browser)", http.Header{}, 200},
		{"the daemon's own origin", http.Header{"Origin": {own}}, 200},
		{"same-origin fetch", http.Header{"Sec-Fetch-Site": {"same-origin"}}, 200},
		{"another site", http.Header{"Origin": {"http://evil.example"}}, 403},
		{"another local port", http.Header{"Origin": {"http://127.0.0.1:1"}}, 403},
		{"a file or sandboxed page", http.Header{"Origin": {"null"}}, 403},
		{"cross-site fetch", http.Header{"Sec-Fetch-Site": {"cross-site"}}, 403},
		{"same-site, other origin", http.Header{"Sec-Fetch-Site": {"same-site"}}, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := tt.header.Clone()
			if r := d.callHeader(t, "GET", "/v1/sessions", h, ""); r.status != tt.want {
				t.Errorf("GET /v1/sessions: %d, want %d: %s", r.status, tt.want, r.body)
			}
			h.Set("Authorization", "Bearer "+testToken)
			if r := d.callHeader(t, "GET", "/v1/asks", h, ""); r.status != tt.want {
				t.Errorf("GET /v1/asks with the token: %d, want %d: %s", r.status, tt.want, r.body)
			}
		})
	}
	h := http.Header{"Origin": {"http://evil.example"}, "Content-Type": {"application/json"}}
	if r := d.callHeader(t, "POST", "/v1/sessions/"+sid+"/execute", h, lineJSON(markerLine)); r.status != 403 || d.marked(t) {
		t.Errorf("execute from a foreign origin: %d, marker written %v", r.status, d.marked(t))
	}
}

// G-10.6: a POST whose body is not declared JSON is refused with 415 before
// it is read, on agent and host routes alike.
func TestPostBodiesMustBeJSON(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	tests := []struct {
		contentType string
		want        int
	}{
		{"", 415},
		{"text/plain", 415},
		{"text/plain;charset=UTF-8", 415},
		{"application/x-www-form-urlencoded", 415},
		{"multipart/form-data; boundary=x", 415},
		{"application/jsonx", 415},
		{"application/json", 200},
		{"Application/JSON; charset=utf-8", 200},
		{"application/vnd.gatehouse+json", 200},
	}
	for _, tt := range tests {
		t.Run(tt.contentType, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			if tt.contentType != "" {
				h.Set("Content-Type", tt.contentType)
			}
			r := d.callHeader(t, "POST", "/v1/sessions/"+sid+"/explain", h, lineJSON("ls"))
			if r.status != tt.want {
				t.Errorf("explain as %q: %d, want %d: %s", tt.contentType, r.status, tt.want, r.body)
			}
			if r.status == 415 && r.header.Get("Accept-Post") != "application/json" {
				t.Errorf("415 without Accept-Post: %v", r.header)
			}
		})
	}
	h := http.Header{"Content-Type": {"text/plain"}}
	if r := d.callHeader(t, "POST", "/v1/sessions/"+sid+"/execute", h, lineJSON(markerLine)); r.status != 415 || d.marked(t) {
		t.Errorf("execute as text/plain: %d, marker written %v", r.status, d.marked(t))
	}
	id := d.pendingAsk(t, sid, askingLine(1))
	h.Set("Authorization", "Bearer "+testToken)
	if r := d.callHeader(t, "POST", "/v1/asks/"+id+"/allow", h, `{}`); r.status != 415 {
		t.Errorf("answer as text/plain: %d", r.status)
	}
	if rec := d.getAsk(t, id); !rec.Pending() {
		t.Errorf("a refused answer settled the ask: %+v", rec)
	}
}

// endless is a body that never ends; n counts what was read of it, by
// the client's writer goroutine.
type endless struct{ n atomic.Int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n.Add(int64(len(p)))
	return len(p), nil
}

// G-10.6: a body past 1 MiB is refused with 413, whether its length is
// declared or it just keeps coming; the daemon reads no more than the
// limit.
func TestOversizedBodiesAreRefused(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	url := d.http.URL + "/v1/sessions/" + sid + "/execute"
	auth := "Bearer " + d.tokenFor("/v1/sessions/"+sid+"/")

	// Declared: 10 GB. The answer comes before the body is read.
	body := &endless{}
	req, _ := http.NewRequest("POST", url, io.LimitReader(body, 10<<30))
	req.ContentLength = 10 << 30
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth)
	resp, err := d.http.Client().Do(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("a declared 10 GB body: %d", resp.StatusCode)
		}
	}
	if n := body.n.Load(); n > 64<<20 {
		t.Errorf("the client got to send %d bytes", n)
	}

	// Undeclared (chunked): read up to the limit, then refused.
	body = &endless{}
	req, _ = http.NewRequest("POST", url, io.LimitReader(body, 10<<30))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth)
	resp, err = d.http.Client().Do(req)
	if err == nil {
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(data), "too large") {
			t.Errorf("an endless chunked body: %d %s", resp.StatusCode, data)
		}
	}
	if n := body.n.Load(); n > 64<<20 {
		t.Errorf("the daemon let the client send %d bytes", n)
	}
	// A body just over the limit, declared honestly, reads as 413 too.
	big := `{"line":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	if r := d.call(t, "POST", "/v1/sessions/"+sid+"/execute", "", big); r.status != 413 {
		t.Errorf("a 1 MiB line: %d %s", r.status, r.body)
	}
}

// G-10.6: agents get sessions of the profiles the daemon opens to them
// (serve -p); any other profile, or an unrestricted session, needs the
// token to create, to run lines in, or to resume.
func TestAgentProfiles(t *testing.T) {
	t.Parallel()
	d := newDaemonOf(t, testDocument, WithAgentProfiles("reader"))
	create := func(token, body string) reply { return d.call(t, "POST", "/v1/sessions", token, body) }
	if r := create("", `{"agent_id":"a","profile":"reader"}`); r.status != 201 {
		t.Fatalf("reader: %d %s", r.status, r.body)
	}
	for _, body := range []string{`{"agent_id":"a","profile":"guarded"}`, `{"agent_id":"a"}`} {
		if r := create("", body); r.status != 403 || !strings.Contains(r.errorText(t), "needs the host token") {
			t.Errorf("%s without the token: %d %s", body, r.status, r.body)
		}
		if r := create("wrong", body); r.status != 401 || r.header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s with a wrong token: %d %s", body, r.status, r.body)
		}
	}
	if r := create("", `{"agent_id":"a","profile":"root"}`); r.status != 422 {
		t.Errorf("an unknown profile: %d %s", r.status, r.body)
	}
	r := create(testToken, `{"agent_id":"host","profile":"guarded"}`)
	if r.status != 201 {
		t.Fatalf("guarded with the token: %d %s", r.status, r.body)
	}
	var guarded sessionJSON
	r.decode(t, &guarded)

	// Running lines in it needs the token too, although it is live; without
	// one the answer is an unknown id's (401).
	path := "/v1/sessions/" + guarded.ID + "/execute"
	if r := d.call(t, "POST", path, "", lineJSON(markerLine)); r.status != 401 || d.marked(t) {
		t.Errorf("execute in a guarded session without the token: %d, marker written %v", r.status, d.marked(t))
	}
	if r := d.call(t, "POST", "/v1/sessions/"+guarded.ID+"/explain", "", lineJSON("ls")); r.status != 401 {
		t.Errorf("explain in a guarded session without the token: %d", r.status)
	}
	if r := d.call(t, "POST", path, guarded.Token, lineJSON(markerLine)); r.status != 401 || d.marked(t) {
		t.Errorf("execute in a guarded session with its own token: %d, marker written %v", r.status, d.marked(t))
	}
	if r := d.call(t, "POST", path, testToken, lineJSON("echo hi")); r.status != 200 {
		t.Errorf("execute with the token: %d %s", r.status, r.body)
	}

	// Listing: agents see only their own session.
	var listed []sessionJSON
	d.call(t, "GET", "/v1/sessions", guarded.Token, "").decode(t, &listed)
	if len(listed) != 0 {
		t.Errorf("a listing with a guarded session's token shows %+v", listed)
	}
	d.call(t, "GET", "/v1/sessions", "", "").decode(t, &listed)
	if len(listed) != 0 {
		t.Errorf("an agent's listing without a token shows %+v", listed)
	}
	d.call(t, "GET", "/v1/sessions", testToken, "").decode(t, &listed)
	if len(listed) != 2 {
		t.Errorf("a host's listing: %+v", listed)
	}
	if r := d.call(t, "GET", "/v1/sessions", "wrong", ""); r.status != 401 {
		t.Errorf("a listing with a wrong token: %d", r.status)
	}

	// A session of another process (the CLI's "cli-guarded") is not resumed
	// for an agent, and not attached to this daemon by trying; the refusal
	// is the one an unknown id gets (401), so it says nothing of the
	// session or its profile.
	for _, row := range []decisions.SessionRow{
		{ID: "cli-guarded", AgentID: "cli", Profile: "guarded", Cwd: "/work"},
		{ID: "cli-default", AgentID: "cli", Profile: "", Cwd: "/"},
	} {
		if _, err := d.ws.Decisions().CreateSession(context.Background(), row); err != nil {
			t.Fatal(err)
		}
		if r := d.call(t, "POST", "/v1/sessions/"+row.ID+"/execute", "", lineJSON(markerLine)); r.status != 401 || d.marked(t) {
			t.Errorf("resume %s without the token: %d, marker written %v", row.ID, r.status, d.marked(t))
		}
		if _, live := d.ws.Session(row.ID); live {
			t.Errorf("a refused resume attached %s", row.ID)
		}
	}
}

// G-10.6: by default the daemon opens the document's default profile, and
// only it.
func TestAgentProfilesDefault(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(testDocument, "profiles:\n", "profiles:\n  default: reader\n", 1)
	d := newDaemonOf(t, doc)
	for body, want := range map[string]int{
		`{"agent_id":"a"}`:                     201,
		`{"agent_id":"a","profile":"reader"}`:  201,
		`{"agent_id":"a","profile":"guarded"}`: 403,
	} {
		if r := d.call(t, "POST", "/v1/sessions", "", body); r.status != want {
			t.Errorf("%s: %d, want %d: %s", body, r.status, want, r.body)
		}
	}
	// No default profile: nothing is open to agents.
	d = newDaemonOf(t, testDocument)
	if r := d.call(t, "POST", "/v1/sessions", "", `{"agent_id":"a","profile":"reader"}`); r.status != 403 {
		t.Errorf("no default, reader: %d %s", r.status, r.body)
	}
}

// G-10.6: a client that sends its header or body a byte at a time is cut
// off (slowloris), and a slow body never holds a handler.
func TestSlowClientsAreCutOff(t *testing.T) {
	t.Parallel()
	d := newDaemonOf(t, testDocument, WithAgentProfiles("reader"), withTimeouts(300*time.Millisecond, 300*time.Millisecond))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- d.server.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-served })

	cutOff := func(t *testing.T, what, start string) {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, start); err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		// Trickle one byte every 100 ms; the daemon must hang up.
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		for time.Since(began) < 5*time.Second {
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
			buf := make([]byte, 512)
			conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			n, err := conn.Read(buf)
			var ne net.Error
			if err != nil && !(errors.As(err, &ne) && ne.Timeout()) || n > 0 {
				return // an answer or a hang-up
			}
		}
		t.Errorf("%s: the daemon kept a trickling client for 5s", what)
	}
	t.Run("header", func(t *testing.T) {
		cutOff(t, "header", "GET /v1/sessions HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
	})
	t.Run("body", func(t *testing.T) {
		cutOff(t, "body", "POST /v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
