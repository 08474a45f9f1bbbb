package store

import (
	"crypto/rand"
	"encoding/hex"
)

// NewID is 48 random bits in 12 lowercase hex characters: the shape of ask
// ids (G-7.5) and of generated session ids. Implementations draw again when
// an id is taken.
func NewID() string {
	var b [6]byte
	rand.Read(b[:]) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b[:])
}

// ValidAskID reports whether id has the shape of an ask id: 12 lowercase hex
// characters (G-7.5).
func ValidAskID(id string) bool {
	if len(id) != 12 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
