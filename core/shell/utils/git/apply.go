package git

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// applyLine is one line of a hunk: ' ', '-' or '+' and its text, its
// newline included unless "\ No newline at end of file" followed it.
type applyLine struct {
	op   byte
	text string
}

// applyHunk is one "@@ -a,b +c,d @@" hunk.
type applyHunk struct {
	oldPos, oldLen, newPos, newLen int
	lines                          []applyLine
}

// applyPatch is one file's patch: its old and new names ("" for
// /dev/null), modes (0: not said) and hunks.
type applyPatch struct {
	oldName, newName string
	oldMode, newMode filemode.FileMode
	isNew, isDelete  bool
	hunks            []*applyHunk
}

// applyOptions are git apply's flags.
type applyOptions struct {
	check, verbose, reverse, cached, index, numstat, allowEmpty bool
	strip                                                       int
	stripGiven                                                  bool
	inputs                                                      []string
}

func parseApplyArgs(args []string) (applyOptions, error) {
	o := applyOptions{strip: 1}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--check":
			o.check = true
		case a == "-v" || a == "--verbose":
			o.verbose = true
		case a == "-R" || a == "--reverse":
			o.reverse = true
		case a == "--cached":
			o.cached = true
		case a == "--index":
			o.index = true
		case a == "--numstat":
			o.numstat = true
		case a == "--allow-empty":
			o.allowEmpty = true
		case a == "--apply" || a == "-q" || a == "--quiet" || strings.HasPrefix(a, "--whitespace=") || a == "--recount":
		case strings.HasPrefix(a, "-p") && len(a) > 2:
			n, err := strconv.Atoi(a[2:])
			if err != nil || n < 0 {
				return o, usageErr("error: option `p' expects a numerical value\n")
			}
			o.strip, o.stripGiven = n, true
		case a == "-p" && i+1 < len(args):
			i++
			n, err := strconv.Atoi(args[i])
			if err != nil || n < 0 {
				return o, usageErr("error: option `p' expects a numerical value\n")
			}
			o.strip, o.stripGiven = n, true
		case a == "-3" || a == "--3way" || a == "--reject" || a == "--stat" || a == "--summary" || strings.HasPrefix(a, "--directory") || strings.HasPrefix(a, "--include") || strings.HasPrefix(a, "--exclude") || strings.HasPrefix(a, "-C") || a == "--unidiff-zero":
			return o, &exitError{msg: "git: 'apply " + a + "' is not supported here\n", code: 1}
		case a == "-":
			o.inputs = append(o.inputs, a)
		case strings.HasPrefix(a, "-"):
			return o, unknownOption("apply", a)
		default:
			o.inputs = append(o.inputs, a)
		}
	}
	return o, nil
}

// applyStrip drops n leading components of a patch's path, as -p does
// (nil when the path has too few).
func applyStrip(name string, n int) (string, bool) {
	if name == "/dev/null" {
		return "", true
	}
	if i := strings.IndexAny(name, "\t"); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimSpace(name)
	if strings.HasPrefix(name, "\"") {
		if u, err := strconv.Unquote(name); err == nil {
			name = u
		}
	}
	for ; n > 0; n-- {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return "", false
		}
		name = name[i+1:]
	}
	return name, name != ""
}

// parseApplyText reads a patch's text into file patches, as git apply
// reads git's own diffs and plain unified ones.
func parseApplyText(text string, strip int, stripGiven bool) ([]*applyPatch, error) {
	lines := strings.SplitAfter(text, "\n")
	var out []*applyPatch
	var cur *applyPatch
	for i := 0; i < len(lines); i++ {
		ln := strings.TrimRight(lines[i], "\n")
		switch {
		case strings.HasPrefix(ln, "diff --git "):
			cur = &applyPatch{}
			out = append(out, cur)
			fields := strings.Fields(strings.TrimPrefix(ln, "diff --git "))
			if len(fields) == 2 {
				cur.oldName, _ = applyStrip(fields[0], strip)
				cur.newName, _ = applyStrip(fields[1], strip)
			}
		case cur != nil && len(cur.hunks) == 0 && strings.HasPrefix(ln, "new file mode "):
			cur.isNew, cur.newMode = true, applyMode(strings.TrimPrefix(ln, "new file mode "))
		case cur != nil && len(cur.hunks) == 0 && strings.HasPrefix(ln, "deleted file mode "):
			cur.isDelete, cur.oldMode = true, applyMode(strings.TrimPrefix(ln, "deleted file mode "))
		case cur != nil && len(cur.hunks) == 0 && strings.HasPrefix(ln, "old mode "):
			cur.oldMode = applyMode(strings.TrimPrefix(ln, "old mode "))
		case cur != nil && len(cur.hunks) == 0 && strings.HasPrefix(ln, "new mode "):
			cur.newMode = applyMode(strings.TrimPrefix(ln, "new mode "))
		case cur != nil && len(cur.hunks) == 0 && strings.HasPrefix(ln, "rename from "):
			cur.oldName = strings.TrimPrefix(ln, "rename from ")
		case cur != nil && len(cur.hunks) == 0 && strings.HasPrefix(ln, "rename to "):
			cur.newName = strings.TrimPrefix(ln, "rename to ")
		case strings.HasPrefix(ln, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			second := strings.TrimRight(lines[i+1], "\n")[4:]
			if cur == nil || len(cur.hunks) > 0 {
				// A traditional patch: no "diff --git" before it.
				cur = &applyPatch{}
				out = append(out, cur)
				if err := cur.traditionalNames(ln[4:], second, strip, stripGiven, i+1); err != nil {
					return nil, err
				}
			} else {
				oldN, ok1 := applyStrip(ln[4:], strip)
				newN, ok2 := applyStrip(second, strip)
				if ok1 && oldN != "" {
					cur.oldName = oldN
				}
				if ok2 && newN != "" {
					cur.newName = newN
				}
			}
			cur.isNew = cur.isNew || strings.HasPrefix(ln[4:], "/dev/null")
			cur.isDelete = cur.isDelete || strings.HasPrefix(second, "/dev/null")
			i++
		case strings.HasPrefix(ln, "@@ ") && cur != nil:
			h, next, err := parseApplyHunk(lines, i)
			if err != nil {
				return nil, err
			}
			cur.hunks = append(cur.hunks, h)
			i = next - 1
		case strings.HasPrefix(ln, "GIT binary patch"):
			return nil, &exitError{msg: "git: 'apply' of a binary patch is not supported here\n", code: 1}
		}
	}
	for _, p := range out {
		if p.isNew {
			p.oldName = ""
		}
		if p.isDelete {
			p.newName = ""
		}
	}
	return out, nil
}

// traditionalNames names a patch that has no git header as git apply
// does: -p guessed (0 when neither name has a "/"), the new name unless
// the old one is a shorter prefix of it.
func (p *applyPatch) traditionalNames(first, second string, strip int, stripGiven bool, line int) error {
	if !stripGiven {
		slash := func(s string) bool {
			n, _ := applyStrip(s, 0)
			return strings.Contains(n, "/")
		}
		if (first == "/dev/null" || !slash(first)) && (second == "/dev/null" || !slash(second)) {
			strip = 0
		}
	}
	a, okA := applyStrip(first, strip)
	b, okB := applyStrip(second, strip)
	name := b
	switch {
	case first == "/dev/null" || strings.HasPrefix(first, "/dev/null\t"):
		p.newName = b
	case second == "/dev/null" || strings.HasPrefix(second, "/dev/null\t"):
		name = a
		p.oldName = a
	default:
		if !okB || b == "" || okA && len(a) < len(b) && strings.HasPrefix(b, a) {
			name = a
		}
		p.oldName, p.newName = name, name
	}
	if name == "" {
		return &exitError{msg: fmt.Sprintf("error: unable to find filename in patch at line %d\n", line), code: 128}
	}
	return nil
}

func applyMode(s string) filemode.FileMode {
	n, _ := strconv.ParseUint(strings.TrimSpace(s), 8, 32)
	return filemode.FileMode(n)
}

// parseApplyHunk reads the hunk at lines[i], as many lines as its header
// counts.
func parseApplyHunk(lines []string, i int) (*applyHunk, int, error) {
	h := &applyHunk{}
	var a, b string
	if _, err := fmt.Sscanf(strings.TrimRight(lines[i], "\n"), "@@ -%s +%s @@", &a, &b); err != nil {
		return nil, 0, fatalf("corrupt patch at line %d", i+1)
	}
	h.oldPos, h.oldLen = applyRange(a)
	h.newPos, h.newLen = applyRange(b)
	oldLeft, newLeft := h.oldLen, h.newLen
	j := i + 1
	for ; j < len(lines) && (oldLeft > 0 || newLeft > 0); j++ {
		ln := lines[j]
		if ln == "" || ln == "\n" {
			ln = " \n" // an empty context line some editors leave
		}
		op := ln[0]
		switch op {
		case ' ':
			oldLeft--
			newLeft--
		case '-':
			oldLeft--
		case '+':
			newLeft--
		case '\\':
			continue
		default:
			return nil, 0, fatalf("corrupt patch at line %d", j+1)
		}
		h.lines = append(h.lines, applyLine{op: op, text: ln[1:]})
	}
	if oldLeft != 0 || newLeft != 0 {
		return nil, 0, fatalf("corrupt patch at line %d", j+1)
	}
	if j < len(lines) && strings.HasPrefix(lines[j], "\\") && len(h.lines) > 0 {
		last := &h.lines[len(h.lines)-1]
		last.text = strings.TrimSuffix(last.text, "\n")
		j++
	}
	// A "\ No newline" inside the hunk belongs to the line before it.
	return h, j, nil
}

func applyRange(s string) (pos, n int) {
	a, b, ok := strings.Cut(s, ",")
	pos, _ = strconv.Atoi(a)
	n = 1
	if ok {
		n, _ = strconv.Atoi(b)
	}
	return pos, n
}

// reversed is the patch undone (-R).
func (p *applyPatch) reversed() *applyPatch {
	q := &applyPatch{oldName: p.newName, newName: p.oldName, oldMode: p.newMode, newMode: p.oldMode, isNew: p.isDelete, isDelete: p.isNew}
	for _, h := range p.hunks {
		r := &applyHunk{oldPos: h.newPos, oldLen: h.newLen, newPos: h.oldPos, newLen: h.oldLen}
		for _, l := range h.lines {
			switch l.op {
			case '-':
				l.op = '+'
			case '+':
				l.op = '-'
			}
			r.lines = append(r.lines, l)
		}
		q.hunks = append(q.hunks, r)
	}
	return q
}

// applyHunks applies a file's hunks to its lines as git apply does: each
// at its line or the nearest offset where its whole context matches (a
// hunk from line 1 only at the start, one without trailing context only
// at the end); ok false names the failing hunk's old line.
func applyHunks(img []string, hunks []*applyHunk, say func(string)) ([]string, int, bool) {
	for n, h := range hunks {
		var pre, post []string
		trailing := 0
		for _, l := range h.lines {
			if l.op != '+' {
				pre = append(pre, l.text)
			}
			if l.op != '-' {
				post = append(post, l.text)
			}
			if l.op == ' ' {
				trailing++
			} else {
				trailing = 0
			}
		}
		beginning := h.oldPos == 0 || h.oldPos == 1
		end := trailing == 0
		line := 0
		if h.newPos > 0 {
			line = h.newPos - 1
		}
		if h.oldLen == 0 && h.oldPos > 0 {
			line = h.newPos
			if h.newLen == 0 {
				line = h.oldPos
			}
		}
		line = min(line, len(img))
		at := applyFind(img, pre, line, beginning, end)
		if at < 0 {
			if say != nil {
				say("error: while searching for:\n" + strings.Join(pre, "") + "\n")
			}
			return nil, h.oldPos, false
		}
		if off := at - line; say != nil && off != 0 {
			unit := "lines"
			if off == 1 {
				unit = "line"
			}
			say(fmt.Sprintf("Hunk #%d succeeded at %d (offset %d %s).\n", n+1, at+1, off, unit))
		}
		next := make([]string, 0, len(img)-len(pre)+len(post))
		next = append(append(append(next, img[:at]...), post...), img[at+len(pre):]...)
		img = next
	}
	return img, 0, true
}

// applyFind is git's find_pos: the match nearest line, trying forwards
// and backwards in turn.
func applyFind(img, pre []string, line int, beginning, end bool) int {
	match := func(at int) bool {
		if at < 0 || at+len(pre) > len(img) || beginning && at != 0 || end && at+len(pre) != len(img) {
			return false
		}
		for i, s := range pre {
			if img[at+i] != s {
				return false
			}
		}
		return true
	}
	back, fwd := line, line
	for i := 0; ; i++ {
		cur := line
		if i > 0 {
			if back == 0 && fwd >= len(img) {
				return -1
			}
			if i%2 == 1 && fwd < len(img) || back == 0 {
				fwd++
				cur = fwd
			} else {
				back--
				cur = back
			}
		}
		if match(cur) {
			return cur
		}
	}
}

// splitKeep splits text into lines, each with its newline.
func splitKeep(data []byte) []string {
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// runApply is git apply: patches (files or standard input) applied to
// the worktree (--cached: the index; --index: both), all or nothing, as
// git applies them; --check only checks, -R reverses, -pN strips, -v
// says what it does, --numstat counts. Files are read and written
// through the session's door: a hidden file is not there.
func runApply(g *cmd, args []string) error {
	o, err := parseApplyArgs(args)
	if err != nil {
		return err
	}
	var text bytes.Buffer
	if len(o.inputs) == 0 {
		o.inputs = []string{"-"}
	}
	for _, in := range o.inputs {
		if in == "-" {
			if _, err := io.Copy(&text, io.LimitReader(g.env.Stdin, 64<<20)); err != nil {
				return fatalf("%s", errText(err))
			}
			continue
		}
		data, err := readFile(g.fsys, g.env.Abs(in))
		if err != nil {
			return &exitError{msg: fmt.Sprintf("error: can't open patch '%s': %s\n", in, errText(err)), code: 128}
		}
		text.Write(data)
	}
	patches, err := parseApplyText(text.String(), o.strip, o.stripGiven)
	if err != nil {
		return err
	}
	if len(patches) == 0 {
		if o.allowEmpty {
			return nil
		}
		return &exitError{msg: "error: No valid patches in input (allow with \"--allow-empty\")\n", code: 128}
	}
	if o.reverse {
		for i, p := range patches {
			patches[i] = p.reversed()
		}
	}
	if o.numstat {
		for _, p := range patches {
			add, del := 0, 0
			for _, h := range p.hunks {
				for _, l := range h.lines {
					switch l.op {
					case '+':
						add++
					case '-':
						del++
					}
				}
			}
			name := p.newName
			if name == "" {
				name = p.oldName
			}
			fmt.Fprintf(g.out, "%d\t%d\t%s\n", add, del, quotePath(name))
		}
		if !o.check {
			return nil
		}
	}
	return applyAll(g, patches, o)
}

// applyFile is a file's state while patches apply: its content and mode
// (mode 0: no file).
type applyFile struct {
	data []byte
	mode filemode.FileMode
}

// applyTarget is where git apply reads and writes: the worktree's top
// (the cwd outside a repository), and the index with --cached/--index.
type applyTarget struct {
	g     *cmd
	r     *repo // nil outside a repository
	top   string
	idx   *index.Index
	state map[string]*applyFile // what earlier patches left, by path
}

// worktree reads a worktree file (a hidden one is not there).
func (t *applyTarget) worktree(p string) (*applyFile, error) {
	abs := path.Join(t.top, p)
	info, err := t.g.fsys.Lstat(abs)
	if err != nil {
		return &applyFile{}, nil
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := t.g.fsys.Readlink(abs)
		return &applyFile{data: []byte(target), mode: filemode.Symlink}, err
	}
	if info.IsDir() {
		return &applyFile{}, nil
	}
	data, err := readFile(t.g.fsys, abs)
	if err != nil {
		return nil, err
	}
	mode := filemode.Regular
	if info.Mode()&0o111 != 0 {
		mode = filemode.Executable
	}
	return &applyFile{data: data, mode: mode}, nil
}

// indexed reads a path's index version (a hidden path is not there).
func (t *applyTarget) indexed(p string) (*applyFile, error) {
	if t.r.hiddenPath(p) {
		return &applyFile{}, nil
	}
	for _, e := range t.idx.Entries {
		if e.Name == p && e.Stage == stageMerged {
			data, err := t.r.blob(e.Hash)
			return &applyFile{data: data, mode: e.Mode}, err
		}
	}
	return &applyFile{}, nil
}

// current is a path's state for the next patch: what an earlier patch
// left, else the index's (--cached) or the worktree's version.
func (t *applyTarget) current(p string, o applyOptions) (*applyFile, error) {
	if f, ok := t.state[p]; ok {
		return f, nil
	}
	if o.cached {
		return t.indexed(p)
	}
	return t.worktree(p)
}

// applyOne checks one patch against the current state and records its
// result, or says why it does not apply.
func (t *applyTarget) applyOne(p *applyPatch, o applyOptions, errs *strings.Builder) error {
	where := "working directory"
	if o.cached || o.index {
		where = "index"
	}
	var old *applyFile
	if p.isNew {
		cur, err := t.current(p.newName, o)
		if err != nil {
			return err
		}
		inIndex := &applyFile{}
		if o.index {
			if inIndex, err = t.indexed(p.newName); err != nil {
				return err
			}
		}
		if cur.mode != 0 || inIndex.mode != 0 {
			fmt.Fprintf(errs, "error: %s: already exists in %s\n", p.newName, where)
			return nil
		}
		old = &applyFile{}
	} else {
		cur, err := t.current(p.oldName, o)
		if err != nil {
			return err
		}
		if cur.mode == 0 {
			if where == "index" {
				fmt.Fprintf(errs, "error: %s: does not exist in index\n", p.oldName)
			} else {
				fmt.Fprintf(errs, "error: %s: No such file or directory\n", p.oldName)
			}
			return nil
		}
		if o.index {
			inIndex, err := t.indexed(p.oldName)
			if err != nil {
				return err
			}
			if _, done := t.state[p.oldName]; !done && (inIndex.mode == 0 || !bytes.Equal(inIndex.data, cur.data)) {
				fmt.Fprintf(errs, "error: %s: does not match index\n", p.oldName)
				return nil
			}
		}
		old = cur
	}
	var say func(string)
	if o.verbose {
		say = func(s string) {
			t.g.out.Flush()
			io.WriteString(t.g.errw, s)
		}
	}
	img, at, ok := applyHunks(splitKeep(old.data), p.hunks, say)
	if !ok {
		name := p.oldName
		if name == "" {
			name = p.newName
		}
		fmt.Fprintf(errs, "error: patch failed: %s:%d\nerror: %s: patch does not apply\n", name, at, name)
		return nil
	}
	data := []byte(strings.Join(img, ""))
	if p.isDelete {
		if len(data) > 0 {
			fmt.Fprintf(errs, "error: removal patch leaves file contents\nerror: %s: patch does not apply\n", p.oldName)
			return nil
		}
		t.state[p.oldName] = &applyFile{}
		return nil
	}
	mode := p.newMode
	if mode == 0 {
		mode = old.mode
	}
	if mode == 0 {
		mode = filemode.Regular
	}
	if p.oldName != "" && p.oldName != p.newName {
		t.state[p.oldName] = &applyFile{}
	}
	t.state[p.newName] = &applyFile{data: data, mode: mode}
	return nil
}

// applyAll checks every patch, then (all applying, and not --check)
// writes their results; one that does not apply writes nothing.
func applyAll(g *cmd, patches []*applyPatch, o applyOptions) error {
	t := &applyTarget{g: g, top: g.env.Dir, state: map[string]*applyFile{}}
	r, err := g.findRepo()
	switch {
	case err == nil:
		t.r, t.top = r, r.work
		if t.idx, err = r.loadIndex(); err != nil {
			return err
		}
	case o.cached || o.index:
		return err
	}
	var errs strings.Builder
	for _, p := range patches {
		if o.verbose {
			g.out.Flush()
			fmt.Fprintf(g.errw, "Checking patch %s...\n", applyDisplayName(p))
		}
		before := errs.Len()
		if err := t.applyOne(p, o, &errs); err != nil {
			return err
		}
		if o.verbose && errs.Len() > before {
			g.out.Flush()
			io.WriteString(g.errw, errs.String()[before:])
		}
	}
	if errs.Len() > 0 {
		msg := errs.String()
		if o.verbose {
			msg = ""
		}
		return &exitError{msg: msg, code: 1}
	}
	if o.check {
		return nil
	}
	if err := t.write(o); err != nil {
		return err
	}
	if o.verbose {
		for _, p := range patches {
			fmt.Fprintf(g.errw, "Applied patch %s cleanly.\n", applyDisplayName(p))
		}
	}
	return nil
}

func applyDisplayName(p *applyPatch) string {
	switch {
	case p.oldName == "":
		return p.newName
	case p.newName == "" || p.oldName == p.newName:
		return p.oldName
	}
	return p.oldName + " => " + p.newName
}

// write makes the worktree (unless --cached) and the index (--cached,
// --index) hold what the patches left, every write judged by the door
// before the first is made.
func (t *applyTarget) write(o applyOptions) error {
	names := make([]string, 0, len(t.state))
	for p := range t.state {
		names = append(names, p)
	}
	sort.Strings(names)
	if !o.cached {
		for _, p := range names {
			abs := path.Join(t.top, p)
			if t.state[p].mode != 0 {
				if err := t.g.fsys.CheckCreate(abs); err != nil {
					return &exitError{msg: fmt.Sprintf("error: unable to create file %s: %s\n", p, errText(err)), code: 1}
				}
			} else if err := t.g.fsys.CheckWrite(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return &exitError{msg: fmt.Sprintf("error: unable to remove %s: %s\n", p, errText(err)), code: 1}
			}
		}
		for _, p := range names {
			if err := t.writeWork(p, t.state[p]); err != nil {
				return err
			}
		}
	}
	if o.cached || o.index {
		return t.writeIndex(names, o.index)
	}
	return nil
}

// writeWork writes (or removes) one worktree file.
func (t *applyTarget) writeWork(p string, f *applyFile) error {
	abs := path.Join(t.top, p)
	if f.mode == 0 {
		t.g.fsys.Remove(abs)
		for dir := path.Dir(abs); dir != t.top && len(dir) > len(t.top); dir = path.Dir(dir) {
			if t.g.fsys.Remove(dir) != nil {
				break
			}
		}
		return nil
	}
	if err := mkdirAll(t.g.fsys, path.Dir(abs), 0o777); err != nil {
		return fatalf("unable to create directory for '%s': %s", p, errText(err))
	}
	if f.mode == filemode.Symlink {
		t.g.fsys.Remove(abs)
		if err := t.g.fsys.Symlink(string(f.data), abs); err != nil {
			return fatalf("unable to create symlink '%s': %s", p, errText(err))
		}
		return nil
	}
	perm := fs.FileMode(0o644)
	if f.mode == filemode.Executable {
		perm = 0o755
	}
	if err := writeFile(t.g.fsys, abs, f.data, perm); err != nil {
		return &exitError{msg: fmt.Sprintf("error: unable to create file %s: %s\n", p, errText(err)), code: 1}
	}
	return t.g.fsys.Chmod(abs, perm)
}

// writeIndex updates the index's entries for the patched paths (with
// --index, their stat data from the files just written).
func (t *applyTarget) writeIndex(names []string, withWork bool) error {
	lock, idx, err := t.r.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if _, touched := t.state[e.Name]; touched && e.Stage == stageMerged {
			continue
		}
		kept = append(kept, e)
	}
	idx.Entries = kept
	for _, p := range names {
		f := t.state[p]
		if f.mode == 0 {
			continue
		}
		h, err := t.r.writeObject(plumbing.BlobObject, f.data)
		if err != nil {
			return fatalf("%s", errText(err))
		}
		e := &index.Entry{Name: p, Hash: h, Mode: f.mode}
		if withWork {
			if info, err := t.g.fsys.Lstat(path.Join(t.top, p)); err == nil {
				e.Size, e.ModifiedAt, e.CreatedAt = uint32(info.Size()), info.ModTime(), info.ModTime()
			}
		}
		idx.Entries = append(idx.Entries, e)
	}
	sortIndex(idx)
	return lock.commit(idx)
}
