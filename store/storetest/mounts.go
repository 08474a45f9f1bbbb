package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/store"
)

func runMounts(t *testing.T, open Opener) {
	t.Run("saves are seen by other handles", func(t *testing.T) { t.Parallel(); mountsSaved(t, open) })
	t.Run("changes since a rev", func(t *testing.T) { t.Parallel(); mountsSince(t, open) })
	t.Run("workspaces are apart", func(t *testing.T) { t.Parallel(); mountsApart(t, open) })
	t.Run("reset", func(t *testing.T) { t.Parallel(); mountsReset(t, open) })
	t.Run("concurrent saves", func(t *testing.T) { t.Parallel(); mountsConcurrent(t, open) })
	t.Run("invalid", func(t *testing.T) { t.Parallel(); mountsInvalid(t, open) })
	t.Run("exact names and times", func(t *testing.T) { t.Parallel(); mountsExact(t, open) })
}

var when = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func file(mount, path, content string) store.MountFile {
	return store.MountFile{Mount: mount, Path: path, Kind: store.MountFileRegular, Mode: 0o644, ModTime: when, Data: []byte(content)}
}

func mustSave(t testing.TB, l store.Ledger, ws string, files ...store.MountFile) store.MountState {
	t.Helper()
	st, err := l.SaveMountFiles(bg, ws, files)
	if err != nil {
		t.Fatalf("SaveMountFiles: %v", err)
	}
	return st
}

func mustFiles(t testing.TB, l store.Ledger, ws string, after int64) ([]store.MountFile, store.MountState) {
	t.Helper()
	files, st, err := l.MountFiles(bg, ws, after)
	if err != nil {
		t.Fatalf("MountFiles: %v", err)
	}
	return files, st
}

// G-5.6: a save lands whole, each path keeps its latest row, and another
// handle (another process) reads exactly what was saved.
func mountsSaved(t *testing.T, open Opener) {
	l, another := open(t)
	if st, err := l.MountState(bg, "/ws.yaml"); err != nil || st != (store.MountState{}) {
		t.Fatalf("state of a workspace never saved = %+v, %v; want zero", st, err)
	}
	link := store.MountFile{Mount: "/runbook", Path: "latest", Kind: store.MountFileLink, Mode: 0o777, ModTime: when, Target: "notes.txt"}
	dir := store.MountFile{Mount: "/runbook", Path: "drafts", Kind: store.MountFileDir, Mode: 0o755, ModTime: when}
	gone := store.MountFile{Mount: "/runbook", Path: "README.md", Kind: store.MountFileGone, ModTime: when}
	empty := file("/runbook", "drafts/empty", "")
	st1 := mustSave(t, l, "/ws.yaml", file("/runbook", "notes.txt", "one\n"), link, dir, gone, empty)
	if st1.Rev != 1 {
		t.Errorf("first save rev %d, want 1", st1.Rev)
	}
	st2 := mustSave(t, l, "/ws.yaml", file("/runbook", "notes.txt", "two\n"))
	if st2.Rev <= st1.Rev || st2.Epoch != st1.Epoch {
		t.Errorf("second save %+v after %+v: rev must grow, epoch stay", st2, st1)
	}
	other := another(t)
	files, st := mustFiles(t, other, "/ws.yaml", 0)
	if st != st2 {
		t.Errorf("state read with the files = %+v, want %+v", st, st2)
	}
	want := []store.MountFile{gone, dir, empty, link, file("/runbook", "notes.txt", "two\n")}
	want[0].Rev, want[1].Rev, want[2].Rev, want[3].Rev, want[4].Rev = st1.Rev, st1.Rev, st1.Rev, st1.Rev, st2.Rev
	if len(files) != len(want) {
		t.Fatalf("files = %+v, want %+v", files, want)
	}
	for i := range want {
		if !sameFile(files[i], want[i]) {
			t.Errorf("file %d = %+v, want %+v", i, files[i], want[i])
		}
	}
	if st, err := other.MountState(bg, "/ws.yaml"); err != nil || st != st2 {
		t.Errorf("MountState from another handle = %+v, %v; want %+v", st, err, st2)
	}
	// Saving nothing changes nothing.
	if st, err := l.SaveMountFiles(bg, "/ws.yaml", nil); err != nil || st != st2 {
		t.Errorf("empty save = %+v, %v; want %+v unchanged", st, err, st2)
	}
}

func sameFile(a, b store.MountFile) bool {
	return a.Mount == b.Mount && a.Path == b.Path && a.Kind == b.Kind && a.Mode == b.Mode &&
		a.ModTime.Equal(b.ModTime) && bytes.Equal(a.Data, b.Data) && a.Target == b.Target && a.Rev == b.Rev
}

// A reader that applied the files up to a rev reads only what came after:
// each path once, as it stands now.
func mountsSince(t *testing.T, open Opener) {
	l, another := open(t)
	st1 := mustSave(t, l, "/ws.yaml", file("/m", "a", "1"), file("/m", "b", "1"))
	other := another(t)
	mustSave(t, other, "/ws.yaml", file("/m", "b", "2"))
	st3 := mustSave(t, other, "/ws.yaml", file("/m", "c", "3"), file("/m", "b", "3"))
	files, st := mustFiles(t, l, "/ws.yaml", st1.Rev)
	if st != st3 || len(files) != 2 || files[0].Path != "b" || string(files[0].Data) != "3" || files[1].Path != "c" {
		t.Errorf("changes after rev %d = %+v (state %+v); want b=3 and c at %+v", st1.Rev, files, st, st3)
	}
	if files, _ := mustFiles(t, l, "/ws.yaml", st3.Rev); len(files) != 0 {
		t.Errorf("changes after the latest rev = %+v, want none", files)
	}
}

func mountsApart(t *testing.T, open Opener) {
	l, _ := open(t)
	mustSave(t, l, "/a/ws.yaml", file("/m", "x", "a"))
	mustSave(t, l, "/b/ws.yaml", file("/m", "x", "b"))
	for ws, want := range map[string]string{"/a/ws.yaml": "a", "/b/ws.yaml": "b"} {
		files, st := mustFiles(t, l, ws, 0)
		if len(files) != 1 || string(files[0].Data) != want || st.Rev != 1 {
			t.Errorf("%s: %+v (state %+v), want x=%s at rev 1", ws, files, st, want)
		}
	}
	if _, err := l.ResetMounts(bg, "/a/ws.yaml"); err != nil {
		t.Fatal(err)
	}
	if files, _ := mustFiles(t, l, "/b/ws.yaml", 0); len(files) != 1 {
		t.Errorf("resetting one workspace touched another: %+v", files)
	}
}

// gatehouse reset --mounts: the files go (of the mounts named, or all),
// and the epoch grows so processes reload.
func mountsReset(t *testing.T, open Opener) {
	l, another := open(t)
	before := mustSave(t, l, "/ws.yaml", file("/m", "a", "1"), file("/n", "b", "1"))
	other := another(t)
	st, err := other.ResetMounts(bg, "/ws.yaml", "/m")
	if err != nil || st.Epoch <= before.Epoch || st.Rev <= before.Rev {
		t.Fatalf("ResetMounts(/m) = %+v, %v; want epoch and rev past %+v", st, err, before)
	}
	files, now := mustFiles(t, l, "/ws.yaml", 0)
	if now != st || len(files) != 1 || files[0].Mount != "/n" {
		t.Errorf("after resetting /m: %+v (state %+v), want only /n's file", files, now)
	}
	st, err = l.ResetMounts(bg, "/ws.yaml")
	if files, _ := mustFiles(t, l, "/ws.yaml", 0); err != nil || len(files) != 0 {
		t.Errorf("after resetting all: %+v, %v", files, err)
	}
	if after := mustSave(t, l, "/ws.yaml", file("/m", "a", "2")); after.Epoch != st.Epoch || after.Rev <= st.Rev {
		t.Errorf("a save after a reset = %+v, want epoch %d and a rev past %d", after, st.Epoch, st.Rev)
	}
	if _, err := l.ResetMounts(bg, ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("reset of no workspace = %v, want ErrInvalid", err)
	}
}

// Saves racing on several handles each get their own rev, and the last
// committed row of a path is the one that stands.
func mountsConcurrent(t *testing.T, open Opener) {
	first, another := open(t)
	ledgers := []store.Ledger{first, another(t), another(t)}
	const each = 10
	var wg sync.WaitGroup
	revs := make(chan int64, len(ledgers)*each)
	for i, l := range ledgers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				st, err := l.SaveMountFiles(bg, "/ws.yaml", []store.MountFile{
					file("/m", "shared", fmt.Sprintf("%d.%d", i, j)), file("/m", fmt.Sprintf("own-%d-%d", i, j), "x")})
				if err != nil {
					t.Error(err)
					return
				}
				revs <- st.Rev
			}
		}()
	}
	wg.Wait()
	close(revs)
	seen := map[int64]bool{}
	for r := range revs {
		if seen[r] {
			t.Errorf("rev %d handed out twice", r)
		}
		seen[r] = true
	}
	files, st := mustFiles(t, first, "/ws.yaml", 0)
	if len(files) != len(ledgers)*each+1 || st.Rev != int64(len(ledgers)*each) {
		t.Fatalf("%d files at %+v, want %d at rev %d", len(files), st, len(ledgers)*each+1, len(ledgers)*each)
	}
	for _, f := range files {
		if f.Path == "shared" && f.Rev != st.Rev {
			t.Errorf("the shared path's row is from rev %d, not the last save %d", f.Rev, st.Rev)
		}
	}
}

func mountsInvalid(t *testing.T, open Opener) {
	l, _ := open(t)
	for _, f := range []store.MountFile{
		{Mount: "", Path: "a", Kind: store.MountFileRegular},
		{Mount: "/m", Path: "", Kind: store.MountFileRegular},
		{Mount: "/m", Path: "/abs", Kind: store.MountFileRegular},
		{Mount: "/m", Path: "a", Kind: "fifo"},
	} {
		if _, err := l.SaveMountFiles(bg, "/ws.yaml", []store.MountFile{file("/m", "ok", "1"), f}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("saving %+v = %v, want ErrInvalid", f, err)
		}
	}
	if files, st := mustFiles(t, l, "/ws.yaml", 0); len(files) != 0 || st.Rev != 0 {
		t.Errorf("a refused save wrote %+v (state %+v)", files, st)
	}
	if _, err := l.SaveMountFiles(bg, "", []store.MountFile{file("/m", "a", "1")}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("saving for no workspace = %v, want ErrInvalid", err)
	}
}

// Names and times come back exactly as saved: any bytes in a mount or path
// (invalid UTF-8, a path longer than any index entry), the nanosecond of a
// modification time, and, when one save names a path twice, its last entry.
func mountsExact(t *testing.T, open Opener) {
	l, another := open(t)
	odd := file("/m", "caf\xe9/\x01x", "latin-1")
	odd.ModTime = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
	long := file("/m", strings.Repeat("d/", 3000)+"leaf", "deep")
	old := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	ancient := store.MountFile{Mount: "/m", Path: "Z", Kind: store.MountFileLink, Mode: 0o777, ModTime: old, Target: "\xff\x01target"}
	st := mustSave(t, l, "/ws\xff.yaml", file("/m", "twice", "first"), odd, long, ancient, file("/m", "twice", "last"))
	files, _ := mustFiles(t, another(t), "/ws\xff.yaml", 0)
	want := []store.MountFile{ancient, odd, long, file("/m", "twice", "last")}
	for i := range want {
		want[i].Rev = st.Rev
	}
	if len(files) != len(want) {
		t.Fatalf("files = %d, want %d: %+v", len(files), len(want), files)
	}
	for i := range want {
		if !sameFile(files[i], want[i]) {
			t.Errorf("file %d = %q %q %v, want %q %q %v", i, files[i].Path, files[i].Data, files[i].ModTime, want[i].Path, want[i].Data, want[i].ModTime)
		}
	}
}
