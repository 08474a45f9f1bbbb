package rest

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"
)

// sessionTokenPrefix starts every session token, so that a token pasted in
// the wrong place reads as what it is (and never as a host token).
const sessionTokenPrefix = "gst_"

// sessionKeyLabel separates the session key from every other use of the
// host token.
const sessionKeyLabel = "gatehouse session tokens\x00"

// newSessionKey is the key session tokens are derived with: an HMAC of a
// label under the host token, so that a daemon restarted on the same
// ledger (the same token file) accepts the tokens it handed out before,
// and the tokens say nothing about the host token itself.
func newSessionKey(hostToken string) []byte {
	mac := hmac.New(sha256.New, []byte(hostToken))
	mac.Write([]byte(sessionKeyLabel))
	return mac.Sum(nil)
}

// sessionToken is the capability of the session with id (G-10.6): the
// HMAC of the id under the daemon's session key. Only the request that
// created the session is told it; every session-scoped request must bring
// it back (or the host token), so an agent that learns another session's
// id still cannot run lines in it or read what it does.
func (s *Server) sessionToken(id string) string {
	mac := hmac.New(sha256.New, s.sessionKey)
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
// session with id, compared in constant time.
func (s *Server) holdsSession(r *http.Request, id string) bool {
	token := bearer(r)
	if !strings.HasPrefix(token, sessionTokenPrefix) {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(token), []byte(s.sessionToken(id))) == 1
}

// heldSessionID is the live session whose token the request presents, if
// any: what an agent's listing shows.
func (s *Server) heldSessionID(r *http.Request) (string, bool) {
	if !strings.HasPrefix(bearer(r), sessionTokenPrefix) {
		return "", false
	}
	for _, sess := range s.ws.Sessions() {
		if s.holdsSession(r, sess.ID()) {
			return sess.ID(), true
		}
	}
	return "", false
}
