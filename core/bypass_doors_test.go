package core

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/core/bypasstest"
	"gatehouse/store"
	"gatehouse/store/sqlite"
)

// The file corpus through the Session's two ways to a file: its file
// operations (G-11.6) and shell lines doing the same (G-4, G-6). MCP and
// REST run it through their own doors (mcp/, rest/).

func TestBypassFileOperations(t *testing.T) {
	bypasstest.RunFiles(t, sessionOpener(t, func(s *Session) bypasstest.Door { return fileOpsDoor{s} }))
}

func TestBypassFileLines(t *testing.T) {
	bypasstest.RunFiles(t, sessionOpener(t, func(s *Session) bypasstest.Door { return bypassLineDoor{s} }))
}

// sessionOpener builds worlds sharing one ledger file, each with the
// intruder's session behind the door door makes.
func sessionOpener(t *testing.T, door func(*Session) bypasstest.Door) bypasstest.Opener {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return func(t *testing.T, w bypasstest.World) bypasstest.Opened {
		ws, hostRoot := openBypassWorld(t, db, w)
		s, err := ws.CreateSession("intruder", Profile(bypasstest.ProfileName))
		if err != nil {
			t.Fatal(err)
		}
		return bypasstest.Opened{Door: door(s), FS: ws.VFS().View(nil), HostRoot: hostRoot}
	}
}

// openBypassWorld builds world w as a workspace on db, with its links laid.
func openBypassWorld(t *testing.T, db store.Ledger, w bypasstest.World) (*Workspace, string) {
	t.Helper()
	hostRoot := t.TempDir()
	ws, err := NewWorkspace(bypasstest.Mounts(t, w, hostRoot), WithProfiles(bypasstest.Profile(w)),
		WithStore(db), WithLimits(Limits{WallTime: 10 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	bypasstest.LayLinks(t, ws.VFS().View(nil), w)
	return ws, hostRoot
}

// fileOpsDoor does an attempt with the Session's file operation of the
// same name and shows everything it returned (times aside: two worlds are
// built at two moments).
type fileOpsDoor struct{ s *Session }

func (d fileOpsDoor) Do(t *testing.T, a bypasstest.FileAttempt) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var b strings.Builder
	var err error
	switch a.Op {
	case bypasstest.ReadFile:
		var text FileText
		text, err = d.s.ReadFile(ctx, a.Path, FileWindow{})
		fmt.Fprintf(&b, "%s%d lines\n", text.Numbered(), text.Total)
	case bypasstest.WriteFile:
		var done FileWrite
		done, err = d.s.WriteFile(ctx, a.Path, a.Content)
		fmt.Fprintf(&b, "%+v\n", done)
	case bypasstest.EditFile:
		var done FileEdit
		done, err = d.s.EditFile(ctx, a.Path, Edit{Old: a.Old, New: a.New})
		fmt.Fprintf(&b, "%+v\n", done)
	case bypasstest.ListDir:
		var list []FileInfo
		list, err = d.s.ListDir(ctx, a.Path)
		for _, fi := range list {
			b.WriteString(timeless(fi))
		}
	case bypasstest.StatFile:
		var fi FileInfo
		fi, err = d.s.Stat(ctx, a.Path)
		b.WriteString(timeless(fi))
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		if fe, ok := err.(*FileError); ok {
			rec, _ := json.Marshal(fe.Refusal)
			fmt.Fprintf(&b, "exit %d refusal %s\n", fe.ExitCode, rec)
		}
	}
	return b.String()
}

func timeless(fi FileInfo) string {
	return fmt.Sprintf("%s %s dir=%v link=%v -> %q %d %v\n", fi.Name, fi.Path, fi.Dir, fi.Link, fi.Target, fi.Size, fi.Mode)
}

// bypassLineDoor does an attempt as the shell line that does the same.
type bypassLineDoor struct{ s *Session }

func (d bypassLineDoor) Do(t *testing.T, a bypasstest.FileAttempt) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := d.s.Execute(ctx, a.Line())
	rec, _ := json.Marshal(res.Refusals)
	return fmt.Sprintf("stdout=%q\nstderr=%q\nexit=%d\nrefusals=%s\n", res.Stdout, res.Stderr, res.ExitCode, rec)
}

// TestBypassFileSelfCheck: without rules the file corpus's attempts get
// through and the judges see it, so their silence under the profile means
// something.
func TestBypassFileSelfCheck(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("the self-check doubles the corpus's cost, and checks the judges, not concurrency")
	}
	bypasstest.SelfCheckFiles(t, sessionOpener(t, func(s *Session) bypasstest.Door { return fileOpsDoor{s} }))
}
