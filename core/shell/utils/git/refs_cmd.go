package git

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// runShowRef is git show-ref: every ref with its id (--heads, --tags to
// narrow them, patterns matching a ref's last components, -d adding an
// annotated tag's peeled id as "NAME^{}", -s/--hash[=N] ids alone, -q
// nothing), --verify for exact names; status 1 when none matched.
func runShowRef(g *cmd, args []string) error {
	var heads, tags, deref, hashOnly, quiet, verify, head bool
	abbrev := 40
	var patterns []string
	for _, a := range args {
		switch {
		case a == "--heads":
			heads = true
		case a == "--tags":
			tags = true
		case a == "-d" || a == "--dereference":
			deref = true
		case a == "-s" || a == "--hash":
			hashOnly = true
		case strings.HasPrefix(a, "--hash="):
			n, err := strconv.Atoi(strings.TrimPrefix(a, "--hash="))
			if err != nil {
				return usageErr("error: option `hash' expects a numerical value\n")
			}
			hashOnly, abbrev = true, max(4, min(n, 40))
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--verify":
			verify = true
		case a == "--head":
			head = true
		case a == "--":
		case strings.HasPrefix(a, "-"):
			return unknownOption("show-ref", a)
		default:
			patterns = append(patterns, a)
		}
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	refs, err := r.refs()
	if err != nil {
		return err
	}
	show := func(name string, h plumbing.Hash) {
		if quiet {
			return
		}
		id := h.String()[:abbrev]
		if hashOnly {
			fmt.Fprintln(g.out, id)
		} else {
			fmt.Fprintf(g.out, "%s %s\n", id, name)
		}
		if deref {
			if t, data, err := r.readObject(h); err == nil && t == plumbing.TagObject {
				if p, err := r.peel(decodeTag(data).Object, ""); err == nil {
					fmt.Fprintf(g.out, "%s %s^{}\n", p.String()[:abbrev], name)
				}
			}
		}
	}
	if verify {
		for _, p := range patterns {
			ref, ok := findRef(refs, p)
			if !ok && p == "HEAD" {
				if _, h, err := r.head(); err == nil && !h.IsZero() {
					show("HEAD", h)
					continue
				}
			}
			if !ok {
				return fatalf("'%s' - not a valid ref", p)
			}
			show(ref.Name().String(), ref.Hash())
		}
		return nil
	}
	found := false
	if head {
		if _, h, err := r.head(); err == nil && !h.IsZero() {
			show("HEAD", h)
			found = true
		}
	}
	for _, ref := range refs {
		name := ref.Name().String()
		if (heads || tags) && !(heads && ref.Name().IsBranch() || tags && ref.Name().IsTag()) {
			continue
		}
		if len(patterns) > 0 && !refTailMatch(name, patterns) {
			continue
		}
		show(name, ref.Hash())
		found = true
	}
	if !found {
		return exitStatus(1)
	}
	return nil
}

// findRef is the ref of exactly this full name.
func findRef(refs []*plumbing.Reference, name string) (*plumbing.Reference, bool) {
	for _, ref := range refs {
		if ref.Name().String() == name {
			return ref, true
		}
	}
	return nil, false
}

// refTailMatch is show-ref's pattern match: the whole name, or its last
// components ("main" matches refs/heads/main and refs/remotes/o/main).
func refTailMatch(name string, patterns []string) bool {
	for _, p := range patterns {
		if name == p || strings.HasSuffix(name, "/"+p) {
			return true
		}
	}
	return false
}

// runSymbolicRef is git symbolic-ref NAME: the ref a symbolic ref
// (HEAD) points at (--short: its short name; -q: silent, status 1, when
// it points at none); with a target it points HEAD there.
func runSymbolicRef(g *cmd, args []string) error {
	var short, quiet bool
	var names []string
	for _, a := range args {
		switch {
		case a == "--short":
			short = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--no-recurse" || a == "--recurse":
		case a == "-d" || a == "--delete" || a == "-m":
			return &exitError{msg: "git: 'symbolic-ref " + a + "' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "-"):
			return unknownOption("symbolic-ref", a)
		default:
			names = append(names, a)
		}
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	if len(names) == 0 || len(names) > 2 {
		return usageErr("usage: git symbolic-ref [-m <reason>] <name> <ref>\n   or: git symbolic-ref [-q] [--short] [--no-recurse] <name>\n   or: git symbolic-ref --delete [-q] <name>\n")
	}
	name := names[0]
	if len(names) == 2 {
		if name != "HEAD" {
			return &exitError{msg: "git: 'symbolic-ref' of a ref other than HEAD is not supported here\n", code: 1}
		}
		if !strings.HasPrefix(names[1], "refs/") {
			return fatalf("Refusing to point HEAD outside of refs/")
		}
		if err := r.st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.ReferenceName(names[1]))); err != nil {
			return fatalf("cannot lock ref 'HEAD': %s", errText(err))
		}
		return nil
	}
	ref, err := r.st.Reference(plumbing.ReferenceName(name))
	if err != nil {
		return fatalf("No such ref: %s", name)
	}
	if ref.Type() != plumbing.SymbolicReference {
		if quiet {
			return exitStatus(1)
		}
		return fatalf("ref %s is not a symbolic ref", name)
	}
	target := ref.Target()
	if short {
		fmt.Fprintln(g.out, target.Short())
	} else {
		fmt.Fprintln(g.out, target.String())
	}
	return nil
}
