package vfs

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ownTree lays out a host directory holding gatehouse's own files under
// state/ (a ledger with its WAL and token, a temporary token file) and the
// workspace document at the top, next to ordinary files.
func ownTree(t *testing.T) (dir string, own []string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"state/ledger.db":        "SQLite format 3 LEDGER-SECRET",
		"state/ledger.db-wal":    "WAL-SECRET",
		"state/ledger.db.token":  "TOKEN-SECRET",
		"state/.token-123":       "TOKEN-SECRET",
		"state/notes.txt":        "ordinary notes\n",
		"workspace.yaml":         "mounts: DOC-SECRET\n",
		"src/main.go":            "package main\n",
		"deep/er/ledger.db":      "an ordinary file that shares a name\n",
		"state-of-the-art.md":    "readme\n",
		"state/ledger.db-unused": "not own: its own name is not on the list\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ledger := filepath.Join(dir, "state", "ledger.db")
	own = []string{ledger, ledger + "-wal", ledger + "-shm", ledger + "-journal", ledger + ".token",
		filepath.Join(dir, "state", ".token-*"), filepath.Join(dir, "workspace.yaml")}
	return dir, own
}

// G-5.6, gate-integrity class 12: gatehouse's own files are never visible
// through a host mount, whatever the path, and never writable, creatable,
// renamable or replaceable — for every profile, unrestricted included.
func TestHostConcealsOwnFiles_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		dir, own := ownTree(t)
		// The host links the ledger elsewhere and makes a link to it; an
		// agent's own link (made through the VFS) comes below.
		if err := os.Link(filepath.Join(dir, "state/ledger.db"), filepath.Join(dir, "src/hard")); err != nil {
			t.Fatal(err)
		}
		os.Symlink("../state/ledger.db-wal", filepath.Join(dir, "src/soft"))
		v := hostVFS(t, walk, MountSpec{Prefix: "/m", HostDir: dir})
		if err := v.Conceal(own...); err != nil {
			t.Fatal(err)
		}
		fsys := v.View(OpenDoor)
		if err := fsys.Symlink("/m/state/ledger.db.token", "/m/src/agent-link"); err != nil {
			t.Fatal(err)
		}

		if got := names(fsys, "/m/state"); got != "ledger.db-unused notes.txt" {
			t.Fatalf("ls state = %q; own files must not be listed", got)
		}
		if got := names(fsys, "/m"); got != "deep src state state-of-the-art.md" {
			t.Fatalf("ls / = %q; the document must not be listed", got)
		}
		if got := names(fsys, "/m/src"); got != "agent-link main.go soft" {
			t.Fatalf("ls src = %q; a hard link of the ledger must not be listed", got)
		}
		if got, err := readAll(fsys, "/m/deep/er/ledger.db"); err != nil || !strings.Contains(got, "ordinary") {
			t.Fatalf("a same-named file elsewhere is ordinary: %q, %v", got, err)
		}
		for _, p := range []string{
			"/m/state/ledger.db", "/m/state/ledger.db-wal", "/m/state/ledger.db.token", "/m/state/.token-123",
			"/m/workspace.yaml", "/m/src/hard", "/m/src/soft", "/m/src/agent-link", "/m/state/../state/ledger.db",
			"/m/state/ledger.db/x",
		} {
			if _, err := readAll(fsys, p); errnoOf(err) != syscall.ENOENT {
				t.Fatalf("cat %s = %v, want ENOENT", p, err)
			}
			if _, err := fsys.Stat(p); errnoOf(err) != syscall.ENOENT {
				t.Fatalf("stat %s = %v, want ENOENT", p, err)
			}
			// A link to an own file is an ordinary (dangling) link.
			if _, err := fsys.Lstat(p); errnoOf(err) != syscall.ENOENT && p != "/m/src/soft" && p != "/m/src/agent-link" {
				t.Fatalf("lstat %s = %v, want ENOENT", p, err)
			}
			if _, err := fsys.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
				t.Fatalf("opened %s for writing", p)
			}
		}
		// Creating an own name, replacing an own file, moving the
		// directory that holds them: Permission denied, as for a hidden
		// name (G-4.11).
		refusals := []struct {
			name string
			do   func() error
			want syscall.Errno
		}{
			{"create a journal", func() error { return writeAll(fsys, "/m/state/ledger.db-journal", "HOT") }, syscall.EACCES},
			{"create a shm", func() error { return fsys.Mkdir("/m/state/ledger.db-shm", 0o755) }, syscall.EACCES},
			{"link as the token", func() error { return fsys.Symlink("notes.txt", "/m/state/ledger.db.token") }, syscall.EACCES},
			{"overwrite the ledger", func() error { return writeAll(fsys, "/m/state/ledger.db", "x") }, syscall.EACCES},
			{"exclusive create", func() error {
				_, err := fsys.OpenFile("/m/state/ledger.db", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
				return err
			}, syscall.EACCES},
			{"replace by rename", func() error { return fsys.Rename("/m/state/notes.txt", "/m/state/ledger.db") }, syscall.EACCES},
			{"rename the ledger", func() error { return fsys.Rename("/m/state/ledger.db", "/m/x") }, syscall.ENOENT},
			{"rename its directory", func() error { return fsys.Rename("/m/state", "/m/moved") }, syscall.EACCES},
			{"remove the ledger", func() error { return fsys.Remove("/m/state/ledger.db") }, syscall.ENOENT},
			{"remove the document", func() error { return fsys.Remove("/m/workspace.yaml") }, syscall.ENOENT},
			{"chmod the token", func() error { return fsys.Chmod("/m/state/ledger.db.token", 0o644) }, syscall.ENOENT},
			{"touch the wal", func() error { return fsys.Chtimes("/m/state/ledger.db-wal", testEpoch, testEpoch) }, syscall.ENOENT},
			{"temp token name", func() error { return writeAll(fsys, "/m/state/.token-999", "x") }, syscall.EACCES},
		}
		for _, r := range refusals {
			if err := r.do(); errnoOf(err) != r.want {
				t.Fatalf("%s = %v, want %v", r.name, err, r.want)
			}
		}
		// Nothing changed on the host.
		for _, name := range []string{"state/ledger.db", "workspace.yaml"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || !strings.Contains(string(b), "SECRET") {
				t.Fatalf("%s on the host = %q, %v", name, b, err)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "state/ledger.db-journal")); err == nil {
			t.Fatal("a journal was created beside the ledger")
		}
		// Removing everything visible leaves a directory that still holds
		// the ledger: refused, and the ledger stays.
		for _, n := range []string{"notes.txt", "ledger.db-unused"} {
			if err := fsys.Remove("/m/state/" + n); err != nil {
				t.Fatal(err)
			}
		}
		if err := fsys.Remove("/m/state"); errnoOf(err) != syscall.EACCES {
			t.Fatalf("rmdir of the ledger's directory = %v, want EACCES", err)
		}
		if err := fsys.Mkdir("/m/empty", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := fsys.Rename("/m/empty", "/m/state"); errnoOf(err) != syscall.EACCES {
			t.Fatalf("mv of an empty directory over the ledger's = %v, want EACCES (not Directory not empty)", err)
		}
	})
}

// A host process renaming the directory that holds the ledger does not
// unmask it: the directory is known by identity, not by name.
func TestHostConcealmentSurvivesRenames_G5_6(t *testing.T) {
	bothResolvers(t, func(t *testing.T, walk bool) {
		dir, own := ownTree(t)
		v := hostVFS(t, walk, MountSpec{Prefix: "/m", HostDir: dir})
		if err := v.Conceal(own...); err != nil {
			t.Fatal(err)
		}
		fsys := v.View(OpenDoor)
		if err := os.Rename(filepath.Join(dir, "state"), filepath.Join(dir, "src/st")); err != nil {
			t.Fatal(err)
		}
		if got := names(fsys, "/m/src/st"); got != "ledger.db-unused notes.txt" {
			t.Fatalf("ls of the renamed directory = %q", got)
		}
		for _, p := range []string{"/m/src/st/ledger.db", "/m/src/st/ledger.db-wal", "/m/src/st/.token-123"} {
			if _, err := readAll(fsys, p); errnoOf(err) != syscall.ENOENT {
				t.Fatalf("cat %s after the host moved it = %v, want ENOENT", p, err)
			}
		}
		if err := writeAll(fsys, "/m/src/st/ledger.db-journal", "x"); errnoOf(err) != syscall.EACCES {
			t.Fatalf("creating a journal in the moved directory = %v, want EACCES", err)
		}
		// A new WAL (SQLite makes one after a checkpoint) is concealed by
		// its name in the ledger's directory although its inode is new.
		os.Remove(filepath.Join(dir, "src/st/ledger.db-wal"))
		os.WriteFile(filepath.Join(dir, "src/st/ledger.db-wal"), []byte("NEW-WAL"), 0o644)
		if _, err := readAll(fsys, "/m/src/st/ledger.db-wal"); errnoOf(err) != syscall.ENOENT {
			t.Fatalf("cat of a recreated WAL = %v, want ENOENT", err)
		}
		f, err := fsys.Open("/m/src/st")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, f)
		f.Close()
	})
}
