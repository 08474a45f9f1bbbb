package git_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// raceLines are what the racing session runs again and again: every git
// command that writes a tracked directory's files (d/objects/zz/marker,
// d/index) while something flips d between that directory and a link to
// .git.
const raceLines = "for i in 1 2 3 4 5 6 7 8; do git checkout -- d; git reset -q --hard; git stash -q; git stash pop -q; done 2>/dev/null; true"

// plantLine commits d/objects/zz/marker and d/index (a copy of the
// index): were one of git's work-tree writes steered through a link to
// .git, the marker would land in the object store and the copy over the
// index.
const plantLine = prepare + "mkdir -p d/objects/zz; echo planted > d/objects/zz/marker; echo a > a.txt; git add -A; git commit -qm one; cp .git/index d/index; git add d; git commit -qm two"

// TestWorkTreeRaceOnAHostMount: a host process exchanges the work tree's
// directory d with a link to .git (renameat2 RENAME_EXCHANGE, so one of
// the two always stands at d) while a session checks out, resets and
// stashes d over and over. None of git's writes lands in .git (G-5.6,
// G-6.1a).
func TestWorkTreeRaceOnAHostMount(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, body := range seedConfig {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := newWorld(t, []vfs.MountSpec{{Prefix: "/w", HostDir: root}},
		gate.ProfileSpec{Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	w.must(plantLine)
	planted, err := os.ReadFile(filepath.Join(root, "d/index"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(root, "dlink")); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			unix.Renameat2(unix.AT_FDCWD, filepath.Join(root, "d"), unix.AT_FDCWD, filepath.Join(root, "dlink"), unix.RENAME_EXCHANGE)
		}
	})
	deadline := time.Now().Add(400 * time.Millisecond)
	for time.Now().Before(deadline) {
		w.run(raceLines)
	}
	close(stop)
	wg.Wait()
	if _, err := os.Lstat(filepath.Join(root, ".git/objects/zz")); err == nil {
		t.Error("a work-tree write landed in .git/objects")
	}
	if data, err := os.ReadFile(filepath.Join(root, ".git/index")); err != nil || len(data) == 0 || string(data) == string(planted) {
		t.Errorf("the index is the planted copy, or gone: %v", err)
	}
	// Whichever of the two stood at d when the race stopped, the index is
	// still git's own (a.txt is in it).
	if out, _, _ := w.run("git ls-files a.txt"); out != "a.txt\n" {
		t.Errorf("git ls-files after the race: %q", out)
	}
}

// TestWorkTreeRaceFromAnotherSession: the same race on a memory mount,
// the link flipped by a second session of the workspace, line after line,
// while the first runs git.
func TestWorkTreeRaceFromAnotherSession(t *testing.T) {
	t.Parallel()
	guarded := gate.ProfileSpec{Name: "guarded", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}}
	ws := multiWorld(t, nil, guarded, gate.ProfileSpec{Name: "flipper"}, gate.ProfileSpec{Name: "open"})
	ws["guarded"].must(plantLine)
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() {
		for ctx.Err() == nil {
			ws["flipper"].s.Execute(context.Background(), "for i in 1 2 3 4 5 6 7 8 9 10; do mv d dd; ln -s .git d; rm d; mv dd d; done 2>/dev/null")
		}
	})
	for ctx.Err() == nil {
		ws["guarded"].run(raceLines)
	}
	wg.Wait()
	if out, _, _ := ws["open"].run("ls .git/objects/zz; grep -c planted .git/index"); out != "0\n" {
		t.Errorf("a work-tree write landed in .git: %q", out)
	}
}
