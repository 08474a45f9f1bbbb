package git_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// The gate cases: whatever the door hides is not there for git, a denied
// file cannot be staged, a read-only .git refuses every write, and argv
// rules reach git's subcommands (G-3.4, G-4.5, G-5.2, G-6.1b).

// prepare makes the repository every gate case starts from: .gitconfig
// and .setup-like exclusions, nothing committed.
const prepare = "git init -q && printf '.gitconfig\\n' >> .git/info/exclude && "

// TestHiddenIsNotThere compares a world where secret.txt is hidden with its
// twin where secret.txt was never written: every git output must be the
// same, so the hidden name never shows (G-4.5).
func TestHiddenIsNotThere(t *testing.T) {
	t.Parallel()
	lines := []string{
		"git status",
		"git status -s --porcelain -b",
		"git add secret.txt; echo $?",
		"git add -A && git status -s",
		"git add . && git commit -q -m one && git log --stat",
		"git add -A && git commit -q -m one && git log -p",
		"git add sub && git status -uall -s",
		"printf 's*.txt\\n*.pem\\n' > .gitignore && git status -s --ignored && git status -s --ignored -uall && git status --ignored=matching",
		"git add -A && git commit -q -m one && echo x >> a.txt && git ls-files -z -s | tr '\\0' '\\n'; git ls-files -t -cmdo; git ls-files -o --directory; printf 's*\\n' > .gitignore; git ls-files -oi --exclude-standard",
		"git add -A && git ls-files --error-unmatch secret.txt sub/key.pem; echo $?; git ls-files -s 'sub/*' 'secret*'; git describe --always --dirty | wc -c",
		"git add -A && git commit -q -m one && git log --numstat --format=%s && git show --numstat --diff-filter=A --format=%s && git diff --numstat --diff-filter=d HEAD~0",
	}
	files := map[string]string{"a.txt": "alpha\n", "sub/b.txt": "bravo\n"}
	withSecret := map[string]string{"a.txt": "alpha\n", "sub/b.txt": "bravo\n", "secret.txt": "s3cr3t\n", "sub/key.pem": "KEY\n"}
	hide := gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt", "/w/sub/key.pem"}}}}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			hidden := multiWorld(t, withSecret, hide)["hide"]
			twin := multiWorld(t, files, gate.ProfileSpec{Name: "plain"})["plain"]
			gotOut, gotErr, gotCode := hidden.run(prepare + line)
			wantOut, wantErr, wantCode := twin.run(prepare + line)
			if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
				t.Errorf("hidden world differs from its twin\nhidden: exit %d\n%s%s\ntwin: exit %d\n%s%s", gotCode, gotOut, gotErr, wantCode, wantOut, wantErr)
			}
			if strings.Contains(line, "secret") {
				return // the agent typed the name; git may say it back
			}
			if strings.Contains(gotOut+gotErr, "secret") || strings.Contains(gotOut+gotErr, "key.pem") || strings.Contains(gotOut+gotErr, "s3cr3t") {
				t.Errorf("a hidden name or its content leaked:\n%s%s", gotOut, gotErr)
			}
		})
	}
}

// TestHiddenHistory: a file committed before a hide rule reached the
// session stays out of status, log and diffs, and commits keep it.
func TestHiddenHistory(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "alpha\n", "secret.txt": "s3cr3t\n"}
	ws := multiWorld(t, files,
		gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	ws["open"].must(prepare + "git add -A && git commit -q -m one")
	cases := []struct{ line, want string }{
		{"git status -s", ""},
		{"git status", "On branch main\nnothing to commit, working tree clean\n"},
		{"git log --stat --format=%s", "one\n\n a.txt | 1 +\n 1 file changed, 1 insertion(+)\n"},
		{"git log -p --format=%s", "one\n\ndiff --git a/a.txt b/a.txt\nnew file mode 100644\nindex 0000000..4a58007\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+alpha\n"},
		{"echo more >> a.txt && git commit -q -am two && git log --name-status --format=%s", "two\n\nM\ta.txt\none\n\nA\ta.txt\n"},
	}
	for _, c := range cases {
		got := ws["hide"].must(c.line)
		if got != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.line, got, c.want)
		}
	}
	// The hidden file's content is still in the latest commit: the open
	// session sees it unchanged.
	if got := ws["open"].must("git status -s; git log --name-status --format=%s"); got != "two\n\nM\ta.txt\none\n\nA\ta.txt\nA\tsecret.txt\n" {
		t.Errorf("the hidden file was dropped from history or the worktree:\n%s", got)
	}
}

// TestDeniedCannotBeStaged: a denied file is listed as untracked, and
// adding it fails with the rule's reason in git's voice; nothing is staged.
func TestDeniedCannotBeStaged(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "alpha\n", "creds.env": "TOKEN=1\n"}
	deny := gate.ProfileSpec{Name: "deny", Deny: []gate.Rule{{Reason: "credentials are never read by hand", Paths: []string{"/w/creds.env"}}}}
	w := multiWorld(t, files, deny)["deny"]
	if got := w.must(prepare + "git status -s"); got != "?? a.txt\n?? creds.env\n" {
		t.Errorf("status -s:\n%s", got)
	}
	wantErr := "error: open(\"creds.env\"): credentials are never read by hand\nerror: unable to index file 'creds.env'\nfatal: adding files failed\n"
	for _, line := range []string{"git add creds.env", "git add -A", "git add ."} {
		out, errOut, code := w.run(line)
		if code != 128 || errOut != wantErr || out != "" {
			t.Errorf("%s: exit %d\nstdout: %q\nstderr: %q\nwant stderr %q", line, code, out, errOut, wantErr)
		}
	}
	if got := w.must("git status -s"); got != "?? a.txt\n?? creds.env\n" {
		t.Errorf("a failed add staged something:\n%s", got)
	}
	if got := w.must("git add a.txt && git status -s"); got != "A  a.txt\n?? creds.env\n" {
		t.Errorf("adding a readable file next to a denied one:\n%s", got)
	}
}

// TestReadOnlyGitDir: under a read-only mount every write subcommand
// fails with EROFS in git's voice, and reading ones still work (G-5.2).
func TestReadOnlyGitDir(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "alpha\n"}
	ws := multiWorld(t, files,
		gate.ProfileSpec{Name: "rw"},
		gate.ProfileSpec{Name: "ro", Mounts: map[string]gate.MountRules{"/w": {ReadOnly: true}}})
	ws["rw"].must(prepare + "git add a.txt && git commit -q -m one && echo more >> a.txt")
	ro := ws["ro"]
	if got := ro.must("git status -s && git log --oneline"); got != " M a.txt\n1248535 one\n" {
		t.Errorf("reading subcommands under ro:\n%s", got)
	}
	lock := "fatal: Unable to create '/w/.git/index.lock': Read-only file system.\n"
	cases := []struct{ line, stderr string }{
		{"git add a.txt", lock},
		{"git commit -am two", lock},
		{"git init -q sub", "fatal: cannot mkdir sub: Read-only file system\n"},
	}
	for _, c := range cases {
		out, errOut, code := ro.run(c.line)
		if code != 128 || errOut != c.stderr || out != "" {
			t.Errorf("%s: exit %d\nstdout: %q\nstderr: %q\nwant %q", c.line, code, out, errOut, c.stderr)
		}
	}
	if got := ws["rw"].must("git log --oneline && git status -s"); got != "1248535 one\n M a.txt\n" {
		t.Errorf("the read-only session changed the repository:\n%s", got)
	}
}

// TestArgvRules: git is a command like any other: absent unless allowed,
// refined by allow patterns, and denied by argv prefix (G-3.1, G-3.4).
func TestArgvRules(t *testing.T) {
	t.Parallel()
	ws := multiWorld(t, map[string]string{"a.txt": "alpha\n"},
		gate.ProfileSpec{Name: "none", Allow: []string{"cat", "printf"}},
		gate.ProfileSpec{Name: "statusonly", Allow: []string{"git status", "git init"}},
		gate.ProfileSpec{Name: "nopush", Deny: []gate.Rule{{Reason: "pushing is for humans", Commands: []string{"git push"}}}})
	cases := []struct {
		profile, line string
		code          int
		stderr        string
	}{
		{"none", "git status", 127, "git: command not found\n"},
		{"statusonly", "git init -q && git status -s", 0, ""},
		{"statusonly", "git log", 126, "git: Permission denied\n"},
		{"nopush", "git push origin main", 126, "git: Permission denied\n"},
		{"nopush", "git init -q && git status -s", 0, ""},
	}
	for _, c := range cases {
		_, errOut, code := ws[c.profile].run(c.line)
		if code != c.code || !strings.HasSuffix(errOut, c.stderr) {
			t.Errorf("%s: %s: exit %d, stderr %q; want %d, %q", c.profile, c.line, code, errOut, c.code, c.stderr)
		}
	}
}

// TestHistoryByPathAndId: content committed before a rule reached the
// session is judged by its path name through every way git names an
// object: REV:PATH, :PATH, a bare id (found in .git/objects), a tree
// listing, show, diff and checkout (G-4.5, G-6.1b).
func TestHistoryByPathAndId(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "alpha\n", "secret.txt": "s3cr3t\n", "private/key.pem": "K3Y\n", "creds.env": "T0KEN\n"}
	ws := multiWorld(t, files,
		gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "guarded",
			Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt", "/w/private"}}},
			Deny: []gate.Rule{{Reason: "credentials are never read by hand", Paths: []string{"/w/creds.env"}}}})
	ws["open"].must(prepare + "git add -A && git commit -q -m one && echo more >> secret.txt && echo more >> creds.env && git commit -q -am two && git branch other && echo again >> secret.txt && git commit -q -am three")
	secretID := strings.TrimSpace(ws["open"].must("git rev-parse HEAD:secret.txt"))
	g := ws["guarded"]
	refusals := []struct{ line, stderr string }{
		{"git show HEAD:secret.txt", "fatal: path 'secret.txt' does not exist in 'HEAD'\n"},
		{"git cat-file -p HEAD:private/key.pem", "fatal: path 'private/key.pem' does not exist in 'HEAD'\n"},
		{"git cat-file -p :secret.txt", "fatal: path 'secret.txt' does not exist (neither on disk nor in the index)\n"},
		{"git cat-file -p " + secretID, "fatal: Not a valid object name " + secretID + "\n"},
		{"git show HEAD:creds.env", "fatal: creds.env: credentials are never read by hand\n"},
		{"git checkout HEAD~1 -- secret.txt", "error: pathspec 'secret.txt' did not match any file(s) known to git\n"},
		{"git checkout -q other", "error: this switch would change files hidden from this session\nAborting\n"},
	}
	for _, c := range refusals {
		out, errOut, code := g.run(c.line)
		if code == 0 || errOut != c.stderr || out != "" {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q\nwant stderr %q", c.line, code, out, errOut, c.stderr)
		}
	}
	// Every object id in .git/objects, printed: nothing hidden or denied.
	dump := g.must(`for f in .git/objects/??/*; do d=${f%/*}; git cat-file -p ${d##*/}${f##*/} 2>/dev/null; done; git cat-file -p HEAD^{tree}; git ls-files; git show HEAD~1; git log -p 2>/dev/null; git diff HEAD~2 HEAD 2>/dev/null; git show --stat HEAD`)
	for _, leak := range []string{"s3cr3t", "K3Y", "T0KEN", "secret.txt", "key.pem", "private"} {
		if strings.Contains(dump, leak) {
			t.Errorf("%q leaked through git:\n%s", leak, dump)
		}
	}
	// A denied path is named, its content is not, and the refusal says why.
	out, errOut, _ := g.run("git show HEAD~1 -- creds.env")
	if !strings.Contains(out, "diff --git a/creds.env b/creds.env") || strings.Contains(out, "T0KEN") {
		t.Errorf("show of a denied path:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	if !strings.Contains(errOut, "error: creds.env: credentials are never read by hand") {
		t.Errorf("show of a denied path does not say why:\n%s", errOut)
	}
}

// TestStagedTwoWays: status reads HEAD's trees only where the index's
// would differ; git diff --cached compares every path. Both must name the
// same staged changes after each of these steps.
func TestStagedTwoWays(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "a\n", "d/b.txt": "b\n", "d/e/c.txt": "c\n", "d/e/f/g.txt": "g\n", "x/y.txt": "y\n"}
	w := multiWorld(t, files, gate.ProfileSpec{Name: "p"})["p"]
	w.must(prepare + "git add -A && git commit -q -m one")
	steps := []string{
		"true",
		"echo more >> d/e/c.txt && git add d/e/c.txt",
		"mkdir -p n/m/o && echo n > n/m/o/new.txt && git add n",
		"git rm -q -r d/e/f",
		"git rm -q -r x",
		"git commit -q -m two",
		"mkdir -p x/deep && echo y > x/deep/y.txt && git add -A",
		"git reset -q --soft HEAD~1",
		"git reset -q",
		"git add -A && git commit -q -m three && git rm -q -r --cached d",
	}
	for _, step := range steps {
		w.must(step)
		status := w.must("git status --porcelain --untracked-files=no")
		diff := w.must("git diff --cached --name-status")
		var fromStatus, fromDiff []string
		for _, ln := range strings.Split(strings.TrimRight(status, "\n"), "\n") {
			if len(ln) > 3 && ln[0] != ' ' {
				fromStatus = append(fromStatus, ln[:1]+" "+ln[3:])
			}
		}
		for _, ln := range strings.Split(strings.TrimSpace(diff), "\n") {
			if ln != "" {
				f := strings.Split(ln, "\t")
				fromDiff = append(fromDiff, f[0][:1]+" "+strings.Join(f[1:], " -> "))
			}
		}
		if strings.Join(fromStatus, "\n") != strings.Join(fromDiff, "\n") {
			t.Errorf("after %q:\nstatus says:\n%s\ndiff --cached says:\n%s", step, status, diff)
		}
	}
}

// TestCloneKeepsHiddenHistory: a clone would put history under new path
// names no rule covers, so a repository whose history holds a path the
// session may not read is not cloned; one without such paths is.
func TestCloneKeepsHiddenHistory(t *testing.T) {
	t.Parallel()
	files := map[string]string{"r/a.txt": "alpha\n", "r/secret.txt": "s3cr3t\n", "clean/a.txt": "alpha\n"}
	ws := multiWorld(t, files,
		gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "guarded", Hide: []gate.PathGroup{{Paths: []string{"/w/r/secret.txt"}}}})
	ws["open"].must("cd r && git init -q && git add -A && git commit -q -m one && git rm -q secret.txt && git commit -q -m gone && cd ../clean && git init -q && git add -A && git commit -q -m one")
	g := ws["guarded"]
	out, errOut, code := g.run("git clone r copy")
	if code != 128 || !strings.Contains(errOut, "holds files this session may not read") || out != "" {
		t.Errorf("clone of hidden history: exit %d\n%s%s", code, out, errOut)
	}
	if _, _, code := g.run("test -e copy"); code == 0 {
		t.Error("a refused clone left a directory behind")
	}
	if got := g.must("git clone -q clean copy2 && cd copy2 && git log --oneline && ls"); !strings.HasSuffix(got, " one\na.txt\n") {
		t.Errorf("clone of a clean repository:\n%s", got)
	}
	// Stash and merge in a repository with a hidden file keep it as it is.
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.txt": "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	w["open"].must(prepare + "git add -A && git commit -q -m one && git branch topic")
	h := w["hide"]
	h.must("echo x >> a.txt && git stash -q && git stash pop -q >/dev/null && git commit -q -am two && git checkout -q topic && echo y > y.txt && git add y.txt && git commit -q -m y && git checkout -q main && git merge -q topic")
	if got := w["open"].must("git status -s && git show HEAD:secret.txt && git log --format=%s"); got != "s\nMerge branch 'topic'\ntwo\ny\none\n" {
		t.Errorf("after stash and merge in the hiding session:\n%s", got)
	}
}

// TestBigFileMeetsTheBudget: a file larger than what the line may hold
// ends the line (exit 125) before git reads it, and the session lives on
// (G-12.3).
func TestBigFileMeetsTheBudget(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("0123456789abcdef", 1<<18) // 4 MiB
	files := map[string]string{"big.bin": big, "a.txt": "a\n"}
	for k, v := range seedConfig {
		files[k] = v
	}
	p := gate.ProfileSpec{Name: "m", Cwd: "/w", Env: map[string]string{"HOME": "/w"}}
	ws, err := core.NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: files, Size: 64 << 20}},
		core.WithProfiles(p), core.WithLimits(core.Limits{Memory: 2 << 20, WallTime: 30 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("m", core.Profile("m"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if res := s.Execute(ctx, "git init -q && git add big.bin"); res.ExitCode != 125 {
		t.Errorf("git add of a 4 MiB file under a 2 MiB budget: exit %d\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if res := s.Execute(ctx, "git add a.txt && git status -s"); res.ExitCode != 0 || !strings.Contains(res.Stdout, "A  a.txt") {
		t.Errorf("the session after the refused line: exit %d\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
}

// TestDeniedTracked: a file committed before a deny rule reached the
// session is compared by its metadata; once changed, status says so, a
// diff names it without its content, and staging it fails with the reason.
func TestDeniedTracked(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "alpha\n", "creds.env": "T0KEN\n"}
	ws := multiWorld(t, files,
		gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "deny", Deny: []gate.Rule{{Reason: "credentials are never read by hand", Paths: []string{"/w/creds.env"}}}})
	ws["open"].must(prepare + "git add -A && git commit -q -m one && echo T1 >> creds.env")
	d := ws["deny"]
	if got := d.must("git status -s"); got != " M creds.env\n" {
		t.Errorf("status of a changed denied file:\n%s", got)
	}
	out, errOut, _ := d.run("git diff")
	if strings.Contains(out, "T0KEN") || strings.Contains(out, "T1") || !strings.Contains(out, "diff --git a/creds.env b/creds.env") || !strings.Contains(errOut, "credentials are never read by hand") {
		t.Errorf("diff of a denied file:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	out, errOut, code := d.run("git commit -am two")
	if code != 128 || !strings.Contains(errOut, "error: open(\"creds.env\"): credentials are never read by hand") {
		t.Errorf("commit -a with a denied change: exit %d\n%s%s", code, out, errOut)
	}
	if got := d.must("git log --oneline | wc -l"); strings.TrimSpace(got) != "1" {
		t.Errorf("a refused commit -a committed: %s", got)
	}
}

// TestNotHere: what git has and this git lacks says so in git's voice,
// exit 1, and changes nothing.
func TestNotHere(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n"}, gate.ProfileSpec{Name: "p"})["p"]
	w.must(prepare + "git add -A && git commit -q -m one")
	cases := []struct{ line, stderr string }{
		{"git rebase main", "git: 'rebase' is not supported here\n"},
		{"git push origin main", "fatal: 'origin' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n"},
		{"git remote add up https://example.com/r.git && git push up main", "fatal: unable to access 'https://example.com/r.git/': a workspace has no network\n"},
		{"git fetch git@example.com:r.git", "fatal: unable to access 'git@example.com:r.git': a workspace has no network\n"},
		{"git clone -q . /tmp/c && git pull /tmp/c main", "git: exchanging objects with another repository ('/tmp/c') is not supported here; only clone copies one\n"},
		{"git ls-remote", "fatal: No remote configured to list refs from.\n"},
		{"git add -p", "git: 'add -p' is not supported here (no interactive terminal)\n"},
		{"git bisect start", "git: 'bisect' is not supported here\n"},
		{"git frobnicate", "git: 'frobnicate' is not a git command. See 'git --help'.\n"},
		{"git clone https://example.com/r.git", "fatal: 'https://example.com/r.git': network remotes are not supported here; clone a repository from a path inside the workspace\n"},
	}
	for _, c := range cases {
		out, errOut, code := w.run(c.line)
		if code == 0 || errOut != c.stderr || out != "" {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q\nwant %q", c.line, code, out, errOut, c.stderr)
		}
	}
	if got := w.must("git status -s && git log --oneline | wc -l && git remote -v"); got != "1\nup\thttps://example.com/r.git (fetch)\nup\thttps://example.com/r.git (push)\n" {
		t.Errorf("a refused subcommand changed something:\n%s", got)
	}
}

// TestIndexAndObjectsOnlyGit: git judges a blob by the paths the index and
// the trees give it, so under a profile that hides or denies a path nothing
// but git may write a repository's index or object store, nor make a new
// .git, nor use a .git directory as a work tree. Otherwise a hand-made index
// places a hidden file's blob at a readable name and git prints it or checks
// it out (G-4.5, G-6.1).
func TestIndexAndObjectsOnlyGit(t *testing.T) {
	t.Parallel()
	// forge writes, to $1, the index with a.txt's blob replaced by the
	// hidden file's ($2), as an agent can find it by listing .git/objects.
	const forge = `forge() { xxd -p .git/index | tr -d '\n' | sed "s/$(git rev-parse :a.txt)/$2/" | xxd -r -p > "$1"; }; `
	const reveal = `; cd /w; git cat-file -p $id; git checkout -- a.txt; cat a.txt; git show :a.txt`
	lines := []string{
		"forge /tmp/i $id; cp /tmp/i .git/index",
		"forge .git/index $id",
		"forge /tmp/i $id; exec 3<>.git/index; cat /tmp/i >&3",
		"forge /tmp/i $id; rm .git/index; mv /tmp/i .git/index",
		"forge /tmp/i $id; ln .git/index /tmp/h; cat /tmp/i > /tmp/h",
		"forge /tmp/i $id; mv .git /tmp/g; cp /tmp/i /tmp/g/index; mv /tmp/g .git",
		"forge /tmp/i $id; ln -s /w/.git /w/gl; cp /tmp/i /w/gl/index",
		"forge /tmp/i $id; mkdir -p /tmp/r; cp -r .git /tmp/r/x; cp /tmp/i /tmp/r/x/index; mv /tmp/r/x /tmp/r/.git; cd /tmp/r; git checkout -- a.txt; cat a.txt",
		"forge .git/forged $id; cd .git && git init -q .; git add forged; rm index; git mv forged index",
		"forge /tmp/i $id; ln -s /w/.git /w/gl; cp /tmp/i gl/forged; cd gl && git init -q .; git add forged; rm index; git mv forged index",
		"forge /tmp/i $id; git init -q /tmp/r && cp -r .git/objects/. /tmp/r/.git/objects/ && cp /tmp/i /tmp/r/.git/index; cd /tmp/r; git checkout -- a.txt; cat a.txt",
		"forge /tmp/i $id; git clone -q . /w/.git/cl; git -C .git status",
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			for _, hidden := range []string{"secret.txt", "creds.env"} {
				ws := multiWorld(t, map[string]string{"a.txt": "alpha\n", "secret.txt": "s3cr3t\n", "creds.env": "T0KEN\n"},
					gate.ProfileSpec{Name: "open"},
					gate.ProfileSpec{Name: "guarded",
						Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}},
						Deny: []gate.Rule{{Reason: "credentials are never read by hand", Paths: []string{"/w/creds.env"}}}})
				ws["open"].must(prepare + "git add -A && git commit -q -m one")
				id := strings.TrimSpace(ws["open"].must("git rev-parse :" + hidden))
				out, errOut, _ := ws["guarded"].run("id=" + id + "; " + forge + line + reveal)
				if strings.Contains(out+errOut, "s3cr3t") || strings.Contains(out+errOut, "T0KEN") {
					t.Errorf("%s's content came out:\n%s%s", hidden, out, errOut)
				}
				if got, _, _ := ws["open"].run("git ls-files -s a.txt"); got != "" && !strings.Contains(got, "4a58007052a65fbc2fc3f910f2855f45a4058e74") {
					t.Errorf("the index was rewritten by hand:\n%s", got)
				}
			}
		})
	}
	// A profile with nothing to hide or deny keeps every hand edit of .git.
	plain := multiWorld(t, map[string]string{"a.txt": "alpha\n"}, gate.ProfileSpec{Name: "plain"})["plain"]
	plain.must(prepare + "git add -A && git commit -q -m one && cp .git/index /tmp/i && cp /tmp/i .git/index && mkdir -p sub/.git && cp -r .git /tmp/copy")
}

// TestConflictedMergeKeepsHiddenPaths: a merge whose conflict falls on a
// path the session may not see is refused whole (its markers could go
// nowhere the session may see) and changes nothing; a conflict on a
// visible path writes its markers and stages while the hidden file, the
// same on both sides, stays out of status and diff (G-4.5).
func TestConflictedMergeKeepsHiddenPaths(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.txt": "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one && git checkout -q -b topic && echo t >> secret.txt && echo t >> a.txt && git commit -q -am topic && git checkout -q main && echo m >> secret.txt && git commit -q -am main")
	out, errOut, code := hide.run("git merge topic")
	if code != 1 || !strings.Contains(errOut, "hidden from this session") || strings.Contains(out+errOut, "secret") {
		t.Errorf("merge with a hidden conflict: exit %d\n%s%s", code, out, errOut)
	}
	if got := open.must("git status -s; ls .git/MERGE_HEAD 2>&1; cat secret.txt a.txt"); !strings.Contains(got, "No such file") || !strings.HasSuffix(got, "s\nm\na\n") {
		t.Errorf("a refused merge changed something:\n%s", got)
	}
	// Now only a.txt conflicts; secret.txt is taken from one side.
	open.must("git checkout -q topic && git checkout -q main -- secret.txt && git commit -q -m same && git checkout -q main && echo m >> a.txt && git commit -q -am m2")
	out, _, code = hide.run("git merge topic; git status -s; git diff; git ls-files -s")
	if code != 0 || !strings.Contains(out, "CONFLICT (content): Merge conflict in a.txt") || !strings.Contains(out, "UU a.txt") || strings.Contains(out, "secret") {
		t.Errorf("merge with a visible conflict in the hiding session: exit %d\n%s", code, out)
	}
	if got := hide.must("cat a.txt"); got != "a\n<<<<<<< HEAD\nm\n=======\nt\n>>>>>>> topic\n" {
		t.Errorf("markers:\n%s", got)
	}
	hide.must("echo resolved > a.txt && git add a.txt && git commit -q --no-edit")
	if got := open.must("git status -s; git log --format='%s' -1; git log --format=%P -1 | wc -w; git show HEAD:secret.txt"); got != "Merge branch 'topic'\n2\ns\nm\n" {
		t.Errorf("after the merge in the hiding session:\n%s", got)
	}
}

// TestStashKeepsHiddenFiles: stash -u, stash of paths and --index in a
// session that hides files never take, stash or name them: a hidden
// untracked file stays where it is, a hidden tracked one keeps its
// content, and the other session sees both unchanged (G-4.5).
func TestStashKeepsHiddenFiles(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.txt": "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt", "/w/loot.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one && echo changed >> secret.txt && echo l > loot.txt")
	out := hide.must("echo x >> a.txt && echo u > u.txt && git stash -u && git status -s && git stash show -p && git stash pop -q --index && git status -s && git stash push -q -- . && git stash list")
	if strings.Contains(out, "secret") || strings.Contains(out, "loot") || !strings.Contains(out, "stash@{0}: WIP on main") {
		t.Errorf("stash in the hiding session:\n%s", out)
	}
	if got := open.must("git status -s; cat secret.txt loot.txt"); got != " M secret.txt\n?? loot.txt\n?? u.txt\ns\nchanged\nl\n" {
		t.Errorf("the hidden files after the hiding session's stashes:\n%s", got)
	}
}

// TestCleanKeepsHiddenFiles: git clean in a session that hides files
// neither names nor removes them, even inside a directory it removes
// (the directory stays, holding only them), and removes what the
// session sees (G-4.5).
func TestCleanKeepsHiddenFiles(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "loot.txt": "l\n", "tmp/key.pem": "k\n", "tmp/x.txt": "x\n", "u.txt": "u\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/loot.txt", "/w/tmp/key.pem"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add a.txt && git commit -q -m one")
	out := hide.must("git clean -nd && git clean -fdx && ls -A")
	if strings.Contains(out, "loot") || strings.Contains(out, "key.pem") || !strings.Contains(out, "Removing tmp/\n") || !strings.Contains(out, "Removing u.txt\n") {
		t.Errorf("clean in the hiding session:\n%s", out)
	}
	if got := open.must("ls -A tmp; cat loot.txt; git status -s"); got != "key.pem\nl\n?? loot.txt\n?? tmp/\n" {
		t.Errorf("after the hiding session's clean:\n%s", got)
	}
}

// TestPickKeepsHiddenFiles: a cherry-pick or revert whose commit changes
// a hidden path is refused in the hiding session and changes nothing;
// one that leaves it alone applies, the hidden file kept (G-4.5).
func TestPickKeepsHiddenFiles(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.txt": "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one && git checkout -q -b topic && echo t >> secret.txt && git commit -q -am secret && echo t >> a.txt && git commit -q -am visible && git checkout -q main")
	out, errOut, code := hide.run("git cherry-pick topic~1")
	if code == 0 || strings.Contains(out+errOut, "secret") {
		t.Errorf("cherry-pick of a hidden change: exit %d\n%s%s", code, out, errOut)
	}
	hide.must("git cherry-pick topic >/dev/null && git revert --no-edit HEAD >/dev/null")
	if got := open.must("git status -s; cat secret.txt; git log --format=%s"); got != "s\nRevert \"visible\"\nvisible\none\n" {
		t.Errorf("after the hiding session's picks:\n%s", got)
	}
}

// TestBlameKeepsHiddenNames: blame of a hidden path is "no such path",
// and a file renamed from a hidden path is not followed there: its lines
// rest with the rename, the hidden name never printed (G-4.5).
func TestBlameKeepsHiddenNames(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"secret.txt": "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one && git mv secret.txt pub.txt && git commit -q -m moved")
	if got := open.must("git blame pub.txt"); !strings.Contains(got, "secret.txt") {
		t.Errorf("the open session's blame does not follow the rename:\n%s", got)
	}
	out, errOut, code := hide.run("git blame pub.txt; git blame HEAD~1 -- secret.txt")
	if code != 128 || strings.Contains(out, "secret") || strings.Contains(out, "^") || !strings.Contains(errOut, "fatal: no such path 'secret.txt' in HEAD~1") {
		t.Errorf("blame in the hiding session: exit %d\n%s%s", code, out, errOut)
	}
}

// TestGrepKeepsHiddenFiles: git grep never searches a tracked file the
// door hides, in the worktree or in the index, and ls-tree never lists
// it (G-4.5).
func TestGrepKeepsHiddenFiles(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "needle a\n", "secret.txt": "needle s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	w["open"].must(prepare + "git add -A && git commit -q -m one")
	for _, line := range []string{"git grep needle", "git grep --cached -l needle", "git grep -c needle -- secret.txt; echo $?", "git ls-tree -r HEAD", "git ls-tree HEAD secret.txt"} {
		if out := w["hide"].must(line); strings.Contains(out, "secret") || strings.Contains(out, "needle s") {
			t.Errorf("%s in the hiding session:\n%s", line, out)
		}
	}
}

// TestMergeRefusesDeniedWrites: a merge or checkout that would rewrite a
// file the session may not change is refused with the rule's reason
// before anything is written: no half-merged worktree (G-6.1).
func TestMergeRefusesDeniedWrites(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "creds.env": "T0KEN\n"},
		gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "deny", Deny: []gate.Rule{{Reason: "credentials are never touched by hand", Paths: []string{"/w/creds.env"}}}})
	open, d := w["open"], w["deny"]
	open.must(prepare + "git add -A && git commit -q -m one && git checkout -q -b topic && echo T1 > creds.env && echo t >> a.txt && git commit -q -am topic && git checkout -q main && echo m > m.txt && git add m.txt && git commit -q -m main")
	for _, line := range []string{"git merge topic", "git checkout topic"} {
		out, errOut, code := d.run(line)
		if code == 0 || !strings.Contains(errOut, "credentials are never touched by hand") {
			t.Errorf("%s: exit %d\n%s%s", line, code, out, errOut)
		}
	}
	if got := open.must("git status -s; cat a.txt creds.env; git log --oneline | wc -l"); got != "a\nT0KEN\n2\n" {
		t.Errorf("a refused merge changed something:\n%s", got)
	}
}

// TestMultiFileWritesJudgeNewFilesFirst: a merge, checkout, reset --hard,
// stash pop, checkout or restore of paths that would create a file where
// the session may not write
// is refused with the rule's reason before its first write: the files it
// would have changed beside it stay as they were, HEAD and the stash too
// (G-6.1).
func TestMultiFileWritesJudgeNewFilesFirst(t *testing.T) {
	t.Parallel()
	const reason = "secrets are written by the vault only"
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"},
		gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "deny", Deny: []gate.Rule{{Reason: reason, Paths: []string{"/w/secrets"}}}})
	open, d := w["open"], w["deny"]
	open.must(prepare + "git add -A && git commit -q -m one && git checkout -q -b topic && mkdir secrets && echo s > secrets/new.env && echo t >> a.txt && git add -A && git commit -q -m topic" +
		" && git checkout -q main && echo m >> b.txt && git commit -q -am main" +
		" && echo local >> a.txt && mkdir -p secrets && echo u > secrets/u.env && git stash -q -u")
	const state = "git status -s; cat a.txt b.txt; git log --oneline | wc -l; git stash list | wc -l; ls .git/MERGE_HEAD secrets 2>&1 | wc -l"
	before := open.must(state)
	for _, line := range []string{"git merge topic", "git checkout topic", "git switch topic", "git reset --hard topic", "git stash pop", "git stash apply", "git cherry-pick topic",
		"git restore --source topic .", "git restore -s topic -- a.txt secrets", "git checkout topic -- .", "git checkout topic a.txt secrets/new.env"} {
		out, errOut, code := d.run(line)
		if code == 0 || !strings.Contains(errOut+out, reason) {
			t.Errorf("%s: exit %d\n%s%s", line, code, out, errOut)
		}
		if got := open.must(state); got != before {
			t.Errorf("a refused %s changed something:\n%s\nwas:\n%s", line, got, before)
		}
	}
	// Where the session may write, the same lines work.
	open.must("git merge -q topic && cat secrets/new.env")
}

// TestBigMergeMeetsTheBudget: a merge whose conflicting sides are too big
// to merge within the line's memory budget ends the line with the
// budget's error (exit 125), not the process; the session runs the next
// line, and the repository is still usable (G-12.3).
//
// Not parallel: git's reads are watched by the process-wide heap watchdog,
// which would charge this line for what parallel tests allocate; a
// sequential test runs before the package's parallel ones resume.
func TestBigMergeMeetsTheBudget(t *testing.T) {
	files := map[string]string{"a.txt": "a\n"}
	for k, v := range seedConfig {
		files[k] = v
	}
	p := gate.ProfileSpec{Name: "m", Cwd: "/w", Env: map[string]string{"HOME": "/w"}}
	ws, err := core.NewWorkspace([]vfs.MountSpec{{Prefix: "/w", Files: files, Size: 256 << 20}},
		core.WithProfiles(p), core.WithLimits(core.Limits{Memory: 8 << 20, WallTime: 60 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("m", core.Profile("m"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, line := range []string{
		prepare + "seq 150000 > big.txt && git add -A && git commit -q -m one && git branch topic",
		"sed 's/$/ main/' big.txt > m && mv m big.txt && git commit -q -am main",
		"git checkout -q topic && sed 's/$/ topic/' big.txt > t && mv t big.txt && git commit -q -am topic && git checkout -q main",
	} {
		if res := s.Execute(ctx, gitEnv+line); res.ExitCode != 0 {
			t.Fatalf("%s: exit %d\n%s%s", line, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	res := s.Execute(ctx, gitEnv+"git merge topic")
	if res.ExitCode != 125 || !strings.Contains(res.Stderr, "line exceeded the memory limit") {
		t.Errorf("a merge past the budget: exit %d\n%s%s", res.ExitCode, tailText(res.Stdout), tailText(res.Stderr))
	}
	res = s.Execute(ctx, gitEnv+"ls .git/index.lock .git/MERGE_HEAD 2>/dev/null; git status -s; git log --format=%s -1")
	if res.ExitCode != 0 || res.Stdout != "main\n" {
		t.Errorf("the session after the merge: exit %d\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
}

// tailText is the end of a long output, for a failure message.
func tailText(s string) string {
	if len(s) > 400 {
		return "..." + s[len(s)-400:]
	}
	return s
}

// TestMergeRenamesKeepHiddenNames: a merge follows renames only between
// paths the session sees. A rename onto or from a hidden path is not
// paired: no message names it, and a conflict it would bring on the
// hidden path refuses the whole merge (G-4.5).
func TestMergeRenamesKeepHiddenNames(t *testing.T) {
	t.Parallel()
	seq := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
	w := multiWorld(t, map[string]string{"a.txt": seq, "secret.txt": seq + "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt", "/w/loot.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one && git checkout -q -b topic && git mv a.txt loot.txt && git commit -q -m mv && git checkout -q main && sed -i 's/^3$/three/' a.txt && git commit -q -am edit")
	// The hiding session cannot take the rename (it would write the
	// hidden file) and names neither path of it; the open one follows it.
	out, errOut, code := hide.run("git merge topic")
	if code == 0 || !strings.Contains(errOut, "hidden from this session") || strings.Contains(out+errOut, "loot") {
		t.Errorf("merge of a rename onto a hidden path: exit %d\n%s%s", code, out, errOut)
	}
	if got := open.must("test -e .git/MERGE_HEAD; echo $?; git merge -q topic && git status -s && cat loot.txt | head -3 && ls"); got != "1\n1\n2\nthree\nloot.txt\nsecret.txt\n" {
		t.Errorf("merge following the rename in the open session:\n%s", got)
	}
	open.must("git reset -q --hard HEAD~1 && git checkout -q -b topic2 && git mv secret.txt b.txt && git commit -q -m mv && git checkout -q main && sed -i 's/^3$/tri/' secret.txt && git commit -q -am edit2")
	out, errOut, code = hide.run("git merge topic2")
	if code != 1 || !strings.Contains(errOut, "hidden from this session") || strings.Contains(out+errOut, "secret") {
		t.Errorf("merge of a rename from a hidden path: exit %d\n%s%s", code, out, errOut)
	}
	if got := open.must("git status -s; test -e .git/MERGE_HEAD; echo $?; git merge -q topic2 && head -3 b.txt"); got != "1\n1\n2\ntri\n" {
		t.Errorf("after the refused merge, the open session's merge:\n%s", got)
	}
}

// TestConflictedPickKeepsHiddenPaths: a cherry-pick that conflicts on a
// hidden path is refused whole and leaves no pick in progress; one that
// conflicts on a visible path stops with its markers and state while the
// hidden file stays out of every message, status and diff, and --abort
// and --continue leave it as it was (G-4.5).
func TestConflictedPickKeepsHiddenPaths(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.txt": "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one && git checkout -q -b topic && echo t >> secret.txt && echo t >> a.txt && git commit -q -am both && echo t2 >> a.txt && git commit -q -am visible && git checkout -q main && echo m >> secret.txt && echo m >> a.txt && git commit -q -am main")
	out, errOut, code := hide.run("git cherry-pick topic~1")
	if code != 1 || !strings.Contains(errOut, "hidden from this session") || strings.Contains(out+errOut, "secret") {
		t.Errorf("pick with a hidden conflict: exit %d\n%s%s", code, out, errOut)
	}
	if got := open.must("git status -s; test -e .git/CHERRY_PICK_HEAD; echo $?; cat secret.txt"); got != "1\ns\nm\n" {
		t.Errorf("a refused pick changed something:\n%s", got)
	}
	open.must("git checkout -q topic -- secret.txt && git commit -q -m same")
	out, errOut, code = hide.run("git cherry-pick topic; git status; git diff; git ls-files -s; git cherry-pick --abort; git status -s")
	if code != 0 || !strings.Contains(out, "CONFLICT (content): Merge conflict in a.txt") || !strings.Contains(out, "You are currently cherry-picking commit") ||
		!strings.Contains(errOut, "error: could not apply") || strings.Contains(out+errOut, "secret") {
		t.Errorf("pick with a visible conflict in the hiding session: exit %d\n%s%s", code, out, errOut)
	}
	hide.run("git cherry-pick topic")
	hide.must("printf 'a\\nm\\nt2\\n' > a.txt && git add a.txt && git cherry-pick --continue")
	if got := open.must("git status -s; git log --format=%s -1; git show HEAD:secret.txt; git show HEAD:a.txt"); got != "visible\ns\nt\na\nm\nt2\n" {
		t.Errorf("after the pick in the hiding session:\n%s", got)
	}
}

// TestCheckIgnoreKeepsHiddenPaths compares check-ignore in a session that
// hides a tracked file and a directory holding a .gitignore with its
// twin where they never were: the answers are the same, so a hidden path
// is neither tracked nor a directory and a hidden ignore file is never
// read (G-4.5).
func TestCheckIgnoreKeepsHiddenPaths(t *testing.T) {
	t.Parallel()
	files := map[string]string{".gitignore": "*.env\n!keep.env\n", "a.txt": "a\n"}
	withSecret := map[string]string{".gitignore": "*.env\n!keep.env\n", "a.txt": "a\n", "secret.env": "k\n", "private/.gitignore": "*.txt\n", "private/p.txt": "p\n"}
	hide := gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.env", "/w/private"}}}}
	hw := multiWorld(t, withSecret, gate.ProfileSpec{Name: "open"}, hide)
	hw["open"].must(prepare + "git add -f secret.env a.txt .gitignore && git commit -q -m one")
	twin := multiWorld(t, files, gate.ProfileSpec{Name: "plain"})["plain"]
	twin.must(prepare + "git add a.txt .gitignore && git commit -q -m one")
	line := "git check-ignore -v -n secret.env private private/p.txt private/q.txt keep.env x.env a.txt; echo $?; printf 'secret.env\\nprivate/p.txt\\n' | git check-ignore --stdin; echo $?"
	gotOut, gotErr, gotCode := hw["hide"].run(line)
	wantOut, wantErr, wantCode := twin.run(line)
	if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
		t.Errorf("hidden world differs from its twin\nhidden: exit %d\n%s%s\ntwin: exit %d\n%s%s", gotCode, gotOut, gotErr, wantCode, wantOut, wantErr)
	}
	if !strings.Contains(gotOut, ".gitignore:1:*.env\tsecret.env\n") {
		t.Errorf("the hidden tracked file should read as untracked and ignored:\n%s", gotOut)
	}
	// The open session sees both: the tracked file is not ignored and
	// the directory's own .gitignore decides.
	if got := hw["open"].must("git check-ignore -v -n secret.env private/p.txt"); got != "::\tsecret.env\nprivate/.gitignore:1:*.txt\tprivate/p.txt\n" {
		t.Errorf("check-ignore in the open session:\n%s", got)
	}
}

// TestCommitPathsKeepsHiddenFiles: git commit PATHS in a session that
// hides a tracked file does not know it (named, it matches nothing git
// knows) and never commits its staged change through a directory or "."
// pathspec; the change stays staged for a session that sees it (G-4.5).
func TestCommitPathsKeepsHiddenFiles(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.txt": "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one && echo staged >> secret.txt && git add secret.txt")
	out, errOut, code := hide.run("git commit -m s secret.txt")
	if code != 1 || errOut != "error: pathspec 'secret.txt' did not match any file(s) known to git\n" {
		t.Errorf("commit of a hidden path: exit %d\n%s%s", code, out, errOut)
	}
	out = hide.must("echo x >> a.txt && git commit -m part . && git status -s")
	if strings.Contains(out, "secret") || !strings.Contains(out, "1 file changed") {
		t.Errorf("commit of . in the hiding session:\n%s", out)
	}
	if got := open.must("git show --format=%s --name-only HEAD; git status -s"); got != "part\n\na.txt\nM  secret.txt\n" {
		t.Errorf("after the hiding session's partial commit:\n%s", got)
	}
}

// TestHiddenExcludesFileIsNotRead: the user's ignore file is read through
// the door, so a hidden one (~/.config/git/ignore or core.excludesFile)
// ignores nothing and is named nowhere: status, check-ignore -v and clean
// answer as in a twin world without it (G-4.5).
func TestHiddenExcludesFileIsNotRead(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "a\n", "x.bak": "x\n", "z.swp": "z\n"}
	withSecret := map[string]string{"a.txt": "a\n", "x.bak": "x\n", "z.swp": "z\n", ".config/git/ignore": "*.bak\n", "my.ignore": "*.swp\n"}
	hide := gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/.config", "/w/my.ignore"}}}}
	hw := multiWorld(t, withSecret, gate.ProfileSpec{Name: "open"}, hide)
	twin := multiWorld(t, files, gate.ProfileSpec{Name: "plain"})["plain"]
	hw["open"].must(prepare + "git add a.txt && git commit -q -m one")
	twin.must(prepare + "git add a.txt && git commit -q -m one")
	line := "git status --short --ignored; git check-ignore -v x.bak z.swp; echo $?; git -c core.excludesFile=my.ignore check-ignore -v z.swp; echo $?; git -c core.excludesFile=my.ignore clean -n"
	gotOut, gotErr, gotCode := hw["hide"].run(line)
	wantOut, wantErr, wantCode := twin.run(line)
	if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
		t.Errorf("hidden world differs from its twin\nhidden: exit %d\n%s%s\ntwin: exit %d\n%s%s", gotCode, gotOut, gotErr, wantCode, wantOut, wantErr)
	}
	if got := hw["open"].must("git check-ignore -v x.bak; git -c core.excludesFile=my.ignore check-ignore -v z.swp"); got != "/w/.config/git/ignore:1:*.bak\tx.bak\nmy.ignore:1:*.swp\tz.swp\n" {
		t.Errorf("check-ignore in the open session:\n%s", got)
	}
}

// TestPickaxeKeepsHiddenAndDeniedContent: log -S and -G search only what
// the session may read: a hidden file's history is not there and a denied
// file's content is never searched, so neither can be probed a string at
// a time (G-4.5, G-6.1).
func TestPickaxeKeepsHiddenAndDeniedContent(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.env": "TOKEN=1\n", "creds.env": "PASS=2\n"},
		gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.env"}}},
			Deny: []gate.Rule{{Reason: "credentials are never read by hand", Paths: []string{"/w/creds.env"}}}})
	w["open"].must(prepare + "git add -A && git commit -q -m one && echo TOKEN=3 >> secret.env && echo PASS=4 >> creds.env && git commit -qam two")
	if got := w["open"].must("git log -S TOKEN --oneline --name-only | grep -c env; git log -G PASS --format=%s | wc -l"); got != "2\n2\n" {
		t.Errorf("the open session should find both files:\n%s", got)
	}
	for _, line := range []string{"git log -S TOKEN --oneline", "git log -G TOKEN --oneline", "git log -S PASS --oneline", "git log -G 'PASS=[24]' --oneline --stat", "git log -S TOKEN --pickaxe-all --oneline --name-only"} {
		out, errOut, code := w["hide"].run(line)
		if out != "" || code != 0 || strings.Contains(errOut, "secret") {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q", line, code, out, errOut)
		}
	}
}

// TestDescribeShortlogMailmapKeepHiddenPaths: describe --dirty does not
// count a change to a hidden file (status shows none), shortlog limited
// to a hidden path answers as for a missing one, and a hidden .mailmap
// is never read, so no name it holds reaches log, shortlog or blame
// (G-4.5).
func TestDescribeShortlogMailmapKeepHiddenPaths(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "a\n", "secret.env": "TOKEN=1\n", ".mailmap": "Hidden Alias <alias@corp> <author@example.com>\n"}
	w := multiWorld(t, files,
		gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.env", "/w/.mailmap"}}}})
	w["open"].must(prepare + "git add -A && git commit -q -m one && git tag -a v1 -m v1 && echo TOKEN=2 >> secret.env")
	if got := w["open"].must("git describe --dirty; git shortlog -s HEAD -- secret.env; git log -1 | grep Author"); got != "v1-dirty\n     1\tHidden Alias\nAuthor: Hidden Alias <alias@corp>\n" {
		t.Errorf("the open session should see the change and the mailmap:\n%s", got)
	}
	cases := []struct{ line, want string }{
		{"git describe --dirty; git describe --dirty=-x --long", "v1\nv1-0-g" + strings.TrimSpace(w["hide"].must("git rev-parse --short HEAD")) + "\n"},
		{"git shortlog -s HEAD -- secret.env; git shortlog -s HEAD -- nothere.env", ""},
		{"git shortlog -se HEAD", "     1\tA U Thor <author@example.com>\n"},
		{"git log -1 --format='%aN <%aE>|%cN'; git log -1 | grep Author", "A U Thor <author@example.com>|A U Thor\nAuthor: A U Thor <author@example.com>\n"},
		{"git blame a.txt | grep -c 'A U Thor'; git log --author=Alias --oneline", "1\n"},
		{"git log | git shortlog -s", "     1\tA U Thor\n"},
	}
	for _, c := range cases {
		out, errOut, code := w["hide"].run(c.line)
		if out != c.want || code != 0 || strings.Contains(out+errOut, "Alias") || strings.Contains(out+errOut, "secret") {
			t.Errorf("%s: exit %d\nstdout %q\nwant   %q\nstderr %q", c.line, code, out, c.want, errOut)
		}
	}
}

// TestStagesAndMovedRenamesKeepHiddenPaths: ":N:PATH" of a hidden file
// answers as for a name the index lacks (never "not at stage N"), and a
// rename into a directory the other side renamed whole is not moved onto
// a place the session cannot see: the merge neither writes nor names it
// (G-4.5).
func TestStagesAndMovedRenamesKeepHiddenPaths(t *testing.T) {
	t.Parallel()
	seq := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.txt": "s\n", "f.txt": seq, "d/x": "x\n", "d/y": "y\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt", "/w/e/f.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one && git checkout -q -b topic && echo t >> a.txt && git commit -q -am t && git checkout -q main && echo m >> a.txt && git commit -q -am m")
	hide.run("git merge topic")
	for _, stage := range []string{"0", "1", "2", "3"} {
		_, errOut, code := hide.run("git cat-file -p :" + stage + ":secret.txt")
		_, wantErr, wantCode := hide.run("git cat-file -p :" + stage + ":nothere.txt")
		if code != wantCode || errOut != strings.ReplaceAll(wantErr, "nothere.txt", "secret.txt") {
			t.Errorf(":%s:secret.txt: exit %d %q, a missing name: exit %d %q", stage, code, errOut, wantCode, wantErr)
		}
	}
	if got := hide.must("git cat-file -p :2:a.txt"); got != "a\nm\n" {
		t.Errorf(":2:a.txt: %q", got)
	}
	open.must("git merge --abort && git checkout -q -b mv && git mv f.txt d/f.txt && sed -i 's/^1$/one/' d/f.txt && git commit -q -am mvin && git checkout -q main && git mv d e && sed -i 's/^9$/nine/' f.txt && git commit -q -am mvdir")
	out, errOut, _ := hide.run("git merge mv; git status -s; git ls-files")
	if strings.Contains(out+errOut, "e/f.txt") || strings.Contains(out+errOut, "secret") {
		t.Errorf("the merge named the hidden place:\n%s%s", out, errOut)
	}
	if got := open.must("git ls-files -s e/f.txt; test -e e/f.txt; echo $?"); got != "1\n" {
		t.Errorf("the hidden place was written:\n%s", got)
	}
}

// TestStashMergeKeepsHiddenFiles: a stash applied onto a HEAD that moved
// is a whole-tree merge; in a session that hides a file it merges the
// visible files and never names, reads or writes the hidden one, and a
// stash that changed the hidden file is refused whole (G-4.5).
func TestStashMergeKeepsHiddenFiles(t *testing.T) {
	t.Parallel()
	seq := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
	w := multiWorld(t, map[string]string{"a.txt": seq, "secret.txt": "s\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.txt"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one")
	hide.must("sed -i 's/^1$/ONE/' a.txt && git rm -q --cached a.txt && git stash -q")
	open.must("sed -i 's/^9$/nine/' a.txt && echo moved >> secret.txt && git commit -q -am two")
	out, errOut, code := hide.run("git stash pop; git status -s; head -1 a.txt; tail -1 a.txt")
	if code != 0 || strings.Contains(out+errOut, "secret") || !strings.HasSuffix(out, " M a.txt\nONE\nnine\n") {
		t.Errorf("pop onto a moved HEAD in the hiding session: exit %d\n%s%s", code, out, errOut)
	}
	if got := open.must("cat secret.txt; git status -s"); got != "s\nmoved\n M a.txt\n" {
		t.Errorf("the hidden file or the index changed:\n%s", got)
	}
	open.must("git checkout -q a.txt && echo stashed >> secret.txt && git stash -q && echo again >> a.txt && git commit -q -am three")
	out, errOut, code = hide.run("git stash pop; git stash list | wc -l")
	if code != 0 || !strings.Contains(errOut, "hidden from this session") || strings.Contains(out+errOut, "secret") || !strings.HasSuffix(out, "1\n") {
		t.Errorf("pop of a stash that changed the hidden file: exit %d\n%s%s", code, out, errOut)
	}
	if got := open.must("cat secret.txt"); got != "s\nmoved\n" {
		t.Errorf("the refused pop wrote the hidden file:\n%s", got)
	}
}

// TestDiffNoIndexKeepsHiddenFiles: git diff --no-index reads through
// the door: a hidden file answers as a missing one, and two directories
// are compared without it (G-4.5).
func TestDiffNoIndexKeepsHiddenFiles(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.txt": "a\n", "x/f": "1\n", "y/f": "2\n", "y/secret.env": "TOKEN=1\n", "x/secret.env": "TOKEN=0\n"}
	w := multiWorld(t, files, gate.ProfileSpec{Name: "open"},
		gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/y/secret.env", "/w/x/secret.env"}}}})
	if got, _, _ := w["open"].run("git diff --no-index --name-status x y"); got != "M\tx/f\nM\tx/secret.env\n" {
		t.Errorf("the open session should see both files:\n%s", got)
	}
	out, errOut, code := w["hide"].run("git diff --no-index x y; echo $?; git diff --no-index --stat x y")
	if code != 1 || strings.Contains(out+errOut, "secret") || strings.Contains(out+errOut, "TOKEN") || !strings.Contains(out, "1 file changed") {
		t.Errorf("directories in the hiding session:\n%s%s", out, errOut)
	}
	_, errOut, code = w["hide"].run("git diff --no-index y/secret.env a.txt")
	_, wantErr, wantCode := w["hide"].run("git diff --no-index y/nothere.env a.txt")
	if code != wantCode || errOut != strings.ReplaceAll(wantErr, "nothere", "secret") {
		t.Errorf("a hidden file: exit %d %q; a missing one: exit %d %q", code, errOut, wantCode, wantErr)
	}
}

// TestApplyKeepsHiddenFiles: git apply reads and writes through the
// door: a patch to a hidden file answers as for a missing one, one that
// creates it cannot write it, and neither changes it (G-4.5).
func TestApplyKeepsHiddenFiles(t *testing.T) {
	t.Parallel()
	w := multiWorld(t, map[string]string{"a.txt": "a\n", "secret.env": "TOKEN=1\n"},
		gate.ProfileSpec{Name: "open"}, gate.ProfileSpec{Name: "hide", Hide: []gate.PathGroup{{Paths: []string{"/w/secret.env"}}}})
	open, hide := w["open"], w["hide"]
	open.must(prepare + "git add -A && git commit -q -m one")
	edit := "diff --git a/secret.env b/secret.env\n--- a/secret.env\n+++ b/secret.env\n@@ -1 +1 @@\n-TOKEN=1\n+TOKEN=2\n"
	missing := strings.ReplaceAll(edit, "secret", "nothere")
	_, errOut, code := hide.run("printf '" + edit + "' | git apply")
	_, wantErr, wantCode := hide.run("printf '" + missing + "' | git apply")
	if code != wantCode || errOut != strings.ReplaceAll(wantErr, "nothere", "secret") {
		t.Errorf("a patch to a hidden file: exit %d %q; to a missing one: exit %d %q", code, errOut, wantCode, wantErr)
	}
	create := "diff --git a/secret.env b/secret.env\nnew file mode 100644\n--- /dev/null\n+++ b/secret.env\n@@ -0,0 +1 @@\n+TOKEN=9\n"
	out, errOut, code := hide.run("printf '" + create + "' | git apply; git apply --cached <<'EOF'\n" + edit + "EOF\n")
	if code == 0 || strings.Contains(out+errOut, "TOKEN") {
		t.Errorf("patches creating or staging the hidden file: exit %d\n%s%s", code, out, errOut)
	}
	if got := open.must("cat secret.env; git status -s; git diff --cached --stat"); got != "TOKEN=1\n" {
		t.Errorf("the hidden file changed:\n%s", got)
	}
}
