package git

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// cleanOptions are git clean's flags.
type cleanOptions struct {
	force, dryRun, dirs, quiet bool
	ignoredToo, onlyIgnored    bool
	paths                      []string
}

// runClean is git clean: untracked files go (directories with -d; ignored
// files too with -x, only them with -X), judged like every other delete.
// Paths the door hides are never listed, so never removed.
func runClean(g *cmd, args []string) error {
	var o cleanOptions
	dashdash := false
	for _, a := range args {
		switch {
		case dashdash || !strings.HasPrefix(a, "-") || a == "-":
			o.paths = append(o.paths, a)
		case a == "--":
			dashdash = true
		case a == "--force":
			o.force = true
		case a == "--dry-run":
			o.dryRun = true
		case a == "--quiet":
			o.quiet = true
		case a == "-i" || a == "--interactive" || a == "-e" || strings.HasPrefix(a, "--exclude"):
			return &exitError{msg: "git: 'clean " + a + "' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "--"):
			return unknownOption("clean", a)
		default:
			for _, c := range a[1:] {
				switch c {
				case 'f':
					o.force = true
				case 'n':
					o.dryRun = true
				case 'd':
					o.dirs = true
				case 'q':
					o.quiet = true
				case 'x':
					o.ignoredToo = true
				case 'X':
					o.onlyIgnored = true
				default:
					return unknownOption("clean", "-"+string(c))
				}
			}
		}
	}
	if o.ignoredToo && o.onlyIgnored {
		return fatalf("-x and -X cannot be used together")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	if !o.force && !o.dryRun {
		return fatalf("clean.requireForce defaults to true and neither -i, -n, nor -f given; refusing to clean")
	}
	victims, err := r.cleanable(o)
	if err != nil {
		return err
	}
	for _, p := range victims {
		name := r.rel(strings.TrimSuffix(p, "/"))
		if strings.HasSuffix(p, "/") {
			name += "/"
		}
		if o.dryRun {
			fmt.Fprintf(g.out, "Would remove %s\n", quotePath(name))
			continue
		}
		if !o.quiet {
			fmt.Fprintf(g.out, "Removing %s\n", quotePath(name))
		}
		if err := r.removeTree(strings.TrimSuffix(p, "/")); err != nil {
			g.out.Flush()
			fmt.Fprintf(g.errw, "warning: failed to remove %s: %s\n", name, errText(err))
		}
	}
	return nil
}

// cleanable lists what git clean would remove, sorted; a directory ends
// in "/". Without pathspecs it is what lies under the current directory.
func (r *repo) cleanable(o cleanOptions) ([]string, error) {
	idx, err := r.loadIndex()
	if err != nil {
		return nil, err
	}
	list := func(noIgnore bool) ([]string, error) {
		s := newScanner(r, idx)
		s.noIgnore = noIgnore
		sc, err := s.run()
		if err != nil {
			return nil, err
		}
		return sc.untracked, nil
	}
	var candidates []string
	switch {
	case o.ignoredToo:
		candidates, err = list(true)
	case o.onlyIgnored:
		var all, plain []string
		if all, err = list(true); err != nil {
			return nil, err
		}
		if plain, err = list(false); err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, p := range plain {
			seen[p] = true
		}
		for _, p := range all {
			if !seen[p] {
				candidates = append(candidates, p)
			}
		}
	default:
		candidates, err = list(false)
	}
	if err != nil {
		return nil, err
	}
	paths := o.paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	specs, err := r.pathspecs(paths)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range candidates {
		// Without -d an untracked directory stays, and so do the files
		// in it: git does not go into one.
		if !o.dirs && strings.HasSuffix(p, "/") {
			continue
		}
		if matchAny(specs, strings.TrimSuffix(p, "/")) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// removeTree removes a worktree path and, for a directory, what the
// session can see in it; a directory still holding what it cannot see
// stays.
func (r *repo) removeTree(p string) error {
	abs := r.abs(p)
	info, err := r.g.fsys.Lstat(abs)
	if err != nil {
		return err
	}
	if info.IsDir() {
		entries, err := r.g.fsys.ReadDir(abs)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := r.removeTree(joinRel(p, e.Name())); err != nil {
				return err
			}
		}
	}
	err = r.g.fsys.Remove(abs)
	if err != nil && info.IsDir() && !errors.Is(err, fs.ErrPermission) {
		return nil // not empty: holds what the session cannot see
	}
	return err
}

// runRemote is git remote: list (-v), add, remove/rm, get-url, set-url.
// Remotes are configuration here: nothing is fetched or pushed.
func runRemote(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	verbose := false
	for len(args) > 0 && (args[0] == "-v" || args[0] == "--verbose") {
		verbose, args = true, args[1:]
	}
	names := r.remoteNames()
	if len(args) == 0 {
		for _, n := range names {
			if !verbose {
				fmt.Fprintln(g.out, n)
				continue
			}
			url, _ := r.cfg.get("remote." + n + ".url")
			push := url
			if pu, ok := r.cfg.get("remote." + n + ".pushurl"); ok {
				push = pu
			}
			fmt.Fprintf(g.out, "%s\t%s (fetch)\n%s\t%s (push)\n", n, url, n, push)
		}
		return nil
	}
	has := func(n string) bool {
		for _, x := range names {
			if x == n {
				return true
			}
		}
		return false
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "add":
		if len(rest) != 2 || strings.HasPrefix(rest[0], "-") {
			return usageErr("usage: git remote add [<options>] <name> <url>\n")
		}
		if has(rest[0]) {
			return &exitError{msg: fmt.Sprintf("error: remote %s already exists.\n", rest[0]), code: 3}
		}
		c := g.loadConfig(r.gitDir)
		c.local.SetOption("remote", rest[0], "url", rest[1])
		c.local.SetOption("remote", rest[0], "fetch", "+refs/heads/*:refs/remotes/"+rest[0]+"/*")
		return g.writeConfig(c.local, c.localPath)
	case "remove", "rm":
		if len(rest) != 1 {
			return usageErr("usage: git remote remove <name>\n")
		}
		if !has(rest[0]) {
			return &exitError{msg: fmt.Sprintf("error: No such remote: '%s'\n", rest[0]), code: 2}
		}
		c := g.loadConfig(r.gitDir)
		c.local.RemoveSubsection("remote", rest[0])
		for _, s := range c.local.Sections {
			if s.Name == "branch" {
				for _, ss := range s.Subsections {
					if ss.Option("remote") == rest[0] {
						ss.RemoveOption("remote")
						ss.RemoveOption("merge")
					}
				}
			}
		}
		if refs, err := r.refs(); err == nil {
			for _, ref := range refs {
				if strings.HasPrefix(string(ref.Name()), "refs/remotes/"+rest[0]+"/") {
					r.st.RemoveReference(ref.Name())
				}
			}
		}
		r.st.RemoveReference(plumbing.ReferenceName("refs/remotes/" + rest[0] + "/HEAD"))
		return g.writeConfig(c.local, c.localPath)
	case "get-url":
		if len(rest) != 1 {
			return usageErr("usage: git remote get-url [--push] [--all] <name>\n")
		}
		if !has(rest[0]) {
			return &exitError{msg: fmt.Sprintf("error: No such remote '%s'\n", rest[0]), code: 2}
		}
		url, _ := r.cfg.get("remote." + rest[0] + ".url")
		fmt.Fprintln(g.out, url)
		return nil
	case "set-url":
		if len(rest) != 2 {
			return usageErr("usage: git remote set-url [--push] <name> <newurl> [<oldurl>]\n")
		}
		if !has(rest[0]) {
			return &exitError{msg: fmt.Sprintf("error: No such remote '%s'\n", rest[0]), code: 2}
		}
		c := g.loadConfig(r.gitDir)
		c.local.SetOption("remote", rest[0], "url", rest[1])
		return g.writeConfig(c.local, c.localPath)
	}
	return &exitError{msg: "git: 'remote " + sub + "' is not supported here\n", code: 1}
}

// remoteNames are the configured remotes, sorted.
func (r *repo) remoteNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range r.cfg.files("") {
		for _, s := range f.Sections {
			if !strings.EqualFold(s.Name, "remote") {
				continue
			}
			for _, ss := range s.Subsections {
				if !seen[ss.Name] {
					seen[ss.Name] = true
					out = append(out, ss.Name)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// runMergeBase is git merge-base A B (the best common ancestor) and
// --is-ancestor A B (exit 0 or 1).
func runMergeBase(g *cmd, args []string) error {
	isAncestor := false
	var revs []string
	for _, a := range args {
		switch {
		case a == "--is-ancestor":
			isAncestor = true
		case strings.HasPrefix(a, "-"):
			return unknownOption("merge-base", a)
		default:
			revs = append(revs, a)
		}
	}
	if len(revs) != 2 {
		return usageErr("usage: git merge-base [-a | --all] <commit> <commit>...\n   or: git merge-base --is-ancestor <commit> <commit>\n")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	var hs [2]plumbing.Hash
	for i, rev := range revs {
		if hs[i], err = r.resolveCommit(rev); err != nil {
			return fatalf("Not a valid object name %s", rev)
		}
	}
	if isAncestor {
		marks := map[plumbing.Hash]bool{}
		if err := r.markAncestors(hs[1], marks); err != nil {
			return err
		}
		if !marks[hs[0]] {
			return exitStatus(1)
		}
		return nil
	}
	base, err := r.mergeBase(hs[0], hs[1])
	if err != nil {
		return err
	}
	if base.IsZero() {
		return exitStatus(1)
	}
	fmt.Fprintln(g.out, base)
	return nil
}

// runRevList is git rev-list: the commits log would walk, one id a line,
// or their number with --count.
func runRevList(g *cmd, args []string) error {
	count := false
	var lo []string
	for _, a := range args {
		switch a {
		case "--count":
			count = true
		default:
			lo = append(lo, a)
		}
	}
	o, err := parseLogArgs(lo)
	if err != nil {
		return err
	}
	if len(o.revs) == 0 && !o.all {
		return usageErr("usage: git rev-list [<options>] <commit>... [--] [<path>...]\n")
	}
	o.format, o.tformat, o.oneline = "%H", true, false
	o.count = count
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	return r.runLogWalk(o)
}
