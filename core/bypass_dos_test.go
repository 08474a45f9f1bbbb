package core

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"gatehouse/store/sqlite"
)

// TestBypassSessionSurvivesOddSyntax: lines the fuzzer found (a function
// declaration without a name, "()0", kept in
// testdata/fuzz/FuzzPreflightGate) must neither panic Execute, which would
// take down every session of the host process, nor wedge the session: the
// next line still runs (G-12.3: the session survives).
func TestBypassSessionSurvivesOddSyntax(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, line := range []string{
		"()0",
		"echo a; ()0",
		"true && ()0",
		"eval '()0'",
		"bash -c '()0'",
		"echo $( ()0 )",
		"cat <( ()0 )",
	} {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			sh := bypassSession(t, db, bypassRealWorld)
			panicked := func() (p any) {
				defer func() { p = recover() }()
				sh.session.Execute(context.Background(), line)
				return nil
			}()
			if panicked != nil {
				t.Errorf("%q: Execute panicked: %v", line, panicked)
			}
			alive := make(chan string, 1)
			go func() { alive <- sh.session.Execute(context.Background(), "echo alive").Stdout }()
			select {
			case out := <-alive:
				if out != "alive\n" {
					t.Errorf("after %q, the next line printed %q", line, out)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("after %q, the session no longer runs lines (wedged)", line)
			}
		})
	}
}
