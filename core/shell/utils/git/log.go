package git

import (
	"bufio"
	"bytes"
	"container/heap"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"gatehouse/core/shell/utils"
)

// logOptions are git log's flags.
type logOptions struct {
	max      int // -1: no limit
	format   string
	oneline  bool
	stat     bool
	patch    bool
	nameOnly bool
	nameStat bool
	revs     []string
	paths    []string
	tformat  bool // format lines end with "\n" (tformat) rather than separate
	all      bool // every ref, HEAD included, as starting points
	// Commit filters: --author, --committer, --grep (regexps, -i for
	// any case), --since/--after and --until/--before (committer
	// dates), --merges and --no-merges.
	author, committer, grep []string
	ignoreCase              bool
	since, until            *time.Time
	merges, noMerges        bool
	reverse                 bool
	decorate                bool
	count                   bool // rev-list --count: print how many
	graph                   bool // --graph
	firstParent             bool // --first-parent: a merge's first parent only
	// decorations are the ref names at each commit, when decorate or a
	// %d/%D placeholder shows them.
	decorations map[plumbing.Hash]string
	date        dateMode // --date
	// patchOut is -U<n>, --unified and --word-diff, which imply -p.
	patchOut diffOutput
	// -S, -G, --pickaxe-regex, --pickaxe-all (pickaxe.go); --follow.
	pickS, pickG             *string
	pickaxeRegex, pickaxeAll bool
	follow                   bool
	// shortStat is --shortstat: the stat's summary line alone.
	shortStat bool
	// pretty is --pretty=short, full, fuller or raw ("": medium).
	pretty string
	// reference is --pretty=reference: its dates are short unless
	// --date is given.
	reference bool
	// decorateFull is --decorate=full: full ref names.
	decorateFull bool
	// visit, when set, is given each commit the log would show, in its
	// order, instead of printing it (shortlog).
	visit func(*commit) error
}

func parseLogArgs(args []string) (logOptions, error) {
	o := logOptions{max: -1}
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash:
			o.paths = append(o.paths, a)
		case a == "--":
			dashdash = true
		case a == "--oneline":
			o.oneline = true
		case a == "--stat":
			o.stat = true
		case a == "-p" || a == "-u" || a == "--patch":
			o.patch = true
		case a == "--name-only":
			o.nameOnly = true
		case a == "--name-status":
			o.nameStat = true
		case a == "--no-decorate" || a == "--no-color" || a == "--no-graph" || a == "--decorate=no" || a == "--color=never":
		case a == "-M" || a == "--find-renames":
			// Renames are found by default, at git's 50% similarity.
		case a == "--decorate" || a == "--decorate=short" || a == "--decorate=auto" || a == "--decorate=full":
			o.decorate = a != "--decorate=auto"
			o.decorateFull = a == "--decorate=full"
		case a == "--reverse":
			o.reverse = true
		case a == "--merges" || a == "--min-parents=2":
			o.merges = true
		case a == "--no-merges" || a == "--max-parents=1":
			o.noMerges = true
		case a == "-i" || a == "--regexp-ignore-case":
			o.ignoreCase = true
		case a == "--author" || a == "--committer" || a == "--grep" || a == "--since" || a == "--after" || a == "--until" || a == "--before":
			if i+1 >= len(args) {
				return o, usageErr(fmt.Sprintf("error: option `%s' requires a value\n", a[2:]))
			}
			i++
			if err := o.filter(a, args[i]); err != nil {
				return o, err
			}
		case strings.HasPrefix(a, "--") && strings.Contains(a, "=") && isLogFilter(a[:strings.IndexByte(a, '=')]):
			name, v, _ := strings.Cut(a, "=")
			if err := o.filter(name, v); err != nil {
				return o, err
			}
		case a == "-n":
			if i+1 >= len(args) {
				return o, usageErr("error: switch `n' requires a value\n")
			}
			i++
			n, err := strconv.Atoi(args[i])
			if err != nil {
				return o, fatalf("'%s': not an integer", args[i])
			}
			o.max = n
		case strings.HasPrefix(a, "--max-count="):
			n, err := strconv.Atoi(strings.TrimPrefix(a, "--max-count="))
			if err != nil {
				return o, fatalf("'%s': not an integer", a)
			}
			o.max = n
		case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
			o.max, _ = strconv.Atoi(a[1:])
		case strings.HasPrefix(a, "-n") && isDigits(a[2:]):
			o.max, _ = strconv.Atoi(a[2:])
		case strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "--pretty="):
			f := a[strings.IndexByte(a, '=')+1:]
			switch {
			case strings.HasPrefix(f, "format:"):
				o.format = strings.TrimPrefix(f, "format:")
			case strings.HasPrefix(f, "tformat:"):
				o.format, o.tformat = strings.TrimPrefix(f, "tformat:"), true
			case f == "oneline":
				o.oneline = true
			case f == "medium" || f == "":
			case f == "short" || f == "full" || f == "fuller" || f == "raw":
				o.pretty = f
			case f == "reference":
				// "%h (%s, %ad)" with the short date unless --date says
				// otherwise (settled once all options are read).
				o.format, o.tformat, o.reference = "%h (%s, %ad)", true, true
			case f == "email" || f == "mboxrd":
				return o, &exitError{msg: "git: 'log --pretty=" + f + "' is not supported here\n", code: 1}
			default:
				if !strings.Contains(f, "%") {
					return o, fatalf("invalid --pretty format: %s", f)
				}
				o.format, o.tformat = f, true
			}
		case a == "--date" || strings.HasPrefix(a, "--date="):
			v, ok := strings.CutPrefix(a, "--date=")
			if !ok {
				if i+1 >= len(args) {
					return o, fatalf("Option '--date' requires a value")
				}
				i++
				v = args[i]
			}
			m, err := parseDateMode(v)
			if err != nil {
				return o, err
			}
			o.date = m
		case strings.HasPrefix(a, "-U") || strings.HasPrefix(a, "--unified") || strings.HasPrefix(a, "--word-diff") || a == "--numstat" || strings.HasPrefix(a, "--diff-filter="):
			if _, err := o.patchOut.parsePatchOption(a); err != nil {
				return o, err
			}
			o.patch = o.patch || o.patchOut.patch
		case a == "--relative-date":
			o.date = dateMode{kind: "relative"}
		case a == "--all":
			o.all = true
		case a == "--follow":
			o.follow = true
		case a == "--shortstat":
			o.shortStat = true
		case a == "--graph":
			o.graph = true
		case a == "--first-parent":
			o.firstParent = true
		case strings.HasPrefix(a, "-"):
			ok, consumed, err := o.pickaxeArg(a, args[i+1:])
			if err != nil {
				return o, err
			}
			if !ok {
				return o, unknownOption("log", a)
			}
			if consumed {
				i++
			}
		default:
			o.revs = append(o.revs, a)
		}
	}
	if o.reference && o.date.kind == "" {
		o.date = dateMode{kind: "short"}
	}
	return o, nil
}

// followed are the parents of c the walk goes on to.
func (o *logOptions) followed(c *commit) []plumbing.Hash {
	if o.firstParent && len(c.Parents) > 1 {
		return c.Parents[:1]
	}
	return c.Parents
}

// isLogFilter reports whether name is a log filter taking a value.
func isLogFilter(name string) bool {
	switch name {
	case "--author", "--committer", "--grep", "--since", "--after", "--until", "--before":
		return true
	}
	return false
}

// filter records one valued filter option.
func (o *logOptions) filter(name, v string) error {
	switch name {
	case "--author":
		o.author = append(o.author, v)
	case "--committer":
		o.committer = append(o.committer, v)
	case "--grep":
		o.grep = append(o.grep, v)
	default:
		t, ok := parseGitDate(v)
		if !ok {
			t, ok = relativeGitDate(v, time.Now())
		}
		if !ok {
			return &exitError{msg: "git: 'log " + name + "' with the date '" + v + "' is not supported here (give a date such as 2024-05-01 or an ISO time)\n", code: 1}
		}
		if name == "--since" || name == "--after" {
			o.since = &t
		} else {
			o.until = &t
		}
	}
	return nil
}

// relativeGitDate reads the relative dates of git's approxidate that
// agents give --since and --until: "2 weeks ago", "3.days.ago", "1 month",
// "yesterday", "last week", "now".
func relativeGitDate(v string, now time.Time) (time.Time, bool) {
	words := strings.Fields(strings.ToLower(strings.ReplaceAll(v, ".", " ")))
	switch strings.Join(words, " ") {
	case "now", "today":
		return now, true
	case "yesterday":
		return now.AddDate(0, 0, -1), true
	}
	if len(words) > 0 && words[len(words)-1] == "ago" {
		words = words[:len(words)-1]
	}
	if len(words) != 2 {
		return time.Time{}, false
	}
	n, err := strconv.Atoi(words[0])
	if words[0] == "last" || words[0] == "a" || words[0] == "an" {
		n, err = 1, nil
	}
	if err != nil || n < 0 {
		return time.Time{}, false
	}
	switch strings.TrimSuffix(words[1], "s") {
	case "second", "sec":
		return now.Add(-time.Duration(n) * time.Second), true
	case "minute", "min":
		return now.Add(-time.Duration(n) * time.Minute), true
	case "hour":
		return now.Add(-time.Duration(n) * time.Hour), true
	case "day":
		return now.AddDate(0, 0, -n), true
	case "week":
		return now.AddDate(0, 0, -7*n), true
	case "month":
		return now.AddDate(0, -n, 0), true
	case "year":
		return now.AddDate(-n, 0, 0), true
	}
	return time.Time{}, false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func runLog(g *cmd, args []string) error {
	o, err := parseLogArgs(args)
	if err != nil {
		return err
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	r.date = o.date
	return r.runLogWalk(o)
}

// runLogWalk finds the log's starting and excluded commits and walks.
func (r *repo) runLogWalk(o logOptions) error {
	var starts, excludes []plumbing.Hash
	r.splitRevsPaths(&o)
	if o.all {
		refs, err := r.refs()
		if err != nil {
			return err
		}
		for _, ref := range refs {
			if ref.Name().IsBranch() || ref.Name().IsTag() {
				if h, err := r.resolveCommit(ref.Hash().String()); err == nil {
					starts = append(starts, h)
				}
			}
		}
		if _, h, err := r.head(); err == nil && !h.IsZero() {
			starts = append(starts, h)
		}
	}
	if len(o.revs) == 0 && !o.all {
		branch, h, err := r.head()
		if err != nil {
			return err
		}
		if h.IsZero() {
			return fatalf("your current branch '%s' does not have any commits yet", branch.Short())
		}
		starts = []plumbing.Hash{h}
	}
	for _, rev := range o.revs {
		if from, to, ok := strings.Cut(rev, ".."); ok {
			fh, err := r.resolveCommit(orHead(from))
			if err != nil {
				return err
			}
			th, err := r.resolveCommit(orHead(to))
			if err != nil {
				return err
			}
			excludes = append(excludes, fh)
			starts = append(starts, th)
			continue
		}
		if strings.HasPrefix(rev, "^") {
			h, err := r.resolveCommit(rev[1:])
			if err != nil {
				return err
			}
			excludes = append(excludes, h)
			continue
		}
		h, err := r.resolveCommit(rev)
		if err != nil {
			return err
		}
		starts = append(starts, h)
	}
	var specs []pathspec
	if len(o.paths) > 0 {
		var err error
		if specs, err = r.pathspecs(o.paths); err != nil {
			return err
		}
	}
	if o.follow && len(specs) != 1 {
		return fatalf("--follow requires exactly one pathspec")
	}
	return r.walkLog(o, starts, excludes, specs)
}

// splitRevsPaths moves the operands from the first that names no
// revision but a file on to the paths: without "--", that file starts
// them, as git takes them.
func (r *repo) splitRevsPaths(o *logOptions) {
	for i, rev := range o.revs {
		if _, err := r.resolveCommit(rev); err != nil && !strings.Contains(rev, "..") && !strings.HasPrefix(rev, "^") && r.existsInWorktreeOrIndex(rev) {
			o.paths = append(append([]string{}, o.revs[i:]...), o.paths...)
			o.revs = o.revs[:i]
			return
		}
	}
}

func orHead(s string) string {
	if s == "" {
		return "HEAD"
	}
	return s
}

// walkLog prints commits newest first (by committer date), as git log's
// default order does.
func (r *repo) walkLog(o logOptions, starts, excludes []plumbing.Hash, specs []pathspec) error {
	hidden := map[plumbing.Hash]bool{}
	for _, h := range excludes {
		if err := r.markAncestors(h, hidden); err != nil {
			return err
		}
	}
	q := &commitQueue{}
	seen := map[plumbing.Hash]bool{}
	for _, h := range starts {
		if seen[h] || hidden[h] {
			continue
		}
		c, err := r.readCommit(h)
		if err != nil {
			return err
		}
		seen[h] = true
		heap.Push(q, c)
	}
	var mm mailmap
	if (len(o.author) > 0 || len(o.committer) > 0) && r.logMailmap() {
		mm = r.loadMailmap()
	}
	match, err := o.commitMatcher(mm)
	if err != nil {
		return err
	}
	pick, err := o.compilePickaxe()
	if err != nil {
		return err
	}
	if o.decorate || strings.Contains(o.format, "%d") || strings.Contains(o.format, "%D") {
		o.decorations = r.decorationsWith(o.decorateFull)
		r.decor = o.decorations
	}
	if o.graph && len(specs) == 0 && !o.count && pick == nil && o.visit == nil {
		return r.graphLog(o, q, seen, hidden, match)
	}
	type entry struct {
		c       *commit
		changes []fileChange
	}
	var held []entry // --reverse prints them at the end, oldest first
	shown := 0
	for q.Len() > 0 && (o.max < 0 || shown < o.max) {
		if err := r.g.env.Ctx.Err(); err != nil {
			return err
		}
		c := heap.Pop(q).(*commit)
		for _, p := range o.followed(c) {
			if seen[p] || hidden[p] {
				continue
			}
			seen[p] = true
			pc, err := r.readCommit(p)
			if err != nil {
				return err
			}
			heap.Push(q, pc)
		}
		if !match(c) {
			continue
		}
		var changes []fileChange
		needChanges := len(specs) > 0 || o.stat || o.shortStat || o.patch || o.nameOnly || o.nameStat || pick != nil || o.patchOut.numstat || o.patchOut.filter != ""
		if needChanges && (len(c.Parents) <= 1 || o.firstParent) {
			var err error
			if changes, err = r.firstParentChanges(c, specs); err != nil {
				return err
			}
			if len(specs) > 0 {
				changes = filterChanges(changes, specs)
				if len(changes) == 0 {
					continue
				}
			}
			if o.follow {
				if changes, err = r.followRename(c, changes, specs); err != nil {
					return err
				}
			}
			if pick != nil {
				if changes, err = pick.filter(r, changes); err != nil {
					return err
				}
				if len(changes) == 0 {
					continue
				}
			}
		} else if len(specs) > 0 || pick != nil || o.patchOut.filter != "" {
			continue // merges are left out of a path-limited or pickaxe log
		}
		if o.patchOut.filter != "" && len(o.patchOut.filtered(changes)) == 0 {
			continue
		}
		shown++
		if o.count {
			continue
		}
		if o.visit != nil {
			if err := o.visit(c); err != nil {
				return err
			}
			continue
		}
		if o.reverse || o.graph {
			held = append(held, entry{c, changes})
			continue
		}
		if err := r.printLogEntry(c, changes, o, shown > 1); err != nil {
			return err
		}
	}
	if o.count {
		fmt.Fprintln(r.g.out, shown)
	}
	if o.graph {
		cs := make([]*commit, len(held))
		changes := make([][]fileChange, len(held))
		for i, e := range held {
			cs[i], changes[i] = e.c, e.changes
		}
		return r.printGraph(cs, changes, o, hidden, len(specs) > 0)
	}
	for i := len(held) - 1; i >= 0; i-- {
		if err := r.printLogEntry(held[i].c, held[i].changes, o, i < len(held)-1); err != nil {
			return err
		}
	}
	return nil
}

// followRename is --follow at one commit: when the followed file was
// added here from a file the commit renamed (found among all its
// changes), its change is that rename, and the walk follows the old name
// from here on, as git's follow does (one name at a time). specs holds
// the one followed path, updated in place.
func (r *repo) followRename(c *commit, changes []fileChange, specs []pathspec) ([]fileChange, error) {
	at := -1
	for i, ch := range changes {
		if ch.path == specs[0].path && ch.old.Mode == 0 {
			at = i
		}
	}
	if at < 0 || len(c.Parents) == 0 {
		return changes, nil
	}
	all, err := r.firstParentChanges(c, nil)
	if err != nil {
		return nil, err
	}
	for _, ch := range all {
		if ch.path == specs[0].path && ch.from != "" {
			changes[at] = ch
			specs[0] = pathspec{arg: ch.from, path: ch.from}
			break
		}
	}
	return changes, nil
}

// firstParentChanges are what a commit changed from its first parent
// (from nothing for a root commit), within specs when there are any.
func (r *repo) firstParentChanges(c *commit, specs []pathspec) ([]fileChange, error) {
	from := plumbing.ZeroHash
	if len(c.Parents) > 0 {
		pc, err := r.readCommit(c.Parents[0])
		if err != nil {
			return nil, err
		}
		from = pc.Tree
	}
	return r.treeChangesIn(from, c.Tree, specs)
}

// printGraph is log --graph for a history drawn as one line of commits:
// each entry's first line marked "* ", the rest "| " while the line goes
// on below. A history with merges or side by side branches is refused.
func (r *repo) printGraph(cs []*commit, changes [][]fileChange, o logOptions, hidden map[plumbing.Hash]bool, pathLimited bool) error {
	if o.reverse {
		return fatalf("options '--reverse' and '--graph' cannot be used together")
	}
	for i, c := range cs {
		linear := len(c.Parents) <= 1
		if linear && !pathLimited && i+1 < len(cs) {
			linear = len(c.Parents) == 1 && c.Parents[0] == cs[i+1].Hash
		}
		if !linear {
			return &exitError{msg: "git: 'log --graph' of a history with merges or branches side by side is not supported here\n", code: 1}
		}
	}
	saved := r.g.out
	defer func() { r.g.out = saved }()
	for i, c := range cs {
		var buf bytes.Buffer
		r.g.out = bufio.NewWriter(&buf)
		if err := r.printLogEntry(c, changes[i], o, false); err != nil {
			return err
		}
		r.g.out.Flush()
		r.g.out = saved
		goesOn := i+1 < len(cs)
		if !pathLimited && len(c.Parents) == 1 && !hidden[c.Parents[0]] {
			goesOn = true
		}
		rest := "  "
		if goesOn {
			rest = "| "
		}
		if i > 0 && (o.format == "" && !o.oneline || o.format != "" && !o.tformat) {
			saved.WriteString("| \n")
		}
		text := strings.TrimSuffix(buf.String(), "\n")
		for k, ln := range strings.Split(text, "\n") {
			if k == 0 {
				saved.WriteString("* " + ln + "\n")
			} else {
				saved.WriteString(rest + ln + "\n")
			}
		}
	}
	return nil
}

// printLogEntry prints one commit of a log and its changes; more says
// another was printed before it.
func (r *repo) printLogEntry(c *commit, changes []fileChange, o logOptions, more bool) error {
	if more && o.format == "" && !o.oneline {
		r.g.out.WriteString("\n")
	} else if more && o.format != "" && !o.tformat {
		r.g.out.WriteString("\n")
	}
	r.printCommit(c, o)
	return r.printChanges(changes, o, o.oneline)
}

// commitMatcher is the log's filters as one test: every --author,
// --committer and --grep pattern is tried (any may match), the dates
// bound the committer date, --merges/--no-merges the parents. Authors and
// committers are matched as the mailmap names them (mm nil: as written).
func (o *logOptions) commitMatcher(mm mailmap) (func(*commit) bool, error) {
	compile := func(pats []string) ([]*regexp.Regexp, error) {
		var out []*regexp.Regexp
		for _, p := range pats {
			re, err := utils.TranslateRegex(p, utils.RegexOptions{})
			if err == nil && o.ignoreCase {
				re = "(?i)" + re
			}
			var rx *regexp.Regexp
			if err == nil {
				rx, err = regexp.Compile(re)
			}
			if err != nil {
				return nil, fatalf("command line, '%s': %s", p, errText(err))
			}
			out = append(out, rx)
		}
		return out, nil
	}
	authors, err := compile(o.author)
	if err != nil {
		return nil, err
	}
	committers, err := compile(o.committer)
	if err != nil {
		return nil, err
	}
	greps, err := compile(o.grep)
	if err != nil {
		return nil, err
	}
	anyOf := func(rs []*regexp.Regexp, text string) bool {
		if len(rs) == 0 {
			return true
		}
		for _, rx := range rs {
			if rx.MatchString(text) {
				return true
			}
		}
		return false
	}
	return func(c *commit) bool {
		switch {
		case o.merges && len(c.Parents) < 2, o.noMerges && len(c.Parents) > 1:
			return false
		case o.since != nil && c.Committer.When.Before(*o.since):
			return false
		case o.until != nil && c.Committer.When.After(*o.until):
			return false
		}
		a, cm := mm.mapIdent(c.Author), mm.mapIdent(c.Committer)
		return anyOf(authors, a.Name+" <"+a.Email+">") &&
			anyOf(committers, cm.Name+" <"+cm.Email+">") &&
			anyOf(greps, c.Message)
	}, nil
}

// decorationsWith is the ref names git log --decorate shows at each commit:
// HEAD first ("HEAD -> branch" when on one), then tags, remote branches
// and branches, each group in reverse name order, as git lists them.
// With full (--decorate=full) the names are whole: "HEAD ->
// refs/heads/main", "tag: refs/tags/v1", "refs/remotes/o/x".
func (r *repo) decorationsWith(full bool) map[plumbing.Hash]string {
	out := map[plumbing.Hash]string{}
	refs, err := r.refs()
	if err != nil {
		return out
	}
	// A remote's symbolic HEAD (origin/HEAD) decorates the commit it
	// leads to, in its place among the names, as git shows it.
	if remotes, err := r.remoteRefs(); err == nil {
		for _, ref := range remotes {
			if ref.Type() != plumbing.SymbolicReference {
				continue
			}
			if target, err := r.st.Reference(ref.Target()); err == nil && target.Type() == plumbing.HashReference {
				refs = append(refs, plumbing.NewHashReference(ref.Name(), target.Hash()))
			}
		}
		sort.Slice(refs, func(i, j int) bool { return refs[i].Name() < refs[j].Name() })
	}
	branch, head, _ := r.head()
	names := map[plumbing.Hash][]string{}
	for i := len(refs) - 1; i >= 0; i-- {
		ref := refs[i]
		var name string
		switch n := ref.Name(); {
		case n.IsTag():
			name = "tag: " + n.Short()
		case n.IsRemote():
			name = strings.TrimPrefix(string(n), "refs/remotes/")
		case n.IsBranch():
			if n == branch {
				continue
			}
			name = n.Short()
		default:
			continue
		}
		if full {
			name = strings.Replace(name, ref.Name().Short(), ref.Name().String(), 1)
			if ref.Name().IsRemote() {
				name = ref.Name().String()
			}
		}
		h, err := r.resolveCommit(ref.Hash().String())
		if err != nil {
			continue
		}
		names[h] = append(names[h], name)
	}
	if !head.IsZero() {
		first := "HEAD"
		if branch != "" {
			first = "HEAD -> " + branch.Short()
			if full {
				first = "HEAD -> " + branch.String()
			}
		}
		names[head] = append([]string{first}, names[head]...)
	}
	for h, ns := range names {
		out[h] = strings.Join(ns, ", ")
	}
	return out
}

// markAncestors marks h and everything it descends from.
func (r *repo) markAncestors(h plumbing.Hash, marks map[plumbing.Hash]bool) error {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if marks[h] {
			continue
		}
		marks[h] = true
		c, err := r.readCommit(h)
		if err != nil {
			return err
		}
		stack = append(stack, c.Parents...)
	}
	return nil
}

func filterChanges(cs []fileChange, specs []pathspec) []fileChange {
	var out []fileChange
	for _, c := range cs {
		if matchAny(specs, c.path) {
			out = append(out, c)
		}
	}
	return out
}

// printCommit prints one commit's header in the chosen format.
func (r *repo) printCommit(c *commit, o logOptions) {
	out := r.g.out
	switch {
	case o.format != "":
		out.WriteString(r.expandFormat(o.format, c))
		if o.tformat {
			out.WriteString("\n")
		}
	case o.oneline:
		fmt.Fprintf(out, "%s%s %s\n", r.abbrev(c.Hash), o.decoration(c.Hash), c.subject())
	default:
		r.printCommitHeader(c, o)
	}
}

// printCommitHeader is the medium format and its kin (--pretty=short,
// full, fuller, raw): the id, the idents (as the mailmap names them,
// raw's as written), the dates, the message indented (short: the
// subject's paragraph alone).
func (r *repo) printCommitHeader(c *commit, o logOptions) {
	out := r.g.out
	fmt.Fprintf(out, "commit %s%s\n", c.Hash, o.decoration(c.Hash))
	if o.pretty == "raw" {
		fmt.Fprintf(out, "tree %s\n", c.Tree)
		for _, p := range c.Parents {
			fmt.Fprintf(out, "parent %s\n", p)
		}
		fmt.Fprintf(out, "author %s\ncommitter %s\n\n", c.Author.encode(), c.Committer.encode())
		out.WriteString(indentMessage(c.Message))
		return
	}
	if len(c.Parents) > 1 {
		var ps []string
		for _, p := range c.Parents {
			ps = append(ps, r.abbrev(p))
		}
		fmt.Fprintf(out, "Merge: %s\n", strings.Join(ps, " "))
	}
	a, cm := c.Author, c.Committer
	if r.logMailmap() {
		a, cm = r.loadMailmap().mapIdent(a), r.loadMailmap().mapIdent(cm)
	}
	switch o.pretty {
	case "short":
		fmt.Fprintf(out, "Author: %s <%s>\n\n", a.Name, a.Email)
		para, _, _ := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n\n")
		out.WriteString(indentMessage(para))
		return
	case "full":
		fmt.Fprintf(out, "Author: %s <%s>\nCommit: %s <%s>\n\n", a.Name, a.Email, cm.Name, cm.Email)
	case "fuller":
		fmt.Fprintf(out, "Author:     %s <%s>\nAuthorDate: %s\nCommit:     %s <%s>\nCommitDate: %s\n\n",
			a.Name, a.Email, r.fmtDate(c.Author.When), cm.Name, cm.Email, r.fmtDate(c.Committer.When))
	default:
		fmt.Fprintf(out, "Author: %s <%s>\nDate:   %s\n\n", a.Name, a.Email, r.fmtDate(c.Author.When))
	}
	out.WriteString(indentMessage(c.Message))
}

// decoration is " (names)" for a commit refs point at, when decorating.
func (o logOptions) decoration(h plumbing.Hash) string {
	if d := o.decorations[h]; o.decorate && d != "" {
		return " (" + d + ")"
	}
	return ""
}

// gitDate is git's default date format.
func gitDate(t time.Time) string { return t.Format("Mon Jan 2 15:04:05 2006 -0700") }

// indentMessage indents a message by four spaces, as the medium format.
func indentMessage(m string) string {
	var b strings.Builder
	for _, ln := range strings.Split(strings.TrimRight(m, "\n"), "\n") {
		b.WriteString("    " + ln + "\n")
	}
	return b.String()
}

// expandFormat fills a --format string's placeholders.
func (r *repo) expandFormat(f string, c *commit) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		rest := f[i+1:]
		val, n := r.placeholder(rest, c)
		if n == 0 {
			b.WriteByte('%')
			continue
		}
		b.WriteString(val)
		i += n
	}
	return b.String()
}

// placeholder expands the placeholder at the start of s (after "%") and
// says how many bytes it took (0: not a placeholder).
func (r *repo) placeholder(s string, c *commit) (string, int) {
	two := func(p string) bool { return strings.HasPrefix(s, p) }
	parents := func(short bool) string {
		var ps []string
		for _, p := range c.Parents {
			if short {
				ps = append(ps, r.abbrev(p))
			} else {
				ps = append(ps, p.String())
			}
		}
		return strings.Join(ps, " ")
	}
	person := func(sig signature, k byte) (string, bool) {
		switch k {
		case 'n':
			return sig.Name, true
		case 'e':
			return sig.Email, true
		case 'N':
			return r.loadMailmap().mapIdent(sig).Name, true
		case 'E':
			return r.loadMailmap().mapIdent(sig).Email, true
		case 'd':
			return r.fmtDate(sig.When), true
		case 'r':
			return relativeDate(sig.When, time.Now()), true
		case 't':
			return strconv.FormatInt(sig.When.Unix(), 10), true
		case 'I':
			return sig.When.Format("2006-01-02T15:04:05-07:00"), true
		case 'i':
			return sig.When.Format("2006-01-02 15:04:05 -0700"), true
		case 's':
			return sig.When.Format("2006-01-02"), true
		case 'D':
			return sig.When.Format("Mon, 2 Jan 2006 15:04:05 -0700"), true
		}
		return "", false
	}
	switch {
	case two("H"):
		return c.Hash.String(), 1
	case two("h"):
		return r.abbrev(c.Hash), 1
	case two("T"):
		return c.Tree.String(), 1
	case two("t"):
		return r.abbrev(c.Tree), 1
	case two("P"):
		return parents(false), 1
	case two("p"):
		return parents(true), 1
	case two("s"):
		return c.subject(), 1
	case two("b"):
		return c.body(), 1
	case two("B"):
		return c.Message, 1
	case two("n"):
		return "\n", 1
	case two("d"):
		if d := r.decor[c.Hash]; d != "" {
			return " (" + d + ")", 1
		}
		return "", 1
	case two("D"):
		return r.decor[c.Hash], 1
	case two("%"):
		return "%", 1
	case two("a") && len(s) > 1:
		if v, ok := person(c.Author, s[1]); ok {
			return v, 2
		}
	case two("c") && len(s) > 1:
		if v, ok := person(c.Committer, s[1]); ok {
			return v, 2
		}
	}
	return "", 0
}

// commitQueue orders commits newest first by committer date; commits of
// the same date leave in the order they came (git's date-ordered list
// inserts a commit after those of its date).
type commitQueue struct {
	items []queued
	seq   int
}

type queued struct {
	c   *commit
	seq int
}

func (q *commitQueue) Len() int { return len(q.items) }
func (q *commitQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if !a.c.Committer.When.Equal(b.c.Committer.When) {
		return a.c.Committer.When.After(b.c.Committer.When)
	}
	return a.seq < b.seq
}
func (q *commitQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *commitQueue) Push(x any) {
	q.seq++
	q.items = append(q.items, queued{c: x.(*commit), seq: q.seq})
}
func (q *commitQueue) Pop() any {
	last := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return last.c
}
