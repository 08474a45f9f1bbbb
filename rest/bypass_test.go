package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/bypasstest"
	"gatehouse/rest"
	"gatehouse/store/sqlite"
)

// TestBypassFileLines runs the bypass corpus's file attempts through REST
// as the shell lines that do them, judged by the twin as every door is
// (STYLE §6).
func TestBypassFileLines(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	bypasstest.RunFiles(t, func(t *testing.T, w bypasstest.World) bypasstest.Opened {
		hostRoot := t.TempDir()
		ws, err := core.NewWorkspace(bypasstest.Mounts(t, w, hostRoot), core.WithProfiles(bypasstest.Profile(w)),
			core.WithStore(db), core.WithLimits(core.Limits{WallTime: 10 * time.Second}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		bypasstest.LayLinks(t, ws.VFS().View(nil), w)
		srv := rest.New(ws, rest.WithToken("bypass-token"), rest.WithAgentProfiles(bypasstest.ProfileName))
		ts := httptest.NewServer(srv)
		t.Cleanup(ts.Close)
		t.Cleanup(func() { srv.Close() })
		var session struct{ ID, Token string }
		post(t, ts.URL+"/v1/sessions", "", map[string]string{"agent_id": "intruder", "profile": bypasstest.ProfileName}, &session)
		return bypasstest.Opened{Door: restDoor{url: ts.URL + "/v1/sessions/" + session.ID + "/execute", token: session.Token},
			FS: ws.VFS().View(nil), HostRoot: hostRoot}
	})
}

// restDoor is an agent's session over REST: its url and its token.
type restDoor struct{ url, token string }

// Do runs the attempt's shell line over REST and returns the response as
// the agent reads it.
func (d restDoor) Do(t *testing.T, a bypasstest.FileAttempt) string {
	var raw json.RawMessage
	post(t, d.url, d.token, map[string]string{"line": a.Line()}, &raw)
	return string(raw)
}

func post(t *testing.T, url, token string, body any, out any) {
	t.Helper()
	data, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", url, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %s %s", url, resp.Status, got)
	}
	if err := json.Unmarshal(got, out); err != nil {
		t.Fatalf("POST %s: %v in %s", url, err, got)
	}
}
