package rest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

const testToken = "test-token-0123456789"

// testDocument is a small workspace: "guarded" asks before anything reads
// /work/archive and denies /work/secret.txt; "reader" may only cat and ls.
const testDocument = `mounts:
  /work:
    files:
      notes.txt: "hello\n"
      secret.txt: "s3cret\n"
      archive/report.txt: "quarterly numbers\n"
profiles:
  guarded:
    cwd: /work
    commands:
      ask:
        - {reason: the archive needs sign-off, paths: [/work/archive/*]}
      deny:
        - {reason: secrets stay put, paths: [/work/secret.txt]}
  reader:
    cwd: /work
    commands:
      allow: [cat, ls]
`

// askingLine is a line the guarded profile asks about; n makes it a
// different line (a different question) from every other n.
func askingLine(n int) string { return fmt.Sprintf("cat archive/report.txt # %d", n) }

// daemon is one REST server over its own workspace and ledger.
type daemon struct {
	ws     *core.Workspace
	server *Server
	http   *httptest.Server
	ledger string

	// tokens holds the token of every session the tests created over
	// REST, by id: requests about a session present it unless they carry
	// an Authorization of their own (see send for a request without).
	tokensMu sync.Mutex
	tokens   map[string]string
}

// remember keeps a created session's token for later requests.
func (d *daemon) remember(s sessionJSON) {
	d.tokensMu.Lock()
	defer d.tokensMu.Unlock()
	if d.tokens == nil {
		d.tokens = map[string]string{}
	}
	d.tokens[s.ID] = s.Token
}

// tokenFor is the token of the session a path is about, "" for none.
func (d *daemon) tokenFor(path string) string {
	rest, ok := strings.CutPrefix(path, "/v1/sessions/")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, "/")
	d.tokensMu.Lock()
	defer d.tokensMu.Unlock()
	return d.tokens[id]
}

// newDaemon starts a server the way `gatehouse serve -p guarded -p reader`
// does: lines that ask wait for an answer (AwaitAnswer), hosts need
// testToken, agents get sessions of both profiles.
func newDaemon(t testing.TB, opts ...Option) *daemon {
	t.Helper()
	return newDaemonOf(t, testDocument, append([]Option{WithAgentProfiles("guarded", "reader")}, opts...)...)
}

// newDaemonOf starts a server over document with exactly opts (and the
// test token).
func newDaemonOf(t testing.TB, document string, opts ...Option) *daemon {
	t.Helper()
	dir := t.TempDir()
	doc := filepath.Join(dir, "workspace.yaml")
	if err := os.WriteFile(doc, []byte(document), 0o600); err != nil {
		t.Fatal(err)
	}
	ledger := filepath.Join(dir, "ledger.db")
	ws, err := core.LoadWorkspace(doc, core.WithLedger(ledger), core.OnAsk(AwaitAnswer))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	srv := New(ws, append([]Option{WithToken(testToken)}, opts...)...)
	ts := httptest.NewServer(srv)
	// Cleanups run last-in first-out: end the streams, then the listener,
	// then the workspace.
	t.Cleanup(ts.Close)
	t.Cleanup(func() { srv.Close() })
	return &daemon{ws: ws, server: srv, http: ts, ledger: ledger}
}

// reply is one HTTP exchange as a test sees it.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) decode(t testing.TB, into any) {
	t.Helper()
	if err := json.Unmarshal(r.body, into); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (r reply) errorText(t testing.TB) string {
	t.Helper()
	var eb errorBody
	r.decode(t, &eb)
	return eb.Error
}

// call sends one request; token "" sends no Authorization header.
func (d *daemon) call(t testing.TB, method, path, token, body string) reply {
	t.Helper()
	auth := ""
	if token != "" {
		auth = "Bearer " + token
	}
	return d.callRaw(t, method, path, auth, body)
}

// callRaw is call with the Authorization header given whole ("" = none).
func (d *daemon) callRaw(t testing.TB, method, path, auth, body string) reply {
	t.Helper()
	header := http.Header{}
	if auth != "" {
		header.Set("Authorization", auth)
	}
	if method == "POST" {
		header.Set("Content-Type", "application/json")
	}
	return d.callHeader(t, method, path, header, body)
}

// callHeader sends one request with header, plus the token of the session
// the path names when header has no Authorization.
func (d *daemon) callHeader(t testing.TB, method, path string, header http.Header, body string) reply {
	t.Helper()
	if token := d.tokenFor(path); token != "" && header.Get("Authorization") == "" {
		header = header.Clone()
		header.Set("Authorization", "Bearer "+token)
	}
	return d.send(t, method, path, header, body)
}

// send sends one request with exactly header.
func (d *daemon) send(t testing.TB, method, path string, header http.Header, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, d.http.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if h := header.Get("Host"); h != "" {
		req.Host = h
	}
	resp, err := d.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: data}
}

// newSession creates a session of profile over REST and returns its id.
func (d *daemon) newSession(t testing.TB, agent, profile string) string {
	t.Helper()
	r := d.call(t, "POST", "/v1/sessions", "", `{"agent_id":"`+agent+`","profile":"`+profile+`"}`)
	if r.status != http.StatusCreated {
		t.Fatalf("create session: %d %s", r.status, r.body)
	}
	var s sessionJSON
	r.decode(t, &s)
	d.remember(s)
	return s.ID
}

// execute runs a line over REST and returns its result.
func (d *daemon) execute(t testing.TB, sessionID, line string, wait bool) core.Result {
	t.Helper()
	res, err := d.tryExecute(sessionID, line, wait)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// executeInBackground runs a line on its own goroutine, as an agent waiting
// for its answer; the channel yields the result (a failed request yields
// exit code -1 and the error in Stderr).
func (d *daemon) executeInBackground(sessionID, line string) <-chan core.Result {
	done := make(chan core.Result, 1)
	go func() {
		res, err := d.tryExecute(sessionID, line, true)
		if err != nil {
			res = core.Result{ExitCode: -1, Stderr: err.Error()}
		}
		done <- res
	}()
	return done
}

// tryExecute is execute for goroutines other than the test's own.
func (d *daemon) tryExecute(sessionID, line string, wait bool) (core.Result, error) {
	path := d.http.URL + "/v1/sessions/" + sessionID + "/execute"
	if !wait {
		path += "?wait=false"
	}
	req, err := http.NewRequest("POST", path, strings.NewReader(lineJSON(line)))
	if err != nil {
		return core.Result{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token := d.tokenFor("/v1/sessions/" + sessionID + "/"); token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := d.http.Client().Do(req)
	if err != nil {
		return core.Result{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return core.Result{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return core.Result{}, fmt.Errorf("execute %q: %d %s", line, resp.StatusCode, data)
	}
	var res core.Result
	err = json.Unmarshal(data, &res)
	return res, err
}

// pendingAsk runs a line that asks without waiting and returns the ask id.
func (d *daemon) pendingAsk(t testing.TB, sessionID, line string) string {
	t.Helper()
	res := d.execute(t, sessionID, line, false)
	if res.Refusal == nil || res.Refusal.AskID == "" {
		t.Fatalf("%q raised no ask: %+v", line, res)
	}
	return res.Refusal.AskID
}

func (d *daemon) getAsk(t testing.TB, id string) decisions.Record {
	t.Helper()
	r := d.call(t, "GET", "/v1/asks/"+id, testToken, "")
	if r.status != http.StatusOK {
		t.Fatalf("get ask %s: %d %s", id, r.status, r.body)
	}
	var rec decisions.Record
	r.decode(t, &rec)
	return rec
}

func (d *daemon) pending(t testing.TB) []decisions.Record {
	t.Helper()
	r := d.call(t, "GET", "/v1/asks", testToken, "")
	if r.status != http.StatusOK {
		t.Fatalf("list asks: %d %s", r.status, r.body)
	}
	var recs []decisions.Record
	r.decode(t, &recs)
	return recs
}

func lineJSON(line string) string {
	b, _ := json.Marshal(map[string]string{"line": line})
	return string(b)
}

// sseEvent is one server-sent event, or a comment line (comment set).
type sseEvent struct {
	id, kind, data string
	comment        string
}

// openEvents connects to GET /v1/events and delivers what arrives until
// the test ends. lastID, when set, goes out as Last-Event-ID.
func (d *daemon) openEvents(t testing.TB, lastID string) <-chan sseEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", d.http.URL+"/v1/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := d.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events Content-Type = %q", ct)
	}
	out := make(chan sseEvent, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		readEvents(resp.Body, out)
	}()
	return out
}

// readEvents parses a server-sent event stream.
func readEvents(r io.Reader, out chan<- sseEvent) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev != (sseEvent{}) {
				out <- ev
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, ":"):
			out <- sseEvent{comment: strings.TrimSpace(line[1:])}
		default:
			field, value, _ := strings.Cut(line, ": ")
			switch field {
			case "id":
				ev.id = value
			case "event":
				ev.kind = value
			case "data":
				ev.data = value
			}
		}
	}
}

// nextEvent returns the next event (not comment) of one of kinds.
func nextEvent(t testing.TB, events <-chan sseEvent, kinds ...string) sseEvent {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("event stream ended waiting for %v", kinds)
			}
			for _, k := range kinds {
				if ev.kind == k {
					return ev
				}
			}
		case <-timeout:
			t.Fatalf("no %v event within 5s", kinds)
		}
	}
}

func recordOf(t testing.TB, ev sseEvent) decisions.Record {
	t.Helper()
	var rec decisions.Record
	if err := json.Unmarshal([]byte(ev.data), &rec); err != nil {
		t.Fatalf("event data %s: %v", ev.data, err)
	}
	return rec
}

func jsonHas(body []byte, fragment string) bool { return bytes.Contains(body, []byte(fragment)) }
