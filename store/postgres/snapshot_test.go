package postgres_test

import (
	"errors"
	"io/fs"
	"reflect"
	"testing"
	"time"

	"gatehouse/store"
	"gatehouse/store/postgres/pgtest"
	"gatehouse/store/storetest"
)

// fillLedger gives l a bit of everything a ledger keeps: sessions, asks
// pending, closed and answered every way, and grants available, claimed,
// spent and for the session.
func fillLedger(t *testing.T, l store.Ledger) {
	t.Helper()
	for _, s := range []store.SessionRow{{ID: "s1", AgentID: "a", Profile: "p", Cwd: "/x"}, {ID: "s2"}} {
		if _, err := l.CreateSession(bg, s); err != nil {
			t.Fatal(err)
		}
	}
	raise := func(session, place string) store.Record {
		rec, _, err := l.RaiseAsk(bg, storetest.Question(session, "rm a", place))
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	answer := func(rec store.Record, s store.Settlement) {
		if _, err := l.AnswerAsk(bg, rec.ID, s); err != nil {
			t.Fatal(err)
		}
	}
	raise("s1", "0") // pending
	if err := l.CloseAsk(bg, raise("s1", "1").ID, "cancelled"); err != nil {
		t.Fatal(err)
	}
	once := raise("s1", "2")
	answer(once, store.Settlement{Outcome: store.Allow, Scope: store.Once, Note: "go", By: "cli", Grant: store.GrantOnce})
	claimed := raise("s1", "3")
	answer(claimed, store.Settlement{Outcome: store.Allow, Scope: store.Once, Grant: store.GrantOnce})
	if _, ok, err := l.ClaimGrant(bg, question(claimed), "line-1"); err != nil || !ok {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	spent := raise("s2", "0")
	answer(spent, store.Settlement{Outcome: store.Deny, Scope: store.Once, Grant: store.GrantDeny})
	g, _, _ := l.ClaimGrant(bg, question(spent), "line-2")
	if err := l.SpendGrants(bg, g.ID); err != nil {
		t.Fatal(err)
	}
	answer(raise("s2", "1"), store.Settlement{Outcome: store.Allow, Scope: store.Session, Grant: store.GrantSession})

	// Durable mount files of two workspaces (G-5.6): a reset, then saves of
	// every kind, so revs, epochs and rows all carry over.
	mtime := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
	saves := []struct {
		ws    string
		files []store.MountFile
	}{
		{"/w/one.yaml", []store.MountFile{{Mount: "/m", Path: "gone", Kind: store.MountFileRegular, Mode: 0o644, ModTime: mtime, Data: []byte("x")}}},
		{"/w/two.yaml", []store.MountFile{{Mount: "/n", Path: "a", Kind: store.MountFileRegular, Mode: 0o600, ModTime: mtime, Data: []byte("two")}}},
		{"", nil}, // reset /w/one.yaml
		{"/w/one.yaml", []store.MountFile{
			{Mount: "/m", Path: "notes.txt", Kind: store.MountFileRegular, Mode: 0o644, ModTime: mtime, Data: []byte("one\n")},
			{Mount: "/m", Path: "d", Kind: store.MountFileDir, Mode: 0o755 | uint32(fs.ModeDir), ModTime: mtime},
			{Mount: "/m", Path: "l", Kind: store.MountFileLink, Mode: 0o777, ModTime: mtime, Target: "notes.txt"},
			{Mount: "/m", Path: "README", Kind: store.MountFileGone, ModTime: mtime},
		}},
	}
	for _, save := range saves {
		var err error
		if save.ws == "" {
			_, err = l.ResetMounts(bg, "/w/one.yaml")
		} else {
			_, err = l.SaveMountFiles(bg, save.ws, save.files)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func question(rec store.Record) store.Question {
	return store.Question{SessionID: rec.SessionID, Line: rec.Line, Place: rec.Place, Facts: rec.Facts}
}

// toMicroseconds is snap with every time cut to the microsecond, the
// resolution a PostgreSQL ledger keeps.
func toMicroseconds(snap *store.Snapshot) *store.Snapshot {
	cut := func(t *time.Time) {
		if !t.IsZero() {
			*t = t.Truncate(time.Microsecond)
		}
	}
	out := *snap
	out.Sessions = append([]store.SessionRow(nil), snap.Sessions...)
	out.Asks = append([]store.SavedAsk(nil), snap.Asks...)
	out.Grants = append([]store.Grant(nil), snap.Grants...)
	for i := range out.Sessions {
		cut(&out.Sessions[i].CreatedAt)
	}
	for i := range out.Asks {
		cut(&out.Asks[i].Record.CreatedAt)
		cut(&out.Asks[i].Record.AnsweredAt)
		cut(&out.Asks[i].ClosedAt)
	}
	for i := range out.Grants {
		cut(&out.Grants[i].CreatedAt)
		cut(&out.Grants[i].ClaimedAt)
		cut(&out.Grants[i].SpentAt)
	}
	return &out
}

// G-10.7: `gatehouse migrate`'s copy: a SQLite ledger imported into an
// empty PostgreSQL one exports the same rows (times to the microsecond),
// and the copy goes on as the original would: the pending question is the
// same ask, a claimed grant stays claimed, new revs and grant ids follow
// the copied ones. A ledger in use is not written over.
func TestImportSQLiteLedger(t *testing.T) {
	t.Parallel()
	src := storetest.MustOpen(t)
	fillLedger(t, src)
	snap, err := src.Export(bg)
	if err != nil {
		t.Fatal(err)
	}
	snap.HostTokenHashes = []string{"token-hash"}
	dst := openURL(t, pgtest.Shared(t).Schema(t))
	if err := dst.Import(bg, snap); err != nil {
		t.Fatal(err)
	}
	back, err := dst.Export(bg)
	if err != nil {
		t.Fatal(err)
	}
	if want := toMicroseconds(snap); !reflect.DeepEqual(back, want) {
		t.Fatalf("exported after import:\n%+v\nwant\n%+v", back, want)
	}
	if ok, _ := dst.HasHostToken(bg, "token-hash"); !ok {
		t.Error("the host token's hash did not carry over")
	}

	pending := snap.Asks[0].Record
	again, raised, err := dst.RaiseAsk(bg, storetest.Question("s1", "rm a", "0"))
	if err != nil || raised || again.ID != pending.ID {
		t.Errorf("raising the pending question = %s (raised %v), %v; want ask %s", again.ID, raised, err, pending.ID)
	}
	claimed := snap.Asks[3].Record
	if _, ok, _ := dst.ClaimGrant(bg, question(claimed), "line-9"); ok {
		t.Error("a grant claimed before the copy was claimed again")
	}
	lastRev, _ := src.Revision(bg)
	fresh, _, err := dst.RaiseAsk(bg, storetest.Question("s3", "rm b", "0"))
	if err != nil {
		t.Fatal(err)
	}
	changes, _ := dst.ChangesSince(bg, lastRev)
	if len(changes) != 1 || changes[0].Record.ID != fresh.ID {
		t.Errorf("changes after the copied ones = %+v, want only the new ask", changes)
	}
	if _, err := dst.AnswerAsk(bg, fresh.ID, store.Settlement{Outcome: store.Allow, Scope: store.Once, Grant: store.GrantOnce}); err != nil {
		t.Fatal(err)
	}
	grants, _ := dst.ListGrants(bg, "s3")
	if last := snap.Grants[len(snap.Grants)-1].ID; len(grants) != 1 || grants[0].ID <= last {
		t.Errorf("new grant ids %+v, want one after %d", grants, last)
	}
	if len(snap.Mounts) != 2 || len(snap.Mounts[0].Files) != 4 {
		t.Errorf("the snapshot's mount files = %+v, want two workspaces, 4 files in the first", snap.Mounts)
	}
	st, err := dst.SaveMountFiles(bg, "/w/one.yaml", []store.MountFile{{Mount: "/m", Path: "new", Kind: store.MountFileDir, ModTime: time.Now()}})
	if want := snap.Mounts[0].State; err != nil || st.Rev != want.Rev+1 || st.Epoch != want.Epoch {
		t.Errorf("a save after the copy = %+v, %v; want the rev after %+v", st, err, want)
	}
	if err := dst.Import(bg, snap); !errors.Is(err, store.ErrExists) {
		t.Errorf("a second import = %v, want ErrExists", err)
	}
}
