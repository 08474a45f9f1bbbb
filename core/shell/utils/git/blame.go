package git

import (
	"container/heap"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// blameLine is who a line of the blamed file comes from: the commit that
// brought it (nil: not committed yet), the path it had there, and whether
// that commit is where history begins (git's "^").
type blameLine struct {
	c        *commit
	path     string
	boundary bool
}

// blameTask is lines of a file at one commit still looking for the commit
// that brought them: final[i] is the blamed file's line at lines[i].
type blameTask struct {
	c     *commit
	path  string
	final []int
	lines []int
}

// runBlame is git blame [-s] [-L a,b] [REV] [--] FILE: each line with the
// commit that last changed it, following the file's renames, the first
// parent first at a merge. Paths the door hides are not there (G-4.5).
func runBlame(g *cmd, args []string) error {
	var operands []string
	suppress := false
	from, to := 0, 0
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash || !strings.HasPrefix(a, "-"):
			operands = append(operands, a)
		case a == "--":
			dashdash = true
		case a == "-s":
			suppress = true
		case a == "-L" || strings.HasPrefix(a, "-L"):
			spec := strings.TrimPrefix(a, "-L")
			if spec == "" {
				if i+1 >= len(args) {
					return usageErr("error: switch `L' requires a value\n")
				}
				i++
				spec = args[i]
			}
			a, b, ok := strings.Cut(spec, ",")
			x, err1 := strconv.Atoi(a)
			y, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil || x < 1 || y < x {
				return &exitError{msg: "git: 'blame -L " + spec + "' is not supported here (give -L START,END)\n", code: 1}
			}
			from, to = x, y
		default:
			return &exitError{msg: "git: 'blame " + a + "' is not supported here\n", code: 1}
		}
	}
	if len(operands) == 0 || len(operands) > 2 {
		return usageErr("usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>\n")
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	rev, file := "", operands[len(operands)-1]
	if len(operands) == 2 {
		rev = operands[0]
	}
	p, ok := r.workPath(file)
	if !ok {
		return fatalf("%s: '%s' is outside repository at '%s'", file, file, r.work)
	}
	lines, blamed, err := r.blame(rev, p, file)
	if err != nil {
		return err
	}
	if to == 0 {
		from, to = 1, len(lines)
	}
	if from > len(lines) {
		return fatalf("file %s has only %d line%s", file, len(lines), plural(len(lines)))
	}
	to = min(to, len(lines))
	r.printBlame(lines, blamed, p, from, to, suppress)
	return nil
}

// blame gives the lines of the file (the worktree's, or REV's) and who
// each comes from.
func (r *repo) blame(rev, p, arg string) ([][]byte, []blameLine, error) {
	if err := r.readablePath(p); err != nil {
		where := rev
		if where == "" {
			where = "HEAD"
		}
		return nil, nil, fatalf("no such path '%s' in %s", arg, where)
	}
	start := rev
	if start == "" {
		start = "HEAD"
	}
	h, err := r.resolveCommit(start)
	if err != nil {
		return nil, nil, fatalf("bad revision '%s'", start)
	}
	c, err := r.readCommit(h)
	if err != nil {
		return nil, nil, err
	}
	committed, ok, err := r.pathContent(c.Tree, p)
	if err != nil {
		return nil, nil, err
	}
	var data []byte
	if rev == "" {
		info, err := r.g.fsys.Lstat(r.abs(p))
		if err != nil {
			if !ok {
				return nil, nil, fatalf("no such path '%s' in HEAD", arg)
			}
			data = committed
		} else if data, err = r.workContent(p, info); err != nil {
			return nil, nil, fatalf("cannot open '%s': %s", arg, errText(err))
		}
	} else {
		if !ok {
			return nil, nil, fatalf("no such path %s in %s", p, rev)
		}
		data = committed
	}
	lines := splitLines(data)
	blamed := make([]blameLine, len(lines))
	// Lines the commit does not have are not committed yet.
	task := &blameTask{c: c, path: p}
	if ok {
		for _, e := range diffLines(splitLines(committed), lines) {
			if e.op == opEqual {
				task.final = append(task.final, e.b)
				task.lines = append(task.lines, e.a)
			}
		}
	}
	return lines, blamed, r.blameHistory(task, blamed)
}

// blameHistory hands lines back through history, newest commit first,
// until each rests with the commit that brought it.
func (r *repo) blameHistory(first *blameTask, blamed []blameLine) error {
	q := &commitQueue{}
	tasks := map[string]*blameTask{}
	key := func(t *blameTask) string { return t.c.Hash.String() + ":" + t.path }
	add := func(t *blameTask) {
		if old, ok := tasks[key(t)]; ok {
			old.final = append(old.final, t.final...)
			old.lines = append(old.lines, t.lines...)
			return
		}
		tasks[key(t)] = t
		// The queue orders commits by date; a stand-in carries the
		// task's path in its message so the pop finds the task again.
		heap.Push(q, &commit{Hash: t.c.Hash, Committer: t.c.Committer, Message: t.path})
	}
	if len(first.final) > 0 {
		add(first)
	}
	for q.Len() > 0 {
		if err := r.stopped(); err != nil {
			return err
		}
		top := heap.Pop(q).(*commit)
		t := tasks[top.Hash.String()+":"+top.Message]
		delete(tasks, key(t))
		data, _, err := r.pathContent(t.c.Tree, t.path)
		if err != nil {
			return err
		}
		mine := splitLines(data)
		pending := map[int]int{} // line here -> final line
		for i, l := range t.lines {
			pending[l] = t.final[i]
		}
		for _, ph := range t.c.Parents {
			if len(pending) == 0 {
				break
			}
			pc, err := r.readCommit(ph)
			if err != nil {
				return err
			}
			ppath, ok, err := r.blameParentPath(pc, t.c, t.path)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			pdata, _, err := r.pathContent(pc.Tree, ppath)
			if err != nil {
				return err
			}
			next := &blameTask{c: pc, path: ppath}
			for _, e := range diffLines(splitLines(pdata), mine) {
				if f, waiting := pending[e.b]; e.op == opEqual && waiting {
					next.final = append(next.final, f)
					next.lines = append(next.lines, e.a)
					delete(pending, e.b)
				}
			}
			if len(next.final) > 0 {
				add(next)
			}
		}
		for _, f := range pending {
			blamed[f] = blameLine{c: t.c, path: t.path, boundary: len(t.c.Parents) == 0}
		}
	}
	return nil
}

// blameParentPath is the path a file had in a parent: the same, or the
// old name of a rename the commit made (unless that name is hidden).
func (r *repo) blameParentPath(parent, c *commit, p string) (string, bool, error) {
	if _, ok, err := r.pathContent(parent.Tree, p); err != nil || ok {
		return p, ok, err
	}
	changes, err := r.treeChanges(parent.Tree, c.Tree)
	if err != nil {
		return "", false, err
	}
	for _, ch := range changes {
		if ch.path == p && ch.from != "" && !r.hiddenPath(ch.from) {
			return ch.from, true, nil
		}
	}
	return "", false, nil
}

// pathContent is a file's content in a tree (ok false: not there).
func (r *repo) pathContent(tree plumbing.Hash, p string) ([]byte, bool, error) {
	h := tree
	parts := strings.Split(p, "/")
	for i, part := range parts {
		entries, err := r.readTree(h)
		if err != nil {
			return nil, false, err
		}
		found := false
		for _, e := range entries {
			last := i == len(parts)-1
			if e.Name == part && last != (e.Mode == filemode.Dir) {
				h, found = e.Hash, true
				break
			}
		}
		if !found {
			return nil, false, nil
		}
	}
	data, err := r.blob(h)
	return data, err == nil, err
}

// printBlame prints lines from..to (1-based) in git blame's default form.
func (r *repo) printBlame(lines [][]byte, blamed []blameLine, final string, from, to int, suppress bool) {
	showPath, nameWidth, pathWidth := false, 0, 0
	for i := from - 1; i < to; i++ {
		b := blamed[i]
		name := "Not Committed Yet"
		if b.c != nil {
			name = r.loadMailmap().mapIdent(b.c.Author).Name
			showPath = showPath || b.path != final
		}
		nameWidth = max(nameWidth, len(name))
		pathWidth = max(pathWidth, len(b.pathOr(final)))
	}
	digits := len(strconv.Itoa(to))
	now := time.Now()
	// git blame widens the abbreviation by one for the boundary's '^'.
	n := r.abbrevLen()
	for i := from - 1; i < to; i++ {
		b := blamed[i]
		id, name, when := strings.Repeat("0", n+1), "Not Committed Yet", now
		if b.c != nil {
			id, name, when = b.c.Hash.String()[:n+1], r.loadMailmap().mapIdent(b.c.Author).Name, b.c.Author.When
			if b.boundary {
				id = "^" + b.c.Hash.String()[:n]
			}
		}
		var s strings.Builder
		s.WriteString(id)
		if showPath {
			fmt.Fprintf(&s, " %-*s", pathWidth, b.pathOr(final))
		}
		if !suppress {
			fmt.Fprintf(&s, " (%-*s %s", nameWidth, name, when.Format("2006-01-02 15:04:05 -0700"))
		}
		fmt.Fprintf(&s, " %*d) ", digits, i+1)
		r.g.out.WriteString(s.String())
		r.g.out.Write(lines[i])
		if !strings.HasSuffix(string(lines[i]), "\n") {
			r.g.out.WriteString("\n")
		}
	}
}

func (b blameLine) pathOr(final string) string {
	if b.c == nil {
		return final
	}
	return b.path
}
