package storetest

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"gatehouse/store"
)

// runSessionKey checks the session key of a ledger that keeps host tokens
// (G-10.6): one key for every handle, kept across reopening, replaced only
// by a rotation. A ledger that keeps no host tokens (a SQLite file, whose
// token file beside it derives the key) skips it.
func runSessionKey(t *testing.T, open Opener) {
	t.Parallel()
	l, another := open(t)
	if _, ok := l.(store.HostTokens); !ok {
		t.Skip("the ledger keeps no host tokens")
	}
	ctx := context.Background()
	candidate := func(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }
	const daemons = 6
	handles := make([]store.HostTokens, daemons)
	for i := range handles {
		handles[i] = another(t).(store.HostTokens)
	}
	got := make([][]byte, daemons)
	var wg sync.WaitGroup
	for i := range daemons {
		wg.Go(func() {
			var err error
			if got[i], err = handles[i].SessionKey(ctx, candidate(byte('a'+i)), false); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i := range got {
		if !bytes.Equal(got[i], got[0]) || len(got[i]) != 32 {
			t.Fatalf("daemons starting at once got different keys: %q and %q", got[0], got[i])
		}
	}
	// A daemon started later (a restart) gets the same key, not its own.
	if key, err := another(t).(store.HostTokens).SessionKey(ctx, candidate('z'), false); err != nil || !bytes.Equal(key, got[0]) {
		t.Fatalf("after a restart: %q, %v; want %q", key, err, got[0])
	}
	// A rotation replaces it for every handle.
	if key, err := handles[1].SessionKey(ctx, candidate('r'), true); err != nil || !bytes.Equal(key, candidate('r')) {
		t.Fatalf("rotation: %q, %v", key, err)
	}
	if key, err := l.(store.HostTokens).SessionKey(ctx, candidate('y'), false); err != nil || !bytes.Equal(key, candidate('r')) {
		t.Fatalf("after the rotation another handle reads %q, %v", key, err)
	}
	if _, err := handles[2].SessionKey(ctx, []byte("short"), false); err == nil {
		t.Error("a 5-byte candidate was accepted")
	}
}
