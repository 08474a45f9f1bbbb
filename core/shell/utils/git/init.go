package git

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

const initHint = `hint: Using 'master' as the name for the initial branch. This default branch name
hint: is subject to change. To configure the initial branch name to use in all
hint: of your new repositories, which will suppress this warning, call:
hint: 
hint: 	git config --global init.defaultBranch <name>
hint: 
hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and
hint: 'development'. The just-created branch can be renamed via this command:
hint: 
hint: 	git branch -m <name>
`

const excludeText = `# git ls-files --others --exclude-from=.git/info/exclude
# Lines that start with '#' are comments.
# For a project mostly in C, the following would be a good set of
# exclude patterns (uncomment them if you want to use them):
# *.[oa]
# *~
`

const configText = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"

func runInit(g *cmd, args []string) error {
	quiet, branch, dir := false, "", ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-b" || a == "--initial-branch":
			if i+1 >= len(args) {
				return usageErr("error: switch `b' requires a value\n")
			}
			i++
			branch = args[i]
		case strings.HasPrefix(a, "--initial-branch="):
			branch = strings.TrimPrefix(a, "--initial-branch=")
		case a == "--bare":
			return &exitError{msg: "git: 'init --bare' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "-"):
			return unknownOption("init", a)
		case dir == "":
			dir = a
		default:
			return usageErr("usage: git init [-q | --quiet] [--bare] [--template=<template-directory>]\n                [--separate-git-dir <git-dir>] [--object-format=<format>]\n                [-b <branch-name> | --initial-branch=<branch-name>]\n                [--shared[=<permissions>]] [<directory>]\n")
		}
	}
	work := g.env.Abs(dir)
	if g.insideGitDir(work) {
		return errInGitDir
	}
	if err := mkdirAll(g.fsys, work, 0o777); err != nil {
		return fatalf("cannot mkdir %s: %s", dir, errText(err))
	}
	if g.insideGitDir(work) {
		return errInGitDir
	}
	gd := path.Join(work, ".git")
	if _, err := g.gitfs.Stat(gd + "/HEAD"); err == nil {
		if branch != "" {
			fmt.Fprintf(g.errw, "warning: re-init: ignored --initial-branch=%s\n", branch)
		}
		if !quiet {
			fmt.Fprintf(g.out, "Reinitialized existing Git repository in %s/\n", gd)
		}
		return nil
	}
	hint := false
	if branch == "" {
		cfg := g.loadConfig("")
		if v, ok := g.configValue(cfg, "init.defaultbranch"); ok && v != "" {
			branch = v
		} else {
			branch, hint = "master", true
		}
	}
	if !plumbing.NewBranchReferenceName(branch).IsBranch() || strings.ContainsAny(branch, " ~^:?*[\\") || strings.Contains(branch, "..") {
		return fatalf("invalid initial branch name: '%s'", branch)
	}
	for _, d := range []string{"", "/objects/info", "/objects/pack", "/refs/heads", "/refs/tags", "/info", "/branches", "/hooks"} {
		if err := mkdirAll(g.gitfs, gd+d, 0o777); err != nil {
			return fatalf("cannot mkdir %s: %s", gd+d, errText(err))
		}
	}
	files := []struct{ name, text string }{
		{"HEAD", "ref: refs/heads/" + branch + "\n"},
		{"config", configText},
		{"description", "Unnamed repository; edit this file 'description' to name the repository.\n"},
		{"info/exclude", excludeText},
	}
	for _, f := range files {
		if err := writeFile(g.gitfs, gd+"/"+f.name, []byte(f.text), 0o644); err != nil {
			return fatalf("could not write %s: %s", gd+"/"+f.name, errText(err))
		}
	}
	if hint && !quiet {
		g.errw.Write([]byte(initHint))
	}
	if !quiet {
		fmt.Fprintf(g.out, "Initialized empty Git repository in %s/\n", gd)
	}
	return nil
}

// configValue is a setting from -c, else from the files.
func (g *cmd) configValue(c *configSet, key string) (string, bool) {
	if v, ok := g.overrides[strings.ToLower(key)]; ok {
		return v, true
	}
	return c.get(key)
}
