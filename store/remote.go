package store

import (
	"context"
	"net/url"
	"strings"
)

// IsURL reports whether name names a ledger on a database server
// ("postgres://…" or "postgresql://…") rather than a SQLite file. Every
// place a ledger is named (--db, $GATEHOUSE_DB) takes either; a name that
// is not such a URL is a path (G-10.7).
func IsURL(name string) bool {
	scheme, _, ok := strings.Cut(name, "://")
	if !ok {
		return false
	}
	scheme = strings.ToLower(scheme)
	return scheme == "postgres" || scheme == "postgresql"
}

// Redact is name fit to print: a URL's password (in its user part or its
// query) is replaced by "xxxxx"; a path comes back as it is.
func Redact(name string) string {
	if !IsURL(name) {
		return name
	}
	u, err := url.Parse(name)
	if err != nil {
		// Unparseable: say what it is without guessing where a secret ends.
		scheme, _, _ := strings.Cut(name, "://")
		return scheme + "://…"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// HostTokens is kept by a ledger that has no file beside it to hold the
// host token (a ledger on a database server): the token lives in the
// ledger itself, as a hash, so that every daemon on the ledger accepts the
// same token and nobody who reads the database learns it (G-10.6, G-10.7).
// Package rest makes tokens and hashes them; the ledger keeps hashes only.
type HostTokens interface {
	// KeepHostToken stores hash as the ledger's host token when the ledger
	// has none yet and reports whether it did: of daemons starting at once
	// on a fresh ledger, exactly one keeps its token. With replace, hash
	// becomes the only token, whatever was kept before (rotation).
	KeepHostToken(ctx context.Context, hash string, replace bool) (kept bool, err error)

	// HasHostToken reports whether hash is the hash of a token the ledger
	// keeps.
	HasHostToken(ctx context.Context, hash string) (bool, error)

	// SessionKey returns the key session tokens are signed with, shared
	// by every daemon on the ledger and kept across restarts. A ledger
	// without one keeps candidate (at least 32 random bytes) and returns
	// it; of daemons asking at once, all get the one key kept. With
	// replace, candidate becomes the key whatever was kept before, which
	// revokes every session token signed with the old one.
	SessionKey(ctx context.Context, candidate []byte, replace bool) ([]byte, error)
}
