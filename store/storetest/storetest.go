// Package storetest is the conformance suite of package store's Ledger
// interface, which every implementation runs (as testing/fstest.TestFS is
// for fs.FS), and helpers that open throwaway SQLite ledgers for tests of
// the packages built on it.
package storetest

import (
	"context"
	"path/filepath"
	"testing"

	"gatehouse/store"
	"gatehouse/store/sqlite"
)

// Opener opens a fresh, empty ledger for one test and returns it with a
// function that opens another handle on the same data, standing in for a
// second process. The opener closes every handle it made when the test
// ends.
type Opener func(t testing.TB) (first store.Ledger, another func(t testing.TB) store.Ledger)

// Run checks an implementation against the Ledger contract: asks and the
// one-ask-per-question rule, answers and the grants they leave, claims
// across handles, sessions, changes seen from other handles, the files of
// durable memory mounts, the session key of a ledger that keeps host
// tokens, and the edges (odd bytes, long lines, many writers
// at once). Every subtest runs in parallel on its own ledger.
func Run(t *testing.T, open Opener) {
	t.Run("asks", func(t *testing.T) { runAsks(t, open) })
	t.Run("answers", func(t *testing.T) { runAnswers(t, open) })
	t.Run("grants", func(t *testing.T) { runGrants(t, open) })
	t.Run("sessions", func(t *testing.T) { runSessions(t, open) })
	t.Run("changes", func(t *testing.T) { runChanges(t, open) })
	t.Run("mounts", func(t *testing.T) { runMounts(t, open) })
	t.Run("edges", func(t *testing.T) { runEdges(t, open) })
	t.Run("session key", func(t *testing.T) { runSessionKey(t, open) })
}

// SQLite is the Opener of the SQLite implementation: a fresh file in the
// test's temporary directory.
func SQLite(opts ...sqlite.Option) Opener {
	return func(t testing.TB) (store.Ledger, func(testing.TB) store.Ledger) {
		first := MustOpen(t, opts...)
		return first, func(t testing.TB) store.Ledger { return MustOpenFile(t, first.Path(), opts...) }
	}
}

// MustOpen opens a fresh SQLite ledger in the test's temporary directory
// and closes it when the test ends. It fails the test if the file cannot
// be opened.
func MustOpen(tb testing.TB, opts ...sqlite.Option) *sqlite.Ledger {
	tb.Helper()
	return MustOpenFile(tb, filepath.Join(tb.TempDir(), "ledger.db"), opts...)
}

// MustOpenFile opens the SQLite ledger at path, which may already be open
// through another handle: two handles on one file stand in for two
// processes.
func MustOpenFile(tb testing.TB, path string, opts ...sqlite.Option) *sqlite.Ledger {
	tb.Helper()
	l, err := sqlite.Open(path, opts...)
	if err != nil {
		tb.Fatalf("open ledger %s: %v", path, err)
	}
	tb.Cleanup(func() {
		if err := l.Close(); err != nil {
			tb.Errorf("close ledger %s: %v", path, err)
		}
	})
	return l
}

var bg = context.Background()

// RmKey is the grant key of the rule Question's record names.
const RmKey = "workspace.yaml:12:11|rm"

// Question is the record the gate would raise for `rm notes.txt` at place
// of line in session: one rule (key RmKey), facts "f1".
func Question(session, line, place string) store.Record {
	return store.Record{
		SessionID: session,
		AgentID:   "agent_" + session,
		Command:   "rm notes.txt",
		Argv:      []string{"rm", "notes.txt"},
		Cwd:       "/runbook",
		Paths:     []string{"/runbook/notes.txt"},
		Reason:    "removal needs sign-off",
		Rule:      "workspace.yaml:12:11",
		Policy:    "profile:responder",
		Rules: []store.AskRule{{Reason: "removal needs sign-off", Rule: "workspace.yaml:12:11",
			Policy: "profile:responder", Paths: []string{}, Key: RmKey}},
		Line:  line,
		Place: place,
		Facts: "f1",
	}
}

func mustRaise(t testing.TB, l store.Ledger, rec store.Record) store.Record {
	t.Helper()
	raised, _, err := l.RaiseAsk(bg, rec)
	if err != nil {
		t.Fatalf("RaiseAsk: %v", err)
	}
	return raised
}

// allowOnce, allowSession and denyOnce are the settlements package
// decisions writes for the three answers.
var (
	allowOnce    = store.Settlement{Outcome: store.Allow, Scope: store.Once, Grant: store.GrantOnce}
	allowSession = store.Settlement{Outcome: store.Allow, Scope: store.Session, Grant: store.GrantSession}
	denyOnce     = store.Settlement{Outcome: store.Deny, Scope: store.Once, Grant: store.GrantDeny}
)

func mustAnswer(t testing.TB, l store.Ledger, id string, s store.Settlement) store.Record {
	t.Helper()
	settled, err := l.AnswerAsk(bg, id, s)
	if err != nil {
		t.Fatalf("AnswerAsk(%s, %+v): %v", id, s, err)
	}
	return settled
}

func ids(recs []store.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func questionOf(rec store.Record) store.Question {
	return store.Question{SessionID: rec.SessionID, Line: rec.Line, Place: rec.Place, Facts: rec.Facts}
}
