package postgres

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// escapeMark begins a stored value that is the base64 of the real bytes: a
// value holding NUL or invalid UTF-8 (which PostgreSQL's text refuses), or
// one that itself begins with \x01 (so no plain value is ever read as an
// escaped one).
const escapeMark = "\x01b64:"

// dbText is s as a text column stores it: itself when PostgreSQL takes it
// and it cannot be mistaken for an escaped value, else escaped. The
// mapping is one to one, so comparing stored values compares the strings.
func dbText(s string) string {
	if !strings.HasPrefix(s, "\x01") && utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s
	}
	return escapeMark + base64.StdEncoding.EncodeToString([]byte(s))
}

// goText undoes dbText.
func goText(s string) (string, error) {
	if !strings.HasPrefix(s, "\x01") {
		return s, nil
	}
	raw, ok := strings.CutPrefix(s, escapeMark)
	if !ok {
		return "", fmt.Errorf("stored text %q begins with \\x01 but is not escaped", s)
	}
	b, err := base64.StdEncoding.DecodeString(raw)
	return string(b), err
}

// decodeAll runs goText over every field, in place, and returns the first
// error.
func decodeAll(fields ...*string) error {
	for _, f := range fields {
		s, err := goText(*f)
		if err != nil {
			return err
		}
		*f = s
	}
	return nil
}

// digest is the hex SHA-256 of parts, each prefixed by its length, so no
// two lists of parts share a digest by moving a boundary. Indexes hold
// digests rather than lines, whose length an agent chooses.
func digest(parts ...string) string {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	for _, p := range parts {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(p)))])
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}
