package git_test

import (
	"strings"
	"testing"

	"gatehouse/core/gate"
)

// TestWorkTreeWritesNeverReachGit: git writes files whose content the
// agent chose (any blob of any commit) when it checks out, resets,
// stashes, merges or moves; a link standing where a tracked directory was
// must not steer those writes into the repository's object store or index,
// which only git writes from content it made (G-4.5, G-6.1a). Nor may a
// link inside .git take git's own writes there under another name. Each
// line plants "planted" at objects/zz/marker or a forged index through
// one of git's writes; afterwards neither exists, and the index is git's.
func TestWorkTreeWritesNeverReachGit(t *testing.T) {
	t.Parallel()
	const plant = "mkdir -p d/objects/zz; echo planted > d/objects/zz/marker; cp .git/index d/index; "
	const commit = plant + "git add d; git commit -qm plant; "
	lines := []string{
		commit + "rm -rf d; ln -s .git d; git checkout -- d",
		commit + "rm -rf d; ln -s /w/.git d; git checkout HEAD -- d/objects/zz/marker d/index",
		commit + "rm -rf d; ln -s .git d; git reset -q --hard",
		commit + "git rm -rq d; git commit -qm gone; ln -s .git d; git checkout -q HEAD~1",
		commit + "git rm -rq d; git commit -qm gone; ln -s .git d; git reset -q --hard HEAD~1",
		commit + "git rm -rq d; git commit -qm gone; ln -s .git d; git stash -q; git checkout -q HEAD~1 -- d",
		plant + "git add d; git stash -q; ln -s .git d; git stash pop -q",
		"git checkout -qb side; " + commit + "git checkout -q main; ln -s .git d; git merge -q side",
		"git checkout -qb side; " + commit + "git checkout -q main; ln -s .git d; git cherry-pick side",
		commit + "git rm -rq d; git commit -qm gone; ln -s .git d; git revert --no-edit HEAD",
		"mkdir -p e/zz; echo planted > e/zz/marker; git add e; git commit -qm e; ln -s .git d; git mv e d/objects",
		"mkdir -p e/zz; echo planted > e/zz/marker; git add e; git commit -qm e; mkdir d; ln -s ../.git/objects d/o; git mv e/zz d/o/zz",
		commit + "rm -rf d; mkdir d; ln -s ../.git/objects d/objects; git checkout -- d",
		commit + "mv d x; ln -s .git/. x/../d; git checkout -- d",
		// git's own .git files, made links into the index or the store.
		"rm -f .git/COMMIT_EDITMSG; ln -s index .git/COMMIT_EDITMSG; echo y > y; git add y; git commit -qm planted",
		"mkdir -p .git/objects/zz; ln -s objects/zz/marker .git/COMMIT_EDITMSG; echo y > y; git add y; git commit -qm planted",
		"ln -s index .git/config.lock; git config user.name planted",
		"mkdir -p .git/logs; ln -s ../objects/zz .git/logs/refs; mkdir .git/objects/zz; git stash -q; echo y >> a.txt; git stash -q",
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			ws := multiWorld(t, map[string]string{"a.txt": "alpha\n", "secret.txt": "s3cr3t\n"},
				gate.ProfileSpec{Name: "open"},
				gate.ProfileSpec{Name: "guarded", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
			ws["open"].must(prepare + "git add -A && git commit -q -m one")
			index := ws["open"].must("sha256sum .git/index")
			ws["guarded"].run(line)
			if out, _, _ := ws["open"].run("cat .git/objects/zz/marker; grep -c planted .git/index; ls .git/objects/zz"); strings.Contains(out, "planted") || strings.Contains(out, "marker") {
				t.Errorf("git wrote into .git through a link:\n%s", out)
			}
			if got := ws["open"].must("git ls-files -s a.txt"); !strings.Contains(got, "4a58007052a65fbc2fc3f910f2855f45a4058e74") {
				t.Errorf("the index lost a.txt:\n%s (was %s)", got, index)
			}
		})
	}
	// Links above .git change nothing: a work tree reached through a
	// linked directory works as it always did.
	ws := multiWorld(t, map[string]string{"r/a.txt": "alpha\n"}, gate.ProfileSpec{Name: "guarded",
		Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	out := ws["guarded"].must("cd r && git init -q && cd .. && ln -s r lr && cd lr && git add -A && git commit -qm one && " +
		"echo beta > a.txt && git stash -q && git stash pop -q && git checkout -- a.txt && git status --short && cat a.txt")
	if out != "alpha\n" {
		t.Errorf("a linked work tree: %q", out)
	}
}
