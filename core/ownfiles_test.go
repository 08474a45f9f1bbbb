package core

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// ownFilesWorkspace loads a workspace whose document and ledger live
// inside the directory it mounts at /w, as a careless operator might lay
// them out: /w/workspace.yaml and /w/state/ledger.db (with its WAL and a
// token beside it), next to an ordinary project.
func ownFilesWorkspace(t *testing.T) (*Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"src/main.go":           "package main // TODO\n",
		"state/notes.txt":       "notes\n",
		"state/ledger.db.token": "TOKEN-MARKER\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	doc := filepath.Join(dir, "workspace.yaml")
	yaml := "# DOC-MARKER\nmounts:\n  /w:\n    source: host:.\nprofiles:\n  agent:\n    cwd: /w\n"
	if err := os.WriteFile(doc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := LoadWorkspace(doc, WithLedger(filepath.Join(dir, "state", "ledger.db")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, dir
}

// Gate-integrity class 12 (G-5.6): the ledger with its -wal/-shm, its
// token and the workspace document are never visible to an agent through a
// host mount that holds them, for every profile including unrestricted:
// not read, listed, found, searched, copied, written, moved or linked.
func TestOwnFilesAreNeverVisible_G5_6(t *testing.T) {
	// The agent's id lands in the ledger: a search for it must come back
	// empty although the ledger file holds it.
	const agentMarker = "AGENT-MARKER-7731"
	// Content markers; the names themselves may come back in an error
	// about the agent's own operand, as for any missing file.
	markers := []string{agentMarker, "TOKEN-MARKER", "DOC-MARKER", "SQLite format", "VISIBLE-MARKER"}
	lines := []string{
		"cat /w/state/ledger.db /w/state/ledger.db-wal /w/state/ledger.db-shm /w/state/ledger.db.token /w/workspace.yaml",
		"ls -la /w /w/state; ls -R /w",
		"find /w; find /w -name 'ledger*'",
		"grep -ra " + agentMarker + " /w; grep -rl . /w",
		"head -c 100 /w/state/ledger.db; wc -c /w/workspace.yaml",
		"cp -r /w /tmp/copy && grep -ra " + agentMarker + " /tmp/copy; ls -a /tmp/copy /tmp/copy/state",
		"cp /w/state/ledger.db /tmp/l; cat /tmp/l",
		"ln -s /w/state/ledger.db /w/state/l; cat /w/state/l",
		"cd /w/state && cat ledger.db-wal; cd /w && cat ./state/../workspace.yaml",
		"echo *; echo /w/state/*; echo /w/state/.*",
		"test -e /w/state/ledger.db && echo VISIBLE-MARKER; [ -f /w/workspace.yaml ] && echo VISIBLE-MARKER",
		"stat /w/state/ledger.db; du -a /w",
		"echo junk > /w/state/ledger.db-journal; cat /w/state/ledger.db-journal",
		"mv /w/state/notes.txt /w/state/ledger.db",
		"mv /w/state /w/moved; ls /w",
		"rm -f /w/state/ledger.db /w/workspace.yaml; rm -rf /w/state",
		"while read l; do echo \"$l\"; done < /w/workspace.yaml",
		"tac /w/state/ledger.db.token; sort /w/workspace.yaml",
	}
	for _, profile := range []string{"", "agent"} {
		t.Run("profile="+profile, func(t *testing.T) {
			ws, dir := ownFilesWorkspace(t)
			var opts []SessionOption
			if profile != "" {
				opts = append(opts, Profile(profile))
			}
			s, err := ws.CreateSession(agentMarker, opts...)
			if err != nil {
				t.Fatal(err)
			}
			// Listings name none of them.
			for line, want := range map[string]string{
				"ls -a /w/state": ". .. notes.txt",
				"ls -a /w":       ". .. src state",
				"find /w -name '*ledger*' -o -name 'workspace*'": "",
				"echo /w/state/.t* /w/w*":                        "/w/state/.t* /w/w*",
			} {
				res := s.Execute(context.Background(), line)
				if got := strings.Join(strings.Fields(res.Stdout), " "); got != want {
					t.Errorf("%s = %q (%s), want %q", line, got, res.Stderr, want)
				}
			}
			for _, line := range lines {
				res := s.Execute(context.Background(), line)
				for _, m := range markers {
					if strings.Contains(res.Stdout, m) || strings.Contains(res.Stderr, m) {
						t.Errorf("%q showed %q:\nstdout: %s\nstderr: %s", line, m, res.Stdout, res.Stderr)
					}
				}
			}
			// Nothing of gatehouse's was changed or made on the host.
			for _, name := range []string{"state/ledger.db", "workspace.yaml", "state/ledger.db.token"} {
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Fatalf("%s is gone: %v", name, err)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "state/ledger.db-journal")); err == nil {
				t.Fatal("an agent created a journal beside the ledger")
			}
			if _, err := ws.CreateSession("still-works"); err != nil {
				t.Fatalf("the ledger no longer works: %v", err)
			}
		})
	}
}

// The same holds for a workspace built in Go whose mount holds the ledger
// (no document), and whose profile hides nothing.
func TestOwnFilesAreNeverVisibleFromGo_G5_6(t *testing.T) {
	dir := t.TempDir()
	ws, err := NewWorkspace(nil, WithLedger(filepath.Join(dir, "ledger.db")),
		WithProfiles(gate.ProfileSpec{Name: "p"}))
	if err != nil {
		t.Fatal(err)
	}
	ws.Close()
	ws, err = NewWorkspace([]vfs.MountSpec{{Prefix: "/h", HostDir: dir}}, WithLedger(filepath.Join(dir, "ledger.db")),
		WithProfiles(gate.ProfileSpec{Name: "p"}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	s, err := ws.CreateSession("go", Profile("p"))
	if err != nil {
		t.Fatal(err)
	}
	if res := s.Execute(context.Background(), "ls -a /h; cat /h/ledger.db"); strings.Contains(res.Stdout, "ledger") || !strings.Contains(res.Stderr, "No such file") {
		t.Fatalf("ls/cat of the ledger's directory: %q / %q", res.Stdout, res.Stderr)
	}
}
