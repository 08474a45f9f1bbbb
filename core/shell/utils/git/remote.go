package git

import (
	"fmt"
	"strings"
)

// push, fetch, pull and ls-remote: a workspace has no network, and this
// git moves no objects between repositories after clone. Each still
// answers as git 2.39 does up to the moment it would reach the remote —
// no destination configured, no upstream, a detached HEAD, a name that
// is no remote and no repository — and then refuses in git's shape: a
// network URL is "unable to access" it, a repository in the workspace is
// not supported here.

const noPushDestination = `fatal: No configured push destination.
Either specify the URL from the command-line or configure a remote repository using

    git remote add <name> <url>

and then push using the remote name

    git push <name>

`

const notARepository = `fatal: '%s' does not appear to be a git repository
fatal: Could not read from remote repository.

Please make sure you have the correct access rights
and the repository exists.
`

// remoteArgs splits a remote command's arguments into flags and the
// rest; "--" ends the flags.
func remoteArgs(args []string) (flags map[string]bool, rest []string) {
	flags = map[string]bool{}
	for i, a := range args {
		if a == "--" {
			return flags, append(rest, args[i+1:]...)
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			flags[a] = true
			continue
		}
		rest = append(rest, a)
	}
	return flags, rest
}

// currentBranch is HEAD's branch name without refs/heads/ ("" when
// detached).
func (r *repo) currentBranch() string {
	branch, _, err := r.head()
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(branch.String(), "refs/heads/")
}

// hasRemote tells whether a remote of that name is configured.
func (r *repo) hasRemote(name string) bool {
	for _, n := range r.remoteNames() {
		if n == name {
			return true
		}
	}
	return false
}

// fetchRemote is the remote a fetch without one uses: the branch's
// upstream remote, else origin when it is configured, else "".
func (r *repo) fetchRemote(branch string) string {
	if branch != "" {
		if v, ok := r.cfg.get("branch." + branch + ".remote"); ok && v != "" {
			return v
		}
	}
	if r.hasRemote("origin") {
		return "origin"
	}
	return ""
}

// reach is the moment a remote command would connect to name (a remote
// or a URL): it never does.
func (r *repo) reach(name string, push bool) error {
	url := name
	if r.hasRemote(name) {
		url, _ = r.cfg.get("remote." + name + ".url")
		if pu, ok := r.cfg.get("remote." + name + ".pushurl"); push && ok {
			url = pu
		}
	}
	if isNetworkURL(url) {
		if strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://") {
			url = strings.TrimSuffix(url, "/") + "/"
		}
		return fatalf("unable to access '%s': a workspace has no network", url)
	}
	abs := r.g.env.Abs(url)
	for _, head := range []string{strings.TrimSuffix(abs, "/.git") + "/.git/HEAD", abs + "/HEAD"} {
		if _, err := r.g.gitfs.Stat(head); err == nil {
			return &exitError{msg: "git: exchanging objects with another repository ('" + url + "') is not supported here; only clone copies one\n", code: 1}
		}
	}
	return &exitError{msg: fmt.Sprintf(notARepository, url), code: 128}
}

func runPush(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	flags, rest := remoteArgs(args)
	branch := r.currentBranch()
	remote := ""
	if len(rest) > 0 {
		remote = rest[0]
	} else {
		for _, k := range []string{"branch." + branch + ".pushremote", "remote.pushdefault", "branch." + branch + ".remote"} {
			if v, ok := r.cfg.get(k); ok && v != "" && (branch != "" || k == "remote.pushdefault") {
				remote = v
				break
			}
		}
		if remote == "" && r.hasRemote("origin") {
			remote = "origin"
		}
		if remote == "" {
			return &exitError{msg: noPushDestination, code: 128}
		}
	}
	whole := flags["--all"] || flags["--tags"] || flags["--mirror"] || flags["--branches"]
	if len(rest) < 2 && !whole {
		if branch == "" {
			return fatalf("You are not currently on a branch.\nTo push the history leading to the current (detached HEAD)\nstate now, use\n\n    git push %s HEAD:<name-of-remote-branch>\n", remote)
		}
		fetch := r.fetchRemote(branch)
		triangular := fetch != "" && fetch != remote
		if _, ok := r.cfg.get("branch." + branch + ".merge"); !ok && !triangular {
			return fatalf("The current branch %s has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream %s %s\n\nTo have this happen automatically for branches without a tracking\nupstream, see 'push.autoSetupRemote' in 'git help config'.\n", branch, remote, branch)
		}
	}
	return r.reach(remote, true)
}

func runFetch(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	flags, rest := remoteArgs(args)
	var remotes []string
	switch {
	case len(rest) > 0:
		remotes = rest[:1]
	case flags["--all"]:
		remotes = r.remoteNames()
	default:
		if name := r.fetchRemote(r.currentBranch()); name != "" {
			remotes = []string{name}
		}
	}
	for _, name := range remotes {
		if err := r.reach(name, false); err != nil {
			return err
		}
	}
	return nil
}

func runPull(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	flags, rest := remoteArgs(args)
	branch := r.currentBranch()
	remote := ""
	if len(rest) > 0 {
		remote = rest[0]
	} else {
		remote = r.fetchRemote(branch)
	}
	if remote != "" {
		if err := r.reach(remote, false); err != nil {
			if ee, ok := err.(*exitError); ok && ee.code == 128 {
				ee.code = 1
			}
			return err
		}
	}
	verb, upstream := "merge with", "<remote>"
	if flags["--rebase"] || flags["-r"] {
		verb, upstream = "rebase against", "origin"
	}
	if branch == "" {
		return &exitError{msg: "You are not currently on a branch.\nPlease specify which branch you want to " + verb + ".\nSee git-pull(1) for details.\n\n    git pull <remote> <branch>\n\n", code: 1}
	}
	return &exitError{msg: "There is no tracking information for the current branch.\nPlease specify which branch you want to " + verb + ".\nSee git-pull(1) for details.\n\n    git pull <remote> <branch>\n\nIf you wish to set tracking information for this branch you can do so with:\n\n    git branch --set-upstream-to=" + upstream + "/<branch> " + branch + "\n\n", code: 1}
}

func runLsRemote(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	_, rest := remoteArgs(args)
	remote := ""
	if len(rest) > 0 {
		remote = rest[0]
	} else if remote = r.fetchRemote(r.currentBranch()); remote == "" {
		return fatalf("No remote configured to list refs from.")
	}
	return r.reach(remote, false)
}
