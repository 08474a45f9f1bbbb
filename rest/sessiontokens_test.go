package rest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"gatehouse/core/decisions"
)

// TestAgentsStayOutOfEachOthersSessions: two agents of the same profile,
// each with its own session. Knowing the other's session id (from a log, a
// guess, an old listing) gets the intruder nothing: not a line run, not an
// explanation, not a listing, not a resumed ledger session; the session's
// own token and the host token still work, and a session token answers
// and reads no ask (G-10.6).
func TestAgentsStayOutOfEachOthersSessions(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	victim := d.newSession(t, "agent-a", "guarded")
	intruder := d.newSession(t, "agent-b", "guarded")
	victimToken, intruderToken := d.tokenFor("/v1/sessions/"+victim+"/"), d.tokenFor("/v1/sessions/"+intruder+"/")
	if victimToken == intruderToken || victimToken == "" {
		t.Fatalf("tokens %q %q", victimToken, intruderToken)
	}
	// The victim's line waits for an answer, so its ask is live.
	d.execute(t, victim, "cd archive; x=victim-state", true)
	askID := d.pendingAsk(t, victim, "cat /work/archive/report.txt")

	ledgerRow := decisions.SessionRow{ID: "cli-guarded-0123", AgentID: "cli", Profile: "guarded", Cwd: "/work"}
	if _, err := d.ws.Decisions().CreateSession(context.Background(), ledgerRow); err != nil {
		t.Fatal(err)
	}
	bearers := map[string]string{
		"no token":                        "",
		"the intruder's own token":        "Bearer " + intruderToken,
		"a token of another daemon":       "Bearer " + sessionToken(New(d.ws, WithToken("another-host")).sessionKey, victim),
		"the victim's id as a token":      "Bearer " + victim,
		"a truncated token":               "Bearer " + victimToken[:len(victimToken)-1],
		"the token under another scheme":  "Basic " + victimToken,
		"the token twice":                 "Bearer " + victimToken + victimToken,
		"the token with another id's mac": "Bearer " + sessionTokenPrefix + strings.Repeat("0", 64),
	}
	for name, auth := range bearers {
		for _, target := range []string{victim, ledgerRow.ID} {
			for _, route := range []string{"execute", "explain", "execute?wait=false"} {
				h := http.Header{"Content-Type": {"application/json"}}
				if auth != "" {
					h.Set("Authorization", auth)
				}
				line := markerLine + "; echo $x; pwd"
				r := d.send(t, "POST", "/v1/sessions/"+target+"/"+route, h, lineJSON(line))
				if r.status != http.StatusUnauthorized || d.marked(t) || strings.Contains(string(r.body), "victim-state") {
					t.Errorf("%s, %s in %s: %d %s (marker %v)", name, route, target, r.status, r.body, d.marked(t))
				}
			}
		}
		h := http.Header{}
		if auth != "" {
			h.Set("Authorization", auth)
		}
		if r := d.send(t, "GET", "/v1/sessions", h, ""); strings.Contains(string(r.body), victim) {
			t.Errorf("%s: the listing shows the victim: %s", name, r.body)
		}
	}
	if _, live := d.ws.Session(ledgerRow.ID); live {
		t.Error("a refused request attached the ledger's session")
	}

	// What the intruder's token can do: its own session, its own listing.
	var listed []sessionJSON
	d.call(t, "GET", "/v1/sessions", intruderToken, "").decode(t, &listed)
	if len(listed) != 1 || listed[0].ID != intruder {
		t.Errorf("the intruder's listing: %+v", listed)
	}
	// No session token reads or answers an ask, or follows the events.
	for _, token := range []string{intruderToken, victimToken} {
		for _, req := range [][3]string{
			{"GET", "/v1/asks", ""}, {"GET", "/v1/asks/" + askID, ""}, {"GET", "/v1/events", ""},
			{"POST", "/v1/asks/" + askID + "/allow", `{"scope":"session"}`},
			{"POST", "/v1/asks/" + askID + "/deny", `{}`},
		} {
			if r := d.call(t, req[0], req[1], token, req[2]); r.status != http.StatusUnauthorized {
				t.Errorf("%s %s with a session token: %d %s", req[0], req[1], r.status, r.body)
			}
		}
	}
	if rec := d.getAsk(t, askID); rec.Outcome != "" {
		t.Errorf("the victim's ask was answered: %+v", rec)
	}

	// The owner and the host keep working, in the state the owner left.
	if res := d.execute(t, victim, "echo $x; pwd", true); res.Stdout != "victim-state\n/work/archive\n" {
		t.Errorf("the victim's session: %+v", res)
	}
	if r := d.call(t, "POST", "/v1/sessions/"+victim+"/execute", testToken, lineJSON("echo host")); r.status != 200 {
		t.Errorf("the host in the victim's session: %d %s", r.status, r.body)
	}
	if r := d.call(t, "POST", "/v1/sessions/"+ledgerRow.ID+"/execute", testToken, lineJSON("pwd")); r.status != 200 || !strings.Contains(string(r.body), "/work") {
		t.Errorf("the host resuming the ledger's session: %d %s", r.status, r.body)
	}
}

// TestSessionIDsRevealNothing: a request about a session that presents
// neither its token nor the host token gets one answer (status, body,
// headers) whatever the id names: a live session, one of a profile closed
// to agents, a session kept in the ledger by another door, or nothing. The
// host still tells a missing session (404) from a live one (G-10.6).
func TestSessionIDsRevealNothing(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	live := d.newSession(t, "agent-a", "guarded")
	intruderToken := d.tokenFor("/v1/sessions/" + d.newSession(t, "agent-b", "guarded") + "/")
	var closed sessionJSON
	d.call(t, "POST", "/v1/sessions", testToken, `{"agent_id":"host-made"}`).decode(t, &closed)
	for _, row := range []decisions.SessionRow{
		{ID: "cli-guarded-0456", AgentID: "cli", Profile: "guarded", Cwd: "/work"},
		{ID: "cli-admin-0789", AgentID: "cli", Cwd: "/"},
	} {
		if _, err := d.ws.Decisions().CreateSession(context.Background(), row); err != nil {
			t.Fatal(err)
		}
	}
	targets := []string{live, closed.ID, "cli-guarded-0456", "cli-admin-0789", "s-000000000000", "nothing", strings.Repeat("s", 300)}
	bearers := []string{"", "Bearer " + intruderToken, "Bearer " + sessionTokenPrefix + strings.Repeat("0", 64),
		"Bearer not-a-token", "Basic " + testToken}
	for _, auth := range bearers {
		for _, route := range []string{"execute", "explain", "execute?wait=false"} {
			answer := func(id, body string) string {
				h := http.Header{"Content-Type": {"application/json"}}
				if auth != "" {
					h.Set("Authorization", auth)
				}
				r := d.send(t, "POST", "/v1/sessions/"+id+"/"+route, h, body)
				return fmt.Sprintf("%d %q %s", r.status, r.header.Get("WWW-Authenticate"), r.body)
			}
			want := answer("s-000000000000", lineJSON("true"))
			if !strings.HasPrefix(want, "401 ") {
				t.Errorf("%q %s in an unknown session: %s", auth, route, want)
			}
			for _, id := range targets {
				for _, body := range []string{lineJSON("true"), `{}`, `{"line":`} {
					if got := answer(id, body); got != want {
						t.Errorf("%q %s in %s with %s:\n got %s\nwant %s", auth, route, id, body, got, want)
					}
				}
			}
		}
	}
	if r := d.call(t, "POST", "/v1/sessions/s-000000000000/execute", testToken, lineJSON("true")); r.status != http.StatusNotFound {
		t.Errorf("the host in an unknown session: %d %s", r.status, r.body)
	}
	if r := d.call(t, "POST", "/v1/sessions/"+closed.ID+"/execute", testToken, lineJSON("true")); r.status != http.StatusOK {
		t.Errorf("the host in its own session: %d %s", r.status, r.body)
	}
}
