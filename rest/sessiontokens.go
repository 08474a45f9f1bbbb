package rest

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"

	"gatehouse/store"
)

// sessionTokenPrefix starts every session token, so that a token pasted in
// the wrong place reads as what it is (and never as a host token).
const sessionTokenPrefix = "gst_"

// sessionKeyLabel separates the session key from every other use of the
// host token.
const sessionKeyLabel = "gatehouse session tokens\x00"

// newSessionKey is the key session tokens are derived with by a daemon
// whose ledger keeps no host tokens (a SQLite file, its token in the file
// beside it): an HMAC of a label under the host token, so that a daemon
// restarted on the same ledger (the same token file) accepts the tokens it
// handed out before, and the tokens say nothing about the host token
// itself.
func newSessionKey(hostToken string) []byte {
	mac := hmac.New(sha256.New, []byte(hostToken))
	mac.Write([]byte(sessionKeyLabel))
	return mac.Sum(nil)
}

// newRandomSessionKey is a fresh candidate for the key a ledger keeps.
func newRandomSessionKey() []byte {
	key := make([]byte, 32)
	rand.Read(key)
	return key
}

// currentSessionKey is the key session tokens are signed with now. A
// daemon on a ledger that keeps host tokens (one on a database server)
// reads the key the ledger keeps, shared by every daemon on it and kept
// across restarts, at every request, so that a revocation (`gatehouse token
// --revoke-sessions`) reaches running daemons at once; any other daemon
// derives it from its host token (newSessionKey).
func (s *Server) currentSessionKey(ctx context.Context) ([]byte, error) {
	if s.tokens == nil {
		return s.sessionKey, nil
	}
	return s.tokens.SessionKey(ctx, newRandomSessionKey(), false)
}

// sessionToken is the capability of the session with id (G-10.6): the
// HMAC of the id under the session key. Only the request that created the
// session is told it; every session-scoped request must bring it back (or
// the host token), so an agent that learns another session's id still
// cannot run lines in it or read what it does.
func sessionToken(key []byte, id string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	return sessionTokenPrefix + hex.EncodeToString(mac.Sum(nil))
}

// bearer is the token a request presents, "" for none.
func bearer(r *http.Request) string {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	// The scheme name is case-insensitive (RFC 9110, 11.1).
	if !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// holdsSession reports whether the request presents the token of the
// session with id, compared in constant time. A key that cannot be read
// holds nothing (and is logged).
func (s *Server) holdsSession(r *http.Request, id string) bool {
	token := bearer(r)
	if !strings.HasPrefix(token, sessionTokenPrefix) {
		return false
	}
	key, err := s.currentSessionKey(r.Context())
	if err != nil {
		s.logger.Printf("checking a session token: %v", err)
		return false
	}
	return subtle.ConstantTimeCompare([]byte(token), []byte(sessionToken(key, id))) == 1
}

// heldSessionID is the live session whose token the request presents, if
// any: what an agent's listing shows.
func (s *Server) heldSessionID(r *http.Request) (string, bool) {
	token := bearer(r)
	if !strings.HasPrefix(token, sessionTokenPrefix) {
		return "", false
	}
	key, err := s.currentSessionKey(r.Context())
	if err != nil {
		s.logger.Printf("checking a session token: %v", err)
		return "", false
	}
	for _, sess := range s.ws.Sessions() {
		if subtle.ConstantTimeCompare([]byte(token), []byte(sessionToken(key, sess.ID()))) == 1 {
			return sess.ID(), true
		}
	}
	return "", false
}

// RevokeSessionTokens gives the ledger k a new session key: every session
// token handed out before stops working on every daemon of the ledger at
// once (the host token still opens every session).
func RevokeSessionTokens(ctx context.Context, k store.HostTokens) error {
	_, err := k.SessionKey(ctx, newRandomSessionKey(), true)
	return err
}
