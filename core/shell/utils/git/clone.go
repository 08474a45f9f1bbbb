package git

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// isNetworkURL tells a remote URL from a path: a scheme ("https://",
// "ssh://", "git://", "file://") or scp's "host:path" form.
func isNetworkURL(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	colon := strings.IndexByte(s, ':')
	slash := strings.IndexByte(s, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}

func runClone(g *cmd, args []string) error {
	quiet := false
	var rest []string
	for _, a := range args {
		switch {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--no-hardlinks" || a == "-l" || a == "--local":
		case strings.HasPrefix(a, "-"):
			return &exitError{msg: "git: 'clone " + a + "' is not supported here\n", code: 1}
		default:
			rest = append(rest, a)
		}
	}
	if len(rest) == 0 || len(rest) > 2 {
		return usageErr("usage: git clone [<options>] [--] <repo> [<dir>]\n")
	}
	src := rest[0]
	if isNetworkURL(src) {
		return fatalf("'%s': network remotes are not supported here; clone a repository from a path inside the workspace", src)
	}
	srcAbs := g.env.Abs(src)
	srcWork := strings.TrimSuffix(srcAbs, "/.git")
	if _, err := g.gitfs.Stat(srcWork + "/.git/HEAD"); err != nil {
		return fatalf("repository '%s' does not exist", src)
	}
	dir := ""
	if len(rest) == 2 {
		dir = rest[1]
	} else {
		dir = strings.TrimSuffix(path.Base(srcWork), ".git")
	}
	dst := g.env.Abs(dir)
	if g.insideGitDir(path.Dir(dst)) || path.Base(dst) == ".git" {
		return errInGitDir
	}
	if entries, err := g.fsys.ReadDir(dst); err == nil && len(entries) > 0 {
		return fatalf("destination path '%s' already exists and is not an empty directory.", dir)
	}
	from := g.openRepo(srcWork)
	if err := from.checkClonable(); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(g.errw, "Cloning into '%s'...\n", dir)
	}
	branch, head, err := from.head()
	if err != nil {
		return err
	}
	initArgs := []string{"-q", dir}
	if branch != "" {
		initArgs = []string{"-q", "-b", branch.Short(), dir}
	}
	if err := runInit(g, initArgs); err != nil {
		return err
	}
	to := g.openRepo(dst)
	if err := to.copyHistory(from); err != nil {
		return err
	}
	if err := to.setUpstream(srcWork, branch, head); err != nil {
		return err
	}
	if !head.IsZero() {
		if err := to.moveTree(plumbing.ZeroHash, head); err != nil {
			return err
		}
	} else if !quiet {
		fmt.Fprintln(g.errw, "warning: You appear to have cloned an empty repository.")
	}
	if !quiet && !head.IsZero() {
		fmt.Fprintln(g.errw, "done.")
	}
	return nil
}

// checkClonable refuses a repository whose history holds a path this
// session may not read: the copy would put that content under new path
// names no rule covers.
func (r *repo) checkClonable() error {
	refs, err := r.refs()
	if err != nil {
		return err
	}
	starts := []plumbing.Hash{}
	for _, ref := range refs {
		starts = append(starts, ref.Hash())
	}
	if _, h, err := r.head(); err == nil && !h.IsZero() {
		starts = append(starts, h)
	}
	commits, trees := map[plumbing.Hash]bool{}, map[plumbing.Hash]bool{}
	var walkTree func(h plumbing.Hash, prefix string) error
	walkTree = func(h plumbing.Hash, prefix string) error {
		if trees[h] {
			return nil
		}
		trees[h] = true
		entries, err := r.readTree(h)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := prefix + e.Name
			if r.readablePath(p) != nil {
				return fatalf("'%s' holds files this session may not read; it cannot be cloned here", r.work)
			}
			if e.Mode == filemode.Dir {
				if err := walkTree(e.Hash, p+"/"); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for len(starts) > 0 {
		h := starts[len(starts)-1]
		starts = starts[:len(starts)-1]
		if commits[h] {
			continue
		}
		commits[h] = true
		c, err := r.readCommit(h)
		if err != nil {
			continue
		}
		if err := walkTree(c.Tree, ""); err != nil {
			return err
		}
		starts = append(starts, c.Parents...)
	}
	return nil
}

// copyHistory copies every object reachable from the source's refs and
// makes its branches the clone's remote-tracking branches, its tags tags.
func (r *repo) copyHistory(from *repo) error {
	refs, err := from.refs()
	if err != nil {
		return err
	}
	seen := map[plumbing.Hash]bool{}
	var copyObj func(h plumbing.Hash) error
	copyObj = func(h plumbing.Hash) error {
		if seen[h] {
			return nil
		}
		seen[h] = true
		t, data, err := from.readObject(h)
		if err != nil {
			return err
		}
		if _, err := r.writeObject(t, data); err != nil {
			return fatalf("%s", errText(err))
		}
		switch t {
		case plumbing.CommitObject:
			c, err := decodeCommit(h, data)
			if err != nil {
				return err
			}
			if err := copyObj(c.Tree); err != nil {
				return err
			}
			for _, p := range c.Parents {
				if err := copyObj(p); err != nil {
					return err
				}
			}
		case plumbing.TreeObject:
			entries, err := decodeTree(data)
			if err != nil {
				return err
			}
			for _, e := range entries {
				if e.Mode != filemode.Submodule {
					if err := copyObj(e.Hash); err != nil {
						return err
					}
				}
			}
		case plumbing.TagObject:
			return copyObj(decodeTag(data).Object)
		}
		return nil
	}
	for _, ref := range refs {
		if err := copyObj(ref.Hash()); err != nil {
			return err
		}
		switch {
		case ref.Name().IsBranch():
			err = r.setRef(plumbing.NewRemoteReferenceName("origin", ref.Name().Short()), ref.Hash())
		case ref.Name().IsTag():
			err = r.setRef(ref.Name(), ref.Hash())
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// setUpstream writes the origin remote and the current branch's upstream,
// and points the branch at the source's HEAD.
func (r *repo) setUpstream(url string, branch plumbing.ReferenceName, head plumbing.Hash) error {
	c := r.g.loadConfig(r.gitDir)
	c.local.SetOption("remote", "origin", "url", url)
	c.local.SetOption("remote", "origin", "fetch", "+refs/heads/*:refs/remotes/origin/*")
	if branch != "" && !head.IsZero() {
		c.local.SetOption("branch", branch.Short(), "remote", "origin")
		c.local.SetOption("branch", branch.Short(), "merge", string(branch))
		if err := r.setRef(branch, head); err != nil {
			return err
		}
		r.st.SetReference(plumbing.NewSymbolicReference("refs/remotes/origin/HEAD", plumbing.NewRemoteReferenceName("origin", branch.Short())))
	}
	return r.g.writeConfig(c.local, c.localPath)
}

// upstreamLine is long status's "Your branch is …" sentence for a branch
// with an upstream, "" without one.
func (r *repo) upstreamLine(branch plumbing.ReferenceName, head plumbing.Hash) string {
	if branch == "" || head.IsZero() {
		return ""
	}
	remote, ok1 := r.cfg.get("branch." + branch.Short() + ".remote")
	merge, ok2 := r.cfg.get("branch." + branch.Short() + ".merge")
	if !ok1 || !ok2 {
		return ""
	}
	upName := remote + "/" + plumbing.ReferenceName(merge).Short()
	ref, err := r.st.Reference(plumbing.NewRemoteReferenceName(remote, plumbing.ReferenceName(merge).Short()))
	if err != nil {
		return fmt.Sprintf("Your branch is based on '%s', but the upstream is gone.\n  (use \"git branch --unset-upstream\" to fixup)\n", upName)
	}
	ahead, behind := r.aheadBehind(head, ref.Hash())
	switch {
	case ahead == 0 && behind == 0:
		return fmt.Sprintf("Your branch is up to date with '%s'.\n", upName)
	case behind == 0:
		return fmt.Sprintf("Your branch is ahead of '%s' by %d commit%s.\n  (use \"git push\" to publish your local commits)\n", upName, ahead, plural(ahead))
	case ahead == 0:
		return fmt.Sprintf("Your branch is behind '%s' by %d commit%s, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n", upName, behind, plural(behind))
	}
	return fmt.Sprintf("Your branch and '%s' have diverged,\nand have %d and %d different commits each, respectively.\n  (use \"git pull\" to merge the remote branch into yours)\n", upName, ahead, behind)
}

// aheadBehind counts the commits only a has and only b has.
func (r *repo) aheadBehind(a, b plumbing.Hash) (int, int) {
	ma, mb := map[plumbing.Hash]bool{}, map[plumbing.Hash]bool{}
	if r.markAncestors(a, ma) != nil || r.markAncestors(b, mb) != nil {
		return 0, 0
	}
	ahead, behind := 0, 0
	for h := range ma {
		if !mb[h] {
			ahead++
		}
	}
	for h := range mb {
		if !ma[h] {
			behind++
		}
	}
	return ahead, behind
}

// upstreamShort is short status's "...origin/main [ahead 1]" suffix.
func (r *repo) upstreamShort(branch plumbing.ReferenceName, head plumbing.Hash) string {
	remote, ok1 := r.cfg.get("branch." + branch.Short() + ".remote")
	merge, ok2 := r.cfg.get("branch." + branch.Short() + ".merge")
	if !ok1 || !ok2 || head.IsZero() {
		return ""
	}
	short := plumbing.ReferenceName(merge).Short()
	ref, err := r.st.Reference(plumbing.NewRemoteReferenceName(remote, short))
	if err != nil {
		return "..." + remote + "/" + short + " [gone]"
	}
	ahead, behind := r.aheadBehind(head, ref.Hash())
	s := "..." + remote + "/" + short
	switch {
	case ahead > 0 && behind > 0:
		s += fmt.Sprintf(" [ahead %d, behind %d]", ahead, behind)
	case ahead > 0:
		s += fmt.Sprintf(" [ahead %d]", ahead)
	case behind > 0:
		s += fmt.Sprintf(" [behind %d]", behind)
	}
	return s
}
