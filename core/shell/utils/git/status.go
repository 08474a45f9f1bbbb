package git

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// change is one path's difference between two sides (HEAD and index, or
// index and worktree).
type change struct {
	path string
	kind byte   // 'A' added, 'M' modified, 'D' deleted, 'T' type changed, 'R' renamed
	from string // a rename's old path
}

// status is the state git status reports.
type status struct {
	branch   plumbing.ReferenceName // "" when detached
	head     plumbing.Hash
	staged   []change
	unstaged []change
	unmerged []unmergedPath
	merging  bool       // MERGE_HEAD exists: a merge waits to be concluded
	picking  *pickState // a cherry-pick or revert waits (nil: none)
	scan     *scan
}

// unmergedPath is a conflicted path and which stages it has: bit 0 the
// base (stage 1), bit 1 ours (2), bit 2 theirs (3), as git's stagemask.
type unmergedPath struct {
	path string
	mask int
}

// unmergedCodes are status -s's two letters for each stage mask.
var unmergedCodes = [8]string{1: "DD", 2: "AU", 3: "UD", 4: "UA", 5: "DU", 6: "AA", 7: "UU"}

// unmergedLabels are the long format's words for each stage mask.
var unmergedLabels = [8]string{1: "both deleted:", 2: "added by us:", 3: "deleted by them:", 4: "added by them:", 5: "deleted by us:", 6: "both added:", 7: "both modified:"}

// unmergedOf lists the index's conflicted paths.
func unmergedOf(idx *index.Index) []unmergedPath {
	var out []unmergedPath
	for _, e := range idx.Entries {
		if e.Stage == stageMerged || e.Stage > 3 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].path == e.Name {
			out[n-1].mask |= 1 << (e.Stage - 1)
			continue
		}
		out = append(out, unmergedPath{path: e.Name, mask: 1 << (e.Stage - 1)})
	}
	return out
}

// collectStatus compares HEAD, the index and the worktree.
func (r *repo) collectStatus(allUntracked bool) (*status, *index.Index, error) {
	return r.collectStatusIgnored(allUntracked, "")
}

// collectStatusIgnored is collectStatus listing ignored paths too, as
// status --ignored does in the mode given ("" lists none).
func (r *repo) collectStatusIgnored(allUntracked bool, ignored string) (*status, *index.Index, error) {
	idx, err := r.loadIndex()
	if err != nil {
		return nil, nil, err
	}
	st := &status{}
	if st.branch, st.head, err = r.head(); err != nil {
		return nil, nil, err
	}
	s := newScanner(r, idx)
	s.allFiles = allUntracked
	s.ignoredMode = ignored
	if st.scan, err = s.run(); err != nil {
		return nil, nil, err
	}
	headTree, dirs, err := r.headAgainstIndex(idx)
	if err != nil {
		return nil, nil, err
	}
	st.staged = r.stagedChanges(headTree, dirs, s.entries, st.scan)
	if st.unmerged = unmergedOf(idx); len(st.unmerged) > 0 {
		kept := st.staged[:0]
		for _, c := range st.staged {
			if !s.unmerged[c.path] {
				kept = append(kept, c)
			}
		}
		st.staged = kept
	}
	_, st.merging = r.mergeHead()
	if !st.merging {
		st.picking = r.pickInProgress()
	}
	for _, name := range s.names {
		switch st.scan.tracked[name] {
		case wtModified:
			st.unstaged = append(st.unstaged, change{path: name, kind: 'M'})
		case wtDeleted:
			st.unstaged = append(st.unstaged, change{path: name, kind: 'D'})
		case wtTypeChange:
			st.unstaged = append(st.unstaged, change{path: name, kind: 'T'})
		}
	}
	return st, idx, nil
}

// stagedChanges compares HEAD's tree with the index, leaving out paths
// the door hides.
func (r *repo) stagedChanges(headTree map[string]flatEntry, dirs map[string]bool, entries map[string]*index.Entry, sc *scan) []change {
	var out []change
	visible := func(p string) bool {
		if _, seen := sc.files[p]; seen {
			return true
		}
		if sc.hidden[p] {
			return false
		}
		return !r.hiddenPath(p)
	}
	for p, e := range entries {
		if !dirs[path.Dir("/" + p)[1:]] {
			continue // a directory whose tree is HEAD's
		}
		h, ok := headTree[p]
		switch {
		case !ok:
			if visible(p) {
				out = append(out, change{path: p, kind: 'A'})
			}
		case h.Hash != e.Hash || h.Mode != e.Mode:
			if !visible(p) {
				continue
			}
			if (h.Mode == 0o120000) != (e.Mode == 0o120000) {
				out = append(out, change{path: p, kind: 'T'})
			} else {
				out = append(out, change{path: p, kind: 'M'})
			}
		}
	}
	for p := range headTree {
		if _, ok := entries[p]; !ok && visible(p) {
			out = append(out, change{path: p, kind: 'D'})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return r.stagedRenames(out, headTree, entries)
}

// stagedRenames pairs staged deletions with staged additions of the same
// or similar content into renames, as git status does.
func (r *repo) stagedRenames(cs []change, headTree map[string]flatEntry, entries map[string]*index.Entry) []change {
	dels, adds := false, false
	fcs := make([]fileChange, len(cs))
	kinds := make(map[string]byte, len(cs))
	for i, c := range cs {
		fc := fileChange{path: c.path}
		if c.kind != 'A' {
			fc.old = headTree[c.path]
		}
		if e := entries[c.path]; c.kind != 'D' && e != nil {
			fc.new = flatEntry{Hash: e.Hash, Mode: e.Mode}
		}
		dels = dels || c.kind == 'D' && isFileMode(fc.old.Mode)
		adds = adds || c.kind == 'A' && isFileMode(fc.new.Mode)
		fcs[i] = fc
		kinds[c.path] = c.kind
	}
	if !adds {
		return cs
	}
	var prints map[int]*fingerprint
	if dels {
		prints = map[int]*fingerprint{}
		for i, fc := range fcs {
			side := fc.new
			if kinds[fc.path] == 'D' {
				side = fc.old
			} else if kinds[fc.path] != 'A' {
				continue
			}
			if !isFileMode(side.Mode) {
				continue
			}
			if data, err := r.blob(side.Hash); err == nil {
				prints[i] = newFingerprint(data)
			}
		}
	}
	paired := pairRenames(fcs, prints, nil)
	if len(paired) == len(cs) {
		return cs
	}
	out := make([]change, 0, len(paired))
	for _, fc := range paired {
		if fc.from != "" {
			out = append(out, change{path: fc.path, kind: 'R', from: fc.from})
			continue
		}
		out = append(out, change{path: fc.path, kind: kinds[fc.path]})
	}
	return out
}

// statusOptions are git status's flags.
type statusOptions struct {
	short, porcelain, branch bool
	untracked                string // "no", "normal", "all"
	ignored                  string // "", "traditional", "matching"
	paths                    []string
}

func runStatus(g *cmd, args []string) error {
	o := statusOptions{untracked: "normal"}
	for _, a := range args {
		switch {
		case a == "-s" || a == "--short":
			o.short = true
		case a == "--porcelain" || a == "--porcelain=v1":
			o.porcelain = true
		case a == "-b" || a == "--branch":
			o.branch = true
		case a == "-sb" || a == "-bs":
			o.short, o.branch = true, true
		case a == "--long":
			o.short, o.porcelain = false, false
		case a == "-u" || a == "-uall" || a == "--untracked-files=all" || a == "--untracked-files":
			o.untracked = "all"
		case a == "-uno" || a == "--untracked-files=no":
			o.untracked = "no"
		case a == "-unormal" || a == "--untracked-files=normal":
			o.untracked = "normal"
		case a == "--ignored" || a == "--ignored=traditional":
			o.ignored = "traditional"
		case a == "--ignored=matching":
			o.ignored = "matching"
		case a == "--ignored=no":
			o.ignored = ""
		case strings.HasPrefix(a, "--ignored="):
			return fatalf("Invalid ignored mode '%s'", strings.TrimPrefix(a, "--ignored="))
		case a == "--":
		case strings.HasPrefix(a, "--porcelain="):
			return fatalf("unsupported porcelain version '%s'", strings.TrimPrefix(a, "--porcelain="))
		case strings.HasPrefix(a, "-"):
			return unknownOption("status", a)
		default:
			o.paths = append(o.paths, a)
		}
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	st, _, err := r.collectStatusIgnored(o.untracked == "all", o.ignored)
	if err != nil {
		return err
	}
	if len(o.paths) > 0 {
		specs, err := r.pathspecs(o.paths)
		if err != nil {
			return err
		}
		st.filter(specs)
	}
	if o.untracked == "no" {
		st.scan.untracked, st.scan.ignored = nil, nil
	}
	switch {
	case o.porcelain:
		r.printShort(st, o.branch, true)
	case o.short:
		r.printShort(st, o.branch, false)
	default:
		r.printLong(st, false)
	}
	return nil
}

// filter keeps what the pathspecs match.
func (st *status) filter(specs []pathspec) {
	keep := func(cs []change) []change {
		var out []change
		for _, c := range cs {
			if matchAny(specs, c.path) {
				out = append(out, c)
			}
		}
		return out
	}
	st.staged, st.unstaged = keep(st.staged), keep(st.unstaged)
	var um []unmergedPath
	for _, u := range st.unmerged {
		if matchAny(specs, u.path) {
			um = append(um, u)
		}
	}
	st.unmerged = um
	var u []string
	for _, p := range st.scan.untracked {
		if matchAny(specs, strings.TrimSuffix(p, "/")) {
			u = append(u, p)
		}
	}
	st.scan.untracked = u
	var ig []string
	for _, p := range st.scan.ignored {
		if matchAny(specs, strings.TrimSuffix(p, "/")) {
			ig = append(ig, p)
		}
	}
	st.scan.ignored = ig
}

// shortPath is a path as status prints it: relative to the cwd, or to the
// top for porcelain.
func (r *repo) shortPath(p string, porcelain bool) string {
	dir := strings.HasSuffix(p, "/")
	var s string
	if porcelain {
		s = p
	} else {
		s = r.rel(strings.TrimSuffix(p, "/"))
		if dir {
			s += "/"
		}
	}
	return quotePath(s)
}

func (r *repo) printShort(st *status, branch, porcelain bool) {
	out := r.g.out
	if branch {
		switch {
		case st.branch == "":
			out.WriteString("## HEAD (no branch)\n")
		case st.head.IsZero():
			fmt.Fprintf(out, "## No commits yet on %s\n", st.branch.Short())
		default:
			fmt.Fprintf(out, "## %s%s\n", st.branch.Short(), r.upstreamShort(st.branch, st.head))
		}
	}
	type row struct {
		x, y byte
		from string
	}
	rows := map[string]*row{}
	var names []string
	get := func(p string) *row {
		if rw, ok := rows[p]; ok {
			return rw
		}
		rw := &row{x: ' ', y: ' '}
		rows[p] = rw
		names = append(names, p)
		return rw
	}
	for _, c := range st.staged {
		rw := get(c.path)
		rw.x, rw.from = c.kind, c.from
	}
	for _, c := range st.unstaged {
		get(c.path).y = c.kind
	}
	for _, u := range st.unmerged {
		rw := get(u.path)
		rw.x, rw.y = unmergedCodes[u.mask][0], unmergedCodes[u.mask][1]
	}
	sort.Strings(names)
	for _, p := range names {
		rw := rows[p]
		if rw.from != "" {
			fmt.Fprintf(out, "%c%c %s -> %s\n", rw.x, rw.y, r.shortPath(rw.from, porcelain), r.shortPath(p, porcelain))
			continue
		}
		fmt.Fprintf(out, "%c%c %s\n", rw.x, rw.y, r.shortPath(p, porcelain))
	}
	for _, p := range st.scan.untracked {
		fmt.Fprintf(out, "?? %s\n", r.shortPath(p, porcelain))
	}
	for _, p := range st.scan.ignored {
		fmt.Fprintf(out, "!! %s\n", r.shortPath(p, porcelain))
	}
}

// statusLabel is the long format's word for a change, padded as git pads.
func statusLabel(kind byte, staged bool) string {
	switch kind {
	case 'A':
		return "new file:   "
	case 'D':
		return "deleted:    "
	case 'T':
		return "typechange: "
	case 'R':
		return "renamed:    "
	}
	return "modified:   "
}

// printLong prints the long format; forCommit is git commit's wording
// when there is nothing to commit ("Initial commit" before the first).
func (r *repo) printLong(st *status, forCommit bool) {
	out := r.g.out
	if st.branch == "" {
		fmt.Fprintf(out, "HEAD detached at %s\n", r.abbrev(st.head))
	} else {
		fmt.Fprintf(out, "On branch %s\n", st.branch.Short())
		if up := r.upstreamLine(st.branch, st.head); up != "" {
			out.WriteString(up + "\n")
		}
	}
	switch {
	case st.merging && len(st.unmerged) > 0:
		out.WriteString("You have unmerged paths.\n  (fix conflicts and run \"git commit\")\n  (use \"git merge --abort\" to abort the merge)\n\n")
	case st.merging:
		out.WriteString("All conflicts fixed but you are still merging.\n  (use \"git commit\" to conclude merge)\n\n")
	case st.picking != nil:
		r.printPicking(st)
	}
	if st.head.IsZero() && forCommit {
		out.WriteString("\nInitial commit\n\n")
	} else if st.head.IsZero() {
		out.WriteString("\nNo commits yet\n\n")
	}
	if len(st.staged) > 0 {
		out.WriteString("Changes to be committed:\n")
		switch {
		case st.merging || st.cherryPicking():
		case st.head.IsZero():
			out.WriteString("  (use \"git rm --cached <file>...\" to unstage)\n")
		default:
			out.WriteString("  (use \"git restore --staged <file>...\" to unstage)\n")
		}
		for _, c := range st.staged {
			name := quotePath(r.rel(c.path))
			if c.from != "" {
				name = quotePath(r.rel(c.from)) + " -> " + name
			}
			fmt.Fprintf(out, "\t%s%s\n", statusLabel(c.kind, true), name)
		}
		out.WriteString("\n")
	}
	r.printUnmerged(st)
	if len(st.unstaged) > 0 {
		out.WriteString("Changes not staged for commit:\n")
		deleted := false
		for _, c := range st.unstaged {
			deleted = deleted || c.kind == 'D'
		}
		if deleted {
			out.WriteString("  (use \"git add/rm <file>...\" to update what will be committed)\n")
		} else {
			out.WriteString("  (use \"git add <file>...\" to update what will be committed)\n")
		}
		out.WriteString("  (use \"git restore <file>...\" to discard changes in working directory)\n")
		for _, c := range st.unstaged {
			fmt.Fprintf(out, "\t%s%s\n", statusLabel(c.kind, false), quotePath(r.rel(c.path)))
		}
		out.WriteString("\n")
	}
	if len(st.scan.untracked) > 0 {
		out.WriteString("Untracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n")
		for _, p := range st.scan.untracked {
			fmt.Fprintf(out, "\t%s\n", r.shortPath(p, false))
		}
		out.WriteString("\n")
	}
	if len(st.scan.ignored) > 0 {
		out.WriteString("Ignored files:\n  (use \"git add -f <file>...\" to include in what will be committed)\n")
		for _, p := range st.scan.ignored {
			fmt.Fprintf(out, "\t%s\n", r.shortPath(p, false))
		}
		out.WriteString("\n")
	}
	switch {
	case len(st.staged) > 0:
	case len(st.unstaged) > 0 || len(st.unmerged) > 0:
		out.WriteString("no changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
	case len(st.scan.untracked) > 0:
		out.WriteString("nothing added to commit but untracked files present (use \"git add\" to track)\n")
	case st.head.IsZero():
		out.WriteString("nothing to commit (create/copy files and use \"git add\" to track)\n")
	default:
		out.WriteString("nothing to commit, working tree clean\n")
	}
}

// cherryPicking reports whether a cherry-pick waits to be committed
// (CHERRY_PICK_HEAD): git's status then words its hints as for a merge.
func (st *status) cherryPicking() bool {
	return st.picking != nil && st.picking.name == "cherry-pick" && !st.picking.head.IsZero()
}

// printPicking is the long format's account of a cherry-pick or revert
// in progress and how to go on.
func (r *repo) printPicking(st *status) {
	p, out := st.picking, r.g.out
	switch {
	case p.todo != nil && p.name == "revert":
		out.WriteString("Revert currently in progress.\n")
	case p.todo != nil:
		out.WriteString("Cherry-pick currently in progress.\n")
	case p.name == "revert":
		fmt.Fprintf(out, "You are currently reverting commit %s.\n", r.abbrev(p.head))
	default:
		fmt.Fprintf(out, "You are currently cherry-picking commit %s.\n", r.abbrev(p.head))
	}
	switch {
	case len(st.unmerged) > 0:
		fmt.Fprintf(out, "  (fix conflicts and run \"git %s --continue\")\n", p.name)
	case p.todo != nil:
		fmt.Fprintf(out, "  (run \"git %s --continue\" to continue)\n", p.name)
	default:
		fmt.Fprintf(out, "  (all conflicts fixed: run \"git %s --continue\")\n", p.name)
	}
	fmt.Fprintf(out, "  (use \"git %[1]s --skip\" to skip this patch)\n  (use \"git %[1]s --abort\" to cancel the %[1]s operation)\n\n", p.name)
}

// printUnmerged is the long format's "Unmerged paths:" section.
func (r *repo) printUnmerged(st *status) {
	if len(st.unmerged) == 0 {
		return
	}
	out := r.g.out
	out.WriteString("Unmerged paths:\n")
	switch {
	case st.merging || st.cherryPicking():
	case st.head.IsZero():
		out.WriteString("  (use \"git rm --cached <file>...\" to unstage)\n")
	default:
		out.WriteString("  (use \"git restore --staged <file>...\" to unstage)\n")
	}
	deletion := false
	for _, u := range st.unmerged {
		deletion = deletion || u.mask == 1 || u.mask == 3 || u.mask == 5
	}
	if deletion {
		out.WriteString("  (use \"git add/rm <file>...\" as appropriate to mark resolution)\n")
	} else {
		out.WriteString("  (use \"git add <file>...\" to mark resolution)\n")
	}
	for _, u := range st.unmerged {
		fmt.Fprintf(out, "\t%-17s%s\n", unmergedLabels[u.mask], quotePath(r.rel(u.path)))
	}
	out.WriteString("\n")
}

// quotePath quotes a path as git's core.quotePath does: a path with a
// control character, a quote, a backslash or a byte above 0x7f is printed
// in double quotes with C escapes.
func quotePath(p string) string {
	needs := false
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			needs = true
			break
		}
	}
	if !needs {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '\v':
			b.WriteString(`\v`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// unknownOption is git's parse-options answer to an option it lacks.
func unknownOption(sub, opt string) error {
	if strings.HasPrefix(opt, "--") {
		return usageErr(fmt.Sprintf("error: unknown option `%s'\nusage: git %s [<options>]\n", strings.TrimPrefix(opt, "--"), sub))
	}
	return usageErr(fmt.Sprintf("error: unknown switch `%s'\nusage: git %s [<options>]\n", strings.TrimPrefix(opt, "-")[:1], sub))
}
