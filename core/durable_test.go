package core

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/core/decisions"
)

const durableDoc = `mounts:
  /runbook:
    files: {README.md: "Incident runbook\n", frozen/restore.md: "1. page the on-call\n", notes.bak: "operator notes\n"}
  /small:
    size: 2KiB
  /scratch:
    persist: false
profiles:
  agent:
    cwd: /runbook
    commands:
      allow: [cat, ls, echo, rm, mkdir, mv, touch, head, wc, ln, cd, seq]
    paths:
      hide: [/runbook/*.bak]
`

// durableWorld is a document on disk and its ledger: every open is a
// process starting on it.
type durableWorld struct {
	t        *testing.T
	doc, db  string
	sessions int
}

func newDurableWorld(t *testing.T, doc string) *durableWorld {
	t.Helper()
	dir := t.TempDir()
	w := &durableWorld{t: t, doc: filepath.Join(dir, "workspace.yaml"), db: filepath.Join(dir, "ledger.db")}
	if err := os.WriteFile(w.doc, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// open starts a process: the workspace and an agent session in it.
func (w *durableWorld) open() (*Workspace, *Session) {
	w.t.Helper()
	ws, err := LoadWorkspace(w.doc, WithLedger(w.db))
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { ws.Close() })
	w.sessions++
	s, err := ws.CreateSession("agent", Profile("agent"))
	if err != nil {
		w.t.Fatal(err)
	}
	return ws, s
}

func mustRun(t *testing.T, s *Session, line, stdout string, code int) {
	t.Helper()
	res := s.Execute(context.Background(), line)
	if res.Stdout != stdout || res.ExitCode != code {
		t.Errorf("%s: exit %d stdout %q stderr %q; want exit %d stdout %q", line, res.ExitCode, res.Stdout, res.Stderr, code, stdout)
	}
}

// What an agent writes outlives the process, like a disk: files made,
// changed, moved and removed (seeded ones too) are there for the next
// process and for one already running; a persist: false mount is not kept.
func TestDurableMountsAcrossProcesses(t *testing.T) {
	t.Parallel()
	durableAcrossProcesses(t, newDurableWorld(t, durableDoc))
}

func durableAcrossProcesses(t *testing.T, w *durableWorld) {
	ws1, a := w.open()
	_, b := w.open() // already running when a writes
	mustRun(t, a, "echo draft > notes.txt && mkdir -p logs/today && echo x > logs/today/x && ln -s notes.txt latest && echo s > /scratch/s", "", 0)
	mustRun(t, a, "rm frozen/restore.md && mv README.md README.old", "", 0)
	mustRun(t, b, "cat latest logs/today/x; ls", "draft\nx\nREADME.old\nfrozen\nlatest\nlogs\nnotes.txt\n", 0)
	mustRun(t, b, "cat /scratch/s", "", 1)
	ws1.Close()
	_, c := w.open() // a restart
	mustRun(t, c, "cat notes.txt README.old; ls frozen | wc -l", "draft\nIncident runbook\n0\n", 0)
	mustRun(t, c, "cat /scratch/s", "", 1)
}

// Of two processes writing one file, the line that ends last wins; a
// process's own unsaved change is never overwritten by what it reads.
func TestDurableLastLineWins(t *testing.T) {
	t.Parallel()
	durableLastLineWins(t, newDurableWorld(t, durableDoc))
}

func durableLastLineWins(t *testing.T, w *durableWorld) {
	_, a := w.open()
	_, b := w.open()
	mustRun(t, a, "echo from-a > shared", "", 0)
	mustRun(t, b, "echo from-b > shared", "", 0)
	mustRun(t, a, "cat shared", "from-b\n", 0)
	mustRun(t, a, "echo a2 > shared; cat shared", "a2\n", 0)
	mustRun(t, b, "cat shared", "a2\n", 0)
}

// gatehouse reset --mounts: back to the document's seed, here at once and
// in a running process at its next line.
func TestDurableReset(t *testing.T) {
	t.Parallel()
	durableReset(t, newDurableWorld(t, durableDoc))
}

func durableReset(t *testing.T, w *durableWorld) {
	wsA, a := w.open()
	_, b := w.open()
	mustRun(t, a, "rm README.md; echo n > new.txt; echo s > /small/s", "", 0)
	if err := wsA.ResetMounts(context.Background(), "/runbook"); err != nil {
		t.Fatal(err)
	}
	mustRun(t, a, "cat README.md; ls", "Incident runbook\nREADME.md\nfrozen\n", 0)
	mustRun(t, b, "cat README.md; cat /small/s", "Incident runbook\ns\n", 0)
	if err := wsA.ResetMounts(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustRun(t, b, "ls /small | wc -l", "0\n", 0)
	if err := wsA.ResetMounts(context.Background(), "/scratch"); err == nil || !strings.Contains(err.Error(), "not a memory mount kept") {
		t.Errorf("reset of an ephemeral mount: %v", err)
	}
}

// After a reload the rules still hold: a hidden seeded file stays hidden
// (and, changed by the host, its change is kept hidden too), and a mount's
// size counts what the ledger gave back.
func TestDurableRulesHoldAfterReload(t *testing.T) {
	t.Parallel()
	w := newDurableWorld(t, durableDoc)
	ws, a := w.open()
	mustRun(t, a, "seq 1 300 > /small/big; wc -c < /small/big", "1092\n", 0)
	// The host (not the agent) changes the hidden file beside the gate.
	f, err := ws.VFS().View(nil).OpenFile("/runbook/notes.bak", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("more\n"))
	f.Close()
	ws.Close()
	_, b := w.open()
	mustRun(t, b, "ls; cat notes.bak", "README.md\nfrozen\n", 1)
	// 1,092 bytes fit an empty 2 KiB mount; not one that holds the
	// reloaded 1,092 already.
	if res := b.Execute(context.Background(), "seq 1 300 > /small/more"); res.ExitCode != 1 {
		t.Errorf("a write past the reloaded mount's size: %+v", res)
	}
	mustRun(t, b, "wc -c < /small/more", "0\n", 0)
}

// A file operation's changes are kept like a line's, and an approved rm
// of a seeded file stays removed (the ask's answer came from the ledger).
func TestDurableFileOpsAndApprovedRemoval(t *testing.T) {
	t.Parallel()
	const doc = `mounts:
  /runbook: {files: {old.log: "x\n"}}
profiles:
  agent:
    cwd: /runbook
    commands:
      allow: [rm, ls]
      ask: [{reason: removal needs sign-off, command: rm}]
`
	w := newDurableWorld(t, doc)
	ws, a := w.open()
	if _, err := a.WriteFile(context.Background(), "plan.md", "1. look\n"); err != nil {
		t.Fatal(err)
	}
	res := a.Execute(context.Background(), "rm old.log")
	if res.Refusal == nil || res.Refusal.Status != "pending" {
		t.Fatalf("rm did not ask: %+v", res)
	}
	if _, err := ws.Decisions().Answer(context.Background(), res.Refusal.AskID, decisions.Answer{Outcome: decisions.Allow, By: "test"}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, a, "rm old.log", "", 0)
	ws.Close()
	_, b := w.open()
	mustRun(t, b, "ls", "plan.md\n", 0)
}
