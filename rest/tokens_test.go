package rest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// hashKeeper keeps host token hashes in memory, as a server ledger keeps
// them in its database.
type hashKeeper struct {
	mu         sync.Mutex
	hashes     map[string]bool
	sessionKey []byte
	err        error
}

func (k *hashKeeper) KeepHostToken(_ context.Context, hash string, replace bool) (bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if replace {
		k.hashes = map[string]bool{}
	}
	if len(k.hashes) > 0 {
		return false, nil
	}
	k.hashes[hash] = true
	return true, nil
}

func (k *hashKeeper) SessionKey(_ context.Context, candidate []byte, replace bool) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err != nil {
		return nil, k.err
	}
	if k.sessionKey == nil || replace {
		k.sessionKey = candidate
	}
	return k.sessionKey, nil
}

func (k *hashKeeper) HasHostToken(_ context.Context, hash string) (bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.hashes[hash], k.err
}

// G-10.6, G-10.7: a daemon on a ledger that keeps its host tokens checks
// the hash of what a host presents against the ledger: the token issued
// first works, a second issue gives nothing (only the hash is kept), a
// rotation ends the old token, and a ledger that cannot answer lets
// nobody in.
func TestTokenKeeper(t *testing.T) {
	t.Parallel()
	k := &hashKeeper{hashes: map[string]bool{}}
	ctx := context.Background()
	first, err := IssueLedgerToken(ctx, k)
	if err != nil || len(first) != 64 {
		t.Fatalf("first token = %q, %v", first, err)
	}
	if again, err := IssueLedgerToken(ctx, k); err != nil || again != "" {
		t.Fatalf("a second issue = %q, %v; want nothing (the ledger keeps the hash only)", again, err)
	}
	if !k.hashes[HashToken(first)] || k.hashes[first] {
		t.Fatal("the ledger should keep the token's hash, never the token")
	}
	d := newDaemon(t, WithTokenKeeper(k))
	status := func(token string) int { return d.call(t, "GET", "/v1/asks", token, "").status }
	if got := status(first); got != http.StatusOK {
		t.Errorf("the issued token: %d, want 200", got)
	}
	r := d.call(t, "GET", "/v1/asks", testToken, "")
	if r.status != http.StatusUnauthorized || !strings.Contains(r.errorText(t), "showed when it first started") {
		t.Errorf("the daemon's own in-memory token: %d %q, want 401 naming where the token comes from", r.status, r.body)
	}
	if got := status(HashToken(first)); got != http.StatusUnauthorized {
		t.Errorf("the hash presented as a token: %d, want 401", got)
	}
	rotated, err := RotateLedgerToken(ctx, k)
	if err != nil || rotated == first {
		t.Fatalf("rotation = %q, %v", rotated, err)
	}
	if status(first) != http.StatusUnauthorized || status(rotated) != http.StatusOK {
		t.Errorf("after rotation: old %d, new %d; want 401, 200", status(first), status(rotated))
	}
	k.mu.Lock()
	k.err = errors.New("connection refused")
	k.mu.Unlock()
	if got := status(rotated); got != http.StatusUnauthorized {
		t.Errorf("with the ledger unreachable: %d, want 401", got)
	}
}

// G-10.7: a client of a daemon on a server ledger has no token file beside
// the ledger: it takes $GATEHOUSE_TOKEN, and without it says so.
func TestReadTokenOfAServerLedger(t *testing.T) {
	url := "postgres://gh:s3cret@db.example/ledger"
	t.Setenv(TokenEnv, "")
	_, err := ReadToken(url)
	if err == nil || !strings.Contains(err.Error(), TokenEnv) || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("ReadToken of a server ledger = %v, want a word about %s and no password", err, TokenEnv)
	}
	t.Setenv(TokenEnv, "abc")
	if token, err := ReadToken(url); token != "abc" || err != nil {
		t.Errorf("ReadToken with %s set = %q, %v", TokenEnv, token, err)
	}
}

// G-10.6, G-10.7: daemons on one ledger that keeps host tokens sign
// session tokens with the key the ledger keeps, so a token one daemon gave
// works through another and through a daemon started after it (a
// restart); a revocation ends it on all of them at once, and a ledger that
// cannot answer lets no session token in (and makes no session).
func TestSessionTokensShareTheLedgersKey(t *testing.T) {
	t.Parallel()
	k := &hashKeeper{hashes: map[string]bool{}}
	d := newDaemon(t, WithTokenKeeper(k))
	sid := d.newSession(t, "agent-a", "guarded")
	token := d.tokenFor("/v1/sessions/" + sid + "/")
	other := httptest.NewServer(New(d.ws, WithTokenKeeper(k), WithAgentProfiles("guarded")))
	defer other.Close()
	run := func(base, bearer string) int {
		req, _ := http.NewRequest("POST", base+"/v1/sessions/"+sid+"/execute", strings.NewReader(lineJSON("true")))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+bearer)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := run(other.URL, token); got != http.StatusOK {
		t.Errorf("the token through another daemon of the ledger: %d, want 200", got)
	}
	if got := run(d.http.URL, token); got != http.StatusOK {
		t.Errorf("the token through its own daemon: %d, want 200", got)
	}
	if err := RevokeSessionTokens(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{d.http.URL, other.URL} {
		if got := run(base, token); got != http.StatusUnauthorized {
			t.Errorf("the token after a revocation: %d, want 401", got)
		}
	}
	k.mu.Lock()
	k.err = errors.New("connection refused")
	k.mu.Unlock()
	if r := d.call(t, "POST", "/v1/sessions", "", `{"agent_id":"b","profile":"guarded"}`); r.status != http.StatusInternalServerError || strings.Contains(string(r.body), "gst_") {
		t.Errorf("a session made with the ledger unreachable: %d %s", r.status, r.body)
	}
}
