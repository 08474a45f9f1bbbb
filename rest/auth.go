package rest

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"gatehouse/internal/hostfile"
	"gatehouse/store"
)

// TokenEnv overrides the token file for clients: a host answering a daemon
// on another machine has no file beside its own ledger to read.
const TokenEnv = "GATEHOUSE_TOKEN"

// TokenPath is where the daemon keeps the host token for the ledger at
// ledgerPath: the ledger's file name plus ".token", in the same directory
// (ledger.db -> ledger.db.token), so whoever may read the ledger's
// directory finds the token and one daemon per ledger owns one token.
func TokenPath(ledgerPath string) string { return ledgerPath + ".token" }

// LoadOrCreateToken returns the host token for the ledger at ledgerPath,
// generating it on the first start into a file only its owner can read.
// A token file that others can read is refused rather than used: anyone
// holding the token can approve any ask.
func LoadOrCreateToken(ledgerPath string) (string, error) {
	path := TokenPath(ledgerPath)
	if token, err := readTokenFile(path); !errors.Is(err, fs.ErrNotExist) {
		return token, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	// The whole token goes to a private temporary file, then is linked
	// into place: a daemon starting at the same moment either wins the
	// link or reads the complete token the other one linked, never half a
	// file.
	token := newToken()
	if err := hostfile.Create(path, []byte(token+"\n"), 0o600); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readTokenFile(path)
		}
		return "", fmt.Errorf("token: %w", err)
	}
	return token, nil
}

// ReadToken returns the host token a client presents to the daemon of the
// ledger at ledgerPath: $GATEHOUSE_TOKEN when set, else the token file. A
// ledger on a database server keeps only hashes, so its token comes from
// $GATEHOUSE_TOKEN alone.
func ReadToken(ledgerPath string) (string, error) {
	if token := strings.TrimSpace(os.Getenv(TokenEnv)); token != "" {
		return token, nil
	}
	if store.IsURL(ledgerPath) {
		return "", fmt.Errorf("the ledger %s keeps only a hash of its host token: set %s to the token `gatehouse serve` showed when it first started on it (`gatehouse token --rotate --db URL` issues a new one)",
			store.Redact(ledgerPath), TokenEnv)
	}
	token, err := readTokenFile(TokenPath(ledgerPath))
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("no host token at %s (start `gatehouse serve` on this ledger once, or set %s): %w",
			TokenPath(ledgerPath), TokenEnv, err)
	}
	return token, err
}

// ReadTokenFile returns the host token kept in the file beside the ledger
// at ledgerPath, ignoring $GATEHOUSE_TOKEN; errors wrap fs.ErrNotExist when
// there is none.
func ReadTokenFile(ledgerPath string) (string, error) { return readTokenFile(TokenPath(ledgerPath)) }

func readTokenFile(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("token: %s is readable by others (mode %04o); run chmod 600 on it", path, perm)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	token := strings.TrimSpace(string(data))
	if token == "" {
		return "", fmt.Errorf("token: %s is empty", path)
	}
	return token, nil
}

// hasToken reports whether a request carries the host token. The
// comparison takes the same time whatever the guess, so the token cannot be
// found a byte at a time; a ledger that keeps the tokens is asked about the
// token's hash, which says nothing of the token.
func (s *Server) hasToken(r *http.Request) bool {
	token := bearer(r)
	if token == "" {
		return false
	}
	if s.tokens != nil {
		ok, err := s.tokens.HasHostToken(r.Context(), HashToken(token))
		if err != nil {
			s.logger.Printf("checking a host token: %v", err)
		}
		return ok && err == nil
	}
	return subtle.ConstantTimeCompare([]byte(token), []byte(s.token)) == 1
}

// HashToken is what a ledger keeps of a host token: its SHA-256, in hex.
// Tokens are 256 random bits, so the hash cannot be turned back into one.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// IssueLedgerToken gives a ledger that keeps host tokens (one on a
// database server) its first token: on a ledger without one it returns a
// new token, now kept as a hash, for the caller to show once; on a ledger
// that has one it returns "", since only the hash is kept. Of daemons
// starting at once on a fresh ledger, exactly one gets a token.
func IssueLedgerToken(ctx context.Context, k store.HostTokens) (string, error) {
	token := newToken()
	kept, err := k.KeepHostToken(ctx, HashToken(token), false)
	if err != nil || !kept {
		return "", err
	}
	return token, nil
}

// RotateLedgerToken makes a new token the only one k keeps and returns it:
// every token issued before stops working, on every daemon of the ledger.
func RotateLedgerToken(ctx context.Context, k store.HostTokens) (string, error) {
	token := newToken()
	if _, err := k.KeepHostToken(ctx, HashToken(token), true); err != nil {
		return "", err
	}
	return token, nil
}

// requireToken lets a request through only with the host token.
func (s *Server) requireToken(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.hasToken(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="gatehouse"`)
			where := "the token is in the file beside the ledger"
			if s.tokens != nil {
				where = "the token `gatehouse serve` showed when it first started on this ledger"
			}
			writeError(w, http.StatusUnauthorized,
				"missing or wrong token: hosts send Authorization: Bearer TOKEN ("+where+")")
			return
		}
		next(w, r)
	}
}
