package git

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// noIndexSide is one file of a no-index diff: its name as git prints it
// (after "a/" or "b/"), its mode and content (mode 0: no file).
type noIndexSide struct {
	name string
	mode filemode.FileMode
	data []byte
}

// runDiffNoIndex is git diff --no-index (also git diff of two paths
// outside a repository): two files, or two directories file by file,
// compared as they are on disk, through the session's door (a hidden
// path is not there). Exit 1 when they differ.
func runDiffNoIndex(g *cmd, args []string, explicit bool) error {
	var d diffOutput
	var paths []string
	quiet, patch := false, false
	for i, a := range args {
		switch {
		case a == "--":
			paths = append(paths, args[i+1:]...)
		case a == "--no-index" || a == "--exit-code" || a == "--no-color" || a == "--color=never":
			continue
		case a == "--stat":
			d.stat = true
		case a == "--shortstat":
			d.shortstat = true
		case a == "--name-only":
			d.nameOnly = true
		case a == "--name-status":
			d.nameStatus = true
		case a == "-p" || a == "-u" || a == "--patch":
			patch = true
		case a == "--quiet":
			quiet = true
		case strings.HasPrefix(a, "-U") || strings.HasPrefix(a, "--unified"):
			if _, err := d.parsePatchOption(a); err != nil {
				return err
			}
			patch = patch || d.patch
		case strings.HasPrefix(a, "-") && a != "-":
			return &exitError{msg: "git: 'diff --no-index " + a + "' is not supported here\n", code: 1}
		default:
			paths = append(paths, a)
			continue
		}
		if a == "--" {
			break
		}
	}
	if len(paths) != 2 {
		if explicit {
			return usageErr(diffNoIndexUsage)
		}
		return usageErr(diffNoIndexWarning + diffNoIndexUsage)
	}
	d.patch = patch || !(d.stat || d.shortstat || d.nameOnly || d.nameStatus)
	changes, sides, err := noIndexChanges(g, paths[0], paths[1])
	if err != nil {
		return err
	}
	if !quiet {
		printNoIndexSummary(g, changes, sides, d)
		if d.patch && !d.nameOnly && !d.nameStatus {
			for _, s := range sides {
				writeNoIndexPatch(g, s[0], s[1], d)
			}
		}
	}
	if len(changes) > 0 {
		return exitStatus(1)
	}
	return nil
}

// printNoIndexSummary is --name-only (the second side's name, /dev/null
// for a deleted file), --name-status (M and D with the first side's name,
// A with the second's), --stat and --shortstat ("a => b" names).
func printNoIndexSummary(g *cmd, changes []fileChange, sides [][2]noIndexSide, d diffOutput) {
	switch {
	case d.nameOnly:
		for _, c := range changes {
			g.out.WriteString(quotePath(c.path) + "\n")
		}
	case d.nameStatus:
		for i := range changes {
			letter, name := "M", sides[i][0].name
			if sides[i][0].mode == 0 {
				letter, name = "A", sides[i][1].name
			} else if sides[i][1].mode == 0 {
				letter = "D"
			}
			g.out.WriteString(letter + "\t" + quotePath(name) + "\n")
		}
	case d.stat || d.shortstat:
		r := &repo{g: g}
		if d.stat {
			r.printStat(changes, false)
		}
		if d.shortstat {
			r.printStat(changes, true)
		}
		if d.patch && len(changes) > 0 {
			g.out.WriteString("\n")
		}
	}
}

// noIndexChanges pairs the files of two paths: two files with each
// other, two directories by their names inside them.
func noIndexChanges(g *cmd, a, b string) ([]fileChange, [][2]noIndexSide, error) {
	var pairs [][2]noIndexSide
	ai, err := g.fsys.Stat(g.env.Abs(a))
	if err != nil {
		return nil, nil, &exitError{msg: fmt.Sprintf("error: Could not access '%s'\n", a), code: 1}
	}
	bi, err := g.fsys.Stat(g.env.Abs(b))
	if err != nil {
		return nil, nil, &exitError{msg: fmt.Sprintf("error: Could not access '%s'\n", b), code: 1}
	}
	switch {
	case ai.IsDir() && bi.IsDir():
		names := map[string]bool{}
		for _, dir := range []string{a, b} {
			if err := noIndexWalk(g, dir, "", names); err != nil {
				return nil, nil, err
			}
		}
		keys := make([]string, 0, len(names))
		for k := range names {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			pa, err := noIndexRead(g, strings.TrimSuffix(a, "/")+"/"+k)
			if err != nil {
				return nil, nil, err
			}
			pb, err := noIndexRead(g, strings.TrimSuffix(b, "/")+"/"+k)
			if err != nil {
				return nil, nil, err
			}
			pairs = append(pairs, [2]noIndexSide{pa, pb})
		}
	case ai.IsDir() || bi.IsDir():
		return nil, nil, &exitError{msg: "git: 'diff --no-index' of a file and a directory is not supported here\n", code: 1}
	default:
		pa, err := noIndexRead(g, a)
		if err != nil {
			return nil, nil, err
		}
		pb, err := noIndexRead(g, b)
		if err != nil {
			return nil, nil, err
		}
		pairs = append(pairs, [2]noIndexSide{pa, pb})
	}
	var changes []fileChange
	var kept [][2]noIndexSide
	for _, p := range pairs {
		if p[0].mode == p[1].mode && string(p[0].data) == string(p[1].data) {
			continue
		}
		// git pairs the two sides' names, /dev/null for a missing one.
		c := fileChange{from: p[0].name, path: p[1].name, old: noIndexEntry(p[0]), new: noIndexEntry(p[1]), score: maxScore}
		if p[0].mode == 0 {
			c.from = "/dev/null"
		}
		if p[1].mode == 0 {
			c.path = "/dev/null"
		}
		if c.from == c.path {
			c.from = ""
		}
		c.binary = isBinary(p[0].data) || isBinary(p[1].data)
		c.sizes = [2]int64{int64(len(p[0].data)), int64(len(p[1].data))}
		if !c.binary {
			c.counts[0], c.counts[1] = lineCounts(p[0].data, p[1].data)
		}
		changes = append(changes, c)
		kept = append(kept, p)
	}
	return changes, kept, nil
}

// noIndexWalk collects the names of the files under dir (sub is the
// walk's place inside it).
func noIndexWalk(g *cmd, dir, sub string, names map[string]bool) error {
	entries, err := g.fsys.ReadDir(g.env.Abs(path.Join(dir, sub)))
	if err != nil {
		return &exitError{msg: fmt.Sprintf("error: Could not access '%s'\n", path.Join(dir, sub)), code: 1}
	}
	for _, e := range entries {
		name := path.Join(sub, e.Name())
		if e.IsDir() {
			if err := noIndexWalk(g, dir, name, names); err != nil {
				return err
			}
			continue
		}
		names[name] = true
	}
	return nil
}

// noIndexRead reads one side's file (a missing one is no file).
func noIndexRead(g *cmd, p string) (noIndexSide, error) {
	s := noIndexSide{name: strings.TrimLeft(p, "/")}
	abs := g.env.Abs(p)
	info, err := g.fsys.Lstat(abs)
	if err != nil {
		return s, nil
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := g.fsys.Readlink(abs)
		if err != nil {
			return s, &exitError{msg: fmt.Sprintf("error: Could not access '%s'\n", p), code: 1}
		}
		s.mode, s.data = filemode.Symlink, []byte(target)
	default:
		data, err := readFile(g.fsys, abs)
		if err != nil {
			return s, &exitError{msg: fmt.Sprintf("error: Could not access '%s'\n", p), code: 1}
		}
		s.mode, s.data = filemode.Regular, data
		if info.Mode()&0o111 != 0 {
			s.mode = filemode.Executable
		}
	}
	return s, nil
}

// noIndexEntry is a side as a diff's entry: its mode and blob id.
func noIndexEntry(s noIndexSide) flatEntry {
	if s.mode == 0 {
		return flatEntry{}
	}
	return flatEntry{Mode: s.mode, Hash: plumbing.ComputeHash(plumbing.BlobObject, s.data)}
}

// writeNoIndexPatch writes one pair's patch as git diff --no-index does.
func writeNoIndexPatch(g *cmd, a, b noIndexSide, d diffOutput) {
	out := g.out
	an, bn := a.name, b.name
	if a.mode == 0 {
		an = bn
	}
	if b.mode == 0 {
		bn = an
	}
	fmt.Fprintf(out, "diff --git %s %s\n", quotePath("a/"+an), quotePath("b/"+bn))
	oe, ne := noIndexEntry(a), noIndexEntry(b)
	short := func(h plumbing.Hash) string { return h.String()[:7] }
	switch {
	case a.mode == 0:
		fmt.Fprintf(out, "new file mode %o\nindex 0000000..%s\n", uint32(b.mode), short(ne.Hash))
	case b.mode == 0:
		fmt.Fprintf(out, "deleted file mode %o\nindex %s..0000000\n", uint32(a.mode), short(oe.Hash))
	case a.mode != b.mode:
		fmt.Fprintf(out, "old mode %o\nnew mode %o\n", uint32(a.mode), uint32(b.mode))
		if oe.Hash != ne.Hash {
			fmt.Fprintf(out, "index %s..%s\n", short(oe.Hash), short(ne.Hash))
		}
	default:
		fmt.Fprintf(out, "index %s..%s %o\n", short(oe.Hash), short(ne.Hash), uint32(b.mode))
	}
	if oe.Hash == ne.Hash {
		return
	}
	from, to := quotePath("a/"+an), quotePath("b/"+bn)
	if a.mode == 0 {
		from = "/dev/null"
	}
	if b.mode == 0 {
		to = "/dev/null"
	}
	if isBinary(a.data) || isBinary(b.data) {
		fmt.Fprintf(out, "Binary files %s and %s differ\n", from, to)
		return
	}
	fmt.Fprintf(out, "--- %s\n+++ %s\n", from, to)
	writeHunks(out, splitLines(a.data), splitLines(b.data), d)
}
