package rest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/core/decisions"
)

// TestClient: the CLI's --server door reads and answers asks, and its
// errors are the ledger's own, so the CLI words them as it does locally.
func TestClient(t *testing.T) {
	t.Parallel()
	d := newDaemon(t)
	sid := d.newSession(t, "agent-a", "guarded")
	first := d.pendingAsk(t, sid, askingLine(1))
	second := d.pendingAsk(t, sid, askingLine(2))
	c := &Client{BaseURL: d.http.URL, Token: testToken, HTTP: d.http.Client()}
	ctx := context.Background()

	queue, err := c.ListAsks(ctx, "", false)
	if err != nil || len(queue) != 2 || queue[0].ID != first || queue[1].ID != second {
		t.Fatalf("ListAsks = %+v, %v", queue, err)
	}
	rec, err := c.Allow(ctx, first, decisions.Session, "fine for today")
	if err != nil || rec.Outcome != decisions.Allow || rec.Scope != decisions.Session || rec.Note != "fine for today" {
		t.Fatalf("Allow = %+v, %v", rec, err)
	}
	rec, err = c.Deny(ctx, second, "")
	if err != nil || rec.Outcome != decisions.Deny || rec.Scope != decisions.Once {
		t.Fatalf("Deny = %+v, %v", rec, err)
	}
	if history, err := c.ListAsks(ctx, sid, true); err != nil || len(history) != 2 {
		t.Fatalf("ListAsks all = %+v, %v", history, err)
	}
	if got, err := c.GetAsk(ctx, first); err != nil || got.Outcome != decisions.Allow {
		t.Fatalf("GetAsk = %+v, %v", got, err)
	}

	// The session grant covers sid's archive reads now; ask in another.
	third := d.pendingAsk(t, d.newSession(t, "agent-b", "guarded"), askingLine(3))
	failures := []struct {
		name string
		call func() error
		want error
	}{
		{"unknown ask", func() error { _, err := c.Allow(ctx, "000000000000", "", ""); return err }, decisions.ErrNotFound},
		{"answered ask", func() error { _, err := c.Deny(ctx, first, ""); return err }, decisions.ErrAlreadyAnswered},
		{"invalid scope", func() error { _, err := c.Allow(ctx, third, "forever", ""); return err }, decisions.ErrInvalid},
		{"wrong token", func() error {
			bad := *c
			bad.Token = "guess"
			_, err := bad.ListAsks(ctx, "", false)
			return err
		}, ErrUnauthorized},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.call()
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			var se *StatusError
			if !errors.As(err, &se) || se.Message == "" {
				t.Errorf("error %#v carries no message from the daemon", err)
			}
		})
	}
}

// TestNewClientReadsTheTokenFile: a client finds the daemon's token beside
// the ledger, and accepts a bare host:port.
func TestNewClientReadsTheTokenFile(t *testing.T) {
	ledger := filepath.Join(t.TempDir(), "ledger.db")
	if _, err := NewClient("127.0.0.1:1", ledger); err == nil {
		t.Fatal("NewClient without a token file succeeded")
	}
	token, err := LoadOrCreateToken(ledger)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient("127.0.0.1:7878/", ledger)
	if err != nil || c.Token != token || c.BaseURL != "http://127.0.0.1:7878" {
		t.Fatalf("NewClient = %+v, %v", c, err)
	}
	t.Setenv(TokenEnv, "from-the-environment")
	if c, err := NewClient("http://h:1", ledger); err != nil || c.Token != "from-the-environment" {
		t.Fatalf("with %s: %+v, %v", TokenEnv, c, err)
	}
}

func TestTokenFile(t *testing.T) {
	t.Parallel()
	t.Run("made once, private, then reused", func(t *testing.T) {
		t.Parallel()
		ledger := filepath.Join(t.TempDir(), "sub", "ledger.db")
		first, err := LoadOrCreateToken(ledger)
		if err != nil {
			t.Fatal(err)
		}
		if len(first) != 64 {
			t.Errorf("token %q is not 32 random bytes in hex", first)
		}
		info, err := os.Stat(TokenPath(ledger))
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm != 0o600 {
			t.Errorf("token file mode %04o, want 0600", perm)
		}
		again, err := LoadOrCreateToken(ledger)
		if err != nil || again != first {
			t.Errorf("second start got %q, %v; want the first token", again, err)
		}
		if got, err := ReadToken(ledger); err != nil || got != first {
			t.Errorf("ReadToken = %q, %v", got, err)
		}
	})
	t.Run("a token others can read is refused", func(t *testing.T) {
		t.Parallel()
		ledger := filepath.Join(t.TempDir(), "ledger.db")
		if err := os.WriteFile(TokenPath(ledger), []byte("leaked\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(TokenPath(ledger), 0o644) // whatever the umask made of it
		if _, err := LoadOrCreateToken(ledger); err == nil {
			t.Fatal("a world-readable token was accepted")
		}
	})
	t.Run("daemons starting together agree", func(t *testing.T) {
		t.Parallel()
		ledger := filepath.Join(t.TempDir(), "ledger.db")
		tokens := make(chan string, 8)
		for range 8 {
			go func() {
				tok, err := LoadOrCreateToken(ledger)
				if err != nil {
					tok = err.Error()
				}
				tokens <- tok
			}()
		}
		want := <-tokens
		for range 7 {
			if got := <-tokens; got != want {
				t.Fatalf("tokens differ: %q and %q", want, got)
			}
		}
	})
}
